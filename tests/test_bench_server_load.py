"""The server load part of the bench (bench/server_load.py, issue 27's
third "done when"): it is one of `python -m bench`'s parts, its memory run
sends scenarios whose names no other request used and whose play is legal
(509.1a: each blocker blocks one attacking creature), it finds the server's
workers and their memory in /proc, and it says how each 503 came. No time
is asserted: the bench measures, the tests say what it measures."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT))

from bench import server_load  # noqa: E402
from bench.suite import PARTS  # noqa: E402
from bench.targets import verdict  # noqa: E402


def test_the_server_load_part_is_registered():
    assert "server_load" in PARTS
    assert server_load.CLIENTS == (1, 8, 50)
    assert server_load.WORKERS == (1, 2)
    assert server_load.MEMORY_REQUESTS == 10_000
    # the chunk floor grounds as many requests as a worker takes in the
    # 2 workers x 8 clients cell: its share of the requests in the server
    from mtgkb.serve.gathering import Gathering

    assert server_load.SHARE == Gathering().share(8, 2) == 4


def test_509_1a_the_memory_runs_scenarios_are_legal_with_fresh_names():
    import mtgkb
    from mtgkb.language.parser import parse_text

    first, second = (server_load.fresh_body(i).decode() for i in (1, 2))
    names = {o.name for o in parse_text(first).objects}
    assert names.isdisjoint(o.name for o in parse_text(second).objects)
    answer = mtgkb.run(first)["answers"][0]
    assert answer["legal"] is True
    assert answer.get("violations", []) == []


def test_the_workers_of_a_process_are_found_with_their_memory():
    import os

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in server_load.children(os.getpid())
        assert server_load.resident_kb(child.pid) > 0
    finally:
        child.kill()
        child.wait()
    assert server_load.resident_kb(child.pid) == 0


def test_503s_are_told_apart_and_targets_judged():
    assert server_load.refusals([]) == ""
    assert server_load.refusals(["timeout", "busy", "timeout"]) == "503: 1 busy, 2 timeout"
    assert server_load.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.99) == 5.0
    assert verdict(server_load.TARGETS, "median_ms_1_client", 10.0).endswith("met")
    assert "missed by 2.0x" in verdict(server_load.TARGETS, "median_ms_1_client", 40.0)
    assert "missed by 3.0x" in verdict(server_load.TARGETS, "per_floor_2_workers_8_clients", 2.0)


def test_the_servers_floors_are_clingo_and_lark_on_its_own_scenarios(tmp_path):
    # the floors beside issue 26's server figures: gringo grounding, clasp
    # solving and Lark parsing the very scenarios the server is sent
    # (bench.issue26.grounding_seconds and request_seconds, in a fresh
    # process), per scenario
    import os
    from types import SimpleNamespace

    def file(name, text):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    ctx = SimpleNamespace(file=file, env=dict(os.environ))
    floors = server_load.request_floors(ctx, server_load.batch_bodies(2))
    assert sorted(floors) == ["ground", "parse", "solve"]
    assert all(seconds > 0 for seconds in floors.values())
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "server_floor_00.mtg",
        "server_floor_01.mtg",
    ]


def test_a_processs_cpu_time_is_read_from_proc():
    import os

    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sum(range(3_000_000)); sys.stdin.read()"],
        stdin=subprocess.PIPE,
    )
    try:
        spent = 0.0
        while spent == 0.0 and child.poll() is None:  # (until its first clock tick)
            spent = server_load.cpu_seconds(child.pid)
        assert spent > 0
    finally:
        child.kill()
        child.wait()
    assert server_load.cpu_seconds(child.pid) == 0.0
    assert server_load.cpu_seconds(os.getpid()) > 0


def test_the_2x8_cells_cpu_is_told_per_request(monkeypatch):
    # the server process (pid 1 here) and two workers; one worker recycled
    # meanwhile (pid 4, new) is left out; 40 requests, 30 of them in 10 chunks
    from types import SimpleNamespace

    server = SimpleNamespace(process=SimpleNamespace(pid=1))
    before = ({1: 1.0, 2: 2.0, 3: 3.0}, {"groups": 10, "gathered": 30})
    monkeypatch.setattr(server_load, "server_cpu", lambda _: {1: 1.5, 2: 4.0, 3: 5.0, 4: 9.0})
    monkeypatch.setattr(server_load, "gathering", lambda _: {"groups": 20, "gathered": 60})
    use = server_load.cpu_use(SimpleNamespace(port=0, **vars(server)), before, 40, 3.0)
    assert use == {
        "server_ms": 12.5,
        "workers_ms": 100.0,
        "together": 3.0,
        "alone": 10,
        "busy": 0.75,
    }


def test_a_chunks_cost_is_split_into_its_own_part_and_each_scenarios():
    # the line through two chunk sizes: 2 scenarios for 90 ms and 8 for
    # 210 ms is 50 ms a chunk and 20 ms a scenario
    fixed, each = server_load.fixed_and_marginal(2, 0.090, 8, 0.210)
    assert round(fixed, 9) == 0.050 and round(each, 9) == 0.020
    costs = {"sizes": [2, 8], "least": [0.090, 0.210], "fixed": fixed, "each": each}
    note = server_load.chunk_cost_note(costs, floor=0.1)
    # at 4 a chunk a request costs 50 / 4 + 20 = 32.5 ms, 12.5 of it the
    # chunk's own (38%); 2 CPUs at 20 ms a scenario: 100 a second, 10 a floor
    assert "50.0 ms a chunk + 20.0 ms a scenario" in note
    assert "38% of a request's 32.5 ms" in note
    assert note.endswith("at most 10.0 scenarios per floor")
    slow = {**costs, "each": 0.040}
    below = server_load.chunk_cost_note(slow, floor=0.1)
    assert below.endswith("at most 5.0 scenarios per floor (below the target)")


@pytest.mark.slow  # (it answers 13 chunks: the bench's own measure, not a rule)
def test_a_workers_chunks_are_measured_on_answers_not_input_errors(monkeypatch):
    # chunk_costs times answer_together on chunks of each size, after one
    # chunk that makes the engine's chunk programs; every body answered
    # (509.1a: the batch scenario's blocks are answers, legal or not, never
    # input errors, exit 2)
    from mtgkb.running import batch

    seen = []
    original = batch.answer_together

    def recorded(items, limits, engine):
        results = original(items, limits, engine)
        seen.append([r.status for r in results])
        return results

    monkeypatch.setattr(batch, "answer_together", recorded)
    costs = server_load.chunk_costs(server_load.batch_bodies(4), sizes=(1, 2))
    assert costs["sizes"] == [1, 2]
    assert all(seconds > 0 for seconds in costs["least"])
    assert costs["fixed"] + costs["each"] == pytest.approx(costs["least"][0])
    # the warm-up chunk of 2, then each pass: four chunks of 1, two of 2
    assert [len(s) for s in seen] == [2, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2]
    assert all(status in (0, 1) for statuses in seen for status in statuses)
