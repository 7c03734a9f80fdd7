"""Requests gathered for one worker (issue 26: micro-batching in the server).

Scenario requests that wait for a worker wait here too. The one that gets a
worker takes along the waiting requests it can be answered with (the same
bounds and options but the time-out, `Gathering.key`), up to `most` in all:
the worker answers them as one chunk (mtgkb.running.batch.answer_together),
their questions with one answer per scenario grounded and solved together,
and each taken request gets its own answer through its `Waiting.answer`.
A request taken along stops waiting for a worker of its own. Nothing is
gathered while a worker is free: a lone request is answered alone, as
before.

A worker takes no more than its share of the requests in the server (those
admitted, or waiting or at work, over the workers, rounded up: `share`), so
that the others' chunks are as large as its own: a chunk's fixed cost (its
groundings made) is paid by as many requests as can share it, on every
worker. And when every worker is busy, the request that got one waits a
moment (at most LINGER seconds) for its share to arrive (`linger`): the
answers of a chunk go back together, and their clients' next requests come
in a few milliseconds apart. (Measured with 8 clients of the batch scenario
and 2 workers, 200 requests: taking every waiting request at once, 23 to 50
of them were answered alone, at about twice a gathered one's cost, and
52-54 were answered a second; with the share and the wait, 1 to 4 alone,
58-66 a second.)

The listings are canonical (mtgkb.questions.listing_order), so a request
gets the same answer whichever requests it was gathered with.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

#: The most requests one worker answers as a chunk. Measured warm, in
#: process, 4 players x 8 creatures with three questions (ms a scenario):
#: alone 64-71, 2 together 48, 4 together 38, 8 together 33, 16 together 31;
#: the first of a chunk waits for the others, so the gain stops at 8.
MOST = 8
#: The most seconds a request that got the last free worker waits for its
#: share to join it (`Gathering.linger`), and the step it waits in.
LINGER = 0.004
LINGER_STEP = 0.001


def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


@dataclass(eq=False)
class Waiting:
    """One request waiting for a worker: its job, what it may be gathered
    with (`key`), when it arrived (monotonic), and its answer when another
    request takes it along (`taken`)."""

    job: Any
    key: Hashable
    arrived: float = field(default_factory=time.monotonic)
    taken: bool = False
    answer: asyncio.Future = field(default_factory=lambda: _loop().create_future())


class Gathering:
    """The requests waiting for a worker, in arrival order, on one event loop."""

    def __init__(self, most: int = MOST) -> None:
        if most < 1:
            raise ValueError("a worker answers at least one request at a time")
        self.most = most
        self.waiting: list[Waiting] = []
        self.groups = 0  # chunks of two or more answered
        self.gathered = 0  # requests answered in them

    def join(self, job: Any, key: Hashable) -> Waiting:
        """A request starts waiting for a worker."""
        entry = Waiting(job, key)
        self.waiting.append(entry)
        return entry

    def leave(self, entry: Waiting) -> None:
        """A request stops waiting (it got a worker, its time ran out, or its
        client left); one taken along has left already."""
        if entry in self.waiting:
            self.waiting.remove(entry)

    def share(self, in_server: int, workers: int) -> int:
        """The most requests one worker answers together when `in_server`
        requests are in the server (waiting or at work) for `workers`
        workers: its share, rounded up, at least 1 and at most `most`."""
        return max(1, min(self.most, -(-in_server // max(1, workers))))

    async def linger(self, want: int, seconds: float = LINGER, step: float = LINGER_STEP) -> None:
        """Wait, a `step` at a time, until `want` requests, the one that got a
        worker included, could be taken together, at most `seconds` in all."""
        end = time.monotonic() + seconds
        while len(self.waiting) + 1 < min(want, self.most):
            left = end - time.monotonic()
            if left <= 0:
                return
            await asyncio.sleep(min(step, left))

    def take(self, leader: Waiting, most: int | None = None) -> list[Waiting]:
        """The waiting requests `leader` (which got a worker) takes along:
        the others with its key, the oldest first, up to `most` with it (the
        gathering's own `most` at the least). They are no longer waiting;
        `done` answers them."""
        most = self.most if most is None else min(most, self.most)
        taken = []
        for entry in self.waiting:
            if len(taken) + 1 >= most:
                break
            if entry is not leader and entry.key == leader.key and not entry.answer.done():
                taken.append(entry)
        for entry in taken:
            entry.taken = True
            self.waiting.remove(entry)
        if taken:
            self.groups += 1
            self.gathered += len(taken) + 1
        return taken

    @staticmethod
    def done(taken: list[Waiting], answers: list[Any] | None, error: BaseException | None) -> None:
        """Give each request taken along its answer (or `error`)."""
        for i, entry in enumerate(taken):
            if entry.answer.done():
                continue
            if answers is not None:
                entry.answer.set_result(answers[i])
            else:
                entry.answer.set_exception(error or RuntimeError("not answered"))

    def stats(self) -> dict:
        return {"waiting": len(self.waiting), "groups": self.groups, "gathered": self.gathered}
