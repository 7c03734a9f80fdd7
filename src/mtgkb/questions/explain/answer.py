"""The `explain` answer: a tree per other question of the file, and the
rules that forbid each illegal play."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import clingo

from mtgkb.engine.analysis import FactReadings
from mtgkb.engine.cores import Budget
from mtgkb.engine.solve import group_queries
from mtgkb.language.facts import Facts, fact_signatures, fixed_facts, question_symbol
from mtgkb.language.model import Question
from mtgkb.questions.explain.forbidden import (
    CORE_TIMEOUT,
    Forbidder,
    candidate_rules,
    forbidden_plays,
)
from mtgkb.questions.explain.graph import READ_SIGNATURES, Graph, own_rule
from mtgkb.questions.explain.tables import NEEDS_PARAMETERS, PLAY_FACTS, QUERY_OF
from mtgkb.questions.explain.text import words_of
from mtgkb.questions.explain.trace import solve_traced
from mtgkb.questions.explain.tree import Builder
from mtgkb.questions.explain.wanted import idle_twins
from mtgkb.questions.symbols import names_in
from mtgkb.rulebase import registry
from mtgkb.rulebase.index import sort_key
from mtgkb.rulebase.location import query_file


def _explained_symbol(q) -> clingo.Symbol:
    """The asked/1 and explaining/1 term of a question explained."""
    if q.kind == "fix":
        return clingo.Function("legal")
    return question_symbol(q)


def _root_order(players: Sequence[str]):
    """Numbers in order, players in seating order, other names alphabetically."""
    seats = {name: i for i, name in enumerate(players)}

    def arg(a: clingo.Symbol) -> tuple:
        if a.type == clingo.SymbolType.Number:
            return (0, a.number, "")
        if a.type == clingo.SymbolType.String:
            return (1, seats.get(a.string, len(seats)), a.string)
        return (2, 0, str(a))

    return lambda sym: (sym.name, tuple(arg(a) for a in sym.arguments))


def _idle_twins(explained: Sequence[clingo.Symbol], facts: Sequence[clingo.Symbol]):
    """The twins of a traced program that cannot fire when the `explained`
    questions are, on these facts (`wanted`)."""
    plain = all(q.type == clingo.SymbolType.Function for q in explained)
    questions = {q.name for q in explained} if plain else None

    def idle(program) -> set[int]:
        return idle_twins(program, questions, _fact_names(facts))

    return idle


def _fact_names(facts: Sequence[clingo.Symbol]) -> set[str]:
    """The names of the facts: those of the first facts from their
    signatures where these are known (mtgkb.language.facts.Facts), the
    others read from clingo."""
    signatures = fact_signatures(facts) or ()
    if len(signatures) > len(facts):
        signatures = ()
    found = {name for name, _ in signatures}
    found.update(f.name for f in facts[len(signatures) :] if f.type == clingo.SymbolType.Function)
    return found


def _together(traced: list, engine) -> list[list]:
    """The questions traced, (item, symbol, query) each, in groups whose
    queries share a grounding (mtgkb.engine.solve.group_queries), each
    question alone without an engine or with sharing off (MTGKB_SHARE=0)."""
    if engine is None or not engine.options.share:
        return [[entry] for entry in traced]
    groups = group_queries([query for _, _, query in traced], engine)
    of = {query: i for i, group in enumerate(groups) for query in group}
    out: list[list] = [[] for _ in groups]
    for entry in traced:
        group = out[of[entry[2]]]
        if any(query == entry[2] for _, _, query in group):
            out.append([entry])  # (a second question of one query: its own asked/1)
        else:
            group.append(entry)
    return [group for group in out if group]


def _has_play(facts: Iterable[clingo.Symbol]) -> bool:
    for f in facts:
        if f.name in PLAY_FACTS:
            return True
        if f.name == "event" and len(f.arguments) == 2 and f.arguments[1].name == "pay_life":
            return True
    return False


def _question_node(question) -> dict:
    source = getattr(question, "source", "") or f"ask {question.kind.replace('_', ' ')}"
    return {"conclusion": source.strip(), "question": question.kind}


class _Explainer:
    """The trees of one file's questions, sharing the bounds and the rules cited."""

    def __init__(
        self,
        scenario,
        facts: Sequence[clingo.Symbol],
        timeout: float | None,
        lang: str = "en",
        engine=None,
        session=None,
    ):
        """`engine`: the one the questions are answered with, whose rule base
        slices the traced programs (None: they are not sliced)."""
        self.engine = engine
        self.lang = lang
        self.w = words_of(lang)
        self.facts = list(facts)
        # (the facts' names and their (name, arity) known as they were made:
        # none read from clingo, and the traced groundings given them by
        # signature, mtgkb.engine.solve.give_facts)
        self.situation = fixed_facts(facts)
        self.signatures = fact_signatures(facts)
        self.timeout = timeout
        self.builder = Builder(lang=lang)
        self.order = _root_order(getattr(scenario, "player_names", []))
        self.legal: Graph | None = None
        #: what slicing read of the facts, for each question's traced program:
        #: by place, the file's own readings where its groundings made them
        #: (their names and arguments known as the facts were made)
        self.readings = FactReadings(
            self.situation, self.signatures, getattr(facts, "arguments", None)
        )
        shared = getattr(session, "groundings", None)
        if shared is not None and shared.matches(scenario, self.situation):
            self.readings = shared.readings
        self.violation_nodes: list[tuple[dict, clingo.Symbol]] = []

    def question(self, item: dict, qsym: clingo.Symbol, query: str) -> Graph | None:
        """The tree of one question, from its own traced model."""
        return self.tree(item, qsym, query, self.graph([(item, qsym, query)]))

    def graph(self, asked: Sequence[tuple[dict, clingo.Symbol, str]]) -> Graph | None:
        """The graph of one traced model for these questions, (item, question
        symbol, query) each, whose queries share a grounding: each question
        with its own asked/1 fact, as when they are answered together."""
        own = [
            clingo.Function(name, [qsym])
            for _, qsym, _ in asked
            for name in ("asked", "explaining")
        ]
        queries = [query for _, _, query in asked]
        facts = Facts(self.situation, own, self.signatures)
        program, model = solve_traced(
            queries[0] if len(queries) == 1 else queries,
            facts,
            self.timeout,
            seeded=True,
            engine=self.engine,
            readings=self.readings,
            read=READ_SIGNATURES,
            leave_out=_idle_twins([qsym for _, qsym, _ in asked], facts),
        )
        if model is None:
            return None
        return Graph.of(program, model, facts)

    def tree(self, item: dict, qsym: clingo.Symbol, query: str, g: Graph | None) -> Graph | None:
        """The tree of one question, read from the graph of its traced model
        (None: there was no model)."""
        if g is None:
            item["note"] = self.w.say("no_answer")
            return None
        roots = sorted(g.roots.get(qsym, []), key=self.order)
        nodes = self.builder.tree(g, roots)
        if nodes:
            item["because"] = nodes
        if query == "legal":
            self.legal = g
            self.violation_nodes += [
                (node, sym)
                for node, sym in zip(nodes, roots, strict=False)
                if sym.name == "violation"
            ]
        return g

    def can(self, item: dict, q, scenario) -> None:
        """`ask can PLAY`: the faults the play can't avoid, on the facts it is
        judged on (mtgkb.questions.judge), and the rules that forbid it."""
        from mtgkb.questions.plays import STEPS, hypothesis_facts, target_play

        field = q["field"]
        if field not in STEPS:
            item["note"] = self.w.say("not_built")
            return
        play = target_play(q) if field == "targets" else (q.get("plays") or q["play"])
        step, hypo = hypothesis_facts(scenario, field, play)
        own = clingo.Function("can", [clingo.Function(step)])
        situation = [f for f in hypo if f.name != "asked"]
        facts = situation + [clingo.Function(n, [own]) for n in ("asked", "explaining")]
        program, model = solve_traced(
            "can",
            facts,
            self.timeout,
            seeded=True,
            engine=self.engine,
            readings=self.readings,
            read=READ_SIGNATURES,
            leave_out=_idle_twins([own], facts),
        )
        if model is None:
            item["note"] = self.w.say("no_answer")
            return
        g = Graph.of(program, model, facts)
        roots = sorted(g.roots.get(own, []), key=self.order)
        nodes = self.builder.tree(g, roots)
        if nodes:
            item["because"] = nodes
        faults = [s for s in roots if s.name == "violation"]
        if faults:
            budget = min(CORE_TIMEOUT, self.timeout) if self.timeout else CORE_TIMEOUT
            try:
                found = candidate_rules(g, faults)
                rules, _ = Forbidder(hypo, query="can", candidates=found).rules(
                    [clingo.Function("can_faulty")], found, budget
                )
            except Budget:
                rules = None
            found = rules or sorted({own_rule(v) for v in faults}, key=sort_key)
            self.builder.rules.update(found)
            nodes[0]["forbidden_by"] = {"rules": found, "objects": names_in(faults[0].arguments[1])}
            if not rules:
                nodes[0]["forbidden_by"]["minimal"] = False

    def forbidden(self) -> list[dict]:
        """The illegal plays, each node of one carrying its `forbidden_by`."""
        g = self.legal
        if g is None:
            return []
        violations = sorted(set(g.violations))
        budget = min(CORE_TIMEOUT, self.timeout) if self.timeout else CORE_TIMEOUT
        legal = Facts(
            self.situation, [clingo.Function("asked", [clingo.Function("legal")])], self.signatures
        )
        plays = forbidden_plays(
            g, legal, violations, budget, self.lang, engine=self.engine, readings=self.readings
        )
        for play in plays:
            self.builder.rules.update(play["rules"])
            nodes = [(n, sym) for n, sym in self.violation_nodes if sym in play["_group"]]
            if not nodes:
                continue
            # one node per play carries it: the first violation of a rule in the set
            node = next((n for n, sym in nodes if own_rule(sym) in play["rules"]), nodes[0][0])
            node["forbidden_by"] = {"rules": play["rules"], "objects": play["objects"]}
            if play.get("minimal") is False:
                node["forbidden_by"]["minimal"] = False
        return [{k: v for k, v in play.items() if not k.startswith("_")} for play in plays]


def answer_explain(question, scenario, facts, limits, session=None) -> dict:
    """The spec's `explain` answer: a tree per other question of the file, and
    the rules that forbid each illegal play (`forbidden_by`, `forbidden`)."""
    lang = getattr(limits, "lang", "en")
    engine = session.engine if session is not None else None
    ex = _Explainer(scenario, facts, getattr(limits, "timeout", None), lang, engine, session)
    only = question.get("only")
    tree: list[dict] = []
    asked = [q for q in scenario.questions if q.kind != "explain"]
    if only is not None:
        asked = [q for q in asked if q.kind == only]
        if not asked and only not in NEEDS_PARAMETERS and only != "legal":
            # `ask explain outcome` in a file that does not ask it: as if asked
            asked = [Question(kind=only, source=f"ask {only.replace('_', ' ')}")]
    items = [_question_node(q) for q in asked]
    tree.extend(items)
    traced = [
        (item, _explained_symbol(q), QUERY_OF[q.kind])
        for item, q in zip(items, asked, strict=True)
        if q.kind != "can" and q.kind in QUERY_OF and query_file(QUERY_OF[q.kind]).exists()
    ]
    # the questions whose queries share a grounding are traced in one model,
    # their trees built in the order they are asked (they share one budget)
    graphs: dict[int, Graph | None] = {}
    group_of = {id(entry[0]): group for group in _together(traced, engine) for entry in group}
    for item, q in zip(items, asked, strict=True):
        if q.kind == "can":
            ex.can(item, q, scenario)
            continue
        group = group_of.get(id(item))
        if group is None:
            item["note"] = ex.w.say("not_built")
            continue
        if id(group) not in graphs:
            graphs[id(group)] = ex.graph(group)
        entry = next(e for e in group if e[0] is item)
        ex.tree(*entry, graphs[id(group)])
    if ex.legal is None and only in (None, "legal") and (_has_play(ex.facts) or only):
        # no `ask legal`: the declared play is judged all the same, and shown
        # if illegal (or, when `ask explain legal` asks for it, in any case)
        item = {"conclusion": ex.w.say("declarations"), "question": "legal"}
        ex.question(item, clingo.Function("legal"), "legal")
        if ex.violation_nodes or only:
            tree.append(item)
        else:
            ex.legal = None
    forbidden = ex.forbidden()
    answer: dict = {"ask": "explain", "tree": tree}
    if only is not None:
        answer = {"ask": "explain", "question": registry.ask_name(only), "tree": tree}
    if forbidden:
        answer["forbidden"] = forbidden
    answer["truncated"] = ex.builder.truncated
    answer["rules"] = sorted(ex.builder.rules, key=sort_key)
    return answer
