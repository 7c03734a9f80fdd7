"""A batch chunk's program gives every atom the scenario as its first
argument (mtgkb.engine.scenarios._Rewrite): the atoms of a copy of each
statement are given it in place, reading only the nodes that may hold an
atom. Each statement comes out as clingo's own Transformer over every node
makes it, and the statement read is left as it was."""

from __future__ import annotations

import clingo.ast as ast
import pytest

from mtgkb.engine.analysis import is_plain
from mtgkb.engine.scenarios import _Rewrite, _Unsupported
from mtgkb.engine.state import Engine

#: every kind of node an atom may sit in: choices with conditions and
#: bounds, disjunctions, head and body aggregates, conditional literals,
#: pools, classical negation, comparisons, #minimize, shows with bodies
SHAPES = """
#program base.
p(1..3).
q(X;Y) :- p(X), p(Y), X < Y.
-r(X) :- p(X), not q(X,X).
1 { s(X) : p(X), not -r(X) } 2 :- p(1).
t(X) ; u(X) : p(X) :- p(X).
v(N) :- N = #count { X : p(X), not s(X) ; Y,z : q(Y,Y) }.
#sum { X,a : s(X) ; 1,b : p(4) } >= 2 :- p(2).
w :- p(X) : s(X).
x(f(X)) :- #true, not p(7).
y :- not not p(1), 1 < 2.
:- s(1), s(2), s(3).
#minimize { X@2,X : s(X) ; 1@1 : t(2) }.
#show p/1.
#show -r/1.
#show z(X) : t(X), not u(X).
#show w : not y.
#defined nothing/3.
#const k = 2.
"""


def _reference(rewrite: _Rewrite, node):
    """The statement as the Transformer over every node gives the atoms the
    scenario (and binds an unbound body to a scenario)."""
    kind = node.ast_type
    if kind not in (ast.ASTType.Rule, ast.ASTType.ShowTerm, ast.ASTType.Minimize):
        return rewrite(node)
    made = rewrite.transformer(node)
    body = list(made.body)
    if not any(is_plain(lit) for lit in body):
        body.append(rewrite.scenario)
    if kind == ast.ASTType.ShowTerm:
        term = ast.Function(rewrite.loc, "", [rewrite.var, made.term], 0)
        return made.update(term=term, body=body)
    if kind == ast.ASTType.Minimize:
        return made.update(terms=[rewrite.var, *made.terms], body=body)
    return made.update(body=body)


def _agrees(text: str) -> int:
    rewrite = _Rewrite()
    nodes: list = []
    ast.parse_string(text, nodes.append)
    given = 0
    for node in (n for n in nodes if n.ast_type != ast.ASTType.Comment):
        read = str(node)
        try:
            want = str(_reference(rewrite, node))
        except _Unsupported:
            with pytest.raises(_Unsupported):
                rewrite(node)
            continue
        assert str(rewrite(node)) == want, read
        assert str(node) == read  # (a copy was given it, not the statement read)
        given += 1
    return given


def test_every_kind_of_atom_is_given_the_scenario_as_the_transformer_gives_it():
    assert _agrees(SHAPES) == 21  # (the #minimize's two elements: two statements)
    rewrite = _Rewrite()
    nodes: list = []
    ast.parse_string("q(X) :- p(X), not r(X). #show s(1) : #true.", nodes.append)
    rule, show = (str(rewrite(n)) for n in nodes[1:])
    assert rule == "q(MTGKB_SCENARIO,X) :- p(MTGKB_SCENARIO,X); not r(MTGKB_SCENARIO,X)."
    # a body no plain positive atom binds is bound to a scenario
    assert show == "#show (MTGKB_SCENARIO,s(1)) : #true; _mtgkb_scenario(MTGKB_SCENARIO)."


def test_a_theory_atom_cannot_be_given_the_scenario():
    rewrite = _Rewrite()
    nodes: list = []
    ast.parse_string("#theory t { a { }; &b/0 : a, any }. :- &b { }.", nodes.append)
    with pytest.raises(_Unsupported):
        rewrite(nodes[-1])


@pytest.mark.slow  # every statement of the rule base, its queries and its input checks
def test_the_rule_bases_statements_are_given_the_scenario_as_the_transformer_gives_them():
    from mtgkb.language.checks import _program

    base = Engine().rule_base()
    texts = [base.text, *(base.query_text(q) for q in base.query_texts)]
    texts.append(_program().source.decode("utf-8"))
    assert sum(_agrees(text) for text in texts) > 2000
