"""What each statement of the rule base derives and reads, and the slicing
that follows from it: the statements a query needs (backward) and those
that may fire for a scenario's facts (forward).

Nothing here knows a game rule: statements are read as clingo's AST.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import chain

import clingo

from mtgkb.engine.programs import quiet, release_trees_at_exit
from mtgkb.rulebase.disk_cache import content_digest

ANALYSIS_VERSION = 6  # bump when the analysis below changes

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


def _atom_patterns(term, of_function, of_symbol) -> list[tuple]:
    """The patterns of the atom(s) an atom term may stand for: a function
    term read by `of_function`, a symbol by `of_symbol`."""
    T = clingo.ast.ASTType
    kind = term.ast_type
    if kind == T.Pool:
        return [
            p
            for alternative in term.arguments
            for p in _atom_patterns(alternative, of_function, of_symbol)
        ]
    if kind == T.UnaryOperation:  # -p(X): classical negation, read as p (conservative)
        return _atom_patterns(term.argument, of_function, of_symbol)
    if kind == T.Function:
        return [of_function(term)]
    if kind == T.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return [of_symbol(term.symbol)]
    return [UNKNOWN]


def _first_of_function(term) -> tuple:
    args = term.arguments
    return (term.name, len(args), _first_shape(args[0]) if args else None)


def _first_of_symbol(symbol: clingo.Symbol) -> tuple:
    args = symbol.arguments
    first = None
    if args:
        a = args[0]
        if a.type == clingo.SymbolType.Function:
            first = f"f/{a.name}/{len(a.arguments)}"
        else:
            first = f"v/{a}"
    return (symbol.name, len(args), first)


def _patterns(term) -> list[tuple]:
    """The [name, arity, first] patterns of the atom(s) an atom term may stand for."""
    return _atom_patterns(term, _first_of_function, _first_of_symbol)


# For forward slicing, an atom is also read as [name, arity, fixed]: fixed
# holds (position, value, shape) for each argument written as a value (a
# constant, number, string or a function of values: its clingo text) or as a
# function with variables (value "", shape "name/arity"). The shape of a
# value is its function's "name/arity", "" for a number or a string. An
# argument with a variable at the top, an operation or a pool may be anything.


def shape_of(symbol: clingo.Symbol) -> str:
    """ "name/arity" of a function symbol (a constant: "name/0"), else ""."""
    if symbol.type == clingo.SymbolType.Function:
        return f"{symbol.name}/{len(symbol.arguments)}"
    return ""


def _value_and_shape(symbol: clingo.Symbol) -> tuple[str, str]:
    """(clingo text, shape_of) of a value, the shape read from the text where
    it shows it (a number, string, #inf or #sup: ""; a constant: "name/0"),
    which spares the calls into clingo that reading a symbol's arguments takes."""
    text = str(symbol)
    if text[0] in '"#0123456789' or text[0] == "-" and text[1:2].isdigit():
        return text, ""
    if text[0] != "-" and "(" not in text:
        return text, text + "/0"
    return text, shape_of(symbol)


def _fixed_values(atom: clingo.Symbol, read: tuple[int, ...]) -> tuple:
    """((position, text, shape), ...) of `atom`'s arguments at the positions
    `read` (those it has), read from clingo."""
    args = atom.arguments
    return tuple((i, *_value_and_shape(args[i])) for i in read if i < len(args))


def _value(term) -> clingo.Symbol | None:
    """The value a term stands for when it has no variable and no operation."""
    T = clingo.ast.ASTType
    if term.ast_type == T.SymbolicTerm:
        return term.symbol
    if term.ast_type == T.Function and not term.external:
        args = [_value(a) for a in term.arguments]
        if all(a is not None for a in args):
            return clingo.Function(term.name, args)
    return None


def _fixed_argument(term) -> tuple[str, str] | None:
    """(value, shape) of an argument, None when it may be anything."""
    value = _value(term)
    if value is not None:
        return _value_and_shape(value)
    if term.ast_type == clingo.ast.ASTType.Function and not term.external:
        return "", f"{term.name}/{len(term.arguments)}"
    return None


def _fixed_of_function(term) -> tuple:
    read = [(i, _fixed_argument(a)) for i, a in enumerate(term.arguments)]
    fixed = tuple((i, *found) for i, found in read if found is not None)
    return (term.name, len(term.arguments), fixed)


def _fixed_of_symbol(symbol: clingo.Symbol) -> tuple:
    args = symbol.arguments
    return (symbol.name, len(args), tuple((i, *_value_and_shape(a)) for i, a in enumerate(args)))


def _fixed_patterns(term) -> list[tuple]:
    """The [name, arity, fixed] patterns of the atom(s) an atom term may stand for."""
    return _atom_patterns(term, _fixed_of_function, _fixed_of_symbol)


def _walk_atoms(node, out: list, patterns=_patterns) -> None:
    """Every symbolic atom anywhere inside a statement or part of one, read
    by `patterns`."""
    if isinstance(node, clingo.ast.AST):
        kind = node.ast_type
        if kind == clingo.ast.ASTType.SymbolicAtom:
            out.extend(patterns(node.symbol))
            return
        if kind == clingo.ast.ASTType.TheoryAtom:
            out.append(UNKNOWN)
            return
        for key in node.keys():
            value = getattr(node, key)
            if isinstance(value, (clingo.ast.AST, clingo.ast.ASTSequence)):
                _walk_atoms(value, out, patterns)
    elif isinstance(node, clingo.ast.ASTSequence):
        for item in node:
            _walk_atoms(item, out, patterns)


def is_plain(lit) -> bool:
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
        if is_plain(lit) and len(names) == 1 and UNKNOWN not in found:
            plain += names
        else:
            other += names
    return atoms, plain, other


def _plain_fixed(body) -> list[tuple]:
    """The [name, arity, fixed] patterns of a body's plain positive literals
    that stand for one atom pattern each (a literal we cannot read is left
    out: leaving a need out only keeps more)."""
    out: list[tuple] = []
    for lit in body:
        if is_plain(lit):
            found = _fixed_patterns(lit.atom.symbol)
            if len(found) == 1 and found[0] != UNKNOWN:
                out.append(found[0])
    return out


def head_patterns(head, patterns=_patterns) -> tuple[list, list] | None:
    """The atoms a head derives and the atoms its conditions read (read by
    `patterns`); None when the head is a constraint's."""
    T = clingo.ast.ASTType
    if head.ast_type == T.Literal:
        if head.atom.ast_type == T.BooleanConstant:
            return None
        if head.atom.ast_type == T.SymbolicAtom:
            return patterns(head.atom.symbol), []
        return [UNKNOWN], []
    if head.ast_type in (T.Aggregate, T.Disjunction):
        derived: list = []
        read: list = []
        for element in head.elements:
            if element.literal.ast_type != T.Literal:
                return [UNKNOWN], []
            _walk_atoms(element.literal, derived, patterns)
            _walk_atoms(element.condition, read, patterns)
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
    fixed_heads: list = []
    fixed_needs: list = []
    root = True
    if kind == T.Rule:
        needs, plain, other = _body(node.body)
        fixed_needs = _plain_fixed(node.body)
        head = head_patterns(node.head)
        if head is not None:
            heads, read = head
            fixed_heads = head_patterns(node.head, _fixed_patterns)[0]
            if node.head.ast_type == T.Literal:
                root = UNKNOWN in heads
            else:  # choice, disjunction: they stay, and what they derive matters
                needs = needs + heads + read
                other = other + [p[0] for p in read]
    elif kind in (T.ShowTerm, T.Minimize, T.External):
        _walk_atoms(node, needs)
        if kind == T.External:
            heads = _patterns(node.atom.symbol)
            fixed_heads = _fixed_patterns(node.atom.symbol)
        else:
            _, plain, other = _body(node.body)
            fixed_needs = _plain_fixed(node.body)
    elif kind == T.ShowSignature:
        if node.name:
            needs = [(node.name, node.arity, None)]
    elif kind in (T.Defined, T.Definition) or (kind == T.Program and node.name == "base"):
        pass
    else:  # other #program parts, #project, #heuristic, #edge, #script, theories
        needs = [UNKNOWN]
        heads = [UNKNOWN]
        fixed_heads = [UNKNOWN]
    return {
        "span": span,
        "root": root,
        "heads": list(dict.fromkeys(heads)),
        "needs": list(dict.fromkeys(needs)),
        "fwd_heads": sorted({p[0] for p in heads}),
        "fwd_needs": sorted(set(plain)),
        "other_needs": sorted(set(other)),
        "fixed_heads": list(dict.fromkeys(fixed_heads)),
        "fixed_needs": list(dict.fromkeys(fixed_needs)),
        # `#const n = ...` changes what the value `n` is: read values are then not to be trusted
        "defines_constant": kind == T.Definition,
        "restricts_shown": kind == T.ShowSignature,
    }


def line_starts(data: bytes) -> list[int]:
    """The byte offset at which each line of `data` begins."""
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


def analyse(text: str, memo: dict[str, dict] | None = None) -> list[dict]:
    """Each statement of `text` described (`_describe`), in order.

    `memo`: descriptions already worked out, by the statement's own text (a
    `#minimize` element's: the whole statement's, then its place among the
    elements), without their spans; read and filled here. Describing a
    statement walks clingo's syntax tree through its Python API (about half
    a millisecond a statement, most of an analysis); a statement of the same
    text parses to the same tree, so after an edit only the statements
    edited are described again (mtgkb.engine.analysis_cache.StatementMemo
    keeps the memo on disk)."""
    import clingo.ast  # noqa: F401 - the analysis reads clingo's AST

    out: list[dict] = []
    source = text.encode("utf-8")
    lines = line_starts(source)  # clingo's columns count bytes
    last: list = [None, 0]  # the span of the last statement, and how many had it

    def take(node) -> None:
        if node.ast_type != clingo.ast.ASTType.Comment:
            begin, end = node.location.begin, node.location.end
            span = (lines[begin.line - 1] + begin.column - 1, lines[end.line - 1] + end.column - 1)
            if node.ast_type == clingo.ast.ASTType.Minimize:
                span = _whole_statement(source, span)
            if memo is None:
                out.append(_describe(node, span))
                return
            last[1] = last[1] + 1 if span == last[0] else 0
            last[0] = span
            key = source[span[0] : span[1]].decode("utf-8")
            if last[1] or node.ast_type == clingo.ast.ASTType.Minimize:
                key = f"{key}\x00{last[1]}"
            found = memo.get(key)
            if found is None:
                found = _describe(node, span)
                del found["span"]
                memo[key] = found
            out.append({**found, "span": span})

    clingo.ast.parse_string(text, take, logger=quiet)
    return out


def negative_cycles(statements: list[dict]) -> None:
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


# How many Controls are given the rule base's statements as text before they
# are parsed once and kept (DescribedProgram.add): a file's groundings are up
# to three; a process that grounds the rule base more often (a batch, a
# server) parses it once.
RULE_BASE_PARSE_AFTER = 3


class FactReadings:
    """What forward slicing read of facts (`DescribedProgram.sources`), by
    place: the groundings of one file read lists that share their symbols,
    place by place (the file's facts, then its questions' atoms), and a fact
    found at its place, the very object, is read again without hashing it
    (a call into clingo each). (A plain dict keeps them by fact.) The
    names of `facts`, where their `signatures` ((name, arity), in their
    order) are known, are not read from clingo either, nor their arguments
    where those are known (`arguments`: the symbols each fact was made of,
    whose texts are read once each, not once a fact)."""

    __slots__ = (
        "in_order",
        "_signed",
        "_signatures",
        "_of",
        "_arguments",
        "_texts",
        "atoms",
        "found",
    )

    def __init__(
        self,
        facts: Sequence[clingo.Symbol] = (),
        signatures: Sequence[tuple[str, int]] | None = None,
        arguments: Sequence[tuple[clingo.Symbol, ...]] | None = None,
    ) -> None:
        self.in_order: list[tuple[clingo.Symbol, tuple]] = []
        self._signed = facts if signatures is not None else ()
        self._signatures = signatures if signatures is not None else ()
        self._of = facts if arguments is not None else ()
        self._arguments = arguments if arguments is not None else ()
        # id of an argument of `arguments` -> its (text, shape): the symbols
        # are held by `arguments`, so no id is reused while this lives
        self._texts: dict[int, tuple[str, str]] = {}
        # the atoms of the last read, and what was found of them by name
        # (the groundings of one file read the same list again and again)
        self.atoms: list[clingo.Symbol] = []
        self.found: dict[str, set[tuple]] = {}

    def same_atoms(self, atoms: list[clingo.Symbol]) -> bool:
        """Whether `atoms` are the very objects of the last read, in order."""
        return len(atoms) == len(self.atoms) and all(map(operator.is_, atoms, self.atoms))

    def name(self, place: int, atom: clingo.Symbol) -> str:
        """The name of `atom`, found at `place` of the facts read (a
        RuntimeError for a symbol that is not a function, as clingo's)."""
        if place < len(self._signatures) and self._signed[place] is atom:
            return self._signatures[place][0]
        return atom.name

    def values_at(self, place: int, atom: clingo.Symbol, read: tuple[int, ...]) -> tuple:
        """((position, text, shape), ...) of `atom`'s arguments at the
        positions `read` (those it has), found at `place` of the facts read."""
        if place < len(self._arguments) and self._of[place] is atom:
            args = self._arguments[place]
            texts = self._texts
            out = []
            for i in read:
                if i < len(args):
                    arg = args[i]
                    found = texts.get(id(arg))
                    if found is None:
                        found = texts[id(arg)] = _value_and_shape(arg)
                    out.append((i, *found))
            return tuple(out)
        return _fixed_values(atom, read)


#: How many of `DescribedProgram.live`'s answers a program remembers.
LIVE_MEMO = 64


def _remembered(memo: dict, key: tuple, work: Callable[[], tuple[int, ...]]) -> list[int]:
    """What `work()` gives for `key`, kept in `memo` for the newest LIVE_MEMO
    keys (the newest last); as a list of the caller's own."""
    found = memo.pop(key, None)
    if found is None:
        found = work()
        if len(memo) >= LIVE_MEMO:
            del memo[next(iter(memo))]
    memo[key] = found
    return list(found)


def statements_text(source: bytes, spans: Iterable[tuple[int, int]]) -> str:
    """The text of the statements of `source` at `spans` (ascending), one a
    line, each once: clingo reads a #minimize's elements as statements of
    their own, with one span."""
    texts, last = [], None
    for span in spans:
        if span != last:
            texts.append(source[span[0] : span[1]].decode("utf-8"))
            last = span
    return "\n".join(texts)


def fact_sources(
    atoms: Iterable[clingo.Symbol],
    positions: dict[str, tuple[int, ...]],
    readings: dict | FactReadings | None = None,
) -> dict[str, set[tuple]]:
    """`atoms` (the facts, say) as forward slicing reads them: by name, the
    values at the `positions` some body literal of the program fixes
    (`DescribedProgram.fixed_positions`; the others are not read: a
    symbol's arguments cost a call into clingo). `readings` keeps what was
    read of each atom, for the next call on the same atoms (the questions of
    a batch chunk share their files' facts; those of one file,
    FactReadings). (What is returned is not to be changed: it may be what
    `readings` keeps.)"""
    in_order = readings.in_order if isinstance(readings, FactReadings) else None
    if in_order is not None:
        atoms = list(atoms)
        if not readings.same_atoms(atoms):
            # (else the very atoms read last time: their values as found then)
            found_by_name: dict[str, set[tuple]] = {}
            _read_sources(atoms, positions, found_by_name, readings)
            readings.atoms, readings.found = atoms, found_by_name
        return readings.found
    out: dict[str, set[tuple]] = {}
    _read_sources(atoms, positions, out, readings)
    return out


def _read_sources(
    atoms: Iterable[clingo.Symbol],
    positions: dict[str, tuple[int, ...]],
    out: dict[str, set[tuple]],
    readings,
) -> None:
    """`fact_sources` of `atoms`, added to `out`."""
    in_order = readings.in_order if isinstance(readings, FactReadings) else None
    for place, atom in enumerate(atoms):
        if in_order is not None and place < len(in_order) and in_order[place][0] is atom:
            found = in_order[place][1]
            if found[0]:
                out.setdefault(found[0], set()).add(found[1])
            continue
        found = None if readings is None or in_order is not None else readings.get(atom)
        if found is None:
            # (name, fixed) of the atom; ("", ()) for one that is not a
            # function (clingo has no name for it: one call, not two)
            try:
                name = atom.name if in_order is None else readings.name(place, atom)
            except RuntimeError:
                found = ("", ())
            else:
                read = positions.get(name)
                if read is None:
                    found = (name, ())
                elif in_order is not None:
                    found = (name, readings.values_at(place, atom, read))
                else:
                    found = (name, _fixed_values(atom, read))
            if in_order is not None:  # (kept by place, not hashed)
                if place < len(in_order):
                    in_order[place] = (atom, found)
                else:
                    in_order.append((atom, found))
            elif readings is not None:
                readings[atom] = found
        if found[0]:
            out.setdefault(found[0], set()).add(found[1])


class DescribedProgram:
    """A program's statements as `analyse` describes them: the text of any
    of them (read from the program itself, at the byte offsets the analysis
    found them at), and forward slicing over them: which may fire for the
    atoms that hold at first. The rule base's analysis is one (`Analysis`);
    the input checks are another (mtgkb.language.checks)."""

    def __init__(
        self,
        statements: list[dict],
        source: bytes,
        values_trusted: bool | None = None,
        parse_after: int = 1,
    ):
        """`values_trusted`: whether the values statements write are those
        clingo grounds with (None: unless one of these defines a `#const`).
        `parse_after`: how many Controls are given the statements as text
        before they are parsed and kept (`add`)."""
        self.parse_after = parse_after
        self.statements = statements
        self.source = source
        if values_trusted is None:
            values_trusted = not any(st["defines_constant"] for st in statements)
        self.values_trusted = values_trusted
        self._texts: list[str] | None = None
        self._positions: dict[str, tuple[int, ...]] | None = None
        self._forward_of: dict[tuple, tuple] = {}
        #: `live`'s answers, by what it was asked (the newest LIVE_MEMO kept)
        self._live_of: dict[tuple, tuple[int, ...]] = {}
        self._nodes: dict[tuple[int, int], list] = {}  # by span: clingo's AST of the statement
        self._parsed: dict[str, list] = {}  # other program texts added with them, parsed
        release_trees_at_exit(self)  # (those two, released before Python clears its modules)
        self.added = 0  # how many Controls were given statements of it (`add`)

    def program(self, indices: Iterable[int]) -> str:
        """The text of the statements `indices` (ascending)."""
        if self._texts is not None:
            texts = self._texts
            return "\n".join(texts[i] for i in self._firsts(indices))
        # (only these statements read: a run that slices reads a part of them)
        return statements_text(self.source, (self.statements[i]["span"] for i in indices))

    def statement_texts(self) -> list[str]:
        """The text of each statement (read at its offsets once)."""
        if self._texts is None:
            source = self.source
            self._texts = [
                source[st["span"][0] : st["span"][1]].decode("utf-8") for st in self.statements
            ]
        return self._texts

    def _firsts(self, indices: Iterable[int]) -> Iterable[int]:
        """Of `indices` (ascending), the first of each text: clingo reads a
        #minimize's elements as statements of their own, with one span."""
        last = None
        for i in indices:
            span = self.statements[i]["span"]
            if span != last:
                yield i
                last = span

    def add(self, ctl: clingo.Control, indices: Iterable[int], also: str = "") -> None:
        """Give `ctl` the statements `indices` (ascending) and the program
        text `also` (a query's, say). As their statements parsed once and
        kept, which clingo adds in about a third of the time it takes to
        parse them, when they are parsed already or once this program has
        been added `parse_after` times in this process (a server, a batch,
        a long-lived caller); else as text: parsing them in Python and
        adding the trees costs more than clingo's parse of the text
        (measured on the groundings of one 8-player game: 7.4 ms + 4.1
        against 6.5), so the rule base's groundings of one file are given
        text (RULE_BASE_PARSE_AFTER)."""
        indices = list(indices)
        if self.added < self.parse_after and not self._all_parsed(indices, also):
            ctl.add("base", [], self.program(indices))
            if also:
                ctl.add("base", [], also)
        else:
            from clingo.ast import ProgramBuilder

            with ProgramBuilder(ctl) as builder:
                for node in [*self.nodes(indices), *(self._parsed_text(also) if also else ())]:
                    builder.add(node)
        self.added += 1

    def _all_parsed(self, indices: list[int], also: str) -> bool:
        """Whether the statements `indices` and the text `also` are parsed already."""
        if also and also not in self._parsed:
            return False
        nodes, statements = self._nodes, self.statements
        return all(statements[i]["span"] in nodes for i in indices)

    def _parsed_text(self, text: str) -> list:
        if text not in self._parsed:
            import clingo.ast

            nodes: list = []
            clingo.ast.parse_string(text, nodes.append, logger=quiet)
            self._parsed[text] = nodes
        return self._parsed[text]

    def nodes(self, indices: Iterable[int]) -> list:
        """The statements `indices` (ascending) as clingo's AST, for a
        ProgramBuilder: what `program(indices)` parses to. Each statement is
        parsed once (those not parsed yet, in one call) and kept: adding a
        parsed statement costs clingo about a third of parsing its text."""
        indices = list(indices)
        missing = [i for i in indices if self.statements[i]["span"] not in self._nodes]
        if missing:
            import clingo.ast

            groups = self.program_groups(missing)
            starts = [line for line, _ in groups]
            found: dict[tuple[int, int], list] = {}

            def take(node) -> None:
                begin, end = node.location.begin, node.location.end
                if (begin.line, begin.column) == (end.line, end.column):
                    return  # the `#program base.` clingo begins every text with
                line = begin.line
                group = groups[bisect.bisect_right(starts, line) - 1][1]
                found.setdefault(self.statements[group[0]]["span"], []).append(node)

            clingo.ast.parse_string(self.program(missing), take, logger=quiet)
            self._nodes.update(found)
            for i in missing:  # a statement that parses to nothing (a comment's span)
                self._nodes.setdefault(self.statements[i]["span"], [])
        return [
            node for i in self._firsts(indices) for node in self._nodes[self.statements[i]["span"]]
        ]

    def release_trees(self) -> None:
        """Drop the parsed statements kept (mtgkb.engine.programs.release_trees_at_exit)."""
        self._nodes.clear()
        self._parsed.clear()

    def program_groups(self, indices: Iterable[int]) -> list[tuple[int, tuple[int, ...]]]:
        """For `program(indices)`: the line each statement's text begins at
        (1-based) and the statements it holds (several for a #minimize
        whose elements clingo reads as statements of their own)."""
        texts, spans = self.statement_texts(), [st["span"] for st in self.statements]
        groups: list[tuple[int, tuple[int, ...]]] = []
        line, last = 1, None
        for i in indices:
            if spans[i] == last:
                groups[-1] = (groups[-1][0], (*groups[-1][1], i))
                continue
            if groups:
                line += texts[groups[-1][1][0]].count("\n") + 1
            groups.append((line, (i,)))
            last = spans[i]
        return groups

    def fixed_positions(self) -> dict[str, tuple[int, ...]]:
        """For each predicate name, the argument positions some plain body
        literal of the program gives a value: the only arguments of a fact
        forward slicing reads. Empty when a `#const` may change a value."""
        if self._positions is None:
            positions: dict[str, set[int]] = {}
            if self.values_trusted:
                # (each distinct pattern once: most are read by many statements)
                read = set(chain.from_iterable(st["fixed_needs"] for st in self.statements))
                for name, _, fixed in read:
                    if fixed:
                        positions.setdefault(name, set()).update(f[0] for f in fixed)
            self._positions = {name: tuple(sorted(p)) for name, p in positions.items() if p}
        return self._positions

    def sources(
        self,
        atoms: Iterable[clingo.Symbol],
        also: dict[str, set[tuple]] | None = None,
        readings: dict | FactReadings | None = None,
    ) -> dict[str, set[tuple]]:
        """`atoms` (the facts, say) as `live` reads them (`fact_sources`),
        with the sources `also` (what the queries derive, `query_heads`)."""
        out = {name: set(fixed) for name, fixed in (also or {}).items()}
        for name, values in fact_sources(atoms, self.fixed_positions(), readings).items():
            out.setdefault(name, set()).update(values)
        return out

    def live(self, kept: list[int], sources: dict[str, set[tuple]]) -> list[int]:
        """Of `kept`, the statements that may fire (forward slicing) when the
        atoms that hold at first are `sources`: for each predicate name, the
        `fixed` tuples ((position, value, shape), ...) of its atoms, a
        position left out standing for any value. A statement may fire once
        every plain positive literal of its body matches an atom that holds
        or that a statement that may fire derives; an atom matches a literal
        unless both give a position different values or shapes (`_matches`).
        A statement that may fire with a head we cannot read keeps every
        statement. (Remembered for the newest LIVE_MEMO questions: the files
        of a batch or of a server's requests, alike in everything slicing
        reads, ask it again and again: 290 times, 21 distinct, for 100
        scenarios of 4 players x 8 creatures.)"""
        key = (tuple(kept), frozenset((name, frozenset(f)) for name, f in sources.items()))
        return _remembered(self._live_of, key, lambda: tuple(self._fired(key[0], sources)))

    def _fired(self, kept: tuple[int, ...], sources: dict[str, set[tuple]]) -> list[int]:
        """`live`, worked out."""
        needs, users, of, heads = self._forward(kept)
        have = {name: [_by_position(f) for f in fixed] for name, fixed in sources.items()}
        missing = {i: len(n) for i, n in of.items()}
        waiting: dict[str, list[int]] = {}
        queue = [i for i, n in missing.items() if not n]
        out = set(queue)

        def met(need: int) -> None:
            for j in users[need]:
                missing[j] -= 1
                if missing[j] == 0:
                    out.add(j)
                    queue.append(j)

        for need, (name, fixed) in enumerate(needs):
            if any(_matches(fixed, atom) for atom in have.get(name, ())):
                met(need)
            else:
                waiting.setdefault(name, []).append(need)
        while queue:
            for head in heads[queue.pop()]:
                if head is None:
                    return list(kept)
                name, atom = head
                pending = waiting.get(name)
                if not pending:
                    continue
                still = []
                for need in pending:
                    if _matches(needs[need][1], atom):
                        met(need)
                    else:
                        still.append(need)
                waiting[name] = still
        return sorted(out)

    def _forward(self, kept: tuple[int, ...]) -> tuple:
        """What `live` reads of the statements `kept`, worked out once: the
        distinct needs (name, fixed), the statements of each, the needs of
        each statement, and the heads of each (name, position: value; None
        for a head we cannot read)."""
        if kept not in self._forward_of:
            trusted = self.values_trusted
            needs: dict[tuple, int] = {}
            users: list[list[int]] = []
            of: dict[int, set[int]] = {}
            heads: dict[int, list] = {}
            # (each distinct head pattern's values by position made once, and
            # shared: nothing changes them)
            by_fixed: dict[tuple, dict] = {}

            def positioned(fixed: tuple) -> dict[int, tuple[str, str]]:
                found = by_fixed.get(fixed)
                if found is None:
                    found = by_fixed[fixed] = _by_position(fixed)
                return found

            for i in kept:
                st = self.statements[i]
                mine = of[i] = set()
                for name, _, fixed in st["fixed_needs"]:
                    key = (name, fixed if trusted else ())
                    if key not in needs:
                        needs[key] = len(users)
                        users.append([])
                    if needs[key] not in mine:
                        mine.add(needs[key])
                        users[needs[key]].append(i)
                heads[i] = [
                    (h[0], positioned(h[2]) if trusted else {}) if len(h) == 3 else None
                    for h in st["fixed_heads"]
                ]
            if len(self._forward_of) >= 8:  # a few slicings of the rule base at a time
                self._forward_of.clear()
            self._forward_of[kept] = (list(needs), users, of, heads)
        return self._forward_of[kept]


class Analysis(DescribedProgram):
    """The statements of the rule base and of every query, described for
    slicing: backward (what the queries need) and forward (what the facts
    may fire, DescribedProgram)."""

    def __init__(self, data: dict, source: bytes):
        self.base: list[dict] = data["base"]  # the rule base's statements
        self.queries: dict[str, list[dict]] = data["queries"]
        self.guardable: dict[str, bool] = data["guardable"]
        self.definitions: dict[str, dict[str, list[str]]] = data["definitions"]
        # the values statements write are those clingo grounds with, unless a
        # `#const` of the rule base or of a query may change one
        every = [*self.base, *(st for q in self.queries.values() for st in q)]
        trusted = not any(st["defines_constant"] for st in every)
        super().__init__(self.base, source, trusted, RULE_BASE_PARSE_AFTER)
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
        #: `needed`'s answers, by what it was asked (the newest LIVE_MEMO kept)
        self._needed_of: dict[tuple, tuple[int, ...]] = {}

    def said(self) -> dict[str, tuple[bool, dict[str, list[str]]]]:
        """What it says of each query: whether its statements can be guarded
        (`guardable`), and the digests of the rules defining each predicate
        in it (`definitions`)."""
        return {q: (bool(self.guardable.get(q)), self.definitions.get(q, {})) for q in self.queries}

    def kept(self, queries: tuple[str, ...]) -> list[int] | None:
        """Indices of the rule base statements the queries may need (backward
        slicing), or None when all are needed."""
        if queries not in self._kept:
            self._kept[queries] = self._backward(queries)
        return self._kept[queries]

    def needed(self, queries: tuple[str, ...], live: list[int]) -> list[int]:
        """Of `live` (the statements that may fire, as `live` finds them),
        the ones the queries may need through statements that may fire:
        backward slicing again after forward slicing, so that a statement
        `kept` only for a reader that cannot fire here is left out as well.
        What it leaves out derives atoms that no statement grounded reads
        and no query shows; the rules that always stay (`root`) stay when
        they may fire. (Remembered as `live` is.)"""
        key = (tuple(queries), tuple(live))

        def work() -> tuple[int, ...]:
            backward = self._backward(key[0], among=live)
            return key[1] if backward is None else tuple(backward)

        return _remembered(self._needed_of, key, work)

    def _backward(
        self, queries: tuple[str, ...], among: list[int] | None = None
    ) -> list[int] | None:
        """The statements the queries may need (None: all); with `among`,
        only those statements are taken, and read (`needed`)."""
        roots = [st for q in queries for st in self.queries[q]]
        if not all(any(st["restricts_shown"] for st in self.queries[q]) for q in queries):
            return None  # every atom is shown: everything matters
        allowed = None if among is None else set(among)
        keep = [False] * len(self.base)
        todo: list = []
        for st in roots:
            todo.extend(st["needs"])
            todo.extend(st["heads"])
        for i, st in enumerate(self.base):
            if st["root"] and (allowed is None or i in allowed):
                keep[i] = True
                todo.extend(st["needs"])
                todo.extend(st["heads"])
        for i in self.wild:
            if allowed is None or i in allowed:
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
                if keep[i] or (allowed is not None and i not in allowed):
                    continue
                if first is None or head_first is None or first == head_first:
                    keep[i] = True
                    todo.extend(self.base[i]["needs"])
        return [i for i, k in enumerate(keep) if k]

    def stacked(
        self,
        lower: tuple[str, str, list[int] | None],
        upper: tuple[str, str, list[int] | None],
        given: Iterable[str],
    ) -> list[str] | None:
        """The statements to ground on top of a grounding of a query so that
        another query's models can be read from it. `lower` and `upper` are
        each (query name, its text, the rule base statements grounded with
        it: None for all); `given` the names of the atoms the lower grounding
        is given (facts, externals). The texts of `upper`'s statements that
        are not `lower`'s own (the same text), or None when the descriptions
        do not show that each model of the whole, read on the atoms of
        `upper`'s program, is a model of `upper` grounded alone:

        - every rule base statement `upper` keeps is kept below;
        - what it adds are rules (constraints too) and `#show p/n`, which
          derive only predicates that nothing below derives, reads or is
          given (no choice, no #minimize, no shown term);
        - what lies below and is not `upper`'s program (the rest of
          `lower`'s) derives nothing that program derives or reads, and
          shows no term named as what `upper` shows.

        `upper`'s program is then the bottom of a split of the whole (the
        splitting set theorem), and the added statements define atoms of
        their own, as clingo requires of a later step."""
        (lower_name, lower_text, lower_kept), (upper_name, upper_text, upper_kept) = lower, upper
        everything = range(len(self.base))
        below_base = set(everything if lower_kept is None else lower_kept)
        upper_base = set(everything if upper_kept is None else upper_kept)
        if not upper_base <= below_base:
            return None
        base_text = self.statement_texts()
        lower_own = _query_statements(self.queries[lower_name], lower_text)
        upper_own = _query_statements(self.queries[upper_name], upper_text)
        shared = {text for text, _ in lower_own}
        added = [(text, st) for text, st in upper_own if text not in shared]
        below = [self.base[i] for i in sorted(below_base)] + [st for _, st in lower_own]
        upper_all = [self.base[i] for i in sorted(upper_base)] + [st for _, st in upper_own]
        upper_texts = {text for text, _ in upper_own}
        rest = [(base_text[i], self.base[i]) for i in sorted(below_base - upper_base)]
        rest += [(text, st) for text, st in lower_own if text not in upper_texts]
        if any(not _addable(text, st) for text, st in added):
            return None
        made = _signatures(st["heads"] for _, st in added)
        shown = {p[0] for _, st in added if st["restricts_shown"] for p in st["needs"]}
        below_heads = _signatures(st["heads"] for st in below)
        below_reads = _signatures(st["needs"] for st in below)
        if made is None or below_heads is None or below_reads is None:
            return None
        if made & (below_heads | below_reads) or {n for n, _ in made} & set(given):
            return None
        rest_heads = _signatures(st["heads"] for _, st in rest)
        upper_heads = _signatures(st["heads"] for st in upper_all)
        upper_reads = _signatures(st["needs"] for st in upper_all)
        if rest_heads is None or upper_heads is None or upper_reads is None:
            return None
        if rest_heads & (upper_heads | upper_reads):
            return None
        for text, st in rest:
            if text.startswith("#show") and not st["restricts_shown"]:
                term = _SHOWN_NAME.match(text)
                if term is None or term.group(1) in shown:
                    return None
        return [text for text, _ in added]

    def query_heads(self, queries: Iterable[str]) -> dict[str, set[tuple]] | None:
        """What the queries' statements derive, as `live` reads sources: it
        may hold whatever the facts. None when a head cannot be read."""
        out: dict[str, set[tuple]] = {}
        for q in queries:
            for st in self.queries[q]:
                if any(tuple(p) == UNKNOWN for p in st["heads"]):
                    return None
                for head in st["fixed_heads"]:
                    if len(head) != 3:
                        return None
                    out.setdefault(head[0], set()).add(head[2])
        return out


def _by_position(fixed: tuple) -> dict[int, tuple[str, str]]:
    return {i: (value, shape) for i, value, shape in fixed}


def _matches(fixed: tuple, atom: dict) -> bool:
    """Whether an atom whose fixed arguments are `atom` (position: (value,
    shape)) may be one a literal with the fixed arguments `fixed` stands for:
    at each position both fix, equal values, or equal shapes where one of
    them is known by its shape only."""
    for i, value, shape in fixed:
        other = atom.get(i)
        if other is None:
            continue
        if value and other[0]:
            if value != other[0]:
                return False
        elif shape != other[1]:
            return False
    return True


def statement_digest(text: str) -> str:
    """A short digest of a statement's text: equal texts, equal digests."""
    return content_digest(text.encode("utf-8"))


# --------------------------------------------------------------------------
# A query's statements on top of another's grounding (Analysis.stacked)

#: the name of the term a `#show t : body.` shows, when it begins with one
_SHOWN_NAME = re.compile(r"#show\s+([a-z_]\w*)\s*[(:.]")
#: the statements that may be added on top: rules, constraints, `#show p/n`,
#: `#defined`, `#program base.` (a rule begins with its head's name, `-`,
#: or `:-`; anything else that begins with `#` or `:~` is none of them)
_ADDABLE_DIRECTIVES = ("#show", "#defined", "#program base")


def _query_statements(statements: list[dict], text: str) -> list[tuple[str, dict]]:
    """Each statement of a query with its text (read at its offsets)."""
    data = text.encode("utf-8")
    return [(data[st["span"][0] : st["span"][1]].decode("utf-8"), st) for st in statements]


def _addable(text: str, st: dict) -> bool:
    """Whether a statement may be added on top of another grounding: a rule
    with a plain head or none, `#show p/n`, `#defined`, `#program base.`."""
    if any(tuple(p) == UNKNOWN or len(p) != 3 for p in [*st["heads"], *st["needs"]]):
        return False
    if text.startswith("#") or text.startswith(":~"):
        return text.startswith(_ADDABLE_DIRECTIVES) and (
            not text.startswith("#show") or st["restricts_shown"]
        )
    # a rule: its head a plain literal (a choice or a disjunction stays as a root)
    return not (st["root"] and st["heads"])


def _signatures(patterns: Iterable[list]) -> set[tuple[str, int]] | None:
    """The (name, arity) of every atom pattern in these lists; None when one
    cannot be read."""
    out: set[tuple[str, int]] = set()
    for found in patterns:
        for p in found:
            if len(p) != 3:
                return None
            out.add((p[0], p[1]))
    return out
