"""Which atoms can reach an explanation, read from the rule base's text the
way `mtgkb.questions.explain.graph` reads a model: the conclusions of
`explain_root/2` (the roots), of `because/2` (the conclusions a rule is
named for) and of `rests_on/2` (both sides), and the input facts the
derivations lead down to (kb/input.lp's `#defined` predicates, and those
the parser writes by default), but those that say nothing worth a leaf.

Every one of them must be said in words (kb/texts.lp, or a sentence of its
own in mtgkb.questions.explain.text): `unsaid` lists those that are not, and
the audit fails on each."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.language.facts import DEFAULTED
from mtgkb.questions.explain.tables import QUIET_FACTS
from mtgkb.questions.explain.text import has_sentence
from mtgkb.rulebase.encoded import FileScan, label, scan_kept
from mtgkb.rulebase.words import LANGS, tables_in

#: (head predicate, arity) -> the places of its arguments that are conclusions
#: of an explanation.
GRAPH_PLACES = {("explain_root", 2): (1,), ("because", 2): (0,), ("rests_on", 2): (0, 1)}


def _signature(term: cast.AST) -> tuple[str, int] | None:
    """The predicate of a term written as an atom, or None (a variable, a number)."""
    if term.ast_type == cast.ASTType.Function and term.name and not term.external:
        return term.name, len(term.arguments)
    if term.ast_type == cast.ASTType.SymbolicTerm:
        sym = term.symbol
        if sym.type == clingo.SymbolType.Function and sym.name:
            return sym.name, len(sym.arguments)
    return None


def _head_term(stmt: cast.AST) -> cast.AST | None:
    if stmt.ast_type != cast.ASTType.Rule:
        return None
    head = stmt.head
    if head.ast_type != cast.ASTType.Literal or head.sign != cast.Sign.NoSign:
        return None
    if head.atom.ast_type != cast.ASTType.SymbolicAtom:
        return None
    return head.atom.symbol


def conclusions(scans: Iterable[FileScan]) -> dict[tuple[str, int], str]:
    """Every predicate the explanation graph can name -> where first written."""
    found: dict[tuple[str, int], str] = {}
    for scan in scans:
        for st in scan.statements:
            if st.ast is None:
                continue
            term = _head_term(st.ast)
            if term is None or term.ast_type != cast.ASTType.Function:
                continue
            places = GRAPH_PLACES.get((term.name, len(term.arguments)), ())
            for place in places:
                sig = _signature(term.arguments[place])
                if sig is not None:
                    found.setdefault(sig, label(st.file, st.line))
    return found


def input_facts(scan: FileScan) -> dict[tuple[str, int], str]:
    """The input predicates (`#defined` in kb/input.lp) that can be a leaf,
    and those the parser writes by default."""
    found: dict[tuple[str, int], str] = {}
    for st in scan.statements:
        node = st.ast
        if node is None or node.ast_type != cast.ASTType.Defined:
            continue
        if node.name not in QUIET_FACTS:
            found.setdefault((node.name, node.arity), label(st.file, st.line))
    for sig in DEFAULTED:
        found.setdefault(sig, label(scan.path, 1))
    return found


def explained_predicates(root: Path) -> dict[tuple[str, int], str]:
    """Every predicate whose atoms can appear in an explanation -> where."""
    files = sorted((root / "rules").glob("*.lp")) + sorted((root / "queries").glob("*.lp"))
    found = conclusions(scan_kept(f) for f in files)
    kb_input = root / "kb" / "input.lp"
    if kb_input.is_file():
        for sig, where in input_facts(scan_kept(kb_input)).items():
            found.setdefault(sig, where)
    return found


def unsaid(root: Path) -> list[tuple[str, int, str]]:
    """(name, arity, where) of each predicate that can reach an explanation
    without a sentence in English and in Italian (kb/texts.lp of `root`)."""
    tables = tables_in(root / "kb")
    out = []
    for (name, arity), where in sorted(explained_predicates(root).items()):
        if not all(
            has_sentence(name, arity, tables.get((lang, "conclusion"), {})) for lang in LANGS
        ):
            out.append((name, arity, where))
    return out
