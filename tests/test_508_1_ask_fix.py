"""Spec sections 10 and 12, `ask fix`: the legal declaration of attackers and
blockers (508.1, 509.1) closest to the declared one, one change being a
removed, added or re-pointed attack or block; `count` is how many legal
declarations are equally close; requirements (508.1d, 509.1c) are obeyed."""

from helpers import ILLEGAL_BLOCK_PLAY
from helpers.answering import engine, run

from mtgkb.running.runner import answer_text

EXAMPLE_03 = ILLEGAL_BLOCK_PLAY


def fix(text: str) -> dict:
    (out,) = [a for a in run(text + "ask fix\n")["answers"] if a["ask"] == "fix"]
    return out


def test_802_4a_an_illegal_block_is_removed_and_every_equally_close_fix_counts():
    out = fix(EXAMPLE_03)
    assert out["legal"] is False
    assert out["changes"] == [{"remove": "Grizzly Bears blocks Hill Giant"}]
    # equally close: remove the block, point it at Runeclaw Bear, or send Hill Giant at Alex
    assert out["count"] == 3
    assert "802.4a" in out["rules"] and "509.1" in out["rules"]


def test_508_1_a_legal_play_needs_no_change():
    legal = EXAMPLE_03.replace(
        '"Grizzly Bears" blocks "Hill Giant"', '"Grizzly Bears" blocks "Runeclaw Bear"'
    )
    out = fix(legal)
    assert out["legal"] is True and out["changes"] == []


def test_508_1a_an_attack_by_a_tapped_creature_is_removed():
    text = """players: Ann, Ben
Ann controls creature "Bear" 2/2 with tapped
Ann controls creature "Elf" 1/1
"Bear" attacks Ben
"Elf" attacks Ben
"""
    out = fix(text)
    assert out["changes"] == [{"remove": "Bear attacks Ben"}] and out["count"] == 1
    assert "508.1a" in out["rules"]


def test_802_3a_an_attack_a_creature_may_not_make_is_pointed_elsewhere_or_removed():
    text = """game: free-for-all
option: attack-multiple-players
players: Ann, Ben, Cat
Ann controls creature "Bear" 2/2 with can't attack Ben
"Bear" attacks Ben
"""
    out = fix(text)
    # removing it and pointing it at Cat are one change each
    assert out["count"] == 2
    assert out["changes"] == [{"remove": "Bear attacks Ben"}]


def test_509_1c_a_creature_that_blocks_if_able_is_added():
    text = """players: Ann, Ben
phase: declare-blockers
Ann controls creature "Goblin" 2/2
Ben controls creature "Wall" 0/4 with blocks each combat if able
"Goblin" attacks Ben
"""
    out = fix(text)
    assert out["legal"] is False
    assert out["changes"] == [{"add": "Wall blocks Goblin"}] and out["count"] == 1
    assert "509.1c" in out["rules"]


def test_702_111b_a_lone_blocker_of_a_menace_creature_is_joined_or_removed():
    text = """players: Ann, Ben
Ann controls creature "Goblin" 2/2 with menace
Ben controls creature "Bear" 2/2
Ben controls creature "Elf" 1/1
"Goblin" attacks Ben
"Bear" blocks "Goblin"
"""
    out = fix(text)
    # remove Bear's block, or add Elf's: one change either way
    assert out["count"] == 2
    assert out["changes"] == [{"remove": "Bear blocks Goblin"}]


def test_spec_12_ask_fix_on_an_illegal_play_does_not_change_the_exit_status():
    assert answer_text(EXAMPLE_03 + "ask fix\n", "x.mtg", engine=engine()).status == 0
    assert answer_text(EXAMPLE_03 + "ask legal\nask fix\n", "x.mtg", engine=engine()).status == 1


def test_119_4_what_no_change_of_attacks_and_blocks_mends_is_listed_as_remaining():
    text = EXAMPLE_03 + "life: Alex 3\nAlex pays 5 life\n"
    out = fix(text)
    assert out["changes"] == [{"remove": "Grizzly Bears blocks Hill Giant"}]
    assert [v["rule"] for v in out["remaining"]] == ["119.4"]
    assert "119.4" in out["rules"]
    assert "remaining" not in fix(EXAMPLE_03)


def test_802_4a_a_count_cut_at_the_cap_says_why():
    """802.4a: three equally close fixes of the illegal block (remove it,
    point it at Runeclaw Bear, send Hill Giant at Alex); counted up to
    --max-models 2, the count is a lower bound and the answer says why."""
    from mtgkb.questions.answers import Limits

    text = EXAMPLE_03 + "ask fix\n"
    answers = answer_text(text, "fix.mtg", Limits(max_models=2), engine=engine()).output
    (out,) = [a for a in answers["answers"] if a["ask"] == "fix"]
    assert (out["count"], out["complete"]) == (2, False)
    assert "lower bound" in out["reason"] and "up to 2" in out["reason"]
    assert "reason" not in fix(EXAMPLE_03)
