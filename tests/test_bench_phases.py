"""bench/phases.py says where a cold `mtgkb run` spends its time: every phase
it names is measured (none renamed away), the phases add up to the run, and
the work it times is the run's own (the same answer). No time is asserted:
the bench measures, the tests say what it measures.

The scenario is c06's: 509.1a (the defenders' blocks) and 509.1b-c (the
restrictions and requirements on them) decide its listing, which the run
grounds (gringo), solves (clasp) and lists in the canonical order."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import ROOT

sys.path.insert(0, str(ROOT))

from bench import phases  # noqa: E402

C06 = ROOT / "bench" / "data" / "cold_c06_blocks.mtg"


def _one_run(path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "bench.phases", "--one", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_509_1a_a_blocks_listing_run_is_measured_in_every_phase_it_goes_through():
    run = _one_run(C06)
    assert run["missing"] == []  # every wrapped function still has its name
    found = run["phases"]
    assert set(found) <= set(phases.ORDER)
    # a run that parses, checks, grounds, solves and lists spends time in each
    for phase in (
        "Lark",
        "scenario built",
        "facts",
        "gringo",
        "clasp",
        "listings",
        "rule base digest",
    ):
        assert found[phase] > 0, phase
    # each phase its own time only: together they are the run
    assert abs(sum(found.values()) - run["total"]) < 1e-6
    assert all(seconds >= 0 for name, seconds in found.items() if name != "other")


def test_a_renamed_phase_is_said_missing_not_counted_as_nothing():
    # every phase's function is where the bench looks for it
    assert all(phases.located(module, name) for _, module, name in phases.PHASES)
    assert phases.located("mtgkb.engine.listing", "no_such_function") is None
    assert phases.located("mtgkb.engine.listing", "NoSuchClass.first") is None
    measured = {"phases": {"gringo": 0.2, "Lark": 0.1}, "missing": ["gone (m.f)"]}
    said = phases.described(measured, 0.1)
    assert said.startswith("gringo 2.00, Lark 1.00")
    assert said.endswith("not measured (renamed?): gone (m.f)")
