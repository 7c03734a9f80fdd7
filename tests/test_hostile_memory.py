"""Every run has a memory bound (issue 15, item 11): by default 80 % of the
memory available, at most 4 GiB, with or without `--timeout`; `--memory MB`
changes it (0: none). A run that reaches it stops with exit 3 and a message
that says so and how to give more."""

import faulthandler
import functools
import os
import resource
import subprocess
import sys

import pytest
from helpers import ROOT, requirement_combat

from mtgkb.running import pool
from mtgkb.running.deadline import (
    DEFAULT_MEMORY_CAP_MB,
    GLIBC_FATAL_STATUS,
    WorkerLost,
    call_with_deadline,
    memory_limit,
)

# The slow tier (processes that reach their memory bound):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow


def hungry_file(folder) -> str:
    """A combat whose grounding takes a few hundred MiB."""
    return str(requirement_combat(folder, 800, "hungry.mtg"))


def mtgkb_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


@pytest.mark.parametrize("timeout", [[], ["--timeout", "100"]])
def test_reaching_the_memory_bound_is_exit_3_with_a_clear_message(tmp_path, timeout):
    done = mtgkb_run(*timeout, "--memory", "100", hungry_file(tmp_path))
    assert done.returncode == 3, done.stderr
    assert "the work reached the memory bound (100 MiB)" in done.stderr
    assert "--memory" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_other_files_of_the_run_are_still_answered(tmp_path):
    example = str(ROOT / "examples" / "03_illegal_block.mtg")
    done = mtgkb_run("--memory", "100", "--json", hungry_file(tmp_path), example)
    assert done.returncode == 3
    assert '"error": "memory"' in done.stdout
    assert '"ask": "explain"' in done.stdout


def check_rlimit(*options: str) -> tuple[str, str, str]:
    """The address-space bound `mtgkb run` gives itself during the run, and
    the one after it (as before: main() may run in a longer-lived process)."""
    code = (
        "import resource, sys\n"
        "import mtgkb.cli as cli\n"
        "seen = [resource.getrlimit(resource.RLIMIT_AS)[0]]\n"
        "work = cli._run\n"
        "def spy(*args):\n"
        "    seen.append(resource.getrlimit(resource.RLIMIT_AS)[0])\n"
        "    return work(*args)\n"
        "cli._run = spy\n"
        f"cli.main(['run', *{list(options)!r}, 'examples/01_apnap_sacrifice.mtg'])\n"
        "seen.append(resource.getrlimit(resource.RLIMIT_AS)[0])\n"
        "shown = ['none' if s == resource.RLIM_INFINITY else str(s >> 20) for s in seen]\n"
        "print(*shown, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    before, during, after = done.stderr.strip().splitlines()[-1].split()
    return before, during, after


@pytest.mark.skipif(
    resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY,
    reason="the tests run under an address-space bound already",
)
def test_a_run_without_options_is_bounded_by_default():
    before, during, after = check_rlimit()
    assert before == after == "none"
    assert int(during) < DEFAULT_MEMORY_CAP_MB + 2048  # what was mapped, plus the default
    assert check_rlimit("--memory", "0") == ("none", "none", "none")
    before, during, after = check_rlimit("--memory", "700")
    assert int(during) < 700 + 2048 and after == "none"


def test_the_default_bound_is_capped():
    limit = memory_limit()
    assert limit is not None and limit <= DEFAULT_MEMORY_CAP_MB << 20
    assert memory_limit(0) is None
    assert memory_limit(300) == 300 << 20


# Where memory cannot be had and no error can be returned (a new thread's own
# data: "cannot allocate memory for thread-local data"; an allocation in one
# of clingo's no-throw scopes), glibc and clingo abort(). Under a memory
# bound that is the bound reached, and is said so, whichever way the work ran.


def _abort() -> None:
    faulthandler.disable()  # pytest's: it would print the child's stack
    os.abort()


def _glibc_fatal() -> None:
    os._exit(GLIBC_FATAL_STATUS)  # as glibc ends a process it cannot give a thread's data


@pytest.mark.parametrize("end", [_abort, _glibc_fatal])
def test_an_abort_under_a_memory_bound_is_the_bound_reached(end):
    with pytest.raises(WorkerLost) as lost:
        call_with_deadline(end, 30, memory=200)
    assert lost.value.out_of_memory and "memory bound" in str(lost.value)


def test_a_child_that_ends_otherwise_is_not_called_a_memory_stop():
    with pytest.raises(WorkerLost) as lost:
        call_with_deadline(functools.partial(os._exit, 1), 30, memory=200)
    assert not lost.value.out_of_memory


def test_an_abort_without_a_memory_bound_is_not_called_a_memory_stop():
    with pytest.raises(WorkerLost) as lost:
        call_with_deadline(_abort, 30, memory=0)
    assert not lost.value.out_of_memory


def test_a_worker_that_aborts_under_its_memory_bound_reached_it():
    with pool.Pool(1, memory=200 << 20) as workers:
        with pytest.raises(WorkerLost) as lost:
            workers.call(_abort)
        assert lost.value.out_of_memory
        assert workers.call(os.getpid) > 0  # a fresh worker takes the next task
