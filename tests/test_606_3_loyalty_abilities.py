"""606.3, 115.1, 801.4 (spec section 13): a loyalty ability with a target, once
per turn per planeswalker, at sorcery timing, its targets within the range of
influence."""

import pytest
from helpers.answering import run
from helpers.player_answers import ask, broken, rules

from mtgkb.language.errors import ScenarioError

TWO = 'players: Rob, Alex\nactive: Rob\nRob controls planeswalker "Jace" loyalty 3\n'
ACTIVATE = 'Rob activates a loyalty ability of "Jace" targeting Alex\n'


def test_606_3_a_loyalty_ability_with_a_target_in_the_main_phase_is_legal():
    out = ask(TWO + ACTIVATE, "legal")
    assert out["legal"] is True and {"606.3", "115.1"} <= rules(out)


def test_606_3_the_same_as_the_older_form():
    older = ask(TWO + 'Rob activates "Jace" as a loyalty ability targeting Alex\n', "legal")
    assert older == ask(TWO + ACTIVATE, "legal")


def test_606_3_not_after_one_was_activated_this_turn():
    text = TWO + '"Jace" activated a loyalty ability this turn\n' + ACTIVATE
    out = ask(text, "legal")
    assert out["legal"] is False and broken(out) == {"606.3"}
    assert out["violations"][0]["objects"] == ["Jace", "Rob"]


def test_606_3_another_planeswalker_is_not_limited_by_jaces_activation():
    text = TWO + 'Rob controls planeswalker "Chandra" loyalty 4\n'
    text += '"Chandra" activated a loyalty ability this turn\n' + ACTIVATE
    assert ask(text, "legal")["legal"] is True


def test_606_3_two_declared_activations_of_one_planeswalker_break_the_rule():
    out = ask(TWO + ACTIVATE + ACTIVATE.replace("Alex", "Rob"), "legal")
    assert broken(out) == {"606.3"}


def test_606_3_sorcery_timing_no_loyalty_ability_in_combat_or_with_a_spell_on_the_stack():
    out = ask(TWO + "phase: declare-attackers\n" + ACTIVATE, "legal")
    assert "606.3" in broken(out)
    out = ask(TWO + 'stack: "Shock" controlled by Alex\n' + ACTIVATE, "legal")
    assert "606.3" in broken(out) or broken(out)
    assert out["legal"] is False


def test_606_3_ask_can_activate_after_one_this_turn_answers_no():
    text = TWO + '"Jace" activated a loyalty ability this turn\n'
    out = ask(text, 'can Rob activate a loyalty ability of "Jace" targeting Alex')
    assert out["can"] is False and "606.3" in out["forbidden_by"]


def test_801_4_a_loyalty_abilitys_target_lies_within_range():
    text = """game: free-for-all
option: attack-multiple-players
option: range-of-influence 1
players: Rob, Alex, Carissa, Dana, Eve
active: Rob
Rob controls planeswalker "Jace" loyalty 3
"""
    out = ask(text + 'Rob activates a loyalty ability of "Jace" targeting Carissa\n', "legal")
    assert broken(out) == {"801.4"}
    out = ask(text + 'Rob activates a loyalty ability of "Jace" targeting Alex\n', "legal")
    assert out["legal"] is True


def test_606_2_the_earlier_activation_must_name_a_planeswalker():
    # 606.2: only planeswalkers have loyalty abilities: a table that says a creature
    # activated one is bad input (rules/100_input_checks.lp), reported at the name
    text = TWO + 'Rob controls creature "Bear" 2/2\n"Bear" activated a loyalty ability this turn\n'
    with pytest.raises(ScenarioError, match="not a planeswalker") as error:
        run(text + "ask legal\n")
    assert (error.value.line, error.value.column) == (5, 1)
    with pytest.raises(ScenarioError, match="non è un planeswalker"):
        run(text + "ask legal\n", lang="it")


@pytest.mark.parametrize("permanent", ['land "Mountain"', 'creature "Bear" 2/2'])
def test_606_2_a_loyalty_ability_of_a_permanent_that_is_no_planeswalker_is_illegal(permanent):
    # 606.2: a play, not bad input: legal false under 606.2, the other questions answered
    name = permanent.split('"')[1]
    text = TWO + f"Rob controls {permanent}\n"
    text += f'Rob activates a loyalty ability of "{name}" targeting Alex\n'
    out = run(text + "ask legal\nask outcome\n")
    legal, outcome = out["answers"]
    assert legal["legal"] is False and "606.2" in broken(legal)
    found = [v for v in legal["violations"] if v["rule"] == "606.2"]
    assert found[0]["objects"][0] == name and "only a planeswalker" in found[0]["message"]
    assert outcome["life"] == {"Rob": 20, "Alex": 20}  # (103.4: the other question answered)
    italian = run(text + "ask legal\n", lang="it")["answers"][0]["violations"]
    assert any("solo un planeswalker" in v["message"] for v in italian if v["rule"] == "606.2")
    # Jace's own activation stays legal beside it
    assert ask(TWO + ACTIVATE, "legal")["legal"] is True


def test_606_3_the_message_is_in_english_and_italian():
    text = TWO + '"Jace" activated a loyalty ability this turn\n' + ACTIVATE + "ask legal\n"
    english = run(text)["answers"][0]["violations"][0]["message"]
    italian = run(text, lang="it")["answers"][0]["violations"][0]["message"]
    assert "already activated this turn" in english and "già stata attivata" in italian
