"""510.1: a declared damage assignment that can't be read as one (an unknown
name, a second assignment of one creature, a recipient named twice) is bad
input (exit 2, FILE:LINE:COL), and so is a color that is not one of the five.
Whether a readable assignment may be made (510.1, 510.1a-d) is the rule base's:
tests/test_510_1_assignment_legality.py."""

import pytest

from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text

HEAD = "players: Rob, Alex\nactive: Rob\n"
HEAD += 'Rob controls creature "Dreadmaw" 6/6 with trample\n'
HEAD += 'Rob controls creature "Bear" 2/2\n'
HEAD += 'Alex controls creature "Rats" 1/1\nAlex controls creature "Ogre" 3/3\n'
HEAD += '"Dreadmaw" attacks Alex\n"Rats" blocks "Dreadmaw"\n'


def error(text) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "t.mtg")
    return caught.value


def test_510_1_an_assignment_parses_into_declared_assignment_facts():
    from mtgkb.language.facts import facts_text, scenario_facts

    sc = parse_text(HEAD + '"Dreadmaw" assigns 2 damage to "Rats", 4 damage to Alex\n')
    text = facts_text(scenario_facts(sc))
    assert 'declared_assignment("Dreadmaw","Rats",2).' in text
    assert 'declared_assignment("Dreadmaw","Alex",4).' in text
    assert 'declared_block_order("Rats","Dreadmaw",1).' in text


def test_510_1_a_second_assignment_for_the_same_creature_is_refused():
    text = HEAD + '"Dreadmaw" assigns 6 damage to "Rats"\n"Dreadmaw" assigns 6 damage to Alex\n'
    err = error(text)
    assert err.line == 10 and "already has a damage assignment at line 9" in str(err)


def test_510_1_a_recipient_named_twice_is_refused():
    err = error(HEAD + '"Dreadmaw" assigns 3 damage to "Rats", 3 damage to "Rats"\n')
    assert (err.line, err.column) == (9, 52)


def test_510_1_an_unknown_recipient_is_refused():
    err = error(HEAD + '"Dreadmaw" assigns 6 damage to Carl\n')
    assert err.line == 9 and "unknown player Carl" in str(err)


def test_510_1_ask_assignments_for_a_creature_not_in_combat_is_refused():
    err = error(HEAD + 'ask assignments for "Bear"\n')
    assert (err.line, err.column) == (9, 21)


def test_702_16a_an_unknown_color_is_refused():
    err = error(
        'players: Rob, Alex\nRob controls creature "Knight" 2/2 with protection from purple\n'
    )
    assert (err.line, err.column) == (2, 57)
    assert "unknown color 'purple'" in str(err)


def test_the_cli_exits_2_with_the_caret_line(tmp_path):
    from mtgkb.cli import main

    path = tmp_path / "bad.mtg"
    path.write_text(HEAD + '"Bear" assigns 2 damage to Carl\n', encoding="utf-8")
    assert main(["run", str(path)]) == 2
