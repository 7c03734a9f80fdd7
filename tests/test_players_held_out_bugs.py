"""The bugs held-out cases found (issue 12), each with the rule that decides it:
810.1, 101.4d, 904.6, 805.10d, 509.1 (illegal play flagged by outcome), 101.4c."""

import pytest
from helpers.answering import engine
from helpers.player_answers import GIANTS, answers, ask, rules

from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text


def test_810_1_two_headed_giant_with_three_teams_is_refused():
    text = (
        "game: two-headed-giant\nplayers: A, B, C, D, E, F\n"
        "team X: A, B\nteam Y: C, D\nteam Z: E, F\n"
    )
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "t.mtg")
    assert caught.value.line == 5 and "810.1" in str(caught.value)


def test_101_4d_a_later_player_made_to_choose_is_listed_once():
    text = "players: A, B, C, D\neach player sacrifices a creature\nB's choice makes D choose\n"
    out = ask(text, "order")
    assert out["orders"] == [["A", "B", "C", "D"]]
    assert "101.4d" not in rules(out)


def test_904_6_the_archenemy_takes_the_first_turn():
    text = (
        "game: archenemy\nplayers: Ann, Ben, Cat, Dan\narchenemy: Cat\n"
        "phase: start-of-game\neach player draws a card\n"
    )
    out = ask(text, "order")
    assert all(order[0] == "Cat" for order in out["orders"])
    assert {"904.6", "101.4e"} <= rules(out)


def test_904_6_a_starting_line_still_wins():
    text = (
        "game: archenemy\nplayers: Ann, Ben, Cat, Dan\narchenemy: Cat\nstarting: Ann\n"
        "phase: start-of-game\neach player draws a card\n"
    )
    out = ask(text, "order")
    # Ann's team (everyone but the archenemy) chooses first, in any order (805.6).
    assert all(order[0] != "Cat" and order[-1] == "Cat" for order in out["orders"])
    assert "904.6" not in rules(out)


def test_805_10d_blocks_for_p_include_blocks_legal_only_with_a_teammate():
    text = GIANTS + (
        'Ann controls creature "Ogre" 3/3 with menace\n'
        'Cat controls creature "Elf" 1/1\nDan controls creature "Bear" 2/2\n"Ogre" attacks Cat\n'
    )
    out = ask(text, "blocks for Cat")
    assert out["count"] == 2
    assert {"Elf": "Ogre"} in out["assignments"] and {} in out["assignments"]
    assert {"805.10d", "702.111b"} <= rules(out)


def test_805_10d_blocks_for_p_count_each_part_once():
    text = GIANTS + (
        'Ann controls creature "Bear" 2/2\n'
        'Cat controls creature "Elf" 1/1\nDan controls creature "Wall" 0/4\n"Bear" attacks Cat\n'
    )
    out = ask(text, "blocks for Cat")
    assert out["count"] == 2  # Elf blocks or not; Wall's choice is Dan's part


def test_509_1_outcome_of_an_illegal_block_says_so():
    text = (
        "players: Ann, Ben\n"
        'Ann controls creature "Serra Angel" 4/4 with flying\n'
        'Ben controls creature "Grizzly Bears" 2/2\n'
        '"Serra Angel" attacks Ben\n"Grizzly Bears" blocks "Serra Angel"\ncombat damage\n'
    )
    out = ask(text, "outcome")
    assert out["illegal_play"] is True
    assert "702.9b" in rules(out)


def test_509_1_outcome_of_a_legal_play_has_no_flag():
    text = (
        'players: Ann, Ben\nAnn controls creature "Bear" 2/2\n"Bear" attacks Ben\ncombat damage\n'
    )
    assert "illegal_play" not in ask(text, "outcome")


def test_509_1_illegal_play_keeps_the_exit_status_of_outcome():
    from mtgkb.running.runner import answer_text

    text = (
        "players: Ann, Ben\n"
        'Ann controls creature "Serra Angel" 4/4 with flying\n'
        'Ben controls creature "Grizzly Bears" 2/2\n'
        '"Serra Angel" attacks Ben\n"Grizzly Bears" blocks "Serra Angel"\nask outcome\n'
    )
    assert answer_text(text, "t.mtg", engine=engine()).status == 0


def test_101_4c_commas_and_a_final_then_are_an_ordered_list():
    text = (
        "players: Ann, Ben\neach player chooses a creature, a land, then an artifact\nask order\n"
    )
    out = answers(text)[0]
    assert out["choice_orders"] == {
        "Ann": [["creature", "land", "artifact"]],
        "Ben": [["creature", "land", "artifact"]],
    }
    assert "101.4c" in rules(out)


def test_101_4c_and_with_then_is_still_refused():
    with pytest.raises(ScenarioError):
        parse_text(
            "players: Ann, Ben\neach player chooses a creature and a land, then an artifact\n"
        )
