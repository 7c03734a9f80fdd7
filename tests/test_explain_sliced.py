"""`ask explain` grounds only what can fire (issue 11, item 2): the traced
program leaves out the rule base's statements that forward slicing finds
idle on the scenario's facts (mtgkb.questions.explain.trace.idle_statements),
and traces the others only. The explanation must be exactly the unsliced one."""

from pathlib import Path

import clingo
import pytest
from helpers import EXPLAIN_COMBAT

from mtgkb.engine.session import Session
from mtgkb.engine.state import Engine, Options
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits
from mtgkb.questions.explain import answer_explain, trace

# slow tier: sliced explanations against unsliced ones
pytestmark = pytest.mark.slow

# EXPLAIN_COMBAT, with room for an ability of the Goblin's (it attacks Alex, unblocked)
COMBAT = EXPLAIN_COMBAT.replace('"Goblin" 1/1\n', '"Goblin" 1/1{goblin}\n')


def _engine(slicing: bool = True) -> Engine:
    return Engine(Options.from_env().but(slicing=slicing))


def _explained(engine: Engine, goblin: str = "") -> dict:
    scenario = parse_text(COMBAT.format(goblin=goblin), "<test>")
    question = next(q for q in scenario.questions if q.kind == "explain")
    facts = scenario_facts(scenario)
    return answer_explain(question, scenario, facts, Limits(), Session(engine))


def _situation(query: str, goblin: str = "") -> list[clingo.Symbol]:
    scenario = parse_text(COMBAT.format(goblin=goblin), "<test>")
    facts = [f for f in scenario_facts(scenario) if f.name != "asked"]
    q = clingo.Function(query)
    return facts + [clingo.Function(name, [q]) for name in ("asked", "explaining")]


def _place_of(engine: Engine, file: str, head: str) -> tuple[tuple, int]:
    """The place of the statement of rules/`file` that begins with `head`, as
    idle_statements names it: (its file's stamp, its place in the file)."""
    base = engine.rule_base()
    analysis = base.analysis()
    places = trace._places(base)
    (i,) = [
        i
        for i, p in enumerate(places)
        if p is not None
        and base.files[p[0] - 1].name == file
        and analysis.program([i]).startswith(head)
    ]
    number, place = places[i]
    (entry,) = [e for e in base.stamp if e[0] == str(base.files[number - 1])]
    return entry, place


def test_every_statement_is_placed_where_the_trace_reads_it():
    base = _engine().rule_base()
    analysis = base.analysis()
    places = trace._places(base)
    placed = [i for i, p in enumerate(places) if p is not None]
    unplaced = [i for i, p in enumerate(places) if p is None]
    # only the `#program base.` clingo reads before the text has no place
    assert [analysis.statements[i]["span"] for i in unplaced] == [(0, 0)]
    for i in placed:
        number, place = places[i]
        st = trace.scan_kept(Path(base.files[number - 1])).statements[place - 1]
        assert str(st.ast) == str(analysis.nodes([i])[0])


def test_the_sliced_explanation_is_the_unsliced_one():
    sliced, whole = _explained(_engine()), _explained(_engine(slicing=False))
    assert sliced == whole
    (play,) = sliced["forbidden"]
    assert play["rules"] == ["702.9b"] and play["objects"] == ["Grizzly Bears", "Serra Angel"]
    outcome = next(item for item in sliced["tree"] if item["question"] == "outcome")
    rob = next(n for n in outcome["because"] if n["atom"] == 'life("Rob",23)')
    assert rob["rule"] == "119.3"


@pytest.mark.parametrize("query", ["legal", "outcome"])
def test_idle_statements_are_left_out_of_the_traced_program(query):
    engine = _engine()
    idle = trace.idle_statements(engine, query, _situation(query))
    whole = trace.traced_program(query, seeded=True)
    sliced = trace.traced_program(query, seeded=True, idle=idle)
    assert idle and len(sliced.statements) < len(whole.statements)
    # and the model's atoms are the same: the graph's and the rules' own
    _, everything = trace.solve_traced(query, _situation(query), None, seeded=True)
    _, fewer = trace.solve_traced(query, _situation(query), None, seeded=True, engine=engine)
    assert set(fewer) == set(everything)


def test_idle_is_read_from_the_values_of_the_facts():
    # 702.90b: damage from a source with infect; idle unless a creature has infect
    engine = _engine()
    infect = _place_of(engine, "120_damage.lp", "infect_damage(")
    assert infect in trace.idle_statements(engine, "outcome", _situation("outcome"))
    with_infect = _situation("outcome", goblin=" with infect")
    assert infect not in trace.idle_statements(engine, "outcome", with_infect)
    _, fewer = trace.solve_traced("outcome", with_infect, None, seeded=True, engine=engine)
    _, everything = trace.solve_traced("outcome", with_infect, None, seeded=True)
    assert set(fewer) == set(everything)
    # the Goblin's unblocked damage to Alex, by the rule that is no longer idle
    assert any(s.name == "infect_damage" and s.arguments[2].string == "Alex" for s in fewer)
    answer = _explained(engine, goblin=" with infect")
    assert answer == _explained(_engine(slicing=False), goblin=" with infect")


def test_nothing_is_left_out_without_an_engine_or_with_slicing_off():
    situation = _situation("legal")
    assert trace.idle_statements(None, "legal", situation) == frozenset()
    assert trace.idle_statements(_engine(slicing=False), "legal", situation) == frozenset()


def test_a_file_whose_scan_is_not_its_analysis_is_not_sliced(monkeypatch):
    engine = _engine()
    (path, *_), _ = _place_of(engine, "120_damage.lp", "infect_damage(")
    real = trace.scan_kept

    def short(p):  # one statement fewer than the analysis finds in this file
        scan = real(p)
        if Path(p) == Path(path):
            return type(scan)(scan.path, scan.statements[:-1], scan.tags, scan.errors)
        return scan

    monkeypatch.setattr(trace, "scan_kept", short)
    trace._places.cache_clear()
    try:
        idle = trace.idle_statements(engine, "outcome", _situation("outcome"))
        assert idle and all(entry[0] != path for entry, _ in idle)
    finally:
        trace._places.cache_clear()


def test_a_file_changed_since_the_analysis_is_traced_whole():
    engine = _engine()
    idle = trace.idle_statements(engine, "legal", _situation("legal"))
    assert idle
    # the same places, of files as they were at another time
    older = frozenset(((path, mtime - 1, size), place) for (path, mtime, size), place in idle)
    whole = trace.traced_program("legal", seeded=True)
    assert len(trace.traced_program("legal", seeded=True, idle=older).statements) == len(
        whole.statements
    )
    assert len(trace.traced_program("legal", seeded=True, idle=idle).statements) < len(
        whole.statements
    )
