"""Every option and every bound of the API is checked before any work
(issue 15, items 6 and 13): `--timeout` finite and above 0, `--jobs` at least
1, `--max-models` at least 0 (0: no cap, said in --help), `--memory` at least
0. A value out of range is a usage error with a clear message, never a
traceback, never a silent other meaning. `mtgkb.run(text, timeout=...)`
checks the same way and raises `mtgkb.language.errors.UsageError` (a ValueError)."""

import math
import subprocess
import sys

import pytest
from helpers import ROOT

import mtgkb
from mtgkb.cli import build_parser
from mtgkb.language.errors import UsageError

# The slow tier (processes given hostile options):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

EXAMPLE = str(ROOT / "examples" / "03_illegal_block.mtg")
TEXT = "players: Ann, Ben\nask outcome\n"


def mtgkb_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


BAD = [
    ("--timeout", "nan", "finite"),
    ("--timeout", "inf", "finite"),
    ("--timeout", "-inf", "finite"),
    ("--timeout", "1e308", "at most"),
    ("--timeout", "-1", "more than 0"),
    ("--timeout", "0", "more than 0"),
    ("--timeout", "soon", "expected a number of seconds"),
    ("--jobs", "0", "at least 1"),
    ("--jobs", "-1", "at least 1"),
    ("--jobs", "1.5", "expected a whole number"),
    ("--max-models", "-1", "at least 0"),
    ("--max-models", "9" * 40, "at most"),
    ("--memory", "-5", "at least 0"),
]


@pytest.mark.parametrize(("option", "value", "says"), BAD)
def test_an_option_out_of_range_is_a_usage_error(option, value, says):
    done = mtgkb_run(f"{option}={value}", EXAMPLE)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"mtgkb run: error: argument {option}: "), last
    assert says in last


def test_help_says_what_zero_means():
    text = build_parser()._subparsers._group_actions[0].choices["run"].format_help()
    assert "0 means no cap" in " ".join(text.split())
    assert "0 means no bound" in " ".join(text.split())


def test_max_models_zero_enumerates_everything():
    # 3 blockers, 2 attackers: (2+1)^3 = 27 legal block declarations (509.1a)
    sys.path.insert(0, str(ROOT))
    from bench.generate import enumeration

    text = enumeration(blockers=3, attackers=2, limit=5)
    capped = mtgkb.run(text, max_models=2)["answers"][0]
    # the cap bounds the listing; the count is exact (counted by independent parts)
    assert capped["complete"] is True and capped["count"] == 27
    assert len(capped["assignments"]) == 2
    full = mtgkb.run(text, max_models=0)["answers"][0]
    assert full["complete"] is True and full["count"] == 27
    assert "509.1a" in full["rules"]


@pytest.mark.parametrize("timeout", [math.nan, math.inf, -math.inf, 1e308, -1, 0, 0.0, "5", True])
def test_the_api_checks_the_time_out(timeout):
    with pytest.raises(UsageError) as caught:
        mtgkb.run(TEXT, timeout=timeout)
    assert isinstance(caught.value, ValueError)
    assert "timeout" in str(caught.value)


@pytest.mark.parametrize(
    ("bound", "value"), [("max_models", -1), ("max_models", 1.5), ("memory", -1), ("memory", "x")]
)
def test_the_api_checks_the_other_bounds(bound, value):
    with pytest.raises(UsageError):
        mtgkb.run(TEXT, **{bound: value})


def test_good_bounds_still_answer():
    assert mtgkb.run(TEXT, timeout=30, max_models=0)["answers"][0]["life"] == {
        "Ann": 20,
        "Ben": 20,
    }
    done = mtgkb_run("--timeout", "30", "--jobs", "2", "--max-models", "0", EXAMPLE, EXAMPLE)
    assert done.returncode == 0, done.stderr
