"""What the audit reads: where the rule base is, its files scanned, and which
predicates each statement derives and reads (clingo.ast).

Nothing here is a game rule.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.rulebase.encoded import FileScan, scan_file, scan_folder
from mtgkb.rulebase.location import ENV_RULE_BASE, ENV_WITH, program_files
from mtgkb.rulebase.location import current as current_rule_base

#: The explanation graph is read by the renderer, not by other rules.
PUBLIC_GRAPH = frozenset({"because", "rests_on", "violation", "cites"})


@dataclass
class Base:
    root: Path
    rules: Path
    kb: Path
    queries: Path | None
    extra: tuple[Path, ...] = ()  # the user's files added after the rule base (`--with`)

    @classmethod
    def at(cls, root: Path | None, extra: Sequence[Path] | None = None) -> Base:
        """The rule base in `root`, or (None) the one in use (`mtgkb.rulebase.location`),
        with the added files `extra` (for None, those of the rule base in use)."""
        if root is None:
            chosen = current_rule_base()
            root = chosen.root
            extra = chosen.extra if extra is None else extra
        root = Path(root)
        queries = root / "queries"
        return cls(
            root,
            root / "rules",
            root / "kb",
            queries if queries.is_dir() else None,
            tuple(Path(p) for p in extra or ()),
        )

    def files(self, folder: Path | None) -> list[Path]:
        return program_files(folder) if folder is not None and folder.is_dir() else []

    def query_files(self) -> list[Path]:
        return self.files(self.queries)

    def rule_scans(self) -> list[FileScan]:
        """rules/ and the added files, scanned: the statements that encode rules."""
        scans = scan_folder(self.rules) if self.rules.is_dir() else []
        return scans + [scan_file(p) for p in self.extra]

    @contextmanager
    def in_use(self) -> Iterator[Base]:
        """This rule base made the one `mtgkb run` answers with, for the while:
        the audit asks its questions as `mtgkb run --rule-base ROOT` would."""
        saved = {n: os.environ.get(n) for n in (ENV_RULE_BASE, ENV_WITH)}
        os.environ[ENV_RULE_BASE] = str(self.root)
        if self.extra:
            os.environ[ENV_WITH] = os.pathsep.join(str(p) for p in self.extra)
        else:
            os.environ.pop(ENV_WITH, None)
        try:
            yield self
        finally:
            for n, old in saved.items():
                if old is None:
                    os.environ.pop(n, None)
                else:
                    os.environ[n] = old


@dataclass
class Scans:
    rules: list[FileScan]
    others: list[FileScan]  # kb/ and queries/: their tags must name indexed rules too

    def all(self) -> list[FileScan]:
        return self.rules + self.others


def scan(base: Base) -> Scans:
    """The rule base's files scanned: rules/ (and the added files), kb/ less the
    rule index, queries/."""
    kb = (
        [s for s in scan_folder(base.kb) if s.path.name != "rule_index.lp"]
        if base.kb.is_dir()
        else []
    )
    queries = scan_folder(base.queries) if base.queries is not None else []
    return Scans(base.rule_scans(), kb + queries)


def finding(kind: str, message: str, where: str | None = None, rule: str | None = None) -> dict:
    """One item of the report's lint or warnings."""
    item = {"kind": kind, "message": message}
    if where:
        item["where"] = where
    if rule:
        item["rule"] = rule
    return item


# --------------------------------------------------------------------------
# Predicates: what each statement derives and reads
# --------------------------------------------------------------------------


def collect_atoms(node, found: set[tuple[str, int]]) -> None:
    """Every predicate signature in atom position below `node`."""
    if node is None:
        return
    if not isinstance(node, cast.AST):
        try:
            for item in node:
                collect_atoms(item, found)
        except TypeError:
            pass
        return
    if node.ast_type == cast.ASTType.SymbolicAtom:
        term = node.symbol
        if term.ast_type == cast.ASTType.Function and term.name:
            found.add((term.name, len(term.arguments)))
        elif term.ast_type == cast.ASTType.SymbolicTerm:
            sym = term.symbol
            if sym.type == clingo.SymbolType.Function and sym.name:
                found.add((sym.name, len(sym.arguments)))
        elif term.ast_type == cast.ASTType.Pool:
            for arg in term.arguments:
                if arg.ast_type == cast.ASTType.Function and arg.name:
                    found.add((arg.name, len(arg.arguments)))
        return
    for key in node.child_keys:
        collect_atoms(getattr(node, key), found)


def head_and_body(stmt: cast.AST) -> tuple[set, set]:
    """(the predicates a statement derives, the predicates it reads)."""
    heads, uses = _predicates_of(stmt)
    return set(heads), set(uses)


@lru_cache(maxsize=50_000)
def _predicates_of(stmt: cast.AST) -> tuple[frozenset, frozenset]:
    """head_and_body's answer, kept by statement (equal statements read the
    same predicates): the lint reads each statement's predicates more than once."""
    heads, uses = _head_and_body(stmt)
    return frozenset(heads), frozenset(uses)


def _head_and_body(stmt: cast.AST) -> tuple[set, set]:
    heads: set[tuple[str, int]] = set()
    uses: set[tuple[str, int]] = set()
    kind = stmt.ast_type
    if kind == cast.ASTType.Rule:

        def head_part(node):
            t = node.ast_type
            if t == cast.ASTType.Literal:
                collect_atoms(node, heads)
            elif t == cast.ASTType.ConditionalLiteral:
                head_part(node.literal)
                collect_atoms(node.condition, uses)
            elif t in (cast.ASTType.Disjunction, cast.ASTType.Aggregate):
                for element in node.elements:
                    head_part(element)
            elif t == cast.ASTType.HeadAggregate:
                for element in node.elements:
                    head_part(element.condition)
            else:
                collect_atoms(node, uses)

        head_part(stmt.head)
        collect_atoms(stmt.body, uses)
    elif kind == cast.ASTType.ShowSignature:
        uses.add((stmt.name, stmt.arity))
    else:
        collect_atoms(stmt, uses)
    return heads, uses


def documented_names(root: Path) -> set[str]:
    """Predicate names the public schema documents (docs/predicates.md, in a checkout)."""
    doc = root / "docs" / "predicates.md"
    if not doc.is_file():
        return set()
    text = doc.read_text(encoding="utf-8")
    return set(re.findall(r"`([a-z_][A-Za-z0-9_]*)(?:\(|`)", text))
