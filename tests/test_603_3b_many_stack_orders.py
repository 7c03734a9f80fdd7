"""603.3b: a player puts their waiting triggers on the stack in any order they
choose, so k triggers have k! orders. Listing them stays linear in the orders
listed (issue 15, item 8: 9 triggers took 279 s), and a listing that stops at
`--max-models` says how many orders there are in all, exactly (issue 11)."""

from __future__ import annotations

import math

import pytest
from helpers.answering import engine

from mtgkb.questions.answers import Limits
from mtgkb.questions.symbols import Decoder
from mtgkb.running.runner import answer_text


def _triggers(k: int) -> str:
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'trigger "T{i}" controlled by Ann' for i in range(1, k + 1)]
    return "\n".join(lines + ["ask stack"]) + "\n"


def test_603_3b_every_order_of_five_triggers_once():
    (answer,) = answer_text(_triggers(5), "stack.mtg", engine=engine()).output["answers"]
    orders = answer["orders"]
    assert len(orders) == math.factorial(5) == len({tuple(o) for o in orders})
    assert all(sorted(o) == [f"T{i}" for i in range(1, 6)] for o in orders)
    assert "complete" not in answer and "603.3b" in answer["rules"]


@pytest.mark.slow  # 9! orders counted, 30,000 listed: the slow tier
def test_603_3b_nine_triggers_stop_at_the_cap_in_linear_time_and_count_all(monkeypatch):
    cap = 30000  # of 9! = 362,880: listing them with a list search took minutes
    # the work, not the seconds: how many shown atoms the answer reads, and how
    # many of them it has to read from clingo (about ten calls each)
    reads = {"atoms": 0, "from_clingo": 0}
    read = Decoder._read

    def counted(decoder, symbol):
        reads["atoms"] += 1
        before = len(decoder._seen)
        found = read(decoder, symbol)
        reads["from_clingo"] += len(decoder._seen) - before
        return found

    monkeypatch.setattr(Decoder, "_read", counted)
    (answer,) = answer_text(
        _triggers(9), "stack.mtg", Limits(max_models=cap), engine=engine()
    ).output["answers"]
    assert (answer["count"], answer["complete"]) == (math.factorial(9), True)
    assert len(answer["orders"]) == cap == len({tuple(o) for o in answer["orders"]})
    assert "603.3b" in answer["rules"]
    # linear in the orders listed: a bounded number of atoms read per order,
    # and each distinct atom (81 stack/2 atoms, the citations) read from clingo once
    assert reads["atoms"] <= 30 * cap, reads
    assert reads["from_clingo"] <= 9 * 9 + 50, reads
