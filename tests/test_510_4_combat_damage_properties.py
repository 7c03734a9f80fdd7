"""Properties of the two combat damage steps (510.1a, 510.4, 702.4b, 702.7b) on
random combats with first strike, double strike, trample, deathtouch and
indestructible creatures:

- in each step, the damage assigned adds up to the powers of the creatures that
  assigned damage in it (510.1a: each assigns exactly its power);
- a creature destroyed in the first step never deals damage in the second (510.4);

and, with prevention effects (615.1, 615.7), counters already on creatures
(122.1a) and infect, wither and lifelink (120.3d, 702.90, 702.15b):

- the damage dealt in each step is what was assigned less what was prevented
  (615.6), and a shield prevents no more than its size, using all of it when the
  damage reaches it (615.7);
- prevented damage gains no life by lifelink and gives no poison counters;
- a creature's toughness after combat is its toughness, plus its +1/+1 counters,
  less its -1/-1 counters and the damage infect or wither sources dealt it (120.3d);

and, with first strike or double strike gained, lost or pumped after the first
step (510.4, 702.4c-d, 702.7b-c):

- the first step's dealers are those with either ability as it began, the
  regular step's those with neither then or with double strike now, each dealing
  its power as it is in that step.
"""

import clingo
from helpers import ask, attack, block, creature, examples, models
from helpers import combat_table as table
from helpers.answering import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ABILITIES = ["first_strike", "double_strike", "trample", "deathtouch", "indestructible", "lifelink"]
SHOW = (
    "#show assigned/4. #show strikes/2. #show destroyed_between/1. #show combat_dealt/5.\n"
    "#show power/2. #show combat_dealt_in/4.\n"
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
    # the first step's damage as the second reads it is what the first step assigned
    read = {
        tuple(args(a)[1:])
        for a in atoms
        if a.name == "combat_dealt_in" and str(a.arguments[0]) == "first"
    }
    step = {
        tuple(args(a)[1:]) for a in atoms if a.name == "assigned" and str(a.arguments[0]) == "first"
    }
    assert read == step  # (nothing here prevents damage)
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
    text, creature = case
    listed = run(text + f'ask assignments for "{creature}"\n')["answers"][0]
    assert listed["count"] == len(listed["assignments"]) >= 1
    for found in listed["assignments"][:4]:
        if not found:
            continue
        parts = ", ".join(
            f"{n} damage to {r if r == 'Ben' else chr(34) + r + chr(34)}" for r, n in found.items()
        )
        answer = run(text + f'"{creature}" assigns {parts}\nask legal\n')["answers"][0]
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
    abilities = [a for a, on in (("trample", trample), ("deathtouch", dt)) if on]
    with_ = (" with " + ", ".join(abilities)) if abilities else ""
    text = f'players: Ann, Ben\nAnn controls creature "A" {power}/9{with_}\n"A" attacks Ben\n'
    for j, t in enumerate(toughs):
        text += f'Ben controls creature "B{j}" 0/{t}\n"B{j}" blocks "A"\n'
    found = run(text + 'ask assignments for "A"\n')["answers"][0]
    assert found["count"] == _expected_count(power, toughs, trample, dt)
    assert found["complete"] is True


# -------------------- prevention and counters (615, 122.1a, 120.3d)

DAMAGE_ABILITIES = ["first_strike", "double_strike", "lifelink", "infect", "wither", "trample"]
PREVENTION_SHOW = (
    "#show assigned/4. #show combat_dealt/5. #show effect_prevented/5.\n"
    "#show life_change/4. #show poison_gain/4. #show final_toughness/2. #show toughness/2.\n"
    "#show counters_given/3. #show damage_counters/2. #show damage_marked/2.\n"
)


@st.composite
def prevented_combats(draw):
    """A combat of Ann's attackers on Ben, with random prevention lines before it."""
    facts = table(["Ann", "Ben"])
    attackers, everyone = [], []
    for i in range(draw(st.integers(min_value=1, max_value=3))):
        name = f"A{i}"
        abilities = draw(st.lists(st.sampled_from(DAMAGE_ABILITIES), max_size=3, unique=True))
        facts += creature("Ann", name, draw(st.integers(0, 4)), draw(st.integers(1, 4)), *abilities)
        facts += attack(name, "Ben")
        attackers.append(name)
    for j in range(draw(st.integers(min_value=0, max_value=2))):
        name = f"B{j}"
        abilities = draw(st.lists(st.sampled_from(DAMAGE_ABILITIES), max_size=2, unique=True))
        facts += creature("Ben", name, draw(st.integers(0, 3)), draw(st.integers(1, 4)), *abilities)
        if draw(st.booleans()):
            facts += block(name, draw(st.sampled_from(attackers)))
        everyone.append(name)
    everyone += attackers
    for name in everyone:
        for kind in ("plus_one", "minus_one"):
            if draw(st.integers(0, 3)) == 0:
                facts += f'counters_given("{name}",{kind},{draw(st.integers(1, 2))}).\n'
    lines = []
    if draw(st.integers(0, 3)) == 0:
        lines.append("prevent_combat_damage")
    for name in draw(st.lists(st.sampled_from(everyone), max_size=2, unique=True)):
        lines.append(f'prevent_combat_damage_by("{name}")')
    for target in draw(st.lists(st.sampled_from(["Ben", "Ann", *everyone]), max_size=2)):
        lines.append(f'prevent_next_damage("{target}",{draw(st.integers(1, 4))})')
    lines.append("combat_damage")
    facts += "".join(f"event({i},{e}).\n" for i, e in enumerate(lines, start=1))
    return facts


def prevention_atoms(facts):
    found = models("outcome", facts + PREVENTION_SHOW + ask("outcome"))
    assert len(found) == 1
    atoms = [clingo.parse_term(a) for a in found[0]]
    by_name: dict[str, list[list]] = {}
    for a in atoms:
        by_name.setdefault(a.name, []).append(args(a))
    return by_name


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prevented_combats())
def test_615_6_damage_dealt_is_damage_assigned_less_damage_prevented(facts):
    found = prevention_atoms(facts)
    assigned = {(st_, s, r): n for st_, s, r, n in found.get("assigned", [])}
    dealt = {(st_, s, r): n for _, st_, s, r, n in found.get("combat_dealt", [])}
    prevented = {(st_, s, r): k for _, st_, s, r, k in found.get("effect_prevented", [])}
    for key, n in assigned.items():
        assert dealt.get(key, 0) == n - prevented.get(key, 0), key
    assert set(dealt) <= set(assigned)
    # 615.7: a shield prevents at most its size, and all of it if the damage reaches it
    shields = {}
    for line in facts.splitlines():
        if "prevent_next_damage(" in line:
            target, size = line.split("prevent_next_damage(")[1].split(")")[0].rsplit(",", 1)
            shields[target.strip('"')] = shields.get(target.strip('"'), 0) + int(size)
    if "prevent_combat_damage)" in facts or "prevent_combat_damage_by" in facts:
        return  # (the effects that prevent all of it come first: 616.1)
    for target, size in shields.items():
        to_it = sum(n for (_, _, r), n in assigned.items() if r == target)
        stopped = sum(k for (_, _, r), k in prevented.items() if r == target)
        assert stopped == min(size, to_it), (target, size, to_it, stopped)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prevented_combats())
def test_615_6_702_15b_prevented_damage_gains_no_life_and_gives_no_poison(facts):
    found = prevention_atoms(facts)
    dealt: dict[tuple, int] = {}
    for _, st_, s, _, n in found.get("combat_dealt", []):
        dealt[(st_, s)] = dealt.get((st_, s), 0) + n
    to_ben: dict[tuple, int] = {}
    for _, st_, s, r, n in found.get("combat_dealt", []):
        if r == "Ben":
            to_ben[(st_, s)] = to_ben.get((st_, s), 0) + n
    for _, _, amount, kind in found.get("life_change", []):
        # a lifelink gain equals the damage its source dealt in that step, never more
        if kind.startswith("lifelink("):
            source = kind.split('"')[1]
            step = "first" if kind.endswith(",first)") else "regular"
            assert amount == dealt.get((step, source), 0) > 0
    for _, player, amount, kind in found.get("poison_gain", []):
        source = kind.split('"')[1]
        step = kind.rsplit(",", 1)[1].rstrip(")")
        assert player == "Ben" and amount == to_ben.get((step, source), 0) > 0
    if "prevent_combat_damage)" in facts:
        assert not found.get("combat_dealt")
        assert not found.get("poison_gain")
        assert not [k for *_, k in found.get("life_change", []) if k.startswith("lifelink(")]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prevented_combats())
def test_120_3d_122_1a_toughness_after_combat_counts_the_counters(facts):
    found = prevention_atoms(facts)
    toughness = dict(map(tuple, found.get("toughness", [])))
    given: dict[str, int] = {}
    for name, kind, n in found.get("counters_given", []):
        given[name] = given.get(name, 0) + (n if kind == "plus_one" else -n)
    from_damage: dict[str, int] = {}
    marked: dict[str, int] = {}
    counter_sources = {
        line.split('"')[1]
        for line in facts.splitlines()
        if line.startswith("has(") and (",infect)" in line or ",wither)" in line)
    }
    for _, _, s, r, n in found.get("combat_dealt", []):
        if r in toughness:
            bucket = from_damage if s in counter_sources else marked
            bucket[r] = bucket.get(r, 0) + n
    for name, t in found.get("final_toughness", []):
        assert t == toughness[name] + given.get(name, 0) - from_damage.get(name, 0)
    # 702.90c, 702.80a: infect and wither damage marks no damage
    assert {n: m for n, m in found.get("damage_marked", [])} == {
        n: m for n, m in marked.items() if m > 0
    }


# -------------------- changes between the two steps (510.4, 702.4c-d, 702.7b-c)

STRIKE_ABILITIES = ["first_strike", "double_strike"]
CHANGE_SHOW = "#show combat_dealt/5.\n"


@st.composite
def changed_combats(draw):
    """Ann's unblocked attackers on Ben, with random changes after the first-strike step.

    Returns the facts and, per attacker, (abilities and power at the start,
    abilities and power after the changes), worked out here from the lines drawn.
    """
    facts = table(["Ann", "Ben"])
    expected, lines = {}, []
    for i in range(draw(st.integers(min_value=1, max_value=4))):
        name = f"A{i}"
        start = set(draw(st.lists(st.sampled_from(STRIKE_ABILITIES), max_size=2, unique=True)))
        power = draw(st.integers(0, 4))
        facts += creature("Ann", name, power, 3, *sorted(start))
        facts += attack(name, "Ben")
        after, first_power = set(start), power
        for change in draw(st.lists(st.sampled_from(["gains", "loses", "gets"]), max_size=2)):
            if change == "gets":
                bonus = draw(st.integers(1, 3))
                lines.append(f'after_first_strike("{name}",gets({bonus},0))')
                power += bonus
            else:
                ability = draw(st.sampled_from(STRIKE_ABILITIES))
                lines.append(f'after_first_strike("{name}",{change}({ability}))')
                (after.add if change == "gains" else after.discard)(ability)
        expected[name] = (start, first_power, after, power)
    lines.append("combat_damage")
    facts += "".join(f"event({i},{e}).\n" for i, e in enumerate(lines, start=1))
    return facts, expected


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changed_combats())
def test_510_4_702_4d_702_7c_who_deals_damage_in_each_step_after_changes_between_them(case):
    facts, expected = case
    found = models("outcome", facts + CHANGE_SHOW + ask("outcome"))
    assert len(found) == 1
    dealt = {}
    for atom in (clingo.parse_term(a) for a in found[0]):
        if atom.name != "combat_dealt":
            continue
        _, step, source, recipient, n = args(atom)
        assert recipient == "Ben"
        dealt[(step, source)] = dealt.get((step, source), 0) + n
    # 510.4: with no first strike or double strike as combat damage begins there is
    # one step, and no moment between two steps for a change to take effect
    two_steps = any(start & {"first_strike", "double_strike"} for start, *_ in expected.values())
    for name, (start, first_power, after, power) in expected.items():
        if not two_steps:
            after, power = start, first_power
        # 702.7b: only creatures with first strike or double strike as the first
        # step began deal damage in it (with the power they had then)
        in_first = bool(start & {"first_strike", "double_strike"})
        # 510.4: the regular step's dealers are those that had neither as the first
        # step began (702.7c: gaining first strike later does not stop them), and
        # those that have double strike now (702.4d: gained or kept; 702.4c)
        in_regular = not in_first or "double_strike" in after
        assert dealt.get(("first", name), 0) == (first_power if in_first else 0), (name, dealt)
        # 510.1a: in the regular step it deals its power as it is then (the bonus included)
        assert dealt.get(("regular", name), 0) == (power if in_regular else 0), (name, dealt)


def test_510_4_with_no_first_strike_step_a_change_between_steps_never_takes_effect():
    # 510.4: no creature has first strike or double strike, so there is one combat
    # damage step and no moment between two steps: the +2/+0 never applies
    facts = table(["Ann", "Ben"]) + creature("Ann", "A0", 1, 3) + attack("A0", "Ben")
    facts += 'event(1,after_first_strike("A0",gets(2,0))).\nevent(2,combat_damage).\n'
    found = models("outcome", facts + CHANGE_SHOW + ask("outcome"))
    dealt = [args(clingo.parse_term(a)) for a in found[0] if a.startswith("combat_dealt(")]
    assert [(step, n) for _, step, _, _, n in dealt] == [("regular", 1)]
