"""Minimal sets of CR rules: switches over rule numbers and cores over them.

Each tagged rule of `rules/` gets a body atom `_on(K)`, true when one of its
CR numbers is active (`_active(rule("N"))`, an external). Solving under
assumptions on those externals says whether a set of rules alone makes a
program unsatisfiable; `minimal_rules` shrinks such a set (the solver's
unsatisfiable core, then deletion) until removing any one rule makes the
program satisfiable again.

Used by the audit (the rules behind a contradiction) and by `ask explain`
(the rules that together forbid an illegal play). Nothing here is a game rule.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import clingo
import clingo.ast as cast

from mtgkb.engine.programs import solve_within
from mtgkb.rulebase.index import FileScan, label, sort_key


def active(number: str) -> clingo.Symbol:
    """The external atom that switches the rules tagged with CR `number` on."""
    return clingo.Function("_active", [clingo.Function("rule", [clingo.String(number)])])


class Budget(Exception):
    """The time allowed for finding the rules ran out."""


@dataclass
class Switches:
    """Rule statements with their switch atoms, and the program defining the switches."""

    statements: list[cast.AST]  # every statement of the scanned files, switched where tagged
    extra: str  # `_on(K) :- _active(rule("N")).` lines and the `#external` declarations
    numbers: list[str]  # the CR numbers that have a switch, in numeric order
    sites: dict[str, list[str]]  # CR number -> `rules/FILE.lp:LINE` of its rules


def switch_rules(scans: Iterable[FileScan]) -> Switches:
    """Give each tagged rule of the scanned files a body atom `_on(K)`."""
    statements: list[cast.AST] = []
    extra: list[str] = []
    sites: dict[str, list[str]] = {}
    k = 0
    for scan in scans:
        for st in scan.statements:
            node = st.ast
            if node is None:
                continue
            if st.kind == "Rule" and st.tags:
                k += 1
                node = _switched(node, k)
                for num in st.tags:
                    extra.append(f'_on({k}) :- _active(rule("{num}")).')
                    sites.setdefault(num, []).append(label(st.file, st.line))
            statements.append(node)
    numbers = sorted(sites, key=sort_key)
    # externals, not choices: they stay frozen, so assumptions and cores over them are exact
    extra += [f'#external _active(rule("{n}")).' for n in numbers]
    return Switches(statements, "\n".join(extra), numbers, sites)


def _switched(node: cast.AST, k: int) -> cast.AST:
    """The rule `node` with `_on(k)` added to its body: it holds only while
    switch k is on."""
    loc = node.location
    on = cast.Literal(
        loc,
        cast.Sign.NoSign,
        cast.SymbolicAtom(cast.Function(loc, "_on", [cast.SymbolicTerm(loc, clingo.Number(k))], 0)),
    )
    return node.update(body=[*node.body, on])


def switch_statements(scans: Iterable[FileScan]) -> Switches:
    """Give each rule statement of the scanned files (tagged or not) a switch
    of its own, named by its place: `_active(rule("rules/FILE.lp:LINE"))`.
    `numbers` are then those places and `sites` maps each to itself."""
    statements: list[cast.AST] = []
    extra: list[str] = []
    sites: dict[str, list[str]] = {}
    k = 0
    for scan in scans:
        for st in scan.statements:
            node = st.ast
            if node is None:
                continue
            if st.kind == "Rule":
                k += 1
                node = _switched(node, k)
                place = label(st.file, st.line)
                extra.append(f"_on({k}) :- _active(rule({clingo.String(place)})).")
                sites[place] = [place]
            statements.append(node)
    numbers = list(sites)
    extra += [f"#external _active(rule({clingo.String(n)}))." for n in numbers]
    return Switches(statements, "\n".join(extra), numbers, sites)


def add_statements(ctl: clingo.Control, statements: Iterable[cast.AST]) -> None:
    with cast.ProgramBuilder(ctl) as builder:
        for stmt in statements:
            builder.add(stmt)


def solve_assuming(
    ctl: clingo.Control, assumptions: list[int], timeout: float, watch: str | None = None
) -> tuple[bool, set[clingo.Symbol], list[int]]:
    """(satisfiable, the arguments of the `watch/1` atoms of the models, core literals)."""
    watched: set[clingo.Symbol] = set()
    core: list[int] = []

    def on_model(model: clingo.Model) -> None:
        if watch is None:
            return
        for sym in model.symbols(atoms=True):
            if sym.name == watch and len(sym.arguments) == 1:
                watched.add(sym.arguments[0])

    result = solve_within(
        ctl, timeout, Budget, assumptions=assumptions, on_model=on_model, on_core=core.extend
    )
    return bool(result.satisfiable), watched, core


def minimal_rules(
    ctl: clingo.Control, numbers: Sequence[str], timeout: float = 10.0, fixed: Sequence[int] = ()
) -> list[str] | None:
    """A minimal set of CR numbers whose rules alone (the other `numbers`
    deactivated, the `fixed` literals assumed) make the program unsatisfiable:
    an unsatisfiable core over the activation atoms, shrunk by deletion.
    None when the program is satisfiable with all of them on."""
    atoms = ctl.symbolic_atoms
    lit = {n: atoms[active(n)].literal for n in numbers if atoms[active(n)] is not None}
    back = {v: n for n, v in lit.items()}
    deadline = time.monotonic() + timeout

    def unsat(keep: set[str]) -> set[str] | None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Budget()
        assumptions = [*fixed] + [lit[n] if n in keep else -lit[n] for n in lit]
        sat, _, core = solve_assuming(ctl, assumptions, left)
        if sat:
            return None
        return {back[c] for c in core if c in back and back[c] in keep}

    everything = set(lit)
    core = unsat(everything)
    if core is None:
        return None
    current = core if unsat(core) is not None else everything
    for n in sorted(current, key=sort_key):
        if n not in current:
            continue
        trial = current - {n}
        smaller = unsat(trial)
        if smaller is not None:
            # that core was found with every other rule off, so it is unsatisfiable alone
            current = smaller
    return sorted(current, key=sort_key)


__all__ = [
    "Budget",
    "Switches",
    "active",
    "add_statements",
    "minimal_rules",
    "solve_assuming",
    "switch_rules",
    "switch_statements",
]
