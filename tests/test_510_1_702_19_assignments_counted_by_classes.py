"""510.1a, 510.1c, 702.19b, 702.19c, 702.2c: the legal damage assignments of
a creature (`ask assignments for "C"`) are counted exactly from the forms
the rules derive (queries/assignment_classes.lp; mtgkb.engine.classes): its
power divided among its recipients, what it attacks getting damage only once
each blocker has lethal damage (trample), the planeswalker's controller only
once the planeswalker has its loyalty (trample over planeswalkers). Counting
them by enumeration stopped at --max-models and said only a lower bound (a
60/60 trampler blocked by eight creatures: 100,000 of about a billion, in
44 s).

The counts are held to clasp's plain enumeration of queries/assignments.lp
on random small combats using every rule the forms describe.
"""

from __future__ import annotations

import random
from math import comb

import pytest
from helpers import random_cases
from helpers.counting_forms import PLAIN, counted_from_forms, only_answer
from hypothesis import given
from hypothesis import strategies as st

from mtgkb.engine.classes import Division, count_division
from mtgkb.engine.state import Engine
from mtgkb.rulebase.registry import COUNTED_BY

CLASSES = Engine()


# --- by hand, from the CR ------------------------------------------------------


def test_702_19b_a_big_trampler_s_assignments_are_counted_from_the_forms(monkeypatch):
    """510.1a, 510.1c, 702.19b: a 60/60 trampler blocked by eight 1/3
    creatures divides 60 among them and the player, and may give the player
    damage only once each blocker has 3. Nothing to the player: 60 among 8,
    C(67,7); t > 0 to the player: 60 - 24 - t over 8 beyond their 3 each,
    summed over t, C(43,8). Counted from the forms alone (the ground program
    never recorded), the first hundred listed."""
    lines = ["players: Rob, Alex", "active: Rob", 'Rob controls creature "Big" 60/60 with trample']
    lines.append('"Big" attacks Alex')
    for i in range(8):
        lines += [f'Alex controls creature "B{i}" 1/3', f'"B{i}" blocks "Big"']
    with counted_from_forms(monkeypatch, recorded=False) as counted:
        answer = only_answer(
            "\n".join([*lines, 'ask assignments for "Big"']) + "\n", engine=CLASSES
        )
    assert (answer["count"], answer["complete"]) == (comb(67, 7) + comb(43, 8), True)
    assert counted == [answer["count"]]
    assert len(answer["assignments"]) == 100
    assert all(sum(a.values()) == 60 for a in answer["assignments"])
    assert {"510.1a", "702.19b"} <= set(answer["rules"])


def test_702_2c_deathtouch_makes_one_damage_lethal_for_the_count():
    """702.2c with 702.19b: a 5/5 with trample and deathtouch blocked by two
    3/3s. Nothing to the player: 5 between the two, 6 ways; t > 0 to the
    player once each blocker has 1: 5 - t - 2 left over the two beyond their
    1 each, t = 1..3: 3 + 2 + 1 = 6. 12 in all."""
    text = (
        "players: Rob, Alex\nactive: Rob\n"
        'Rob controls creature "Snake" 5/5 with trample, deathtouch\n'
        'Alex controls creature "O1" 3/3\nAlex controls creature "O2" 3/3\n'
        '"Snake" attacks Alex\n"O1" blocks "Snake"\n"O2" blocks "Snake"\n'
        'ask assignments for "Snake"\n'
    )
    answer = only_answer(text, max_models=5, engine=CLASSES)
    assert (answer["count"], answer["complete"]) == (12, True)
    assert "702.2c" in answer["rules"]


def test_510_1c_without_trample_only_the_blockers_share_the_damage():
    """510.1c: a blocked 4/4 without trample divides 4 between its two
    blockers only: 5 ways."""
    text = (
        'players: Rob, Alex\nactive: Rob\nRob controls creature "Giant" 4/4\n'
        'Alex controls creature "W1" 0/2\nAlex controls creature "W2" 0/2\n'
        '"Giant" attacks Alex\n"W1" blocks "Giant"\n"W2" blocks "Giant"\n'
        'ask assignments for "Giant"\n'
    )
    answer = only_answer(text, max_models=2, engine=CLASSES)
    assert (answer["count"], answer["complete"]) == (5, True)
    assert "510.1c" in answer["rules"]


def test_510_1_assignments_are_counted_by_their_forms():
    assert COUNTED_BY["assignments"] == "assignment_classes"


def test_510_1a_a_division_by_hand():
    """The division counter itself: 4 among a, b and a gated c that needs
    b >= 2. c = 0: C(5,1) = 5 (4 between a and b); c >= 1 and b >= 2: 4 - 3
    = 1 left over three parts, C(3,2) = 3. And a part nothing may be given."""
    division = Division(totals=[4], parts={"a", "b", "c"}, needs={"c": [("b", 2)]})
    assert count_division(division) == 5 + 3
    division.zero = {"c"}
    assert count_division(division) == 5
    assert count_division(Division(totals=[4])) == 1  # (no part: one way, nothing given)


# --- against plain enumeration ------------------------------------------------------


def _random_combat(seed: int) -> str:
    rng = random.Random(seed)
    lines = ["players: Rob, Alex", "active: Rob"]
    abilities = rng.sample(
        ["trample", "deathtouch", "first strike", "double strike", "trample over planeswalkers"],
        rng.choice((0, 1, 1, 2)),
    )
    if "first strike" in abilities and "double strike" in abilities:
        abilities.remove("first strike")
    with_ = f" with {', '.join(sorted(abilities))}" if abilities else ""
    lines.append(f'Rob controls creature "A" {rng.randint(0, 5)}/3{with_}')
    target = "Alex"
    if rng.random() < 0.4:
        lines.append(f'Alex controls planeswalker "Jace" loyalty {rng.randint(1, 3)}')
        target = '"Jace"'
    lines.append(f'"A" attacks {target}')
    other = rng.random() < 0.3
    if other:
        touch = " with deathtouch" if rng.random() < 0.4 else ""
        lines += [
            f'Rob controls creature "S" {rng.randint(1, 2)}/2{touch}',
            f'"S" attacks {target}',
        ]
    for i in range(rng.randint(0, 3)):
        both = other and rng.random() < 0.5
        extra = " with can block an additional creature" if both else ""
        lines.append(f'Alex controls creature "B{i}" 0/{rng.randint(1, 3)}{extra}')
        lines.append(f'"B{i}" blocks "A"')
        if both:
            lines.append(f'"B{i}" blocks "S"')
        elif other and rng.random() < 0.3:
            lines[-1] = f'"B{i}" blocks "S"'
    return "\n".join([*lines, 'ask assignments for "A"']) + "\n"


@random_cases(1000, 10)
@given(st.integers(0, 10**9))
def test_510_1_702_19_assignment_counts_equal_plain_enumeration(seed):
    text = _random_combat(seed)
    with pytest.MonkeyPatch.context() as patch, counted_from_forms(patch) as counted:
        by_forms = only_answer(text, max_models=1, engine=CLASSES)
    plain = only_answer(text, engine=PLAIN, max_models=0)
    assert plain["complete"]
    assert (by_forms["count"], by_forms["complete"]) == (plain["count"], True), text
    assert counted in ([], [plain["count"]])  # (a listing that ends by itself counts nothing)


def test_510_1_an_enumerated_count_cut_at_the_cap_says_why():
    """Counted by enumeration only, a 3/3 blocked by two creatures has 4 + 3
    + 2 + 1 = 10 divisions (510.1a, 510.1c); cut at --max-models 4 the count
    is a lower bound and the answer says why."""
    text = (
        'players: Rob, Alex\nactive: Rob\nRob controls creature "Ogre" 3/3\n'
        'Alex controls creature "W1" 0/2\nAlex controls creature "W2" 0/2\n'
        '"Ogre" attacks Alex\n"W1" blocks "Ogre"\n"W2" blocks "Ogre"\n'
        'ask assignments for "Ogre"\n'
    )
    cut = only_answer(text, engine=PLAIN, max_models=4)
    assert (cut["count"], cut["complete"]) == (4, False)
    assert "lower bound" in cut["reason"]
    whole = only_answer(text, max_models=4, engine=CLASSES)
    assert (whole["count"], whole["complete"]) == (4, True) and "reason" not in whole
