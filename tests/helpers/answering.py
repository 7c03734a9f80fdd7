"""One engine and one answerer per test process, as a long-lived caller holds
them (mtgkb.Answerer's docstring): `mtgkb.run(text)` without an answerer
reads the rule base again and forks a fresh worker for that one call, which
doubled the time of the tests that answer scenario texts end to end.

Each is kept per process and per MTGKB_* environment: a forked child, or a
test that sets MTGKB_RULE_BASE, MTGKB_MEMORY_MB, ..., gets its own, made
after the change (a worker forked earlier would not see it). Tests of
`mtgkb.run` itself (its worker, its time-outs) call it directly.
"""

import atexit
import os

import mtgkb
from mtgkb.engine.state import Engine


def _setting() -> tuple:
    """What an engine and its worker are made for: this process and the
    MTGKB_* variables of its environment."""
    return os.getpid(), tuple(
        sorted((k, v) for k, v in os.environ.items() if k.startswith("MTGKB_"))
    )


_ENGINES: dict[tuple, Engine] = {}
_ANSWERERS: dict[tuple, mtgkb.Answerer] = {}


def engine() -> Engine:
    """The engine of this process and environment (the rule base read once)."""
    key = _setting()
    if key not in _ENGINES:
        _ENGINES[key] = Engine()
    return _ENGINES[key]


def answerer() -> mtgkb.Answerer:
    """The answerer of this process and environment: its engine and one
    recycled worker (mtgkb.running.pool), as `mtgkb.run` uses them."""
    key = _setting()
    if key not in _ANSWERERS:
        _ANSWERERS[key] = mtgkb.Answerer(engine())
    return _ANSWERERS[key]


def run(text, name: str = "<string>", **limits) -> dict:
    """`mtgkb.run(text, name, **limits)` answered by this process's answerer."""
    return mtgkb.run(text, name, answerer=answerer(), **limits)


@atexit.register
def close_answerers() -> None:
    """End the answerers' workers when the test process ends (and reap them)."""
    for kept in _ANSWERERS.values():
        kept.close()
