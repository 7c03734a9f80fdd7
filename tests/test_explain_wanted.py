"""`ask explain` grounds only the twins that can fire (issue 26): a twin
`_why(K,H,t(...))` is guarded by `explain_wanted(X)`, and the names a wanted
conclusion can have are read from the traced program's texts
(mtgkb.questions.explain.wanted). The twins left out have no ground
instance: the model, and so the explanation, must be exactly the same."""

import clingo
import pytest
from helpers import EXPLAIN_COMBAT

from mtgkb.engine.session import Session
from mtgkb.engine.state import Engine, Options
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits
from mtgkb.questions.explain import answer_explain, trace
from mtgkb.questions.explain.wanted import idle_twins


def _situation(query: str) -> list[clingo.Symbol]:
    scenario = parse_text(EXPLAIN_COMBAT, "<test>")
    facts = [f for f in scenario_facts(scenario) if f.name != "asked"]
    q = clingo.Function(query)
    return facts + [clingo.Function(name, [q]) for name in ("asked", "explaining")]


def _names(facts) -> set[str]:
    return {f.name for f in facts}


@pytest.mark.parametrize("query", ["legal", "outcome"])
def test_twins_that_cannot_fire_are_left_out_and_the_model_is_the_same(query):
    facts = _situation(query)
    program = trace.traced_program(query, seeded=True)
    idle = idle_twins(program, {query}, _names(facts))
    # some twins are left out, and only twins
    assert idle and idle <= program.twins and len(idle) < len(program.twins)

    def leave_out(p):
        return idle_twins(p, {query}, _names(facts))

    _, fewer = trace.solve_traced(query, facts, None, seeded=True, leave_out=leave_out)
    _, everything = trace.solve_traced(query, facts, None, seeded=True)
    assert set(fewer) == set(everything)
    # 119.3 (outcome) and 702.9b (legal) conclusions are still traced
    whys = {s.arguments[1].name for s in fewer if s.name == "_why"}
    assert ("life" if query == "outcome" else "violation") in whys


def test_a_question_asked_of_another_question_fires_no_twin():
    # explain_limit(attacks, ...) rules ask explaining(attacks): idle for `legal`
    program = trace.traced_program("legal", seeded=True)
    idle = idle_twins(program, {"legal"}, _names(_situation("legal")))
    limits = [
        i
        for i in program.twins
        if program.texts[i].startswith("_why(") and "explaining(attacks)" in program.texts[i]
    ]
    assert limits and set(limits) <= idle


def test_a_wanted_name_read_from_a_fact_keeps_every_twin():
    program = trace.traced_program("outcome", seeded=True)
    # outcome_decided/1 given as a fact too: its names are not read, nothing is left out
    assert idle_twins(program, {"outcome"}, {"outcome_decided"}) == set()
    assert idle_twins(program, {"outcome"}, set())


def test_the_explanation_is_the_one_with_every_twin(monkeypatch):
    scenario = parse_text(EXPLAIN_COMBAT, "<test>")
    question = next(q for q in scenario.questions if q.kind == "explain")
    facts = scenario_facts(scenario)
    engine = Engine(Options.from_env())
    fewer = answer_explain(question, scenario, facts, Limits(), Session(engine))
    from mtgkb.questions.explain import answer as explain_answer

    monkeypatch.setattr(explain_answer, "idle_twins", lambda *args: set())
    everything = answer_explain(question, scenario, facts, Limits(), Session(engine))
    assert fewer == everything
    (play,) = fewer["forbidden"]
    assert play["rules"] == ["702.9b"]
