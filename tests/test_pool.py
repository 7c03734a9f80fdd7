"""mtgkb.running.pool: answers computed in worker processes that are recycled, so a
long-lived caller of `mtgkb.run` stays small (issue 15, item 10), with each
task's time-out and memory bound."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import ILLEGAL_BLOCK_PLAY, much_work

import mtgkb
from mtgkb.engine.solve import SolveTimeout
from mtgkb.language.errors import ScenarioError
from mtgkb.output.envelope import stamp
from mtgkb.questions.answers import Limits
from mtgkb.rulebase.collector import COLLECTION_THRESHOLD
from mtgkb.running import pool
from mtgkb.running.deadline import DeadlineExceeded, WorkerLost
from mtgkb.running.runner import EXIT_TIMEOUT, answer_now

# The slow tier (worker processes):
# .ci/run runs it, the README's command does not.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool forks its workers"),
]

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

ILLEGAL_BLOCK = ILLEGAL_BLOCK_PLAY + "ask legal\n"


def fresh_combat(i: int, creatures: int = 50) -> str:
    """A scenario of `creatures` creatures whose names no earlier call used."""
    lines = ["players: Ann, Ben", "active: Ann", "phase: declare-attackers"]
    lines += [f'Ann controls creature "Fresh {i} n{j}" 2/2' for j in range(creatures)]
    lines += [f'"Fresh {i} n{j}" attacks Ben' for j in range(creatures)]
    lines.append("ask legal")
    return "\n".join(lines) + "\n"


def _allocate(megabytes: int) -> int:
    return len(bytearray(megabytes << 20))


def _sleep(seconds: float) -> None:
    import time

    time.sleep(seconds)


def _pid() -> int:
    return os.getpid()


_KEPT: list[bytearray] = []  # what a worker's tasks keep, as its caches do


def _keep(megabytes: int) -> int:
    """Keep `megabytes` in the worker (touched, so they are resident); its pid."""
    _KEPT.append(bytearray(b"x" * (megabytes << 20)))
    return os.getpid()


def _warm_engine(megabytes: int, engine=None) -> int:
    """Keep `megabytes` as the engine's chunk programs would (its warmth
    grows: mtgkb.engine.state.Engine.warmth); the worker's pid."""
    engine.scenario_programs[("kept by a test", len(_KEPT))] = None
    return _keep(megabytes)


def _collector_threshold() -> int:
    import gc

    return gc.get_threshold()[0]


def _boom() -> None:
    raise ValueError("broken on purpose")


def test_802_4a_run_in_a_worker_answers_as_in_process():
    for path in sorted(EXAMPLES.glob("*.mtg")) + [None]:
        text = ILLEGAL_BLOCK if path is None else path.read_text(encoding="utf-8")
        name = "x.mtg" if path is None else path.name
        answered = mtgkb.run(text, name)
        answered.pop("rule_base", None)  # named by the API where mtgkb names it
        assert answered == stamp(answer_now(text, name, Limits()).output)
    (legal,) = mtgkb.run(ILLEGAL_BLOCK)["answers"]
    assert legal["legal"] is False and legal["rules"] == ["802.4a", "802.4b"]
    with mtgkb.Answerer() as answerer:
        (held,) = answerer.run(ILLEGAL_BLOCK)["answers"]
        assert mtgkb.run(ILLEGAL_BLOCK, answerer=answerer)["answers"] == [held] == [legal]
        assert answerer.pool.stats()["started"] == 1  # it did run in one worker, kept


def test_run_does_not_solve_in_the_calling_process():
    with pool.Pool(1) as workers:
        assert workers.call(_pid) != os.getpid()


def test_an_input_error_travels_back_with_its_position():
    with pytest.raises(ScenarioError) as caught:
        mtgkb.run('players: Ann, Ben\nCarl controls creature "Bear" 2/2\n', "bad.mtg")
    assert (caught.value.line, caught.value.column) == (2, 1)
    assert caught.value.format().startswith("bad.mtg:2:1: error: ")


def test_1000_calls_with_50_fresh_names_each_keep_the_caller_small():
    """Issue 15, item 10: clingo keeps every symbol it has made, so answering
    in the caller grew it by 80 to 95 MB over these calls; answering in
    recycled workers keeps the caller and the worker bounded."""
    workers = pool.Pool(1)
    try:
        (first,) = pool.answer(fresh_combat(-1), "warm", Limits(), pool=workers).output["answers"]
        assert first["legal"] is True
        caller = pool.resident()
        worker_peak = 0
        for i in range(1000):
            result = pool.answer(fresh_combat(i), "f", Limits(), pool=workers)
            assert result.status == 0
            worker_peak = max([worker_peak, *workers.stats()["worker_rss"]])
        grown = pool.resident() - caller
        assert grown < 60 << 20, f"the caller grew by {grown >> 20} MB"
        stats = workers.stats()
        assert stats["recycled"] >= 1  # the worker grew and was replaced
        start = workers._idle[0].started_rss
        assert worker_peak < start + workers.max_growth + (16 << 20)
    finally:
        workers.close()


def test_a_worker_is_recycled_after_max_tasks():
    with pool.Pool(1, max_tasks=3) as workers:
        pids = [workers.call(_pid) for _ in range(7)]
        assert len(set(pids)) == 3  # 3 + 3 + 1
        assert workers.stats()["recycled"] == 2


def test_a_worker_keeps_what_its_first_task_warmed_up_and_is_recycled_past_it():
    """A batch's first chunk warms its worker up once (50 to 60 MB: the rule
    base rewritten for the chunk); recycling it for that would pay it again
    on every chunk. Growth is counted from the first task on, and a warm-up
    past `max_warm_up` still recycles."""
    with pool.Pool(1, max_growth=32 << 20, max_warm_up=128 << 20) as workers:
        warmed = workers.call(_keep, 64)  # above max_growth, within max_warm_up
        assert workers.call(_keep, 8) == warmed  # kept: 8 MB since its first task
        assert workers.call(_keep, 8) == warmed
        assert workers.stats()["recycled"] == 0
        assert workers.call(_keep, 40) == warmed  # 56 MB since its first task: recycled after
        assert workers.stats()["recycled"] == 1
        assert workers.call(_keep, 160) != warmed  # a warm-up past max_warm_up
        assert workers.stats()["recycled"] == 2


def test_a_later_task_that_warms_the_engine_up_counts_its_growth_as_warm_up():
    """A server's worker warms up for chunks when requests are first gathered
    for it (mtgkb.serve.gathering), which may be long after its first task:
    the growth of a task that made the engine keep more for chunks is
    warm-up too, all of it within `max_warm_up`; other growth still counts."""
    with pool.Pool(1, max_growth=32 << 20, max_warm_up=128 << 20) as workers:
        first = workers.call(_keep, 8)
        assert workers.call(_warm_engine, 64, with_engine=True) == first
        assert workers.stats()["recycled"] == 0  # 64 MB of warm-up, not of growth
        assert workers.call(_keep, 16) == first
        assert workers.stats()["recycled"] == 0  # 16 MB since the warm-up
        assert workers.call(_keep, 24) == first  # 40 MB of growth: recycled after
        assert workers.stats()["recycled"] == 1
        second = workers.call(_keep, 8)
        assert second != first
        assert workers.call(_warm_engine, 64, with_engine=True) == second
        assert workers.call(_warm_engine, 72, with_engine=True) == second  # 136 MB warm-up
        assert workers.stats()["recycled"] == 2  # past max_warm_up: recycled after


def test_a_task_past_its_time_out_is_killed_and_the_next_one_answered():
    with pool.Pool(1) as workers:
        before = workers.call(_pid)
        result = pool.answer(
            much_work(), "slow.mtg", Limits(max_models=10**9, timeout=0.5), pool=workers
        )
        assert result.status == EXIT_TIMEOUT
        assert result.output == {"file": "slow.mtg", "error": "timeout"}
        assert isinstance(result.exception, SolveTimeout)
        assert "0.5 s" in result.error
        recycled = workers.stats()["recycled"]
        with pytest.raises(DeadlineExceeded):
            workers.call(_sleep, 30, timeout=0.2)  # work that does not stop itself
        assert workers.stats()["recycled"] == recycled + 1  # killed with its worker
        after = pool.answer(ILLEGAL_BLOCK, "x.mtg", Limits(timeout=30), pool=workers)
        assert after.status == 1 and after.output["answers"][0]["rules"] == ["802.4a", "802.4b"]
        assert workers.call(_pid) != before


def test_run_with_a_time_out_raises_solve_timeout():
    with pytest.raises(SolveTimeout):
        mtgkb.run(much_work(), "slow.mtg", timeout=0.5, max_models=10**9)


def test_each_task_has_its_memory_bound():
    with pool.Pool(1, memory=64 << 20) as workers:
        assert workers.call(_allocate, 8) == 8 << 20
        with pytest.raises(WorkerLost, match="memory bound"):
            workers.call(_allocate, 512)
        # the next task has its own bound again, in a fresh worker
        assert workers.call(_allocate, 8) == 8 << 20
        assert workers.stats()["recycled"] == 1


def test_an_exception_of_a_task_is_raised_in_the_caller_and_the_worker_kept():
    with pool.Pool(1) as workers:
        pid = workers.call(_pid)
        with pytest.raises(ValueError, match="broken on purpose"):
            workers.call(_boom)
        assert workers.call(_pid) == pid


def test_a_worker_answers_with_the_collector_deferred_whatever_its_caller_has():
    # (a server's or an API caller's worker: the collector's passes over the
    # engine's caches cost about a fifth of each chunk; mtgkb.rulebase.collector)
    import gc

    kept = gc.get_threshold()
    gc.set_threshold(700, *kept[1:])
    try:
        with pool.Pool(1) as workers:
            assert workers.call(_collector_threshold) == COLLECTION_THRESHOLD
        assert gc.get_threshold()[0] == 700  # (the caller's own is its own)
    finally:
        gc.set_threshold(*kept)


def test_two_workers_answer_side_by_side():
    import threading

    with pool.Pool(2) as workers:
        workers.start()
        assert workers.stats()["idle"] == 2
        out: list = []
        threads = [
            threading.Thread(target=lambda: out.append(workers.call(_pid))) for _ in range(6)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(out) == 6 and len(set(out)) <= 2


def test_a_worker_ends_when_its_pool_is_closed():
    workers = pool.Pool(1)
    pid = workers.call(_pid)
    workers.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: not our child any more
    with pytest.raises(RuntimeError):
        workers.call(_pid)


def test_options_are_passed_only_where_the_run_api_takes_them():
    def takes_lang(text, name, limits, lang="en"):
        return lang

    def takes_none(text, name, limits):
        return None

    assert pool._accepted(takes_lang, {"lang": "it"}) == {"lang": "it"}
    assert pool._accepted(takes_none, {"lang": "it"}) == {}


def test_mtgkb_pool_0_answers_in_process(monkeypatch):
    monkeypatch.setenv("MTGKB_POOL", "0")
    assert not pool.enabled()
    result = pool.answer(ILLEGAL_BLOCK, "x.mtg", Limits())
    assert result.output["answers"][0]["rules"] == ["802.4a", "802.4b"]


def test_a_worker_killed_while_idle_is_replaced_for_the_next_task():
    import signal

    with pool.Pool(1) as workers:
        pid = workers.call(_pid)
        os.kill(pid, signal.SIGKILL)
        import time

        time.sleep(0.2)
        assert workers.call(_pid) not in (pid, os.getpid())


def test_a_forked_child_holds_no_pipe_of_its_parents_workers():
    answerer = mtgkb.Answerer()
    workers = answerer.pool
    answerer.run(ILLEGAL_BLOCK)
    ends = set(workers._ends)
    assert ends
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            held = [fd for fd in ends if _is_open(fd)]
            os.write(write_end, repr(held).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        assert pipe.read() == "[]"
    os.waitpid(child, 0)
    assert workers.stats()["idle"] == 1
    answerer.close()


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _more_than_a_chunk(tmp_path) -> list[str]:
    """CHUNK + 8 files with fresh names, every seventh an illegal block (802.4a)."""
    from mtgkb.running import batch

    paths = []
    for i in range(batch.CHUNK + 8):
        path = tmp_path / f"fresh_{i}.mtg"
        path.write_text(fresh_combat(i, creatures=3) if i % 7 else ILLEGAL_BLOCK)
        paths.append(str(path))
    return paths


def _recorded_pools(monkeypatch) -> list[pool.Pool]:
    """The pools made from now on, as they are made."""
    made: list[pool.Pool] = []

    class Recorded(pool.Pool):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(pool, "Pool", Recorded)
    return made


def test_a_run_over_many_files_answers_its_chunks_in_a_recycled_worker(tmp_path, monkeypatch):
    from mtgkb.running import batch

    paths = _more_than_a_chunk(tmp_path)
    made = _recorded_pools(monkeypatch)
    results = list(batch.answer_files(paths, Limits(), jobs=1))
    assert [r.output for r in results] == [batch.answer_path(p, Limits()).output for p in paths]
    assert results[0].output["answers"][0]["rules"] == ["802.4a", "802.4b"]
    assert len(made) == 1 and made[0].started == 1 and made[0]._closed


def test_a_run_of_many_files_on_two_cpus_answers_as_one_worker(tmp_path, monkeypatch):
    # the default (--jobs not named) on two CPUs: two workers, the answers
    # and their order those of one worker
    from mtgkb.running import batch

    paths = _more_than_a_chunk(tmp_path)
    made = _recorded_pools(monkeypatch)
    monkeypatch.setattr(pool, "usable_cpus", lambda: 2)
    two = [r.output for r in batch.answer_files(paths, Limits())]
    assert len(made) == 1 and made[0].started == 2 and made[0]._closed
    one = [r.output for r in batch.answer_files(paths, Limits(), jobs=1)]
    assert two == one
    assert two[0]["answers"][0]["rules"] == ["802.4a", "802.4b"]


@pytest.mark.skipif(
    not hasattr(__import__("mtgkb.running.deadline").running.deadline, "die_with_parent"),
    reason="deadline.die_with_parent (issue 15.9) is not in this build yet",
)
def test_a_busy_worker_dies_with_its_parent():
    import signal
    import subprocess
    import sys
    import time

    program = (
        "import os, sys, threading, time\n"
        "from mtgkb.running import pool\n"
        "import test_pool\n"
        "workers = pool.Pool(1)\n"
        "workers.start()\n"
        "print(workers._idle[0].pid, flush=True)\n"
        "workers.call(test_pool._sleep, 120)\n"
    )
    tests = str(Path(__file__).resolve().parent)
    parent = subprocess.Popen(
        [sys.executable, "-c", program],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": tests},
    )
    try:
        worker = int(parent.stdout.readline())
        time.sleep(0.5)  # the worker is in its task now
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if not _alive(worker):
                break
            time.sleep(0.1)
        else:
            os.kill(worker, signal.SIGKILL)
            pytest.fail("the worker outlived its parent")
    finally:
        if parent.poll() is None:
            parent.kill()


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_a_run_over_many_files_says_which_file_its_worker_lost(tmp_path):
    import subprocess
    import sys

    from mtgkb.running import batch

    paths = []
    for i in range(batch.CHUNK + 4):
        path = tmp_path / f"f_{i}.mtg"
        path.write_text(ILLEGAL_BLOCK if i != 5 else ILLEGAL_BLOCK.replace("ask legal", "ask x"))
        paths.append(str(path))
    # a file whose answer needs more memory than the bound: its chunk is
    # answered again file by file, and only that file says so
    big = tmp_path / "big.mtg"
    lines = ["players: Ann, Ben", "active: Ann", "phase: declare-blockers"]
    lines += [f'Ann controls creature "A{j}" 2/2 with lifelink' for j in range(1500)]
    # a requirement (509.1c): every pair of blocker and attacker is judged
    lines += [
        f'Ben controls creature "B{j}" 2/2 with blocks each combat if able' for j in range(1500)
    ]
    lines += [f'"A{j}" attacks Ben' for j in range(1500)]
    lines += [f'"B{j}" blocks "A{j}"' for j in range(1500)]
    big.write_text("\n".join([*lines, "combat damage", "ask legal", "ask outcome"]) + "\n")
    paths.insert(3, str(big))
    out = subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", "--jsonl", "--memory", "256", *paths],
        capture_output=True,
        text=True,
    )
    assert "Traceback" not in out.stderr
    results = [json.loads(line) for line in out.stdout.splitlines()]
    for result in results:
        result.pop("rule_base", None)
    assert len(results) == len(paths)
    assert results[3] == stamp({"file": str(big), "error": "memory"})
    assert "memory bound" in out.stderr
    assert results[0]["answers"][0]["rules"] == ["802.4a", "802.4b"], (results[0], out.stderr)
    assert all("answers" in r for i, r in enumerate(results) if i not in (3, 6))
    assert out.returncode == 3
