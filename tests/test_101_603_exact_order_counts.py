"""603.3b, 101.4, 101.4c, 805.6: the number of legal stack orders and APNAP
orders is exact, however many there are, and always the number that plain
enumeration finds.

Stack orders and APNAP orders are counted from derived forms first
(tests/test_603_3b_stack_orders_counted_by_classes.py,
tests/test_101_4_order_counted_by_classes.py); where the forms decline
(101.4d's restarts under team turns, things alike), mtgkb.engine.counting
counts each independent part of the ground program (each controller's block
of triggers, each player's several choices, a team's turns) with a counting
table instead of enumerating it. The property tests here hold that counter,
the forms switched off, to clasp's plain enumeration of the same question
on random small tables; the others check that `--max-models` then bounds
only the listing.
"""

from __future__ import annotations

import math
import sys

from helpers import ROOT, examples
from helpers.answering import engine
from helpers.counting_forms import random_order, random_stack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgkb.engine import solve
from mtgkb.engine.state import Engine, Options
from mtgkb.language.facts import scenario_facts
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text, parse_or_fail

# one engine each, read once: counting by parts (the forms off), and plain enumeration
ENGINE = Engine(Options.from_env().but(count_classes=False))
BY_ENUMERATION = Engine(Options.from_env().but(count_parts=False))


def _counts(text: str, query: str) -> tuple[tuple[int, bool], tuple[int, bool]]:
    """(count, complete) by parts listing one model, and by plain enumeration."""
    facts = scenario_facts(parse_or_fail(text, "order.mtg"))
    by_parts = solve.solve(query, facts, max_models=1, engine=ENGINE)
    plain = solve.solve(query, facts, max_models=0, engine=BY_ENUMERATION)
    return (by_parts.count, by_parts.complete), (plain.count, plain.complete)


SETTINGS = settings(
    max_examples=examples(30),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


@SETTINGS
@given(st.integers(0, 10**6))
def test_603_3b_stack_order_counts_equal_plain_enumeration(seed):
    parts, plain = _counts(random_stack(seed), "stack")
    assert parts == plain and plain[1]


@SETTINGS
@given(st.integers(0, 10**6))
def test_101_4_apnap_order_counts_equal_plain_enumeration(seed):
    parts, plain = _counts(random_order(seed), "order")
    assert parts == plain and plain[1]


def test_603_3b_a_cut_listing_says_how_many_orders_there_are():
    # 603.3b: each controller orders their own triggers: 4! x 3!
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'trigger "A{i}" controlled by Ann' for i in range(4)]
    lines += [f'trigger "B{i}" controlled by Ben' for i in range(3)]
    text = "\n".join([*lines, "ask stack"]) + "\n"
    (cut,) = answer_text(text, "stack.mtg", Limits(max_models=5), engine=engine()).output["answers"]
    (whole,) = answer_text(text, "stack.mtg", Limits(max_models=0), engine=engine()).output[
        "answers"
    ]
    assert (cut["count"], cut["complete"]) == (math.factorial(4) * math.factorial(3), True)
    assert len(cut["orders"]) == 5 and "603.3b" in cut["rules"]
    # the whole listing says no count, as before
    assert "count" not in whole and "complete" not in whole
    assert len(whole["orders"]) == cut["count"]


def test_603_3b_ten_triggers_are_counted_without_listing_them():
    # 603.3b: 10! orders of one player's triggers, counted exactly
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'trigger "T{i}" controlled by Ann' for i in range(10)]
    text = "\n".join([*lines, "ask stack"]) + "\n"
    (answer,) = answer_text(text, "stack.mtg", Limits(max_models=10), engine=engine()).output[
        "answers"
    ]
    assert (answer["count"], answer["complete"]) == (math.factorial(10), True)
    assert len(answer["orders"]) == 10 and "603.3b" in answer["rules"]


def test_101_4c_several_choices_of_a_team_game_are_counted_exactly():
    # 805.6: each team's members choose in either order (2 x 2); 101.4c: one
    # order of the 8 choices for all (8!)
    things = " and ".join(f"a {w}" for w in ["creature", "land", "card", "token"])
    things += " and an artifact and an enchantment and a planeswalker and a spell"
    text = (
        "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\nteam North: Ann, Ben\n"
        f"team South: Cat, Dan\nactive: Ann\neach player chooses {things}\nask order\n"
    )
    (answer,) = answer_text(text, "order.mtg", Limits(max_models=100), engine=engine()).output[
        "answers"
    ]
    assert (answer["count"], answer["complete"]) == (4 * math.factorial(8), True)
    assert {"101.4c", "805.6"} <= set(answer["rules"])


def test_509_1c_menace_tied_blockers_under_a_requirement_are_counted_exactly():
    # 509.1c: only the declarations obeying the most requirements count, and
    # 702.111b ties the blockers of a menace attacker into one part: 884,055
    # optimal declarations (as clasp's plain enumeration finds), past the
    # 100,000 that enumerating the part would stop at
    sys.path.insert(0, str(ROOT))
    from bench.suite import batch_texts

    text = batch_texts(127)[126]
    answers = answer_text(text, "batch126.mtg", Limits(max_models=1000), engine=engine()).output[
        "answers"
    ]
    (blocks,) = [a for a in answers if a["ask"] == "blocks"]
    assert (blocks["count"], blocks["complete"]) == (884055, True)
    assert {"509.1a", "509.1c", "702.111b"} <= set(blocks["rules"])
