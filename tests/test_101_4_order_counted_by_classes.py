"""101.4, 101.4c, 805.6: the APNAP orders of `ask order` are counted exactly
from the forms the rules derive (queries/order_classes.lp;
mtgkb.engine.classes), not from the ground program: the k things each
player chooses at once in any order (101.4c) give k! orders, a team whose m
members choose in whatever order they like (805.6) m!. Counting the ground
program went through a table of 2^k rows, enumerated past 14 things (16
things: 23 s, and only a lower bound of 100,000). Where a choice that makes
a player choose again (101.4d) changes the turns that follow, the forms say
so and the count falls back to the ground program's parts, exact as before.

The counts are held to clasp's plain enumeration of queries/order.lp on
random small tables.
"""

from __future__ import annotations

import math

from helpers import random_cases
from helpers.counting_forms import (
    PLAIN,
    THINGS,
    assert_counted_as_enumerated,
    counted_from_forms,
    only_answer,
    random_order,
)
from hypothesis import given
from hypothesis import strategies as st

from mtgkb.engine.state import Engine
from mtgkb.rulebase.registry import COUNTED_BY

CLASSES = Engine()


def test_101_4c_sixteen_things_chosen_at_once_have_16_factorial_orders(monkeypatch):
    """101.4c: each player chooses 16 things at once, in an order they pick
    (one order for all, as order.lp shows it): 16! orders."""
    text = "players: Ann, Ben\nactive: Ann\neach player chooses " + " and ".join(THINGS)
    with counted_from_forms(monkeypatch, recorded=False) as counted:
        answer = only_answer(text + "\nask order\n", max_models=10, engine=CLASSES)
    assert (answer["count"], answer["complete"]) == (math.factorial(16), True)
    assert counted == [math.factorial(16)]
    assert len(answer["orders"]) == 1  # (the players' order is the same in each: 101.4)
    assert len(answer["choice_orders"]["Ann"]) == 10
    assert {"101.4", "101.4c"} <= set(answer["rules"])


def test_101_4c_things_alike_are_one_order_whichever_of_them_goes_first(monkeypatch):
    """101.4c: each player chooses 16 things at once, four of them twice
    over (a creature, a creature, a land, a land, ...): swapping two things
    alike gives the same order, so there are 16! / (2! 2! 2! 2!) orders
    (the multinomial), counted from the forms (decl_alike) without the
    ground program; the orders listed show each alike pair as two equal
    words."""
    things = [*THINGS[:4], *THINGS[:4], *THINGS[4:12]]
    text = "players: Ann, Ben\nactive: Ann\neach player chooses " + " and ".join(things)
    expected = math.factorial(16) // 2**4
    with counted_from_forms(monkeypatch, recorded=False) as counted:
        answer = only_answer(text + "\nask order\n", max_models=10, engine=CLASSES)
    assert (answer["count"], answer["complete"]) == (expected, True)
    assert counted == [expected]
    listed = answer["choice_orders"]["Ann"]
    assert len(listed) == len({tuple(order) for order in listed}) == 10
    assert all(sorted(order) == sorted(t.split(" ", 1)[1] for t in things) for order in listed)
    assert {"101.4", "101.4c"} <= set(answer["rules"])


def test_805_6_each_team_s_members_choose_in_any_order(monkeypatch):
    """805.6: in Two-Headed Giant each team's two members choose in either
    order (2! x 2!), and 101.4c the five things in any order (5!): 480."""
    text = (
        "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\nteam North: Ann, Ben\n"
        "team South: Cat, Dan\nactive: Cat\neach player chooses " + " and ".join(THINGS[:5])
    )
    with counted_from_forms(monkeypatch, recorded=False) as counted:
        answer = only_answer(text + "\nask order\n", max_models=3, engine=CLASSES)
    assert (answer["count"], answer["complete"]) == (2 * 2 * math.factorial(5), True)
    assert counted == [480]
    assert {"805.6", "101.4c"} <= set(answer["rules"])


def test_101_4d_a_restart_under_team_turns_is_counted_by_parts_exactly():
    """101.4d with 805.6: a choice that makes another player choose changes
    the turns that follow, which the forms do not describe (decl_open): the
    count falls back to the ground program and is still what plain
    enumeration finds."""
    text = (
        "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\nteam North: Ann, Ben\n"
        "team South: Cat, Dan\nactive: Ann\neach player draws a card\n"
        "Cat's choice makes Ann choose\nask order\n"
    )
    counted, plain = (
        only_answer(text, max_models=1, engine=CLASSES),
        only_answer(text, max_models=0, engine=PLAIN),
    )
    assert plain.get("complete", True) and len(plain["orders"]) > 1  # (every order listed)
    assert (counted["count"], counted["complete"]) == (len(plain["orders"]), True)
    assert "101.4d" in counted["rules"]


def test_101_4_order_is_counted_by_its_forms():
    assert COUNTED_BY["order"] == "order_classes"


@random_cases(300, 8)
@given(st.integers(0, 10**6))
def test_101_4_805_6_order_counts_equal_plain_enumeration(seed):
    assert_counted_as_enumerated("order", random_order(seed), CLASSES)
