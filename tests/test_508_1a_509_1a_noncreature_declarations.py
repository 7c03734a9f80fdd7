"""508.1a, 508.1b, 509.1a: only creatures attack and block, and only a player,
a planeswalker or a battle is attacked. A declaration that breaks one of these
rules is an illegal play judged by the rule base (`legal: false`, exit 1, the
rule and its message in English and Italian), not unreadable input: the file's
other questions are still answered (spec, section 6)."""

import json

from mtgkb.cli import main

TABLE = (
    "players: Rob, Alex\n"
    "active: Rob\n"
    'Rob controls creature "Raging Goblin" 1/1\n'
    'Rob controls land "Mountain"\n'
    'Alex controls creature "Grizzly Bears" 2/2\n'
    'Alex controls land "Forest"\n'
)
QUESTIONS = "ask legal\nask defending players\n"


def judged(tmp_path, capsys, declarations: str, lang: str) -> tuple[int, dict]:
    path = tmp_path / "play.mtg"
    path.write_text(TABLE + declarations + QUESTIONS, encoding="utf-8")
    status = main(["run", str(path), "--json", "--lang", lang])
    return status, json.loads(capsys.readouterr().out)


def violations(answers: dict) -> set[tuple[str, str]]:
    legal = answers["answers"][0]
    assert legal["ask"] == "legal" and legal["legal"] is False
    return {(v["rule"], v["message"]) for v in legal["violations"]}


def other_question_answered(answers: dict) -> None:
    defending = answers["answers"][1]
    assert defending["ask"] == "defending" and defending["players"] == ["Alex"]


def test_508_1a_a_land_that_attacks_is_an_illegal_declaration(tmp_path, capsys):
    status, en = judged(tmp_path, capsys, '"Mountain" attacks Alex\n', "en")
    assert status == 1
    assert ("508.1a", "Mountain is not a creature, so it can't attack") in violations(en)
    other_question_answered(en)
    status, it = judged(tmp_path, capsys, '"Mountain" attacks Alex\n', "it")
    assert status == 1
    assert ("508.1a", "Mountain non è una creatura, quindi non può attaccare") in violations(it)
    other_question_answered(it)


def test_509_1a_a_land_that_blocks_is_an_illegal_declaration(tmp_path, capsys):
    play = '"Raging Goblin" attacks Alex\n"Forest" blocks "Raging Goblin"\n'
    status, en = judged(tmp_path, capsys, play, "en")
    assert status == 1
    assert violations(en) == {("509.1a", "Forest is not a creature, so it can't block")}
    other_question_answered(en)
    status, it = judged(tmp_path, capsys, play, "it")
    assert status == 1
    assert violations(it) == {("509.1a", "Forest non è una creatura, quindi non può bloccare")}


def test_509_1a_a_creature_blocking_a_land_blocks_no_attacking_creature(tmp_path, capsys):
    play = '"Mountain" attacks Alex\n"Grizzly Bears" blocks "Mountain"\n'
    status, en = judged(tmp_path, capsys, play, "en")
    assert status == 1
    assert ("509.1a", "Grizzly Bears can't block Mountain: Mountain is not a creature") in (
        violations(en)
    )
    assert {rule for rule, _ in violations(en)} == {"508.1a", "509.1a"}


def test_508_1b_an_attack_on_a_land_is_an_illegal_declaration(tmp_path, capsys):
    play = '"Raging Goblin" attacks "Forest"\n'
    status, en = judged(tmp_path, capsys, play, "en")
    assert status == 1
    expected = "Raging Goblin attacks Forest, which is not a player, planeswalker or battle"
    assert ("508.1b", expected) in violations(en)
    other_question_answered(en)
    status, it = judged(tmp_path, capsys, play, "it")
    assert status == 1
    assert any(rule == "508.1b" and "Forest" in text for rule, text in violations(it))


def test_508_1a_an_unknown_attacker_is_still_bad_input(tmp_path, capsys):
    path = tmp_path / "play.mtg"
    path.write_text(TABLE + '"Goblin King" attacks Alex\n' + QUESTIONS, encoding="utf-8")
    assert main(["run", str(path)]) == 2
    assert f"{path}:7:1: error: unknown object" in capsys.readouterr().err


def test_508_1b_a_creature_declared_attacking_two_things_is_an_illegal_declaration(
    tmp_path, capsys
):
    play = '"Raging Goblin" attacks Alex\n"Raging Goblin" attacks "Forest"\n'
    status, en = judged(tmp_path, capsys, play, "en")
    assert status == 1
    rules = {rule for rule, _ in violations(en)}
    assert rules == {"508.1b"}
    assert any("attacks both Alex and Forest" in text for _, text in violations(en))


def test_702_22c_a_creature_in_two_bands_is_an_illegal_declaration(tmp_path, capsys):
    banding = TABLE + (
        'Rob controls creature "Knight" 2/2 with banding\nRob controls creature "Page" 1/1\n'
    )
    play = (
        '"Knight" attacks Alex\n"Page" attacks Alex\n"Raging Goblin" attacks Alex\n'
        'band "Knight", "Page"\nband "Raging Goblin", "Knight"\n'
    )
    path = tmp_path / "bands.mtg"
    path.write_text(banding + play + QUESTIONS, encoding="utf-8")

    for lang, text in (
        ("en", "Knight is in more than one band"),
        ("it", "Knight è in più di una banda"),
    ):
        status = main(["run", str(path), "--json", "--lang", lang])
        answers = json.loads(capsys.readouterr().out)
        assert status == 1
        assert ("702.22c", text) in violations(answers)
        other_question_answered(answers)
