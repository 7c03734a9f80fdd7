"""Backward slicing again after forward slicing (Analysis.needed): a rule the
queries need only through a reader that cannot fire on the facts is not
grounded either. Sound for the same reason backward slicing is: what it
leaves out derives atoms that no grounded statement reads and no query
shows; a rule that always stays (a choice, a constraint) stays when it may
fire. Checked on a small program and on the rule base (801.2d's objects in
range are read only by 801.4 and 801.6, about plays; that 801.4 still
finds a target out of range: test_801_4_targets_in_range.py), and in the
slow tier against answers without slicing (test_forward_slicing.py)."""

from __future__ import annotations

import clingo

from mtgkb.engine.analysis import Analysis, analyse
from mtgkb.engine.solve import Grounding
from mtgkb.engine.state import Engine
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text

RULES = """\
helper(X) :- base(X).
reader(X) :- trigger(X), not helper(X).
shown(X) :- reader(X).
{ free(X) } :- base(X).
:- base(X), forbidden(X).
"""
QUERY = "#show shown/1.\n"


def _needed(*facts: str) -> list[str]:
    data = {"base": analyse(RULES), "queries": {"q": analyse(QUERY)}, "guardable": {}}
    analysis = Analysis({**data, "definitions": {}}, RULES.encode("utf-8"))
    kept = analysis.kept(("q",))
    sources = analysis.sources([clingo.parse_term(f) for f in facts])
    live = analysis.live(kept, sources)
    return analysis.program(analysis.needed(("q",), live)).splitlines()


def test_a_rule_read_only_by_a_reader_that_cannot_fire_is_left_out():
    needed = _needed('base("a")', 'forbidden("b")')
    # no trigger: reader/1 cannot fire, so helper/1 (which only it reads) goes too
    assert "reader(X) :- trigger(X), not helper(X)." not in needed
    assert "helper(X) :- base(X)." not in needed
    # the choice and the constraint always stay when they may fire
    assert "{ free(X) } :- base(X)." in needed
    assert ":- base(X), forbidden(X)." in needed


def test_a_reader_that_may_fire_keeps_what_it_reads():
    needed = _needed('base("a")', 'trigger("a")')
    assert "reader(X) :- trigger(X), not helper(X)." in needed
    assert "helper(X) :- base(X)." in needed


COMBAT = """game: free-for-all
option: attack-multiple-players
players: Rob, Alex, Carissa
active: Rob
phase: declare-blockers
Rob controls creature "Runeclaw Bear" 2/2
Alex controls creature "Grizzly Bears" 2/2
"Runeclaw Bear" attacks Alex
"Grizzly Bears" blocks "Runeclaw Bear"
"""


def _legal_program(text: str) -> str:
    engine = Engine()
    facts = scenario_facts(parse_text(text, "x"))
    grounding = Grounding(["legal"], facts, engine=engine)
    base = engine.rule_base()
    return base.analysis().program(grounding._rule_base_statements(base, facts, True))


def test_801_2d_objects_in_range_are_grounded_only_where_a_play_may_target_them():
    # 801.2d's objects in a player's range are read only by 801.4 (targets) and
    # 801.6 (activations): a combat with no play grounds none of them
    assert "object_in_range(P,X)" not in _legal_program(COMBAT).replace(" ", "")
    spell = COMBAT.replace("phase: declare-blockers\n", "").split('"Runeclaw Bear" attacks')[0]
    spell += 'Rob casts instant "Shock" targeting "Grizzly Bears"\n'
    assert "object_in_range(P,X)" in _legal_program(spell).replace(" ", "")
