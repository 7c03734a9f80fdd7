"""Properties of the two combat damage steps (510.1a, 510.4, 702.4b, 702.7b) on
random combats with first strike, double strike, trample, deathtouch and
indestructible creatures:

- in each step, the damage assigned adds up to the powers of the creatures that
  assigned damage in it (510.1a: each assigns exactly its power);
- a creature destroyed in the first step never deals damage in the second (510.4).
"""

import clingo
from helpers import ask, attack, block, creature, examples, models
from helpers import combat_table as table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ABILITIES = ["first_strike", "double_strike", "trample", "deathtouch", "indestructible", "lifelink"]
SHOW = (
    "#show assigned/4. #show strikes/2. #show destroyed_between/1. #show combat_dealt/5.\n"
    "#show power/2. #show first_step_dealt/3. #show combat_dealt_in/4.\n"
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


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combats())
def test_510_1a_each_steps_damage_adds_up_to_the_powers_of_those_that_assigned_it(facts):
    atoms = solve(facts)
    power = {n: p for n, p in (args(a) for a in atoms if a.name == "power")}
    for step in ("first", "regular"):
        assigned = [args(a) for a in atoms if a.name == "assigned" and str(a.arguments[0]) == step]
        total = sum(n for _, _, _, n in assigned)
        sources = {s for _, s, _, _ in assigned}
        assert total == sum(power[s] for s in sources)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combats())
def test_510_4_a_creature_destroyed_in_the_first_step_is_no_source_in_the_second(facts):
    atoms = solve(facts)
    # the first step, read by the second from a copy of its own, agrees with the step rules
    copy = {tuple(args(a)) for a in atoms if a.name == "first_step_dealt"}
    step = {
        tuple(args(a)[1:])
        for a in atoms
        if a.name == "combat_dealt_in" and str(a.arguments[0]) == "first"
    }
    assert copy == step
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


@st.composite
def scenarios(draw):
    lines = ["players: Ann, Ben", "active: Ann"]
    attackers = []
    for i in range(draw(st.integers(min_value=1, max_value=2))):
        name = f"A{i}"
        abilities = draw(st.lists(st.sampled_from(["trample", "deathtouch"]), unique=True))
        with_ = (" with " + ", ".join(abilities)) if abilities else ""
        power = draw(st.integers(min_value=0, max_value=4))
        lines.append(f'Ann controls creature "{name}" {power}/3{with_}')
        lines.append(f'"{name}" attacks Ben')
        attackers.append(name)
    for j in range(draw(st.integers(min_value=0, max_value=3))):
        name = f"B{j}"
        lines.append(f'Ben controls creature "{name}" 1/{draw(st.integers(1, 3))}')
        lines.append(f'"{name}" blocks "{draw(st.sampled_from(attackers))}"')
    return "\n".join(lines) + "\n", attackers[0]


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_510_1c_702_19b_every_listed_assignment_is_legal_when_declared(case):
    import mtgkb

    text, creature = case
    listed = mtgkb.run(text + f'ask assignments for "{creature}"\n')["answers"][0]
    assert listed["count"] == len(listed["assignments"]) >= 1
    for found in listed["assignments"][:4]:
        if not found:
            continue
        parts = ", ".join(
            f"{n} damage to {r if r == 'Ben' else chr(34) + r + chr(34)}" for r, n in found.items()
        )
        answer = mtgkb.run(text + f'"{creature}" assigns {parts}\nask legal\n')["answers"][0]
        rules = {v["rule"] for v in answer["violations"]}
        assert not rules & {"510.1c", "702.19b"}, (found, answer)


def _expected_count(power, toughnesses, trample, deathtouch):
    """Brute force: divisions of `power` among the blockers (and, with trample,
    the player) where the player gets damage only once every blocker has lethal."""
    from itertools import product

    if power <= 0:
        return 1
    if not toughnesses:
        return 1  # unblocked: all of it to the player
    slots = len(toughnesses) + (1 if trample else 0)
    count = 0
    for amounts in product(range(power + 1), repeat=slots):
        if sum(amounts) != power:
            continue
        if trample and amounts[-1] > 0:
            lethal = [1 if deathtouch else t for t in toughnesses]
            if any(a < n for a, n in zip(amounts, lethal, strict=False)):
                continue
        count += 1
    return count


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=5),
    st.lists(st.integers(min_value=1, max_value=3), max_size=3),
    st.booleans(),
    st.booleans(),
)
def test_510_1c_702_19b_702_2c_the_count_of_assignments_is_exact(power, toughs, trample, dt):
    import mtgkb

    abilities = [a for a, on in (("trample", trample), ("deathtouch", dt)) if on]
    with_ = (" with " + ", ".join(abilities)) if abilities else ""
    text = f'players: Ann, Ben\nAnn controls creature "A" {power}/9{with_}\n"A" attacks Ben\n'
    for j, t in enumerate(toughs):
        text += f'Ben controls creature "B{j}" 0/{t}\n"B{j}" blocks "A"\n'
    found = mtgkb.run(text + 'ask assignments for "A"\n')["answers"][0]
    assert found["count"] == _expected_count(power, toughs, trample, dt)
    assert found["complete"] is True
