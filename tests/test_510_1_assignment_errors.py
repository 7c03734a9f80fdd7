"""510.1a-d: a declared damage assignment that can't be read as one is bad input
(exit 2, FILE:LINE:COL), and so is a color that is not one of the five."""

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


def test_510_1_an_assignment_by_a_creature_not_in_combat_is_refused():
    err = error(HEAD + '"Bear" assigns 2 damage to Alex\n')
    assert (err.line, err.column) == (9, 1)
    assert "neither attacking nor blocking" in str(err)
    assert str(err).startswith("t.mtg:9:1: error:")


def test_510_1c_an_assignment_to_something_it_neither_attacks_nor_is_blocked_by_is_refused():
    err = error(HEAD + '"Dreadmaw" assigns 3 damage to "Rats", 3 damage to "Ogre"\n')
    assert (err.line, err.column) == (9, 52)
    assert '"Ogre"' in str(err) and "one of its blockers" in str(err)


def test_510_1d_a_blocker_assigns_only_to_what_it_blocks():
    err = error(HEAD + '"Rats" assigns 1 damage to Alex\n')
    assert (err.line, err.column) == (9, 28)


def test_510_1a_amounts_that_do_not_add_up_to_the_power_are_refused():
    err = error(HEAD + '"Dreadmaw" assigns 2 damage to "Rats", 3 damage to Alex\n')
    assert (err.line, err.column) == (9, 20)
    assert "add up to 5, but its power is 6" in str(err)


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
    path.write_text(HEAD + '"Bear" assigns 2 damage to Alex\n', encoding="utf-8")
    assert main(["run", str(path)]) == 2
