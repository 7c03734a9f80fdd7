"""No total the rules compute ever wraps around clingo's 32-bit integers
(issue 15, item 1): a file whose numbers could add up past the supported range
is refused before solving, with FILE:LINE:COL and exit 2; every file accepted
gets exact totals (119.3 life, 810.9 shared life, 510.1a combat damage,
702.15b lifelink).

The bound is generic: every number of the file counts, an object's numbers
once per damage step of each `combat damage`. The tests below give each kind
of statement with a number enough copies to pass it, and check that files
just inside it are answered exactly.
"""

import subprocess
import sys

import pytest
from helpers import ROOT

from mtgkb import run
from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import INT_LIMIT, MAX_TOTAL, START_ALLOWANCE, STEPS_PER_COMBAT_DAMAGE

# slow tier: hostile inputs at the size limits
pytestmark = pytest.mark.slow

TWO = "players: Ann, Ben\n"


def refused(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        run(text, "big.mtg")
    err = caught.value
    assert "add up to more than 536,870,911" in err.message
    assert "32-bit" in err.message
    return err


def test_the_bound_is_a_quarter_of_clingos_integers():
    assert INT_LIMIT == 2**31 - 1
    assert MAX_TOTAL * 4 <= INT_LIMIT


def test_the_issues_reproducer_is_refused_at_the_line_that_passes_the_bound():
    # life 1,000,000, then 2,148 gains of 1,000,000, then a payment of 1
    text = "players: Ann, Ben\nlife: Ann 1000000\n" + "Ann gains 1000000 life\n" * 2148
    text += "Ann pays 1 life\nask outcome\n"
    err = refused(text)
    # 80 of starting allowance + 1,000,000 + 535 gains pass 536,870,911 at the 536th gain
    assert err.line == 2 + 536
    assert err.column == len("Ann gains ") + 1
    assert err.source_line == "Ann gains 1000000 life"


def test_the_combat_reproducer_is_refused():
    # 2,148 attacking 1000000/1 creatures: the power counts per damage step
    lines = [TWO]
    lines += [f'Ann controls creature "C{i}" 1000000/1\n' for i in range(2148)]
    lines += [f'"C{i}" attacks Ben\n' for i in range(2148)]
    lines.append("combat damage\nask outcome\n")
    err = refused("".join(lines))
    assert err.source_line.startswith('Ann controls creature "C')


EVENTS = [
    "Ann gains {n} life",
    "Ann loses {n} life",
    "Ann pays {n} life",
    "Ann's life total becomes {n}",
    '"Fireball" deals {n} damage to Ann',
    "ask can Ann pay {n} life",
]


@pytest.mark.parametrize("form", EVENTS)
def test_every_one_time_number_counts_once(form):
    n = 100_000_000
    inside = TWO + f"{form.format(n=n)}\n" * 5 + "ask outcome\n"
    run(inside)  # 500,000,000 and the allowance: inside
    outside = TWO + f"{form.format(n=n)}\n" * 6 + "ask outcome\n"
    err = refused(outside)
    assert err.line == 7


OBJECTS = [
    'Ann controls creature "Bear" {n}/1',
    'Ann controls creature "Bear" 1/{n}',
    'Ben controls planeswalker "Jace" loyalty {n}',
    'Ben controls battle "Siege" defense {n} protected by Ann',
]


@pytest.mark.parametrize("form", OBJECTS)
def test_an_objects_numbers_count_once_per_damage_step(form):
    n = 100_000_000
    # one object, no combat damage: counted twice (two damage steps)
    run(TWO + form.format(n=n) + "\nask outcome\n")
    # three `combat damage` events: 3 x 2 x 100,000,000 passes the bound
    err = refused(TWO + form.format(n=n) + "\ncombat damage\n" * 3 + "ask outcome\n")
    assert err.line == 2


def test_vanguard_modifiers_and_given_life_count():
    text = "game: vanguard\nplayers: Ann, Ben\nvanguard: Ann 300000000\nvanguard: Ben 300000000\n"
    err = refused(text + "ask outcome\n")
    assert err.line == 4
    err = refused(TWO + "life: Ann 300000000, Ben 300000000\nask outcome\n")
    assert (err.line, err.column) == (2, len("life: Ann 300000000, Ben ") + 1)


def test_totals_inside_the_bound_are_exact_never_wrapped():
    # 500,000,000 life, gains up to the bound: the exact sum (119.3)
    text = TWO + "life: Ann 500000000\n" + "Ann gains 9000000 life\n" * 4 + "ask outcome\n"
    (outcome,) = run(text)["answers"]
    assert outcome["life"]["Ann"] == 536_000_000
    assert "119.3" in outcome["rules"]
    # and far below zero: exact too
    text = TWO + "Ann loses 500000000 life\n" + "Ann loses 9000000 life\n" * 4 + "ask outcome\n"
    (outcome,) = run(text)["answers"]
    assert outcome["life"]["Ann"] == 20 - 536_000_000
    assert outcome["lost"] == ["Ann"]


def test_combat_and_lifelink_inside_the_bound_are_exact():
    # 510.1a, 702.15b: a 130,000,000-power lifelinker hits twice
    text = TWO + 'Ann controls creature "Huge" 130000000/1 with lifelink\n"Huge" attacks Ben\n'
    text += "combat damage\ncombat damage\nask outcome\n"
    (outcome,) = run(text)["answers"]
    assert outcome["life"] == {"Ann": 20 + 260_000_000, "Ben": 20 - 260_000_000}
    assert {"510.1a", "702.15b"} <= set(outcome["rules"])


def test_a_shared_life_total_inside_the_bound_is_exact():
    # 810.9: a team's shared total takes both members' gains
    text = (
        "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\n"
        "team North: Ann, Ben\nteam South: Cat, Dan\n"
        "Ann gains 260000000 life\nBen gains 260000000 life\nask outcome\n"
    )
    (outcome,) = run(text)["answers"]
    assert outcome["team_life"]["North"] == 30 + 520_000_000
    assert "810.9" in outcome["rules"]


def test_the_bound_counts_every_starting_total():
    players = ", ".join(f"P{i}" for i in range(64))
    room = MAX_TOTAL - START_ALLOWANCE * 64
    run(f"players: {players}\nP1 gains {room} life\nask outcome\n")
    refused(f"players: {players}\nP1 gains {room + 1} life\nask outcome\n")
    assert STEPS_PER_COMBAT_DAMAGE == 2


def test_the_command_line_exits_2_with_the_place():
    text = TWO + "Ann gains 300000000 life\nAnn gains 300000000 life\nask outcome\n"
    done = subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("<stdin>:3:11: error: the numbers of this file add up")
    assert "Traceback" not in done.stderr


def test_a_declared_damage_assignment_counts_once_per_damage_step():
    # 510.1c-d: an assignment is dealt in each damage step of each `combat damage`
    text = (
        TWO + 'Ann controls creature "Bear" 2/2 with double strike\n"Bear" attacks Ben\n'
        '"Bear" assigns 100000000 damage to Ben\n' + "combat damage\n" * 3 + "ask outcome\n"
    )
    err = refused(text)
    assert err.line == 4
