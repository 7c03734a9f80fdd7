"""510.1, 510.1a-d, 702.19b, 702.22h: a declared damage assignment that the
rules forbid is an illegal play (`legal: false`, exit 1, the rule and its
message in English and Italian), and the file's other questions are answered
(spec, section 6): only an assignment that can't be read is bad input.

The table: a 6/6 trampler attacks Alex and is blocked by a 1/1; a 2/2 stays
home; a 3/3 of Alex's does not block."""

import json

from mtgkb.cli import main

TABLE = (
    "players: Rob, Alex\n"
    "active: Rob\n"
    'Rob controls creature "Dreadmaw" 6/6 with trample\n'
    'Rob controls creature "Bear" 2/2\n'
    'Alex controls creature "Rats" 1/1\n'
    'Alex controls creature "Ogre" 3/3\n'
    '"Dreadmaw" attacks Alex\n'
    '"Rats" blocks "Dreadmaw"\n'
)
QUESTIONS = "ask legal\nask defending players\n"


def judged(tmp_path, capsys, text: str, lang: str = "en") -> tuple[int, dict]:
    path = tmp_path / "assign.mtg"
    path.write_text(text + QUESTIONS, encoding="utf-8")
    status = main(["run", str(path), "--json", "--lang", lang])
    return status, json.loads(capsys.readouterr().out)


def verdict(tmp_path, capsys, assignment: str, table: str = TABLE, lang: str = "en"):
    """(exit status, {(rule, message)}) of `ask legal`, after checking that the
    file's other question was answered."""
    status, answers = judged(tmp_path, capsys, table + assignment, lang)
    legal, defending = answers["answers"]
    assert defending["ask"] == "defending" and defending["players"] == ["Alex"]
    found = {(v["rule"], v["message"]) for v in legal.get("violations", [])}
    assert legal["legal"] is (not found)
    return status, found


def test_510_1_a_creature_not_in_combat_assigns_no_combat_damage(tmp_path, capsys):
    status, found = verdict(tmp_path, capsys, '"Bear" assigns 2 damage to Alex\n')
    assert status == 1
    assert found == {
        ("510.1", "Bear is neither attacking nor blocking, so it assigns no combat damage")
    }
    status, found = verdict(tmp_path, capsys, '"Bear" assigns 2 damage to Alex\n', lang="it")
    assert status == 1
    assert found == {
        ("510.1", "Bear non attacca e non blocca, quindi non assegna danno da combattimento")
    }


def test_510_1c_a_blocked_attacker_assigns_only_to_its_blockers_or_with_trample_what_it_attacks(
    tmp_path, capsys
):
    text = '"Dreadmaw" assigns 3 damage to "Rats", 3 damage to "Ogre"\n'
    status, found = verdict(tmp_path, capsys, text)
    assert status == 1
    assert {rule for rule, _ in found} == {"510.1c"}
    assert any("Ogre" in message and "one of its blockers" in message for _, message in found)


def test_510_1d_a_blocker_assigns_only_to_what_it_blocks(tmp_path, capsys):
    status, found = verdict(tmp_path, capsys, '"Rats" assigns 1 damage to Alex\n')
    assert status == 1
    assert {rule for rule, _ in found} == {"510.1d"}
    status, found = verdict(tmp_path, capsys, '"Rats" assigns 1 damage to "Dreadmaw"\n')
    assert status == 0 and found == set()


def test_510_1a_the_amounts_add_up_to_the_creatures_power(tmp_path, capsys):
    text = '"Dreadmaw" assigns 2 damage to "Rats", 3 damage to Alex\n'
    status, found = verdict(tmp_path, capsys, text)
    assert status == 1
    expected = (
        "the amounts assigned by Dreadmaw add up to 5, but its power is 6: "
        "a creature assigns combat damage equal to its power"
    )
    assert found == {("510.1a", expected)}
    status, found = verdict(tmp_path, capsys, text, lang="it")
    assert {rule for rule, _ in found} == {"510.1a"}
    assert all("sommano a 5" in message for _, message in found)


def test_510_1a_a_creature_with_no_power_assigns_nothing(tmp_path, capsys):
    table = TABLE.replace('"Bear" 2/2', '"Bear" 0/2') + '"Bear" attacks Alex\n'
    status, found = verdict(tmp_path, capsys, '"Bear" assigns 1 damage to Alex\n', table)
    assert status == 1
    assert {rule for rule, _ in found} == {"510.1a"}


def test_702_19b_a_trampler_assigns_lethal_damage_to_its_blocker_first(tmp_path, capsys):
    # The case: "C" assigns 3 damage to Alex while its blocker has no lethal damage.
    table = (
        "players: Rob, Alex\nactive: Rob\n"
        'Rob controls creature "C" 3/3 with trample\n'
        'Alex controls creature "Bears" 2/2\n'
        '"C" attacks Alex\n"Bears" blocks "C"\n'
    )
    status, found = verdict(tmp_path, capsys, '"C" assigns 3 damage to Alex\n', table)
    assert status == 1
    assert {rule for rule, _ in found} == {"702.19b"}
    # 510.1c: without trample, none of it may go to Alex; the amounts must still add up.
    plain = table.replace(" with trample", "")
    status, found = verdict(tmp_path, capsys, '"C" assigns 4 damage to Alex\n', plain)
    assert status == 1
    assert {rule for rule, _ in found} == {"510.1a", "510.1c"}
    status, found = verdict(
        tmp_path, capsys, '"C" assigns 2 damage to "Bears", 1 damage to Alex\n', table
    )
    assert status == 0 and found == set()


def test_702_22h_a_creature_blocking_one_band_member_is_a_recipient_of_the_whole_band(
    tmp_path, capsys
):
    table = (
        "players: Rob, Alex\nactive: Rob\n"
        'Rob controls creature "Knight" 2/2 with banding\n'
        'Rob controls creature "Squire" 1/2\n'
        'Alex controls creature "Wall" 0/5\n'
        'Alex controls creature "Bird" 1/1\n'
        '"Knight" attacks Alex\n"Squire" attacks Alex\nband "Knight", "Squire"\n'
        '"Wall" blocks "Knight"\n'
    )
    status, found = verdict(tmp_path, capsys, '"Squire" assigns 1 damage to "Wall"\n', table)
    assert status == 0 and found == set()
    status, found = verdict(tmp_path, capsys, '"Squire" assigns 1 damage to "Bird"\n', table)
    assert status == 1 and {rule for rule, _ in found} == {"510.1c"}
