"""`ask explain` traces the questions whose queries share a grounding in one
model (issue 26: explain's figure), as those questions are answered: `ask
legal` and `ask outcome` of one combat, each with its own asked/1 and
explaining/1 facts, one traced grounding for both. The trees must be the
very ones each question's own traced model gives, built in the order the
questions are asked (they share one budget): 702.9b's fault for the
declared blocks, 119.3's life totals after 510.1a's combat damage and
702.15b's lifelink."""

from __future__ import annotations

import pytest
from helpers import EXPLAIN_COMBAT

from mtgkb.engine.session import Session
from mtgkb.engine.state import Engine, Options
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits
from mtgkb.questions.explain import answer as explain_answer


def _explained(monkeypatch, share: bool, text: str = EXPLAIN_COMBAT) -> tuple[dict, list]:
    """The explain answer, and the queries of each traced solve it made."""
    solved: list = []
    real = explain_answer.solve_traced

    def counted(query, *args, **kwargs):
        solved.append(query)
        return real(query, *args, **kwargs)

    monkeypatch.setattr(explain_answer, "solve_traced", counted)
    engine = Engine(Options.from_env().but(share=share))
    scenario = parse_text(text, "<test>")
    question = next(q for q in scenario.questions if q.kind == "explain")
    facts = scenario_facts(scenario)
    answer = explain_answer.answer_explain(question, scenario, facts, Limits(), Session(engine))
    return answer, solved


def _roots(answer: dict) -> dict[str, list[tuple[str, str]]]:
    return {
        item["question"]: [(node["atom"], node.get("rule")) for node in item.get("because", [])]
        for item in answer["tree"]
    }


def test_legal_and_outcome_are_traced_in_one_model_with_the_trees_each_gives_alone(monkeypatch):
    together, solved = _explained(monkeypatch, share=True)
    assert solved == [["legal", "outcome"]]  # one traced grounding for both
    apart, solved_apart = _explained(monkeypatch, share=False)
    assert solved_apart == ["legal", "outcome"]
    assert together == apart
    roots = _roots(together)
    # 702.9b: a creature without flying or reach can't block a flyer
    assert roots["legal"] == [
        ('violation(rule("702.9b"),blocks_flyer("Grizzly Bears","Serra Angel"))', "702.9b")
    ]
    # 510.1a: the unblocked Goblin deals 1 to Alex; 702.15b: Hill Giant's
    # lifelink gains Rob 3 (the Wall is dealt its damage); 119.3 moves the totals
    assert ('life("Alex",19)', "119.3") in roots["outcome"]
    assert ('life("Rob",23)', "119.3") in roots["outcome"]
    assert {"702.9b", "702.15b", "510.1a", "119.3"} <= set(together["rules"])
    assert together["forbidden"][0]["rules"] == ["702.9b"]


@pytest.mark.parametrize("order", [("outcome", "legal"), ("legal", "outcome")])
def test_the_trees_come_in_the_order_the_questions_are_asked(monkeypatch, order):
    asks = "".join(f"ask {q}\n" for q in order)
    text = EXPLAIN_COMBAT.replace("ask legal\nask outcome\n", asks)
    together, solved = _explained(monkeypatch, share=True, text=text)
    assert solved == [list(order)]
    assert [item["question"] for item in together["tree"]] == list(order)
    assert together == _explained(monkeypatch, share=False, text=text)[0]


def test_two_questions_of_one_query_are_each_traced_with_their_own_asked_fact(monkeypatch):
    # `ask fix` is explained by the legal query, as `ask legal` is: not merged
    text = EXPLAIN_COMBAT.replace("ask outcome\n", "ask outcome\nask fix\n")
    together, solved = _explained(monkeypatch, share=True, text=text)
    assert solved == [["legal", "outcome"], "legal"]
    assert together == _explained(monkeypatch, share=False, text=text)[0]
