"""The traced program: every rule of the question's program with a twin
`_why(K,Head,t(Body...))` (K the rule's place, Body its positive body atoms),
so the derivation of any atom of the model is known."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.engine.control import new_control
from mtgkb.engine.cores import add_statements
from mtgkb.engine.programs import add_facts, quiet, solve_within, stamp
from mtgkb.engine.solve import SolveTimeout
from mtgkb.rulebase.index import label, scan_file, scan_folder
from mtgkb.rulebase.location import data_dir, query_file, rule_files

#: Heads that are the explanation graph itself: not traced.
META = {"because", "rests_on", "cites", "explain_root", "message"}


#: An anonymous variable in the text of a literal.
ANONYMOUS = re.compile(r"(?<![A-Za-z0-9_'])_(?![A-Za-z0-9_'])")


@dataclass
class Traced:
    """The statements of some files, each rule with its traced twin."""

    statements: list[cast.AST]
    tags: dict[int, tuple[str, ...]]  # K -> the CR numbers of its tag line
    where: dict[int, str]  # K -> file:line


def _term_of(atom: cast.AST) -> cast.AST | None:
    """The term of a positive symbolic atom, or None."""
    if atom.ast_type != cast.ASTType.SymbolicAtom:
        return None
    term = atom.symbol
    if term.ast_type in (cast.ASTType.Function, cast.ASTType.SymbolicTerm):
        return term
    return None


class _Fresh(cast.Transformer):
    """Names each anonymous variable `_` (`_W1`, `_W2`, ...)."""

    def __init__(self):
        self.n = 0

    def visit_Variable(self, node: cast.AST) -> cast.AST:
        if node.name != "_":
            return node
        self.n += 1
        return node.update(name=f"_W{self.n}")


def _twin(stmt: cast.AST, k: int) -> cast.AST | None:
    """`_why(k, Head, t(B1,...,Bn)) :- Body.` for a rule with one positive head atom."""
    head = stmt.head
    if head.ast_type != cast.ASTType.Literal or head.sign != cast.Sign.NoSign:
        return None
    head_term = _term_of(head.atom)
    if head_term is None or not stmt.body:
        return None
    name = getattr(head_term, "name", None)
    if name is None and head_term.ast_type == cast.ASTType.SymbolicTerm:
        sym = head_term.symbol
        name = sym.name if sym.type == clingo.SymbolType.Function else None
    if name is None or name in META or name.startswith("_"):
        return None
    body_terms = []
    body = []
    fresh = _Fresh()
    for lit in stmt.body:
        if lit.ast_type == cast.ASTType.Literal and lit.sign == cast.Sign.NoSign:
            term = _term_of(lit.atom)
            if term is not None:
                # an anonymous variable copied into the head must get a name
                if ANONYMOUS.search(str(lit)):
                    lit = fresh(lit)
                body_terms.append(_term_of(lit.atom))
        body.append(lit)
    loc = stmt.location
    why = cast.Function(
        loc,
        "_why",
        [
            cast.SymbolicTerm(loc, clingo.Number(k)),
            head_term,
            cast.Function(loc, "t", body_terms, 0),
        ],
        0,
    )
    return cast.Rule(loc, cast.Literal(loc, cast.Sign.NoSign, cast.SymbolicAtom(why)), body)


_FILE_IDS: dict[str, int] = {}


def _scan(path: Path):
    """The statements of one file; `rules/` parsed once for the switches too."""
    if path.parent == data_dir("rules"):
        for scan in scan_folder(path.parent):
            if scan.path == path:
                return scan
    return scan_file(path)  # (each file's twins are cached by _traced_file)


@lru_cache(maxsize=64)
def _traced_file(path: str, stamp: tuple) -> Traced:
    """One file's statements and their twins; K = file id * 10000 + place in the file."""
    scan = _scan(Path(path))
    if scan.errors:
        raise RuntimeError("; ".join(scan.errors))
    base = _FILE_IDS.setdefault(path, len(_FILE_IDS) + 1) * 10000
    traced = Traced([], {}, {})
    for place, st in enumerate(scan.statements, start=1):
        node = st.ast
        if node is None:
            continue
        traced.statements.append(node)
        if st.kind != "Rule":
            continue
        twin = _twin(node, base + place)
        if twin is not None:
            traced.statements.append(twin)
            traced.tags[base + place] = st.tags or ()
            traced.where[base + place] = label(st.file, st.line)
    return traced


def traced_program(query: str) -> Traced:
    """The rule base, `queries/<query>.lp` and `queries/explain.lp`, traced."""
    files = rule_files() + [query_file(query)]
    if query != "explain":
        files.append(query_file("explain"))
    whole = Traced([], {}, {})
    for path, *state in stamp(files):
        part = _traced_file(path, tuple(state))
        whole.statements += part.statements
        whole.tags.update(part.tags)
        whole.where.update(part.where)
    return whole


def _solve_traced(query: str, facts: Sequence[clingo.Symbol], timeout: float | None):
    """Every atom of the (optimal) model of the question's program, or None."""
    program = traced_program(query)
    # one model; with a #minimize/#maximize, the first proven optimal one (the
    # models before it are the optimisation's steps; the last one kept wins)
    ctl = new_control(["--models=1", "--opt-mode=optN"], quiet)
    add_statements(ctl, program.statements)
    add_facts(ctl, facts)
    ctl.ground([("base", [])])
    found: list[list[clingo.Symbol]] = []

    def take(model: clingo.Model) -> None:
        found[:] = [model.symbols(atoms=True)]

    solve_within(ctl, timeout, SolveTimeout, on_model=take)
    return program, (found[0] if found else None)
