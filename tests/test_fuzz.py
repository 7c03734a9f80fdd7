"""No input, however hostile, makes mtgkb hang, crash or print a traceback.

About 300 inputs go through the API with a small time-out (each must end
within it, with exit status 0-3 and no exception): scenarios drawn from the
grammar by hypothesis, byte-level mutations of the conformance cases and the
examples (truncated, reordered, bytes flipped, inserted, deleted), and the
hostile inputs of issue 6 (random bytes, a 100,000-character name, 500
players, 21^20 block declarations, a file at the size limit), player names
that are keywords of the grammar and numbers of any size (issue 15). A few
go through the command line as well.

The time-out bounds grounding and solving (a forked child is killed); the
parse of the file comes before it, which for the largest file accepted
(1 MiB) takes about a second: the time allowed is the time-out plus that.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from helpers import CONFORMANCE, PLAYERS, ROOT, examples, scenario
from helpers.answering import engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgkb.engine.state import Engine, Options
from mtgkb.language.parser import MAX_DIGITS, MAX_TOTAL, START_ALLOWANCE, grammar, keyword_of
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

sys.path.insert(0, str(ROOT))
from bench.generate import astronomical, scale  # noqa: E402

# The slow tier (fuzzing: hostile inputs, many examples):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

TIMEOUT = 2.0
LIMITS = Limits(max_models=5000, timeout=TIMEOUT)


def check(data: str | bytes, name: str = "fuzz.mtg", limits: Limits = LIMITS) -> int:
    """Answer one input: it ends with a status of the spec (3: its time-out
    stopped it), and no exception."""
    result = answer_text(data, name, limits, engine=engine())
    assert result.status in (0, 1, 2, 3), result
    if result.status in (2, 3):
        assert result.error and "Traceback" not in result.error
    else:
        assert len(result.output["answers"]) >= 0
    return result.status


# ---------------------------------------------------------------------------
# Scenarios from the grammar (the strategy is in tests/helpers/)


@settings(
    max_examples=examples(150),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(scenario())
def test_scenarios_from_the_grammar_end_in_time(text):
    check(text)


# ---------------------------------------------------------------------------
# Player names that are words of the grammar (issue 15, item 2)

KEYWORDS = sorted(
    {
        t.pattern.value
        for t in grammar().terminals
        if t.pattern.type == "str" and t.pattern.value.isalpha()
    }
)


@st.composite
def keyword_names(draw) -> tuple[str, list[str]]:
    """A scenario whose players may be called like keywords, in any case,
    named in every kind of place that takes a player."""
    spell = st.sampled_from([str.lower, str.upper, str.title])
    table = []
    for _ in range(draw(st.integers(2, 4))):
        if draw(st.booleans()):
            name = draw(spell)(draw(st.sampled_from(KEYWORDS)))
        else:
            name = draw(st.sampled_from(PLAYERS))
        if name not in table:
            table.append(name)
    if len(table) < 2:
        table.append("Zed")
    p, q = table[0], table[1]
    lines = [f"players: {', '.join(table)}", f"active: {p}"]
    lines += draw(
        st.lists(
            st.sampled_from(
                [
                    f'{p} controls creature "Bear" 2/2 with can\'t attack {q}',
                    f'{q} controls creature "Wolf" 2/2 with can\'t attack {p}, flying',
                    f'"Bear" attacks {q}',
                    f"{p} loses 3 life",
                    f"{q} gains 2 life",
                    f"{p}'s life total becomes 7",
                    f"{p} exchanges life totals with {q}",
                    f"{q} can't lose the game",
                    f"{p} chooses {q} as defending player",
                    f"{p}'s choice makes {q} choose",
                    f'trigger "T" controlled by {q}',
                    "combat damage",
                ]
            ),
            max_size=6,
        )
    )
    lines += [f"ask can {q} pay 1 life", "ask outcome", "ask legal"]
    return "\n".join(lines) + "\n", table


@settings(max_examples=examples(60), deadline=None, derandomize=True)
@given(keyword_names())
def test_keyword_player_names_are_refused_or_read_as_names(case):
    text, table = case
    result = answer_text(text, "kw.mtg", LIMITS, engine=engine())
    assert result.status in (0, 1, 2, 3)
    misread = [name for name in table if keyword_of(name) is not None]
    if misread:
        assert result.status == 2
        assert result.error.startswith("kw.mtg:1:"), result.error
        assert f"'{misread[0]}' cannot be a player's name" in result.error
    elif result.status in (0, 1):
        outcome = next(a for a in result.output["answers"] if a["ask"] == "outcome")
        assert set(outcome["life"]) == set(table)


# ---------------------------------------------------------------------------
# Big numbers (issue 15, items 1 and 5)

BIG = st.one_of(
    st.integers(0, 30),
    st.integers(0, MAX_TOTAL),
    st.integers(MAX_TOTAL - 1000, MAX_TOTAL + 1000),
    st.integers(2**31 - 100, 2**31 + 100),
    st.integers(0, 10**30),
)


@st.composite
def big_numbers(draw) -> tuple[str, list[tuple[str, int]], int]:
    """Gains and losses of any size, some written with leading zeros: the
    text, the events and the digits the longest number is written with."""
    events = draw(
        st.lists(st.tuples(st.sampled_from(["gains", "loses"]), BIG), min_size=1, max_size=6)
    )
    lines = ["players: Ann, Ben"]
    longest = 0
    for verb, amount in events:
        written = "0" * draw(st.sampled_from([0, 0, 1, 30, 5000])) + str(amount)
        longest = max(longest, len(written))
        lines.append(f"Ann {verb} {written} life")
    lines.append("ask outcome")
    return "\n".join(lines) + "\n", events, longest


@settings(max_examples=examples(80), deadline=None, derandomize=True)
@given(big_numbers())
def test_big_numbers_are_exact_or_refused_never_wrapped(case):
    text, events, longest = case
    result = answer_text(text, "big.mtg", Limits(), engine=engine())
    total = START_ALLOWANCE * 2 + sum(amount for _, amount in events)
    if longest > MAX_DIGITS or total > MAX_TOTAL:
        assert result.status == 2, result.output
        assert result.error.startswith("big.mtg:")
        assert "Traceback" not in result.error
        return
    assert result.status == 0, result.error
    (outcome,) = result.output["answers"]
    change = sum(amount if verb == "gains" else -amount for verb, amount in events)
    assert outcome["life"] == {"Ann": 20 + change, "Ben": 20}
    assert "119.3" in outcome["rules"]


# ---------------------------------------------------------------------------
# Byte-level mutations of the conformance cases and the examples


def _seeds() -> list[bytes]:
    paths = sorted(CONFORMANCE.glob("*.mtg")) if CONFORMANCE.is_dir() else []
    paths += sorted((ROOT / "examples").glob("*.mtg"))
    return [p.read_bytes() for p in paths]


def mutate(data: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(7)
    if kind == 0:  # truncated (maybe inside a UTF-8 sequence)
        return data[: rng.randrange(len(data) + 1)]
    if kind == 1:  # lines reordered
        lines = data.split(b"\n")
        rng.shuffle(lines)
        return b"\n".join(lines)
    if kind == 2:  # bytes flipped
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if out:
                out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out)
    if kind == 3:  # random bytes inserted
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.randbytes(rng.randint(1, 16)) + data[at:]
    if kind == 4:  # a span deleted
        at = rng.randrange(len(data) + 1)
        return data[:at] + data[at + rng.randint(1, 40) :]
    if kind == 5:  # lines repeated
        lines = data.split(b"\n")
        extra = [rng.choice(lines) for _ in range(rng.randint(1, 10))]
        return b"\n".join(lines + extra)
    lines = data.split(b"\n")  # lines of two files spliced
    return b"\n".join(lines[: rng.randrange(len(lines) + 1)])


MUTATIONS = 120


def test_mutated_conformance_cases_and_examples_end_in_time():
    seeds = _seeds()
    rng = random.Random(6)
    statuses = []
    for i in range(MUTATIONS):
        data = seeds[i % len(seeds)]
        for _ in range(rng.randint(1, 3)):
            data = mutate(data, rng)
        statuses.append(check(data, f"mutant_{i}.mtg"))
    assert {0, 2} <= set(statuses)  # some still answer, some no longer parse


# ---------------------------------------------------------------------------
# Hostile inputs


def _players(n: int) -> str:
    return "players: " + ", ".join(f"P{i}" for i in range(n)) + "\nask legal\n"


HOSTILE = {
    "random bytes": random.Random(1).randbytes(4096),
    "nul and control bytes": b"players: Ann, Ben\x00\x01\x02\nask legal\n",
    "bom, crlf and lone cr": b"\xef\xbb\xbfplayers: Ann, Ben\r\nask legal\rask outcome\r\n",
    "invalid utf-8": b'players: Ann, Ben\nAnn controls creature "\xff\xfe" 1/1\nask legal\n',
    "100,000-character object name": (
        'players: Ann, Ben\nAnn controls creature "' + "x" * 100_000 + '" 2/2\nask legal\n'
    ),
    "100,000-character player name": "players: Ann, " + "B" * 100_000 + "\nask legal\n",
    "500 players": _players(500),
    "64 players, the most allowed": _players(64) + "each player draws a card\nask order\n",
    "a name that looks like a program": (
        'players: Ann, Ben\nAnn controls creature "x). #show. :- y(\\"" 2/2\n'
        'ask attack targets for "x). #show. :- y(\\""\nask legal\n'
    ),
    "numbers past clingo's integers": "players: Ann, Ben\nlife: Ann 99999999999999999999\n",
    "21^20 block declarations and 2^20 attacks": astronomical(),
    "a scenario past the object limit": "players: Ann, Ben\n"
    + "".join(f'Ann controls creature "C{i}" 1/1\n' for i in range(10_001)),
    "a file past the size limit": "players: Ann, Ben\n" + "# padding\n" * 110_000,
    "a thousand questions": "players: Ann, Ben\n" + "ask legal\nask outcome\n" * 500,
    "an 8-player combat of 100 creatures each": scale(creatures=100, players=8),
    "twelve triggers to stack (12! orders)": "players: Ann, Ben\n"
    + "".join(f'trigger "T{i}" controlled by Ann\n' for i in range(12))
    + "ask stack\n",
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_inputs_end_in_time(name):
    check(HOSTILE[name], name)


def _menace_everywhere(n: int = 20) -> str:
    """n^... block declarations that menace ties into one part (every blocker
    may block every attacker, each attacker needs two blockers or none): by
    parts they are enumerated, not multiplied, so only the cap or the time-out
    ends them; by classes (mtgkb.engine.classes) they are counted exactly."""
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'Ann controls creature "A{i}" 2/2 with menace' for i in range(1, n + 1)]
    lines += [f'Ben controls creature "B{i}" 2/2' for i in range(1, n + 1)]
    lines += [f'"A{i}" attacks Ben' for i in range(1, n + 1)] + ["ask blocks for Ben limit 3"]
    return "\n".join(lines) + "\n"


def test_the_astronomical_enumeration_is_counted_exactly_at_any_cap():
    # independent blockers: counted by parts (mtgkb.engine.counting), the cap bounds the listing
    result = answer_text(astronomical(), "astronomical", Limits(max_models=2000), engine=engine())
    blocks, attacks = result.output["answers"]
    assert (blocks["count"], blocks["complete"]) == (21**20, True)
    assert (attacks["count"], attacks["complete"]) == (2**20, True)


# Counted by parts alone (the classes of mtgkb.engine.classes switched off, as
# for a shape they do not read), menace ties every blocker into one part.
BY_PARTS = Engine(Options.from_env().but(count_classes=False))


def test_an_enumeration_that_cannot_be_split_stops_at_the_model_cap():
    result = answer_text(_menace_everywhere(), "menace", Limits(max_models=2000), engine=BY_PARTS)
    (blocks,) = result.output["answers"]
    assert blocks["complete"] is False and blocks["count"] >= 2000


def test_the_time_out_stops_an_enumeration_that_cannot_be_split():
    limits = Limits(max_models=10**9, timeout=0.5)
    assert answer_text(_menace_everywhere(), "menace", limits, engine=BY_PARTS).status == 3


def test_menace_everywhere_is_counted_exactly_by_classes():
    # 702.111b: each of the 20 blockers blocks one of the 20 attackers or none, and
    # no attacker has exactly one blocker: inclusion-exclusion over the attackers
    # forced to exactly one blocker
    from math import comb, perm

    result = answer_text(_menace_everywhere(), "menace", Limits(max_models=2000), engine=engine())
    (blocks,) = result.output["answers"]
    n = 20
    expected = sum(
        (-1) ** s * comb(n, s) * perm(n, s) * (n + 1 - s) ** (n - s) for s in range(n + 1)
    )
    assert (blocks["count"], blocks["complete"]) == (expected, True)


# ---------------------------------------------------------------------------
# Through the command line


@pytest.mark.parametrize(
    "name",
    [
        "random bytes",
        "100,000-character object name",
        "500 players",
        "21^20 block declarations and 2^20 attacks",
    ],
)
def test_hostile_inputs_through_the_command_line(name, tmp_path):
    path = tmp_path / "hostile.mtg"
    data = HOSTILE[name]
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mtgkb",
            "run",
            str(path),
            "--json",
            "--timeout",
            "3",
            "--max-models",
            "1000000000",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode in (0, 1, 2, 3)
    assert "Traceback" not in proc.stderr + proc.stdout
    if proc.returncode == 2:
        assert ": error: " in proc.stderr
