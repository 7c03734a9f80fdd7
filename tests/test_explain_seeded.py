"""`ask explain` grounds in proportion to the answer (issue 11, item 2): the
explanation graph and the traced derivations are derived only backward from
the conclusions of the answer (`explain_wanted/1`, seeded in
queries/explain.lp), and the cores of `forbidden_by` switch only the rules a
play may switch off. Both must give exactly the trees and the rule sets of
the whole graph and of every rule switched."""

import clingo
import pytest
from helpers import EXPLAIN_COMBAT

from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits
from mtgkb.questions.explain import answer as explain_answer
from mtgkb.questions.explain import answer_explain, forbidden, trace

# slow tier: seeded explanations against the whole graph, on many files
pytestmark = pytest.mark.slow

COMBAT = EXPLAIN_COMBAT

GRAPH = {"because", "rests_on", "_why", trace.WANTED}


def _scenario():
    scenario = parse_text(COMBAT, "<test>")
    return scenario, scenario_facts(scenario)


def _explained(monkeypatch, seeded: bool) -> dict:
    real = trace.solve_traced

    def solve(query, facts, timeout, seeded_=True, **_):
        return real(query, facts, timeout, seeded=seeded)

    monkeypatch.setattr(explain_answer, "solve_traced", solve)
    scenario, facts = _scenario()
    question = next(q for q in scenario.questions if q.kind == "explain")
    return answer_explain(question, scenario, facts, Limits())


def _nodes(items):
    for item in items:
        yield item
        yield from _nodes(item.get("because", []))


def test_seeded_trees_are_those_of_the_whole_graph(monkeypatch):
    seeded = _explained(monkeypatch, True)
    whole = _explained(monkeypatch, False)
    assert seeded == whole
    # the illegal block, and the rule that alone forbids it
    (play,) = seeded["forbidden"]
    assert play["rules"] == ["702.9b"] and "minimal" not in play
    assert play["objects"] == ["Grizzly Bears", "Serra Angel"]
    # the outcome's life totals decided by 119.3, resting on the combat damage
    outcome = next(item for item in seeded["tree"] if item["question"] == "outcome")
    carissa = next(n for n in outcome["because"] if n["atom"] == 'life("Carissa",20)')
    rob = next(n for n in outcome["because"] if n["atom"] == 'life("Rob",23)')
    assert carissa["rule"] == rob["rule"] == "119.3"
    (gain,) = [n for n in _nodes([rob]) if n["atom"].startswith('life_change(1,"Rob",3,')]
    assert gain["rule"] == "120.3f" and "702.15b" in gain["also"]  # lifelink


@pytest.mark.parametrize("query", ["legal", "outcome"])
def test_seeded_graph_holds_only_what_the_answer_needs(query):
    scenario, facts = _scenario()
    q = clingo.Function(query)
    situation = [f for f in facts if f.name != "asked"]
    own = [clingo.Function(name, [q]) for name in ("asked", "explaining")]
    _, whole = trace.solve_traced(query, situation + own, None)
    _, seeded = trace.solve_traced(query, situation + own, None, seeded=True)
    whole, seeded = set(whole), set(seeded)
    # every atom of the rules themselves is as without seeds
    assert {s for s in whole if s.name not in GRAPH} == {s for s in seeded if s.name not in GRAPH}
    wanted = {s.arguments[0] for s in seeded if s.name == trace.WANTED}
    assert any(s.name == "life" for s in wanted) == (query == "outcome")

    def about(sym):  # the conclusion a graph or trace atom is about
        if sym.name != "_why":
            return sym.arguments[0]
        head = sym.arguments[1]  # the trace of a `because` rule: about its conclusion
        return head.arguments[0] if head.name == "because" else head

    # for each wanted conclusion the graph and its derivations are complete
    graph = {s for s in whole if s.name in GRAPH - {trace.WANTED}}
    assert {s for s in graph if about(s) in wanted} == {
        s for s in seeded if s.name in GRAPH - {trace.WANTED}
    }
    # and the rest of the graph is not derived
    assert len(seeded & graph) < len(graph)


def test_forbidden_by_switches_only_the_candidates_with_the_same_rules():
    scenario, facts = _scenario()
    situation = [f for f in facts if f.name != "asked"]
    legal = situation + [clingo.Function("asked", [clingo.Function("legal")])]
    candidates = {"702.9b", "702.17b", "509.1a", "509.1b", "802.4b"}
    every = forbidden.Forbidder(legal)
    some = forbidden.Forbidder(legal, candidates=candidates)
    (violation,) = [
        a.symbol
        for a in some.ctl.symbolic_atoms.by_signature("violation", 2)
        if a.symbol.arguments[0] == clingo.parse_term('rule("702.9b")')
    ]
    found = some.rules([violation], candidates, 5.0)
    # with 509.1a switchable, the block itself needs it: both rules together
    assert found == every.rules([violation], candidates, 5.0) == (["509.1a", "702.9b"], "core")
    # the rules outside the candidates stay plain: the grounder settles them
    assert len(some.ctl.symbolic_atoms) < len(every.ctl.symbolic_atoms)
    assert not any(s.symbol.name in {"because", "rests_on"} for s in some.ctl.symbolic_atoms)
