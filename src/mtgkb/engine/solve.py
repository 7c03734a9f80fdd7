"""Grounding and solving: the rule base, one or more queries and the facts of a scenario.

Nothing here knows a game rule; it only runs clingo with a model cap and a
time-out and hands the shown atoms of each model to the caller.

How the work is kept small (bench/README.md has the measurements; each step
is an option of the engine, mtgkb.engine.state.Options, read from the
environment when the engine is made, and can be switched off for comparison):

- Slicing (MTGKB_SLICING=0 to switch off; mtgkb.engine.analysis). Only the
  statements of the rule base that can matter are grounded, which is exact:
  backward per query (the statements whose heads may unify with an atom the
  query shows, constrains, optimises or reads, and so on down) and forward
  per scenario (rules whose positive body names a predicate nothing can
  derive are left out). The analysis is cached on disk
  (mtgkb.engine.analysis_cache).
- Sharing (MTGKB_SHARE=0; mtgkb.engine.sharing). The questions of one small
  file share groundings: queries that define no predicate differently are
  grounded together, each query's statements guarded by an external
  `_mtgkb_query(Q)` switched on for its own solve, and each question's
  `asked/1` likewise. The models of a query are exactly those of the rule
  base with that query alone.
- Many scenarios at once (mtgkb.engine.scenarios, used by
  mtgkb.running.batch; MTGKB_COMBINE=0 there).
- Counting (MTGKB_FAST_COUNT=0, MTGKB_COUNT_PARTS=0; mtgkb.engine.counting).
  Past the models an answer lists, models are counted by clasp, by
  independent parts of the ground program, with no Python per model.
  Declarations of attackers and blockers are counted instead from the
  generic forms their counting query derives (MTGKB_COUNT_CLASSES=0;
  registry.COUNTED_BY, mtgkb.engine.classes), by exact combinatorics; the
  parts are the fallback for a shape that counter does not read.

Every function here takes the `engine` (mtgkb.engine.state.Engine) whose
rule base and options it uses; without one, a fresh engine is made (it reads
the rule base again: callers that answer more than once pass theirs).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import field

import clingo

from mtgkb.engine.analysis import FactReadings
from mtgkb.engine.listing import Canonical, first_models, first_or_every, sort_models
from mtgkb.engine.programs import external_parts, quiet, solve_within
from mtgkb.engine.rule_base import LoadedRuleBase
from mtgkb.engine.sharing import GUARD, guard_of
from mtgkb.engine.state import Engine
from mtgkb.rulebase import registry
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.records import record

ModelCallback = Callable[[Sequence[clingo.Symbol]], None]

# The queries whose answers count their models: their groundings are recorded
# (mtgkb.engine.counting) so that the count is exact without enumerating them all.
# (`order` and `stack` list every model up to the cap, and count the rest.)
COUNTED_QUERIES = registry.COUNTED_QUERIES
# The queries counted from the generic forms another query derives (mtgkb.engine.classes).
COUNTED_BY = registry.COUNTED_BY


class SolveTimeout(Exception):
    """The time-out stopped the work before clingo finished."""


@record
class SolveResult:
    """What a solve gave: the number of (optimal) models and whether it finished."""

    count: int = 0
    complete: bool = True
    satisfiable: bool = False
    models: list[list[clingo.Symbol]] = field(default_factory=list)
    ordered: bool = False  # (the models are already the first in a canonical order)


# --------------------------------------------------------------------------
# Queries that share a grounding


def _mergeable(base: LoadedRuleBase, a: str, b: str) -> bool:
    """Two queries share a grounding when neither defines a predicate that the
    other defines differently (so neither widens what the other grounds)."""
    if not base.guardable(a) or not base.guardable(b):
        return False
    theirs = base.definitions(b)
    for name, rules in base.definitions(a).items():
        if name in theirs and theirs[name] != rules:
            return False
    return True


def group_queries(names: Iterable[str], engine: Engine | None = None) -> list[list[str]]:
    """Queries (in first-use order) in groups that can be grounded together.
    (Letting queries that define a predicate differently share too would be
    as exact, but the grounding then covers both definitions at once, say
    every attack with every block: measured 3x slower on small combats.)"""
    base = (Engine() if engine is None else engine).rule_base()
    groups: list[list[str]] = []
    for name in dict.fromkeys(names):
        for group in groups:
            if all(_mergeable(base, name, other) for other in group):
                group.append(name)
                break
        else:
            groups.append([name])
    return groups


# --------------------------------------------------------------------------
# Groundings


#: what a fact's name in a rule's text may be (a name from the facts' own module)
#: a predicate name gringo reads as one (a fact of another name goes by the backend)
PLAIN_NAME = re.compile(r"[a-z_][A-Za-z0-9_]*")


class FactRules:
    """Facts given to the grounder as the values of an external function,
    one rule for each (name, arity): `p(X0,X1) :- p(X0,X1) = @mtgkb_facts(K).`,
    which gringo grounds as the facts themselves; the symbols reach clingo
    through the API (a user's name stays data), several thousands in one
    call each rule, where the backend takes two calls into clingo a fact.
    The context of the `ground()` (clingo calls `mtgkb_facts`). `others`:
    the facts it does not give (those past `signatures`, or of a name that
    is not plain), for the backend."""

    def __init__(self, facts: Sequence[clingo.Symbol], signatures: Sequence[tuple[str, int]]):
        by_signature: dict[tuple[str, int], list[clingo.Symbol]] = {}
        self.others: list[clingo.Symbol] = list(facts[len(signatures) :])
        plain: dict[str, bool] = {}  # (each name matched once, not once a fact)
        for symbol, signature in zip(facts[: len(signatures)], signatures, strict=True):
            name = signature[0]
            if name not in plain:
                plain[name] = PLAIN_NAME.fullmatch(name) is not None
            if plain[name]:
                by_signature.setdefault(signature, []).append(symbol)
            else:
                self.others.append(symbol)
        self._values = list(by_signature.values())
        lines = []
        for k, (name, arity) in enumerate(by_signature):
            atom = f"{name}({','.join(f'X{i}' for i in range(arity))})" if arity else name
            lines.append(f"{atom} :- {atom} = @mtgkb_facts({k}).")
        self.text = "\n".join(lines)

    def mtgkb_facts(self, k: clingo.Symbol) -> list[clingo.Symbol]:
        return self._values[k.number]


def give_facts(
    ctl: clingo.Control,
    facts: Sequence[clingo.Symbol],
    signatures: Sequence[tuple[str, int]] | None,
) -> FactRules | None:
    """Give `facts` to `ctl` before its ground(): those of the `signatures`
    (the first facts' (name, arity), in order) by FactRules, whose return is
    the context the ground() needs (None: every fact given by the backend,
    as they are without signatures). No signatures for a program that may
    call an external function of its own (a `#script`'s)."""
    rules = None
    if signatures and len(signatures) <= len(facts):
        rules = FactRules(facts, signatures)
        ctl.add("base", [], rules.text)
    with ctl.backend() as backend:
        for symbol in facts if rules is None else rules.others:
            backend.add_rule([backend.add_atom(symbol)])
    return rules


class Grounding:
    """The rule base, the scenario facts and one or more queries, grounded once
    in one clingo Control; `solve(query)` answers any of those queries."""

    def __init__(
        self,
        queries: Sequence[str],
        facts: Sequence[clingo.Symbol] | str,
        *,
        switchable: Sequence[clingo.Symbol] = (),
        project: bool = True,
        slicing: bool = True,
        engine: Engine | None = None,
        record: bool | None = None,
        readings: dict | FactReadings | None = None,
        signatures: Sequence[tuple[str, int]] | None = None,
    ):
        """Ground the rule base of `engine` with `queries` and `facts`. The
        `switchable` atoms (say the `asked/1` of each question) are externals,
        false unless a solve names them true. Several queries need `#show p/n`
        statements and no statement other than rules, shows, #minimize and
        #defined. Facts given as text (tests, plain clingo users) turn
        slicing off, as does `slicing=False` or the engine's option.
        `record`: whether to record the ground program and count by parts
        only (None: when a counted query needs it). `readings`: what forward
        slicing read of these facts, kept for the next grounding of the same
        facts (Analysis.sources; the groundings of one file share it).
        `signatures`: the (name, arity) of the first facts, in order, where
        the caller knows them (FactRules)."""
        self.queries = list(dict.fromkeys(queries))
        if not self.queries:
            raise ValueError("a grounding needs at least one query")
        engine = Engine() if engine is None else engine
        self.options = options = engine.options
        self.engine = engine
        base = engine.rule_base()
        merged = len(self.queries) > 1
        if merged and not all(base.guardable(q) for q in self.queries):
            raise ValueError("these queries cannot share a grounding")
        self._guards = {}
        if merged:
            self._guards = {q: guard_of(q) for q in self.queries}
        self._switchable = list(dict.fromkeys(switchable))
        self.facts, self.project = facts, project
        self._readings = readings
        self._signatures = signatures
        # (clingo's warnings, atoms that slicing left undefined, would only be
        # dropped. `--trans-ext=no`: clasp keeps choice rules with bounds and
        # aggregates as they are, not translated into normal rules; the models
        # are the same, and the first solve's preparation of the 2 x 100
        # blocks measured 0.045 s -> 0.023 s CPU, no other figure's changed)
        shown = ["--project=show"] if project else []
        ctl = new_control([*shown, "--warn=none", "--trans-ext=no"], quiet)
        self.ctl = ctl
        self.recorder = None
        self.parts_only = record is True
        if record is None:
            record = any(q in COUNTED_QUERIES and not self._by_classes(q) for q in self.queries)
        if options.count_parts and project and record:
            from mtgkb.engine.counting import GroundRecorder

            self.recorder = GroundRecorder()
            ctl.register_observer(self.recorder)
        self._sliced = slicing and options.slicing
        kept = self._rule_base_statements(base, facts, self._sliced)
        if merged:
            query = "\n".join(base.guarded(q) for q in self.queries) + "\n#show."
        else:
            query = base.query_text(self.queries[0])
        # what is grounded: the rule base's statements (None: its whole text)
        # and the queries' text (bench/floors.py grounds them again, bare)
        self.kept, self.query_text, self._base = kept, query, base
        self.add_program(ctl)
        base.controls += 1
        rules = None
        # externals (false until a solve says otherwise), from the symbols
        # themselves: a user's name inside them stays data
        switches = external_parts(ctl, [*self._guards.values(), *self._switchable])
        if isinstance(facts, str):
            ctl.add("base", [], facts)
        else:
            calls = base.calls_functions(self.queries)
            rules = give_facts(ctl, facts, None if calls else signatures)
        ctl.ground([("base", []), *switches], context=rules)
        # optN: with a #minimize/#maximize, enumerate every optimal model.
        ctl.configuration.solve.opt_mode = "optN"
        self._part_counts: dict = {}
        # query -> the external switching its statements grounded on top
        # (stacked_model; None: they cannot be)
        self._stacked: dict[str, clingo.Symbol | None] = {}

    def _by_classes(self, query: str) -> bool:
        """Whether `query`'s models are counted from the forms its counting
        query derives (mtgkb.engine.classes)."""
        if self.parts_only or query not in COUNTED_BY:
            return False
        return self.options.counts_from_forms

    def add_program(self, ctl: clingo.Control) -> None:
        """Give `ctl` what this grounding grounds of the rule base and its
        queries (`kept`, `query_text`), without the facts."""
        if self.kept is None:
            ctl.add("base", [], self._base.text)
            ctl.add("base", [], self.query_text)
        else:
            # (parsed once, after the first time)
            self._base.add_statements(ctl, self.kept, self.query_text)

    def _rule_base_statements(
        self, base: LoadedRuleBase, facts, slicing: bool, queries: Sequence[str] | None = None
    ) -> list[int] | None:
        """The statements of the rule base that can matter to `queries` (None:
        this grounding's) on these facts (None: its whole text, unsliced)."""
        queries = self.queries if queries is None else queries
        if not slicing or isinstance(facts, str):
            return None
        atoms = [*facts, *self._switchable]
        readings = self._readings
        memo = base.slice_memo()  # (a process's first groundings: mtgkb.engine.slice_memo)
        if memo is not None:
            if readings is None:  # (the facts read once: looked up, sliced, remembered)
                readings = FactReadings()
            remembered = memo.looked_up(queries, atoms, readings)
            if remembered is not None:
                return remembered
        analysis = base.analysis()
        if any(q not in analysis.queries for q in queries):
            return None
        kept = analysis.kept(tuple(queries))
        if kept is None:
            kept = list(range(len(analysis.base)))
        derived = analysis.query_heads(queries)
        if derived is not None:
            sources = analysis.sources(atoms, also=derived, readings=readings)
            sources.setdefault(GUARD, set()).add(())
            kept = analysis.needed(tuple(queries), analysis.live(kept, sources))
        if memo is not None:
            memo.remember(queries, atoms, readings, kept, analysis, analysis.said())
        return kept

    def stacked_model(
        self, query: str, true: Iterable[clingo.Symbol] = (), end: float | None = None
    ) -> list[clingo.Symbol] | None:
        """The one model of `query` (a counting query, say) on these facts
        and switches (`true`), solved in this grounding of another query:
        `query`'s own statements (those its program does not share with this
        one's query) grounded on top, as a part of their own, their
        constraints and shows conditional on `_mtgkb_query(query)`, switched
        on for this solve only, so that later solves of this grounding see
        nothing of them (their rules derive atoms nothing else reads). Its
        shown symbols and this grounding's query's, read together. None when
        this cannot be shown to give `query`'s model (LoadedRuleBase.stacked),
        and when there is none: the caller then solves `query` in a grounding
        of its own. (gringo on the 2 x 100 blocks' forms: 35-50 ms here,
        75-90 ms in a grounding of their own; on the 8 x 50 game's, 4 ms and
        30 ms.)"""
        guard = self._stacked.get(query, False)
        if guard is False:
            guard = self._stack(query)
            self._stacked[query] = guard
        if guard is None:
            return None
        self._switch(self.queries[0], true)
        self.ctl.assign_external(guard, True)
        solve = self.ctl.configuration.solve
        mode = solve.opt_mode
        found: list[list[clingo.Symbol]] = []
        try:
            solve.models = "1"
            solve.opt_mode = "ignore"  # (one model: its atoms are the same in every one)
            left = None if end is None else max(0.0, end - time.monotonic())
            solve_within(
                self.ctl,
                left,
                SolveTimeout,
                on_model=lambda model: found.append(model.symbols(shown=True)),
            )
        finally:
            solve.opt_mode = mode
            self.ctl.assign_external(guard, False)
        return found[0] if found else None

    def _stack(self, query: str) -> clingo.Symbol | None:
        """Ground `query`'s own statements on top of this grounding (see
        `stacked_model`); the external that switches them on, or None when
        they cannot be."""
        if not self.options.share or self._guards or self.recorder is not None:
            return None  # (MTGKB_SHARE=0: each query in a grounding of its own)
        if self._signatures is None:
            return None
        if isinstance(self.facts, str) or query in self.queries:
            return None
        given = {name for name, _ in self._signatures}
        given |= {symbol.name for symbol in self.facts[len(self._signatures) :]}
        given |= {symbol.name for symbol in self._switchable} | {GUARD}
        upper = self._rule_base_statements(self._base, self.facts, self._sliced, [query])
        text = self._base.stacked(self.queries[0], self.kept, query, upper, given)
        if text is None:
            return None
        guard = guard_of(query)
        part = f"mtgkb_stacked_{len(self._stacked)}"
        self.ctl.add(part, [], text)
        self.ctl.ground([(part, []), *external_parts(self.ctl, [guard])])
        return guard

    def solve(
        self,
        query: str,
        *,
        max_models: int = 0,
        keep: int | None = None,
        timeout: float | None = None,
        on_model: ModelCallback | None = None,
        true: Iterable[clingo.Symbol] = (),
        canonical: Canonical | None = None,
        forms: Callable[[], Sequence[clingo.Symbol] | None] | None = None,
    ) -> SolveResult:
        """The models of the rule base with `query` (one of this grounding's),
        the switchable atoms in `true` true and the others false.

        `max_models` caps the enumeration (0: all); `keep` is how many models
        to keep in the result (None: all); every model is also passed to
        `on_model`. With a `#minimize`/`#maximize` only optimal models count.
        With a `canonical` order (mtgkb.engine.listing), the models kept are
        the first ones in that order, sorted (else: as clingo found them).
        `forms`: gives the model of the query's counting query on the same
        facts (None: not found), where the caller has it or can solve it in a
        grounding it shares (a batch, a file's other questions); called only
        when the count needs it.
        """
        end = None if timeout is None else time.monotonic() + timeout
        result = self._solve(query, max_models, keep, timeout, on_model, true, forms, canonical)
        if canonical is not None and result.models and not result.ordered:
            # (`forms` may have solved another query of this grounding meanwhile)
            self._switch(query, true)
            self._in_order(result, canonical, end)
        if result.complete and not result.satisfiable:
            self.engine.unsatisfied += 1
        return result

    def _switch(self, query: str, true: Iterable[clingo.Symbol]) -> set[clingo.Symbol]:
        """The externals set for a solve of `query`: its guard on, the others
        off, the switchable atoms in `true` true and the others false."""
        for name, guard in self._guards.items():
            self.ctl.assign_external(guard, name == query)
        on = set(true)
        for atom in self._switchable:
            self.ctl.assign_external(atom, atom in on)
        return on

    def _in_order(self, result: SolveResult, canonical: Canonical, end: float | None) -> None:
        """The kept models made the first ones in the canonical order: sorted
        when they are every model, else found in order (mtgkb.engine.listing).
        The query's externals are still as its solve set them."""
        if result.complete and len(result.models) >= result.count:
            result.models = sort_models(result.models, canonical)
            return
        result.models = first_models(
            self.ctl, canonical, len(result.models), end=end, stop=SolveTimeout
        )

    def _solve(
        self, query, max_models, keep, timeout, on_model, true, forms=None, canonical=None
    ) -> SolveResult:
        if query not in self.queries:
            raise ValueError(f"query {query!r} is not part of this grounding")
        on = self._switch(query, true)
        end = None if timeout is None else time.monotonic() + timeout
        result = SolveResult()
        if self._by_classes(query) and on_model is None and self.project:
            return self._solve_by_classes(
                query, result, max_models, keep, end, on, forms, canonical
            )
        if self.recorder is not None and on_model is None:
            return self._solve_by_parts(query, result, max_models, keep, end, on)
        count_only = (
            self.options.fast_count
            and on_model is None
            and keep is not None
            and (max_models == 0 or keep < max_models)
        )
        if not count_only:
            outcome = self._run(max_models, end, result, keep, on_model)
        else:
            # The kept models through Python, then the count from clasp alone
            # (the second solve enumerates the kept ones again: `keep` is small).
            outcome = self._run(keep, end, result, keep, None) if keep > 0 else None
            if outcome is None or not outcome.exhausted:
                outcome = self._run(max_models, end, None, None, None)
                result.count = self._count()
        result.satisfiable = bool(outcome.satisfiable) or result.count > 0
        result.complete = bool(outcome.exhausted)
        return result

    def _beside(self, query: str, record: bool) -> Grounding:
        """A grounding of `query` alone on this grounding's facts and switches."""
        return Grounding(
            [query],
            self.facts,
            switchable=self._switchable,
            engine=self.engine,
            record=record,
            readings=self._readings,
            signatures=self._signatures,
        )

    def _solve_by_classes(
        self, query, result, max_models, keep, end, on, forms, canonical=None
    ) -> SolveResult:
        """The first `keep` models (None: all; at most `max_models`) by
        enumeration, and the exact count of all of them from the forms the
        query's counting query derives (mtgkb.engine.classes); when that
        counter does not read them, by parts in a grounding that records its
        program (mtgkb.engine.counting). With a `canonical` order, the
        enumeration is the listing's own (mtgkb.engine.listing), unless the
        program optimises."""
        listed = max_models if keep is None else keep if max_models == 0 else min(keep, max_models)
        found = None
        if canonical is not None and listed > 0:
            found = first_or_every(self.ctl, canonical, listed, end=end, stop=SolveTimeout)
        if found is not None:
            result.models, every = found
            result.ordered = True
            if every:
                result.count = len(result.models)
                result.satisfiable = result.count > 0
                result.complete = True
                return result
        elif listed > 0 or keep is None:
            outcome = self._run(listed, end, result, keep, None)
            if outcome.exhausted:
                result.satisfiable = result.count > 0 or bool(outcome.satisfiable)
                result.complete = True
                return result
        # (the counter is imported only for a listing that does not end by itself)
        from mtgkb.engine.classes import Unsupported, count_space

        forms = forms() if forms is not None else None
        if forms is None:
            counting = COUNTED_BY[query]
            grounding = self._beside(counting, record=False)
            left = None if end is None else max(0.0, end - time.monotonic())
            derived = grounding.solve(counting, max_models=1, timeout=left, true=on)
            forms = derived.models[0] if derived.models else None
        try:
            if forms is None:
                raise Unsupported("no forms derived")
            count = count_space(forms, query, end)
        except TimeoutError:
            raise SolveTimeout() from None
        except Unsupported:
            recorded = self._beside(query, record=True)
            left = None if end is None else max(0.0, end - time.monotonic())
            return recorded.solve(query, max_models=max_models, keep=keep, timeout=left, true=on)
        result.count = count
        result.satisfiable = count > 0
        result.complete = True
        return result

    def _solve_by_parts(self, query, result, max_models, keep, end, on) -> SolveResult:
        """The first `keep` models (None: all; at most `max_models`) by
        enumeration, and the exact count of all of them by independent parts
        (mtgkb.engine.counting)."""
        from mtgkb.engine.counting import Unsupported, count_models

        if keep is None:
            listed = max_models  # (0: every model, so the listing counts them)
            outcome = self._run(listed, end, result, keep, None)
        else:
            listed = keep if max_models == 0 else min(keep, max_models)
            outcome = self._run(listed, end, result, keep, None) if listed > 0 else None
        if outcome is not None and outcome.exhausted:
            result.satisfiable = result.count > 0 or bool(outcome.satisfiable)
            result.complete = True
            return result
        true = set()
        atoms = self.ctl.symbolic_atoms
        for symbol in [*on, *(g for q, g in self._guards.items() if q == query)]:
            found = atoms[symbol]
            if found is not None:
                true.add(found.literal)
        try:
            count, exact = count_models(
                self.recorder, true, max_models=max_models, cache=self._part_counts, end=end
            )
        except Unsupported:
            outcome = self._run(max_models, end, None, None, None)
            result.count = self._count()
            result.satisfiable = bool(outcome.satisfiable) or result.count > 0
            result.complete = bool(outcome.exhausted)
            return result
        except TimeoutError:
            raise SolveTimeout() from None
        result.count = max(count, result.count)
        result.satisfiable = result.count > 0
        result.complete = exact
        return result

    def _run(self, models: int, end: float | None, result, keep, on_model):
        self.ctl.configuration.solve.models = str(models)
        callback = None
        if result is not None:

            def callback(model: clingo.Model) -> None:
                if model.cost and not model.optimality_proven:
                    return
                result.count += 1
                kept = keep is None or len(result.models) < keep
                if kept or on_model is not None:
                    symbols = model.symbols(shown=True)
                    if kept:
                        result.models.append(symbols)
                    if on_model is not None:
                        on_model(symbols)

        left = None if end is None else max(0.0, end - time.monotonic())
        return solve_within(self.ctl, left, SolveTimeout, on_model=callback)

    def _count(self) -> int:
        """The models of the last solve: the optimal ones when it optimised."""
        models = self.ctl.statistics["summary"]["models"]
        optimal = int(models["optimal"])
        return optimal if optimal else int(models["enumerated"])


def solve(
    query: str,
    facts: Sequence[clingo.Symbol] | str,
    *,
    max_models: int = 0,
    keep: int | None = None,
    timeout: float | None = None,
    on_model: ModelCallback | None = None,
    project: bool = True,
    engine: Engine | None = None,
) -> SolveResult:
    """Solve the rule base with `queries/<query>.lp` and the scenario facts.

    `facts` are clingo symbols (user strings stay data) or, for tests and plain
    clingo users, fact text. `max_models` caps the enumeration (0: all);
    `keep` is how many models to keep in the result (None: all); every model
    is also passed to `on_model`. With a `#minimize`/`#maximize` in the
    program only the optimal models are counted. `engine`: whose rule base
    and options (a fresh one when not given).
    """
    grounding = Grounding([query], facts, project=project, engine=engine)
    return grounding.solve(
        query, max_models=max_models, keep=keep, timeout=timeout, on_model=on_model
    )


def models_as_text(query: str, facts: str, **options) -> list[set[str]]:
    """Every model's shown atoms as strings: a convenience for rule tests."""
    result = solve(query, facts, **options)
    return [{str(s) for s in model} for model in result.models]
