"""Admission control of `mtgkb serve` (issue 27, item 6).

At most `workers` requests are answered at a time (one per worker process)
and at most `queue` more wait for a worker; a request beyond those is
refused at once with 503 and `Retry-After`, before its body is read, so the
server's memory stays bounded whatever the load. The time a request waits
counts in its time-out: it leaves the queue with the time it has left, and
one whose time ran out while waiting gets the time-out answer.

The waiting is done on the event loop (not in a thread of anyio's pool, of
which there are 40): a flood of scenario requests leaves the threads to the
rule lookups and the health check.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass


class Full(Exception):
    """No room in the queue: the request is refused (503, Retry-After)."""


class Waited(Exception):
    """The request's time ran out while it waited for a worker."""

    def __init__(self, waited: float) -> None:
        super().__init__(f"no worker was free within the time-out ({waited:.3g} s waited)")
        self.waited = waited


@dataclass
class Admission:
    """The bound on requests in the server: `workers` at work, `queue` waiting."""

    workers: int
    queue: int
    #: seconds a refused client is asked to wait before it asks again
    retry_after: int = 1

    def __post_init__(self) -> None:
        self.inside = 0  # requests admitted: waiting or at work
        self.at_work = 0  # requests holding a worker
        self.refused = 0
        self._slots: asyncio.Semaphore | None = None

    @property
    def capacity(self) -> int:
        return self.workers + self.queue

    def slots(self) -> asyncio.Semaphore:
        if self._slots is None:  # made on the server's event loop
            self._slots = asyncio.Semaphore(self.workers)
        return self._slots

    def enter(self) -> None:
        """Take a place in the server for one request, or raise Full."""
        if self.inside >= self.capacity:
            self.refused += 1
            raise Full()
        self.inside += 1

    def leave(self) -> None:
        self.inside -= 1

    @asynccontextmanager
    async def admitted(self):
        """Hold a place in the server for one request, or raise Full."""
        self.enter()
        try:
            yield self
        finally:
            self.leave()

    @asynccontextmanager
    async def worker(self, timeout: float | None):
        """Wait for a worker (at most `timeout` s); yields the seconds waited.
        Raises Waited when the time ran out."""
        waited = await self.acquire(timeout)
        try:
            yield waited
        finally:
            self.release()

    async def acquire(self, timeout: float | None) -> float:
        """Take a worker, waiting at most `timeout` s; the seconds waited (0.0
        when one was free). Raises Waited when the time ran out. `release`
        gives it back."""
        start = time.monotonic()
        slots = self.slots()
        if not slots.locked():  # a worker is free: no wait at all
            await slots.acquire()
            self.at_work += 1
            return 0.0
        try:
            if timeout is None:
                await slots.acquire()
            else:
                await asyncio.wait_for(slots.acquire(), max(0.0, timeout))
        except TimeoutError:
            raise Waited(time.monotonic() - start) from None
        self.at_work += 1
        return time.monotonic() - start

    def all_at_work(self) -> bool:
        """Whether no worker is free."""
        return self.slots().locked()

    def release(self) -> None:
        """Give back a worker `acquire` took."""
        self.at_work -= 1
        self.slots().release()

    def stats(self) -> dict:
        return {
            "admitted": self.inside,
            "capacity": self.capacity,
            "queue": self.queue,
            "refused": self.refused,
        }
