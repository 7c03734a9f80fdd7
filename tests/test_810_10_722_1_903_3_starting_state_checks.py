"""810.4, 810.10, 722.1, 903.3: a starting state the rules of the game forbid is
refused by the rule base (rules/100_input_checks.lp), not by Python: each is an
`input_error(rule(R), Kind, Args)` reported as FILE:LINE:COL (exit 2), with
its message in English and Italian (kb/input_messages.lp)."""

import pytest

from mtgkb.language.checks import input_errors
from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text, read_text

TWO = "game: two-player\nplayers: Ann, Ben\n"
GIANTS = (
    "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\n"
    "team North: Ann, Ben\nteam South: Cat, Dan\n"
)


def broken(text: str) -> dict[str, str]:
    """Kind -> the rule the input checks say the table breaks."""
    found = {}
    for sym in input_errors(read_text(text, "t.mtg")):
        if sym.name == "input_error":
            found[sym.arguments[1].name] = sym.arguments[0].arguments[0].string
    return found


def refused(text: str, lang: str = "en") -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "t.mtg", lang)
    return caught.value


def test_810_10_a_two_headed_giant_team_shares_its_poison_counters():
    text = GIANTS + "poison: Ann 3\n"
    assert broken(text) == {"poison_of_a_giant": "810.10"}
    err = refused(text)
    assert (err.line, err.column) == (5, 9)
    assert "give the counters of Ann's team (North), not of Ann" in err.message
    assert "indica i segnalini della squadra di Ann (North)" in refused(text, "it").message
    assert broken(GIANTS + "poison: North 3\n") == {}


def test_810_10_outside_two_headed_giant_poison_counters_are_each_players():
    text = "game: team-vs-team\nplayers: Ann, Ben\nteam N: Ann\nteam S: Ben\npoison: N 2\n"
    assert broken(text) == {"team_poison_outside_giant": "810.10"}
    err = refused(text)
    assert (err.line, err.column) == (5, 9) and "shared poison counters" in err.message
    assert "segnalini veleno condivisi" in refused(text, "it").message


def test_810_4_outside_two_headed_giant_a_team_has_no_life_total():
    text = "game: team-vs-team\nplayers: Ann, Ben\nteam N: Ann\nteam S: Ben\nlife: N 20\n"
    assert broken(text) == {"team_life_outside_giant": "810.4"}
    err = refused(text)
    assert (err.line, err.column) == (5, 7) and "team life total" in err.message
    assert "vita di squadra" in refused(text, "it").message


def test_722_1_a_player_controls_another_player_not_themself():
    text = TWO + "Ann controls player Ann\n"
    assert broken(text) == {"controls_themself": "722.1"}
    err = refused(text)
    assert (err.line, err.column) == (3, 21)
    assert "sé stesso" in refused(text, "it").message
    assert broken(TWO + "Ann controls player Ben\n") == {}


def test_903_3_commander_damage_comes_from_a_creature():
    text = TWO + 'Ann controls land "Command Tower"\ncommander damage: Ben 3 from "Command Tower"\n'
    assert broken(text) == {"commander_not_creature": "903.3"}
    err = refused(text)
    assert (err.line, err.column) == (4, 30) and "not a creature" in err.message
    assert "non una creatura" in refused(text, "it").message
    creature = TWO + 'Ann controls creature "Atraxa" 4/4\ncommander damage: Ben 3 from "Atraxa"\n'
    assert broken(creature) == {}
    # a commander not on the battlefield is only a name: nothing to check
    assert broken(TWO + 'commander damage: Ben 3 from "Atraxa"\n') == {}
