"""The checks of one rule base over scenarios, asked as `mtgkb run` asks them.

Over the examples, the conformance cases beside the checkout and a generated
corpus (`mtgkb.audit.corpus`), as scenario text: the audit's invariants (one
starting and one final life total per player or team; no player lost with
life above 0 or despite "can't lose the game"; every defending player an
opponent of the attacking player; see `invariants.lp`); every asked
question answered; every asked order existing where something is pending;
every attack and block declaration `ask attacks` / `ask blocks` list (the
first `FEED_BACK`), fed back as the declaration, legal for `ask legal`, and
the declaration written, when legal, listed; "no blocks" legal and listed
where no creature must block.

Every answer comes from `mtgkb.questions.answers.answer`, the function
`mtgkb run` answers each question with, with the audited rule base made the
one in use (`Base.in_use`): the audit's answers cannot differ from the
run's. Checking many scenarios (`Checker.check_many`), the models of `ask
legal` (the questions' and the plays fed back) are solved for all of them
at once by the batch's own `solve_many` and handed to that same answering,
and the invariants are cleared in one grounding of the unswitched program
(`CheckProgram`). Only the rules responsible for a contradiction are found
with the rules switched (mtgkb.audit.scene, mtgkb.engine.cores).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.audit.scene import (
    INVARIANTS,
    PHASES,
    CheckProgram,
    Scene,
    conflict,
    const,
    on_literals,
    prepare,
    satisfiability_only,
    sym,
)
from mtgkb.audit.sources import PUBLIC_GRAPH, Base, head_and_body
from mtgkb.engine.cores import Budget, minimal_rules, optimum, shrink, switched_control
from mtgkb.engine.programs import quiet
from mtgkb.questions import answers as _answers
from mtgkb.questions.answers import ahead_key, single_model_solves
from mtgkb.rulebase import registry
from mtgkb.rulebase.index import sort_key

#: How many of the declarations `ask attacks` / `ask blocks` list are fed back
#: as declarations to `ask legal`.
FEED_BACK = 3
#: The model cap of the audit's answers (the answers' `count` is then a lower bound).
MAX_MODELS = 5000
#: The queries whose answer is a list of orders, and the predicate of each.
ORDER_QUERIES = registry.ORDER_QUERIES


@dataclass
class Case:
    """One scenario of the corpus: its name, facts and (from scenario text) the scenario."""

    name: str
    facts: list[clingo.Symbol]
    scenario: object | None = None
    text: str | None = None  # the text of a generated scenario, to reproduce it


_FACT_LINE = re.compile(r"^\s*(?:[a-z_][A-Za-z0-9_]*(?:\(.*\))?\s*\.\s*)+(?:%.*)?$")


def fact_symbols(text: str) -> list[clingo.Symbol]:
    """Fact text as symbols (the text is read by clingo, never pasted into a program)."""
    from mtgkb.rulebase.control import new_control

    ctl = new_control(logger=quiet)
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    return [a.symbol for a in ctl.symbolic_atoms if a.is_fact]


def is_fact_text(text: str) -> bool:
    """Whether a corpus item is fact text (read by clingo), not scenario text."""
    lines = [
        ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(("%", "#"))
    ]
    return bool(lines) and all(_FACT_LINE.match(ln) for ln in lines)


def load_case(name: str, text: str, generated: bool = False) -> Case:
    """A corpus item: scenario text (parsed; `ScenarioError` when refused) or fact text."""
    if is_fact_text(text):
        return Case(name, fact_symbols(text))
    from mtgkb.language.facts import scenario_facts
    from mtgkb.language.parser import parse_text

    scenario = parse_text(text, name)
    return Case(name, scenario_facts(scenario), scenario, text if generated else None)


def _own_asked(facts: Sequence[clingo.Symbol], asked: clingo.Symbol) -> list[clingo.Symbol]:
    """The facts with only one question's `asked/1` (as `mtgkb run` gives each query)."""
    return [f for f in facts if f.name != "asked"] + [sym("asked", asked)]


def _complete(result: dict) -> bool:
    """Whether an `attacks`/`blocks` answer lists every declaration there is."""
    listed = result.get("assignments", [])
    return bool(result.get("complete")) and result.get("count", 0) <= len(listed)


def _violation_key(v: dict) -> tuple:
    return (v["rule"], tuple(v.get("objects", [])), v.get("message", ""))


def _violation_text(v: dict) -> str:
    kind = v.get("kind") or v.get("message", "")
    return f"{kind.replace('_', ' ')} ({', '.join(v['objects'])}; {v['rule']})"


def each_chosen(chosen: str | list[str]) -> list[str]:
    """What one creature of a listed declaration attacks or blocks: one name,
    or a list for a blocker of several attackers (509.1a)."""
    return list(chosen) if isinstance(chosen, list) else [chosen]


def _listing_text(result: dict) -> str:
    """A listing's count and its first declarations, as a conflict says them."""
    listed = result.get("assignments", [])
    shown = ", ".join(f"[{_declaration_text('blocks', a)}]" for a in listed[:3])
    more = ", ..." if len(listed) > 3 else ""
    count = result.get("count")
    return f"{count} declaration{'' if count == 1 else 's'} ({shown}{more})"


def _declaration_text(kind: str, assignment: dict) -> str:
    if not assignment:
        return "'no attacks'" if kind == "attacks" else "'no blocks'"
    verb = "attacks" if kind == "attacks" else "blocks"
    return "; ".join(f"{a} {verb} {', '.join(each_chosen(b))}" for a, b in assignment.items())


#: From how many instances a query's models are solved ahead in one grounding.
AHEAD_FROM = 2
#: The queries of the questions solved ahead: `legal`, whose program the plays fed
#: back need rewritten anyway (measured: rewriting the others for the scenarios of
#: one run costs more than grounding them once a question).
AHEAD_QUERIES = frozenset({"legal"})


def _predicted_plays(scene: Scene, answers: list, feed_back: int) -> list[list[clingo.Symbol]]:
    """The plays the checks of `ask attacks` and `ask blocks` will judge with
    `ask legal` (the declarations listed and fed back, the declared attack a
    block needs, declaring no blockers), as the checks make them: solved
    ahead with the other cases' (a play the checks do not judge costs a
    little in that grounding; one not foreseen is solved when judged)."""
    out: list[list[clingo.Symbol]] = []
    for question, result, _ in answers:
        if result is None or not result.get("count", 0):
            continue
        listed = result.get("assignments", [])[:feed_back]
        if question.kind == "attacks":
            for assignment in listed:
                out.append(
                    [PHASES["declare_attackers"]]
                    + [
                        sym("declared_attack", clingo.String(c), clingo.String(x))
                        for c, x in assignment.items()
                    ]
                )
        elif question.kind == "blocks":
            attack = [f for f in scene.written if f.name in ("declared_attack", "band")]
            out.append([*attack, PHASES["declare_attackers"]])
            out.append([*attack, PHASES["declare_blockers"]])
            for assignment in listed:
                out.append(
                    [*attack, PHASES["declare_blockers"]]
                    + [
                        sym("declared_block", clingo.String(b), clingo.String(c))
                        for b, chosen in assignment.items()
                        for c in each_chosen(chosen)
                    ]
                )
    return out


class Checker:
    """The checks of one rule base over scenarios.

    What the questions answer, and what `ask legal` says of a listed
    declaration fed back, come from `mtgkb run`'s own answering
    (`mtgkb.questions.answers.answer`) with the audited rule base in use; the
    invariants and the rules responsible for a contradiction come from the
    audited rule base with its CR-number switches (`Scene`).
    """

    def __init__(
        self, root: Path | None = None, *, timeout: float = 10.0, feed_back: int = FEED_BACK
    ):
        from mtgkb.engine.state import Options

        self.base = Base.at(root)
        self.prepared = prepare(self.base)
        # the scenes' program unswitched and sliced: what clears a scenario as written
        self.checks = CheckProgram(self.base, self.prepared, Options.from_env().cache_dir)
        self.timeout = timeout
        self.feed_back = feed_back
        self.limits = _answers.Limits(MAX_MODELS, self.timeout)
        self._engine = None  # the audited rule base's, made while it is in use
        # the same, listing `ask blocks` from blocks.lp's own grounding (`grounded`)
        self._listing_engine = None
        # plays -> the model of `legal` solved ahead for them (`solve_ahead`)
        self._legal_ahead: dict[frozenset, list[clingo.Symbol]] = {}

    # -- answering, as `mtgkb run` does

    def _session(self):
        """A session of the audit's one engine (the rule base read once, not
        per answer); made on the first answer, inside `check_case`, where
        the audited rule base is the one in use."""
        from mtgkb.engine.session import Session
        from mtgkb.engine.state import Engine

        if self._engine is None:
            self._engine = Engine()
        return Session(self._engine)

    def grounded(self, case: Case, question) -> dict | None:
        """The answer of `ask blocks` as blocks.lp's own grounding gives it,
        where `mtgkb run` reads it from the counting forms
        (mtgkb.engine.first_declarations): the rule base's own listing,
        which the checks hold to `ask legal`, and the forms' to it. None
        where it has no answer (the run's is then checked)."""
        from mtgkb.engine.session import Session
        from mtgkb.engine.state import Engine, Options

        if self._listing_engine is None:
            self._listing_engine = Engine(Options.from_env().but(forms_listing=False))
        session = Session(self._listing_engine)
        try:
            found = _answers.answer(question, case.scenario, case.facts, self.limits, session)
        except Exception:  # noqa: BLE001 - no listing to compare: the run's is checked
            return None
        return None if found.get("supported") is False else found

    def ask(self, case: Case, question, session=None) -> tuple[dict | None, str | None]:
        """(the answer, None) or (None, what went wrong). `session`: the one the
        case's questions share, as `mtgkb run` answers a file's questions in one
        (its groundings and models shared); a session of its own when None."""
        try:
            found = _answers.answer(
                question,
                case.scenario,
                case.facts,
                self.limits,
                session if session is not None else self._session(),
            )
        except Exception as err:  # noqa: BLE001 - any failure is the finding
            return None, f"{type(err).__name__}: {err}"
        if found.get("supported") is False:
            return None, found.get("message", "not supported")
        return found, None

    def legal(self, scene: Scene, true: Sequence[clingo.Symbol]) -> list[dict]:
        """The violations `ask legal` finds with these play facts."""
        from mtgkb.language.model import Question

        key = frozenset(true)
        if key not in scene.asked:  # one play may be judged by several checks
            facts = scene.play_facts(true)
            session = self._session()
            question = Question(kind="legal")
            model = self._legal_ahead.pop(frozenset(facts), None)
            if model is not None:  # solved with the chunk's other plays (`solve_ahead`)
                own = _answers.facts_for(question, facts)
                session.solved[_answers.solved_key("legal", own)] = model
            scene.asked[key] = _answers.answer(question, None, facts, self.limits, session)
        found = scene.asked[key]
        if found.get("supported") is False:
            raise RuntimeError("'ask legal' has no answer")
        return found["violations"]

    @staticmethod
    def explained(scene: Scene, violations: list[dict]) -> list[dict]:
        """The violations with their atoms in the scene (to find the rules
        responsible, in the switched grounding) and their kinds."""
        from mtgkb.rulebase import words

        return scene.violation_atoms(violations, words.messages("en"))

    def _asked_facts(self, case: Case, question) -> list[clingo.Symbol]:
        from mtgkb.language.facts import question_symbol

        return _own_asked(case.facts, question_symbol(question))

    # -- many scenarios at once

    def chunk_session(self):
        """A session for many cases (`check_many`): the questions of each
        share its groundings as a file's do, and all share the models solved
        ahead. Made while the audited rule base is in use."""
        from mtgkb.engine.session import Session

        return Session(self._session().engine)

    def ahead_of(self, cases: list[Case], session) -> None:
        """The models of the single-model questions of these cases (scenario
        text), solved together into `session` (`solve_ahead`)."""
        self.solve_ahead(
            [
                (query, own, ahead_key(case.scenario, query, own))
                for case in cases
                if case.scenario is not None
                for query, own in single_model_solves(case.scenario, case.facts)
                if query in AHEAD_QUERIES
            ],
            session.ahead,
        )

    def check_many(self, cases: list[tuple], session, progress=None) -> list[list[dict]]:
        """The conflicts of each case (`(case, given)`: a Case, and the
        answers `mtgkb run` gave it or None: asked here, in `session`),
        checked as `check_case` checks one; the models of `ask legal` on the
        plays fed back are solved for all the cases at once (`solve_ahead`),
        which spares a grounding of the rule base per play. Within
        `base.in_use()`. `progress(done, total)`: told of each case checked."""
        answered = []
        for case, given in cases:
            answers, listed = self._answered(case, given, session)
            scene = Scene(self.prepared, case.facts, self.timeout, listed, self.checks)
            answered.append((case, answers, scene))
        # the scenarios as written cleared of conflicts together (CheckProgram.clean_many)
        cleared = self.checks.clean_many(
            [[*scene.fixed, *scene.written] for _, _, scene in answered], self.timeout
        )
        for (_, _, scene), clean in zip(answered, cleared, strict=True):
            # (not cleared together: its own grounding, more precise, may clear it)
            scene.cleared = True if clean else None
        plays = {}
        for _, answers, scene in answered:
            for play in _predicted_plays(scene, answers, self.feed_back):
                facts = scene.play_facts(play)
                plays.setdefault(frozenset(facts), facts)
        self.solve_ahead([("legal", facts, key) for key, facts in plays.items()], self._legal_ahead)
        out = []
        try:
            for k, (case, answers, scene) in enumerate(answered, start=1):
                out.append(self._checked(case, answers, scene))
                if progress:
                    progress(k, len(answered))
        finally:
            self._legal_ahead.clear()
        return out

    def solve_ahead(self, work: list[tuple], into: dict) -> None:
        """For each (query, facts, key) of `work`, the one model of the
        single-model query on those facts, into `into[key]`: every instance
        of a query solved in one grounding (mtgkb.engine.scenarios.solve_many).
        A query it cannot do so for (no model for some instance, a statement
        it cannot rewrite, the time-out) is left to each answer, which says why."""
        from mtgkb.engine.scenarios import Readings, solve_many
        from mtgkb.engine.solve import SolveTimeout
        from mtgkb.questions.symbols import Shown

        by_query: dict[str, list[tuple]] = {}
        for query, facts, key in work:
            by_query.setdefault(query, []).append((facts, key))
        readings = Readings()
        engine = self._session().engine
        for query, instances in by_query.items():
            if len(instances) < AHEAD_FROM:
                continue
            try:
                models = solve_many(
                    query,
                    [facts for facts, _ in instances],
                    timeout=self.timeout,
                    engine=engine,
                    readings=readings,
                )
            except SolveTimeout:
                continue
            for (_, key), model in zip(instances, models or (), strict=False):
                into[key] = Shown(sorted(model))

    # -- the rules responsible, outside the scene

    def _switched(self, query: str, facts, externals=(), options=()):
        path = self.prepared.query_path(query)
        if path is None:
            raise FileNotFoundError(f"queries/{query}.lp")
        return switched_control(
            self.prepared.switches,
            [*self.prepared.kb, path, INVARIANTS],
            facts,
            externals=externals,
            options=options,
        )

    def unsat_rules(self, query: str, facts) -> list[str]:
        """The minimal rules that leave `query` without any answer; when the query
        has none even with no rule at all (what it needs is derived by no rule),
        the rules that derive what it reads."""
        try:
            ctl, present = self._switched(query, facts, options=["--opt-mode=ignore"])
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
        cast.parse_files([str(path)], statements.append, logger=quiet)
        for stmt in statements:
            if stmt.ast_type == cast.ASTType.Rule:
                heads, uses = head_and_body(stmt)
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
        blocks") out of the optimal declarations `query` lists (the forcing
        program of invariants.lp, switched by `_audit_forced(query)`)."""
        forced_atom = sym("_audit_forced", const(query))
        forced_pairs = [sym("_audit_pair", clingo.String(x), clingo.String(y)) for x, y in pairs]
        try:
            ctl, present = self._switched(query, [*facts, *forced_pairs], externals=[forced_atom])
            forced = ctl.symbolic_atoms[forced_atom].literal
            on = on_literals(ctl, present)

            def best(assumptions: list[int]) -> tuple[bool, list[int]]:
                sat, _, cost = optimum(ctl, assumptions, self.timeout)
                return sat, cost

            if not best([forced, *on])[0]:
                # the query rules the declaration out: the rules that together do
                satisfiability_only(ctl)
                rules = minimal_rules(ctl, present, self.timeout, fixed=[forced])
                return rules or self.feeding_rules(query)

            def still(assumptions: list[int]) -> bool:
                # the declaration is possible, and worse than the best (509.1c, 508.1d)
                free_sat, free_cost = best([-forced, *assumptions])
                forced_sat, forced_cost = best([forced, *assumptions])
                return free_sat and forced_sat and forced_cost > free_cost

            return shrink(ctl, present, still, self.timeout) or []
        except (Budget, FileNotFoundError):
            return []

    # -- the checks

    def check(
        self,
        name: str,
        text: str,
        generated: bool = False,
        answers: list | None = None,
        refused: bool = True,
    ) -> list[dict] | None:
        """The conflicts one scenario shows. `answers`: its questions' answers
        as `mtgkb run` gave them (asked here when None). A scenario the
        parser refuses is a conflict, or (not `refused`: a file beside the
        checkout, as `file_scenarios` leaves out) None."""
        found = self.case(name, text, generated, refused)
        return found if not isinstance(found, Case) else self.check_case(found, answers)

    def case(
        self, name: str, text: str, generated: bool = False, refused: bool = True, parsed=None
    ) -> Case | list[dict] | None:
        """The corpus item as a Case (`load_case`); a scenario the parser
        refuses is a conflict, or (not `refused`) None. `parsed`: the
        scenario as `mtgkb run` parsed this very text, when it did (the
        same parser: it is not parsed again)."""
        from mtgkb.language.errors import ScenarioError

        if parsed is not None and not is_fact_text(text):
            from mtgkb.language.facts import scenario_facts

            return Case(name, scenario_facts(parsed), parsed, text if generated else None)
        try:
            return load_case(name, text, generated)
        except ScenarioError as err:
            if not refused:
                return None
            message = f"the scenario language refuses this scenario: {err}"
            return [conflict(name, message, [], self.prepared)]

    def check_case(self, case: Case, answers: list | None = None) -> list[dict]:
        with self.base.in_use():
            return self._check_case(case, answers)

    @staticmethod
    def _given(found) -> tuple[dict | None, str | None]:
        """An answer the run gave, as `ask` returns one."""
        if not isinstance(found, dict):
            return None, "no answer"
        if found.get("supported") is False:
            return None, found.get("message", "not supported")
        return found, None

    def _check_case(self, case: Case, given: list | None = None) -> list[dict]:
        answers, listed = self._answered(case, given, self._session())
        scene = Scene(self.prepared, case.facts, self.timeout, listed, self.checks)
        return self._checked(case, answers, scene)

    def _answered(self, case: Case, given: list | None, session) -> tuple[list, list]:
        """Each question with its answer (or what went wrong), and the play
        atoms of the declarations listed that are fed back. `given`: the
        answers `mtgkb run` gave (asked here in `session` when None)."""
        answers = []
        listed: list[clingo.Symbol] = []
        questions = case.scenario.questions if case.scenario is not None else ()
        if given is not None and len(given) != len(questions):
            given = None
        for k, question in enumerate(questions):
            if given is not None:
                result, error = self._given(given[k])
            else:
                result, error = self.ask(case, question, session)
            answers.append((question, result, error))
            if result is not None and question.kind in ("attacks", "blocks"):
                pred = "declared_attack" if question.kind == "attacks" else "declared_block"
                for assignment in result.get("assignments", [])[: self.feed_back]:
                    listed += [
                        sym(pred, clingo.String(a), clingo.String(b))
                        for a, chosen in assignment.items()
                        for b in each_chosen(chosen)
                    ]
        return answers, listed

    def _checked(self, case: Case, answers: list, scene: Scene) -> list[dict]:
        """The conflicts of one case, its questions answered (`_answered`)."""
        more = {"text": case.text} if case.text else {}
        found: list[dict] = []

        def report(message: str, rules: Sequence[str]) -> None:
            found.append(conflict(case.name, message, rules, self.prepared, **more))

        conflicts = scene.life_check(case.name, **more)
        for question, result, error in answers:
            ask = f"ask {question.kind.replace('_', ' ')}"
            if result is None:
                report(f"'{ask}' gives no answer: {error}", [])
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
                sym("declared_attack", clingo.String(c), clingo.String(x))
                for c, x in assignment.items()
            ]
            violations = self.legal(scene, play)
            if not violations:
                continue
            if baseline is None:  # what the table itself breaks, with no play at all
                baseline = {_violation_key(v) for v in self.legal(scene, [PHASES["main"]])}
            relevant = [v for v in violations if _violation_key(v) not in baseline]
            if relevant:
                relevant = self.explained(scene, relevant)
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
        if declared not in listed and not self.legal(
            scene, [PHASES["declare_attackers"], *written]
        ):
            report(
                f"'ask legal' finds the declaration {_declaration_text('attacks', declared)} "
                "legal but 'ask attacks' does not list it",
                self.unlisted_rules(
                    "attacks", self._asked_facts(case, question), list(declared.items())
                ),
            )

    def _check_blocks(self, case: Case, scene: Scene, question, result: dict, report) -> None:
        defender = question.get("defender")
        who = f" for {defender}" if defender else ""
        # the listing `mtgkb run` reads from the counting forms is blocks.lp's own
        grounded = self.grounded(case, question)
        if grounded is not None and grounded != result:
            report(
                f"'ask blocks{who}' read from its counting forms (queries/block_classes.lp) "
                f"lists {_listing_text(result)} where blocks.lp's own grounding lists "
                f"{_listing_text(grounded)}",
                sorted(set(grounded.get("rules", [])) | {"509.1a"}, key=sort_key),
            )
            result = grounded  # (the checks below hold the rule base's own listing)
        if result.get("count", 0) == 0:
            report(
                "'ask blocks' finds no legal declaration of blockers (509.1)",
                self.unsat_rules("blocks", self._asked_facts(case, question)),
            )
            return
        attack = [f for f in scene.written if f.name in ("declared_attack", "band")]
        if self.legal(scene, [*attack, PHASES["declare_attackers"]]):
            return  # the declared attack is itself illegal: its blocks prove nothing
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
                sym("declared_block", clingo.String(b), clingo.String(c))
                for b, chosen in assignment.items()
                for c in each_chosen(chosen)
            ]
            bad = relevant(self.legal(scene, play))
            if bad:
                bad = self.explained(scene, bad)
                report(
                    "'ask blocks' lists the declaration "
                    f"{_declaration_text('blocks', assignment)} but 'ask legal' finds it "
                    "illegal: " + "; ".join(_violation_text(v) for v in bad),
                    scene.violation_rules(play, bad),
                )
        # the other way round: the blocks written (of this defender), when legal, are listed
        pairs = [
            (f.arguments[0].string, f.arguments[1].string)
            for f in scene.written
            if f.name == "declared_block"
            and (defender is None or controller.get(f.arguments[0].string) == defender)
        ]
        blocked: dict[str, list[str]] = {}
        for b, c in pairs:
            blocked.setdefault(b, []).append(c)
        # as a listing says it: one attacker by name, several as a list (509.1a)
        declared = {b: cs[0] if len(cs) == 1 else cs for b, cs in blocked.items()}
        if declared and declared not in listed and _complete(result):
            play = [*attack, PHASES["declare_blockers"]] + [
                sym("declared_block", clingo.String(b), clingo.String(c)) for b, c in pairs
            ]
            if not relevant(self.legal(scene, play)):
                report(
                    f"'ask legal' finds the declaration {_declaration_text('blocks', declared)} "
                    f"legal but 'ask blocks{who}' does not "
                    "list it",
                    self.unlisted_rules("blocks", self._asked_facts(case, question), pairs),
                )
        # 509.1c only requires blocks of creatures that must block; with none,
        # declaring no blockers breaks no requirement and no restriction.
        must = sym("blocks_if_able")
        if any(
            f.name == "has"
            and f.arguments[1] == must
            and f.arguments[0].type == clingo.SymbolType.String
            and f.arguments[0].string not in attackers
            and (defender is None or controller.get(f.arguments[0].string) == defender)
            for f in case.facts
        ):
            return
        play = [*attack, PHASES["declare_blockers"]]
        bad = relevant(self.legal(scene, play))
        if bad:
            bad = self.explained(scene, bad)
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


__all__ = ["Case", "Checker", "FEED_BACK", "MAX_MODELS", "ORDER_QUERIES", "load_case"]
