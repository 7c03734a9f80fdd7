"""A batch chunk solves its files' single-model questions (`ask legal`, `ask
outcome`, the counting forms of `ask blocks`) in one grounding
(mtgkb.engine.scenarios.solve_merged): each file's facts one scenario, each
query's statements switched on for the files that ask it, one solve a
query; the rule base's statements the queries share are grounded once for
the chunk, not once a query. The answers are those of each query alone,
and of each file alone."""

from __future__ import annotations

from mtgkb.engine.scenarios import solve_many, solve_merged
from mtgkb.engine.state import Engine
from mtgkb.language.facts import asked_facts, fact_signatures, fixed_facts, scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits, facts_for

COMBAT = """players: Ann, Ben
active: Ann
phase: declare-blockers
Ann controls creature "Bear" 2/2 with {ability}
Ben controls creature "Wall" 0/4
"Bear" attacks Ben
"Wall" blocks "Bear"
combat damage
{questions}
"""


def _file(ability: str, questions: str):
    return parse_text(COMBAT.format(ability=ability, questions=questions), ability)


def _texts(model) -> set[str] | None:
    return None if model is None else {str(s) for s in model}


def test_queries_solved_together_answer_as_each_alone():
    both = "ask legal\nask outcome"
    scenarios = [_file("lifelink", both), _file("menace", both), _file("deathtouch", "ask legal")]
    facts = [scenario_facts(sc) for sc in scenarios]
    asked = [
        {q.kind: asked_facts(facts_for(q, f)) for q in sc.questions}
        for sc, f in zip(scenarios, facts, strict=True)
    ]
    found = solve_merged(
        ["legal", "outcome"],
        [fixed_facts(f) for f in facts],
        asked,
        engine=Engine(),
        signatures=[fact_signatures(f) for f in facts],
    )
    assert found is not None
    for query in ("legal", "outcome"):
        asking = [
            (i, facts_for(q, f))
            for i, (sc, f) in enumerate(zip(scenarios, facts, strict=True))
            for q in sc.questions
            if q.kind == query
        ]
        alone = solve_many(query, [own for _, own in asking], engine=Engine())
        assert [_texts(found[query][i]) for i, _ in asking] == [_texts(m) for m in alone]
    # the file that does not ask for the outcome gets none
    assert found["outcome"][2] is None
    legal = [_texts(m) for m in found["legal"]]
    outcome = [_texts(m) for m in found["outcome"]]
    # 702.15b: the Bear's lifelink gains Ann the 2 it dealt the Wall
    assert 'life("Ann",22)' in outcome[0]
    # 702.111b (509.1b): a creature with menace blocked by one creature only
    assert any(t.startswith('violation(rule("702.111b"),') for t in legal[1])
    assert not any(t.startswith("violation(") for t in legal[0] | legal[2])


def test_a_chunks_files_are_answered_as_alone_with_their_queries_together(tmp_path, monkeypatch):
    # files asking legal, outcome and blocks; the outcome alone (its play
    # judged by `legal`, together with the others where on the file's own
    # facts); two defenders' blocks (the counting forms asked twice by one
    # file: solved on their own)
    from mtgkb.engine import scenarios
    from mtgkb.running.batch import COMBINE_FROM, answer_files, answer_path

    texts = [
        COMBAT.format(ability="lifelink", questions="ask legal\nask outcome\nask blocks"),
        COMBAT.format(ability="menace", questions="ask outcome"),
        COMBAT.format(ability="deathtouch", questions="ask blocks for Ben\nask blocks for Ann"),
    ] * (COMBINE_FROM // 3 + 1)
    paths = []
    for i, text in enumerate(texts):
        path = tmp_path / f"f{i}.mtg"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    limits = Limits(max_models=5)
    alone = [answer_path(p, limits).output for p in paths]
    together = []
    original = scenarios.solve_merged

    def recorded(queries, *args, **kwargs):
        together.append(list(queries))
        return original(queries, *args, **kwargs)

    monkeypatch.setattr(scenarios, "solve_merged", recorded)
    assert [r.output for r in answer_files(paths, limits)] == alone
    assert together and all(len(queries) >= 2 for queries in together)
    assert "outcome" in together[0], together
