"""`mtgkb audit`: the rule base checks itself.

- coverage: each rule of the index, where it is encoded (rules that only
  cite it, `because/2` and `rests_on/2`, are `cited_at`) and what tests it;
- lint: untagged ASP rules, tags naming rules outside the index, indexed
  rules encoded nowhere, undefined atoms (clingo's logger), and, as warnings,
  derived predicates nobody reads and encoded rules no test names;
- consistency: over the examples, the conformance cases beside the checkout
  and a generated corpus (`mtgkb.audit.corpus`: every table of 2-6 players across
  variants and options, and random combats), as scenario text: one starting
  and one final life total per player or team; no player lost with life above
  0 (or despite "can't lose the game"); every defending player an opponent of
  the attacking player; every asked question answered; every asked order
  existing where something is pending; every attack and block declaration
  `ask attacks` / `ask blocks` list (the first `FEED_BACK`), fed back as the
  declaration, legal for `ask legal`, and the declaration written, when
  legal, listed; "no blocks" legal and listed where no creature must block.
  A contradiction is reported with the minimal set of CR rules responsible
  (an unsatisfiable core over one activation atom per CR number, shrunk by
  deletion; for a wrong optimum, the rules without which it is right);
- editions: with `--cr FILE`, cited numbers missing from that edition and
  rules whose text changed since the edition they were encoded from.

Nothing here is a game rule: the checks are questions asked of the rules.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.audit.kinds import missing_texts
from mtgkb.engine.citations import load as load_program
from mtgkb.engine.control import new_control
from mtgkb.engine.cores import (
    Budget,
    active,
    add_statements,
    minimal_rules,
    solve_assuming,
    switch_rules,
    switch_statements,
)
from mtgkb.engine.programs import add_facts, quiet
from mtgkb.questions import registry
from mtgkb.questions.registry import QUERY_OF
from mtgkb.questions.symbols import atoms as symbol_atoms
from mtgkb.questions.symbols import names_in, sequence, value
from mtgkb.rulebase.index import (
    EDITION,
    CRText,
    FileScan,
    RuleIndex,
    example_folders,
    label,
    load_index,
    read_cr,
    scan_file,
    scan_folder,
    sort_key,
    tested_map,
)
from mtgkb.rulebase.location import NOT_SOLVED, data_dir
from mtgkb.rulebase.location import RuleBase as RuleBaseInfo
from mtgkb.rulebase.location import current as current_rule_base

#: The explanation graph is read by the renderer, not by other rules.
PUBLIC_GRAPH = {"because", "rests_on", "violation", "cites"}

#: The checks run on each scenario of the corpus. `_audit_conflict(K)` names
#: what went wrong. To find the rules responsible, the conflicts seen are then
#: forbidden (a constraint each) and the rules are switched off and on.
CHECK_PROGRAM = """
#defined starting_life/2. #defined life/2. #defined team_life/2. #defined on_team/2.
#defined player/1. #defined lost/1. #defined event/2. #defined team/2.
#defined attacking_player/1. #defined defending/1. #defined opponent/2.
_audit_conflict(two_starting_life(X,N,M)) :- starting_life(X,N), starting_life(X,M), N < M.
_audit_conflict(two_life(X,N,M)) :- life(X,N), life(X,M), N < M.
_audit_conflict(two_team_life(X,N,M)) :- team_life(X,N), team_life(X,M), N < M.
_audit_has_start(P) :- starting_life(P,_).
_audit_has_start(P) :- on_team(P,T), starting_life(T,_).
_audit_conflict(no_starting_life(P)) :- player(P), not _audit_has_start(P), _audit_starts.
_audit_cant_lose(P) :- event(_,cant_lose_game(P)).
_audit_conflict(lost_with_life(P,N)) :- lost(P), life(P,N), N > 0, not _audit_cant_lose(P).
_audit_conflict(lost_despite_cant_lose(P)) :- lost(P), _audit_cant_lose(P).
_audit_conflict(defends_against_self(P)) :- attacking_player(P), defending(P).
_audit_conflict(defending_not_opponent(A,Q)) :-
    attacking_player(A), defending(Q), A != Q, not opponent(A,Q).
_audit_conflict(defending_teammate(A,Q)) :-
    attacking_player(A), defending(Q), A != Q, team(T,A), team(T,Q).
"""
#: Added when the rule base derives starting_life/2 at all.
CHECK_STARTS = "_audit_starts.\n"
#: Added when the outcome query is part of the program: every player has a final life.
CHECK_OUTCOME = """
_audit_has_life(P) :- life(P,_).
_audit_conflict(no_life(P)) :- player(P), not _audit_has_life(P).
"""

#: Conflicts about an atom the rules fail to derive: the predicate missing.
#: The rules deriving it are named beside the minimal rules that force the rest.
MISSING = {
    "no_starting_life": ("starting_life", 2),
    "no_life": ("life", 2),
    "defending_not_opponent": ("opponent", 2),
}

CONFLICT_MESSAGES = {
    "two_starting_life": "{0} has two starting life totals, {1} and {2}",
    "two_life": "{0} ends with two life totals, {1} and {2}",
    "two_team_life": "team {0} ends with two life totals, {1} and {2}",
    "no_starting_life": "{0} has no starting life total",
    "no_life": "{0} has no final life total",
    "lost_with_life": "{0} lost the game with {1} life, and nothing else makes them lose",
    "lost_despite_cant_lose": "{0} lost the game although they can't lose the game",
    "defends_against_self": "{0} is both an attacking player and a defending player",
    "defending_not_opponent": (
        "{1} is a defending player but no opponent of the attacking player {0}"
    ),
    "defending_teammate": "{1} is a defending player but on the team of the attacking player {0}",
}


# --------------------------------------------------------------------------
# Where the rule base is
# --------------------------------------------------------------------------


@dataclass
class Base:
    root: Path
    rules: Path
    kb: Path
    queries: Path | None
    extra: tuple[Path, ...] = ()  # the user's files added after the rule base (`--with`)

    @classmethod
    def at(cls, root: Path | None, extra: Sequence[Path] | None = None) -> Base:
        """The rule base in `root`, or (None) the one in use (`mtgkb.rulebase.location`),
        with the added files `extra` (for None, those of the rule base in use)."""
        if root is None:
            chosen = current_rule_base()
            root = chosen.root
            extra = chosen.extra if extra is None else extra
        root = Path(root)
        queries = root / "queries"
        return cls(
            root,
            root / "rules",
            root / "kb",
            queries if queries.is_dir() else None,
            tuple(Path(p) for p in extra or ()),
        )

    def files(self, folder: Path | None) -> list[Path]:
        return sorted(folder.glob("*.lp")) if folder is not None and folder.is_dir() else []

    def query_files(self) -> list[Path]:
        return self.files(self.queries)

    def rule_scans(self) -> list[FileScan]:
        """rules/ and the added files, scanned: the statements that encode rules."""
        scans = scan_folder(self.rules) if self.rules.is_dir() else []
        return scans + [scan_file(p) for p in self.extra]


def _lint(kind: str, message: str, where: str | None = None, rule: str | None = None) -> dict:
    item = {"kind": kind, "message": message}
    if where:
        item["where"] = where
    if rule:
        item["rule"] = rule
    return item


# --------------------------------------------------------------------------
# Predicates: what each program derives and reads (clingo.ast)
# --------------------------------------------------------------------------


def _collect(node, found: set[tuple[str, int]]) -> None:
    """Every predicate signature in atom position below `node`."""
    if node is None:
        return
    if not isinstance(node, cast.AST):
        try:
            for item in node:
                _collect(item, found)
        except TypeError:
            pass
        return
    if node.ast_type == cast.ASTType.SymbolicAtom:
        term = node.symbol
        if term.ast_type == cast.ASTType.Function and term.name:
            found.add((term.name, len(term.arguments)))
        elif term.ast_type == cast.ASTType.SymbolicTerm:
            sym = term.symbol
            if sym.type == clingo.SymbolType.Function and sym.name:
                found.add((sym.name, len(sym.arguments)))
        elif term.ast_type == cast.ASTType.Pool:
            for arg in term.arguments:
                if arg.ast_type == cast.ASTType.Function and arg.name:
                    found.add((arg.name, len(arg.arguments)))
        return
    for key in node.child_keys:
        _collect(getattr(node, key), found)


def _head_and_body(stmt: cast.AST) -> tuple[set, set]:
    heads: set[tuple[str, int]] = set()
    uses: set[tuple[str, int]] = set()
    kind = stmt.ast_type
    if kind == cast.ASTType.Rule:

        def head_part(node):
            t = node.ast_type
            if t == cast.ASTType.Literal:
                _collect(node, heads)
            elif t == cast.ASTType.ConditionalLiteral:
                head_part(node.literal)
                _collect(node.condition, uses)
            elif t in (cast.ASTType.Disjunction, cast.ASTType.Aggregate):
                for element in node.elements:
                    head_part(element)
            elif t == cast.ASTType.HeadAggregate:
                for element in node.elements:
                    head_part(element.condition)
            else:
                _collect(node, uses)

        head_part(stmt.head)
        _collect(stmt.body, uses)
    elif kind == cast.ASTType.ShowSignature:
        uses.add((stmt.name, stmt.arity))
    else:
        _collect(stmt, uses)
    return heads, uses


def _documented_names(root: Path) -> set[str]:
    """Predicate names the public schema documents (docs/predicates.md, in a checkout)."""
    doc = root / "docs" / "predicates.md"
    if not doc.is_file():
        return set()
    text = doc.read_text(encoding="utf-8")
    return set(re.findall(r"`([a-z_][A-Za-z0-9_]*)(?:\(|`)", text))


# --------------------------------------------------------------------------
# Lint
# --------------------------------------------------------------------------


_LOG_LINE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):\d+(?:-\d+(?::\d+)?)?: "
    r"(?P<level>info|warning|error): (?P<text>.*)$",
    re.S,
)


def _where(path_text: str, line: str) -> str:
    path = Path(path_text)
    return label(path, int(line)) if path.suffix == ".lp" else f"{path_text}:{line}"


def _keep(messages: list):
    return lambda code, msg: messages.append((code, msg))


def _logger_lint(base: Base) -> list[dict]:
    """Ground the rule base with each query (or alone) and keep clingo's complaints."""
    programs = [[q] for q in base.query_files()] or [[]]
    seen: set[tuple[str, str]] = set()
    found: list[dict] = []
    for extra in programs:
        messages: list[tuple[clingo.MessageCode, str]] = []
        ctl = new_control(["--warn=all"], _keep(messages))
        try:
            for path in base.files(base.rules) + base.files(base.kb) + list(base.extra) + extra:
                load_program(ctl, path)  # with its generated citations
            ctl.ground([("base", [])])
        except RuntimeError:
            pass  # the messages say why
        for code, msg in messages:
            match = _LOG_LINE.match(msg.strip())
            if match:
                where = _where(match.group("file"), match.group("line"))
                text = " ".join(match.group("text").split())
            else:
                where, text = None, " ".join(msg.split())
            if code == clingo.MessageCode.AtomUndefined:
                kind = "undefined"
            elif match and match.group("level") == "error":
                kind = "syntax"
            else:
                kind = "clingo"
            key = (where or "", text)
            if key not in seen:
                seen.add(key)
                found.append(_lint(kind, text, where))
    return found


@dataclass
class Scans:
    rules: list[FileScan]
    others: list[FileScan]  # kb/ and queries/: their tags must name indexed rules too

    def all(self) -> list[FileScan]:
        return self.rules + self.others


def _scan(base: Base) -> Scans:
    kb = (
        [s for s in scan_folder(base.kb) if s.path.name != "rule_index.lp"]
        if base.kb.is_dir()
        else []
    )
    queries = scan_folder(base.queries) if base.queries is not None else []
    return Scans(base.rule_scans(), kb + queries)


def tag_sites(scans: Scans) -> dict[str, list[str]]:
    """Every number named by a `% N` tag line -> where the tag lines are."""
    sites: dict[str, list[str]] = {}
    for scan in scans.all():
        for tag in scan.tags:
            for num in tag.numbers:
                sites.setdefault(num, []).append(label(tag.file, tag.line))
    return sites


def encoded_sites(scans: Scans, cited: bool = False) -> dict[str, list[str]]:
    """CR number -> the rules that encode it (with `cited`: that only cite it)."""
    found: dict[str, list[str]] = {}
    for scan in scans.rules:
        for st in scan.statements:
            if st.is_rule and st.tags and st.is_citation == cited:
                for num in st.tags:
                    found.setdefault(num, []).append(label(st.file, st.line))
    return found


def _tag_lint(scans: Scans, index: RuleIndex | None) -> list[dict]:
    found = []
    for scan in scans.all():
        for err in scan.errors:
            found.append(_lint("syntax", err, label(scan.path)))
        for tag in scan.tags:
            where = label(tag.file, tag.line)
            for bad in tag.malformed:
                found.append(_lint("malformed-tag", f"tag item {bad!r} is not a CR number", where))
            if index is not None:
                for num in tag.numbers:
                    if num not in index.entries:
                        found.append(
                            _lint(
                                "unknown-tag",
                                f"the tag names {num}, which is not in the rule index",
                                where,
                                num,
                            )
                        )
    for scan in scans.rules:
        for st in scan.statements:
            if st.is_rule and st.tags is None:
                found.append(
                    _lint(
                        "untagged",
                        "an ASP rule with no `% N: ...` tag line above it",
                        label(st.file, st.line),
                    )
                )
    return found


def _unused(base: Base, scans: Scans) -> list[dict]:
    heads: dict[tuple[str, int], str] = {}
    uses: set[tuple[str, int]] = set()
    for in_rules, group in ((True, scans.rules), (False, scans.others)):
        for scan in group:
            for st in scan.statements:
                if st.ast is None:
                    continue
                h, u = _head_and_body(st.ast)
                uses |= u
                if in_rules:
                    for sig in h:
                        heads.setdefault(sig, label(st.file, st.line))
    exempt = PUBLIC_GRAPH | _documented_names(base.root)
    out = []
    for (name, arity), where in sorted(heads.items()):
        if (name, arity) in uses or name in exempt or name.startswith("_"):
            continue
        out.append(
            _lint("unused", f"{name}/{arity} is derived but no program reads or shows it", where)
        )
    return out


# --------------------------------------------------------------------------
# Consistency: contradictions and the minimal set of rules behind them
# --------------------------------------------------------------------------

#: How many of the declarations `ask attacks` / `ask blocks` list are fed back
#: as declarations to `ask legal`.
FEED_BACK = 3
#: From how many scenarios the audit checks in two processes (on two cores or more).
PARALLEL_FROM = 24
#: The model cap of the audit's solves (the answers' `count` is then a lower bound).
MAX_MODELS = 5000
#: The queries whose answer is a list of orders, and the predicate of each.
ORDER_QUERIES = registry.ORDER_QUERIES
#: Input facts of the play and of what happens after it: left out when a
#: listed declaration is fed back on its own.
EVENT_FACTS = {"event", "event_source", "choice_item", "choice_in_order", "choice_hidden"}
NO_ANSWER = "the rules admit no answer"


@dataclass
class Prepared:
    """The rule base with one activation atom per CR number, parsed once."""

    statements: list[cast.AST]
    extra: str
    numbers: list[str]
    sites: dict[str, list[str]]
    others: list[Path]  # kb/ (less the rule index) and the query of the life checks
    derives_starting_life: bool
    has_outcome: bool
    kb: list[Path] = field(default_factory=list)
    queries: Path | None = None
    heads: dict[tuple[str, int], list[str]] = field(default_factory=dict)

    def query_path(self, query: str) -> Path | None:
        if self.queries is None:
            return None
        path = self.queries / f"{query}.lp"
        return path if path.is_file() else None


def prepare(base: Base, query: str | None = "outcome", by_statement: bool = False) -> Prepared:
    """Give each tagged rule of `rules/` a body atom `_on(K)`, true when one of its
    CR numbers is active (`_active(rule("N"))`, a free choice assumed true).
    `by_statement`: one switch per rule statement instead, named by its place
    (`rules/FILE.lp:LINE`), so that cores name statements."""
    scans = base.rule_scans()
    heads: dict[tuple[str, int], list[str]] = {}  # predicate -> CR numbers deriving it
    for scan in scans:
        for st in scan.statements:
            if st.ast is None or st.kind != "Rule":
                continue
            names = [label(st.file, st.line)] if by_statement else st.tags or ()
            for sig in _head_and_body(st.ast)[0]:
                known = heads.setdefault(sig, [])
                known += [n for n in names if n not in known]
    switches = switch_statements(scans) if by_statement else switch_rules(scans)
    kb = [p for p in base.files(base.kb) if p.name not in NOT_SOLVED]
    others = list(kb)
    query_path = base.queries / f"{query}.lp" if base.queries is not None and query else None
    has_outcome = query_path is not None and query_path.is_file()
    if has_outcome:
        others.append(query_path)
    return Prepared(
        switches.statements,
        switches.extra,
        switches.numbers,
        switches.sites,
        others,
        ("starting_life", 2) in heads,
        has_outcome,
        kb,
        base.queries,
        {sig: sorted(nums, key=sort_key) for sig, nums in heads.items()},
    )


def _conflict_message(sym: clingo.Symbol) -> str:
    args = [a.string if a.type == clingo.SymbolType.String else str(a) for a in sym.arguments]
    template = CONFLICT_MESSAGES.get(sym.name)
    return template.format(*args) if template else str(sym)


def _switched(
    prepared: Prepared,
    queries: str | Sequence[str] | None,
    facts: str | Sequence[clingo.Symbol],
    extra: str = "",
    options: Sequence[str] = (),
    others: Sequence[Path] | None = None,
    externals: Sequence[clingo.Symbol] = (),
) -> tuple[clingo.Control, list[str]]:
    """The rule base (every rule behind its switch), kb/, the queries and the
    facts, grounded, with `externals` free atoms; the switches free too.
    Returns the control and the CR numbers present."""
    ctl = new_control(list(options), quiet)
    add_statements(ctl, prepared.statements)
    for path in prepared.kb if others is None else others:
        ctl.load(str(path))
    if isinstance(queries, str):
        queries = [queries]
    for query in queries or ():
        path = prepared.query_path(query)
        if path is None:
            raise FileNotFoundError(f"queries/{query}.lp")
        ctl.load(str(path))
    ctl.add("base", [], prepared.extra + extra)
    add_facts(ctl, facts)
    if externals:
        with ctl.backend() as backend:
            for sym in externals:
                backend.add_external(backend.add_atom(sym), clingo.TruthValue.Free)
    ctl.ground([("base", [])])
    atoms = ctl.symbolic_atoms
    present = [n for n in prepared.numbers if atoms[active(n)] is not None]
    for n in present:
        ctl.assign_external(active(n), None)  # free: each solve's assumptions decide
    return ctl, present


def _all_on(ctl: clingo.Control, present: Sequence[str]) -> list[int]:
    return [ctl.symbolic_atoms[active(n)].literal for n in present]


def _conflict(name: str, message: str, rules: Sequence[str], prepared: Prepared, **more) -> dict:
    rules = sorted(dict.fromkeys(rules), key=sort_key)
    at = [site for n in rules for site in prepared.sites.get(n, [])]
    return {"rules": rules, "scenario": name, "message": message, "at": at, **more}


def _forbid(ctl: clingo.Control, atoms: Iterable[clingo.Symbol]) -> int:
    """A fresh literal that, assumed true, forbids each of these atoms."""
    with ctl.backend() as backend:
        switch = backend.add_atom()
        backend.add_rule([switch], choice=True)
        for sym in atoms:
            backend.add_rule([], [switch, backend.add_atom(sym)])
    return switch


def _shrink(ctl: clingo.Control, present: Sequence[str], holds, timeout: float) -> list[str] | None:
    """A deletion-minimal set of CR numbers whose rules alone (the others
    switched off) keep `holds(assumptions)` true; None when it is false with all on."""
    lit = {n: ctl.symbolic_atoms[active(n)].literal for n in present}
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


def _optimal_models(
    ctl: clingo.Control,
    assumptions: list[int],
    timeout: float,
    keep: int,
    cap: int = MAX_MODELS,
) -> tuple[bool, list[list[clingo.Symbol]], int, bool]:
    """(satisfiable, the first `keep` optimal models' shown atoms, how many, complete)."""
    kept: list[list[clingo.Symbol]] = []
    count = 0
    sat = False
    deadline = time.monotonic() + timeout
    complete = True
    ctl.configuration.solve.models = "0"  # every model; the loop stops at the cap
    with ctl.solve(assumptions=assumptions, yield_=True) as handle:
        for model in handle:
            sat = True
            if model.cost and not model.optimality_proven:
                if time.monotonic() > deadline:
                    raise Budget()
                continue
            count += 1
            if len(kept) < keep:
                kept.append(model.symbols(shown=True))
            if count >= cap:
                complete = False
                break
            if time.monotonic() > deadline:
                complete = False
                break
    return sat, kept, count, complete


def _violations(model: Iterable[clingo.Symbol]) -> list[dict]:
    out = []
    for sym in model:
        if sym.name != "violation" or len(sym.arguments) != 2:
            continue
        rule, args = sym.arguments
        number = str(value(rule.arguments[0])) if rule.arguments else str(rule)
        kind = args.name if args.type == clingo.SymbolType.Function else str(args)
        out.append({"rule": number, "kind": kind, "objects": names_in(args), "symbol": sym})
    return out


def check_scenario(
    prepared: Prepared,
    name: str,
    facts: str | Sequence[clingo.Symbol],
    timeout: float = 10.0,
    **more,
) -> list[dict]:
    """The contradictions one scenario shows in its life totals, losses and
    defending players, each with the CR rules responsible."""
    return Scene(prepared, _symbols(facts), timeout).life_check(name, **more)


def _symbols(facts: str | Sequence[clingo.Symbol]) -> list[clingo.Symbol]:
    """Fact text as symbols (the text is read by clingo, never pasted into a program)."""
    if not isinstance(facts, str):
        return list(facts)
    ctl = new_control(logger=quiet)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    return [a.symbol for a in ctl.symbolic_atoms if a.is_fact]


def _f(name: str, *args: clingo.Symbol) -> clingo.Symbol:
    return clingo.Function(name, list(args))


def _const(name: str) -> clingo.Symbol:
    return clingo.Function(name)


#: The facts a scene can switch: the play, what happens after it, the phase.
PLAY_FACTS = {"declared_attack", "declared_block", "band", "phase"} | EVENT_FACTS
ASKED_LEGAL = _f("asked", _const("legal"))
PHASES = {p: _f("phase", _const(p)) for p in ("main", "declare_attackers", "declare_blockers")}


class Scene:
    """One scenario grounded once with the legal and outcome queries, the life
    checks, and its play and events as free atoms: the scenario as written, a
    listed declaration fed back, or no declaration at all are each one solve
    under assumptions (and the CR-number switches all on, or some off)."""

    def __init__(
        self,
        prepared: Prepared,
        facts: Sequence[clingo.Symbol],
        timeout: float,
        more: Iterable[clingo.Symbol] = (),
    ):
        self.prepared = prepared
        self.timeout = timeout
        fixed = [f for f in facts if f.name not in PLAY_FACTS and f.name != "asked"]
        self.written = {f for f in facts if f.name in PLAY_FACTS}
        variable = list(dict.fromkeys([*self.written, *PHASES.values(), *more]))
        program = CHECK_PROGRAM
        if prepared.derives_starting_life:
            program += CHECK_STARTS
        queries = []
        if prepared.query_path("legal") is not None:
            queries.append("legal")
            fixed.append(ASKED_LEGAL)
        others = list(prepared.kb)
        if prepared.has_outcome:
            program += CHECK_OUTCOME
            others = prepared.others
        self.ctl, self.present = _switched(
            prepared,
            queries,
            fixed,
            program,
            ["--opt-mode=optN"],
            others=others,
            externals=variable,
        )
        atoms = self.ctl.symbolic_atoms
        self.lits = {s: atoms[s].literal for s in variable if atoms[s] is not None}
        self.on = _all_on(self.ctl, self.present)
        self.forbids: list[int] = []  # the switches of constraints added, off unless in use

    def assume(self, true: Iterable[clingo.Symbol]) -> list[int]:
        true = set(true)
        facts = [lit if s in true else -lit for s, lit in self.lits.items()]
        return facts + [-s for s in self.forbids]

    def forbid(self, atoms: Iterable[clingo.Symbol]) -> int:
        switch = _forbid(self.ctl, atoms)
        self.forbids.append(switch)
        return switch

    def life_check(self, name: str, **more) -> list[dict]:
        """Life totals, losses and defending players of the scenario as written."""
        ctl = self.ctl
        facts = self.assume(self.written)
        ctl.configuration.solve.opt_mode = "ignore"
        try:
            sat, conflicts, _ = solve_assuming(
                ctl, [*self.on, *facts], self.timeout, watch="_audit_conflict"
            )
            if sat and not conflicts:
                return []
            if sat:
                found = sorted(_conflict_message(c) for c in conflicts)
                message = "; ".join(found[:4])
                if len(found) > 4:
                    message += f"; and {len(found) - 4} more"
                # forbid exactly the conflicts seen: switching rules off may cause others
                # (a missing life total), which are not the ones to explain
                switch = self.forbid(_f("_audit_conflict", c) for c in conflicts)
                facts = [x for x in facts if x != -switch] + [switch]
            else:
                message = "the rules admit no answer for this scenario"
            try:
                rules = minimal_rules(ctl, self.present, self.timeout, fixed=facts)
            except Budget:
                rules = None
                message += f" (the responsible rules were not found within {self.timeout:g} s)"
        except Budget:
            return [
                _conflict(name, f"no answer within {self.timeout:g} s", [], self.prepared, **more)
            ]
        finally:
            ctl.configuration.solve.opt_mode = "optN"
        rules = list(rules or [])
        # a conflict about an atom no rule derived: the rules that derive such atoms
        for c in conflicts:
            rules += self.prepared.heads.get(MISSING.get(c.name, ("", 0)), [])
        cause = " + ".join(sorted({c.name for c in conflicts})) or "no answer"
        return [_conflict(name, message, rules, self.prepared, cause=cause, **more)]

    def legal(self, true: Iterable[clingo.Symbol]) -> list[dict]:
        """The violations `ask legal` finds with these play facts (its optimal model)."""
        sat, models, _, _ = _optimal_models(
            self.ctl, [*self.on, *self.assume(true)], self.timeout, 1, cap=1
        )
        if not sat:
            raise RuntimeError("'ask legal' has no answer")
        return _violations(models[0] if models else [])

    def violation_rules(self, true: Iterable[clingo.Symbol], relevant: Sequence[dict]) -> list[str]:
        """The minimal rules that make `ask legal` find these violations: a core
        with the violations forbidden, or (when a constraint can dodge them, as
        508.1d and 509.1c need the best hypothetical declaration) the rules
        without which the optimum no longer breaks them."""
        own = sorted({v["rule"] for v in relevant}, key=sort_key)
        watched = [v["symbol"] for v in relevant if v.get("symbol") is not None]
        if not watched:
            return own
        ctl = self.ctl
        switch = self.forbid(watched)
        facts = [x for x in self.assume(true) if x != -switch]
        try:
            ctl.configuration.solve.opt_mode = "ignore"
            rules = minimal_rules(ctl, self.present, self.timeout, fixed=[*facts, switch])
            if rules:
                return rules
            ctl.configuration.solve.opt_mode = "optN"
            watched_set = set(watched)

            def still(assumptions: list[int]) -> bool:
                sat, models, _, _ = _optimal_models(
                    ctl, [*facts, -switch, *assumptions], self.timeout, 1, cap=1
                )
                return sat and bool(models) and bool(watched_set & set(models[0]))

            return _shrink(ctl, self.present, still, self.timeout) or own
        except Budget:
            return own
        finally:
            ctl.configuration.solve.opt_mode = "optN"


def _place_order(base: Base):
    """Which statement to take out first when several would do: one of the
    user's added files, then the most recently edited file, then the last line."""
    extra = {str(p) for p in base.extra}

    def key(place: str) -> tuple:
        name, _, line = place.rpartition(":")
        path = Path(name) if Path(name).is_absolute() else base.root / name
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            mtime = 0
        return (str(path) in extra, mtime, name, int(line) if line.isdigit() else 0)

    return key


def statements_behind(
    base: Base, prepared: Prepared, facts: Sequence[clingo.Symbol], timeout: float
) -> dict | None:
    """For the life checks' conflicts of one scenario, with one switch per
    statement (`prepare(by_statement=True)`): `core`, a minimal set of
    statements that together make the conflict (each one taken out resolves
    that derivation), and `remove`, a minimal set whose removal resolves the
    conflict (no set of fewer of them does, by deletion). None when the
    scenario shows no such conflict or the budget ran out."""
    scene = Scene(prepared, facts, timeout)
    ctl = scene.ctl
    fixed = scene.assume(scene.written)
    ctl.configuration.solve.opt_mode = "ignore"
    try:
        sat, conflicts, _ = solve_assuming(
            ctl, [*scene.on, *fixed], timeout, watch="_audit_conflict"
        )
        if not sat or not conflicts:
            return None
        switch = scene.forbid(_f("_audit_conflict", c) for c in conflicts)
        fixed = [x for x in fixed if x != -switch] + [switch]
        core = minimal_rules(ctl, scene.present, timeout, fixed=fixed) or []
        lit = {n: ctl.symbolic_atoms[active(n)].literal for n in scene.present}
        back = {v: n for n, v in lit.items()}
        order = _place_order(base)
        deadline = time.monotonic() + timeout

        def unresolved(off: set[str]) -> list[str] | None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Budget()
            assumptions = fixed + [-lit[n] if n in off else lit[n] for n in lit]
            sat, _, found = solve_assuming(ctl, assumptions, left)
            return None if sat else [back[c] for c in found if c in back and back[c] not in off]

        off: set[str] = set()
        while True:
            found = unresolved(off)
            if found is None:
                break
            if not found:  # no statement of rules/ can resolve it (kb/ or the input does)
                off = set()
                break
            off.add(max(found, key=order))
        for n in sorted(off, key=order):
            if unresolved(off - {n}) is None:
                off.discard(n)
    except Budget:
        return None
    finally:
        ctl.configuration.solve.opt_mode = "optN"
    return {"core": sorted(core, key=order), "remove": sorted(off, key=order)}


#: Words of a conflict message that name things of one scenario (players,
#: objects, numbers; a quoted 'ask ...' names the question and stays): left
#: out when conflicts are grouped by cause.
_PARTICULAR = re.compile(r"\"[^\"]*\"|\b[A-Z][\w']*|\b\d+\b")


def _cause(conflict: dict) -> str:
    if conflict.get("cause"):
        return conflict["cause"]
    return " ".join(_PARTICULAR.sub("_", conflict["message"]).split())


def _statement_rules(places: Sequence[str], scans: Sequence[FileScan]) -> list[dict]:
    """Each statement's place with the CR numbers of its tag."""
    tags = {label(st.file, st.line): list(st.tags or ()) for sc in scans for st in sc.statements}
    return [{"at": p, "rules": tags.get(p, [])} for p in places]


def group_conflicts(
    conflicts: Sequence[dict],
    base: Base | None = None,
    texts: dict[str, str] | None = None,
    timeout: float = 10.0,
    progress=None,
) -> list[dict]:
    """Conflicts grouped by cause (the kind of contradiction and the CR rules
    responsible): one entry per cause with the number of scenarios it shows
    in and one example; with `base` and the scenarios' `texts`, the
    statements behind it (`statements`: a minimal set that together make it;
    `remove`: a minimal set whose removal resolves it), each with its CR numbers."""
    groups: dict[tuple, list[dict]] = {}
    for c in conflicts:
        groups.setdefault((_cause(c), tuple(c["rules"])), []).append(c)
    out = []
    prepared = None
    for k, ((cause, _), items) in enumerate(groups.items(), start=1):
        first = items[0]
        group = dict(first)
        group.update(
            cause=cause,
            scenarios=len(items),
            example=first["scenario"],
            seen_in=[c["scenario"] for c in items],
        )
        text = first.get("text") or (texts or {}).get(first["scenario"])
        if base is not None and text is not None and first.get("cause"):
            if progress:
                progress("statements behind each conflict", k, len(groups))
            if prepared is None:
                prepared = prepare(base, by_statement=True)
            try:
                case = load_case(first["scenario"], text)
                found = statements_behind(base, prepared, case.facts, timeout)
            except Exception:  # noqa: BLE001 - the grouping stands without it
                found = None
            if found:
                scans = base.rule_scans()
                group["statements"] = _statement_rules(found["core"], scans)
                group["remove"] = _statement_rules(found["remove"], scans)
        out.append(group)
    return _merge_by_statements(out)


def _merge_by_statements(groups: list[dict]) -> list[dict]:
    """Groups resolved by removing the same statements are one cause: one entry,
    with the CR rules, causes and scenarios of all."""
    merged: dict[tuple, dict] = {}
    out: list[dict] = []
    for group in groups:
        key = tuple(p["at"] for p in group.get("remove", ()))
        if not key:
            out.append(group)
            continue
        if key not in merged:
            merged[key] = group
            out.append(group)
            continue
        into = merged[key]
        into["rules"] = sorted(set(into["rules"]) | set(group["rules"]), key=sort_key)
        into["at"] = list(dict.fromkeys(into["at"] + group["at"]))
        into["seen_in"] += group["seen_in"]
        into["scenarios"] += group["scenarios"]
        causes = into["cause"].split(" + ") + group["cause"].split(" + ")
        into["cause"] = " + ".join(sorted(set(causes)))
        known = {p["at"] for p in into.get("statements", [])}
        into["statements"] = into.get("statements", []) + [
            p for p in group.get("statements", []) if p["at"] not in known
        ]
    return out


def _render(query: str, models: list[list[clingo.Symbol]], count: int, complete: bool) -> dict:
    """The parts of an answer (spec, section 6) the checks read, from shown atoms."""
    if query in ("attacks", "blocks"):
        assignments = [
            {str(value(a)): str(value(b)) for a, b in symbol_atoms(m, query, 2)} for m in models
        ]
        return {"count": count, "complete": complete, "assignments": assignments}
    if query in ORDER_QUERIES:
        return {"orders": [sequence(m, ORDER_QUERIES[query]) for m in models]}
    if query == "legal":
        violations = _violations(models[0] if models else [])
        return {"legal": not violations, "violations": violations}
    return {}


def _complete(result: dict) -> bool:
    """Whether an `attacks`/`blocks` answer lists every declaration there is."""
    listed = result.get("assignments", [])
    return bool(result.get("complete")) and result.get("count", 0) <= len(listed)


def _violation_key(v: dict) -> tuple:
    return (v["rule"], tuple(v.get("objects", [])), v.get("kind", ""))


def _violation_text(v: dict) -> str:
    return f"{v.get('kind', '').replace('_', ' ')} ({', '.join(v['objects'])}; {v['rule']})"


def _declaration_text(kind: str, assignment: dict) -> str:
    if not assignment:
        return "'no attacks'" if kind == "attacks" else "'no blocks'"
    verb = "attacks" if kind == "attacks" else "blocks"
    return "; ".join(f"{a} {verb} {b}" for a, b in assignment.items())


@dataclass
class Case:
    """One scenario of the corpus: its name, facts and (from scenario text) the scenario."""

    name: str
    facts: list[clingo.Symbol]
    scenario: object | None = None
    text: str | None = None  # the text of a generated scenario, to reproduce it


_FACT_LINE = re.compile(r"^\s*(?:[a-z_][A-Za-z0-9_]*(?:\(.*\))?\s*\.\s*)+(?:%.*)?$")


def load_case(name: str, text: str, generated: bool = False) -> Case:
    """A corpus item: scenario text (parsed; `ScenarioError` when refused) or fact text."""
    lines = [
        ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(("%", "#"))
    ]
    if lines and all(_FACT_LINE.match(ln) for ln in lines):
        return Case(name, _symbols(text))
    from mtgkb.language.facts import scenario_facts
    from mtgkb.language.parser import parse_text

    scenario = parse_text(text, name)
    return Case(name, scenario_facts(scenario), scenario, text if generated else None)


def _installed(root: Path | None) -> bool:
    """Whether `root` holds the rule base `mtgkb run` answers with."""
    if root is None:
        return True
    try:
        return all(
            (Path(root) / name).resolve() == data_dir(name).resolve()
            for name in ("rules", "kb", "queries")
        )
    except FileNotFoundError:
        return False


def _own_asked(facts: Sequence[clingo.Symbol], asked: clingo.Symbol) -> list[clingo.Symbol]:
    """The facts with only one question's `asked/1` (as `mtgkb run` gives each query)."""
    return [f for f in facts if f.name != "asked"] + [_f("asked", asked)]


class Checker:
    """The checks of one rule base over scenarios.

    What the questions answer comes from `mtgkb run`'s own answers when the
    audited rule base is the one it answers with (and otherwise from the
    audited rule base solved here); what `ask legal` says of a listed
    declaration fed back, the life checks and the rules responsible for a
    contradiction come from the audited rule base with its CR-number switches
    (`Scene`).
    """

    def __init__(
        self, root: Path | None = None, *, timeout: float = 10.0, feed_back: int = FEED_BACK
    ):
        self.base = Base.at(root)
        self.prepared = prepare(self.base)
        self.installed = _installed(root)
        self.timeout = timeout
        self.feed_back = feed_back

    # -- answering

    def ask(self, case: Case, question) -> tuple[dict | None, str | None]:
        """(the answer, None) or (None, what went wrong)."""
        query = QUERY_OF.get(question.kind, question.kind)
        if self.installed:
            from mtgkb.questions.answers import Limits, answer

            limits = Limits(MAX_MODELS, self.timeout)
            try:
                found = answer(question, case.scenario, case.facts, limits)
            except Exception as err:  # noqa: BLE001 - any failure is the finding
                return None, f"{type(err).__name__}: {err}"
            if found.get("supported") is False:
                return None, found.get("message", "not supported")
            return found, None
        if self.prepared.query_path(query) is None:
            return None, f"queries/{query}.lp is missing"
        facts = self._asked_facts(case, question)
        try:
            ctl, present = _switched(
                self.prepared, query, facts, options=["--project=show", "--opt-mode=optN"]
            )
            keep = question.get("limit") or 100
            # one model past the listed ones says whether the listing is complete
            sat, models, count, complete = _optimal_models(
                ctl, _all_on(ctl, present), self.timeout, keep, cap=keep + 1
            )
        except Exception as err:  # noqa: BLE001
            return None, f"{type(err).__name__}: {err}"
        if not sat and query not in ORDER_QUERIES and query not in ("attacks", "blocks"):
            return None, NO_ANSWER  # (an empty listing is the answer of those, as in `mtgkb run`)
        return _render(query, models, count, complete), None

    def _asked_facts(self, case: Case, question) -> list[clingo.Symbol]:
        from mtgkb.language.facts import question_symbol

        return _own_asked(case.facts, question_symbol(question))

    # -- the rules responsible, outside the scene

    def unsat_rules(self, query: str, facts) -> list[str]:
        """The minimal rules that leave `query` without any answer; when the query
        has none even with no rule at all (what it needs is derived by no rule),
        the rules that derive what it reads."""
        try:
            ctl, present = _switched(self.prepared, query, facts, options=["--opt-mode=ignore"])
            rules = minimal_rules(ctl, present, self.timeout)
        except (Budget, FileNotFoundError):
            return []
        if rules == []:
            return self.feeding_rules(query)
        return rules or []

    def feeding_rules(self, query: str) -> list[str]:
        """The CR numbers of the rules deriving what the query's rules read."""
        path = self.prepared.query_path(query)
        if path is None:
            return []
        reads: set[tuple[str, int]] = set()
        defines: set[tuple[str, int]] = set()
        statements: list[cast.AST] = []
        cast.parse_files([str(path)], statements.append)
        for stmt in statements:
            if stmt.ast_type == cast.ASTType.Rule:
                heads, uses = _head_and_body(stmt)
                reads |= uses
                defines |= heads
        found: list[str] = []
        for sig in sorted(reads - defines):
            if sig[0] not in PUBLIC_GRAPH:
                found += self.prepared.heads.get(sig, [])
        return sorted(set(found), key=sort_key)

    def unlisted_rules(self, query: str, facts, pairs: Sequence[tuple[str, str]] = ()) -> list[str]:
        """The minimal rules that keep one declaration (`pairs` of `query`'s
        atoms: attacker and target, or blocker and attacker; none for "no
        blocks") out of the optimal declarations `query` lists."""
        extra = (
            "#external _audit_forced.\n"
            "#defined _audit_pair/2.\n"
            f":- _audit_forced, _audit_pair(X,Y), not {query}(X,Y).\n"
            f":- _audit_forced, {query}(X,Y), not _audit_pair(X,Y).\n"
        )
        forced_pairs = [_f("_audit_pair", clingo.String(x), clingo.String(y)) for x, y in pairs]
        try:
            ctl, present = _switched(
                self.prepared, query, [*facts, *forced_pairs], extra, ["--opt-mode=opt"]
            )
            ctl.assign_external(_const("_audit_forced"), None)  # free: assumed on or off
            forced = ctl.symbolic_atoms[_const("_audit_forced")].literal
            ctl.configuration.solve.models = "0"  # improve until the optimum

            def best(assumptions: list[int]):
                cost = None
                sat = False
                with ctl.solve(assumptions=assumptions, yield_=True) as handle:
                    for model in handle:
                        sat = True
                        cost = list(model.cost)
                return sat, cost

            if not best([forced, *_all_on(ctl, present)])[0]:
                # the query rules the declaration out: the rules that together do
                rules = minimal_rules(ctl, present, self.timeout, fixed=[forced])
                return rules or self.feeding_rules(query)

            def still(assumptions: list[int]) -> bool:
                # the declaration is possible, and worse than the best (509.1c, 508.1d)
                free_sat, free_cost = best([-forced, *assumptions])
                forced_sat, forced_cost = best([forced, *assumptions])
                return free_sat and forced_sat and (forced_cost or []) > (free_cost or [])

            return _shrink(ctl, present, still, self.timeout) or []
        except (Budget, FileNotFoundError):
            return []

    # -- the checks

    def check(self, name: str, text: str, generated: bool = False) -> list[dict]:
        from mtgkb.language.errors import ScenarioError

        try:
            case = load_case(name, text, generated)
        except ScenarioError as err:
            message = f"the scenario language refuses this scenario: {err}"
            return [_conflict(name, message, [], self.prepared)]
        return self.check_case(case)

    def check_case(self, case: Case) -> list[dict]:
        more = {"text": case.text} if case.text else {}
        found: list[dict] = []

        def report(message: str, rules: Sequence[str]) -> None:
            found.append(_conflict(case.name, message, rules, self.prepared, **more))

        answers = []
        listed: list[clingo.Symbol] = []
        for question in case.scenario.questions if case.scenario is not None else ():
            result, error = self.ask(case, question)
            answers.append((question, result, error))
            if result is not None and question.kind in ("attacks", "blocks"):
                pred = "declared_attack" if question.kind == "attacks" else "declared_block"
                for assignment in result.get("assignments", [])[: self.feed_back]:
                    listed += [
                        _f(pred, clingo.String(a), clingo.String(b)) for a, b in assignment.items()
                    ]
        scene = Scene(self.prepared, case.facts, self.timeout, listed)
        conflicts = scene.life_check(case.name, **more)
        for question, result, error in answers:
            ask = f"ask {question.kind.replace('_', ' ')}"
            if result is None:
                query = QUERY_OF.get(question.kind)
                rules: list[str] = []
                if error == NO_ANSWER and query:
                    rules = self.unsat_rules(query, self._asked_facts(case, question))
                report(f"'{ask}' gives no answer: {error}", rules)
                continue
            try:
                if question.kind in ORDER_QUERIES:
                    self._check_orders(case, question, result, report)
                elif question.kind == "attacks":
                    self._check_attacks(case, scene, question, result, report)
                elif question.kind == "blocks":
                    self._check_blocks(case, scene, question, result, report)
            except Budget:
                report(f"checking '{ask}' took more than {self.timeout:g} s", [])
            except RuntimeError as err:
                report(f"checking '{ask}' failed: {err}", [])
        seen = {c["message"] for c in conflicts}
        for c in found:
            if c["message"] not in seen:
                seen.add(c["message"])
                conflicts.append(c)
        return conflicts

    def _check_orders(self, case: Case, question, result: dict, report) -> None:
        kind = question.kind
        names = {f.name for f in case.facts}
        if kind == "order":
            pending = any(
                f.name == "event" and f.arguments[1].name == "simultaneous" for f in case.facts
            )
        elif kind == "stack":
            pending = "trigger" in names
        else:
            pending = "declared_attack" in names
        if not pending:
            return
        orders = result.get("orders", [])
        ask = f"ask {kind.replace('_', ' ')}"
        if not orders:
            rules = self.unsat_rules(kind, self._asked_facts(case, question))
            report(f"'{ask}' finds no order although something is pending", rules)
        elif any(not order for order in orders):
            pred = ORDER_QUERIES[kind]
            rules = self.prepared.heads.get((pred, 2), [])
            report(
                f"'{ask}' gives an empty order although something is pending "
                f"(the rules deriving {pred}/2 derive nothing)",
                rules,
            )

    def _check_attacks(self, case: Case, scene: Scene, question, result: dict, report) -> None:
        if result.get("count", 0) == 0:
            rules = self.unsat_rules("attacks", self._asked_facts(case, question))
            report("'ask attacks' finds no legal declaration of attackers (508.1)", rules)
            return
        baseline: set | None = None
        for assignment in result.get("assignments", [])[: self.feed_back]:
            play = [PHASES["declare_attackers"]] + [
                _f("declared_attack", clingo.String(c), clingo.String(x))
                for c, x in assignment.items()
            ]
            violations = scene.legal(play)
            if not violations:
                continue
            if baseline is None:  # what the table itself breaks, with no play at all
                baseline = {_violation_key(v) for v in scene.legal([PHASES["main"]])}
            relevant = [v for v in violations if _violation_key(v) not in baseline]
            if relevant:
                report(
                    "'ask attacks' lists the declaration "
                    f"{_declaration_text('attacks', assignment)} but 'ask legal' finds it "
                    "illegal: " + "; ".join(_violation_text(v) for v in relevant),
                    scene.violation_rules(play, relevant),
                )
        # the other way round: the declaration written, when legal, is one of those listed
        written = [f for f in scene.written if f.name == "declared_attack"]
        listed = result.get("assignments", [])
        if not written or not _complete(result):
            return
        declared = {f.arguments[0].string: f.arguments[1].string for f in written}
        if declared not in listed and not scene.legal([PHASES["declare_attackers"], *written]):
            report(
                f"'ask legal' finds the declaration {_declaration_text('attacks', declared)} "
                "legal but 'ask attacks' does not list it",
                self.unlisted_rules(
                    "attacks", self._asked_facts(case, question), list(declared.items())
                ),
            )

    def _check_blocks(self, case: Case, scene: Scene, question, result: dict, report) -> None:
        if result.get("count", 0) == 0:
            report(
                "'ask blocks' finds no legal declaration of blockers (509.1)",
                self.unsat_rules("blocks", self._asked_facts(case, question)),
            )
            return
        attack = [f for f in scene.written if f.name in ("declared_attack", "band")]
        if scene.legal([*attack, PHASES["declare_attackers"]]):
            return  # the declared attack is itself illegal: its blocks prove nothing
        defender = question.get("defender")
        controller = {
            f.arguments[1].string: f.arguments[0].string
            for f in case.facts
            if f.name == "controls" and f.arguments[1].type == clingo.SymbolType.String
        }
        attackers = {f.arguments[0].string for f in attack if f.name == "declared_attack"}

        def relevant(violations: list[dict]) -> list[dict]:
            if defender is None:
                return violations
            return [
                v for v in violations if any(controller.get(o) == defender for o in v["objects"])
            ]

        listed = result.get("assignments", [])
        for assignment in listed[: self.feed_back]:
            play = [*attack, PHASES["declare_blockers"]] + [
                _f("declared_block", clingo.String(b), clingo.String(c))
                for b, c in assignment.items()
            ]
            bad = relevant(scene.legal(play))
            if bad:
                report(
                    "'ask blocks' lists the declaration "
                    f"{_declaration_text('blocks', assignment)} but 'ask legal' finds it "
                    "illegal: " + "; ".join(_violation_text(v) for v in bad),
                    scene.violation_rules(play, bad),
                )
        # the other way round: the blocks written (of this defender), when legal, are listed
        declared = {
            f.arguments[0].string: f.arguments[1].string
            for f in scene.written
            if f.name == "declared_block"
            and (defender is None or controller.get(f.arguments[0].string) == defender)
        }
        if declared and declared not in listed and _complete(result):
            play = [*attack, PHASES["declare_blockers"]] + [
                _f("declared_block", clingo.String(b), clingo.String(c))
                for b, c in declared.items()
            ]
            if not relevant(scene.legal(play)):
                report(
                    f"'ask legal' finds the declaration {_declaration_text('blocks', declared)} "
                    f"legal but 'ask blocks{' for ' + defender if defender else ''}' does not "
                    "list it",
                    self.unlisted_rules(
                        "blocks", self._asked_facts(case, question), list(declared.items())
                    ),
                )
        # 509.1c only requires blocks of creatures that must block; with none,
        # declaring no blockers breaks no requirement and no restriction.
        must = _f("blocks_if_able")
        if any(
            f.name == "has"
            and f.arguments[1] == must
            and f.arguments[0].type == clingo.SymbolType.String
            and f.arguments[0].string not in attackers
            and (defender is None or controller.get(f.arguments[0].string) == defender)
            for f in case.facts
        ):
            return
        who = f" for {defender}" if defender else ""
        play = [*attack, PHASES["declare_blockers"]]
        bad = relevant(scene.legal(play))
        if bad:
            report(
                f"declaring no blockers{who} is illegal for 'ask legal' although no creature "
                "must block: " + "; ".join(_violation_text(v) for v in bad),
                scene.violation_rules(play, bad),
            )
        elif {} not in listed and _complete(result):
            report(
                f"'ask blocks{who}' does not list declaring no blockers although no creature "
                "must block",
                self.unlisted_rules("blocks", self._asked_facts(case, question)),
            )


def _check_many(
    root: Path | None, items: list[tuple[str, str, bool]], timeout: float, progress=None
) -> list[dict]:
    checker = Checker(root, timeout=timeout)
    out: list[dict] = []
    for k, (name, text, generated) in enumerate(items, start=1):
        if progress:
            progress("consistency over the scenarios", k, len(items))
        out += checker.check(name, text, generated)
    return out


def consistency(
    corpus: Iterable[tuple[str, str]],
    root: Path | None = None,
    *,
    timeout: float = 10.0,
    generated: Iterable[str] = (),
    jobs: int = 1,
    progress=None,
) -> list[dict]:
    """Conflicts over a corpus of (name, text) scenarios: scenario text (every
    check) or fact text (the checks of life totals, losses and defending players).

    Each conflict is `{"rules": [...], "scenario": name, "message": ...}`, plus
    `"at"` (the encodings of those rules) and, for the names in `generated`,
    `"text"` (the scenario, to reproduce it). `jobs` > 1 checks in that many
    processes.
    """
    made = set(generated)
    items = [(name, text, name in made) for name, text in corpus]
    if jobs <= 1 or len(items) < 2 * jobs:
        return _check_many(root, items, timeout, progress)
    chunks = [items[k::jobs] for k in range(jobs)]
    if progress:
        progress(f"consistency over the scenarios ({jobs} processes)", 0, len(items))
    parts = _in_processes(root, chunks, timeout)
    if progress:
        progress(f"consistency over the scenarios ({jobs} processes)", len(items), len(items))
    order = {name: i for i, (name, _, _) in enumerate(items)}
    return sorted((c for part in parts for c in part), key=lambda c: order.get(c["scenario"], 0))


_WORKER = "from mtgkb.audit.report import _worker_main; _worker_main()"


def _worker_main() -> None:
    """A worker process of `consistency(jobs=N)`: a chunk in on stdin, conflicts out on stdout."""
    data = json.load(sys.stdin)
    root = Path(data["root"]) if data["root"] is not None else None
    items = [(name, text, generated) for name, text, generated in data["items"]]
    json.dump(_check_many(root, items, data["timeout"]), sys.stdout)


def _in_processes(root: Path | None, chunks: list[list], timeout: float) -> list[list[dict]]:
    """Each chunk checked in its own Python process (`python -c`, so no caller's
    main module is imported again); a chunk whose worker fails is checked here."""
    import subprocess

    env = dict(os.environ)
    package_parent = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
    procs = []
    for _ in chunks:
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", _WORKER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        except OSError:
            proc = None
        procs.append(proc)
    for proc, chunk in zip(procs, chunks, strict=True):
        if proc is None:
            continue
        data = {"root": str(root) if root is not None else None, "items": chunk, "timeout": timeout}
        try:
            proc.stdin.write(json.dumps(data).encode("utf-8"))
            proc.stdin.close()
        except OSError:
            pass
    parts: list[list[dict]] = []
    for proc, chunk in zip(procs, chunks, strict=True):
        found = None
        if proc is not None:
            out = proc.stdout.read()
            if proc.wait() == 0:
                try:
                    found = json.loads(out)
                except ValueError:
                    found = None
        parts.append(found if found is not None else _check_many(root, chunk, timeout))
    return parts


def file_corpus(root: Path) -> list[tuple[str, str]]:
    """The scenario files of `examples/` and of the shared conformance cases beside
    the checkout, as facts; files the parser refuses (exit 2 cases) are left out."""
    from mtgkb.language.facts import facts_text, scenario_facts
    from mtgkb.language.parser import parse_text

    return [
        (name, facts_text(scenario_facts(parse_text(text, name))))
        for name, text in file_scenarios(root)
    ]


def file_scenarios(root: Path) -> list[tuple[str, str]]:
    """The scenario files of `examples/` and of the shared conformance cases beside
    the checkout, as their text; files the parser refuses (exit 2 cases) are left out."""
    from mtgkb.language.errors import ScenarioError
    from mtgkb.language.parser import parse_text

    out = []
    for folder, name in example_folders(Path(root)):
        for path in sorted(folder.glob("*.mtg")):
            try:
                text = path.read_text(encoding="utf-8")
                parse_text(text, f"{name}/{path.name}")
            except (ScenarioError, OSError, UnicodeDecodeError):
                continue
            out.append((f"{name}/{path.name}", text))
    return out


def generated_corpus(quick: bool = False) -> list[tuple[str, str]]:
    """Every table of 2-6 players across the variants and options of the
    language, and random combats (`mtgkb.audit.corpus`), as scenario text.
    `quick`: one table per variant and a few combats."""
    from mtgkb.audit import corpus

    return corpus.generated_corpus("quick" if quick else "full")


# --------------------------------------------------------------------------
# Editions
# --------------------------------------------------------------------------


def _editions(
    cr_file: Path, index: RuleIndex | None, scans: Scans
) -> tuple[dict, list[dict], list[dict]]:
    cr = read_cr(cr_file)
    if not cr.digests:
        raise ValueError(
            f"{cr_file}: no rule numbers found; is it a Comprehensive Rules text file?"
        )
    cited = tag_sites(scans)
    if index is not None:
        for entry in index:
            cited.setdefault(entry.id, []).append("kb/rule_index.lp")
    missing = sorted((n for n in cited if n not in cr.digests), key=sort_key)
    changed, differs = [], []
    if index is not None:
        for entry in index:
            if entry.digest and entry.id in cr.digests and cr.digests[entry.id] != entry.digest:
                changed.append(entry.id)
            if cr.edition and entry.edition != cr.edition:
                differs.append(entry.id)
    lint = [
        _lint(
            "not-in-edition",
            f"{n} is cited but is not a rule of {cr_file.name} ({cr.edition or 'edition unknown'})",
            cited[n][0],
            n,
        )
        for n in missing
    ]
    lint += [
        _lint(
            "text-changed",
            f"the text of {n} in {cr_file.name} ({cr.edition or 'edition unknown'}) differs from "
            f"the {index.entries[n].edition} text it was encoded from: review the encoding",
            "kb/rule_index.lp",
            n,
        )
        for n in changed
    ]
    warnings = []
    if differs:
        warnings.append(
            _lint(
                "edition-differs",
                f"{len(differs)} rules of the index follow another edition than "
                f"{cr_file.name} ({cr.edition})",
            )
        )
    section = {
        "file": str(cr_file),
        "edition": cr.edition,
        "checked": len(cited),
        "missing": missing,
        "changed": changed,
        "edition_differs": differs,
    }
    return section, lint, warnings


#: How alike two rule texts must be (shared words over all words) to be one rule.
SAME_RULE = 0.5
_WORD = re.compile(r"[a-z0-9']+")


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower().replace("\u2019", "'")))


def _alike(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def word_diff(old: str, new: str, context: int = 4) -> str:
    """The words that changed, `[-old-]{+new+}`, with a few words around each change."""
    import difflib

    a, b = old.split(), new.split()
    parts: list[str] = []
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    for k, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            words = a[i1:i2]
            head = words[:context] if k > 0 else []
            tail = words[-context:] if k < len(ops) - 1 else []
            if len(words) > 2 * context and head and tail:
                parts += [*head, "…", *tail]
            elif k == 0:
                parts += (["…"] if len(words) > context else []) + tail
            elif k == len(ops) - 1:
                parts += head + (["…"] if len(words) > context else [])
            else:
                parts += words
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(parts)


def _match(
    text: str, older: CRText, number: str, words_of: dict[str, frozenset[str]]
) -> str | None:
    """The number of `text`'s rule in an older edition: the same number when its
    text is alike, else the rule whose text is most alike (exact text first)."""
    mine = _words(text)
    if number in older.texts and (
        older.texts[number] == text or _alike(mine, words_of[number]) >= SAME_RULE
    ):
        return number
    best, score = None, SAME_RULE
    for other, theirs in words_of.items():
        if older.texts[other] == text:
            return other
        alike = _alike(mine, theirs)
        if alike > score:
            best, score = other, alike
    return best


def edition_history(files: Sequence[Path], index: RuleIndex | None, progress=None) -> dict:
    """With two or more official CR text files: for every rule of the index,
    the editions where its text changed (a word diff of the two texts) and
    where it was renumbered (found by matching the texts across the editions).
    The texts are the user's files: read here, shown in the report, kept nowhere."""
    from mtgkb.rulebase.index import edition_number

    crs = [(read_cr(f), Path(f)) for f in files]
    for cr, f in crs:
        if not cr.texts:
            raise ValueError(f"{f}: no rule numbers found; is it a Comprehensive Rules text file?")
    crs.sort(key=lambda pair: pair[0].edition or "")
    words = [{n: _words(t) for n, t in cr.texts.items()} for cr, _ in crs]
    newest = crs[-1][0]
    rules, renumbered, changed, absent = [], [], [], []
    entries = list(index) if index is not None else []
    for k, entry in enumerate(entries, start=1):
        if progress:
            progress("editions: matching the rules' texts", k, len(entries))
        number = edition_number(entry, newest.edition)
        if number not in newest.texts:
            absent.append(entry.id)
            continue
        changes = []
        for step in range(len(crs) - 1, 0, -1):
            new_cr, old_cr = crs[step][0], crs[step - 1][0]
            text = new_cr.texts[number]
            before = _match(text, old_cr, number, words[step - 1])
            if before is None:
                changes.append({"edition": new_cr.edition, "new": number})
                break
            change: dict = {"from": old_cr.edition, "to": new_cr.edition}
            if before != number:
                change["renumbered"] = {"from": before, "to": number}
                renumbered.append(f"{before} ({old_cr.edition}) is {number} ({new_cr.edition})")
            if old_cr.texts[before] != text:
                change["diff"] = word_diff(old_cr.texts[before], text)
                changed.append(f"{number} ({old_cr.edition} → {new_cr.edition}): {change['diff']}")
            if len(change) > 2:
                changes.append(change)
            number = before
        rules.append({"id": entry.id, "changes": changes})
    warnings = []
    for entry in entries:
        for row in rules:
            if row["id"] != entry.id:
                continue
            for c in row["changes"]:
                moved = c.get("renumbered")
                if moved and not any(
                    old == moved["from"] and c["from"] <= upto and c["to"] >= since
                    for old, upto, since in entry.older
                ):
                    warnings.append(
                        _lint(
                            "renumbering-not-in-index",
                            f"{moved['from']} ({c['from']}) is {moved['to']} ({c['to']}), "
                            f"but kb/rule_index.lp has no older_number for it",
                            "kb/rule_index.lp",
                            entry.id,
                        )
                    )
    return {
        "editions": [{"file": str(f), "edition": cr.edition} for cr, f in crs],
        "rules": [r for r in rules if r["changes"]],
        "renumbered": renumbered,
        "changed": changed,
        "absent_from_newest": absent,
        "warnings": warnings,
    }


# --------------------------------------------------------------------------
# The audit
# --------------------------------------------------------------------------


def audit(
    root: Path | None = None,
    cr_file: Path | None = None,
    corpus: Iterable[tuple[str, str]] | None = None,
    *,
    timeout: float = 10.0,
    quick: bool = False,
    jobs: int | None = None,
    progress=None,
    expected: bool = True,
) -> dict:
    """Audit the rule base of a checkout (`root`) or of this installation (None).

    `corpus`: (name, text) scenarios for the consistency check, as scenario
    text or facts; by default the scenario files beside the rule base
    (`file_scenarios`) and the generated corpus (`generated_corpus(quick)`:
    `quick` keeps one table per variant and a few random combats).
    `jobs`: processes for the consistency check (default: two on a machine
    with two cores or more, for a corpus of `PARALLEL_FROM` scenarios or more).
    `progress(step, done, total)`: told of each step's progress.
    `expected`: answer the example files that have a `*.expected.json` with
    the audited rule base and report where they differ.
    `cr_file`: one CR text file, or a list of them (editions, oldest first
    or in any order: they are sorted by their dates).
    """
    base = Base.at(root)
    lint: list[dict] = []
    warnings: list[dict] = []
    index_path = base.kb / "rule_index.lp"
    index: RuleIndex | None = None
    if index_path.is_file():
        index = load_index(index_path)
    else:
        lint.append(_lint("no-index", "kb/rule_index.lp is missing", "kb/rule_index.lp"))
    scans = _scan(base)
    encoded = encoded_sites(scans)
    cited = encoded_sites(scans, cited=True)
    entries = list(index) if index is not None else []
    has_tests = (base.root / "tests").is_dir()
    tested = tested_map(base.root, [e.id for e in entries])

    coverage = []
    for entry in entries:
        row = {
            "id": entry.id,
            "encoded_at": encoded.get(entry.id, []),
            "cited_at": cited.get(entry.id, []),
            "tested_by": tested[entry.id],
        }
        if entry.relied_on:
            row["relied_on"] = True
        coverage.append(row)
        if entry.relied_on:
            continue
        if not row["encoded_at"] and not row["cited_at"]:
            lint.append(
                _lint(
                    "not-encoded",
                    f"{entry.id} is in the index but no ASP rule is tagged with it",
                    "kb/rule_index.lp",
                    entry.id,
                )
            )
        elif has_tests and not row["tested_by"]:
            warnings.append(
                _lint(
                    "untested",
                    f"{entry.id} is encoded but no test or example names it",
                    None,
                    entry.id,
                )
            )
    lint += _tag_lint(scans, index)
    lint += _logger_lint(base)
    for kind, _kind, where, text in missing_texts(scans.rules, base.kb):
        (lint if kind == "no-message" else warnings).append(_lint(kind, text, where))
    warnings += _unused(base, scans)

    made: list[str] = []
    if corpus is not None:
        scenarios = list(corpus)
    else:
        made_corpus = generated_corpus(quick)
        made = [name for name, _ in made_corpus]
        scenarios = file_scenarios(base.root) + made_corpus
    if jobs is None:
        jobs = min(2, os.cpu_count() or 1) if len(scenarios) >= PARALLEL_FROM else 1
    found = consistency(
        scenarios,
        base.root if root is not None else None,
        timeout=timeout,
        generated=made,
        jobs=jobs or 1,
        progress=progress,
    )
    conflicts = group_conflicts(found, base, dict(scenarios), timeout, progress)

    report: dict = {"rules": coverage, "lint": lint, "warnings": warnings, "conflicts": conflicts}
    differing: list[dict] = []
    if expected:
        report["expected"] = _expected_answers(base, progress)
        differing = [e for e in report["expected"] if e["differences"]]
    cr_files = [cr_file] if isinstance(cr_file, (str, Path)) else list(cr_file or [])
    if len(cr_files) == 1:
        section, more_lint, more_warnings = _editions(Path(cr_files[0]), index, scans)
        report["editions"] = section
        lint += more_lint
        warnings += more_warnings
    if len(cr_files) > 1:
        report["history"] = edition_history([Path(f) for f in cr_files], index, progress)
        warnings += report["history"]["warnings"]
        # citations are checked against the rule base's own edition, when it is among them
        own = [f for f in cr_files if read_cr(Path(f)).edition == EDITION]
        if own:
            section, more_lint, more_warnings = _editions(Path(own[0]), index, scans)
            report["editions"] = section
            lint += more_lint
            warnings += more_warnings
    report["rule_base"] = RuleBaseInfo(base.root, base.extra).describe()
    report["summary"] = {
        "root": str(base.root),
        "edition": EDITION,
        "rules": len(coverage),
        "relied_on": sum(1 for r in coverage if r.get("relied_on")),
        "encoded": sum(1 for r in coverage if r["encoded_at"]),
        "cited_only": sum(1 for r in coverage if r["cited_at"] and not r["encoded_at"]),
        "tested": sum(1 for r in coverage if r["tested_by"]),
        "lint": len(lint),
        "warnings": len(warnings),
        "scenarios": len(scenarios),
        "conflicts": len(conflicts),
        "conflict_scenarios": len(found),
        "expected_checked": len(report.get("expected", [])),
        "expected_differ": len(differing),
        "ok": not lint and not conflicts and not differing,
    }
    return report


def _expected_answers(base: Base, progress=None) -> list[dict]:
    """The example files beside the rule base answered with it (made the rule
    base in use for the while) and compared with their `*.expected.json`."""
    from mtgkb.audit import expected as _expected
    from mtgkb.rulebase.location import ENV_RULE_BASE, ENV_WITH

    saved = {n: os.environ.get(n) for n in (ENV_RULE_BASE, ENV_WITH)}
    os.environ[ENV_RULE_BASE] = str(base.root)
    if base.extra:
        os.environ[ENV_WITH] = os.pathsep.join(str(p) for p in base.extra)
    else:
        os.environ.pop(ENV_WITH, None)
    try:
        out = []
        for folder, name in example_folders(base.root):
            out += _expected.check_folder(folder, name, progress)
        return out
    finally:
        for n, old in saved.items():
            if old is None:
                os.environ.pop(n, None)
            else:
                os.environ[n] = old


# --------------------------------------------------------------------------
# Renderers and the command
# --------------------------------------------------------------------------


def to_json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1)


def _grouped(items: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for item in items:
        groups.setdefault(item["kind"], []).append(item)
    return groups


def _item_line(item: dict) -> str:
    where = f"{item['where']}: " if item.get("where") else ""
    return f"{where}{item['message']}"


def _base_title(report: dict) -> str:
    """The rule base audited: its path and digest (and the added files)."""
    base = report.get("rule_base") or {"path": report["summary"]["root"]}
    text = base["path"] + (f" ({base['digest']})" if base.get("digest") else "")
    if base.get("with"):
        text += " with " + ", ".join(base["with"])
    return text


def _place_text(place: dict) -> str:
    rules = ", ".join(place.get("rules", []))
    return f"{place['at']} ({rules})" if rules else place["at"]


def to_text(report: dict) -> str:
    s = report["summary"]
    out = [
        f"mtgkb audit of {_base_title(report)} (CR {s['edition']})",
        f"  rules in the index: {s['rules']} ({s['relied_on']} relied on, not encoded)",
        f"  encoded: {s['encoded']} (and {s.get('cited_only', 0)} only cited), "
        f"tested: {s['tested']}",
        f"  scenarios checked: {s['scenarios']}",
        f"  lint: {s['lint']}, warnings: {s['warnings']}, conflicts: {s['conflicts']}",
    ]
    for title, items in (("lint", report["lint"]), ("warnings", report["warnings"])):
        for kind, group in _grouped(items).items():
            out.append(f"\n{title}: {kind} ({len(group)})")
            out += [f"  {_item_line(i)}" for i in group]
    if report["conflicts"]:
        out.append(f"\nconflicts ({len(report['conflicts'])})")
        for c in report["conflicts"]:
            rules = ", ".join(c["rules"]) or "(rules not found)"
            seen = c.get("scenarios", 1)
            where = c["scenario"] if seen == 1 else f"{seen} scenarios, e.g. {c['scenario']}"
            out.append(f"  [{where}] {c['message']}")
            out.append(f"    rules responsible: {rules}")
            for key, title in (("statements", "statements"), ("remove", "removing resolves it")):
                if c.get(key):
                    out.append(f"    {title}: " + ", ".join(_place_text(p) for p in c[key]))
            if c.get("text"):  # a generated scenario: its text, to reproduce it
                out.append("    scenario:")
                out += [f"      {line}" for line in c["text"].splitlines() if line]
    if "editions" in report:
        e = report["editions"]
        out.append(f"\neditions: {e['file']} ({e['edition'] or 'edition unknown'})")
        out.append(
            f"  cited numbers checked: {e['checked']}; missing: {', '.join(e['missing']) or 'none'}"
        )
        out.append(f"  text changed since encoded: {', '.join(e['changed']) or 'none'}")
    if "history" in report:
        h = report["history"]
        names = ", ".join(f"{e['edition'] or '?'}" for e in h["editions"])
        out.append(f"\neditions compared: {names}")
        out.append(f"  renumbered ({len(h['renumbered'])}):")
        out += [f"    {line}" for line in h["renumbered"]]
        out.append(f"  text changed ({len(h['changed'])}):")
        out += [f"    {line}" for line in h["changed"]]
        if h["absent_from_newest"]:
            out.append("  not in the newest edition: " + ", ".join(h["absent_from_newest"]))
    if report.get("expected"):
        bad = [e for e in report["expected"] if e["differences"]]
        out.append(f"\nexpected answers: {len(report['expected'])} checked, {len(bad)} differ")
        for e in bad:
            out.append(f"  {e['scenario']}")
            out += [f"    {d}" for d in e["differences"]]
    out.append("\nresult: " + ("clean" if s["ok"] else "problems found (exit 1)"))
    return "\n".join(out)


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(report: dict) -> str:
    s = report["summary"]
    out = [
        "# mtgkb audit",
        "",
        f"Rule base: `{_base_title(report)}`, Comprehensive Rules effective {s['edition']}.",
        "",
        "| | |",
        "|---|---|",
        f"| rules in the index | {s['rules']} ({s['relied_on']} relied on) |",
        f"| encoded | {s['encoded']} |",
        f"| only cited (because/2, rests_on/2) | {s.get('cited_only', 0)} |",
        f"| tested | {s['tested']} |",
        f"| scenarios checked | {s['scenarios']} |",
        f"| lint | {s['lint']} |",
        f"| warnings | {s['warnings']} |",
        f"| conflicts | {s['conflicts']} |",
        "",
        "**Result: " + ("clean.**" if s["ok"] else "problems found.**"),
    ]
    for title, items in (("Lint", report["lint"]), ("Warnings", report["warnings"])):
        if not items:
            continue
        out += ["", f"## {title}", "", "| kind | where | message |", "|---|---|---|"]
        out += [
            f"| {i['kind']} | {_md_cell(i.get('where', ''))} | {_md_cell(i['message'])} |"
            for i in items
        ]
    out += ["", "## Conflicts", ""]
    if report["conflicts"]:
        out += [
            "| scenarios (example) | message | rules responsible | statements "
            "| removing resolves it |",
            "|---|---|---|---|---|",
        ]
        for c in report["conflicts"]:
            seen = f"{c.get('scenarios', 1)} ({_md_cell(c['scenario'])})"
            places = [
                "<br>".join(_md_cell(_place_text(p)) for p in c.get(key, [])) or "—"
                for key in ("statements", "remove")
            ]
            out.append(
                f"| {seen} | {_md_cell(c['message'])} | {', '.join(c['rules'])} | "
                f"{places[0]} | {places[1]} |"
            )
    else:
        out.append("None: no scenario makes the rules contradict themselves.")
    if "editions" in report:
        e = report["editions"]
        out += [
            "",
            "## Editions",
            "",
            f"Checked against `{e['file']}` ({e['edition'] or 'edition unknown'}): "
            f"{e['checked']} cited numbers.",
            "",
            f"- missing from that edition: {', '.join(e['missing']) or 'none'}",
            f"- text changed since encoded: {', '.join(e['changed']) or 'none'}",
        ]
    if "history" in report:
        h = report["history"]
        names = ", ".join(e["edition"] or "?" for e in h["editions"])
        out += ["", "## Editions compared", "", f"Editions: {names}.", ""]
        out += [f"- renumbered: {line}" for line in h["renumbered"]]
        out += [f"- text changed: {_md_cell(line)}" for line in h["changed"]]
    if report.get("expected"):
        bad = [e for e in report["expected"] if e["differences"]]
        out += [
            "",
            "## Expected answers",
            "",
            f"{len(report['expected'])} checked, {len(bad)} differ.",
        ]
        for e in bad:
            out += [f"- `{e['scenario']}`: " + _md_cell("; ".join(e["differences"]))]
    out += ["", "## Coverage", "", "| rule | encoded at | tested by |", "|---|---|---|"]
    for r in report["rules"]:
        enc = (
            "relied on"
            if r.get("relied_on") and not r["encoded_at"]
            else "<br>".join(r["encoded_at"])
        )
        tests = _md_cell("<br>".join(r["tested_by"])) or "—"
        out.append(f"| {r['id']} | {_md_cell(enc) or '—'} | {tests} |")
    return "\n".join(out) + "\n"


def progress_printer(enabled: bool):
    """A `progress(step, done, total)` that writes one updating line on stderr, or None."""
    if not enabled:
        return None
    state = {"step": None}

    def show(step: str, done: int, total: int) -> None:
        if state["step"] not in (None, step):
            print(file=sys.stderr)
        state["step"] = step
        end = "\n" if done >= total else ""
        print(f"\rmtgkb audit: {step}: {done}/{total}", end=end, file=sys.stderr, flush=True)
        if done >= total:
            state["step"] = None

    return show


def audit_command(args: argparse.Namespace) -> int:
    """`mtgkb audit [--json | --markdown] [--cr FILE]... [--progress]`: exit 1 on
    lint, conflicts or examples whose answers differ from their expectation."""
    cr = getattr(args, "cr", None)
    crs = [cr] if isinstance(cr, (str, Path)) else list(cr or [])
    for f in crs:
        if not Path(f).is_file():
            print(f"mtgkb audit: {f}: no such file", file=sys.stderr)
            return 2
    shown = getattr(args, "progress", False) or sys.stderr.isatty()
    options = {"progress": progress_printer(shown)}
    if getattr(args, "quick", False):
        options["quick"] = True
    try:
        report = audit(None, [Path(f) for f in crs] or None, **options)
    except ValueError as err:
        print(f"mtgkb audit: {err}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(to_json(report))
    elif getattr(args, "markdown", False):
        print(to_markdown(report), end="")
    else:
        print(to_text(report))
    return 0 if report["summary"]["ok"] else 1


__all__ = [
    "audit",
    "audit_command",
    "check_scenario",
    "consistency",
    "Checker",
    "file_corpus",
    "file_scenarios",
    "generated_corpus",
    "minimal_rules",
    "prepare",
    "to_json",
    "to_markdown",
    "to_text",
]
