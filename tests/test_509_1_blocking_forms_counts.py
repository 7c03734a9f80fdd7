"""509.1a-c: `ask blocks` counts exactly with the blocking forms of spec
section 13 ("can't be blocked", "can't be blocked except by N or more
creatures", "must be blocked if able", "can block an additional creature",
"can block any number of creatures"), together with menace, "can't block
alone" and "blocks each combat if able".

On random small combats the count is compared with two enumerations: clasp's
plain enumeration of the same question (every model, one by one), and a
direct enumeration written here from the CR: each untapped creature that may
block chooses a set of attackers it may block (509.1a: one, two with "an
additional creature", any number with "any number"), the declarations that
break a restriction are dropped (509.1b), and of the rest those that obey the
most requirements count (509.1c).
"""

from __future__ import annotations

import itertools
import random

from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgkb.engine.state import Engine, Options
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ATTACKER_ABILITIES = (
    "can't be blocked",
    "can't be blocked except by 2 or more creatures",
    "can't be blocked except by 3 or more creatures",
    "must be blocked if able",
    "menace",
    "flying",
)
BLOCKER_ABILITIES = (
    "can block an additional creature",
    "can block any number of creatures",
    "blocks each combat if able",
    "can't block alone",
    "reach",
    "tapped",
    "can't block",
)


def _combat(rng: random.Random) -> tuple[str, list, list]:
    attackers = [
        (f"A{i}", set(rng.sample(ATTACKER_ABILITIES, rng.choice((0, 1, 1, 2)))))
        for i in range(rng.randint(1, 3))
    ]
    blockers = [
        (f"B{i}", set(rng.sample(BLOCKER_ABILITIES, rng.choice((0, 1, 1, 2)))))
        for i in range(rng.randint(1, 4))
    ]
    lines = ["players: Rob, Alex", "active: Rob"]
    for owner, group in (("Rob", attackers), ("Alex", blockers)):
        for name, abilities in group:
            with_ = f" with {', '.join(sorted(abilities))}" if abilities else ""
            lines.append(f'{owner} controls creature "{name}" 2/2{with_}')
    lines += [f'"{name}" attacks Alex' for name, _ in attackers]
    lines.append("ask blocks for Alex limit 1")
    return "\n".join(lines) + "\n", attackers, blockers


def _min_blockers(abilities: set[str]) -> int:
    """The fewest creatures that may block an attacker (509.1b, 702.111b)."""
    least = 1
    if "menace" in abilities:
        least = 2
    for n in (2, 3):
        if f"can't be blocked except by {n} or more creatures" in abilities:
            least = max(least, n)
    return least


def _may_block(blocker: set[str], attacker: set[str]) -> bool:
    """509.1a, 509.1b, 702.9b: may this creature block that attacker at all."""
    if "tapped" in blocker or "can't block" in blocker:
        return False
    if "can't be blocked" in attacker:
        return False
    return not ("flying" in attacker and "reach" not in blocker)


def _capacity(blocker: set[str], attackers: int) -> int:
    """509.1a: how many attackers it may block."""
    if "can block any number of creatures" in blocker:
        return attackers
    if "can block an additional creature" in blocker:
        return 2
    return 1


def _count_directly(attackers: list, blockers: list) -> int:
    """The legal declarations that obey the most requirements (509.1a-c)."""
    choices = []
    for _, b in blockers:
        able = [a for a, (_, abilities) in enumerate(attackers) if _may_block(b, abilities)]
        cap = _capacity(b, len(attackers))
        choices.append([s for k in range(cap + 1) for s in itertools.combinations(able, k)])
    scores = []
    for declaration in itertools.product(*choices):
        blocking = [i for i, chosen in enumerate(declaration) if chosen]
        if any("can't block alone" in blockers[i][1] for i in blocking) and len(blocking) < 2:
            continue
        count_of = [sum(a in chosen for chosen in declaration) for a in range(len(attackers))]
        if any(0 < n < _min_blockers(attackers[a][1]) for a, n in enumerate(count_of)):
            continue
        obeyed = sum("blocks each combat if able" in blockers[i][1] for i in blocking)
        obeyed += sum(
            "must be blocked if able" in abilities and count_of[a] > 0
            for a, (_, abilities) in enumerate(attackers)
        )
        scores.append(obeyed)
    return scores.count(max(scores)) if scores else 0


def _blocks_answer(text: str, engine: Engine | None = None) -> dict:
    output = answer_text(text, "count.mtg", Limits(max_models=0), engine=engine).output
    return next(a for a in output["answers"] if a["ask"] == "blocks")


@settings(
    max_examples=examples(60),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(0, 10**6))
def test_509_1_counts_equal_a_direct_enumeration_from_the_cr(seed):
    text, attackers, blockers = _combat(random.Random(seed))
    answer = _blocks_answer(text)
    assert answer["complete"] is True, text
    assert answer["count"] == _count_directly(attackers, blockers), text


@settings(
    max_examples=examples(20),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(0, 10**6))
def test_509_1_counts_by_parts_equal_plain_enumeration(seed):
    text, _, _ = _combat(random.Random(seed))
    plain = _blocks_answer(
        text, Engine(Options.from_env().but(count_parts=False, fast_count=False))
    )
    counted = _blocks_answer(text)
    assert (counted["count"], counted["complete"]) == (plain["count"], plain["complete"]), text
    assert counted["rules"] == plain["rules"]


def test_509_1_large_counts_stay_exact():
    # 10 attackers and 10 blockers with every form: far too many declarations to
    # enumerate, counted exactly all the same
    rng = random.Random(7)
    lines = ["players: Rob, Alex", "active: Rob"]
    for i in range(10):
        ability = rng.choice(ATTACKER_ABILITIES[:4] + ("",))
        lines.append(f'Rob controls creature "A{i}" 2/2' + (f" with {ability}" if ability else ""))
    for i in range(10):
        ability = rng.choice(BLOCKER_ABILITIES[:3] + ("",))
        lines.append(f'Alex controls creature "B{i}" 2/2' + (f" with {ability}" if ability else ""))
    lines += [f'"A{i}" attacks Alex' for i in range(10)]
    answer = _blocks_answer("\n".join(lines) + "\nask blocks for Alex limit 1\n")
    assert answer["complete"] is True
    assert answer["count"] > 10**6


def test_509_1_a_count_that_is_a_lower_bound_says_so_and_why():
    # counted by enumeration alone and stopped at 5 models: never a bare lower bound
    text = "players: Rob, Alex\nactive: Rob\n" + "".join(
        f'Rob controls creature "A{i}" 2/2\n"A{i}" attacks Alex\n'
        f'Alex controls creature "B{i}" 2/2 with can block an additional creature\n'
        for i in range(3)
    )
    engine = Engine(Options.from_env().but(count_parts=False, fast_count=False))
    output = answer_text(
        text + "ask blocks for Alex\n", "x.mtg", Limits(max_models=5), engine=engine
    )
    answer = output.output["answers"][0]
    assert answer["complete"] is False
    assert "lower bound" in answer["reason"]
    exact = _blocks_answer(text + "ask blocks for Alex\n")
    assert (exact["count"], exact["complete"]) == ((1 + 3 + 3) ** 3, True)
    assert "reason" not in exact
