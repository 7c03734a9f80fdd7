"""What a file's facts are known by where they are made (their name and
arity, `Facts.signatures`) only spares calls into clingo: the grounder is
given them as the values of one external function per signature
(mtgkb.engine.solve.FactRules) instead of one backend rule each, forward
slicing reads their names without asking clingo, and the rules not
modelled are grounded with only the facts whose names their text holds.
The answers are those of the same facts given one by one, unsigned.

The CR: 702.9b (a creature with flying can't be blocked except by
creatures with flying or reach) decides `ask legal` below, 120.3c (damage
to a planeswalker removes loyalty counters; not encoded) its `"unmodelled"`."""

from __future__ import annotations

import clingo
from helpers import PLANESWALKER

import mtgkb.engine.analysis as analysis_module
from mtgkb.engine.analysis import FactReadings
from mtgkb.engine.solve import FactRules, Grounding
from mtgkb.engine.state import Engine
from mtgkb.language.facts import (
    Facts,
    fact_arguments,
    fact_signatures,
    fixed_facts,
    scenario_facts,
)
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits, SameFacts, answer, facts_for

# a name that reads as program text stays a string: the facts are symbols
HOSTILE = "Bird). ok(1"
FLYER = f"""players: Ann, Ben
active: Ann
phase: declare-blockers
Ann controls creature "{HOSTILE}" 1/1 with flying
Ben controls creature "Grizzly Bears" 2/2
"{HOSTILE}" attacks Ben
"Grizzly Bears" blocks "{HOSTILE}"
ask legal
ask outcome
"""


def _models(query: str, facts, **options) -> list[set[str]]:
    grounding = Grounding([query], facts, engine=Engine(), **options)
    return [{str(s) for s in m} for m in grounding.solve(query).models]


def test_the_scenario_s_facts_carry_their_signatures():
    facts = scenario_facts(parse_text(FLYER))
    signatures = fact_signatures(facts)
    fixed = fixed_facts(facts)
    assert signatures is not None and len(signatures) == len(fixed)
    assert all((s.name, len(s.arguments)) == sig for s, sig in zip(fixed, signatures, strict=True))
    assert fact_signatures(list(facts)) is None  # a plain list is not known


def test_the_scenario_s_facts_carry_their_arguments_and_slicing_reads_them_alike():
    facts = scenario_facts(parse_text(FLYER))
    arguments = fact_arguments(facts)
    fixed = fixed_facts(facts)
    assert arguments is not None and len(arguments) == len(fixed)
    assert all(list(s.arguments) == list(a) for s, a in zip(fixed, arguments, strict=True))
    assert fact_arguments(list(facts)) is None  # a plain list is not known
    # forward slicing reads the same values from the known arguments as from clingo
    analysis = Engine().rule_base().analysis()
    signatures = fact_signatures(facts)
    known = analysis.sources(fixed, readings=FactReadings(fixed, signatures, arguments))
    assert known == analysis.sources(fixed) == analysis.sources(fixed, readings={})
    # the facts of one question keep them (mtgkb.questions.answers.facts_for)
    (question, *_) = parse_text(FLYER).questions
    assert fact_arguments(facts_for(question, facts)) == arguments


def test_the_same_facts_read_again_are_not_read_one_by_one(monkeypatch):
    """The groundings of one file give forward slicing the same list of
    atoms (its facts, then its questions' atoms): the second reading takes
    what the first found, without going through the atoms again; another
    list, one atom fewer, is read again, and says the same of the atoms it
    has as a reading from nothing."""
    facts = scenario_facts(parse_text(FLYER))
    fixed = fixed_facts(facts)
    analysis = Engine().rule_base().analysis()
    readings = FactReadings(fixed, fact_signatures(facts), fact_arguments(facts))
    atoms = [*fixed, *facts.asked]
    reads: list[int] = []
    original = analysis_module._read_sources

    def counted(atoms, positions, out, readings):
        reads.append(len(atoms))
        return original(atoms, positions, out, readings)

    monkeypatch.setattr(analysis_module, "_read_sources", counted)
    first = analysis.sources(atoms, also={"q": {()}}, readings=readings)
    again = analysis.sources(list(atoms), also={"q": {()}}, readings=readings)
    assert again == first and reads == [len(atoms)]
    assert first["q"] == {()}  # (what the queries derive, added each time)
    fewer = analysis.sources(atoms[:-1], readings=readings)
    assert reads == [len(atoms), len(atoms) - 1]
    assert fewer == analysis.sources(atoms[:-1])


def test_facts_by_signature_ground_as_the_facts_one_by_one():
    facts = scenario_facts(parse_text(FLYER))
    signatures = fact_signatures(facts)
    rules = FactRules(facts, signatures)
    assert rules.others == list(facts.asked)  # the questions, past the signatures
    for query in ("legal", "outcome"):
        signed = _models(query, facts, signatures=signatures)
        assert signed == _models(query, list(facts))
    (model,) = _models("legal", facts, signatures=signatures)
    assert f'violation(rule("702.9b"),blocks_flyer("Grizzly Bears","{HOSTILE}"))' in model
    assert not any(atom.startswith("ok(") for atom in model)


def test_a_name_that_is_not_plain_goes_through_the_backend():
    odd = clingo.Function("p", [clingo.Number(1)])
    plain = clingo.Function("q", [clingo.String("a")])
    rules = FactRules([odd, plain], [("-p", 1), ("q", 1)])
    assert rules.others == [odd]
    assert rules.text == "q(X0) :- q(X0) = @mtgkb_facts(0)."


def test_answers_and_unmodelled_rules_are_those_of_unsigned_facts():
    scenario = parse_text(PLANESWALKER)
    facts = scenario_facts(scenario)
    assert fact_signatures(facts) is not None
    unsigned = Facts(fixed_facts(facts), facts.asked)
    limits = Limits()
    for question in scenario.questions:
        signed_answer = answer(question, scenario, facts, limits)
        assert signed_answer == answer(question, scenario, unsigned, limits)
    outcome = answer(scenario.questions[1], scenario, facts, limits)
    assert outcome["unmodelled"] == ["120.3c"]


def test_same_facts_are_the_very_same_symbols_in_order():
    facts = fixed_facts(scenario_facts(parse_text(FLYER)))
    assert SameFacts(facts) == SameFacts(list(facts))
    assert hash(SameFacts(facts)) == hash(SameFacts(list(facts)))
    assert SameFacts(facts) != SameFacts(facts[::-1])
    copies = [clingo.parse_term(str(s)) for s in facts]  # equal, not the same objects
    assert SameFacts(facts) != SameFacts(copies)
