"""Children die with the parent, and SIGINT/SIGTERM end a run within a few
seconds with exit 130/143 (issue 15, item 9): the `--timeout` child and the
`--jobs` workers are killed by the kernel when the parent ends however it
ends (PR_SET_PDEATHSIG), SIGKILL included, and a signal that arrives while the
parent is inside clingo still ends it (a watcher thread)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, requirement_combat

from mtgkb.running.deadline import call_with_deadline, die_with_parent

# The slow tier (processes stopped by signals):
# .ci/run runs it, the README's command does not.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc"),
]


def slow_file(folder: Path) -> Path:
    """A combat that takes many seconds to answer."""
    return requirement_combat(folder, 1000, "slow.mtg")


def children(pid: int) -> set[int]:
    """Every living descendant of `pid`."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(entry.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def catches(pid: int, signum: int) -> bool:
    """Whether the process handles `signum` now (mtgkb's stop is set up): a
    signal sent before that ends it as the default action does, whoever is
    slow to start (a loaded machine)."""
    if signum == signal.SIGKILL:
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(
        (line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0"
    )
    return bool(int(caught, 16) >> (signum - 1) & 1)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def stop(
    args: list[str], signum: int, expect_children: int, wait: float = 1.0, env=None
) -> tuple[int, float, set[int]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "mtgkb", "run", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE if env else subprocess.DEVNULL,
        env=env,
    )
    try:
        # until mtgkb's stop is set up (its SIGTERM handler: Python catches
        # SIGINT from its start, before mtgkb is even imported) and its
        # children are there, however slow the machine
        while proc.poll() is None:
            if len(children(proc.pid)) >= expect_children and catches(proc.pid, signal.SIGTERM):
                break
            time.sleep(0.05)
        time.sleep(wait)  # well into the work
        assert proc.poll() is None, "the work ended before the signal"
        kids = children(proc.pid)
        assert len(kids) >= expect_children
        start = time.monotonic()
        os.kill(proc.pid, signum)
        status = proc.wait(timeout=20)
        if env:
            said = proc.stderr.read().decode()
            assert "Traceback" not in said, said
        took = time.monotonic() - start
        end = time.monotonic() + 5
        while any(alive(k) for k in kids) and time.monotonic() < end:
            time.sleep(0.1)
        return status, took, {k for k in kids if alive(k)}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGKILL, -9)]
)
def test_the_time_out_child_dies_with_the_parent(tmp_path, signum, status):
    path = str(slow_file(tmp_path))
    got, _, left = stop(["--timeout", "120", path], signum, 1)
    assert got == status
    assert not left


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)]
)
def test_the_workers_die_with_the_parent(tmp_path, signum, status):
    path = str(slow_file(tmp_path))
    got, _, left = stop(["--jobs", "3", path, path, path], signum, 3)
    assert got == status
    assert not left


def test_a_signal_during_solving_in_the_parent_ends_it(tmp_path):
    # no --timeout, one job: the parent itself is inside clingo
    path = str(slow_file(tmp_path))
    for signum, status in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
        got, _, _ = stop([path], signum, 0)
        assert got == status


@pytest.mark.parametrize("wait", [0.5, 1.0, 1.5])
def test_a_signal_while_the_rule_base_is_analysed_ends_it(tmp_path, wait):
    # an empty cache: the parent walks the rule base's syntax trees, inside
    # clingo's callbacks, which hand the stop back as Stopped(Stopped(15))
    path = str(slow_file(tmp_path))
    for signum, status in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
        cache = tmp_path / f"cache-{signum}"
        env = dict(os.environ, XDG_CACHE_HOME=str(cache))
        got, _, _ = stop([path], signum, 0, wait, env)
        assert got == status


CALLBACK_STOP = """
import os, signal, sys, time, clingo
from mtgkb.cli import Stopped, _StopOnSignals
signum, where = int(sys.argv[1]), sys.argv[2]
def stop(*_):
    os.kill(os.getpid(), signum)  # the stop comes while clingo's callback runs
    sum(range(1000))
try:
    with _StopOnSignals():
        ctl = clingo.Control(["--stats"], logger=stop if where == "logger" else None)
        ctl.add("base", [], "a :- b. {c}.")  # b is in no head: clingo logs it
        ctl.ground([("base", [])])
        if where == "statistics":
            ctl.solve(on_statistics=stop)
        else:
            ctl.solve(on_model=stop if where == "model" else None)
        time.sleep(1)
    print("not stopped")
except Stopped as stopped:
    print("stopped", stopped.signum)
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.parametrize("where", ["logger", "model", "statistics"])
@pytest.mark.parametrize(
    ("signum", "said"), [(signal.SIGTERM, "stopped 15"), (signal.SIGINT, "interrupted")]
)
def test_a_stop_inside_clingos_callbacks_is_raised_once_they_returned(signum, said, where):
    # an exception inside clingo's logger, or its solve events, ends the
    # process ("PANIC: exception in nothrow scope", "going to terminate",
    # exit 1): the stop is raised after the callback returned
    out = subprocess.run(
        [sys.executable, "-c", CALLBACK_STOP, str(int(signum)), where],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert "PANIC" not in out.stderr and "terminate" not in out.stderr
    assert (out.returncode, out.stdout.strip()) == (0, said)


HALF_BUILT = """
import os, signal, sys
from mtgkb.cli import Stopped, _StopOnSignals

class HalfBuilt:  # as an object whose __init__ the stop interrupted
    def __del__(self):
        raise AttributeError("no _rep")

stopper = _StopOnSignals()
try:
    with stopper:
        os.kill(os.getpid(), signal.SIGTERM)
        sum(range(1000))
except Stopped:
    HalfBuilt()  # freed at once: its finalizer fails
finally:
    stopper.end()
print(sys.unraisablehook is sys.__unraisablehook__)
"""


def test_a_stopped_run_does_not_print_the_finalizers_the_stop_broke():
    # an object the stop interrupted half-built fails in its finalizer
    # (clingo's ASTSequence: "Exception ignored in ... AttributeError: ... _rep"):
    # quiet while the stopped run unwinds, Python's report given back after
    out = subprocess.run(
        [sys.executable, "-c", HALF_BUILT], capture_output=True, text=True, cwd=ROOT
    )
    assert "Exception ignored" not in out.stderr and "Traceback" not in out.stderr
    assert (out.returncode, out.stdout.strip()) == (0, "True")


def test_a_stop_raised_in_a_clingo_callback_keeps_its_signal():
    import clingo.ast

    from mtgkb.cli import Stopped

    def callback(_statement):
        raise Stopped(signal.SIGTERM)

    with pytest.raises(Stopped) as raised:
        clingo.ast.parse_string("a.", callback)
    assert raised.value.signum == signal.SIGTERM


def test_die_with_parent_ends_a_child_whose_parent_is_gone():
    # the parent named is not this process's parent: it is gone already
    pid = os.fork()
    if pid == 0:
        die_with_parent(os.getppid() + 1_000_000)
        os._exit(0)  # not reached
    _, code = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(code) == 1


def test_the_deadline_child_still_answers():
    assert call_with_deadline(lambda: 6 * 7, 10) == 42


def test_a_worker_killed_from_outside_is_reported_not_a_traceback(tmp_path):
    # SIGTERM to one worker: the files it had say so (exit 3), and the signal
    # does not reach the parent's own stop (it is not the parent's)
    path = str(slow_file(tmp_path))
    example = str(ROOT / "examples" / "01_apnap_sacrifice.mtg")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mtgkb", "run", "--jobs", "2", path, example, path],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while len(children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        os.kill(min(children(proc.pid)), signal.SIGTERM)
        _, errors = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 3
    assert "the worker process answering it was killed" in errors
    assert "Traceback" not in errors
