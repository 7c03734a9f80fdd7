"""Python's cycle collector, held off while mtgkb makes what it keeps.

Importing mtgkb's modules, and answering a file, make tens of thousands of
containers (modules, functions, classes; the parse, the analysis read from
the cache, the facts, the answers) and free next to none in cycles: what
they make is freed by reference counting or lives until the end. The
collector, run every 700 containers made past those freed, found nothing to
free in the ~25 collections a cold run made while importing (7 to 10 ms of
CPU) and cost a run of one file about a tenth of its time. In a worker that
answers chunk after chunk, whose engine keeps the rule base's analysis and
its programs, it cost about a fifth (measured, 50 scenarios of 4 players x 8
creatures: 30 -> 24 ms a scenario).

- `collections_deferred()`: the threshold raised for a while, restored after
  (`import mtgkb`, `mtgkb run`, the Python API answering in its own process);
- `defer_collections()`: raised for the rest of the process (a pool's worker,
  mtgkb.running.pool, which answers until it ends).

Cycles left behind are still collected, less often. One kind is left there
on purpose: a Control whose last solve read its models with a method of
what holds it (a listing's, mtgkb.engine.listing), since clingo keeps a
Control's last callbacks. Freed at once instead, its memory is what gringo's
next groundings reuse, and they measured slower on it than on fresh memory
(a chunk of 50: 23.7 -> 30.7 ms a scenario; bench/README, the eighteenth
session); a pool's worker is recycled past its growth.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Containers made past those freed before the collector looks at the young
#: ones, under `collections_deferred()` and `defer_collections()`.
COLLECTION_THRESHOLD = 100_000


@contextmanager
def collections_deferred() -> Iterator[None]:
    """The collector's first threshold raised to COLLECTION_THRESHOLD,
    restored after."""
    thresholds = gc.get_threshold()
    defer_collections()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def defer_collections() -> None:
    """The collector's first threshold raised to COLLECTION_THRESHOLD for
    the rest of this process."""
    gc.set_threshold(COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
