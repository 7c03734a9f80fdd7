"""Grounding and solving: the rule base, one or more queries and the facts of a scenario.

Nothing here knows a game rule; it only runs clingo with a model cap and a
time-out and hands the shown atoms of each model to the caller.

How the work is kept small (bench/README.md has the measurements; each step
can be switched off with an environment variable, for comparison):

- Slicing (MTGKB_SLICING=0 to switch off). Only the statements of the rule
  base that can matter are grounded, which is exact:
  * backward, per query: the statements whose head may unify with an atom
    that the query shows, constrains, optimises or reads, and so on down
    (atoms compared by predicate, arity and the shape of their first
    argument, so `because(violation(..),_)` does not pull in every
    `because/2` rule); constraints, choice rules and rules in a cycle
    through negation or aggregates always stay. Only when the query
    restricts what is shown (`#show p/n`).
  * forward, per scenario: rules whose positive body names a predicate that
    no fact and no rule that may fire can derive are left out.
  The analysis behind it is cached on disk (MTGKB_CACHE_DIR, default
  ~/.cache/mtgkb; MTGKB_CACHE=0 for none), keyed by the programs' text.
- Sharing (MTGKB_SHARE=0). The questions of one small file share
  groundings (`Grounding` with several queries; mtgkb.questions.answers decides):
  queries that define no predicate differently are grounded together, each
  query's statements guarded by an external `_mtgkb_query(Q)` switched on
  for its own solve, and each question's `asked/1` likewise. The models of a
  query are exactly those of the rule base with that query alone.
- Many scenarios at once (`solve_many`, used by mtgkb.running.batch; MTGKB_COMBINE=0
  there): for questions with one answer per scenario, a chunk of scenarios
  is grounded as one program, every atom given the scenario as a first
  argument.
- Counting (MTGKB_FAST_COUNT=0). Past the models an answer lists, models are
  counted by clasp (its statistics), with no Python per model.
"""

from __future__ import annotations

import atexit
import os
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import clingo

from mtgkb.engine.control import new_control
from mtgkb.engine.programs import quiet, solve_within
from mtgkb.engine.programs import stamp as file_stamp
from mtgkb.rulebase.location import data_dir, query_file, rule_files
from mtgkb.running import deadline as _deadline

ModelCallback = Callable[[Sequence[clingo.Symbol]], None]

GUARD = "_mtgkb_query"
ANALYSIS_VERSION = 4  # bump when the analysis below changes


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "1").lower() not in ("0", "no", "false", "off")


SLICING = _env_flag("MTGKB_SLICING")  # ground only the statements that can matter
SHARE = _env_flag("MTGKB_SHARE")  # the questions of a file share groundings
FAST_COUNT = _env_flag("MTGKB_FAST_COUNT")  # count models without Python per model
COUNT_PARTS = _env_flag("MTGKB_COUNT_PARTS")  # count by independent parts (mtgkb.engine.counting)

# The queries whose answers count their models: their groundings are recorded
# (mtgkb.engine.counting) so that the count is exact without enumerating them all.
COUNTED_QUERIES = frozenset({"blocks", "attacks"})


class SolveTimeout(Exception):
    """The time-out stopped the work before clingo finished."""


@dataclass
class SolveResult:
    """What a solve gave: the number of (optimal) models and whether it finished."""

    count: int = 0
    complete: bool = True
    satisfiable: bool = False
    models: list[list[clingo.Symbol]] = field(default_factory=list)


# --------------------------------------------------------------------------
# What each statement derives and reads
#
# An atom pattern is [name, arity, first]: first is the shape of the first
# argument ("f/name/arity" for a function or constant, "v/text" for a number
# or string) or None when it may be anything. ["?"] is an atom we cannot read.

UNKNOWN = ("?",)


def _first_shape(term) -> str | None:
    T = clingo.ast.ASTType
    if term.ast_type == T.Function:
        if any(a.ast_type == T.Pool for a in term.arguments):
            return None
        return f"f/{term.name}/{len(term.arguments)}"
    if term.ast_type == T.SymbolicTerm:
        symbol = term.symbol
        if symbol.type == clingo.SymbolType.Function:
            return f"f/{symbol.name}/{len(symbol.arguments)}"
        return f"v/{symbol}"
    return None


def _patterns(term) -> list[tuple]:
    """The patterns of the atom(s) an atom term may stand for."""
    T = clingo.ast.ASTType
    kind = term.ast_type
    if kind == T.Pool:
        return [p for alternative in term.arguments for p in _patterns(alternative)]
    if kind == T.UnaryOperation:  # -p(X): classical negation, read as p (conservative)
        return _patterns(term.argument)
    if kind == T.Function:
        args = term.arguments
        return [(term.name, len(args), _first_shape(args[0]) if args else None)]
    if kind == T.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        symbol = term.symbol
        args = symbol.arguments
        first = None
        if args:
            a = args[0]
            if a.type == clingo.SymbolType.Function:
                first = f"f/{a.name}/{len(a.arguments)}"
            else:
                first = f"v/{a}"
        return [(symbol.name, len(args), first)]
    return [UNKNOWN]


def _walk_atoms(node, out: list) -> None:
    """Every symbolic atom anywhere inside a statement or part of one."""
    if isinstance(node, clingo.ast.AST):
        kind = node.ast_type
        if kind == clingo.ast.ASTType.SymbolicAtom:
            out.extend(_patterns(node.symbol))
            return
        if kind == clingo.ast.ASTType.TheoryAtom:
            out.append(UNKNOWN)
            return
        for key in node.keys():
            value = getattr(node, key)
            if isinstance(value, (clingo.ast.AST, clingo.ast.ASTSequence)):
                _walk_atoms(value, out)
    elif isinstance(node, clingo.ast.ASTSequence):
        for item in node:
            _walk_atoms(item, out)


def _is_plain(lit) -> bool:
    return (
        lit.ast_type == clingo.ast.ASTType.Literal
        and lit.sign == clingo.ast.Sign.NoSign
        and lit.atom.ast_type == clingo.ast.ASTType.SymbolicAtom
    )


def _body(body) -> tuple[list, list[str], list[str]]:
    """A body's atoms, the names of its plain positive literals, and the names
    of the atoms anywhere else in it (negated, in aggregates or conditions)."""
    atoms: list = []
    plain: list[str] = []
    other: list[str] = []
    for lit in body:
        found: list = []
        _walk_atoms(lit, found)
        atoms += found
        names = {p[0] for p in found}
        if _is_plain(lit) and len(names) == 1 and UNKNOWN not in found:
            plain += names
        else:
            other += names
    return atoms, plain, other


def _head(head) -> tuple[list, list] | None:
    """The atoms a head derives and the atoms its conditions read; None when
    the head is a constraint's."""
    T = clingo.ast.ASTType
    if head.ast_type == T.Literal:
        if head.atom.ast_type == T.BooleanConstant:
            return None
        if head.atom.ast_type == T.SymbolicAtom:
            return _patterns(head.atom.symbol), []
        return [UNKNOWN], []
    if head.ast_type in (T.Aggregate, T.Disjunction):
        derived: list = []
        read: list = []
        for element in head.elements:
            if element.literal.ast_type != T.Literal:
                return [UNKNOWN], []
            _walk_atoms(element.literal, derived)
            _walk_atoms(element.condition, read)
        if head.ast_type == T.Aggregate:
            for guard in (head.left_guard, head.right_guard):
                if guard is not None:
                    _walk_atoms(guard, read)
        return derived, read
    return [UNKNOWN], [UNKNOWN]


def _describe(node, span: tuple[int, int]) -> dict:
    """One statement: where it is in the program (byte offsets), what it
    derives and reads, and whether it always stays."""
    T = clingo.ast.ASTType
    kind = node.ast_type
    heads: list = []
    needs: list = []
    plain: list[str] = []
    other: list[str] = []
    root = True
    if kind == T.Rule:
        needs, plain, other = _body(node.body)
        head = _head(node.head)
        if head is not None:
            heads, read = head
            if node.head.ast_type == T.Literal:
                root = UNKNOWN in heads
            else:  # choice, disjunction: they stay, and what they derive matters
                needs = needs + heads + read
                other = other + [p[0] for p in read]
    elif kind in (T.ShowTerm, T.Minimize, T.External):
        _walk_atoms(node, needs)
        if kind == T.External:
            heads = _patterns(node.atom.symbol)
        else:
            _, plain, other = _body(node.body)
    elif kind == T.ShowSignature:
        if node.name:
            needs = [(node.name, node.arity, None)]
    elif kind in (T.Defined, T.Definition) or (kind == T.Program and node.name == "base"):
        pass
    else:  # other #program parts, #project, #heuristic, #edge, #script, theories
        needs = [UNKNOWN]
        heads = [UNKNOWN]
    return {
        "span": span,
        "root": root,
        "heads": list(dict.fromkeys(heads)),
        "needs": list(dict.fromkeys(needs)),
        "fwd_heads": sorted({p[0] for p in heads}),
        "fwd_needs": sorted(set(plain)),
        "other_needs": sorted(set(other)),
        "restricts_shown": kind == T.ShowSignature,
    }


def _line_starts(data: bytes) -> list[int]:
    starts = [0]
    at = data.find(b"\n")
    while at >= 0:
        starts.append(at + 1)
        at = data.find(b"\n", at + 1)
    return starts


def _whole_statement(source: bytes, span: tuple[int, int]) -> tuple[int, int]:
    """The span of the whole `#minimize {...}.` statement around one of its
    elements (clingo locates each element alone)."""
    start, end = span
    if source[end - 1 : end] == b".":
        return span  # a weak constraint `:~ ... .`
    opening = max(source.rfind(b"#m", 0, start), 0)
    closing = source.find(b"}", end)
    stop = source.find(b".", closing) if closing >= 0 else -1
    if stop < 0:
        return span
    return opening, stop + 1


def _analyse(text: str) -> list[dict]:
    import clingo.ast  # noqa: F401 - the analysis reads clingo's AST

    out: list[dict] = []
    source = text.encode("utf-8")
    lines = _line_starts(source)  # clingo's columns count bytes

    def take(node) -> None:
        if node.ast_type != clingo.ast.ASTType.Comment:
            begin, end = node.location.begin, node.location.end
            span = (lines[begin.line - 1] + begin.column - 1, lines[end.line - 1] + end.column - 1)
            if node.ast_type == clingo.ast.ASTType.Minimize:
                span = _whole_statement(source, span)
            out.append(_describe(node, span))

    clingo.ast.parse_string(text, take)
    return out


def _negative_cycles(statements: list[dict]) -> None:
    """Mark as roots the rules whose head is in a cycle through negation or an
    aggregate (leaving those out could change which models exist)."""
    graph: dict[str, set[str]] = {}
    negative: set[tuple[str, str]] = set()
    for st in statements:
        for head in st["fwd_heads"]:
            graph.setdefault(head, set()).update(st["fwd_needs"], st["other_needs"])
            negative.update((head, need) for need in st["other_needs"])
    # Tarjan's strongly connected components, iteratively.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    component: dict[str, int] = {}
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = index[node]
                    if member == node:
                        break
    bad = {component[h] for h, n in negative if component.get(n) == component.get(h)}
    bad |= {component[h] for h in graph if "?" in graph[h]}
    # a non-plain edge inside a component: every rule defining it stays
    for st in statements:
        if any(component.get(h) in bad for h in st["fwd_heads"]):
            st["root"] = True


# --------------------------------------------------------------------------
# The rule base and the queries, read once per process


def _cache_dir() -> Path | None:
    if not _env_flag("MTGKB_CACHE"):
        return None
    if os.environ.get("MTGKB_CACHE_DIR"):
        return Path(os.environ["MTGKB_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mtgkb"


class _Analysis:
    """The statements of the rule base and of every query, described for
    slicing; a statement's text is read from the rule base itself, at the
    byte offsets the analysis found it at."""

    def __init__(self, data: dict, source: bytes):
        self.base: list[dict] = data["base"]
        self.queries: dict[str, list[dict]] = data["queries"]
        self.guardable: dict[str, bool] = data["guardable"]
        self.definitions: dict[str, dict[str, list[str]]] = data["definitions"]
        self._source = source
        self._texts: list[str] | None = None
        self.by_head: dict[tuple, list[tuple[int, str | None]]] = {}
        self.wild: list[int] = []  # statements whose head we cannot read
        for i, st in enumerate(self.base):
            for pattern in st["heads"]:
                if len(pattern) != 3:
                    self.wild.append(i)
                    continue
                name, arity, first = pattern
                self.by_head.setdefault((name, arity), []).append((i, first))
        self._kept: dict[tuple, list[int] | None] = {}

    def program(self, indices: Iterable[int]) -> str:
        """The text of the rule base statements `indices` (ascending)."""
        if self._texts is None:
            source = self._source
            self._texts = [
                source[st["span"][0] : st["span"][1]].decode("utf-8") for st in self.base
            ]
        texts, spans = self._texts, [st["span"] for st in self.base]
        out = []
        last = None
        for i in indices:
            if spans[i] != last:  # statements clingo split from one (a #minimize's elements)
                out.append(texts[i])
                last = spans[i]
        return "\n".join(out)

    def kept(self, queries: tuple[str, ...]) -> list[int] | None:
        """Indices of the rule base statements the queries may need (backward
        slicing), or None when all are needed."""
        if queries not in self._kept:
            self._kept[queries] = self._backward(queries)
        return self._kept[queries]

    def _backward(self, queries: tuple[str, ...]) -> list[int] | None:
        roots = [st for q in queries for st in self.queries[q]]
        if not all(any(st["restricts_shown"] for st in self.queries[q]) for q in queries):
            return None  # every atom is shown: everything matters
        keep = [False] * len(self.base)
        todo: list = []
        for st in roots:
            todo.extend(st["needs"])
            todo.extend(st["heads"])
        for i, st in enumerate(self.base):
            if st["root"]:
                keep[i] = True
                todo.extend(st["needs"])
                todo.extend(st["heads"])
        for i in self.wild:
            keep[i] = True
            todo.extend(self.base[i]["needs"])
        seen: set[tuple] = set()
        while todo:
            pattern = tuple(todo.pop())
            if pattern in seen:
                continue
            seen.add(pattern)
            if len(pattern) != 3:
                return None
            name, arity, first = pattern
            for i, head_first in self.by_head.get((name, arity), ()):
                if keep[i]:
                    continue
                if first is None or head_first is None or first == head_first:
                    keep[i] = True
                    todo.extend(self.base[i]["needs"])
        return [i for i, k in enumerate(keep) if k]

    def live(self, kept: list[int], known: set[str]) -> list[int]:
        """Of `kept`, the statements that may fire when only the `known`
        predicates have facts (forward slicing)."""
        base = self.base
        users: dict[str, list[int]] = {}
        missing: dict[int, int] = {}
        queue = []
        live = set(known)
        for i in kept:
            needs = [n for n in base[i]["fwd_needs"] if n not in live]
            missing[i] = len(needs)
            if not needs:
                queue.append(i)
            for name in needs:
                users.setdefault(name, []).append(i)
        out = set(queue)
        while queue:
            i = queue.pop()
            for name in base[i]["fwd_heads"]:
                if name in live:
                    continue
                live.add(name)
                for j in users.get(name, ()):
                    missing[j] -= 1
                    if missing[j] == 0:
                        out.add(j)
                        queue.append(j)
        return sorted(out)


class _RuleBase:
    """The rule base and the queries, as read from disk at one moment."""

    def __init__(self, stamp: tuple, files: list[Path], query_files: list[Path]):
        self.stamp = stamp
        self.text = "\n".join(f.read_text(encoding="utf-8") for f in files)
        self.query_texts = {f.stem: f.read_text(encoding="utf-8") for f in query_files}
        self.controls = 0  # how many Controls this process built from it
        self._analysis: _Analysis | None = None
        self._guarded: dict[str, str | None] = {}

    def query_text(self, name: str) -> str:
        if name not in self.query_texts:  # a query file added since
            self.query_texts[name] = query_file(name).read_text(encoding="utf-8")
        return self.query_texts[name]

    def _key(self) -> str:
        """A digest of everything the analysis depends on."""
        parts = [f"{ANALYSIS_VERSION} {clingo.__version__}", self.text]
        parts += [f"%%query {q}\n{self.query_texts[q]}" for q in sorted(self.query_texts)]
        data = "\n".join(parts).encode("utf-8")
        return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"

    def analysis(self) -> _Analysis:
        """What slicing and sharing need to know of each statement: from the
        disk cache, or worked out (about 0.2 s) and cached.

        The cache holds no program text: statements are byte offsets into
        this rule base, and the file is keyed by the rule base's digest. It
        is read only from a folder of this user's that no one else may write
        to, and checked whole (its digest, every field's type, every offset
        against the statements of the text); anything amiss and it is
        worked out again, quietly."""
        if self._analysis is not None:
            return self._analysis
        key = self._key()
        source = self.text.encode("utf-8")
        folder = _cache_dir()
        name = f"analysis-{key}.marshal"
        data = _load_analysis(folder / name, key, source, self) if folder else None
        if data is None:
            data = {
                "key": key,
                "base": _analyse(self.text),
                "queries": {q: _analyse(t) for q, t in self.query_texts.items()},
                "guardable": {q: _guard(t, q) is not None for q, t in self.query_texts.items()},
                "definitions": {
                    q: {k: sorted(_digest(r) for r in v) for k, v in _definitions(t).items()}
                    for q, t in self.query_texts.items()
                },
            }
            _negative_cycles(data["base"])
            if folder is not None:
                _store_analysis(folder, name, data)
        self._analysis = _Analysis(data, source)
        return self._analysis

    def guarded(self, name: str) -> str | None:
        """The query's statements, each made conditional on `_mtgkb_query(name)`,
        as text (made from the query file, once per process); None when some
        statement cannot be guarded."""
        analysis = self.analysis()
        if not analysis.guardable.get(name):
            return None
        if name not in self._guarded:
            self._guarded[name] = _guard(self.query_text(name), name)
        return self._guarded[name]

    def definitions(self, name: str) -> dict[str, list[str]]:
        """Predicate name -> digests of the rules defining it in the query."""
        return self.analysis().definitions.get(name, {})


def _digest(text: str) -> str:
    """A short digest of a statement's text: equal texts, equal digests."""
    data = text.encode("utf-8")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


# --------------------------------------------------------------------------
# The analysis cache on disk: MAGIC, a digest of the payload, the payload
# (marshal: plain lists, tuples, dicts, strings, numbers; read in about a
# millisecond, against 3-7 ms for JSON). marshal is not meant for data from
# others: a cache is read only from a folder of this user's that no one else
# may write to, when its digest matches, and every value is then checked.

CACHE_MAGIC = b"mtgkb-analysis\x00" + bytes([ANALYSIS_VERSION])
_STATEMENT_KEYS = frozenset(
    ("span", "root", "heads", "needs", "fwd_heads", "fwd_needs", "other_needs", "restricts_shown")
)
_GAP = None  # compiled lazily: whitespace and comments between statements


def _private_folder(folder: Path) -> bool:
    """Whether `folder` is this user's and no one else may write to it."""
    try:
        info = folder.stat()
    except OSError:
        return False
    if not hasattr(os, "getuid"):
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def _load_analysis(path: Path, key: str, source: bytes, base: _RuleBase) -> dict | None:
    """The cached analysis at `path` if it is sound for this rule base, else None."""
    import marshal

    if not _private_folder(path.parent):
        return None
    try:
        with open(path, "rb") as cached:
            info = os.fstat(cached.fileno())
            if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
                return None
            blob = cached.read(64 << 20)
    except OSError:
        return None
    head = len(CACHE_MAGIC)
    if len(blob) < head + 8 or blob[:head] != CACHE_MAGIC:
        return None
    payload = blob[head + 8 :]
    if blob[head : head + 8] != _payload_digest(payload):
        return None
    try:
        data = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    try:
        if _sound(data, key, source, base):
            return data
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, UnicodeError):
        pass
    return None


def _payload_digest(payload: bytes) -> bytes:
    return (zlib.crc32(payload) & 0xFFFFFFFF).to_bytes(4, "big") + (
        zlib.adler32(payload) & 0xFFFFFFFF
    ).to_bytes(4, "big")


def _is_pattern(p) -> bool:
    if p == UNKNOWN:
        return True
    return (
        type(p) is tuple
        and len(p) == 3
        and type(p[0]) is str
        and type(p[1]) is int
        and (p[2] is None or type(p[2]) is str)
    )


def _sound_statements(statements, source: bytes) -> bool:
    """Every statement well formed, and their offsets the statements of `source`:
    in order, each ending with a full stop, only blanks and comments between."""
    global _GAP
    if type(statements) is not list:
        return False
    if _GAP is None:
        import re

        # atomic and possessive: no backtracking, linear in the gap
        _GAP = re.compile(rb"(?>\s+|%\*.*?\*%|%[^\n]*+)*+", re.DOTALL)
    at = 0
    last = None
    gap = _GAP.fullmatch
    patterns: set = set()
    names: set = set()
    for st in statements:
        if type(st) is not dict or st.keys() != _STATEMENT_KEYS:
            return False
        span = st["span"]
        if type(span) is not tuple or len(span) != 2:
            return False
        start, end = span
        if type(start) is not int or type(end) is not int:
            return False
        if type(st["root"]) is not bool or type(st["restricts_shown"]) is not bool:
            return False
        heads, needs = st["heads"], st["needs"]
        fwd_heads, fwd_needs, other_needs = st["fwd_heads"], st["fwd_needs"], st["other_needs"]
        if not (
            type(heads) is list
            and type(needs) is list
            and type(fwd_heads) is list
            and type(fwd_needs) is list
            and type(other_needs) is list
        ):
            return False
        patterns.update(heads)  # (a list inside is unhashable: TypeError, caught)
        patterns.update(needs)
        names.update(fwd_heads)
        names.update(fwd_needs)
        names.update(other_needs)
        if span == last:
            continue  # several statements of one (a #minimize's elements)
        if not at <= start <= end <= len(source) or not gap(source, at, start):
            return False
        if end > start and source[end - 1] != 46:  # a full stop ends each statement
            return False
        at, last = end, span
    if not all(_is_pattern(p) for p in patterns) or not all(type(n) is str for n in names):
        return False
    return bool(gap(source, at, len(source)))


def _sound(data, key: str, source: bytes, base: _RuleBase) -> bool:
    if type(data) is not dict or data.keys() != {
        "key",
        "base",
        "queries",
        "guardable",
        "definitions",
    }:
        return False
    if data["key"] != key or not _sound_statements(data["base"], source):
        return False
    names = set(base.query_texts)
    queries, guardable, definitions = data["queries"], data["guardable"], data["definitions"]
    if type(queries) is not dict or queries.keys() != names:
        return False
    if type(guardable) is not dict or guardable.keys() != names:
        return False
    if type(definitions) is not dict or definitions.keys() != names:
        return False
    for q in names:
        if not _sound_statements(queries[q], base.query_texts[q].encode("utf-8")):
            return False
        if type(guardable[q]) is not bool or type(definitions[q]) is not dict:
            return False
        for pred, digests in definitions[q].items():
            if type(pred) is not str or type(digests) is not list:
                return False
            if not all(type(d) is str for d in digests):
                return False
    return True


def _shared(data):
    """`data` with equal strings and tuples made one object, which marshal then
    writes once (a smaller file, and faster to read and check)."""
    seen: dict = {}

    def one(value):
        if type(value) is dict:
            return {one(k): one(v) for k, v in value.items()}
        if type(value) is list:
            return [one(v) for v in value]
        if type(value) is tuple:
            value = tuple(one(v) for v in value)
        if type(value) in (str, tuple):
            return seen.setdefault(value, value)
        return value

    return one(data)


def _store_analysis(folder: Path, name: str, data: dict) -> None:
    """Write the analysis atomically into a folder of this user's (made 0700);
    a cache that cannot be written is no error."""
    import marshal

    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private_folder(folder):
            return
        payload = marshal.dumps(_shared(data))
        temporary = folder / f".{name}.{os.getpid()}.tmp"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(CACHE_MAGIC + _payload_digest(payload) + payload)
        os.replace(temporary, folder / name)
    except (OSError, ValueError):
        return
    _prune(folder, "analysis-*", keep=8)


def _prune(folder: Path, pattern: str, keep: int) -> None:
    """Delete all but the `keep` newest cache files (each edit of the rules makes one)."""
    try:
        files = sorted(folder.glob(pattern), key=lambda f: f.stat().st_mtime, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


_BASE: _RuleBase | None = None


@atexit.register
def _release() -> None:
    """Drop parsed statements while clingo can still free them (at exit its
    module may go first, and its AST destructor would fail noisily)."""
    global _BASE
    _BASE = None
    _SCENARIO_PROGRAMS.clear()


_CHECKED = 0.0
RECHECK_SECONDS = 1.0  # how often a long batch looks for edited rule files


def rule_base() -> _RuleBase:
    """The rule base of this process, read again when a file of it changed."""
    global _BASE, _CHECKED
    now = time.monotonic()
    if _BASE is not None and now - _CHECKED < RECHECK_SECONDS:
        return _BASE
    files = rule_files()
    queries = sorted(data_dir("queries").glob("*.lp"))
    stamp = file_stamp(files + queries)
    if _BASE is None or _BASE.stamp != stamp:
        _BASE = _RuleBase(stamp, files, queries)
    _CHECKED = now
    return _BASE


def prepare() -> None:
    """Read and analyse the rule base now (before forking workers that inherit it)."""
    rule_base().analysis()


# A child forked to answer under a time-out inherits the rule base read here.
_deadline.before_fork(prepare)


# --------------------------------------------------------------------------
# Queries that share a grounding


def _location():
    import clingo.ast

    here = clingo.ast.Position("<mtgkb>", 1, 1)
    return clingo.ast.Location(here, here)


def _guard(text: str, name: str) -> str | None:
    import clingo.ast

    T = clingo.ast.ASTType
    nodes: list = []
    clingo.ast.parse_string(text, nodes.append)
    nodes = [n for n in nodes if n.ast_type != T.Comment]
    # A merged program hides all atoms (`#show.`) and shows terms only: so a
    # query must say which atoms it shows with `#show p/n`.
    if not any(n.ast_type == T.ShowSignature for n in nodes):
        return None
    loc = _location()
    guard_term = clingo.ast.SymbolicTerm(loc, clingo.Function(GUARD, [clingo.Function(name)]))
    guard = clingo.ast.Literal(loc, clingo.ast.Sign.NoSign, clingo.ast.SymbolicAtom(guard_term))
    out = []
    for node in nodes:
        kind = node.ast_type
        if kind in (T.Rule, T.ShowTerm, T.Minimize):
            out.append(node.update(body=list(node.body) + [guard]))
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


def _definitions(text: str) -> dict[str, frozenset[str]]:
    import clingo.ast

    found: dict[str, set[str]] = {}

    def take(node) -> None:
        if node.ast_type != clingo.ast.ASTType.Rule:
            return
        head = _head(node.head)
        for pattern in head[0] if head else ():
            found.setdefault(pattern[0], set()).add(str(node))

    clingo.ast.parse_string(text, take)
    return {k: frozenset(v) for k, v in found.items()}


def _mergeable(base: _RuleBase, a: str, b: str) -> bool:
    """Two queries share a grounding when neither defines a predicate that the
    other defines differently (so neither widens what the other grounds)."""
    if base.guarded(a) is None or base.guarded(b) is None:
        return False
    theirs = base.definitions(b)
    for name, rules in base.definitions(a).items():
        if name in theirs and theirs[name] != rules:
            return False
    return True


def group_queries(names: Iterable[str]) -> list[list[str]]:
    """Queries (in first-use order) in groups that can be grounded together.
    (Letting queries that define a predicate differently share too would be
    as exact, but the grounding then covers both definitions at once, say
    every attack with every block: measured 3x slower on small combats.)"""
    base = rule_base()
    groups: list[list[str]] = []
    for name in dict.fromkeys(names):
        for group in groups:
            if all(_mergeable(base, name, other) for other in group):
                group.append(name)
                break
        else:
            groups.append([name])
    return groups


# --------------------------------------------------------------------------
# Groundings


class Grounding:
    """The rule base, the scenario facts and one or more queries, grounded once
    in one clingo Control; `solve(query)` answers any of those queries."""

    def __init__(
        self,
        queries: Sequence[str],
        facts: Sequence[clingo.Symbol] | str,
        *,
        switchable: Sequence[clingo.Symbol] = (),
        project: bool = True,
        slicing: bool = True,
    ):
        """Ground the rule base with `queries` and `facts`. The `switchable`
        atoms (say the `asked/1` of each question) are externals, false unless
        a solve names them true. Several queries need `#show p/n` statements
        and no statement other than rules, shows, #minimize and #defined.
        Facts given as text (tests, plain clingo users) turn slicing off."""
        self.queries = list(dict.fromkeys(queries))
        if not self.queries:
            raise ValueError("a grounding needs at least one query")
        base = rule_base()
        merged = len(self.queries) > 1
        if merged and any(base.guarded(q) is None for q in self.queries):
            raise ValueError("these queries cannot share a grounding")
        self._guards = {}
        if merged:
            self._guards = {q: clingo.Function(GUARD, [clingo.Function(q)]) for q in self.queries}
        self._switchable = list(dict.fromkeys(switchable))
        ctl = new_control(["--project=show"] if project else [], quiet)
        self.ctl = ctl
        self.recorder = None
        if COUNT_PARTS and project and any(q in COUNTED_QUERIES for q in self.queries):
            from mtgkb.engine.counting import GroundRecorder

            self.recorder = GroundRecorder()
            ctl.register_observer(self.recorder)
        base.controls += 1
        ctl.add("base", [], self._rule_base_text(base, facts, slicing and SLICING))
        if merged:
            ctl.add("base", [], "\n".join(base.guarded(q) for q in self.queries) + "\n#show.")
        else:
            ctl.add("base", [], base.query_text(self.queries[0]))
        with ctl.backend() as backend:
            # externals (false until a solve says otherwise), from the symbols
            # themselves: a user's name inside them stays data
            for symbol in list(self._guards.values()) + self._switchable:
                backend.add_external(backend.add_atom(symbol), clingo.TruthValue.False_)
            if not isinstance(facts, str):
                for symbol in facts:
                    backend.add_rule([backend.add_atom(symbol)])
        if isinstance(facts, str):
            ctl.add("base", [], facts)
        ctl.ground([("base", [])])
        # optN: with a #minimize/#maximize, enumerate every optimal model.
        ctl.configuration.solve.opt_mode = "optN"
        self._part_counts: dict = {}

    def _rule_base_text(self, base: _RuleBase, facts, slicing: bool) -> str:
        """The rule base, less the statements that cannot matter here."""
        if not slicing or isinstance(facts, str):
            return base.text
        analysis = base.analysis()
        if any(q not in analysis.queries for q in self.queries):
            return base.text
        kept = analysis.kept(tuple(self.queries))
        if kept is None:
            kept = list(range(len(analysis.base)))
        known = {s.name for s in facts if s.type == clingo.SymbolType.Function}
        known.update(s.name for s in self._switchable)
        known.add(GUARD)
        for q in self.queries:
            for st in analysis.queries[q]:
                known.update(st["fwd_heads"])
                if any(tuple(p) == UNKNOWN for p in st["heads"]):
                    return analysis.program(kept)
        return analysis.program(analysis.live(kept, known))

    def solve(
        self,
        query: str,
        *,
        max_models: int = 0,
        keep: int | None = None,
        timeout: float | None = None,
        on_model: ModelCallback | None = None,
        true: Iterable[clingo.Symbol] = (),
    ) -> SolveResult:
        """The models of the rule base with `query` (one of this grounding's),
        the switchable atoms in `true` true and the others false.

        `max_models` caps the enumeration (0: all); `keep` is how many models
        to keep in the result (None: all); every model is also passed to
        `on_model`. With a `#minimize`/`#maximize` only optimal models count.
        """
        if query not in self.queries:
            raise ValueError(f"query {query!r} is not part of this grounding")
        for name, guard in self._guards.items():
            self.ctl.assign_external(guard, name == query)
        on = set(true)
        for atom in self._switchable:
            self.ctl.assign_external(atom, atom in on)
        end = None if timeout is None else time.monotonic() + timeout
        result = SolveResult()
        if self.recorder is not None and on_model is None and keep is not None:
            return self._solve_by_parts(query, result, max_models, keep, end, on)
        count_only = (
            FAST_COUNT
            and on_model is None
            and keep is not None
            and (max_models == 0 or keep < max_models)
        )
        if not count_only:
            outcome = self._run(max_models, end, result, keep, on_model)
        else:
            # The kept models through Python, then the count from clasp alone
            # (the second solve enumerates the kept ones again: `keep` is small).
            outcome = self._run(keep, end, result, keep, None) if keep > 0 else None
            if outcome is None or not outcome.exhausted:
                outcome = self._run(max_models, end, None, None, None)
                result.count = self._count()
        result.satisfiable = bool(outcome.satisfiable) or result.count > 0
        result.complete = bool(outcome.exhausted)
        return result

    def _solve_by_parts(self, query, result, max_models, keep, end, on) -> SolveResult:
        """The first `keep` models (at most `max_models`) by enumeration, and
        the exact count of all of them by independent parts (mtgkb.engine.counting)."""
        from mtgkb.engine.counting import Unsupported, count_models

        listed = keep if max_models == 0 else min(keep, max_models)
        outcome = self._run(listed, end, result, keep, None) if listed > 0 else None
        if outcome is not None and outcome.exhausted:
            result.satisfiable = result.count > 0 or bool(outcome.satisfiable)
            result.complete = True
            return result
        true = set()
        atoms = self.ctl.symbolic_atoms
        for symbol in [*on, *(g for q, g in self._guards.items() if q == query)]:
            found = atoms[symbol]
            if found is not None:
                true.add(found.literal)
        try:
            count, exact = count_models(
                self.recorder, true, max_models=max_models, cache=self._part_counts, end=end
            )
        except Unsupported:
            outcome = self._run(max_models, end, None, None, None)
            result.count = self._count()
            result.satisfiable = bool(outcome.satisfiable) or result.count > 0
            result.complete = bool(outcome.exhausted)
            return result
        except TimeoutError:
            raise SolveTimeout() from None
        result.count = count
        result.satisfiable = count > 0
        result.complete = exact
        return result

    def _run(self, models: int, end: float | None, result, keep, on_model):
        self.ctl.configuration.solve.models = str(models)
        callback = None
        if result is not None:

            def callback(model: clingo.Model) -> None:
                if model.cost and not model.optimality_proven:
                    return
                result.count += 1
                kept = keep is None or len(result.models) < keep
                if kept or on_model is not None:
                    symbols = model.symbols(shown=True)
                    if kept:
                        result.models.append(symbols)
                    if on_model is not None:
                        on_model(symbols)

        left = None if end is None else max(0.0, end - time.monotonic())
        return solve_within(self.ctl, left, SolveTimeout, on_model=callback)

    def _count(self) -> int:
        """The models of the last solve: the optimal ones when it optimised."""
        models = self.ctl.statistics["summary"]["models"]
        optimal = int(models["optimal"])
        return optimal if optimal else int(models["enumerated"])


# --------------------------------------------------------------------------
# Many scenarios in one grounding
#
# For a question with one answer per scenario (one optimal model whose shown
# atoms are the answer), a batch grounds and solves a chunk of scenarios at
# once: every atom of the program gets the scenario as a first argument
# (`p(X) :- q(X)` becomes `p(S,X) :- q(S,X)`), so the scenarios share no atom
# and a model of the whole is a model of each; the rule base's set-up cost
# is paid once per chunk instead of once per scenario.

SCENARIO_VAR = "MTGKB_SCENARIO"
SCENARIO_PRED = "_mtgkb_scenario"


class _Unsupported(Exception):
    """A statement the scenario argument cannot be added to."""


def _with_scenario(term, var):
    T = clingo.ast.ASTType
    kind = term.ast_type
    if kind == T.Function:
        return term.update(arguments=[var, *term.arguments])
    if kind == T.Pool:
        return term.update(arguments=[_with_scenario(t, var) for t in term.arguments])
    if kind == T.UnaryOperation:
        return term.update(argument=_with_scenario(term.argument, var))
    if kind == T.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        symbol = term.symbol
        args = [clingo.ast.SymbolicTerm(term.location, a) for a in symbol.arguments]
        return clingo.ast.Function(term.location, symbol.name, [var, *args], 0)
    raise _Unsupported(str(term))


def _scenario_program(text: str) -> list:
    """The statements of `text`, each atom given the scenario argument."""
    import clingo.ast

    T = clingo.ast.ASTType
    loc = _location()
    var = clingo.ast.Variable(loc, SCENARIO_VAR)
    scenario = clingo.ast.Literal(
        loc,
        clingo.ast.Sign.NoSign,
        clingo.ast.SymbolicAtom(clingo.ast.Function(loc, SCENARIO_PRED, [var], 0)),
    )

    class AddScenario(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            return atom.update(symbol=_with_scenario(atom.symbol, var))

        def visit_TheoryAtom(self, atom):
            raise _Unsupported("theory atom")

    add = AddScenario()

    def bound(body) -> list:
        """The body, with the scenario bound when no plain positive atom binds it."""
        body = list(body)
        return body if any(_is_plain(lit) for lit in body) else body + [scenario]

    out: list = []

    def take(node) -> None:
        kind = node.ast_type
        if kind == T.Comment:
            return
        if kind == T.Rule:
            node = add(node)
            out.append(node.update(body=bound(node.body)))
        elif kind == T.ShowTerm:
            node = add(node)
            term = clingo.ast.Function(loc, "", [var, node.term], 0)
            out.append(node.update(term=term, body=bound(node.body)))
        elif kind == T.Minimize:
            node = add(node)
            out.append(node.update(terms=[var, *node.terms], body=bound(node.body)))
        elif kind in (T.ShowSignature, T.Defined):
            out.append(node.update(arity=node.arity + 1) if node.name else node)
        elif kind in (T.Definition,) or (kind == T.Program and node.name == "base"):
            out.append(node)
        else:
            raise _Unsupported(str(kind))

    clingo.ast.parse_string(text, take)
    return out


_SCENARIO_PROGRAMS: dict[tuple, list | None] = {}


def _scenario_statements(query: str) -> list | None:
    """The rule base (backward-sliced for `query`) and the query, with the
    scenario argument; None when some statement does not allow it."""
    base = rule_base()
    key = (base.stamp, query)
    if key not in _SCENARIO_PROGRAMS:
        analysis = base.analysis()
        kept = analysis.kept((query,)) if SLICING and query in analysis.queries else None
        rules = base.text if kept is None else analysis.program(kept)
        try:
            program = _scenario_program(rules + "\n" + base.query_text(query))
        except (_Unsupported, RuntimeError):
            program = None
        # one rule base at a time: drop the programs of an older one only
        for old in [k for k in _SCENARIO_PROGRAMS if k[0] != key[0]]:
            del _SCENARIO_PROGRAMS[old]
        _SCENARIO_PROGRAMS[key] = program
    return _SCENARIO_PROGRAMS[key]


def solve_many(
    query: str, instances: Sequence[Sequence[clingo.Symbol]], *, timeout: float | None = None
) -> list[list[clingo.Symbol]] | None:
    """The shown atoms of one (optimal) model for each instance (the facts of
    one scenario and question), all grounded and solved together. Meant for
    queries whose shown atoms are the same in every optimal model. None when
    this cannot be done (a statement the scenario argument does not fit, or
    no model: then solve each instance alone, which says why)."""
    import clingo.ast

    program = _scenario_statements(query)
    if program is None or not instances:
        return None
    ctl = new_control(["--project=show", "--models=1"], quiet)
    with clingo.ast.ProgramBuilder(ctl) as builder:
        for node in program:
            builder.add(node)
    with ctl.backend() as backend:
        for number, facts in enumerate(instances):
            sid = clingo.Number(number)
            backend.add_rule([backend.add_atom(clingo.Function(SCENARIO_PRED, [sid]))])
            for fact in facts:
                atom = clingo.Function(fact.name, [sid, *fact.arguments], fact.positive)
                backend.add_rule([backend.add_atom(atom)])
    ctl.ground([("base", [])])
    ctl.configuration.solve.opt_mode = "optN"
    found: list = []

    def take(model: clingo.Model) -> None:
        if model.cost and not model.optimality_proven:
            return
        found.append(model.symbols(shown=True))

    solve_within(ctl, timeout, SolveTimeout, on_model=take)
    if not found:
        return None
    shown: list[list[clingo.Symbol]] = [[] for _ in instances]
    for symbol in found[0]:
        args = symbol.arguments
        if not args or args[0].type != clingo.SymbolType.Number:
            return None
        if symbol.name == "":  # a #show term: (scenario, term)
            shown[args[0].number].append(args[1])
        else:
            shown[args[0].number].append(clingo.Function(symbol.name, args[1:], symbol.positive))
    return shown


def solve(
    query: str,
    facts: Sequence[clingo.Symbol] | str,
    *,
    max_models: int = 0,
    keep: int | None = None,
    timeout: float | None = None,
    on_model: ModelCallback | None = None,
    project: bool = True,
) -> SolveResult:
    """Solve the rule base with `queries/<query>.lp` and the scenario facts.

    `facts` are clingo symbols (user strings stay data) or, for tests and plain
    clingo users, fact text. `max_models` caps the enumeration (0: all);
    `keep` is how many models to keep in the result (None: all); every model
    is also passed to `on_model`. With a `#minimize`/`#maximize` in the
    program only the optimal models are counted.
    """
    grounding = Grounding([query], facts, project=project)
    return grounding.solve(
        query, max_models=max_models, keep=keep, timeout=timeout, on_model=on_model
    )


def models_as_text(query: str, facts: str, **options) -> list[set[str]]:
    """Every model's shown atoms as strings: a convenience for rule tests."""
    result = solve(query, facts, **options)
    return [{str(s) for s in model} for model in result.models]
