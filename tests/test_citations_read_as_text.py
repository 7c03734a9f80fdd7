"""The citations of `cite` tags are generated from the rule files' text, with
no parse (mtgkb.rulebase.citations.statement_head_shape): every head is read
as clingo reads it. The expectation of each case is clingo's own reading of
the statement (its syntax tree, `head_shape`), not the text reader's."""

from __future__ import annotations

import clingo.ast
import pytest
from helpers import ROOT, counted_calls

from mtgkb.rulebase.citations import (
    CitationError,
    generate,
    head_shape,
    statement_head_shape,
)
from mtgkb.rulebase.location import program_files
from mtgkb.rulebase.parts import statements

#: Marked rules a rule author may write: spaces, brackets, computed and
#: constant arguments, strings holding `:-` and full stops, comments inside,
#: several lines; and statements a `cite` tag cannot mark.
STATEMENTS = [
    "a(X, Y) :- b(X,Y).",
    "a(X,Y+1) :- b(X,Y).",
    "a((X)) :- b(X).",
    "a((X,Y)) :- b(X,Y).",
    "a((X,)) :- b(X).",
    "a(()) :- b.",
    "a(- 1) :- b.",
    "a(-1, -X) :- b(X).",
    "a(#supremum, #inf) :- b.",
    'a("x :- y. z", X) :- b(X).',
    'a("q\\"z", X) :- b(X).',
    "a(1..3) :- b.",
    "a(f(X,g(Y)), Z) :- b(X,Y,Z).",
    "a(f(X+1), |X|, X\\2, X**2, @g(X)) :- b(X).",
    "a(X) :- b(X) % a comment\n , c(X).",
    "a(X) :- %* a block *% b(X).",
    "a(X)\n  :- b(X),\n     c(X).",
    "a(X) :- #count{ Y : b(Y) } = X.",
    'a(X) :- b(X), X != ".".',
    "_a(X) :- b(X).",
    "a'(X'') :- b(X'').",
    "a.",
    "-a(X) :- b(X).",
    "a(1;2) :- b.",
    "a;b :- c.",
    "a | b :- c.",
    "{a} :- b.",
    "1 {a;b} 2 :- c.",
    ":- a.",
    "not a :- b.",
    "a(X) : b(X) :- c.",
    "#show a/1.",
    "#const n = 3.",
    'because(x, rule("1")) :- x.',
]


def clingo_reading(statement: str) -> str:
    """The shape of the statement's head from its syntax tree, or the error."""
    nodes: list = []
    clingo.ast.parse_string(statement, nodes.append)
    skipped = (clingo.ast.ASTType.Program, clingo.ast.ASTType.Comment)
    (rule,) = [n for n in nodes if n.ast_type not in skipped]
    if rule.ast_type != clingo.ast.ASTType.Rule:
        return "error"  # (a directive: no head at all)
    try:
        return head_shape(rule)
    except CitationError:
        return "error"


def text_reading(statement: str) -> str:
    (code,) = [code for _, _, code in statements(statement)]
    try:
        return statement_head_shape(code)
    except CitationError:
        return "error"


@pytest.mark.parametrize("statement", STATEMENTS)
def test_a_head_read_from_the_text_is_the_head_clingo_reads(statement):
    assert text_reading(statement) == clingo_reading(statement)


def test_the_cases_cover_heads_cited_and_heads_refused():
    readings = [clingo_reading(s) for s in STATEMENTS]
    assert readings.count("error") >= 10 and len(readings) - readings.count("error") >= 20


def test_a_block_that_ends_inside_a_statement_cannot_be_parsed():
    text = "% 101.4 cite: x.\na(X) :- b(X),\n\nc(X).\n"
    with pytest.raises(CitationError, match=r"x\.lp:2: cannot be parsed"):
        generate(text, "x.lp")


def test_each_citation_names_the_line_its_statement_begins_at():
    text = "% 101.4, 805.6 cite: x.\n% more words.\na(X) :-\n  b(X). c(Y) :- d(Y).\n"
    made = [(g.line, g.number, g.cited) for g in generate(text, "x.lp")]
    assert made == [
        (3, "101.4", "a(X)"),
        (3, "805.6", "a(X)"),
        (4, "101.4", "c(Y)"),
        (4, "805.6", "c(Y)"),
    ]


def test_reading_the_whole_rule_base_parses_no_statement(monkeypatch):
    """The citations of every rule file, made with no call to clingo's parser
    (what the text reading spares every cold run)."""
    parsed = counted_calls(monkeypatch, clingo.ast, "parse_string")
    loaded = counted_calls(monkeypatch, clingo.ast, "parse_files")
    made = []
    for path in [p for folder in ("rules", "kb") for p in program_files(ROOT / folder)]:
        made += generate(path.read_text(encoding="utf-8"), path)
    assert len(made) >= 50 and parsed == [] and loaded == []
