"""101.4, 101.4b, 603.3b, 802.4, 802.5, 805.6, 805.7, 805.10d, 805.10f,
510.1c: the order in which players choose, what each knows, how simultaneous
triggers go on the stack, who blocks and assigns combat damage in what order,
and how a creature may divide its damage, in each variant and option. Without
shared team turns every table chooses in APNAP order (101.4; turn order
through the seats); with them (Two-Headed Giant, Archenemy, the option) the
active team first, its members in any order they like, then each other team
(805.6, 805.7, 805.10d, 805.10f). The interaction matrix's tests of each
variant and option with `ask order`, `ask knowledge`, `ask stack`, `ask block
order`, `ask damage order` and `ask assignments` (tables and their CR
expectations: tests/helpers/variant_tables.py)."""

from __future__ import annotations

from itertools import chain, permutations, product

import pytest
from helpers.variant_tables import NAMES, TABLES

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()


def answers(table, body: str) -> list[dict]:
    text = f"{table.text}\nactive: Ann\n{body}\n"
    result = answer_text(text, f"{table.name}.mtg", Limits(), engine=ENGINE)
    assert result.status == 0, (result.error, result.output)
    return result.output["answers"]


def apnap_orders(table) -> set[tuple[str, ...]]:
    """101.4: one order; 805.6: each group's members in any order, groups in turn."""
    return {
        tuple(chain.from_iterable(parts))
        for parts in product(*(permutations(group) for group in table.groups))
    }


def group_of(table, player: str) -> int:
    return next(k for k, group in enumerate(table.groups) if player in group)


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_101_4_805_6_the_order_of_choices_in_each_table(table):
    (found,) = answers(table, "each player chooses a creature\nask order")
    assert {tuple(order) for order in found["orders"]} == apnap_orders(table)
    assert ("805.6" if table.shared_turns else "101.4") in found["rules"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_101_4b_what_each_chooser_knows_in_each_table(table):
    # 101.4b: a player knows the choices made before theirs; with shared team
    # turns (805.6) a teammate's choice may come after, so only the earlier
    # teams' choices are known in every legal order
    (found,) = answers(table, "each player chooses a creature\nask knowledge")
    players = list(chain.from_iterable(table.groups))
    expected = {
        p: sorted(q for q in players if group_of(table, q) < group_of(table, p)) for p in players
    }
    assert {p: sorted(known) for p, known in found["known"].items()} == expected
    assert "101.4b" in found["rules"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_603_3b_805_7_simultaneous_triggers_in_each_table(table):
    # 603.3b: the active player puts their triggered abilities on the stack
    # first, then the others in turn order; 805.7: with shared team turns the
    # active team puts all of its members' in any order
    body = (
        'trigger "Soul Warden" controlled by Ann\n'
        'trigger "Essence Warden" controlled by Ben\nask stack'
    )
    (found,) = answers(table, body)
    together = table.shared_turns and group_of(table, "Ben") == group_of(table, "Ann")
    expected = [("Soul Warden", "Essence Warden")]
    if together:
        expected.append(("Essence Warden", "Soul Warden"))
    assert sorted(tuple(order) for order in found["orders"]) == sorted(expected)
    assert ("805.7" if table.shared_turns else "603.3b") in found["rules"]


def combat(table, phase: str) -> str:
    """Hill Giant (trample) attacks the first defender, blocked by Grizzly
    Bears; Runeclaw Bear attacks a second defending player where there is one."""
    other = table.second or table.first
    return (
        f"phase: {phase}\n"
        'Ann controls creature "Hill Giant" 3/3 with trample\n'
        'Ann controls creature "Runeclaw Bear" 2/2\n'
        f'{table.first} controls creature "Grizzly Bears" 2/2\n'
        f'"Hill Giant" attacks {table.first}\n"Runeclaw Bear" attacks {other}\n'
        '"Grizzly Bears" blocks "Hill Giant"\n'
    )


def attacked(table) -> list[str]:
    return [p for p in (table.first, table.second) if p]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_802_4_805_10d_the_block_order_of_each_table(table):
    # 802.4: each attacked defending player declares blockers in APNAP order;
    # 805.10d: with shared team turns the defending team declares one block
    (found,) = answers(table, combat(table, "declare-blockers") + "ask block order")
    if table.shared_turns:
        assert all(sorted(order) == sorted(attacked(table)) for order in found["orders"])
        assert "805.10d" in found["rules"]
    else:
        assert found["orders"] == [attacked(table)]  # the tables list them in turn order
        assert "802.4" in found["rules"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_802_5_805_10f_the_damage_order_of_each_table(table):
    # 802.5: combat damage is assigned in APNAP order: Ann, then the attacked
    # players in turn order; 805.10f: the active team, then the defending team
    (found,) = answers(table, combat(table, "combat-damage") + "ask damage order")
    if table.shared_turns:
        assert found["orders"], found
        for order in found["orders"]:
            assert order[0] == "Ann" and sorted(order[1:]) == sorted(attacked(table))
        assert "805.10f" in found["rules"]
    else:
        assert found["orders"] == [["Ann", *attacked(table)]]
        assert "802.5" in found["rules"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_510_1c_702_19b_a_tramplers_divisions_in_each_table(table):
    # 510.1c-d, 702.19b: Hill Giant 3/3 with trample blocked by Grizzly Bears 2/2
    # assigns lethal damage (2) to the blocker and the rest to the player it
    # attacks, or all 3 to the blocker; no variant changes that
    (found,) = answers(table, combat(table, "combat-damage") + 'ask assignments for "Hill Giant"')
    expected = [{"Grizzly Bears": 2, table.first: 1}, {"Grizzly Bears": 3}]
    assert sorted(map(str, found["assignments"])) == sorted(map(str, expected))
    assert "702.19b" in found["rules"]
