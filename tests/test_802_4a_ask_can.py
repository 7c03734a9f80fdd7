"""Spec sections 10 and 12, `ask can PLAY`: a play judged as a hypothesis
against the scenario as written. Attacks and blocks: some legal declaration
of the step contains the play (508.1, 509.1; the file's own declarations of
that step are not assumed); other plays: legal in the moment the setup
describes (117.1, 305.1, 506.2a, 702.22c, 722.6); `P target X`: only the
target (702.11, 702.16, 702.18). forbidden_by is a minimal set of rules."""

import pytest
from helpers.answering import engine, run

from mtgkb.language.errors import ScenarioError
from mtgkb.running.runner import answer_text

FFA = """game: free-for-all
option: attack-multiple-players
players: Rob, Alex, Carissa
active: Rob
Rob controls creature "Runeclaw Bear" 2/2
Rob controls creature "Hill Giant" 3/3
Alex controls creature "Grizzly Bears" 2/2
Carissa controls creature "Giant Spider" 2/4 with reach
"Runeclaw Bear" attacks Alex
"Hill Giant" attacks Carissa
"""


def can(text: str, play: str) -> dict:
    (out,) = [a for a in run(text + f"ask can {play}\n")["answers"] if a["ask"] == "can"]
    return out


def test_802_4a_a_block_of_a_creature_attacking_another_player_cannot_be_made():
    out = can(FFA, '"Grizzly Bears" block "Hill Giant"')
    assert out["play"] == "Grizzly Bears blocks Hill Giant"
    assert out["can"] is False
    assert out["forbidden_by"] == ["802.4a"]
    assert [v["rule"] for v in out["violations"]] == ["802.4a"]
    assert out["violations"][0]["objects"] == ["Grizzly Bears", "Hill Giant"]
    assert "Hill Giant attacks neither" in out["violations"][0]["message"]
    assert {"802.4a"} <= set(out["rules"])


def test_509_1a_802_4a_a_block_of_a_creature_attacking_the_blocker_can_be_made():
    out = can(FFA, '"Grizzly Bears" block "Runeclaw Bear"')
    assert out["can"] is True and out["forbidden_by"] == [] and out["violations"] == []
    assert "509.1a" in out["rules"]


def test_509_1_the_files_own_blocks_are_not_assumed():
    # the file's block is illegal; the question is about another block of the step
    text = FFA + '"Grizzly Bears" blocks "Hill Giant"\n'
    out = can(text, '"Giant Spider" block "Hill Giant"')
    assert out["can"] is True
    # and the hypothesis is no declaration: ask legal still judges the file alone
    answers = run(text + 'ask legal\nask can "Giant Spider" block "Hill Giant"\n')["answers"]
    assert answers[0]["legal"] is False
    assert [v["objects"] for v in answers[0]["violations"]] == [["Grizzly Bears", "Hill Giant"]]


def test_702_111b_a_menace_attacker_can_be_blocked_when_another_blocker_may_join():
    text = """players: Ann, Ben
Ann controls creature "Goblin" 2/2 with menace
Ben controls creature "Bear" 2/2
Ben controls creature "Elf" 1/1
"Goblin" attacks Ben
"""
    assert can(text, '"Bear" block "Goblin"')["can"] is True
    alone = text.replace('Ben controls creature "Elf" 1/1\n', "")
    out = can(alone, '"Bear" block "Goblin"')
    assert out["can"] is False and "702.111b" in out["forbidden_by"]


def test_509_1b_a_creature_that_cant_block_alone_needs_a_possible_partner():
    text = """players: Ann, Ben
Ann controls creature "Goblin" 2/2
Ben controls creature "Bear" 2/2 with can't block alone
Ben controls creature "Elf" 1/1 with tapped
"Goblin" attacks Ben
"""
    out = can(text, '"Bear" block "Goblin"')
    assert out["can"] is False and out["forbidden_by"] == ["509.1b"]
    untapped = text.replace(" with tapped", "")
    assert can(untapped, '"Bear" block "Goblin"')["can"] is True


def test_508_1a_a_tapped_creature_cannot_attack():
    text = FFA.replace('"Hill Giant" 3/3', '"Hill Giant" 3/3 with tapped')
    out = can(text, '"Hill Giant" attack Alex')
    assert out["can"] is False and out["forbidden_by"] == ["508.1a"]
    assert out["violations"][0]["message"] == "Hill Giant is tapped, so it can't attack"


def test_802_2_508_1a_a_creature_can_attack_another_opponent_than_declared():
    out = can(FFA, '"Hill Giant" attack Alex')
    assert out["can"] is True and "508.1a" in out["rules"] and "802.2" in out["rules"]


def test_802_3_a_creature_cannot_attack_a_teammate_or_itself():
    out = can(FFA, '"Hill Giant" attack Rob')
    assert out["can"] is False and out["violations"][0]["rule"] == "802.2"


def test_506_2a_only_an_opponent_can_be_chosen_as_defending_player():
    text = """game: commander
players: Rob, Alex, Carissa
Rob controls creature "Bear" 2/2
"""
    assert can(text, "Rob choose Alex as defending player")["can"] is True
    out = can(text, "Alex choose Carissa as defending player")
    assert out["can"] is False and out["forbidden_by"] == ["506.2a"]


def test_702_22c_a_band_needs_a_creature_with_banding():
    text = """players: Ann, Ben
Ann controls creature "Knight" 2/2 with banding
Ann controls creature "Bear" 2/2
Ann controls creature "Elf" 1/1
"""
    assert can(text, 'band "Knight", "Bear"')["can"] is True
    out = can(text, 'band "Bear", "Elf"')
    assert out["can"] is False and out["forbidden_by"] == ["702.22c"]


def test_119_4_ask_can_pay_keeps_the_answer_of_section_5():
    out = run("players: Ann, Ben\nlife: Ann 3\nask can Ann pay 5 life\n")["answers"][0]
    assert out["ask"] == "pay" and out["can"] is False and "119.4" in out["rules"]


def test_307_1_a_sorcery_cannot_be_cast_while_the_stack_is_not_empty():
    text = 'players: Ann, Ben\nstack: "Shock" controlled by Ben\n'
    out = can(text, 'Ann cast sorcery "Divination"')
    assert out["play"] == "Ann casts sorcery Divination"
    # 117.1a gives sorcery timing to every spell that is no instant and has no
    # flash; 307.1 says a sorcery has it: together they forbid the cast
    assert out["can"] is False and out["forbidden_by"] == ["117.1a", "307.1"]
    assert can("players: Ann, Ben\n", 'Ann cast sorcery "Divination"')["can"] is True


def test_305_2_a_second_land_cannot_be_played():
    text = "players: Ann, Ben\nlands played: Ann 1\n"
    out = can(text, 'Ann play land "Forest"')
    assert out["can"] is False and out["forbidden_by"] == ["305.2"]


def test_722_6_making_a_controlled_player_concede_is_never_legal():
    text = "players: Ann, Ben\nAnn controls player Ben\n"
    out = can(text, "Ann make Ben concede")
    assert out["can"] is False and "722.6" in out["forbidden_by"]


def test_702_11c_702_18a_702_16b_what_a_colorless_spell_may_target():
    text = """players: Ann, Ben, Cat
Ben has hexproof
Cat has shroud
Ann has protection from red
"""
    hexproof = can(text, "Ann target Ben")
    assert hexproof["can"] is False and "702.11c" in hexproof["forbidden_by"]
    shroud = can(text, "Ann target Cat")
    assert shroud["can"] is False and "702.18a" in shroud["forbidden_by"]
    # a spell of no color is not stopped by protection from red (702.16b)
    assert can(text, "Ann target Ann")["can"] is True
    # the target alone: a sorcery-speed moment does not matter
    busy = text + 'stack: "Shock" controlled by Ben\npriority: Ben\n'
    assert can(busy, "Ann target Ann")["can"] is True


def test_spec_12_ask_can_no_does_not_change_the_exit_status():
    result = answer_text(
        FFA + 'ask can "Grizzly Bears" block "Hill Giant"\n', "x.mtg", engine=engine()
    )
    assert result.status == 0
    assert result.output["answers"][0]["can"] is False


@pytest.mark.parametrize(
    "play, column, words",
    [
        ('"Grizzly Bears" blok "Hill Giant"', 25, "base form"),
        ('"Grizzly Bears" block "Nobody"', 31, "unknown"),
        ('"Grizzly Bears" block', 30, "ends too early"),
        ("Alex choose Zed as defending player", 21, "unknown player"),
    ],
)
def test_spec_10_a_bad_play_is_an_input_error_at_its_place(play, column, words):
    line = FFA.count("\n") + 1
    with pytest.raises(ScenarioError) as caught:
        run(FFA + f"ask can {play}\n", "f.mtg")
    err = caught.value
    assert (err.line, err.column) == (line, column)
    assert words in err.message
    assert err.format().startswith(f"f.mtg:{line}:{column}: error: ")


def test_702_19b_a_trampler_assigns_lethal_damage_to_its_blocker_first():
    text = """players: Rob, Alex
Rob controls creature "Colossal Dreadmaw" 6/6 with trample
Alex controls creature "Typhoid Rats" 1/1
"Colossal Dreadmaw" attacks Alex
"Typhoid Rats" blocks "Colossal Dreadmaw"
"""
    ok = can(text, '"Colossal Dreadmaw" assign 1 damage to "Typhoid Rats", 5 damage to Alex')
    assert ok["can"] is True and "510.1c" in ok["rules"]
    out = can(text, '"Colossal Dreadmaw" assign 0 damage to "Typhoid Rats", 6 damage to Alex')
    assert out["can"] is False and out["forbidden_by"] == ["702.19b"]
