"""`ask explain`'s traced program writes the twins and the seeded forms of
plain rules as text, which clingo parses as the program is given to it
(mtgkb.questions.explain.trace: `_twin_text`, `_seeded_text`), where the
other rules are built from their syntax trees (`_twin`, `_seeded`); the
Forbidder tells the rules of the explanation graph by their text too
(mtgkb.questions.explain.forbidden._graph_rule). Both ways must agree
(syntax trees compare without their places) for every rule of the rule base
and of the queries, or the explanations would change."""

from pathlib import Path

import clingo.ast as cast

from mtgkb.questions.explain import trace
from mtgkb.rulebase.encoded import scan_kept
from mtgkb.rulebase.location import query_file, rule_files


def _parsed(texts: list[str]) -> list[cast.AST]:
    """The statements of these texts as clingo parses them."""
    out: list[cast.AST] = []
    cast.parse_string("\n".join(texts), out.append)
    out = [node for node in out if node.ast_type != cast.ASTType.Program]
    assert len(out) == len(texts)
    return out


def _rules():
    files = rule_files() + sorted(Path(query_file("legal")).parent.glob("*.lp"))
    for path in files:
        for place, st in enumerate(scan_kept(path).statements, start=1):
            if st.ast is not None and st.kind == "Rule":
                yield place, st


def test_twins_written_as_text_are_those_of_the_syntax_trees():
    written = 0
    for place, st in _rules():
        text = str(st.ast)
        parts = trace._rule_text(st.ast, text)
        for seeded in (False, True):
            expected, arity = trace._twin(st.ast, place, seeded, text)
            plain = trace._twin_text(parts, place, seeded) if parts is not None else None
            if plain is None:
                continue  # (built from the syntax tree)
            where = f"{st.file}:{st.line}"
            if plain[0] is None:
                assert expected is None, where
                continue
            (got,) = _parsed([plain[0]])
            assert got == expected and str(got) == str(expected), where
            assert plain[1] == arity, where
            written += 1
    assert written > 1000  # (most rules: the text is the common way)


def test_seeded_forms_written_as_text_are_those_of_the_syntax_trees():
    written = 0
    for _, st in _rules():
        text = str(st.ast)
        if not trace.GRAPH_TEXT.search(text):
            continue
        parts = trace._rule_text(st.ast, text)
        made = trace._seeded_text(parts) if parts is not None else None
        if made is None:
            continue
        got = [st.ast if x is None else _parsed([x])[0] for x in made]
        expected = trace._seeded(st.ast, text)
        assert [str(x) for x in got] == [str(x) for x in expected], f"{st.file}:{st.line}"
        assert all(a == b for a, b in zip(got, expected, strict=True))
        written += 1
    assert written > 100


def test_graph_rules_told_by_their_text_are_those_of_the_syntax_trees():
    # the Forbidder leaves the explanation graph out of its switched program
    from mtgkb.questions.explain import forbidden

    files = rule_files() + sorted(Path(query_file("legal")).parent.glob("*.lp"))
    graph = 0
    for path in files:
        for st in scan_kept(path).statements:
            if st.ast is None:
                continue
            expected = forbidden._head_name(st.ast) in trace.GRAPH_HEADS
            assert forbidden._graph_rule(st.ast) == expected, f"{st.file}:{st.line}"
            graph += expected
    assert graph > 100


def test_a_rules_head_and_body_literals_read_from_its_text_are_its_syntax_trees():
    # the traced program reads them from the rule's text as clingo prints it
    # (trace.rule_parts), not from its syntax tree: a call into clingo a literal
    read = 0
    for _, st in _rules():
        found = trace.rule_parts(str(st.ast))
        assert found is not None, f"{st.file}:{st.line}"
        head, literals = found
        assert head == str(st.ast.head), f"{st.file}:{st.line}"
        assert literals == [str(lit) for lit in st.ast.body], f"{st.file}:{st.line}"
        read += bool(literals)
    assert read > 1000


def test_a_rules_text_is_split_outside_strings_and_brackets():
    text = 'p("a :- b; c") :- q(X;Y); #count { Z : r(Z); W : s(W) } > 1; not t("x; y").'
    head, literals = trace.rule_parts(text)
    assert head == 'p("a :- b; c")'
    assert literals == ["q(X;Y)", "#count { Z : r(Z); W : s(W) } > 1", 'not t("x; y")']
    assert trace.rule_parts("p :- q") is None  # (no final full stop: not a rule's text)
