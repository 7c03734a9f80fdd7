"""Queries that share one grounding: each query's statements guarded by an
external `_mtgkb_query(Q)`, switched on for its own solve.
"""

from __future__ import annotations

import copy

from mtgkb.engine.analysis import head_patterns
from mtgkb.engine.programs import quiet

GUARD = "_mtgkb_query"


def guard_of(query: str):
    """The external `_mtgkb_query(query)` that switches a query's guarded
    statements on (a clingo Symbol)."""
    import clingo

    return clingo.Function(GUARD, [clingo.Function(query)])


# --------------------------------------------------------------------------
# Queries that share a grounding


def generated_location():
    import clingo.ast

    here = clingo.ast.Position("<mtgkb>", 1, 1)
    return clingo.ast.Location(here, here)


def guarded_query(text: str, name: str, heads: bool = True) -> str | None:
    """The query's statements as text, each made conditional on the external
    `_mtgkb_query(name)`, its `#show p/n` made shown terms so conditioned;
    None when some statement cannot be. With `heads` false, a rule with a
    head is left as it is (only constraints, shows and #minimize are
    conditioned): for statements whose atoms nothing else reads, grounded
    as facts where their bodies are (mtgkb.engine.solve.Grounding.stacked_model)."""
    import clingo.ast

    T = clingo.ast.ASTType
    nodes: list = []
    clingo.ast.parse_string(text, nodes.append, logger=quiet)
    nodes = [n for n in nodes if n.ast_type != T.Comment]
    # A merged program hides all atoms (`#show.`) and shows terms only: so a
    # query must say which atoms it shows with `#show p/n`.
    if not any(n.ast_type == T.ShowSignature for n in nodes):
        return None
    loc = generated_location()
    guard_term = clingo.ast.SymbolicTerm(loc, guard_of(name))
    guard = clingo.ast.Literal(loc, clingo.ast.Sign.NoSign, clingo.ast.SymbolicAtom(guard_term))
    out = []
    for node in nodes:
        kind = node.ast_type
        if kind == T.Rule and not heads and not _is_constraint(node):
            out.append(node)
        elif kind in (T.Rule, T.ShowTerm, T.Minimize):
            # (on a copy, in place: a node's `update` reads every field of it
            # back from clingo and makes it again)
            made = copy.deepcopy(node)
            made.body.append(guard)
            out.append(made)
        elif kind == T.ShowSignature:
            if not node.name or not node.positive:
                return None
            args = [clingo.ast.Variable(loc, f"X{i}") for i in range(node.arity)]
            term = clingo.ast.Function(loc, node.name, args, 0)
            lit = clingo.ast.Literal(loc, clingo.ast.Sign.NoSign, clingo.ast.SymbolicAtom(term))
            out.append(clingo.ast.ShowTerm(loc, term, [lit, guard]))
        elif kind == T.Defined or (kind == T.Program and node.name == "base"):
            out.append(node)
        else:
            return None
    return "\n".join(str(node) for node in out)


def _is_constraint(rule) -> bool:
    """Whether a rule's head is `#false` (an integrity constraint)."""
    import clingo.ast

    head = rule.head
    return (
        head.ast_type == clingo.ast.ASTType.Literal
        and head.atom.ast_type == clingo.ast.ASTType.BooleanConstant
    )


def query_definitions(text: str) -> dict[str, frozenset[str]]:
    import clingo.ast

    found: dict[str, set[str]] = {}

    def take(node) -> None:
        if node.ast_type != clingo.ast.ASTType.Rule:
            return
        head = head_patterns(node.head)
        for pattern in head[0] if head else ():
            found.setdefault(pattern[0], set()).add(str(node))

    clingo.ast.parse_string(text, take, logger=quiet)
    return {k: frozenset(v) for k, v in found.items()}
