"""603.3b, 805.7: the orders of putting waiting triggers on the stack are
counted exactly from the forms the rules derive (queries/stack_classes.lp;
mtgkb.engine.classes), never from the ground program: a unit (a player, or
with shared team turns a team) puts its k triggers in a block of k positions
in any order, so the count is a product of factorials however large, where
counting the ground program enumerated every order of a block past fourteen
triggers (16 + 3 triggers: 35 s, and only a lower bound of 100,000).

The counter's two forms for orders, `decl_must_pick` (a trigger goes to one
position) and `decl_max_takers` (one trigger per position), are held to a
brute-force count of the same forms on random small spaces that mix them
with every other form the counter reads; the stack counts are held to
clasp's plain enumeration of queries/stack.lp on random small tables.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations, product

import clingo
import pytest
from helpers import ALL_EXAMPLES, random_cases
from helpers.counting_forms import (
    PLAIN,
    assert_counted_as_enumerated,
    counted_from_forms,
    only_answer,
    random_stack,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgkb.engine import classes
from mtgkb.engine.classes import Space, Unsupported, count
from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.rulebase.registry import COUNTED_BY
from mtgkb.running.runner import answer_text

CLASSES = Engine()


def _triggers(controllers: dict[str, int]) -> list[str]:
    return [
        f'trigger "{player[0]}{i}" controlled by {player}'
        for player, k in controllers.items()
        for i in range(1, k + 1)
    ]


# --- by hand, from the CR ------------------------------------------------------


def test_603_3b_sixteen_and_three_triggers_are_counted_from_the_forms(monkeypatch):
    """603.3b: Ann (active) puts her 16 triggers on the stack in any order,
    then Ben his 3 (101.4: APNAP): 16! x 3! orders. Counted from the forms
    alone: the ground program is never recorded (the counter by parts
    enumerated a block past 14 triggers), and only the ten orders listed are
    enumerated."""
    lines = ["players: Ann, Ben", "active: Ann", *_triggers({"Ann": 16, "Ben": 3})]
    with counted_from_forms(monkeypatch, recorded=False) as counted:
        answer = only_answer("\n".join([*lines, "ask stack"]) + "\n", max_models=10, engine=CLASSES)
    expected = math.factorial(16) * math.factorial(3)
    assert (answer["count"], answer["complete"]) == (expected, True)
    assert counted == [expected]
    assert len(answer["orders"]) == 10 == len({tuple(o) for o in answer["orders"]})
    # APNAP (101.4): Ann's block is the bottom sixteen, Ben's the top three
    ann = {f"A{i}" for i in range(1, 17)}
    assert all(set(o[:16]) == ann and set(o[16:]) == {"B1", "B2", "B3"} for o in answer["orders"])
    assert {"603.3b", "101.4"} <= set(answer["rules"])


def test_805_7_a_team_puts_its_members_triggers_in_one_block():
    """805.7: with shared team turns (Two-Headed Giant) a team puts all its
    members' triggers on the stack in any order, the active team first
    (101.4): South (Cat 4, Dan 4) has 8! orders, North (Ann 3, Ben 2) 5!."""
    lines = [
        "game: two-headed-giant",
        "players: Ann, Ben, Cat, Dan",
        "team North: Ann, Ben",
        "team South: Cat, Dan",
        "active: Cat",
        *_triggers({"Ann": 3, "Ben": 2, "Cat": 4, "Dan": 4}),
    ]
    answer = only_answer("\n".join([*lines, "ask stack"]) + "\n", max_models=5, engine=CLASSES)
    assert (answer["count"], answer["complete"]) == (math.factorial(8) * math.factorial(5), True)
    south = {f"{p}{i}" for p in "CD" for i in range(1, 5)}
    assert all(set(o[:8]) == south for o in answer["orders"])
    assert "805.7" in answer["rules"]


def test_603_3b_stack_is_counted_by_its_forms():
    assert COUNTED_BY["stack"] == "stack_classes"


# --- the counter's forms against brute force ------------------------------------


def _random_space(rng: random.Random) -> Space:
    """A small space mixing every form the counter reads."""
    space = Space()
    pool = [f"y{i}" for i in range(rng.randint(1, 4))]
    groups = ["g1", "g2"][: rng.choice((1, 1, 2))]
    for i in range(rng.randint(1, 4)):
        x = f"x{i}"
        space.choosers[x] = rng.choice(groups)
        least = 0 if rng.random() < 0.1 else 1  # (a chooser with no option: rarely)
        space.options[x] = sorted(rng.sample(pool, rng.randint(least, len(pool))))
        space.capacity[x] = rng.randint(1, 3)
        if rng.random() < 0.5:
            space.must_pick.add(x)
        if rng.random() < 0.15:
            space.not_alone.add(x)
        if rng.random() < 0.15:
            space.reward_chooser.add(x)
    for y in pool:
        if rng.random() < 0.7:
            space.max_takers[y] = rng.randint(1, 2)
        if rng.random() < 0.25:
            space.min_takers[(y, rng.choice(groups))] = rng.randint(2, 3)
        if rng.random() < 0.15:
            space.reward_option.add(y)
    for group in groups:
        if rng.random() < 0.15:
            space.max_choosers[group] = rng.randint(1, 2)
    return space


def _brute_force(space: Space) -> int:
    """Every declaration of the space one by one: each chooser picks a set of
    its options (at most its capacity, at least one if it must), checked
    against each form as mtgkb.engine.classes documents it; those with the
    most points."""
    choosers = sorted(space.choosers)
    picks_of = []
    for x in choosers:
        options, most = space.options[x], space.capacity[x]
        sets = [c for r in range(min(most, len(options)) + 1) for c in combinations(options, r)]
        picks_of.append([c for c in sets if c or x not in space.must_pick])
    best, total = None, 0
    for picks in product(*picks_of):
        takers = Counter(y for chosen in picks for y in chosen)
        picking = [x for x, chosen in zip(choosers, picks, strict=True) if chosen]
        in_group = Counter(space.choosers[x] for x in picking)
        ok = all(takers[y] <= n for y, n in space.max_takers.items())
        for (y, group), n in space.min_takers.items():
            mine = sum(
                1
                for x, chosen in zip(choosers, picks, strict=True)
                if y in chosen and space.choosers[x] == group
            )
            ok = ok and not 0 < mine < n
        ok = ok and all(in_group[space.choosers[x]] >= 2 for x in picking if x in space.not_alone)
        ok = ok and all(in_group[g] <= n for g, n in space.max_choosers.items())
        if not ok:
            continue
        points = len(set(picking) & space.reward_chooser) + len(set(takers) & space.reward_option)
        if best is None or points > best:
            best, total = points, 1
        elif points == best:
            total += 1
    return total


@settings(max_examples=2000 if ALL_EXAMPLES else 200, deadline=None, derandomize=True)
@given(st.integers(0, 10**9))
def test_603_3b_must_pick_and_most_takers_count_as_brute_force(seed):
    space = _random_space(random.Random(seed))
    try:
        counted = count(space)
    except Unsupported:
        # (an option with a "none or N or more" of one group picked from another)
        assert any(
            any(space.choosers[x] != g for x in space.choosers if y in space.options[x])
            for y, g in space.min_takers
        )
        return
    assert counted == _brute_force(space)


def test_603_3b_one_position_each_is_a_factorial_by_hand():
    """k things, each put in exactly one of k positions that take one thing
    each: k! (the stack's block); with a position more, k+1 positions for k
    things: (k+1)!/1!."""
    for k in (1, 2, 5, 12):
        space = Space()
        for i in range(k):
            x = f"t{i}"
            space.choosers[x] = "ann"
            space.options[x] = [f"p{j}" for j in range(k)]
            space.capacity[x] = 1
            space.must_pick.add(x)
        space.max_takers = {f"p{j}": 1 for j in range(k)}
        assert count(space) == math.factorial(k)
        for x in space.choosers:
            space.options[x] = [*space.options[x], "extra"]
        space.max_takers["extra"] = 1
        assert count(space) == math.factorial(k + 1)


# --- the stack's counts against plain enumeration ---------------------------------


@random_cases(300, 5)
@given(st.integers(0, 10**6))
def test_603_3b_805_7_stack_counts_equal_plain_enumeration(seed):
    assert_counted_as_enumerated("stack", random_stack(seed), CLASSES)


@pytest.mark.parametrize("controllers", [{"Ann": 0, "Ben": 0}, {"Ann": 1, "Ben": 0}])
def test_603_3b_no_or_one_trigger_has_one_order(controllers):
    lines = ["players: Ann, Ben", "active: Ann", *_triggers(controllers)]
    answer = only_answer("\n".join([*lines, "ask stack"]) + "\n", max_models=10, engine=CLASSES)
    assert len(answer["orders"]) == 1 and "count" not in answer and "complete" not in answer


@pytest.mark.parametrize("lang", ["en", "it"])
def test_603_3b_an_enumerated_count_cut_at_the_cap_says_why(lang):
    """Never a lower bound presented as a count: counted by enumeration only
    (the class counter and the parts switched off), 4! = 24 orders cut at
    --max-models 3 say that the listing is incomplete, and why, in the
    answer's language."""
    lines = ["players: Ann, Ben", "active: Ann", *_triggers({"Ann": 4})]
    text = "\n".join([*lines, "ask stack"]) + "\n"
    (answer,) = answer_text(
        text, "stack.mtg", Limits(max_models=3, lang=lang), engine=PLAIN
    ).output["answers"]
    # (the three listed are all it found: no count beside them, as before)
    assert (answer["complete"], len(answer["orders"])) == (False, 3) and "count" not in answer
    assert "--max-models" in answer["reason"]
    assert ("limite inferiore" if lang == "it" else "lower bound") in answer["reason"]
    (whole,) = answer_text(text, "stack.mtg", Limits(max_models=3), engine=CLASSES).output[
        "answers"
    ]
    assert (whole["count"], whole["complete"]) == (math.factorial(4), True)
    assert "reason" not in whole


@pytest.mark.parametrize(
    "forms",
    [
        # a term inside an argument (beside flat and one-level terms)
        [
            "decl_chooser(order,item(1),items)",
            "decl_option(order,item(1),slot(1))",
            "decl_capacity(order,item(1),1)",
            'cites(rule("101.4c"))',
        ],
        # one level deeper still
        ["decl_chooser(order,item(f(1)),items)", "decl_capacity(order,item(f(1)),1)"],
        # the wrong number of arguments
        ["decl_chooser(order,1,items)", "decl_option(order,1)", "decl_capacity(order,1,1)"],
    ],
)
def test_a_form_the_counter_cannot_read_is_never_dropped(forms):
    """A form whose arguments the counter does not read raises Unsupported
    (the caller then counts the ground program), where it was left out and
    the space read as having no chooser: one declaration."""
    symbols = [clingo.parse_term(text) for text in forms]
    with pytest.raises(Unsupported):
        classes.count_space(symbols, "order")
