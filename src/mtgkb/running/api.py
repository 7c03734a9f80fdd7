"""The Python API: `mtgkb.run(text)`, `mtgkb.run_many(scenarios)` and the
`Answerer` a long-lived caller holds (one engine, read once, and a recycled
worker process that inherits it). Apart from mtgkb.running.runner, which
answers one file, so that the runner and the pool (which calls the runner in
its workers) do not import each other.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtgkb.engine.state import Engine
from mtgkb.language.json_state import state_json
from mtgkb.output.envelope import stamp
from mtgkb.questions.answers import Limits
from mtgkb.rulebase.collector import collections_deferred
from mtgkb.running import pool
from mtgkb.running.runner import answer_text


class Answerer:
    """What a long-lived Python caller holds to answer many scenarios: one
    engine (the rule base read once) and, where fork exists and MTGKB_POOL is
    not 0, a recycled worker process that inherits it (mtgkb.running.pool),
    so that the caller stays small. A context manager; `close()` ends the
    worker."""

    def __init__(self, engine: Engine | None = None, workers: int = 1):
        self.engine = Engine() if engine is None else engine
        self.pool = pool.Pool(workers, engine=self.engine) if pool.enabled() else None

    def run(
        self, text: str | bytes | dict, name: str = "<string>", lang: str = "en", **limits
    ) -> dict:
        """`mtgkb.run`, answered with this engine (in its worker, if any);
        `text` may be a JSON game state, as a dict too."""
        bounds = Limits(lang=lang, **limits)
        if isinstance(text, dict):
            text = state_json(text, name, lang)  # JSON text, read as a state by the worker
        if self.pool is None:
            with collections_deferred():  # (as in a worker: mtgkb.rulebase.collector)
                result = answer_text(text, name, bounds, engine=self.engine)
        else:
            result = pool.answer(text, name, bounds, self.pool)
        if result.exception is not None:
            raise result.exception
        return self.stamped(result.output)

    def stamped(self, output: dict) -> dict:
        """An answer as `run` returns it: stamped (mtgkb.output.envelope),
        naming this engine's rule base."""
        return stamp({**output, "rule_base": self.engine.describe()})

    def run_together(
        self, named: list[tuple[str, str | bytes | dict]], lang: str = "en", **limits
    ) -> list | None:
        """The runner.FileResult of each (name, text) of `named`, answered as
        one chunk with this engine (in its worker, if any): their questions
        with one answer per scenario grounded and solved together
        (mtgkb.running.batch.answer_group). None for one to answer again
        alone (an input error, a time-out), None for all when the chunk
        could not be answered. `limits` without a time-out (a chunk has no
        time of each scenario's own)."""
        from mtgkb.running.batch import answer_group

        items = [
            (name, state_json(text, name, lang) if isinstance(text, dict) else text, None)
            for name, text in named
        ]
        # (in this process, the collector held off as in a worker: mtgkb.rulebase.collector)
        with collections_deferred() if self.pool is None else nullcontext():
            return answer_group(items, Limits(lang=lang, **limits), self.pool, self.engine)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()

    def __enter__(self) -> Answerer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run(
    text: str | bytes | dict,
    name: str = "<string>",
    lang: str = "en",
    answerer: Answerer | None = None,
    **limits,
) -> dict:
    """The Python API: the spec's JSON object for one scenario text, its
    messages and explanations in `lang` (`en`, `it`).

    Bad input raises `ScenarioError`; a time-out raises `SolveTimeout`.
    The work is done in a worker process (mtgkb.running.pool), so a caller
    stays small. `answerer` (an `Answerer`) answers with its engine and its
    worker; without one, an answerer is made for this call alone (reading
    the rule base again): a caller that answers many scenarios holds one.
    """
    if answerer is not None:
        return answerer.run(text, name, lang, **limits)
    with Answerer() as once:
        return once.run(text, name, lang, **limits)


# --------------------------------------------------------------------------
# many scenarios (issue 27, item 3)


@dataclass
class Outcome:
    """What `run_many` gives for one scenario, in input order: its `answer`
    (the object `mtgkb.run` returns) or its `error` (a ScenarioError for
    unreadable input, a SolveTimeout when the time-out or the memory bound
    stopped it). `result()` is the answer, or raises the error."""

    name: str
    answer: dict | None = None
    error: Exception | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def result(self) -> dict:
        if self.error is not None:
            raise self.error
        return self.answer


Scenario = str | bytes | dict | os.PathLike | tuple


def _named(item: Scenario, index: int) -> tuple[str, str | bytes]:
    """(name, text) of one scenario of `run_many`: a text (named `<scenario N>`),
    a file path (read), or a (name, text) pair."""
    if isinstance(item, (str, bytes, dict)):
        return f"<scenario {index}>", item
    if isinstance(item, os.PathLike):
        path = Path(item)
        return str(path), path.read_bytes()
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], (str, bytes, dict)):
        return str(item[0]), item[1]
    raise TypeError(
        f"scenario {index}: give a text (str or bytes), a path, or a (name, text) pair, "
        f"not {type(item).__name__}"
    )


def _outcome(answerer: Answerer, name: str, text: str | bytes, lang: str, limits: dict):
    from mtgkb.engine.solve import SolveTimeout
    from mtgkb.language.errors import ScenarioError

    try:
        return Outcome(name, answer=answerer.run(text, name, lang, **limits))
    except (ScenarioError, SolveTimeout) as err:
        return Outcome(name, error=err)


#: How many scenarios `run_many` answers as one chunk when no time-out
#: bounds them (their questions with one answer per scenario grounded and
#: solved together, as a batch's and the server's gathered requests are).
#: Measured, 4 players x 8 creatures with three questions, in a worker: 76
#: ms a scenario alone, in chunks of 8 about 45.
TOGETHER = 8


def run_many(
    scenarios: Iterable[Scenario],
    lang: str = "en",
    answerer: Answerer | None = None,
    workers: int = 1,
    **limits,
) -> Iterator[Outcome]:
    """Answer many scenarios: one `Outcome` per scenario, in input order, as
    each is answered. The scenarios are read lazily (an endless generator
    is fine) and at most `2 * workers` chunks of TOGETHER are held at once;
    one that cannot be read or answered gives an Outcome with its `error`
    and the others go on. Without a time-out they are answered TOGETHER at
    a time as one chunk, each answer the one it gets alone; with one, each
    alone, within it.

    `limits` are `mtgkb.run`'s (`max_models`, `timeout`, `memory`), checked
    first (UsageError). `workers` answer side by side (where there is a
    pool; mtgkb.running.pool); `answerer` (an Answerer) lends its engine and
    its workers instead."""
    Limits(lang=lang, **limits)  # a bound out of range fails the call, not each item
    own = None
    if answerer is None:
        own = answerer = Answerer(workers=workers)
    side_by_side = 1 if answerer.pool is None else answerer.pool.size
    size = TOGETHER if limits.get("timeout") is None else 1
    try:
        if side_by_side == 1:
            for chunk in _chunked(scenarios, size):
                yield from _outcomes(answerer, chunk, lang, limits)
            return
        from collections import deque
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(side_by_side, thread_name_prefix="mtgkb-run-many") as threads:
            pending: deque = deque()
            try:
                for chunk in _chunked(scenarios, size):
                    pending.append(threads.submit(_outcomes, answerer, chunk, lang, limits))
                    if len(pending) >= 2 * side_by_side:
                        yield from pending.popleft().result()
                while pending:
                    yield from pending.popleft().result()
            finally:
                for future in pending:
                    future.cancel()
    finally:
        if own is not None:
            own.close()


def _chunked(scenarios: Iterable[Scenario], size: int) -> Iterator[list[tuple[str, Any]]]:
    """The (name, text) of `scenarios` (`_named`), `size` at a time, read
    lazily: a chunk is given as soon as it is full (the last one as the
    scenarios end)."""
    chunk: list = []
    for index, item in enumerate(scenarios):
        chunk.append(_named(item, index))
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _outcomes(answerer: Answerer, chunk: list, lang: str, limits: dict) -> list[Outcome]:
    """The Outcome of each (name, text) of `chunk`: answered as one chunk
    when there are several (Answerer.run_together); one whose answer there
    is an input error or a time-out, or whose chunk failed, is answered
    again alone (its error, with its line and column, is what it raises
    alone)."""
    results = answerer.run_together(chunk, lang, **limits) if len(chunk) > 1 else None
    out = []
    for (name, text), result in zip(chunk, results or [None] * len(chunk), strict=True):
        if result is None:
            out.append(_outcome(answerer, name, text, lang, limits))
        else:
            out.append(Outcome(name, answer=answerer.stamped(result.output)))
    return out
