"""Properties of the two combat damage steps (510.1a, 510.4, 702.4b, 702.7b) on
random combats with first strike, double strike, trample, deathtouch and
indestructible creatures:

- in each step, the damage assigned adds up to the powers of the creatures that
  assigned damage in it (510.1a: each assigns exactly its power);
- a creature destroyed in the first step never deals damage in the second (510.4).
"""

import clingo
from conftest import models
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_506_defending import ask, attack, block, creature, table

ABILITIES = ["first_strike", "double_strike", "trample", "deathtouch", "indestructible", "lifelink"]
SHOW = (
    "#show assigned/4. #show strikes/2. #show destroyed_between/1. #show combat_dealt/5.\n"
    "#show power/2.\n"
)


@st.composite
def combats(draw):
    facts = table(["Ann", "Ben"])
    attackers = []
    for i in range(draw(st.integers(min_value=1, max_value=3))):
        name = f"A{i}"
        abilities = draw(st.lists(st.sampled_from(ABILITIES), max_size=3, unique=True))
        power = draw(st.integers(min_value=0, max_value=5))
        facts += creature("Ann", name, power, draw(st.integers(1, 5)), *abilities)
        facts += attack(name, "Ben")
        attackers.append(name)
    for j in range(draw(st.integers(min_value=0, max_value=3))):
        name = f"B{j}"
        abilities = draw(st.lists(st.sampled_from(ABILITIES), max_size=2, unique=True))
        facts += creature("Ben", name, draw(st.integers(0, 4)), draw(st.integers(1, 5)), *abilities)
        if draw(st.booleans()):
            facts += block(name, draw(st.sampled_from(attackers)))
    return facts + "event(1,combat_damage).\n"


def solve(facts):
    found = models("outcome", facts + SHOW + ask("outcome"))
    assert len(found) == 1
    return [clingo.parse_term(a) for a in found[0]]


def args(term):
    return [
        a.string
        if a.type == clingo.SymbolType.String
        else (a.number if a.type == clingo.SymbolType.Number else str(a))
        for a in term.arguments
    ]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combats())
def test_510_1a_each_steps_damage_adds_up_to_the_powers_of_those_that_assigned_it(facts):
    atoms = solve(facts)
    power = {n: p for n, p in (args(a) for a in atoms if a.name == "power")}
    for step in ("first", "regular"):
        assigned = [args(a) for a in atoms if a.name == "assigned" and str(a.arguments[0]) == step]
        total = sum(n for _, _, _, n in assigned)
        sources = {s for _, s, _, _ in assigned}
        assert total == sum(power[s] for s in sources)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combats())
def test_510_4_a_creature_destroyed_in_the_first_step_is_no_source_in_the_second(facts):
    atoms = solve(facts)
    dead = {args(a)[0] for a in atoms if a.name == "destroyed_between"}
    second = {
        args(a)[2] for a in atoms if a.name == "combat_dealt" and str(a.arguments[1]) == "regular"
    }
    second |= {
        args(a)[1] for a in atoms if a.name == "assigned" and str(a.arguments[0]) == "regular"
    }
    strikers = {
        args(a)[1] for a in atoms if a.name == "strikes" and str(a.arguments[0]) == "regular"
    }
    assert not dead & second
    assert not dead & strikers
