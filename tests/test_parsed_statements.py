"""A rule base grounded again in the same process (a server, a batch, a
long-lived caller) gives clingo its statements parsed once and kept
(`DescribedProgram.nodes`, `LoadedRuleBase.parsed`) instead of their text: adding
a parsed statement costs clingo about a third of parsing it (issue 11), once
the parse in Python is paid (after the first file's groundings for the rule
base, RULE_BASE_PARSE_AFTER; after the first file for the input checks). The
answers must be the same either way.

The rule that decides the scenario: 702.9b (a creature with flying can't be
blocked except by creatures with flying or reach)."""

from __future__ import annotations

import clingo
import clingo.ast
import pytest

from mtgkb.engine.analysis import RULE_BASE_PARSE_AFTER
from mtgkb.engine.state import Engine
from mtgkb.language import checks
from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text
from mtgkb.running.runner import NO_LIMITS, answer_text

ILLEGAL = (
    "players: Ann, Ben\n"
    'Ann controls creature "Serra Angel" 4/4 with flying\n'
    'Ben controls creature "Grizzly Bears" 2/2\n'
    'Ben controls creature "Wall" 0/4 with reach\n'
    '"Serra Angel" attacks Ben\n"Grizzly Bears" blocks "Serra Angel"\ncombat damage\n'
)


def _texts(nodes) -> list[str]:
    return [str(node) for node in nodes]


def _parsed(text: str) -> list:
    nodes: list = []
    clingo.ast.parse_string(text, nodes.append)
    begin = [n for n in nodes if n.location.begin == n.location.end]
    return [n for n in nodes if n not in begin]  # less the `#program base.` of every text


@pytest.mark.parametrize("queries", [("legal",), ("blocks",), ("legal", "outcome")])
def test_the_parsed_statements_are_those_of_the_text(queries):
    analysis = Engine().rule_base().analysis()
    kept = analysis.kept(queries)
    assert _texts(analysis.nodes(kept)) == _texts(_parsed(analysis.program(kept)))
    # parsed once: asked again, the very same nodes
    again = analysis.nodes(kept)
    assert all(a is b for a, b in zip(analysis.nodes(kept), again, strict=True))


def test_every_statement_parses_to_what_its_text_does_even_a_split_minimize():
    analysis = Engine().rule_base().analysis()
    every = list(range(len(analysis.base)))
    some = every[::3]  # parsed first: the rest is parsed later, in its own call
    analysis.nodes(some)
    assert _texts(analysis.nodes(every)) == _texts(_parsed(analysis.program(every)))


def test_a_rule_base_grounded_again_adds_its_parsed_statements_and_answers_the_same():
    engine = Engine()
    text = ILLEGAL + "ask legal\nask blocks\nask outcome\n"
    first = answer_text(text, "t.mtg", NO_LIMITS, engine=engine).output
    analysis = engine.rule_base().analysis()
    assert engine.rule_base().controls >= 2
    # (one file's groundings are given text: RULE_BASE_PARSE_AFTER)
    second = answer_text(text, "t.mtg", NO_LIMITS, engine=engine).output
    assert engine.rule_base().controls > RULE_BASE_PARSE_AFTER
    assert analysis._nodes  # the later groundings were given parsed statements
    assert first == second
    legal = first["answers"][0]
    assert legal["legal"] is False
    assert {v["rule"] for v in legal["violations"]} == {"702.9b"}
    # the Wall (reach) blocks the Angel or not; the Bears may not (702.9b)
    assert first["answers"][1]["count"] == 2
    assert "702.9b" in first["answers"][1]["rules"]


def test_a_single_grounding_reads_the_text():
    # a one-question run pays no parse of its own beyond clingo's
    engine = Engine()
    answer_text(ILLEGAL + "ask legal\n", "t.mtg", NO_LIMITS, engine=engine)
    assert engine.rule_base().controls == 1
    assert not engine.rule_base().analysis()._nodes


def test_the_input_checks_are_given_parsed_after_their_first_file():
    # 810.1: a two-headed-giant game is played by exactly two teams (the
    # error is said at the third team's line), found the same either way
    text = (
        "game: two-headed-giant\nplayers: A, B, C, D, E, F\n"
        "team X: A, B\nteam Y: C, D\nteam Z: E, F\n"
    )
    program = checks._program()
    before = program.added
    found = []
    for _ in range(2):
        with pytest.raises(ScenarioError) as caught:
            parse_text(text, "t.mtg")
        found.append((caught.value.line, caught.value.column, caught.value.message))
    assert found[0] == found[1] == (5, 1, found[0][2])
    assert "810.1" in found[0][2]
    assert program.added == before + 2
    assert program._nodes  # the second file's checks were parsed statements
