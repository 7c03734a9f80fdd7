"""702.22d, 802.3b: a band attacks one player, planeswalker or battle, so
`ask fix` of a band split between two players points one member at the
other's player; 702.22h (and its example): a creature that can block one
member of a band blocks the band, so a creature without flying or reach may
block the band through its member without flying. The interaction matrix's
tests of banding with `ask fix` and `ask blocks`."""

from __future__ import annotations

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()


def answers(text: str, status: int = 0) -> list[dict]:
    result = answer_text(text, "band.mtg", Limits(), engine=ENGINE)
    assert result.status == status, result.error
    return result.output["answers"]


def test_702_22d_802_3b_the_fix_of_a_split_band_joins_its_members():
    text = (
        "option: attack-multiple-players\nplayers: Ann, Ben, Cat\nphase: declare-attackers\n"
        'Ann controls creature "Benalish Hero" 1/1 with banding\n'
        'Ann controls creature "Squire" 1/2\n'
        'band "Benalish Hero", "Squire"\n'
        '"Benalish Hero" attacks Ben\n"Squire" attacks Cat\nask legal\nask fix\n'
    )
    legal, fix = answers(text, 1)
    assert legal["legal"] is False and "702.22d" in legal["rules"]
    # one change: either member attacks the other's player (2 closest declarations)
    joined = [
        [{"change": "Benalish Hero attacks Ben", "to": "Benalish Hero attacks Cat"}],
        [{"change": "Squire attacks Cat", "to": "Squire attacks Ben"}],
    ]
    assert fix["changes"] in joined and fix["count"] == 2
    assert "702.22d" in fix["rules"]


def test_702_22h_example_a_band_is_blocked_through_its_member_without_flying():
    text = (
        "players: Ann, Ben\nphase: declare-blockers\n"
        'Ann controls creature "Bird" 1/1 with flying, banding\n'
        'Ann controls creature "Squire" 1/2\n'
        'Ben controls creature "Grizzly Bears" 2/2\n'
        'band "Bird", "Squire"\n"Bird" attacks Ben\n"Squire" attacks Ben\nask blocks\n'
    )
    (blocks,) = answers(text)
    # 702.9b: the Bears can't block Bird; they may block Squire (and so the band)
    assert sorted(map(str, blocks["assignments"])) == sorted(
        map(str, [{}, {"Grizzly Bears": "Squire"}])
    )
    assert "509.1a" in blocks["rules"]
