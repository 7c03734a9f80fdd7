"""The rules responsible: one scenario grounded with every rule of `rules/`
behind its CR-number switch (`mtgkb.engine.cores`), the legal and outcome
queries and the audit's invariants (`invariants.lp`).

The invariants say what went wrong (`_audit_conflict(K)`: two life totals, a
player lost above 0 life, a defending player who is no opponent...). The
conflicts seen are then forbidden (a constraint each) and the rules are
switched off and on until a minimal set remains: an unsatisfiable core
shrunk by deletion, or, for a wrong optimum, the rules without which it is
right. What a question answers is never solved here: the audit asks it as
`mtgkb run` does (mtgkb.audit.checker).

Nothing here is a game rule: the checks are questions asked of the rules.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path

import clingo

from mtgkb.audit.sources import Base, head_and_body
from mtgkb.engine.analysis import DescribedProgram, analyse
from mtgkb.engine.analysis_cache import StatementMemo
from mtgkb.engine.cores import (
    Budget,
    Switches,
    active,
    forbid,
    minimal_rules,
    optimum,
    shrink,
    solve_assuming,
    switch_rules,
    switch_statements,
    switched_control,
)
from mtgkb.engine.programs import add_facts, quiet, solve_within
from mtgkb.rulebase.citations import program_text
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.encoded import label
from mtgkb.rulebase.index import sort_key
from mtgkb.rulebase.location import NOT_SOLVED
from mtgkb.rulebase.symbol_texts import symbol_value

#: The audit's invariants and the program that forces one declaration.
INVARIANTS = Path(__file__).with_name("invariants.lp")

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


def sym(name: str, *args: clingo.Symbol) -> clingo.Symbol:
    return clingo.Function(name, list(args))


def const(name: str) -> clingo.Symbol:
    return clingo.Function(name)


#: Input facts of the play and of what happens after it: left out when a
#: listed declaration is fed back on its own.
EVENT_FACTS = frozenset(
    {"event", "event_source", "choice_item", "choice_in_order", "choice_hidden"}
)
#: The facts a scene can switch: the play, what happens after it, the phase.
PLAY_FACTS = frozenset({"declared_attack", "declared_block", "band", "phase"}) | EVENT_FACTS
ASKED_LEGAL = sym("asked", const("legal"))
PHASES = {p: sym("phase", const(p)) for p in ("main", "declare_attackers", "declare_blockers")}
#: Facts that switch parts of the invariants on (invariants.lp, "Input").
STARTS = const("_audit_starts")
OUTCOME = const("_audit_outcome")
CONFLICT = "_audit_conflict"


class Prepared:
    """The rule base with one activation atom per CR number, parsed once.

    The switched statements (`switches`) and the rules deriving each
    predicate (`heads`) are worked out when first asked for: only where a
    conflict is explained."""

    def __init__(
        self,
        scans: list,
        by_statement: bool,
        others: list[Path],
        has_outcome: bool,
        kb: list[Path],
        queries: Path | None,
    ):
        self.scans = scans
        self.by_statement = by_statement
        self.others = others  # kb/ (less the rule index) and the query of the life checks
        self.has_outcome = has_outcome
        self.kb = kb
        self.queries = queries

    @cached_property
    def switches(self) -> Switches:
        if self.by_statement:
            return switch_statements(self.scans)
        return switch_rules(self.scans)

    @cached_property
    def heads(self) -> dict[tuple[str, int], list[str]]:
        """Predicate -> the CR numbers (or places) of the rules deriving it."""
        heads: dict[tuple[str, int], list[str]] = {}
        for st in self._rules():
            names = [label(st.file, st.line)] if self.by_statement else st.tags or ()
            for sig in head_and_body(st.ast)[0]:
                known = heads.setdefault(sig, [])
                known += [n for n in names if n not in known]
        return {sig: sorted(nums, key=sort_key) for sig, nums in heads.items()}

    @cached_property
    def derives_starting_life(self) -> bool:
        """Whether a rule derives starting_life/2 (read only from the rules
        whose text names it)."""
        if "heads" in self.__dict__:
            return ("starting_life", 2) in self.heads
        return any(
            ("starting_life", 2) in head_and_body(st.ast)[0]
            for st in self._rules()
            if "starting_life" in str(st.ast)
        )

    def _rules(self):
        for scan in self.scans:
            for st in scan.statements:
                if st.ast is not None and st.kind == "Rule":
                    yield st

    @property
    def sites(self) -> dict[str, list[str]]:
        return self.switches.sites

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
    kb = [p for p in base.files(base.kb) if p.name not in NOT_SOLVED]
    others = list(kb)
    query_path = base.queries / f"{query}.lp" if base.queries is not None and query else None
    has_outcome = query_path is not None and query_path.is_file()
    if has_outcome:
        others.append(query_path)
    return Prepared(scans, by_statement, others, has_outcome, kb, base.queries)


#: From how many scenarios `CheckProgram.clean_many` grounds them together. Measured:
#: giving the program the scenario argument costs about 0.8 s of CPU once a process,
#: about what 25 scenarios' own groundings cost; 26 together then took 0.2 s, 123 0.6 s.
CLEAN_TOGETHER_FROM = 40


class CheckProgram:
    """The program of the scenes (`Scene`: rules/ and the added files with
    their generated citations, kb/, the legal and outcome queries, the
    invariants) without switches, described for forward slicing as the
    engine's rule base is (mtgkb.engine.analysis): a scenario as written is
    then solved with only the statements that may fire for its facts.
    Grounded this way a scenario costs about what `ask legal` costs; the
    switched grounding of every statement, about four times as much, is
    made only where a conflict is to be explained. The statements'
    descriptions are kept on disk by their text (StatementMemo): after an
    edit, only the statements edited are described again."""

    def __init__(self, base: Base, prepared: Prepared, cache: Path | None = None):
        texts = [program_text(scan.path) for scan in prepared.scans]
        # what a scene loads after the switched rules, in its order (Scene.files)
        files = list(prepared.others if prepared.has_outcome else prepared.kb)
        legal = prepared.query_path("legal")
        if legal is not None:
            files.append(legal)
        texts += [path.read_text(encoding="utf-8") for path in [*files, INVARIANTS]]
        text = "\n".join(texts)
        memo = StatementMemo(cache)
        self.program = DescribedProgram(analyse(text, memo.recording()), text.encode("utf-8"))
        memo.store()
        self.every = list(range(len(self.program.statements)))
        self._scenario_program = None  # (for many scenarios at once: clean_many)

    def clean_many(self, instances: list[list[clingo.Symbol]], timeout: float) -> list[bool]:
        """`clean` of each instance (the facts of one scenario as written),
        all grounded and solved together, each given its scenario argument
        (mtgkb.engine.scenarios: the batch's own rewriting): when the whole
        has a model, each instance has one, and an instance is clean when
        its grounding holds no `_audit_conflict`; else each is solved alone.
        True is certain; False only says the grounding together could not
        tell (it holds more atoms than an instance's own: gringo simplifies
        less), so the caller may ask `clean` of that instance alone."""
        from mtgkb.engine.scenarios import SolveTimeout, described_program, satisfiable_scenarios

        if len(instances) < CLEAN_TOGETHER_FROM:
            return [self.clean(facts, timeout) for facts in instances]
        if self._scenario_program is None:
            self._scenario_program = described_program(self.program, self.every) or False
        found = None
        if self._scenario_program:
            try:
                found = satisfiable_scenarios(
                    self._scenario_program, instances, (CONFLICT, 1), timeout=timeout
                )
            except (SolveTimeout, RuntimeError):
                found = None
        if found is None or not found[0]:
            return [self.clean(facts, timeout) for facts in instances]
        return [k not in found[1] for k in range(len(instances))]

    def clean(self, facts: Sequence[clingo.Symbol], timeout: float) -> bool:
        """Whether, with these facts, the rules have an answer and no
        `_audit_conflict` can be derived (then a scene finds no conflict);
        False when that is not certain (the scene is to be solved)."""
        program = self.program
        live = program.live(self.every, program.sources(facts))
        ctl = new_control(["--opt-mode=ignore"], quiet)
        ctl.add("base", [], program.program(live))
        add_facts(ctl, list(facts))
        try:
            ctl.ground([("base", [])])
        except RuntimeError:
            return False  # (the scene says what clingo could not ground)
        if any(True for _ in ctl.symbolic_atoms.by_signature(CONFLICT, 1)):
            return False
        try:
            result = solve_within(ctl, timeout, Budget)
        except Budget:
            return False
        return bool(result.satisfiable)


def conflict_message(sym: clingo.Symbol) -> str:
    args = [symbol_value(a) for a in sym.arguments]
    template = CONFLICT_MESSAGES.get(sym.name)
    return template.format(*args) if template else str(sym)


def conflict(name: str, message: str, rules: Sequence[str], prepared: Prepared, **more) -> dict:
    """One conflict of the report: the rules responsible and where they are encoded."""
    rules = sorted(dict.fromkeys(rules), key=sort_key)
    at = [site for n in rules for site in prepared.sites.get(n, [])]
    return {"rules": rules, "scenario": name, "message": message, "at": at, **more}


def on_literals(ctl: clingo.Control, present: Sequence[str]) -> list[int]:
    """The literals that switch these CR numbers' rules on."""
    return [ctl.symbolic_atoms[active(n)].literal for n in present]


class Scene:
    """One scenario grounded once with the legal and outcome queries, the
    invariants, and its play and events as free atoms: the scenario as
    written, a listed declaration fed back, or no declaration at all are each
    one solve under assumptions (and the CR-number switches all on, or some off).

    The switched grounding is made when first needed (`ctl`): to find the
    rules responsible for a conflict. With a `checks` program (CheckProgram),
    `life_check` first solves the scenario as written in that program
    (unswitched and sliced): where the invariants can derive no conflict and
    the rules have an answer, that is the answer, and nothing is switched."""

    def __init__(
        self,
        prepared: Prepared,
        facts: Sequence[clingo.Symbol],
        timeout: float,
        more: Iterable[clingo.Symbol] = (),
        checks: CheckProgram | None = None,
    ):
        self.prepared = prepared
        self.timeout = timeout
        self.checks = checks
        fixed = [f for f in facts if f.name not in PLAY_FACTS and f.name != "asked"]
        self.unplayed = list(fixed)  # the scenario without its play and its events
        self.written = {f for f in facts if f.name in PLAY_FACTS}
        self.variable = list(dict.fromkeys([*self.written, *PHASES.values(), *more]))
        files = list(prepared.others if prepared.has_outcome else prepared.kb)
        legal = prepared.query_path("legal")
        if legal is not None:
            files.append(legal)
            fixed.append(ASKED_LEGAL)
        if prepared.derives_starting_life:
            fixed.append(STARTS)
        if prepared.has_outcome:
            fixed.append(OUTCOME)
        self.fixed = fixed  # what holds whatever the play: the facts and the switches of the checks
        self.files = files
        self._ctl: clingo.Control | None = None
        # whether the scenario as written shows no conflict (CheckProgram.clean; None: not known)
        self.cleared: bool | None = None
        self.forbids: list[int] = []  # the switches of constraints added, off unless in use
        self._violations: dict | None = None
        self.asked: dict[frozenset, dict] = {}  # play -> what `ask legal` answered of it

    def _ground(self) -> clingo.Control:
        if self._ctl is None:
            self._ctl, self.present = switched_control(
                self.prepared.switches,
                [*self.files, INVARIANTS],
                self.fixed,
                externals=self.variable,
                options=["--opt-mode=optN"],
            )
            atoms = self._ctl.symbolic_atoms
            self.lits = {s: atoms[s].literal for s in self.variable if atoms[s] is not None}
            self.on = on_literals(self._ctl, self.present)
        return self._ctl

    @property
    def ctl(self) -> clingo.Control:
        """The switched grounding (made on first use)."""
        return self._ground()

    def assume(self, true: Iterable[clingo.Symbol]) -> list[int]:
        self._ground()
        true = set(true)
        facts = [lit if s in true else -lit for s, lit in self.lits.items()]
        return facts + [-s for s in self.forbids]

    def forbid(self, atoms: Iterable[clingo.Symbol]) -> int:
        switch = forbid(self.ctl, atoms)
        self.forbids.append(switch)
        return switch

    def life_check(self, name: str, **more) -> list[dict]:
        """Life totals, losses and defending players of the scenario as written."""
        if self.cleared is None and self.checks is not None:
            self.cleared = self.checks.clean([*self.fixed, *self.written], self.timeout)
        if self.cleared:
            return []
        ctl = self.ctl
        facts = self.assume(self.written)
        ctl.configuration.solve.opt_mode = "ignore"
        try:
            sat, conflicts, _ = solve_assuming(
                ctl, [*self.on, *facts], self.timeout, watch=CONFLICT
            )
            if sat and not conflicts:
                return []
            if sat:
                found = sorted(conflict_message(c) for c in conflicts)
                message = "; ".join(found[:4])
                if len(found) > 4:
                    message += f"; and {len(found) - 4} more"
                # forbid exactly the conflicts seen: switching rules off may cause others
                # (a missing life total), which are not the ones to explain
                switch = self.forbid(sym(CONFLICT, c) for c in conflicts)
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
                conflict(name, f"no answer within {self.timeout:g} s", [], self.prepared, **more)
            ]
        finally:
            ctl.configuration.solve.opt_mode = "optN"
        rules = list(rules or [])
        # a conflict about an atom no rule derived: the rules that derive such atoms
        for c in conflicts:
            rules += self.prepared.heads.get(MISSING.get(c.name, ("", 0)), [])
        cause = " + ".join(sorted({c.name for c in conflicts})) or "no answer"
        return [conflict(name, message, rules, self.prepared, cause=cause, **more)]

    def play_facts(self, true: Iterable[clingo.Symbol]) -> list[clingo.Symbol]:
        """The scenario's facts with this play instead of the one written (and
        without what happens after it), and `ask legal` asked of them."""
        return [*self.unplayed, ASKED_LEGAL, *dict.fromkeys(true)]

    def violation_atoms(self, violations: Iterable[dict], messages: dict[str, str]) -> list[dict]:
        """The answer's violations with the atom of each in this scene's
        grounding (`symbol`) and its kind: found by the same reading of the
        atom as the answer's (`mtgkb.questions.answers.violation_entries`)."""
        if self._violations is None:
            from mtgkb.questions.answers import violation_entries

            found: dict[tuple, clingo.Symbol] = {}
            for atom in self.ctl.symbolic_atoms.by_signature("violation", 2):
                rule, args = atom.symbol.arguments
                (entry,) = violation_entries(
                    [(rule.arguments[0] if rule.arguments else rule, args)], messages
                )
                found.setdefault(_entry_key(entry), atom.symbol)
            self._violations = found
        out = []
        for v in violations:
            sym = self._violations.get(_entry_key(v))
            args = sym.arguments[1] if sym is not None else None
            kind = args.name if args is not None and args.type == clingo.SymbolType.Function else ""
            out.append({**v, "kind": kind or str(args or ""), "symbol": sym})
        return out

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
            satisfiability_only(ctl)
            rules = minimal_rules(ctl, self.present, self.timeout, fixed=[*facts, switch])
            if rules:
                return rules
            watched_set = set(watched)

            def still(assumptions: list[int]) -> bool:
                sat, model, _ = optimum(ctl, [*facts, -switch, *assumptions], self.timeout)
                return sat and model is not None and bool(watched_set & set(model))

            return shrink(ctl, self.present, still, self.timeout) or own
        except Budget:
            return own
        finally:
            ctl.configuration.solve.opt_mode = "optN"


def satisfiability_only(ctl: clingo.Control) -> None:
    """Solves that only say satisfiable or not (cores): no optimising, one model."""
    ctl.configuration.solve.opt_mode = "ignore"
    ctl.configuration.solve.models = "1"


def _entry_key(v: dict) -> tuple:
    return (v["rule"], v.get("message", ""), tuple(v.get("objects", [])))


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
    """For the invariants' conflicts of one scenario, with one switch per
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
        sat, conflicts, _ = solve_assuming(ctl, [*scene.on, *fixed], timeout, watch=CONFLICT)
        if not sat or not conflicts:
            return None
        switch = scene.forbid(sym(CONFLICT, c) for c in conflicts)
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


def statements_unsatisfiable(
    base: Base, prepared: Prepared, facts: Sequence[clingo.Symbol], timeout: float
) -> list[str] | None:
    """For a scenario the rules admit no answer for, with one switch per
    statement (`prepare(by_statement=True)`): a minimal set of statements
    that together leave it no answer (an unsatisfiable core over the
    statements' switches, shrunk by deletion), in the files' order. None
    when the scenario has an answer, no statement of rules/ is to blame (the
    input or kb/ is), or the budget ran out."""
    scene = Scene(prepared, facts, timeout)
    fixed = scene.assume(scene.written)
    scene.ctl.configuration.solve.opt_mode = "ignore"
    try:
        core = minimal_rules(scene.ctl, scene.present, timeout, fixed=fixed)
    except Budget:
        return None
    finally:
        scene.ctl.configuration.solve.opt_mode = "optN"
    return sorted(core, key=_place_order(base)) if core else None
