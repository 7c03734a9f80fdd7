"""The edge of the rule base in the audit: every `not_modelled(rule(N))`
declaration (kb/not_modelled.lp and the user's added files) with its
condition, the kinds of question it is narrowed to, and its place; lint when
a declared rule is also encoded (a `% N:` tag over a rule of rules/ or of an
added file that derives something) or is not in the rule index.

Nothing here is a game rule: the declarations are read as they are written.
"""

from __future__ import annotations

from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.audit.coverage import encoded_sites
from mtgkb.audit.sources import Base, Scans, finding
from mtgkb.rulebase.encoded import label
from mtgkb.rulebase.index import RuleIndex, sort_key
from mtgkb.rulebase.location import program_files

DECLARED = "not_modelled"
NARROWED = "not_modelled_in"


def _number(term: cast.AST) -> str | None:
    """N of a `rule("N")` term in the AST, else None."""
    text = str(term)
    if not (text.startswith('rule("') and text.endswith('")')):
        return None
    try:
        symbol = clingo.parse_term(text)
    except RuntimeError:
        return None
    inner = symbol.arguments[0] if symbol.arguments else None
    return inner.string if inner is not None and inner.type == clingo.SymbolType.String else None


def _head(rule: cast.AST) -> tuple[str, list[cast.AST]] | None:
    """(predicate, arguments) of a rule's one positive head atom, else None."""
    head = rule.head
    if head.ast_type != cast.ASTType.Literal or head.sign != cast.Sign.NoSign:
        return None
    atom = head.atom
    if atom.ast_type != cast.ASTType.SymbolicAtom:
        return None
    term = atom.symbol
    if term.ast_type != cast.ASTType.Function:
        return None
    return term.name, list(term.arguments)


def declarations(files: list[Path]) -> list[dict]:
    """Every `not_modelled(rule("N"))` rule of the files: the rule, its
    condition (the body as written, "always" for a fact), its place, and the
    kinds of question `not_modelled_in/2` narrows it to (empty: every kind)."""
    found: list[dict] = []
    narrowed: dict[str, set[str]] = {}
    for path in files:
        rules: list[cast.AST] = []
        try:
            cast.parse_files([str(path)], rules.append, logger=lambda *_: None)
        except RuntimeError:
            continue  # (a file clingo cannot read is reported as such)
        for node in rules:
            if node.ast_type != cast.ASTType.Rule:
                continue
            head = _head(node)
            if head is None or not head[1]:
                continue
            name, args = head
            number = _number(args[0])
            if number is None:
                continue
            if name == DECLARED and len(args) == 1:
                when = ", ".join(str(b) for b in node.body) or "always"
                found.append(
                    {"rule": number, "when": when, "at": label(path, node.location.begin.line)}
                )
            elif name == NARROWED and len(args) == 2:
                narrowed.setdefault(number, set()).add(str(args[1]))
    for item in found:
        item["answers"] = sorted(narrowed.get(item["rule"], ()))
    return sorted(found, key=lambda d: (sort_key(d["rule"]), d["at"]))


def declared_files(base: Base) -> list[Path]:
    """The files that may declare rules not modelled: kb/ and the added files."""
    kb = program_files(base.kb) if base.kb.is_dir() else []
    return [f for f in kb if f.name != "rule_index.lp"] + list(base.extra)


def not_modelled(base: Base, scans: Scans, index: RuleIndex | None) -> tuple[list[dict], list]:
    """The report's `not_modelled` list and its lint: a rule both encoded and
    declared not modelled, a declared number not in the rule index."""
    found = declarations(declared_files(base))
    encoded = encoded_sites(scans)
    lint = []
    said: set[str] = set()
    for item in found:
        number = item["rule"]
        if number in said:
            continue
        said.add(number)
        if encoded.get(number):
            places = ", ".join(encoded[number])
            lint.append(
                finding(
                    "encoded-and-not-modelled",
                    f"{number} is declared not modelled ({item['at']}) but encoded at {places}",
                    item["at"],
                    number,
                )
            )
        if index is not None and number not in index:
            lint.append(
                finding(
                    "not-modelled-unindexed",
                    f"{number} is declared not modelled but is not in the rule index",
                    item["at"],
                    number,
                )
            )
    return found, lint
