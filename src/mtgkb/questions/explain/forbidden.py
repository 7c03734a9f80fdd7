"""Illegal plays: for each, the smallest set of CR rules that together forbid
it, a minimal unsatisfiable core over CR-number switches (mtgkb.engine.cores)
of "the play, and none of its violations holds"."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache

import clingo
import clingo.ast as cast

from mtgkb.engine.analysis import FactReadings
from mtgkb.engine.cores import (
    Budget,
    active,
    add_statements,
    minimal_rules,
    shrink,
    switch_rules,
)
from mtgkb.engine.programs import quiet, solve_within, stamp
from mtgkb.engine.scenarios import Readings
from mtgkb.engine.solve import give_facts
from mtgkb.questions.explain.graph import Graph, own_rule
from mtgkb.questions.explain.text import describe
from mtgkb.questions.explain.trace import (
    GRAPH_HEADS,
    GRAPH_NAME,
    fact_signatures_for,
    idle_statements,
    term_name,
    term_of,
)
from mtgkb.questions.symbols import names_in
from mtgkb.rulebase.citations import load as load_program
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.encoded import prepare_trees, scan_folder
from mtgkb.rulebase.index import sort_key
from mtgkb.rulebase.location import data_dir, program_files, query_file, rule_files

CORE_TIMEOUT = 5.0


def _head_name(node: cast.AST) -> str | None:
    head = getattr(node, "head", None)
    if head is None or head.ast_type != cast.ASTType.Literal:
        return None
    term = term_of(head.atom)
    return getattr(term, "name", None) if term is not None else None


def _graph_rule(node: cast.AST) -> bool:
    """A rule whose head is an atom of the explanation graph, told by its text
    (one call into clingo, where reading its head takes several): `Head :-
    Body.` or `Head.`, Head perhaps negated; its syntax tree where the head's
    text is not one function term with arguments and names the graph."""
    text = str(node)
    if GRAPH_NAME.search(text) is None:
        return False
    head, colon, _ = text.partition(" :- ")
    if not colon:
        head = text[:-1]
    atom = head
    while atom.startswith("not "):
        atom = atom[4:]
    name = term_name(atom)
    if name is not None and name != atom:
        return name in GRAPH_HEADS
    return GRAPH_NAME.search(head) is not None and _head_name(node) in GRAPH_HEADS


@lru_cache(maxsize=8)
def _switches(state: tuple, within: frozenset[str] | None, idle: frozenset = frozenset()):
    """The rules of `rules/` with a switch on each rule whose CR numbers are
    all among `within` (the numbers some play may switch off; None: every
    number). A rule with a number outside `within` is on in every question
    asked of it, so it stays plain and the grounder can settle it; the
    explanation graph is left out, and so are the statements at `idle`
    places ((file stamp, place): `idle_statements`), before they are read."""
    scans = []
    for scan in scan_folder(data_dir("rules")):
        kept = []
        (entry,) = stamp([scan.path]) or [None]
        taken = [
            (place, st)
            for place, st in enumerate(scan.statements, start=1)
            if (entry, place) not in idle
        ]
        prepare_trees(st for _, st in taken)  # (the idle ones are not parsed)
        for _, st in taken:
            if st.ast is None:
                continue
            if _graph_rule(st.ast):
                continue  # the explanation graph: no rule reads it, no core needs it
            if st.tags and within is not None and not set(st.tags) <= within:
                st = replace(st, tags=())
            kept.append(st)
        scans.append(replace(scan, statements=kept))
    return switch_rules(scans)


def _plays(violations: Sequence[clingo.Symbol]) -> list[list[clingo.Symbol]]:
    """Violations grouped by play: those whose objects overlap by inclusion."""
    groups: list[tuple[set[str], list[clingo.Symbol]]] = []
    loose: list[clingo.Symbol] = []
    for v in sorted(violations, key=lambda s: -len(set(names_in(s.arguments[1])))):
        names = set(names_in(v.arguments[1]))
        if not names:
            loose.append(v)
            continue
        for objs, members in groups:
            if names <= objs or objs <= names:
                objs |= names
                members.append(v)
                break
        else:
            groups.append((set(names), [v]))
    out = [members for _, members in groups]
    if loose:
        out.append(loose)
    return out


def candidate_rules(g: Graph, group: Sequence[clingo.Symbol]) -> set[str]:
    """The rules the violations name or cite, and those their sub-conclusions cite."""
    found: set[str] = set()
    todo = list(group)
    seen: set[clingo.Symbol] = set()
    while todo:
        sym = todo.pop()
        if sym in seen or len(seen) > 50:
            continue
        seen.add(sym)
        own = own_rule(sym)
        if own:
            found.add(own)
        found |= g.because.get(sym, set())
        todo += g.rests.get(sym, [])
    return found


class Forbidder:
    """A query (the legal one, or `ask can`'s) with CR-number switches,
    grounded once per scenario."""

    def __init__(
        self,
        facts: Sequence[clingo.Symbol],
        query: str = "legal",
        candidates: Iterable[str] | None = None,
        engine=None,
        readings: Readings | FactReadings | None = None,
    ):
        """`engine`: the one the questions are answered with, whose rule
        base's analysis slices the switched program as the query's grounding
        is sliced (None: it is not; `readings`: what slicing read of the
        facts for another question of theirs)."""
        files = program_files(data_dir("rules"))
        within = frozenset(candidates) if candidates is not None else None
        idle = idle_statements(engine, query, facts, readings, traced=False)
        self.switches = _switches(stamp(files), within, idle)
        ctl = new_control(["--models=1"], quiet)
        add_statements(ctl, self.switches.statements)
        ctl.add("base", [], self.switches.extra)
        for path in rule_files():
            if path.parent.name != "rules":
                load_program(ctl, path)  # kb/ and added files, with their generated citations
        ctl.load(str(query_file(query)))
        given = give_facts(ctl, facts, fact_signatures_for(engine, facts, (query,)))
        ctl.ground([("base", [])], context=given)
        self.ctl = ctl
        atoms = ctl.symbolic_atoms
        self.present = [n for n in self.switches.numbers if atoms[active(n)] is not None]
        #: the value each switch's external was last given (None: free)
        self._assigned: dict[str, bool | None] = {}
        #: each play's switch literal and the violations it forbids (`prepare`)
        self._switch: dict[tuple[clingo.Symbol, ...], tuple[int, list[clingo.Symbol]]] = {}

    def prepare(self, groups: Iterable[Sequence[clingo.Symbol]]) -> None:
        """A switch for each play, all added at once: each backend opened on
        a grounded program is a new step of clingo's (an update of the whole
        program, about as long as a play's solves), so one for all the plays."""
        ctl = self.ctl
        todo = [tuple(group) for group in groups if tuple(group) not in self._switch]
        if not todo:
            return
        with ctl.backend() as backend:
            for group in todo:
                # only the violations seen with every rule on: a rule switched
                # off may bring others (a blocker no longer defending), which
                # are not the reason
                watched = [v for v in group if ctl.symbolic_atoms[v] is not None]
                switch = backend.add_atom()
                backend.add_rule([switch], choice=True)
                for v in watched:
                    backend.add_rule([], [switch, backend.add_atom(v)])
                self._switch[group] = (switch, watched)

    def rules(self, group: Sequence[clingo.Symbol], candidates: set[str], timeout: float):
        """(minimal rules, how they were found) for one play."""
        ctl = self.ctl
        free = [n for n in self.present if n in candidates]
        if not free:
            return None, None
        for n in self.present:
            value = None if n in candidates else True
            if self._assigned.get(n, False) != value:  # (unassigned: false)
                ctl.assign_external(active(n), value)
                self._assigned[n] = value
        self.prepare([group])
        switch, watched = self._switch[tuple(group)]
        ctl.configuration.solve.opt_mode = "ignore"
        rules = minimal_rules(ctl, free, timeout, fixed=[switch])
        if rules is not None:
            return rules, "core"
        # Sat with every rule on: the violation needs the best hypothetical
        # declaration (508.1d, 509.1c), which a constraint can dodge. Ask the
        # optimum instead: shrink while the best answer still breaks the rule.
        rules = self._shrink_optimal(free, set(watched), -switch, timeout)
        return rules, ("optimum" if rules is not None else None)

    def _shrink_optimal(self, free, watched, off, timeout) -> list[str] | None:
        ctl = self.ctl
        deadline = time.monotonic() + timeout
        ctl.configuration.solve.opt_mode = "optN"  # the last model is a proven optimum

        def forbidden(assumptions: list[int]) -> bool:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Budget()
            last: list[set] = [set()]

            def take(model):
                last[0] = {s for s in model.symbols(atoms=True) if s in watched}

            solve_within(ctl, left, Budget, assumptions=[off, *assumptions], on_model=take)
            return bool(last[0])

        return shrink(ctl, free, forbidden, timeout)


def forbidden_plays(
    g: Graph,
    facts,
    violations,
    timeout: float,
    lang: str = "en",
    engine=None,
    readings: Readings | FactReadings | None = None,
) -> list[dict]:
    """For each illegal play: its violations, objects and the minimal rules
    forbidding it (`engine`, `readings`: see Forbidder)."""
    if not violations:
        return []
    groups = _plays(violations)
    candidates = [candidate_rules(g, group) for group in groups]
    forbidder = Forbidder(
        facts, candidates=set().union(*candidates), engine=engine, readings=readings
    )
    forbidder.prepare(group for group, found in zip(groups, candidates, strict=True) if found)
    out = []
    for group, found in zip(groups, candidates, strict=True):
        objects: list[str] = []
        for v in group:
            for name in names_in(v.arguments[1]):
                if name not in objects:
                    objects.append(name)
        own = sorted({own_rule(v) for v in group if own_rule(v)}, key=sort_key)
        try:
            rules, how = forbidder.rules(group, found, timeout)
        except Budget:
            rules, how = None, None
        item = {"rules": rules if rules else own, "objects": objects}
        if not rules:
            item["minimal"] = False  # not found: the rules the violations name
        item["violations"] = [describe(v, g.messages, lang) for v in group]
        item["_group"] = group
        item["_how"] = how
        out.append(item)
    return out
