"""Bounded work: run one file's answers in a forked child that is killed when
its time is up, so that neither grounding nor solving can hang the caller."""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class DeadlineExceeded(Exception):
    """The child did not finish within its time."""


def call_with_deadline(function: Callable[[], T], seconds: float) -> T:
    """`function()` computed in a forked child, killed after `seconds`.

    The result comes back pickled through a pipe. Exceptions raised by the
    function are re-raised here.
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, leave without cleanup handlers
        os.close(read_end)
        try:
            payload = pickle.dumps((True, function()))
        except BaseException as err:  # noqa: BLE001 - sent back to the parent
            payload = pickle.dumps((False, err))
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        os._exit(0)
    os.close(write_end)
    chunks = []
    end = time.monotonic() + seconds
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
    finally:
        _reap(pid)
    if not chunks:
        raise RuntimeError("the worker process died without an answer")
    ok, value = pickle.loads(b"".join(chunks))
    if ok:
        return value
    raise value


def _reap(pid: int) -> None:
    try:
        finished, _ = os.waitpid(pid, os.WNOHANG)
        if finished == 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except ChildProcessError:
        pass
