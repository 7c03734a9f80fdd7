"""mtgkb: the Magic: The Gathering Comprehensive Rules as answer-set programs.

The public Python API (`__all__`): `run` answers one scenario text, `run_many`
many (one `Outcome` each, in order, errors included), an `Answerer` holds the
rule base and a worker between calls; bad input raises `ScenarioError`
(FILE:LINE:COL, `line`, `column`), a time-out `SolveTimeout`, a bound out of
range `UsageError`. The typed answers (mtgkb.output.models, made from the
registry's description of each kind of question): `RunResult` is what `run`
returns for a file, `Answer` any answer, `LegalAnswer`, `BlocksAnswer`, ...
one class per kind, `Violation` (its `kind` a `ViolationKind`), `Edit` (a
change of `ask fix`); `RunResult.model_validate(mtgkb.run(text))` types an
answer. The names are imported on first use: `import mtgkb` stays light.
"""

from __future__ import annotations

# Python's cycle collector held off while mtgkb makes what it keeps (here,
# before any other module of mtgkb, so that `import mtgkb` loads none but the
# registry; mtgkb.rulebase.collector says why)
from mtgkb.rulebase.collector import collections_deferred

with collections_deferred():
    from typing import TYPE_CHECKING

    from mtgkb.rulebase.registry import ANSWER_CLASS_NAMES

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "Answerer",
    "Change",
    "Declaration",
    "Edit",
    "Inconsistent",
    "Limits",
    "Node",
    "Outcome",
    "RuleBase",
    "RunError",
    "RunResult",
    "ScenarioError",
    "SolveTimeout",
    "UnansweredAnswer",
    "UnsupportedAnswer",
    "UsageError",
    "Violation",
    "ViolationKind",
    "__version__",
    "run",
    "run_many",
]
# one typed answer class per kind of question (the registry names them)
__all__ += ANSWER_CLASS_NAMES

#: where each lazily imported public name lives
_HOMES = {
    "Answerer": "mtgkb.running.api",
    "Outcome": "mtgkb.running.api",
    "Limits": "mtgkb.questions.answers",
    "ScenarioError": "mtgkb.language.errors",
    "UsageError": "mtgkb.language.errors",
    "SolveTimeout": "mtgkb.engine.solve",
    # the typed answers
    **dict.fromkeys(
        (
            "Change",
            "Declaration",
            "Edit",
            "Inconsistent",
            "Node",
            "RuleBase",
            "RunError",
            "RunResult",
            "UnansweredAnswer",
            "UnsupportedAnswer",
            "Violation",
            "Answer",
            "ViolationKind",
            *ANSWER_CLASS_NAMES,
        ),
        "mtgkb.output.models",
    ),
}

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from mtgkb.engine.solve import SolveTimeout
    from mtgkb.language.errors import ScenarioError, UsageError
    from mtgkb.questions.answers import Limits
    from mtgkb.running.api import Answerer, Outcome


def run(
    text: str | bytes | dict, name: str = "<string>", answerer: Answerer | None = None, **limits
) -> dict:
    """Answer every question of a scenario text, or of a JSON game state (a
    dict, or JSON text: mtgkb.language.json_state); the spec's JSON object as a dict.

    `limits` are `max_models`, `timeout`, `memory` and `lang`. Bad input raises
    `mtgkb.ScenarioError`; a time-out raises `mtgkb.SolveTimeout`. To answer
    many texts, hold an `mtgkb.Answerer` (its engine reads the rule base
    once) and pass it, or call its `run`, or use `run_many`.
    """
    from mtgkb.running.api import run as run_scenario

    return run_scenario(text, name, answerer=answerer, **limits)


def run_many(scenarios: Iterable, **options) -> Iterator[Outcome]:
    """Answer many scenarios (texts, paths, or (name, text) pairs): one
    `mtgkb.Outcome` per scenario, in input order, its `answer` or its
    `error`; an error does not stop the others. Options: `lang`,
    `answerer`, `workers`, and `run`'s limits. See
    mtgkb.running.api.run_many."""
    from mtgkb.running.api import run_many as answer_many

    return answer_many(scenarios, **options)


def __getattr__(name: str):
    """The public classes, imported on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'mtgkb' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
