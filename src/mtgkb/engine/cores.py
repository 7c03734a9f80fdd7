"""Minimal sets of CR rules: switches over rule numbers and cores over them.

Each tagged rule of `rules/` gets a body atom `_on(K)`, true when one of its
CR numbers is active (`_active(rule("N"))`, an external). Solving under
assumptions on those externals says whether a set of rules alone makes a
program unsatisfiable; `minimal_rules` shrinks such a set (the solver's
unsatisfiable core, then deletion) until removing any one rule makes the
program satisfiable again. `switched_control` grounds switched rules with
other files and facts; `forbid`, `optimum` and `shrink` serve what a core
cannot say (a wrong optimum: the rules without which it is right).

Used by the audit (the rules behind a contradiction) and by `ask explain`
(the rules that together forbid an illegal play). Nothing here is a game rule.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.engine.programs import add_facts, external_parts, quiet, solve_within
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.encoded import FileScan, label
from mtgkb.rulebase.index import sort_key


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
    switches = _switch(scans, lambda st: list(st.tags) if st.tags else [])
    switches.numbers.sort(key=sort_key)
    return switches


def switch_statements(scans: Iterable[FileScan]) -> Switches:
    """Give each rule statement of the scanned files (tagged or not) a switch
    of its own, named by its place: `_active(rule("rules/FILE.lp:LINE"))`.
    `numbers` are then those places and `sites` maps each to itself."""
    return _switch(scans, lambda st: [label(st.file, st.line)])


def _switch(scans: Iterable[FileScan], names) -> Switches:
    """Give each rule statement that `names(statement)` names switches for a
    body atom `_on(K)`, on while any of its `_active(rule(Name))` is;
    `sites` maps each name to the places of its rules (each once)."""
    statements: list[cast.AST] = []
    extra: list[str] = []
    sites: dict[str, list[str]] = {}
    k = 0
    for scan in scans:
        for st in scan.statements:
            node = st.ast
            if node is None:
                continue
            switched_by = names(st) if st.kind == "Rule" else []
            if switched_by:
                k += 1
                node = _switched(node, k)
                place = label(st.file, st.line)
                for name in switched_by:
                    extra.append(f"_on({k}) :- _active(rule({clingo.String(name)})).")
                    if place not in sites.setdefault(name, []):
                        sites[name].append(place)
            statements.append(node)
    numbers = list(sites)
    # externals, not choices: they stay frozen, so assumptions and cores over them are exact
    extra += [f"#external _active(rule({clingo.String(n)}))." for n in numbers]
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
    made = copy.deepcopy(node)  # (in place on a copy: `update` reads every field back)
    made.body.append(on)
    return made


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


def switched_control(
    switches: Switches,
    files: Iterable[Path],
    facts: Sequence[clingo.Symbol] = (),
    *,
    externals: Iterable[clingo.Symbol] = (),
    options: Sequence[str] = (),
) -> tuple[clingo.Control, list[str]]:
    """The switched statements, the `files` (kb/, queries, ...) and the `facts`,
    grounded, with the `externals` and the switches free: each solve's
    assumptions decide. Returns the control and the CR numbers (or places)
    whose switch is in the grounding."""
    ctl = new_control(list(options), quiet)
    add_statements(ctl, switches.statements)
    for path in files:
        ctl.load(str(path))
    ctl.add("base", [], switches.extra)
    add_facts(ctl, list(facts))
    ctl.ground([("base", []), *external_parts(ctl, list(externals), "free")])
    atoms = ctl.symbolic_atoms
    present = [n for n in switches.numbers if atoms[active(n)] is not None]
    for n in present:
        ctl.assign_external(active(n), None)
    return ctl, present


def forbid(ctl: clingo.Control, atoms: Iterable[clingo.Symbol]) -> int:
    """A fresh literal that, assumed true, forbids each of these atoms."""
    with ctl.backend() as backend:
        switch = backend.add_atom()
        backend.add_rule([switch], choice=True)
        for sym in atoms:
            backend.add_rule([], [switch, backend.add_atom(sym)])
    return switch


def optimum(
    ctl: clingo.Control, assumptions: Sequence[int], timeout: float
) -> tuple[bool, list[clingo.Symbol] | None, list[int]]:
    """(satisfiable, the shown atoms of the first optimal model, its cost) under
    `assumptions`; the control is left enumerating optimal models (optN).
    Raises Budget when no optimum is proven within `timeout` seconds."""
    ctl.configuration.solve.opt_mode = "optN"
    ctl.configuration.solve.models = "0"
    deadline = time.monotonic() + timeout
    sat = False
    with ctl.solve(assumptions=list(assumptions), yield_=True) as handle:
        for model in handle:
            sat = True
            if model.cost and not model.optimality_proven:
                if time.monotonic() > deadline:
                    raise Budget()
                continue
            return True, model.symbols(shown=True), list(model.cost)
    return sat, None, []


def shrink(
    ctl: clingo.Control,
    numbers: Sequence[str],
    holds: Callable[[list[int]], bool],
    timeout: float,
) -> list[str] | None:
    """A deletion-minimal set of the CR `numbers` whose rules alone (the others
    switched off) keep `holds(assumptions)` true; None when it is false with
    all of them on. For what no core says, such as a wrong optimum."""
    lit = {n: ctl.symbolic_atoms[active(n)].literal for n in numbers}
    deadline = time.monotonic() + timeout

    def test(keep: set[str]) -> bool:
        if time.monotonic() > deadline:
            raise Budget()
        return holds([lit[n] if n in keep else -lit[n] for n in lit])

    current = set(lit)
    if not test(current):
        return None
    for n in sorted(lit, key=sort_key):
        if test(current - {n}):
            current.discard(n)
    return sorted(current, key=sort_key)


__all__ = [
    "Budget",
    "Switches",
    "active",
    "add_statements",
    "forbid",
    "minimal_rules",
    "optimum",
    "shrink",
    "solve_assuming",
    "switch_rules",
    "switch_statements",
    "switched_control",
]
