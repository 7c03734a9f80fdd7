"""506.2, 506.2a-b, 802.2, 803.1a-b, 805.10a, 809.3c, 801.3: who defends and
what the active player's creatures may attack follow the variant and its
options; 508.1 and 802.3 judge an attack on anyone else, 802.4a and 805.10d
say whose attackers a defending player's creatures may block. The interaction
matrix's tests of each variant and option with `ask defending players`, `ask
attack targets`, `ask legal`, `ask can`, `ask fix`, `ask attacks` and `ask
blocks` (tables and their CR expectations: tests/helpers/variant_tables.py)."""

from __future__ import annotations

from itertools import product

import pytest
from helpers.variant_tables import NAMES, TABLES

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()

GIANT = 'Ann controls creature "Hill Giant" 3/3'
BEAR = 'Ann controls creature "Runeclaw Bear" 2/2'


def answers(table, body: str, status: int = 0) -> list[dict]:
    text = f"{table.text}\nactive: Ann\n{body}\n"
    result = answer_text(text, f"{table.name}.mtg", Limits(), engine=ENGINE)
    assert result.status == status, (result.error, result.output)
    return result.output["answers"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_506_2_802_2_805_10a_the_defending_players_of_each_table(table):
    # 506.2 (two players), 802.2 (all opponents), 803.1a-b (the neighbour on that
    # side), 805.10a (the nonactive team), 809.3c with 506.2a (the one adjacent
    # opponent), 801.3 (only opponents in range)
    (found,) = answers(table, f"phase: declare-attackers\n{GIANT}\nask defending players")
    assert found["players"] == list(table.defending)
    assert table.attack_rule in found["rules"] or (
        table.attack_rule == "801.3" and "802.2" in found["rules"]
    ), found["rules"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_508_1b_802_3_attack_targets_of_each_table(table):
    (found,) = answers(
        table, f'phase: declare-attackers\n{GIANT}\nask attack targets for "Hill Giant"'
    )
    assert found["targets"] == list(table.attackable)
    assert table.attack_rule in found["rules"], found["rules"]


def attack_lines(table) -> str:
    """Hill Giant attacks the first defender; Runeclaw Bear the forbidden player
    if the table has one, else the first defender."""
    target = table.forbidden or table.first
    return (
        f'phase: declare-attackers\n{GIANT}\n{BEAR}\n"Hill Giant" attacks {table.first}\n'
        f'"Runeclaw Bear" attacks {target}\n'
    )


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_508_1_802_3_legal_attacks_of_each_table(table):
    # an attack on a player who is not a defending player (a teammate, an
    # opponent out of reach of 803.1a-b, 809.3c or 801.3) breaks that rule;
    # an attack on a defending player is legal
    status = 1 if table.forbidden else 0
    (legal,) = answers(table, attack_lines(table) + "ask legal", status)
    if table.forbidden is None:
        assert legal["legal"] is True and legal["violations"] == []
        return
    assert legal["legal"] is False
    # only the attack on the forbidden player is at fault
    assert {tuple(v["objects"]) for v in legal["violations"]} == {
        ("Runeclaw Bear", table.forbidden)
    }
    assert table.forbidden_rule in legal["rules"], legal["rules"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_508_1a_802_3_what_can_attack_whom_in_each_table(table):
    body = f'phase: declare-attackers\n{GIANT}\nask can "Hill Giant" attack {table.first}'
    if table.forbidden:
        body += f'\nask can "Hill Giant" attack {table.forbidden}'
    found = answers(table, body)
    assert found[0]["can"] is True
    assert table.attack_rule in found[0]["rules"], found[0]["rules"]
    if table.forbidden:
        assert found[1]["can"] is False
        assert found[1]["forbidden_by"], found[1]
        assert table.forbidden_rule in found[1]["rules"], found[1]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_508_1_802_3_the_fix_of_each_tables_attack(table):
    # the least change that makes the declaration legal drops the one attack
    # on a player who is not a defending player, and keeps the other
    (fix,) = answers(table, attack_lines(table) + "ask fix")
    if table.forbidden is None:
        assert fix["legal"] is True and fix["changes"] == []
        return
    assert fix["changes"] == [{"remove": f"Runeclaw Bear attacks {table.forbidden}"}]
    assert table.forbidden_rule in fix["rules"], fix["rules"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_508_1_802_3_every_attack_declaration_of_each_table(table):
    # 508.1a: each creature attacks or not; 802.3: each attacker attacks one
    # player Ann may attack (no planeswalkers or battles here)
    (found,) = answers(table, f"phase: declare-attackers\n{GIANT}\n{BEAR}\nask attacks")
    expected = set()
    for giant, bear in product((None, *table.attackable), repeat=2):
        chosen = {"Hill Giant": giant, "Runeclaw Bear": bear}
        expected.add(frozenset((c, p) for c, p in chosen.items() if p))
    assert {frozenset(a.items()) for a in found["assignments"]} == expected
    assert found["count"] == len(expected) and found["complete"] is True
    assert table.attack_rule in found["rules"], found["rules"]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_802_4a_805_10d_blocks_of_each_table(table):
    # Hill Giant attacks the first defender, who controls Grizzly Bears; Runeclaw
    # Bear attacks a second defender where there is one. 802.4a: a defending
    # player's creatures block only creatures attacking that player; 805.10d:
    # with shared team turns, creatures attacking any player of the team.
    other = table.second or table.first
    body = (
        f"phase: declare-blockers\n{GIANT}\n{BEAR}\n"
        f'{table.first} controls creature "Grizzly Bears" 2/2\n'
        f'"Hill Giant" attacks {table.first}\n"Runeclaw Bear" attacks {other}\nask blocks'
    )
    (found,) = answers(table, body)
    expected = [{}, {"Grizzly Bears": "Hill Giant"}]
    if other == table.first or table.shared_turns:
        expected.append({"Grizzly Bears": "Runeclaw Bear"})
    assert sorted(map(str, found["assignments"])) == sorted(map(str, expected))
    if table.shared_turns:
        assert "805.10d" in found["rules"]
    elif other != table.first:
        assert "802.4a" in found["rules"]
    else:
        assert "509.1a" in found["rules"]
