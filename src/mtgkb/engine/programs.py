"""Small helpers every module that runs clingo shares (nothing here knows a rule).

- `quiet`: a clingo logger that keeps clingo's warnings (undefined atoms and
  the like) from the user, who did not write the programs;
- `add_facts`: facts into a Control, as text (tests, `mtgkb facts`) or as
  symbols through the backend (so a user's name stays data);
- `external_parts`: atoms declared externals for the next ground(), as
  program parts whose parameters are the atoms' arguments (not through
  the backend, which gringo does not read as externals);
- `solve_within`: one solve, in a solve thread only when a time limit asks
  for one;
- `stamp`: what identifies the files' contents on disk (path, mtime, size),
  for caches; a file that is gone is left out;
- `release_trees_at_exit`: clingo syntax trees kept between calls, freed
  when the process ends, before Python clears its modules.
"""

from __future__ import annotations

import atexit
import functools
import re
import weakref
from collections.abc import Sequence

import clingo

from mtgkb.rulebase.control import quiet
from mtgkb.rulebase.location import file_stamp as stamp

__all__ = [
    "add_facts",
    "external_parts",
    "quiet",
    "release_trees_at_exit",
    "solve_within",
    "stamp",
]


def add_facts(ctl: clingo.Control, facts: str | Sequence[clingo.Symbol]) -> None:
    """Facts as text (tests, `mtgkb facts`) or as symbols (a user's name stays data)."""
    if isinstance(facts, str):
        ctl.add("base", [], facts)
        return
    with ctl.backend() as backend:
        for sym in facts:
            backend.add_rule([backend.add_atom(sym)])


#: A name gringo reads as it is (mtgkb's own predicates: never a user's string).
_NAME = re.compile(r"[a-z_][A-Za-z0-9_]*")


def external_parts(
    ctl: clingo.Control, symbols: Sequence[clingo.Symbol], value: str = "false"
) -> list[tuple[str, list[clingo.Symbol]]]:
    """Declare `symbols` externals of `ctl` (each false or free until a solve
    says otherwise: `value` "false" or "free") in the ground() that grounds
    the parts returned. One program part for each name, arity and sign,
    `#external name(x1,...,xn). [value]`, grounded once for each symbol with
    its arguments as the parameters: a user's string stays data.

    Not through the backend: atoms it adds as externals before a ground()
    are not externals to gringo, which then dropped some instances of the
    rules that read them (clingo 5.8.3: with `asked(blocks("Kim"))` and
    `asked(blocks("Alex"))` both added so, `block_decider(Q) :-
    asked(blocks(P)), ...` kept no instance for P = Kim, and `ask blocks for
    Kim` under shared team turns missed every part a teammate completes;
    potassco/clingo#248 is another case of that optimisation)."""
    if value not in ("false", "free"):
        raise ValueError(f"an external is false or free, not {value}")
    parts: list[tuple[str, list[clingo.Symbol]]] = []
    declared: set[str] = set()
    for symbol in symbols:
        name, arity, negative = symbol.name, len(symbol.arguments), not symbol.positive
        if _NAME.fullmatch(name) is None:
            raise ValueError(f"no external of the name {name!r}")
        part = f"_mtgkb_external_{'not_' if negative else ''}{name}_{arity}_{value}"
        if part not in declared:
            declared.add(part)
            parameters = [f"x{i}" for i in range(arity)]
            atom = f"{'-' if negative else ''}{name}"
            if parameters:
                atom += f"({','.join(parameters)})"
            ctl.add(part, parameters, f"#external {atom}. [{value}]")
        parts.append((part, list(symbol.arguments)))
    return parts


def solve_within(
    ctl: clingo.Control,
    seconds: float | None,
    stop: type[BaseException],
    **options,
) -> clingo.SolveResult:
    """Solve `ctl` with clingo's solve `options` (`on_model`, `assumptions`,
    `on_core`);
    with a time limit (`seconds` >= 0) in clingo's solve thread, cancelled at
    the limit by raising `stop()`; without one, in this thread. A run under a
    memory bound must not make threads it does not need: glibc aborts the
    whole process when a new thread's own memory cannot be had, where a
    failed allocation in this thread is a MemoryError the run reports."""
    if seconds is None or seconds < 0:
        return ctl.solve(**options)
    on_core = options.pop("on_core", None)
    try:
        handle = ctl.solve(async_=True, **options)
    except RuntimeError as err:  # no thread could be made: the memory bound is reached
        raise MemoryError(str(err)) from err
    with handle:
        if not handle.wait(seconds):
            handle.cancel()
            raise stop()
        result = handle.get()
        if on_core is not None and result.unsatisfiable:
            on_core(handle.core())  # clingo calls no on_core in asynchronous solving
        return result


#: What keeps clingo syntax trees between calls (`release_trees_at_exit`).
_TREE_KEEPERS: weakref.WeakSet = weakref.WeakSet()


def release_trees_at_exit(keeper) -> None:
    """Have `keeper.release_trees()` called when the process exits, before
    Python clears the globals of the modules still alive. clingo.ast is
    imported where a tree is first made (a run answered from cached analyses
    makes none), so it is cleared before the modules imported ahead of it,
    whose caches keep trees: a tree freed after that raised in clingo's
    finaliser (AST.__del__) and printed a traceback as the process ended."""
    _registered()
    _TREE_KEEPERS.add(keeper)


@functools.cache
def _registered() -> None:
    atexit.register(_release_trees)


def _release_trees() -> None:
    for keeper in list(_TREE_KEEPERS):
        keeper.release_trees()
