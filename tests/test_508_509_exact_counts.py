"""508.1a, 509.1a: the number of legal attack and block declarations is exact,
however many there are, and always the number that plain enumeration finds.

mtgkb.engine.counting splits the ground program into independent parts and
multiplies their counts; these tests hold it to clasp's plain enumeration of
the same question on random small combats (every ability of the language,
every variant: menace, "can't block alone", requirements, limits on
attackers, bands, shared team turns), and check that the count needs no
enumeration of the whole space (21^20 declarations, 2 players x 100
creatures) and that `--max-models` then bounds only the listing.
"""

from __future__ import annotations

import random
import sys

import pytest
from helpers import ROOT, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgkb.audit import corpus
from mtgkb.engine.state import Engine, Options
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

sys.path.insert(0, str(ROOT))
from bench.generate import astronomical, enumeration, scale  # noqa: E402

COUNTED = ("attacks", "blocks")


def _counted(text: str, limits: Limits, engine: Engine | None = None) -> list[dict]:
    output = answer_text(text, "count.mtg", limits, engine=engine).output
    return [a for a in output.get("answers", []) if a["ask"] in COUNTED]


def _by_enumeration(text: str) -> list[dict]:
    """The answers with every model enumerated through Python, one by one."""
    engine = Engine(Options.from_env().but(count_parts=False, fast_count=False))
    return _counted(text, Limits(max_models=0), engine)


def _random_combat(seed: int) -> str:
    rng = random.Random(seed)
    table = rng.choice(corpus.table_specs())
    return corpus.combat_text(rng, table, seed)


@settings(
    max_examples=examples(30),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(0, 10**6))
def test_counts_by_parts_equal_plain_enumeration(seed):
    text = _random_combat(seed)
    plain = _by_enumeration(text)
    parts = _counted(text, Limits(max_models=0))
    assert [(a["ask"], a["count"], a["complete"]) for a in parts] == [
        (a["ask"], a["count"], a["complete"]) for a in plain
    ]
    for a, b in zip(parts, plain, strict=True):
        assert a["rules"] == b["rules"]
        assert len(a["assignments"]) == len(b["assignments"])


GROUP_ABILITIES = ["menace", "can't block alone", "blocks each combat if able", "flying", "reach"]


@settings(max_examples=examples(25), deadline=None, derandomize=True)
@given(
    st.lists(
        st.lists(st.sampled_from(GROUP_ABILITIES), max_size=2, unique=True), min_size=1, max_size=4
    ),
    st.lists(st.lists(st.sampled_from(["menace", "flying"]), max_size=1), min_size=1, max_size=3),
)
def test_group_restrictions_are_counted_as_one_part(blockers, attackers):
    # 509.1b: menace and "can't block alone" tie blockers together; 509.1c: a
    # requirement is weighed over the whole declaration
    lines = ["players: Ann, Ben", "active: Ann"]
    for i, abilities in enumerate(attackers, start=1):
        tail = f" with {', '.join(abilities)}" if abilities else ""
        lines.append(f'Ann controls creature "A{i}" 2/2{tail}')
    for i, abilities in enumerate(blockers, start=1):
        tail = f" with {', '.join(abilities)}" if abilities else ""
        lines.append(f'Ben controls creature "B{i}" 2/2{tail}')
    lines += [f'"A{i}" attacks Ben' for i in range(1, len(attackers) + 1)]
    lines += ["ask blocks for Ben limit 2"]
    text = "\n".join(lines) + "\n"
    plain = _by_enumeration(text)
    (parts,) = _counted(text, Limits(max_models=0))
    assert parts["count"] == plain[0]["count"] and parts["complete"]
    assert "509.1a" in parts["rules"]


def test_21_to_the_20_block_declarations_are_counted_exactly():
    # 509.1a: each of 20 blockers blocks one of 20 attackers or none
    answers = _counted(astronomical(), Limits(max_models=1000))
    blocks = next(a for a in answers if a["ask"] == "blocks")
    attacks = next(a for a in answers if a["ask"] == "attacks")
    assert (blocks["count"], blocks["complete"]) == (21**20, True)
    assert len(blocks["assignments"]) == 3 and "509.1a" in blocks["rules"]
    # 508.1a: each of 20 creatures attacks Ben or not
    assert (attacks["count"], attacks["complete"]) == (2**20, True)
    assert "508.1a" in attacks["rules"]


def test_the_model_cap_bounds_only_the_listing():
    text = enumeration(blockers=5, attackers=3, limit=10)  # 4^5 = 1024
    (capped,) = _counted(text, Limits(max_models=4))
    assert (capped["count"], capped["complete"]) == (4**5, True)
    assert len(capped["assignments"]) == 4
    assert "509.1a" in capped["rules"]


@pytest.mark.slow
def test_two_players_with_a_hundred_creatures_each_are_counted_exactly():
    text = scale(creatures=100, players=2, questions=("blocks for Ben limit 3",))
    (answer,) = _counted(text, Limits())
    assert answer["complete"] is True and "509.1a" in answer["rules"]
    # cross-check against the count of a smaller table, enumerated: each blocker
    # counts alone here (no group restriction), so the product of one-blocker
    # tables gives the whole
    single = []
    by_enumeration = Engine(Options.from_env().but(count_parts=False))
    for i in range(1, 101):
        lines = [line for line in text.splitlines() if not line.startswith("Ben controls")]
        lines = [line for line in lines if not line.startswith('"Ben ')]
        own = next(
            line
            for line in text.splitlines()
            if line.startswith(f'Ben controls creature "Ben {i}" ')
        )
        lines.insert(5, own)
        one = "\n".join(lines) + "\n"
        (part,) = _counted(one, Limits(max_models=0), by_enumeration)
        single.append(part["count"])
    product = 1
    for n in single:
        product *= n
    assert answer["count"] == product
