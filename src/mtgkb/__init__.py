"""mtgkb: the Magic: The Gathering Comprehensive Rules as answer-set programs."""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from mtgkb.running.api import Answerer


def run(
    text: str | bytes, name: str = "<string>", answerer: Answerer | None = None, **limits
) -> dict:
    """Answer every question of a scenario text; the spec's JSON object as a dict.

    `limits` are `max_models`, `timeout`, `memory` and `lang`. Bad input raises
    `mtgkb.language.errors.ScenarioError`; a time-out raises
    `mtgkb.engine.solve.SolveTimeout`. To answer many texts, hold an
    `mtgkb.Answerer` (its engine reads the rule base once) and pass it, or
    call its `run`.
    """
    from mtgkb.running.api import run as run_scenario

    return run_scenario(text, name, answerer=answerer, **limits)


def __getattr__(name: str):
    """`mtgkb.Answerer` (imported on first use: `import mtgkb` stays light)."""
    if name == "Answerer":
        from mtgkb.running.api import Answerer

        return Answerer
    raise AttributeError(f"module 'mtgkb' has no attribute {name!r}")
