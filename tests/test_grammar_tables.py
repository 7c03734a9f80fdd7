"""The parser's tables in their shipped, compact layout
(mtgkb/language/grammar_tables.json, made by `python -m
mtgkb.language.grammar_build`): Lark's serialized parser in that layout loads
into the very parser Lark's own loading of the serialized form makes (every
rule, terminal and LALR state, each object of the same class with the same
attributes), the shipped file loads, and a file of another layout is not
read. (Each build numbers the LALR states its own way: a parser is compared
with one loaded from the same build.)"""

from __future__ import annotations

import json

import pytest
from lark.grammar import Rule
from lark.lexer import TerminalDef

from mtgkb.language.grammar_build import (
    GRAMMAR,
    TABLES,
    TABLES_FORMAT,
    build_from_grammar,
    compact_form,
    larks_own_loading,
    load_tables,
    parser_from,
    same_parser,
)

TEXT = GRAMMAR.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def one_build() -> tuple[dict, dict]:
    """A build's serialized parser (data, memo), as the tables are made from."""
    return build_from_grammar(TEXT).memo_serialize([TerminalDef, Rule])


def _compact(build) -> dict:
    """The build in the shipped layout, through JSON as shipped."""
    return json.loads(json.dumps(compact_form(*build)))


def test_the_compact_layout_loads_into_the_parser_lark_itself_loads(one_build):
    larks_own = larks_own_loading(*one_build)
    loaded = parser_from(_compact(one_build))
    assert len(loaded.rules) == len(larks_own.rules) > 100
    assert len(loaded.parser.parser.parser.parse_table.states) > 100
    assert same_parser(loaded, larks_own)
    text = 'players: Rob, Alex\nactive: Rob\nRob controls creature "Hill Giant" 3/3\n'
    text += '"Hill Giant" attacks Alex\nask blocks for Alex\n'
    assert loaded.parse(text) == larks_own.parse(text)


def test_the_comparison_tells_a_rule_a_state_or_a_terminal_that_differs(one_build):
    larks_own = larks_own_loading(*one_build)
    changed = parser_from(_compact(one_build))
    changed.rules[7].options.expand1 = not changed.rules[7].options.expand1
    assert not same_parser(changed, larks_own)
    changed = parser_from(_compact(one_build))
    states = changed.parser.parser.parser.parse_table.states
    state = next(s for s in states if len(states[s]) > 1)
    del states[state][next(iter(states[state]))]
    assert not same_parser(changed, larks_own)
    changed = parser_from(_compact(one_build))
    pattern = changed.terminals[0].pattern
    pattern.flags = tuple(pattern.flags)  # a tuple is not the list Lark loads
    assert not same_parser(changed, larks_own)


def test_the_shipped_file_loads_and_reads_a_scenario_as_a_built_parser():
    loaded = load_tables(TEXT)
    assert loaded is not None
    text = 'players: Rob, Alex\nactive: Rob\n"Hill Giant" attacks Alex\nask legal\n'
    assert loaded.parse(text) == build_from_grammar(TEXT).parse(text)


def test_tables_of_another_layout_are_not_read(tmp_path):
    shipped = json.loads(TABLES.read_text(encoding="utf-8"))
    assert shipped["format"] == TABLES_FORMAT
    older = tmp_path / "tables.json"
    older.write_text(json.dumps({**shipped, "format": TABLES_FORMAT - 1}), encoding="utf-8")
    assert load_tables(TEXT, older) is None
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps({**shipped, "memo": shipped["memo"][:-1]}), encoding="utf-8")
    assert load_tables(TEXT, damaged) is None
