"""117.1a, 805.5a, 119.4, 103.4: what the multiplayer options leave alone and
what they change outside combat. No option changes a starting life total
(103.4, 119.1: 20 each; only Two-Headed Giant's variant shares a total,
810.4, and Team vs. Team shares no resources, 808.5), so `ask outcome` and
`ask can P pay N life` answer as in any game of 20 life; who may act follows
the option only where a team shares its turns (805.5a: a player may act when
their team has priority). The interaction matrix's tests of each option with
`ask outcome`, `ask can P pay` and `ask actions` (tables:
tests/helpers/variant_tables.py)."""

from __future__ import annotations

import pytest
from helpers.variant_tables import TABLES

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()
OPTIONS = [table for table in TABLES if table.feature.startswith("option:")]
ALL_KINDS = ["instant", "flash", "ability", "sorcery-speed ability", "sorcery", "land"]


def answers(table, body: str) -> list[dict]:
    text = f"{table.text}\nactive: Ann\n{body}\n"
    result = answer_text(text, f"{table.name}.mtg", Limits(), engine=ENGINE)
    assert result.status == 0, (result.error, result.output)
    return result.output["answers"]


@pytest.mark.parametrize("table", OPTIONS, ids=[t.name for t in OPTIONS])
def test_103_4_119_1_an_options_outcome_starts_at_20(table):
    # 103.4, 119.1: each player starts at 20; Shock's 2 damage leaves Ben at 18 (120.3a)
    (outcome,) = answers(table, '"Shock" deals 2 damage to Ben\nask outcome')
    assert outcome["life"]["Ben"] == 18 and outcome["life"]["Ann"] == 20
    assert outcome["lost"] == []
    assert {"103.4", "119.1"} & set(outcome["rules"]), outcome["rules"]


@pytest.mark.parametrize("table", OPTIONS, ids=[t.name for t in OPTIONS])
def test_119_4_paying_life_up_to_20_under_each_option(table):
    # 119.4: a player can pay life only up to their life total (20, 103.4)
    up_to, beyond = answers(table, "ask can Ben pay 20 life\nask can Ben pay 21 life")
    assert up_to["can"] is True and beyond["can"] is False
    assert "119.4" in set(up_to["rules"]) | set(beyond["rules"])


@pytest.mark.parametrize("table", OPTIONS, ids=[t.name for t in OPTIONS])
def test_117_1a_805_5a_who_may_act_under_each_option(table):
    # 117.1a: Ann, active, in her main phase with an empty stack, may make every
    # kind of play; Ben only when his team shares Ann's turn and priority (805.5a)
    ann, ben = answers(table, "phase: main\nask actions for Ann\nask actions for Ben")
    assert ann["may"] == ALL_KINDS
    assert "117.1a" in ann["rules"]
    assert ben["may"] == (ALL_KINDS if table.shared_turns else [])
    if table.shared_turns:
        assert "805.5a" in ben["rules"]
