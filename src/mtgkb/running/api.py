"""The Python API: `mtgkb.run(text)` and the `Answerer` a long-lived caller
holds (one engine, read once, and a recycled worker process that inherits
it). Apart from mtgkb.running.runner, which answers one file, so that the
runner and the pool (which calls the runner in its workers) do not import
each other.
"""

from __future__ import annotations

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
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

    def run(self, text: str | bytes, name: str = "<string>", lang: str = "en", **limits) -> dict:
        """`mtgkb.run`, answered with this engine (in its worker, if any)."""
        bounds = Limits(lang=lang, **limits)
        if self.pool is None:
            result = answer_text(text, name, bounds, engine=self.engine)
        else:
            result = pool.answer(text, name, bounds, self.pool)
        if result.exception is not None:
            raise result.exception
        return {**result.output, "rule_base": self.engine.describe()}

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()

    def __enter__(self) -> Answerer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run(
    text: str | bytes,
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
