"""mtgkb.running.pool (issue 27, item 4): a worker lives as long as the
process that owns its pool, not as long as the thread that happened to fork
it. The server forks from anyio's worker threads, which are retired after
10 s idle; Linux's parent-death signal follows the forking *thread*, so a
worker forked from a retired thread was killed in the middle of a request
(and the message blamed memory)."""

from __future__ import annotations

import os
import select
import threading
import time
from pathlib import Path

import pytest

from mtgkb.running import pool

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool forks its workers")


def _wait_for_then_echo(started: int, release: int) -> bytes:
    """A worker's task: say it has started, then wait for one byte and return it."""
    os.write(started, b"s")
    return os.read(release, 1)


def _thread_gone(native_id: int, seconds: float = 30.0) -> bool:
    """Whether the OS thread `native_id` of this process has ended (waited for
    up to `seconds`: the kernel sends the parent-death signal as it ends)."""
    task = Path(f"/proc/self/task/{native_id}")
    end = time.monotonic() + seconds
    while task.exists():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_a_worker_forked_by_a_thread_that_ends_keeps_answering_its_task():
    started_read, started_write = os.pipe()
    release_read, release_write = os.pipe()
    workers = pool.Pool(1, memory=0)
    forker_id: list[int] = []
    forker_may_end = threading.Event()

    def fork_then_end() -> None:
        workers.start()  # the worker is forked in this thread
        forker_id.append(threading.get_native_id())
        forker_may_end.wait(60)

    result: list = []

    def ask() -> None:
        try:
            result.append(workers.call(_wait_for_then_echo, started_write, release_read))
        except Exception as err:  # noqa: BLE001 - the outcome under test
            result.append(err)

    forker = threading.Thread(target=fork_then_end)
    forker.start()
    asker = None
    try:
        while not forker_id:
            time.sleep(0.01)
        asker = threading.Thread(target=ask)
        asker.start()
        # the task is running in the worker
        assert select.select([started_read], [], [], 60)[0], "the task did not start"
        assert os.read(started_read, 1) == b"s"
        forker_may_end.set()  # the forking thread ends, as anyio retires an idle thread
        forker.join(60)
        assert _thread_gone(forker_id[0])
        os.write(release_write, b"x")
        asker.join(60)
        assert result == [b"x"], result
        # the worker is still there for the next task
        os.write(release_write, b"y")
        assert workers.call(_wait_for_then_echo, started_write, release_read) == b"y"
        assert workers.stats()["recycled"] == 0
    finally:
        forker_may_end.set()
        os.write(release_write, b"zz")
        workers.close()
        for fd in (started_read, started_write, release_read, release_write):
            os.close(fd)


def test_a_worker_that_is_killed_says_so_not_out_of_memory():
    import signal

    started_read, started_write = os.pipe()  # made before the fork: the worker has them
    release_read, release_write = os.pipe()
    workers = pool.Pool(1, memory=0)
    try:
        workers.start()
        (pid,) = [w.pid for w in workers._idle]
        outcome: list = []

        def ask() -> None:
            try:
                outcome.append(workers.call(_wait_for_then_echo, started_write, release_read))
            except Exception as err:  # noqa: BLE001 - the outcome under test
                outcome.append(err)

        asker = threading.Thread(target=ask)
        asker.start()
        assert select.select([started_read], [], [], 60)[0]
        os.kill(pid, signal.SIGKILL)
        asker.join(60)
        (lost,) = outcome
        assert isinstance(lost, pool.WorkerLost)
        assert "memory" not in str(lost) and "SIGKILL" in str(lost), str(lost)
    finally:
        workers.close()
        for fd in (started_read, started_write, release_read, release_write):
            os.close(fd)
