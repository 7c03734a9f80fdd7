"""Grounding and solving: the rule base, one query and the facts of a scenario.

Nothing here knows a game rule; it only runs clingo with a model cap and a
time-out and hands the shown atoms of each model to the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import clingo

from .paths import query_file, rule_files

ModelCallback = Callable[[Sequence[clingo.Symbol]], None]


class SolveTimeout(Exception):
    """The time-out stopped the work before clingo finished."""


@dataclass
class SolveResult:
    """What a solve gave: the number of (optimal) models and whether it finished."""

    count: int = 0
    complete: bool = True
    satisfiable: bool = False
    models: list[list[clingo.Symbol]] = field(default_factory=list)


def _program_text(files: Iterable) -> str:
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


def _control(args: list[str]) -> clingo.Control:
    return clingo.Control(args, logger=lambda code, msg: None)


def solve(
    query: str,
    facts: Sequence[clingo.Symbol] | str,
    *,
    max_models: int = 0,
    keep: int | None = None,
    timeout: float | None = None,
    on_model: ModelCallback | None = None,
    project: bool = True,
) -> SolveResult:
    """Solve the rule base with `queries/<query>.lp` and the scenario facts.

    `facts` are clingo symbols (user strings stay data) or, for tests and plain
    clingo users, fact text. `max_models` caps the enumeration (0: all);
    `keep` is how many models to keep in the result (None: all); every model
    is also passed to `on_model`. With a `#minimize`/`#maximize` in the
    program only the optimal models are counted.
    """
    args = ["--models", str(max_models)]
    if project:
        args.append("--project=show")
    ctl = _control(args)
    ctl.add("base", [], _program_text(rule_files() + [query_file(query)]))
    if isinstance(facts, str):
        ctl.add("base", [], facts)
    else:
        with ctl.backend() as backend:
            for symbol in facts:
                backend.add_rule([backend.add_atom(symbol)])
    ctl.ground([("base", [])])
    # optN: with a #minimize/#maximize, enumerate every optimal model.
    ctl.configuration.solve.opt_mode = "optN"
    result = SolveResult()

    def take(model: clingo.Model) -> None:
        if model.cost and not model.optimality_proven:
            return
        symbols = model.symbols(shown=True)
        result.count += 1
        if keep is None or len(result.models) < keep:
            result.models.append(symbols)
        if on_model is not None:
            on_model(symbols)

    with ctl.solve(on_model=take, async_=True) as handle:
        if not handle.wait(timeout if timeout is not None else -1):
            handle.cancel()
            raise SolveTimeout()
        outcome = handle.get()
    result.satisfiable = bool(outcome.satisfiable)
    result.complete = bool(outcome.exhausted)
    return result


def models_as_text(query: str, facts: str, **options) -> list[set[str]]:
    """Every model's shown atoms as strings: a convenience for rule tests."""
    result = solve(query, facts, **options)
    return [{str(s) for s in model} for model in result.models]
