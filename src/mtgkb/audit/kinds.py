"""Which kinds of violation and of input error the rule base can derive, and
whether each has its text (kb/messages.lp, kb/input_messages.lp).

A kind is the term that names what is wrong: the second argument of
`violation(rule(R), Kind)` or of `input_error(Rule, Kind, Args)`. Rules pass
kinds on through variables (`violation(rule(R),K) :- bad_attack(R,K).`), so
the places that hold a kind are followed back through rule bodies, and every
function or constant written at such a place in a rule head is a kind.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.engine.programs import quiet
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.encoded import FileScan, label

#: (predicate, arity, 0-based argument) where a kind stands.
VIOLATION = ("violation", 2, 1)
INPUT_ERROR = ("input_error", 3, 1)


def _atom(lit) -> tuple[str, list] | None:
    if lit.ast_type != cast.ASTType.Literal or lit.atom.ast_type != cast.ASTType.SymbolicAtom:
        return None
    term = lit.atom.symbol
    if term.ast_type == cast.ASTType.Function and not term.external:
        return term.name, list(term.arguments)
    if term.ast_type == cast.ASTType.SymbolicTerm:
        sym = term.symbol
        if sym.type == clingo.SymbolType.Function:
            return sym.name, []
    return None


def _kind_name(term) -> str | None:
    if term.ast_type == cast.ASTType.Function and term.name:
        return term.name
    if term.ast_type == cast.ASTType.SymbolicTerm:
        sym = term.symbol
        if sym.type == clingo.SymbolType.Function and sym.name:
            return sym.name
    return None


def rule_atoms(scans: Iterable[FileScan]) -> list[tuple]:
    """Each rule's (head atom, positive body atoms, place), as `kinds` reads them."""
    rules = []
    for scan in scans:
        for st in scan.statements:
            node = st.ast
            if node is None or node.ast_type != cast.ASTType.Rule:
                continue
            head = _atom(node.head)
            if head is None:
                continue
            body = []
            for lit in node.body:
                if lit.ast_type == cast.ASTType.Literal and lit.sign == cast.Sign.NoSign:
                    found = _atom(lit)
                    if found is not None:
                        body.append(found)
            rules.append((head, body, label(st.file, st.line)))
    return rules


def kinds(
    scans: Iterable[FileScan], seed: tuple[str, int, int], rules: list[tuple] | None = None
) -> dict[str, str]:
    """Every kind at `seed` the rules can derive -> where it is first written
    (`rules`: the scans' `rule_atoms`, when already read)."""
    if rules is None:
        rules = rule_atoms(scans)
    places = {seed}
    grown = True
    while grown:
        grown = False
        for (name, args), body, _ in rules:
            for i, arg in enumerate(args):
                if (name, len(args), i) not in places or arg.ast_type != cast.ASTType.Variable:
                    continue
                for other, other_args in body:
                    for j, used in enumerate(other_args):
                        place = (other, len(other_args), j)
                        if (
                            used.ast_type == cast.ASTType.Variable
                            and used.name == arg.name
                            and place not in places
                        ):
                            places.add(place)
                            grown = True
    out: dict[str, str] = {}
    for (name, args), _, where in rules:
        for i, arg in enumerate(args):
            if (name, len(args), i) in places:
                kind = _kind_name(arg)
                if kind is not None:
                    out.setdefault(kind, where)
    return out


def texts(files: Iterable[Path], name: str = "message") -> tuple[set[str], set[str]]:
    """The kinds with an English `name/2` (`message/2`) and with an Italian
    twin `name_it/2` (`message_it/2`)."""
    ctl = new_control(logger=quiet)
    for path in files:
        ctl.load(str(path))
    ctl.ground([("base", [])])
    found: dict[str, set[str]] = {name: set(), f"{name}_it": set()}
    for predicate, out in found.items():
        for atom in ctl.symbolic_atoms.by_signature(predicate, 2):
            kind = atom.symbol.arguments[0]
            if kind.type == clingo.SymbolType.Function:
                out.add(kind.name)
    return found[name], found[f"{name}_it"]


def missing_texts(rule_scans: Iterable[FileScan], kb: Path) -> list[tuple[str, str, str, str]]:
    """(lint kind, kind, where, what is missing) for each kind without its texts:
    `no-message` (no English text: a lint) or `no-italian` (no Italian twin)."""
    scans = list(rule_scans)
    messages = kb / "messages.lp"
    inputs = kb / "input_messages.lp"
    out = []
    rules = rule_atoms(scans)  # (read once for both seeds)
    for seed, path, name in (
        (VIOLATION, messages, "message"),
        (INPUT_ERROR, inputs, "input_message"),
    ):
        derived = kinds(scans, seed, rules)
        if not derived:
            continue
        en, it = texts([path], name) if path.is_file() else (set(), set())
        shown = f"{path.parent.name}/{path.name}"
        for kind, where in sorted(derived.items()):
            if kind not in en:
                out.append(("no-message", kind, where, f"{kind} has no {name}/2 in {shown}"))
            elif kind not in it:
                out.append(("no-italian", kind, where, f"{kind} has no {name}_it/2 in {shown}"))
    return out
