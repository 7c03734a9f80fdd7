"""Forward slicing reads the values a rule's body asks for: a rule that needs
`has(C, deathtouch)` is not grounded for a scenario where nothing has
deathtouch or can come to have it. Sound by construction (an atom matches a
literal unless both fix a position to different values; what cannot be read
is kept), and checked here against the answers without slicing."""

from __future__ import annotations

import clingo
import pytest
from helpers import LIFELINK_COMBAT, canonical_answers, examples, scenario
from helpers.answering import engine
from hypothesis import HealthCheck, given, settings

from mtgkb.engine.analysis import Analysis, _value_and_shape, analyse, shape_of
from mtgkb.engine.solve import Grounding
from mtgkb.engine.state import Engine, Options
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

# slow tier: forward slicing against no slicing, on many files
pytestmark = pytest.mark.slow

RULES = """\
deadly(C) :- has(C, deathtouch).
healing(C) :- has(C, lifelink).
lethal(C) :- deadly(C), blocked(C).
has(C, A) :- granted(C, A).
{ chosen(C, first) } :- creature(C).
picked(C) :- chosen(C, first).
never(C) :- chosen(C, second).
pooled(C) :- has(C, (deathtouch; trample)).
"""


def _analysis(text: str) -> Analysis:
    data = {"base": analyse(text), "queries": {}, "guardable": {}, "definitions": {}}
    return Analysis(data, text.encode("utf-8"))


def _live(text: str, *facts: str) -> list[str]:
    analysis = _analysis(text)
    sources = analysis.sources([clingo.parse_term(f) for f in facts])
    kept = list(range(len(analysis.base)))
    return analysis.program(analysis.live(kept, sources)).splitlines()


def test_a_rule_whose_body_asks_for_a_value_no_atom_has_is_left_out():
    live = _live(RULES, 'has("Bear", lifelink)', 'creature("Bear")')
    assert "healing(C) :- has(C, lifelink)." in live
    assert "deadly(C) :- has(C, deathtouch)." not in live
    # nothing deadly: what rests on it goes too
    assert "lethal(C) :- deadly(C), blocked(C)." not in live


def test_a_value_a_rule_may_derive_keeps_the_rules_that_ask_for_it():
    # granted/2 may give any ability: has(C, deathtouch) may hold
    live = _live(RULES, 'granted("Bear", flying)', 'blocked("Bear")')
    assert "deadly(C) :- has(C, deathtouch)." in live
    assert "lethal(C) :- deadly(C), blocked(C)." in live


def test_a_choice_derives_only_the_values_it_names():
    live = _live(RULES, 'creature("Bear")')
    assert "picked(C) :- chosen(C, first)." in live
    assert "never(C) :- chosen(C, second)." not in live


def test_a_pool_in_a_body_is_not_read_for_values():
    # has(C, (deathtouch; trample)) is two rules: kept, whatever the values
    assert "pooled(C) :- has(C, (deathtouch; trample))." in _live(RULES, 'has("Bear", flying)')


EVENTS = """\
conceded(P) :- event(I, concede(P)).
hurt(X) :- event(I, damage(S, X, N)).
event(I, concede(P)) :- quits(I, P).
"""


def test_a_function_with_variables_is_read_by_its_name_and_arity():
    live = _live(EVENTS, 'event(1, damage("Bear", "Ann", 2))')
    assert "hurt(X) :- event(I, damage(S, X, N))." in live
    assert "conceded(P) :- event(I, concede(P))." not in live
    # a rule that may derive the event keeps what reads it
    live = _live(EVENTS, 'event(1, damage("Bear", "Ann", 2))', 'quits(2, "Ann")')
    assert "conceded(P) :- event(I, concede(P))." in live


def test_a_const_makes_values_unreadable_and_keeps_every_rule_by_name():
    text = "#const kind = lifelink.\ngood(C) :- has(C, kind).\n"
    assert "good(C) :- has(C, kind)." in _live(text, 'has("Bear", lifelink)')


COMBAT = LIFELINK_COMBAT


def _grounded(text: str, query: str) -> str:
    engine = Engine()
    facts = scenario_facts(parse_text(text, "x"))
    grounding = Grounding([query], facts, engine=engine)
    base = engine.rule_base()
    return base.analysis().program(grounding._rule_base_statements(base, facts, True))


def test_the_rule_base_grounded_for_a_combat_follows_its_abilities():
    # 704.5h's damage from a creature with deathtouch (rules/704_5_destruction.lp)
    rule = "deathtouch_damaged(X) :- combat_dealt(_,_,S,X,N), has(S,deathtouch)"
    without = _grounded(COMBAT, "outcome").replace("\n", " ")
    with_deathtouch = _grounded(COMBAT.replace("with lifelink", "with deathtouch"), "outcome")
    assert rule not in without
    assert rule in with_deathtouch.replace("\n", " ")
    # and the answer cites the rule that decides it: 702.2b, deathtouch's lethal damage
    answer = answer_text(
        COMBAT.replace("with lifelink", "with deathtouch"), "x", engine=engine()
    ).output
    outcome = answer["answers"][1]
    assert outcome["destroyed"] == ["Wall"] and "702.2b" in outcome["rules"]


@settings(
    max_examples=examples(15),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(scenario())
def test_forward_slicing_changes_no_answer(text):
    limits = Limits(max_models=20)
    # (which declarations a capped list shows follows the grounding: compared as sets)
    sliced = answer_text(text, "x", limits, engine=Engine()).output
    whole = answer_text(text, "x", limits, engine=Engine(Options.from_env().but(slicing=False)))
    assert canonical_answers(sliced) == canonical_answers(whole.output)


@pytest.mark.parametrize(
    "text",
    [
        '"a(b"',
        '"x"',
        "-3",
        "3",
        "flying",
        "f(a,b)",
        "-f(a)",
        "-a",
        "(a,b)",
        "#inf",
        "#sup",
        "()",
        'f("x,y")',
    ],
)
def test_a_facts_value_and_shape_are_read_as_clingo_says(text):
    # the shape is read from the text where the text shows it: it must be
    # the one clingo's symbol has
    symbol = clingo.parse_term(text)
    assert _value_and_shape(symbol) == (str(symbol), shape_of(symbol))


def test_a_batch_chunk_grounds_what_one_of_its_scenarios_may_fire():
    from mtgkb.engine.scenarios import scenario_program

    engine = Engine()
    program = scenario_program("outcome", engine)
    lifelink = scenario_facts(parse_text(COMBAT, "a"))
    deathtouch = scenario_facts(parse_text(COMBAT.replace("lifelink", "deathtouch"), "b"))

    def grounds_704_5h(*instances) -> bool:
        texts = [str(node) for node in program.live(list(instances))]
        return any(t.startswith("deathtouch_damaged(") for t in texts)

    assert not grounds_704_5h(lifelink, lifelink)
    assert grounds_704_5h(lifelink, deathtouch)


def test_a_chunks_queries_read_its_facts_once_and_answer_as_each_alone():
    # the questions of a batch chunk share their files' facts: what forward
    # slicing and the grounding read of each fact is read from clingo once
    from mtgkb.engine.scenarios import Readings, solve_many

    engine = Engine()
    lifelink = scenario_facts(parse_text(COMBAT, "a"))
    deathtouch = scenario_facts(parse_text(COMBAT.replace("lifelink", "deathtouch"), "b"))
    readings = Readings()
    assert solve_many("legal", [lifelink, deathtouch], engine=engine, readings=readings)
    assert set(readings.parts) == {*lifelink, *deathtouch}
    analysis = engine.rule_base().analysis()
    read = readings.slicing(analysis)
    assert set(read) == {*lifelink, *deathtouch}
    shared = solve_many("outcome", [lifelink, deathtouch], engine=engine, readings=readings)
    alone = solve_many("outcome", [lifelink, deathtouch], engine=Engine())
    assert shared == alone
    # 704.5h: the Wall dealt damage by a creature with deathtouch is destroyed
    assert {str(s) for s in shared[1]} >= {'destroyed("Wall")', 'cites(rule("704.5h"))'}
    assert 'destroyed("Wall")' not in {str(s) for s in shared[0]}
    # what slicing read is kept for the analysis it was read for only
    assert readings.slicing(analysis) is read
    assert readings.slicing(object()) == {}


def test_a_batch_rewrites_only_the_statements_a_chunk_may_fire():
    # giving a statement the scenario argument is Python's work (about a
    # quarter of a millisecond each): done once a chunk may fire it
    from mtgkb.engine.scenarios import scenario_program, solve_many

    engine = Engine()
    lifelink = scenario_facts(parse_text(COMBAT, "a"))
    assert solve_many("outcome", [lifelink, lifelink], engine=engine) is not None
    program = scenario_program("outcome", engine)
    made = {str(node) for node in program._made.values()}
    assert not any(t.startswith("deathtouch_damaged(") for t in made)
    assert len(program._made) < len(program.statements)
    deathtouch = scenario_facts(parse_text(COMBAT.replace("lifelink", "deathtouch"), "b"))
    assert solve_many("outcome", [deathtouch, lifelink], engine=engine) is not None
    made = {str(node) for node in program._made.values()}
    assert any(t.startswith("deathtouch_damaged(") for t in made)
