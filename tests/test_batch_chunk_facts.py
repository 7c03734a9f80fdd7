"""A batch chunk's facts reach gringo as the values of an external function
(mtgkb.engine.scenarios.ChunkFacts): one call a scenario and signature, each
scenario's own symbols, where the backend took two calls into clingo a fact
and a symbol made again with the scenario argument. The answers are those
the backend gives, and those of each file alone."""

from __future__ import annotations

import clingo
from helpers import LIFELINK_COMBAT as COMBAT

from mtgkb.engine.scenarios import ChunkFacts, Readings, chunk_control, scenario_program, solve_many
from mtgkb.engine.state import Engine
from mtgkb.language.facts import fact_arguments, fact_signatures, scenario_facts
from mtgkb.language.parser import parse_text


def _files():
    lifelink = scenario_facts(parse_text(COMBAT, "a"))
    deathtouch = scenario_facts(parse_text(COMBAT.replace("lifelink", "deathtouch"), "b"))
    return [lifelink, deathtouch]


def _texts(models) -> list[set[str]]:
    return [{str(s) for s in model} for model in models]


def test_a_chunk_given_its_facts_by_signature_answers_as_by_the_backend():
    files = _files()
    signatures = [fact_signatures(facts) for facts in files]
    readings = Readings()
    by_signature = solve_many(
        "outcome", files, engine=Engine(), readings=readings, signatures=signatures
    )
    by_backend = solve_many("outcome", files, engine=Engine())
    assert by_signature is not None and _texts(by_signature) == _texts(by_backend)
    # 704.5h: the Wall dealt damage by a creature with deathtouch is
    # destroyed; 702.15b: the Bear's lifelink gains Ann the 2 it dealt
    lifelink, deathtouch = _texts(by_signature)
    assert {'destroyed("Wall")', 'cites(rule("704.5h"))'} <= deathtouch
    assert 'destroyed("Wall")' not in lifelink
    assert 'life("Ann",22)' in lifelink and 'life("Ann",20)' in deathtouch
    # only the questions' atoms (their signatures are not given) went by
    # the backend: the scenario facts were never read back from clingo
    assert set(readings.parts) == {s for facts in files for s in facts.asked}


def test_chunk_facts_leave_to_the_backend_what_they_cannot_give():
    plain = [clingo.Function("player", [clingo.String("Ann")]), clingo.Function("phase", [])]
    odd = clingo.Function("Odd", [clingo.Number(1)])  # (no predicate name gringo reads)
    unsigned = [clingo.Function("player", [clingo.String("Ben")])]
    given = ChunkFacts([[*plain, odd], unsigned], [[("player", 1), ("phase", 0), ("Odd", 1)], None])
    assert given.others == [(0, odd), (1, unsigned[0])]
    assert given.mtgkb_chunk_facts(clingo.Number(0), clingo.Number(0)) == plain[:1]
    assert given.mtgkb_chunk_facts(clingo.Number(0), clingo.Number(1)) == plain[1:]
    assert given.mtgkb_chunk_facts(clingo.Number(1), clingo.Number(0)) == []
    # each plain signature one rule, its atoms given the scenario argument
    assert given.text.splitlines() == [
        "player(MTGKB_SCENARIO,X0) :- _mtgkb_scenario(MTGKB_SCENARIO), "
        "player(X0) = @mtgkb_chunk_facts(MTGKB_SCENARIO,0).",
        "phase(MTGKB_SCENARIO) :- _mtgkb_scenario(MTGKB_SCENARIO), "
        "phase = @mtgkb_chunk_facts(MTGKB_SCENARIO,1).",
    ]


def test_a_program_that_may_call_a_function_is_given_its_facts_by_the_backend():
    # a ground() given a context would look up a `#script`'s @f in the
    # context: such a program's chunk has none
    engine = Engine()
    program = scenario_program("outcome", engine)
    files = _files()
    signatures = [fact_signatures(facts) for facts in files]
    assert program.calls_functions is False
    _, given, _ = chunk_control(program, files, signatures=signatures)
    assert isinstance(given, ChunkFacts)
    program.calls_functions = True
    try:
        _, given, _ = chunk_control(program, files, signatures=signatures)
    finally:
        program.calls_functions = False
    assert given is None


def test_a_chunk_sliced_from_its_facts_signatures_keeps_what_reading_them_keeps():
    # forward slicing of a chunk whose facts' signatures and arguments are
    # known reads those (as a file alone does), not the symbols: the same
    # statements may fire, and the chunk's own readings stay unread
    engine = Engine()
    program = scenario_program("outcome", engine)
    files = _files()
    signatures = [fact_signatures(facts) for facts in files]
    arguments = [fact_arguments(facts) for facts in files]
    assert None not in signatures and None not in arguments
    read = program.live(files, Readings())
    readings = Readings()
    known = program.live(files, readings, signatures, arguments)
    assert [str(node) for node in known] == [str(node) for node in read]
    assert readings.slicing(program.described) == {}
    # 702.15b and 704.5h fire on these facts: their statements are kept
    kept = "\n".join(str(node) for node in known)
    assert "lifelink" in kept and "deathtouch" in kept
