"""Bounded work: run one file's answers in a forked child that is killed when
its time is up, so that neither grounding nor solving can hang the caller.

The child also gets a memory bound (--memory, else MTGKB_MEMORY_MB, else 80 %
of the memory available when it starts, at most 4 GiB; 0 for none), so that a
grounding blow-up fails in the child instead of taking the machine's memory;
the command line bounds its own process the same way (`bound_memory`). Every
child dies with its parent (`die_with_parent`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class DeadlineExceeded(Exception):
    """The child did not finish within its time."""


class WorkerLost(DeadlineExceeded):
    """The child ended without an answer: it ran out of its memory bound or
    was killed. A kind of bounded work stopping, so callers treat it like a
    time-out; the message says which."""

    def __init__(self, message: str = "", out_of_memory: bool = False) -> None:
        super().__init__(message)
        self.out_of_memory = out_of_memory

    def __reduce__(self):
        return (WorkerLost, (str(self), self.out_of_memory))


def _proc_kb(path: str, field: str) -> int | None:
    """A `Field: N kB` value of a /proc file, in bytes."""
    try:
        with open(path, encoding="ascii") as info:
            for line in info:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    return None


DEFAULT_MEMORY_CAP_MB = 4096  # the default bound never exceeds this


def memory_limit(megabytes: int | None = None) -> int | None:
    """Bytes of new memory a run may take, or None for no bound.

    `megabytes` (the --memory option) wins; 0 means no bound. Without it,
    MTGKB_MEMORY_MB is read, and without that the bound is 80 % of the
    memory available, at most DEFAULT_MEMORY_CAP_MB."""
    if megabytes is None:
        setting = os.environ.get("MTGKB_MEMORY_MB")
        if setting is not None:
            try:
                megabytes = int(setting)
            except ValueError:
                megabytes = 0
    if megabytes is not None:
        return megabytes << 20 if megabytes > 0 else None
    available = _proc_kb("/proc/meminfo", "MemAvailable")
    if available is None:
        return DEFAULT_MEMORY_CAP_MB << 20
    # at least 512 MiB: clingo's first grounding steps map some
    return min(DEFAULT_MEMORY_CAP_MB << 20, max(512 << 20, int(available * 0.8)))


def describe_memory(megabytes: int | None = None) -> str:
    """The memory bound in words, for messages."""
    limit = memory_limit(megabytes)
    return "no bound" if limit is None else f"{limit >> 20} MiB"


def bound_memory(limit: int | None) -> Callable[[], None]:
    """Bound this process's address space to what it maps now plus `limit`
    bytes (never raising a lower bound already set). Past it, allocations
    fail with MemoryError, in Python and in clingo alike. Returns the
    function that puts the bound back as it was."""
    if limit is None:
        return _nothing
    mapped = _proc_kb("/proc/self/status", "VmSize")
    if mapped is None:
        return _nothing
    limit += mapped
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        if soft == resource.RLIM_INFINITY or soft > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))

            def restore() -> None:
                try:
                    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
                except (OSError, ValueError):
                    pass

            return restore
    except (ImportError, OSError, ValueError):
        pass
    return _nothing


def renew_memory_bound(limit: int | None) -> None:
    """Bound this process again at what it maps now plus `limit` bytes, when
    a bound is in force: after the work of a file that reached the bound was
    dropped, its memory is free but often still mapped, and the next file
    must have the whole bound to itself."""
    if limit is None:
        return
    mapped = _proc_kb("/proc/self/status", "VmSize")
    if mapped is None:
        return
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return  # nothing bounds this process
        renewed = mapped + limit if hard == resource.RLIM_INFINITY else min(mapped + limit, hard)
        if renewed > soft:
            resource.setrlimit(resource.RLIMIT_AS, (renewed, hard))
    except (ImportError, OSError, ValueError):
        pass


def _nothing() -> None:
    return None


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """End this process when its parent `parent` ends, however it ends
    (SIGKILL included): Linux's PR_SET_PDEATHSIG, elsewhere a thread that
    watches the parent. Called first thing in every child mtgkb forks."""
    import signal

    try:
        # What the parent set up to stop itself is not the child's: a signal
        # to the child must not wake the parent's watcher (mtgkb.cli).
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    except (ValueError, OSError):
        pass
    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent ended before the signal was armed
        os._exit(1)
    if not armed:
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="mtgkb-parent-watch", daemon=True).start()


def call_with_deadline(function: Callable[[], T], seconds: float, memory: int | None = None) -> T:
    """`function()` computed in a forked child, killed after `seconds`, with
    the memory bound of `memory` MiB (see `memory_limit`). The child dies
    with this process.

    The result comes back pickled through a pipe. Exceptions raised by the
    function are re-raised here; a child that runs out of memory or dies
    raises `WorkerLost`, one that runs out of time `DeadlineExceeded`.
    What every child would otherwise load again (the engine's rule base) is
    the caller's to load before (mtgkb.engine.state.Engine.prepare).
    """
    import pickle
    import select

    limit = memory_limit(memory)
    parent = os.getpid()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, leave without cleanup handlers
        os.close(read_end)
        try:
            die_with_parent(parent)
            bound_memory(limit)
            try:
                payload = pickle.dumps((True, function()))
            except MemoryError:
                payload = pickle.dumps((False, memory_stop()))
            except BaseException as err:  # noqa: BLE001 - sent back to the parent
                try:
                    payload = pickle.dumps((False, err))
                except Exception:  # noqa: BLE001 - an exception that cannot travel
                    payload = pickle.dumps((False, RuntimeError(repr(err))))
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
        finally:
            os._exit(0)
    os.close(write_end)
    chunks = []
    end = time.monotonic() + seconds
    status, reaped = None, False
    try:
        with os.fdopen(read_end, "rb") as pipe:
            while True:
                left = end - time.monotonic()
                if left <= 0 or not select.select([pipe], [], [], left)[0]:
                    raise DeadlineExceeded()
                chunk = os.read(pipe.fileno(), 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        status, reaped = reap(pid, grace=0.0 if chunks else 0.5), True
    finally:
        if not reaped:
            reap(pid)
    if not chunks:
        if aborted_under_bound(status, limit):
            raise memory_stop()
        raise WorkerLost("the work ended without an answer (out of memory or killed)")
    try:
        ok, value = pickle.loads(b"".join(chunks))
    except Exception as err:  # noqa: BLE001 - a truncated answer
        raise WorkerLost("the work ended with a broken answer") from err
    if ok:
        return value
    raise value


def reap(pid: int, grace: float = 0.0) -> int | None:
    """Collect the child `pid`, ended by SIGKILL if it has not ended within
    `grace` seconds (one that closed its pipe is ending): its wait status
    when it ended by itself, else None."""
    import signal

    end = time.monotonic() + grace
    try:
        while True:
            finished, status = os.waitpid(pid, os.WNOHANG)
            if finished:
                return status
            if time.monotonic() >= end:
                break
            time.sleep(0.01)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass
    return None


def memory_stop() -> WorkerLost:
    """What a child that ran out of its memory bound raises in its parent."""
    return WorkerLost("the work ran out of its memory bound", True)


# glibc's exit status when it cannot allocate a thread's own data (it prints
# "cannot allocate memory for thread-local data: ABORT" and exits)
GLIBC_FATAL_STATUS = 127


def aborted_under_bound(status: int | None, limit: int | None) -> bool:
    """Whether a child under a memory bound ended the way glibc and clingo
    end a process when memory cannot be had where no error can be returned:
    glibc's fatal exit when a thread's own data cannot be allocated (a new
    solve thread, the first exception a thread throws), abort() in one of
    clingo's no-throw scopes. mtgkb's children end with status 0 otherwise."""
    import signal

    if limit is None or status is None:
        return False
    if os.WIFSIGNALED(status):
        return os.WTERMSIG(status) == signal.SIGABRT
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == GLIBC_FATAL_STATUS
