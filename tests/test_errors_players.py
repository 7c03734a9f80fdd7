"""Bad uses of the section 8 forms are refused with FILE:LINE:COL (exit 2)."""

import pytest
from helpers.answering import engine

from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text
from mtgkb.running.runner import answer_text

TWO = "game: two-player\nplayers: Ann, Ben\n"
GIANTS = (
    "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\n"
    "team North: Ann, Ben\nteam South: Cat, Dan\n"
)


def where(text):
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "t.mtg")
    return (caught.value.line, caught.value.column), str(caught.value)


@pytest.mark.parametrize(
    "text, pos, words",
    [
        (TWO + "poison: Ann -1\n", (3, 13), "negative"),
        (TWO + "Ann gets -2 poison counters\n", (3, 10), "negative"),
        (TWO + "poison: Zed 2\n", (3, 9), "unknown player"),
        (TWO + "team N: Ann\npoison: N 2\n", (4, 9), "shared poison"),
        (GIANTS + "poison: Ann 3\n", (5, 9), "810.10"),
        (GIANTS + "poison: East 3\n", (5, 9), "unknown player or team"),
        (TWO + "poison: Ann 1, Ann 2\n", (3, 16), "already given"),
        (TWO + 'commander damage: Ann -3 from "Atraxa"\n', (3, 23), "negative"),
        (TWO + 'commander damage: Zed 3 from "Atraxa"\n', (3, 19), "unknown player"),
        (
            TWO + 'commander damage: Ann 3 from "A"\ncommander damage: Ann 4 from "A"\n',
            (4, 1),
            "already",
        ),
        (TWO + "Zed has hexproof\n", (3, 1), "unknown player"),
        (TWO + "Ann has protection from purple\n", (3, 25), "unknown color"),
        (TWO + "Ann controls player Zed\n", (3, 21), "unknown player"),
        (TWO + "Ann controls player Ann\n", (3, 21), "722"),
        (TWO + "priority: Zed\n", (3, 11), "unknown player"),
        (TWO + "priority: Ann\npriority: Ben\n", (4, 1), "already given"),
        (TWO + "lands played: Ann -1\n", (3, 19), "negative"),
        (TWO + 'stack: "Bolt" controlled by Zed\n', (3, 29), "unknown player"),
        (TWO + 'Ann casts instant "Shock" targeting Zed\n', (3, 37), "unknown player"),
        (TWO + 'Ann casts instant "Shock" targeting "Nothing"\n', (3, 37), "neither"),
        (
            TWO + 'Ann controls creature "Bear" 2/2\nAnn casts instant "Shock" targeting Bear\n',
            (4, 37),
            "quotes",
        ),
        (TWO + 'Ann casts potion "Shock"\n', (3, 11), "unknown kind of spell"),
        (TWO + 'Ann casts instant "Shock" with color mauve\n', (3, 38), "unknown color"),
        (
            TWO + 'Ann controls creature "Bear" 2/2\nAnn casts instant "Bear"\n',
            (4, 19),
            "name of its own",
        ),
        (TWO + "Ann makes Ann concede\n", (3, 11), "104.3a"),
        (TWO + "Zed concedes\n", (3, 1), "unknown player"),
        (TWO + "ask actions for Zed\n", (3, 17), "unknown player"),
        (TWO + 'Ann controls creature "Bear" 2/2 with toxic 0\n', (3, 45), "at least 1"),
        (TWO + "Ann gets 2 poison\n", (3, 18), "syntax error"),
    ],
)
def test_section_8_bad_uses_name_the_place(text, pos, words):
    got, message = where(text)
    assert got == pos, message
    assert words in message


def test_a_bad_section_8_line_exits_2_with_a_caret():
    result = answer_text(
        TWO + 'Ann casts instant "Shock" targeting "Nothing"\nask legal\n', "t.mtg", engine=engine()
    )
    assert result.status == 2
    assert result.error.startswith("t.mtg:3:37: error:") and "^" in result.error
