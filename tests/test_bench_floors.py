"""The bench's floors (bench/floors.py) measure the programs mtgkb really
grounds and parses: a grounding's statements (`Grounding.kept`, its
`query_text`), added again with the same facts, ground to the very atoms of
the grounding; the parser's floor parses the file it is given, and fails on
one that does not parse. No time is asserted: the bench measures, the tests
say what it measures.

The rule that decides the grounded combat: 702.9b (a creature with flying
can't be blocked except by creatures with flying or reach)."""

from __future__ import annotations

import json
import subprocess
import sys

import clingo
import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT))

from bench import floors  # noqa: E402
from bench.suite import batch_texts  # noqa: E402
from mtgkb.engine.programs import add_facts, quiet  # noqa: E402
from mtgkb.engine.solve import Grounding  # noqa: E402
from mtgkb.engine.state import Engine, Options  # noqa: E402
from mtgkb.language.facts import scenario_facts  # noqa: E402
from mtgkb.language.parser import parse_text  # noqa: E402

# The slow tier (the benchmark's grounding floors in fresh processes):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

COMBAT = (
    "players: Ann, Ben\n"
    'Ann controls creature "Serra Angel" 4/4 with flying\n'
    'Ben controls creature "Grizzly Bears" 2/2\n'
    '"Serra Angel" attacks Ben\n"Grizzly Bears" blocks "Serra Angel"\n'
    "ask legal\n"
)


def _atoms(ctl: clingo.Control) -> set[clingo.Symbol]:
    return {atom.symbol for atom in ctl.symbolic_atoms}


def _regrounded(grounding: Grounding, facts) -> clingo.Control:
    """What bench/floors.py grounds again: the grounding's program
    (`Grounding.add_program`) in a fresh Control, with `facts`."""
    ctl = clingo.Control(logger=quiet)
    grounding.add_program(ctl)
    add_facts(ctl, facts)
    ctl.ground([("base", [])])
    return ctl


def _violations(ctl: clingo.Control) -> set[str]:
    found: set[str] = set()
    with ctl.solve(yield_=True) as models:
        for model in models:
            found |= {str(s) for s in model.symbols(shown=True) if s.name == "violation"}
    return found


def test_a_groundings_statements_ground_to_its_atoms():
    engine = Engine()
    facts = scenario_facts(parse_text(COMBAT))
    grounding = Grounding(["legal"], facts, engine=engine)
    assert grounding.kept is not None  # sliced: only the statements that can matter
    again = _regrounded(grounding, facts)
    assert _atoms(again) == _atoms(grounding.ctl)
    # and it still judges the play: the Angel has flying, the Bears neither
    assert any("702.9b" in v for v in _violations(again))


def test_702_9b_a_merged_groundings_floor_grounds_every_query_switched_on():
    # legal and outcome share one grounding, each query's statements under
    # its guard (mtgkb.engine.sharing.GUARD), which a solve switches on: the
    # floor grounds them switched on, as plain clingo grounds a file whose
    # questions it knows, so legal's own statements are grounded and judge
    # the play (the Angel has flying, the Bears neither flying nor reach)
    engine = Engine()
    facts = scenario_facts(parse_text(COMBAT + "ask outcome\n"))
    grounding = Grounding(["legal", "outcome"], facts, engine=engine)
    ctl = floors.plain_control(grounding, facts)
    ctl.ground([("base", [])])
    assert any("702.9b" in v for v in _violations(ctl))
    # and it is what _ground_again times: the same program, grounded
    seconds, _ = floors._ground_again(grounding, facts)
    assert seconds > 0


def test_an_unsliced_grounding_is_the_whole_rule_base():
    engine = Engine(Options.from_env().but(slicing=False))
    facts = scenario_facts(parse_text(COMBAT))
    grounding = Grounding(["legal"], facts, engine=engine)
    assert grounding.kept is None
    again = _regrounded(grounding, facts)
    assert _atoms(again) == _atoms(grounding.ctl)
    assert any("702.9b" in v for v in _violations(again))


def test_the_requests_groundings_are_its_queries_grouped():
    engine = Engine()
    request = COMBAT + "ask blocks for Ben limit 5\nask outcome\n"
    groundings = floors._groundings(request, engine)
    queries = sorted(q for g in groundings for q in g.queries)
    assert queries == ["blocks", "legal", "outcome"]
    # grounded again bare, it is timed, and the observer is told its ground
    # rules (the rule base's own facts, at least)
    seconds, rules = floors._ground_again(groundings[0], observer=floors._TallyObserver())
    assert seconds > 0 and rules > 0


def test_the_parsers_floor_parses_the_file_it_is_given(tmp_path):
    good = tmp_path / "good.mtg"
    good.write_text(COMBAT, encoding="utf-8")
    bad = tmp_path / "bad.mtg"
    bad.write_text("players: Ann, Ben\n))) ask\n", encoding="utf-8")
    ran = [
        subprocess.run(
            [sys.executable, "-c", floors.PARSER_SCRIPT, str(path)], capture_output=True, text=True
        )
        for path in (good, bad)
    ]
    assert ran[0].returncode == 0, ran[0].stderr
    assert ran[1].returncode != 0
    assert "Unexpected" in ran[1].stderr  # Lark's own error: the text was parsed


def test_the_grounding_floors_run_in_a_fresh_process():
    ran = subprocess.run(
        [sys.executable, "-m", "bench.floors", "1"], capture_output=True, text=True, cwd=ROOT
    )
    assert ran.returncode == 0, ran.stderr
    got = json.loads(ran.stdout)
    assert set(got) == {
        "request_statements",
        "request",
        "request_again",
        "count",
        "count_observer",
        "count_rules",
        "game",
    }
    # the statements of the very groundings a request makes
    made = floors._groundings(batch_texts(1)[0], Engine())
    assert got["request_statements"] == sum(len(g.kept) for g in made)
    assert got["count_rules"] > 10_000  # 2 x 100: every blocker with every attacker
