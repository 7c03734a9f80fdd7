"""Python's cycle collector held off while mtgkb makes what it keeps.

Importing mtgkb's modules, and a run of `mtgkb run`, make tens of thousands
of containers (modules, functions, classes; the parse, the analysis read
from the cache, the facts, the answers) and free next to none in cycles:
what they make is freed by reference counting or lives until the end.
Python's collector, run every 700 containers made past those freed, found
nothing to free in the ~25 collections a cold run made while importing (7
to 10 ms of CPU) and cost a run of one file about a tenth of its time. Under
`deferred()` it runs only past `THRESHOLD` instead; cycles left are still
collected, after that many. Imports nothing of mtgkb.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Containers made past those freed before the collector looks at the young ones.
THRESHOLD = 100_000


@contextmanager
def deferred() -> Iterator[None]:
    """The collector's first threshold raised to THRESHOLD, restored after."""
    thresholds = gc.get_threshold()
    gc.set_threshold(THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
