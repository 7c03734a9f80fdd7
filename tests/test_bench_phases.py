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


def _measured(*arguments: str) -> dict:
    """What `python -m bench.phases ARGUMENTS` measures, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.phases", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _spent_in_each(run: dict, gone_through: tuple[str, ...]) -> dict:
    """A measure's phases, after checking that each phase it names is
    measured (none renamed away), that every phase `gone_through` took time,
    and that the phases add up to the total (each its own time only)."""
    assert run["missing"] == []  # every wrapped function still has its name
    found = run["phases"]
    assert set(found) <= set(phases.ORDER)
    for phase in gone_through:
        assert found[phase] > 0, phase
    assert abs(sum(found.values()) - run["total"]) < 1e-6
    return found


def test_509_1a_a_blocks_listing_run_is_measured_in_every_phase_it_goes_through():
    # a run that parses, checks, grounds, solves and lists spends time in each
    found = _spent_in_each(
        _measured("--one", str(C06)),
        ("Lark", "scenario built", "facts", "gringo", "clasp", "listings", "rule base digest"),
    )
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


def test_509_1a_a_batch_scenario_is_measured_in_the_phases_of_its_chunk(tmp_path):
    # 16 files of issue 26's batch (508.1a: every creature of P0 attacks;
    # 509.1a: each defender's creatures block), enough to be answered as one
    # combined chunk (mtgkb.running.batch.COMBINE_FROM), as a worker does
    from bench import issue26
    from mtgkb.running.batch import COMBINE_FROM

    paths = []
    for seed in range(COMBINE_FROM):
        path = tmp_path / f"b{seed:02d}.mtg"
        path.write_text(issue26.scenario(4, 8, seed=seed), encoding="utf-8")
        paths.append(str(path))
    run = _measured("--batch-one", *paths)
    # the chunk's own work: its tables checked and its undeclared rules read
    # for all its files at once, its facts given to one grounding, sliced; a
    # scenario's share of each phase, together its share of the run
    found = _spent_in_each(
        run,
        (
            "input checks",
            "not modelled",
            "facts given to clingo",
            "slicing",
            "gringo",
            "clasp",
            "Lark",
            "answers made",
        ),
    )
    assert phases.clingo_and_lark(run) == sum(found[p] for p in phases.CLINGO_AND_LARK)


def test_the_batch_note_says_when_clingo_and_lark_alone_take_what_the_target_leaves():
    from bench import issue26

    measured = {
        "phases": {"gringo": 0.010, "Lark": 0.003, "answers made": 0.004},
        "total": 0.017,
        "missing": [],
        "floor": 0.1,
    }
    said = issue26.batch_phase_note(measured, workers=2)
    assert "all 0.170 on one CPU" in said
    assert "clingo and Lark (gringo, clasp, Lark, models read) 0.130" in said
    assert "mtgkb's own Python 0.040" in said
    assert "leaves 0.200 of one CPU" in said and "take more by themselves" not in said
    assert "take more by themselves" in issue26.batch_phase_note(measured, workers=1)
