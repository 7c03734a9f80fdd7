"""The traced program: every rule of the question's program with a twin
`_why(K,Head,t(Body...))` (K the rule's place, Body its positive body atoms),
so the derivation of any atom of the model is known.

Seeded (as `ask explain` solves it), the explanation graph and the twins are
derived only backward from the conclusions of the answer: `queries/explain.lp`
makes each `explain_root/2` conclusion `explain_wanted/1`, and so is what a
wanted conclusion rests on; here each `because/2` and `rests_on/2` rule gets
`explain_wanted(X)` in its body (X the conclusion it is about), each twin
`explain_wanted(Head)`, and each atom of a derivation traced is wanted in
turn. The grounding then follows the size of the answer, and every atom of
the model outside the graph and the twins is the same as without seeds.

Seeded and given the engine whose rule base it traces, the program also
leaves out the statements that cannot fire on the scenario's facts (forward
slicing by the rule base's analysis: `idle_statements`), and a statement is
traced only when a program first takes it."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.engine.analysis import FactReadings, line_starts
from mtgkb.engine.cores import add_statements
from mtgkb.engine.programs import quiet, solve_within, stamp
from mtgkb.engine.scenarios import Readings
from mtgkb.engine.solve import SolveTimeout, give_facts
from mtgkb.language.facts import fact_signatures
from mtgkb.rulebase import symbol_texts
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.encoded import label, prepare_trees, scan_kept
from mtgkb.rulebase.location import query_file, rule_files
from mtgkb.rulebase.symbol_texts import split_outside

#: The explanation graph: the rule behind a conclusion, what it rests on.
GRAPH_HEADS = {"because", "rests_on"}
#: The conclusions the explanation needs (queries/explain.lp seeds them).
WANTED = "explain_wanted"
#: Heads that are the explanation graph itself: not traced.
META = GRAPH_HEADS | {"cites", "explain_root", "message", WANTED}


#: A name of the explanation graph in the text of a statement (not inside
#: a longer name), and a graph atom (the name, then its arguments).
_GRAPH_NAMES = r"(?<![A-Za-z0-9_'])(" + "|".join(sorted(GRAPH_HEADS)) + ")"
GRAPH_NAME = re.compile(_GRAPH_NAMES + r"(?![A-Za-z0-9_'])")
GRAPH_TEXT = re.compile(_GRAPH_NAMES + r"\(")
#: How the text of a rule without a twin may begin: a constraint, a choice,
#: a negated head (clingo prints a rule as `Head :- Body.`, a fact as `Head.`).
NO_TWIN_TEXT = ("#false", "{", "not ")
#: An anonymous variable in the text of a literal.
ANONYMOUS = re.compile(r"(?<![A-Za-z0-9_'])_(?![A-Za-z0-9_'])")


@dataclass
class Traced:
    """The statements of some files, each rule with its traced twin."""

    #: syntax trees, and the twins written as text (`_twin_text`)
    statements: list[cast.AST | str]
    tags: dict[int, tuple[str, ...]]  # K -> the CR numbers of its tag line
    where: dict[int, str]  # K -> file:line
    arities: set[int] = field(default_factory=set)  # of the twins' bodies t(...)
    #: the text of each rule of `statements` (None: no rule, or one of
    #: `_wanted_bodies`), and where each twin is, by its place in `statements`
    texts: list[str | None] = field(default_factory=list)
    twins: set[int] = field(default_factory=set)
    #: of a twin written as text, by its place: what `twin_reading` reads of it
    twin_readings: dict[int, tuple] = field(default_factory=dict)


def term_of(atom: cast.AST) -> cast.AST | None:
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


def _twin(
    stmt: cast.AST, k: int, seeded: bool = False, text: str | None = None
) -> tuple[cast.AST | None, int]:
    """`_why(k, Head, t(B1,...,Bn)) :- Body.` for a rule with one positive head
    atom (`seeded`: with `explain_wanted(Head)` first in the body), and n. A
    rule `because(X, rule(R)) :- Body.` is traced too (its body says what made
    R the rule of X: the deciding facts), guarded by `explain_wanted(X)`.
    (`text`: the rule's text, `str(stmt)`.)"""
    text = str(stmt) if text is None else text
    if ":-" not in text or text.startswith(NO_TWIN_TEXT):
        # (read from the text, without calls into clingo: no body, or a head
        # that is a constraint's, a choice or a negated literal)
        return None, 0
    head = stmt.head
    if head.ast_type != cast.ASTType.Literal or head.sign != cast.Sign.NoSign:
        return None, 0
    head_term = term_of(head.atom)
    if head_term is None or not stmt.body:
        return None, 0
    name = getattr(head_term, "name", None)
    if name is None and head_term.ast_type == cast.ASTType.SymbolicTerm:
        sym = head_term.symbol
        name = sym.name if sym.type == clingo.SymbolType.Function else None
    deciding = name == "because" and _graph_term(head) is not None
    if name is None or (name in META and not deciding) or name.startswith("_"):
        return None, 0
    loc = stmt.location
    body_terms = []
    wanted = _graph_term(head) if deciding else head_term
    body = [_literal(loc, WANTED, [wanted])] if seeded else []
    fresh = _Fresh()
    anonymous = ANONYMOUS.search(text) is not None
    for lit in stmt.body:
        if lit.ast_type == cast.ASTType.Literal and lit.sign == cast.Sign.NoSign:
            term = term_of(lit.atom)
            if term is not None:
                # an anonymous variable copied into the head must get a name
                if anonymous and ANONYMOUS.search(str(lit)):
                    lit = fresh(lit)
                    term = term_of(lit.atom)
                body_terms.append(term)
        body.append(lit)
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
    twin = cast.Rule(loc, cast.Literal(loc, cast.Sign.NoSign, cast.SymbolicAtom(why)), body)
    return twin, len(body_terms)


#: The name of a function term at the start of a text.
TERM_NAME = re.compile(r"_*[a-z][A-Za-z0-9_']*")
#: A string in a text, and what a term's text may hold besides.
STRING = re.compile(symbol_texts.STRING)
#: The first character of a body literal that is no atom: a variable's, a
#: number's, a string's, an aggregate's, a theory atom's, a tuple's.
NO_ATOM_START = frozenset('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"#&(|')


def term_name(text: str, pools: bool = False) -> str | None:
    """The name of the term `text` is, when it is one function term, `name`
    or `name(...)` (its first parenthesis closed last; with a pool among its
    arguments only if `pools`), else None."""
    found = TERM_NAME.match(text)
    if found is None:
        return None
    end = found.end()
    if end == len(text):
        return found.group()
    if text[end] != "(" or text[-1] != ")":
        return None
    inside = STRING.sub('""', text[end:]) if '"' in text else text[end:]
    if ";" in inside and not pools:
        return None  # a pool
    depth = 0
    for i, c in enumerate(inside):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return found.group() if i == len(inside) - 1 else None
    return None


def _first_argument(term: str) -> str:
    """The text of the first argument of a function term's text `name(...)`."""
    inside = term[term.index("(") + 1 : -1]
    depth = 0
    # (strings masked, the same length, so that their commas are not read)
    for i, c in enumerate(symbol_texts.masked(inside)):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            return inside[:i]
    return inside


def rule_parts(text: str) -> tuple[str, list[str]] | None:
    """(head, body literals) of a rule's text as clingo prints it, `Head :-
    L1; ...; Ln.` or `Head.` (no body literals); None for another text."""
    if not text.endswith("."):
        return None
    parts = split_outside(text[:-1], " :- ")
    if len(parts) == 1:
        return parts[0], []
    if len(parts) != 2:
        return None
    return parts[0], split_outside(parts[1], "; ")


def _rule_text(stmt: cast.AST, text: str) -> tuple[str, list[str]] | None:
    """The texts of a rule's head and body literals, read from its text as
    clingo prints it (`rule_parts`: reading them from its syntax tree is a
    call into clingo a literal, and more); None for a rule without a body."""
    found = rule_parts(text)
    if found is None or not found[1]:
        return None
    return found


def _twin_text(
    parts: tuple[str, list[str]], k: int, seeded: bool
) -> tuple[str, int] | tuple[None, int] | None:
    """`_twin` of a plain rule read from the texts of its head and body
    literals (`_rule_text`): (the twin's text, its body's arity); (None, 0)
    for a rule without a twin; None when the text does not settle it (a
    conditional literal, a comparison of terms, a pool, a classical
    negation, an atom without arguments...): `_twin` decides."""
    head, literals = parts
    name = term_name(head)
    if name is None or name == head:
        # (a constant is read back as a symbol, not as the function term it
        # is as an atom: its twin is built from the syntax tree)
        return None
    # a rule `because(X, rule(R)) :- Body.`: guarded by X (see `_twin`)
    wanted = _first_argument(head) if name == "because" else head
    if (name in META and name != "because") or name.startswith("_"):
        return None, 0
    anonymous = any(ANONYMOUS.search(lit) for lit in literals)
    terms: list[str] = []
    body = [f"{WANTED}({wanted})"] if seeded else []
    fresh = 0
    for lit in literals:
        if not lit.startswith("not ") and lit[0] not in NO_ATOM_START:
            if term_name(lit) in (None, lit):
                return None
            # an anonymous variable copied into the head must get a name
            if anonymous and ANONYMOUS.search(lit):
                if '"' in lit:
                    return None
                named = []
                for part in ANONYMOUS.split(lit):
                    if named:
                        fresh += 1
                        named.append(f"_W{fresh}")
                    named.append(part)
                lit = "".join(named)
            terms.append(lit)
        body.append(lit)
    # (`t()`: read back as the function term `t` is in `_twin`, not as a symbol)
    return f"_why({k},{head},t({','.join(terms)})) :- {'; '.join(body)}.", len(terms)


def twin_reading(parts: tuple[str, list[str]]) -> tuple:
    """What mtgkb.questions.explain.wanted reads of the twin `_twin_text`
    writes of a rule (the texts of its head and body literals): the name of
    the conclusion its guard wants, the names of the atoms of its body, and
    the names of the questions its body asks `explaining/1` of (None where
    the text does not give a name)."""
    head, literals = parts
    name = term_name(head)
    wanted = term_name(_first_argument(head)) if name == "because" else name
    names = []
    asked = []
    for lit in literals:
        if not lit.startswith("not ") and lit[0] not in NO_ATOM_START:
            atom = term_name(lit)
            names.append(atom)
            if atom == "explaining" and atom != lit:
                asked.append(term_name(_first_argument(lit)))
    return wanted, tuple(names), tuple(asked)


def _seeded_text(parts: tuple[str, list[str]]) -> list[str | None] | None:
    """`_seeded` of a rule of the graph read from the texts of its head and
    body literals (`_rule_text`): each statement's text (None: the rule as
    it is); None when the text does not settle it (a graph atom in an
    aggregate or a condition, say)."""
    head, literals = parts
    guard = []
    name = term_name(head)
    if name in GRAPH_HEADS and name != head:
        guard = [f"{WANTED}({_first_argument(head)})"]
    elif name is None and GRAPH_TEXT.search(head):
        return None
    read: list[str] = []
    rest: list[str] = []
    for lit in literals:
        if not GRAPH_TEXT.search(lit):
            rest.append(lit)
            continue
        atom = lit
        while atom.startswith("not "):
            atom = atom[4:]
        if term_name(atom) not in GRAPH_HEADS:
            return None
        read.append(_first_argument(atom))
    out: list[str | None] = [f"{head} :- {'; '.join([*guard, *literals])}." if guard else None]
    for conclusion in read:
        body = [*guard, *rest]
        out.append(f"{WANTED}({conclusion})" + (f" :- {'; '.join(body)}." if body else "."))
    return out


def _literal(loc, name: str, args: list, sign=cast.Sign.NoSign) -> cast.AST:
    return cast.Literal(loc, sign, cast.SymbolicAtom(cast.Function(loc, name, args, 0)))


def _graph_term(lit: cast.AST) -> cast.AST | None:
    """The conclusion X of a `because(X,_)` or `rests_on(X,_)` body literal."""
    if lit.ast_type != cast.ASTType.Literal:
        return None
    term = term_of(lit.atom)
    if term is None or getattr(term, "name", None) not in GRAPH_HEADS or not term.arguments:
        return None
    return term.arguments[0]


def _seeded(stmt: cast.AST, text: str | None = None) -> list[cast.AST]:
    """A rule of the rule base as the seeded program has it (see the module's
    docstring): a graph rule guarded by its conclusion being wanted; and the
    conclusions of graph atoms read in its body wanted, so that what the rule
    derives is the same as without seeds. (`text`: the rule's text.)"""
    if not GRAPH_TEXT.search(str(stmt) if text is None else text):
        return [stmt]
    loc = stmt.location
    guard = []
    head = stmt.head
    if head.ast_type == cast.ASTType.Literal and head.sign == cast.Sign.NoSign:
        conclusion = _graph_term(head)
        if conclusion is not None:
            guard = [_literal(loc, WANTED, [conclusion])]
    read = [lit for lit in stmt.body if _graph_term(lit) is not None]
    rest = [lit for lit in stmt.body if _graph_term(lit) is None]
    out = [stmt.update(body=[*guard, *stmt.body])] if guard else [stmt]
    for lit in read:
        wanted = _literal(loc, WANTED, [_graph_term(lit)])
        out.append(cast.Rule(loc, wanted, [*guard, *rest]))
    return out


def _wanted_bodies(arities: Iterable[int]) -> list[cast.AST]:
    """`explain_wanted(B) :- _why(_,_,t(...,B,...)).` for each place of each
    arity of the twins' bodies: each atom of a derivation traced is wanted
    (a few rules for all twins, so the grounder's fixpoint stays cheap)."""
    loc = _LOCATION
    out = []
    for n in sorted(set(arities)):
        for i in range(n):
            args = [cast.Variable(loc, "B" if j == i else "_") for j in range(n)]
            why = _literal(
                loc,
                "_why",
                [
                    cast.Variable(loc, "_"),
                    cast.Variable(loc, "_"),
                    cast.Function(loc, "t", args, 0),
                ],
            )
            out.append(cast.Rule(loc, _literal(loc, WANTED, [cast.Variable(loc, "B")]), [why]))
    return out


_LOCATION = cast.Location(cast.Position("<explain>", 1, 1), cast.Position("<explain>", 1, 1))


class _TracedFile:
    """One file's statements, each with its twin (and, `seeded`, its seeded
    forms): K = file number (its place in the program) * 10000 + place in
    the file. A statement is traced the first time a program takes it."""

    def __init__(self, path: str, seeded: bool, number: int):
        scan = scan_kept(Path(path))  # (shared with the switches and the slicing)
        if scan.errors:
            raise RuntimeError("; ".join(scan.errors))
        self.statements = scan.statements
        self.seeded = seeded
        self.number = number
        #: place -> (its statements traced, and for a twin (the last of them):
        #: its body's arity, its label; the text of each rule of them; what
        #: `twin_reading` reads of a twin written as text)
        self._traced: dict[
            int, tuple[list[cast.AST], tuple[int, str] | None, list[str | None], tuple | None]
        ] = {}

    def add_to(self, whole: Traced, idle: frozenset, stamp: tuple) -> None:
        """Its statements, but those at `idle` places of this file as it was
        when read (`stamp`: its path, mtime and size), traced into `whole`."""
        base = self.number * 10000
        taken = [
            (place, st)
            for place, st in enumerate(self.statements, start=1)
            if (stamp, place) not in idle
        ]
        # (the trees of the statements taken, read at once: the idle ones are not parsed)
        prepare_trees(st for place, st in taken if place not in self._traced)
        taken = [(place, st) for place, st in taken if st.ast is not None]
        self._trace([(place, st) for place, st in taken if place not in self._traced])
        for place, st in taken:
            made, twin, texts, reading = self._traced[place]
            whole.statements += made
            whole.texts += texts
            if twin is not None:
                whole.twins.add(len(whole.statements) - 1)
                if reading is not None:
                    whole.twin_readings[len(whole.statements) - 1] = reading
                whole.arities.add(twin[0])
                whole.tags[base + place] = st.tags or ()
                whole.where[base + place] = twin[1]

    def _trace(self, taken: list) -> None:
        """Trace the statements at these places: each its traced statements,
        and for a twin the arity of its body and the statement's label (each
        read from clingo once: reads of a syntax tree are calls into clingo).
        The twins of plain rules are written as text (`_twin_text`), which
        clingo parses as the program is given to it (`solve_traced`); the
        others are built from their syntax trees."""
        # each place's statements: syntax trees, or texts
        made: list[tuple[int, list[cast.AST | str], tuple[int, str] | None, tuple | None]] = []
        known: dict[int, str] = {}  # the texts of the statements read already, by id
        for place, st in taken:
            node = st.ast
            if st.kind != "Rule":
                self._traced[place] = ([node], None, [None], None)
                continue
            text = str(node)
            known[id(node)] = text
            parts = _rule_text(node, text)
            out: list[cast.AST | str] = [node]
            if self.seeded and GRAPH_TEXT.search(text):
                seeded = _seeded_text(parts) if parts is not None else None
                if seeded is None:
                    out = _seeded(node, text)
                else:
                    out = [node if x is None else x for x in seeded]
            k = self.number * 10000 + place
            plain = _twin_text(parts, k, self.seeded) if parts is not None else None
            reading = None
            if plain is None:
                plain = _twin(node, k, self.seeded, text)
            elif plain[0] is not None:
                reading = twin_reading(parts)
            twin, arity = plain
            if twin is None:
                made.append((place, out, None, None))
            else:
                made.append((place, [*out, twin], (arity, label(st.file, st.line)), reading))
        for place, out, twin, reading in made:
            # (each rule's text: the one it was written as, or read once)
            texts = [x if isinstance(x, str) else known.get(id(x)) or str(x) for x in out]
            self._traced[place] = (out, twin, texts, reading)


@lru_cache(maxsize=64)
def _traced_file(path: str, state: tuple, seeded: bool, number: int) -> _TracedFile:
    """One file, to be traced (kept while the file is unchanged: `state`)."""
    return _TracedFile(path, seeded, number)


def traced_program(
    query: str | Sequence[str], seeded: bool = False, idle: frozenset = frozenset()
) -> Traced:
    """The rule base, `queries/<query>.lp` (each of them, for several) and
    `queries/explain.lp`, traced (`seeded`: only for the conclusions
    `explain_wanted/1`), without the statements at the rule base's `idle`
    places ((file stamp, place): `idle_statements`)."""
    queries = _queries(query)
    files = rule_files() + [query_file(q) for q in queries]
    if "explain" not in queries:
        files.append(query_file("explain"))
    whole = Traced([], {}, {})
    for number, entry in enumerate(stamp(files), start=1):
        path, *state = entry
        _traced_file(path, tuple(state), seeded, number).add_to(whole, idle, entry)
    if seeded:
        bodies = _wanted_bodies(whole.arities)
        whole.statements += bodies
        whole.texts += [None] * len(bodies)
    return whole


# --------------------------------------------------------------------------
# Forward slicing of the traced program


def _queries(query: str | Sequence[str]) -> tuple[str, ...]:
    """One query's name, or several, as a tuple of names (each once)."""
    return (query,) if isinstance(query, str) else tuple(dict.fromkeys(query))


def idle_statements(
    engine,
    query: str | Sequence[str],
    facts: Sequence[clingo.Symbol],
    readings: Readings | FactReadings | None = None,
    traced: bool = True,
) -> frozenset:
    """The places of the rule base's statements that cannot fire on `facts`
    with `query` and `queries/explain.lp` (forward slicing by the rule base's
    analysis, as its groundings are sliced: mtgkb.engine.analysis), each as
    (the stamp of its file as the analysis read it, its place in the file):
    a file changed since is traced whole. Their traced forms fire no more
    than they do, and what the graph reads of an atom it reaches is derived
    by statements that can fire, so leaving them out changes no explanation.
    Empty (nothing left out) when `engine` is None, slicing is off, or the
    analysis does not describe the files traced.

    `traced` False: for the query's program alone, untraced (the switched
    program of mtgkb.questions.explain.forbidden), which is also sliced
    backward as the query's grounding is (the statements whose atoms it
    cannot need are idle too)."""
    if engine is None or not engine.options.slicing:
        return frozenset()
    base = engine.rule_base()
    if not _is_traced(base):
        return frozenset()
    analysis = base.analysis()
    asked = _queries(query)
    queries = program_queries(asked) if traced else asked
    if any(q not in analysis.queries for q in queries):
        return frozenset()
    derived = analysis.query_heads(queries)
    if derived is None:
        return frozenset()
    every = list(range(len(analysis.statements)))
    if not traced:
        every = analysis.kept(queries) or every
    # (`readings`: what was read of the facts for an earlier question, kept)
    read = readings.slicing(analysis) if isinstance(readings, Readings) else readings
    fired = analysis.live(every, analysis.sources(facts, also=derived, readings=read))
    # (the query's own program: sliced backward again, as its grounding is)
    live = set(fired if traced else analysis.needed(queries, fired))
    files = _file_stamps(base)
    return frozenset(
        (files[p[0] - 1], p[1]) for i, p in enumerate(_places(base)) if p and i not in live
    )


def _file_stamps(base) -> list[tuple | None]:
    """Each rule file's stamp (path, mtime, size) as the rule base read it."""
    stamps = {entry[0]: entry for entry in base.stamp}
    return [stamps.get(str(f)) for f in base.files]


@lru_cache(maxsize=4)
def _places(base) -> tuple[tuple[int, int] | None, ...]:
    """For each statement of the rule base's analysis, its (file number,
    place) as `traced_program` numbers the statements of the files' scans;
    None for the statements of a file whose scan does not match its
    analysis statement for statement (so that none of them is left out)."""
    analysis = base.analysis()
    statements = analysis.statements
    starts = line_starts(analysis.source)
    first_bytes = [begin for begin, _ in base.file_spans]
    of_file: list[list[int]] = [[] for _ in base.files]
    for i, st in enumerate(statements):
        begin, end = st["span"]
        if begin == end:
            continue  # the `#program base.` clingo reads before a text
        of_file[bisect.bisect_right(first_bytes, begin) - 1].append(i)
    out: list[tuple[int, int] | None] = [None] * len(statements)
    files = _file_stamps(base)
    for number, (path, indices) in enumerate(zip(base.files, of_file, strict=True), start=1):
        scan = scan_kept(Path(path))
        if (
            files[number - 1] is None
            or stamp([Path(path)]) != (files[number - 1],)
            or scan.errors
            or len(scan.statements) != len(indices)
        ):
            continue  # (a file changed since the rule base was read, or not as analysed)
        first_line = bisect.bisect_right(starts, first_bytes[number - 1])
        pairs = list(zip(scan.statements, indices, strict=True))
        generated = [(st, i) for st, i in pairs if st.generated]
        if not all(
            st.generated
            or bisect.bisect_right(starts, statements[i]["span"][0]) - first_line + 1 == st.line
            for st, i in pairs
        ):
            continue
        # a generated citation sits at the line of the rule it cites: compared whole
        if generated and [str(st.ast) for st, _ in generated] != [
            str(node) for node in analysis.nodes([i for _, i in generated])
        ]:
            continue
        for place, i in enumerate(indices, start=1):
            out[i] = (number, place)
    return tuple(out)


def program_queries(query: str | Sequence[str]) -> tuple[str, ...]:
    """The queries of the traced program of `query` (one or several):
    theirs and `explain`'s."""
    return tuple(dict.fromkeys([*_queries(query), "explain"]))


def fact_signatures_for(engine, facts: Sequence[clingo.Symbol], queries: tuple[str, ...]):
    """The (name, arity) of the first facts, for giving them by signature to
    a program of the engine's rule base and these queries (None: by the
    backend, without an engine whose rule base is the one traced, or for a
    program that may call an external function of its own)."""
    signatures = fact_signatures(facts)
    if signatures is None or engine is None:
        return None
    base = engine.rule_base()
    if not _is_traced(base) or base.calls_functions(queries):
        return None
    return signatures


def _is_traced(base) -> bool:
    """Whether the engine's rule base `base` is the one traced (the files of
    the rule base in use), so that what its analysis says holds there."""
    return [Path(f) for f in base.files] == [Path(f) for f in rule_files()]


class TracedModel(list):
    """Every atom of a model of the traced program; `read`: those of the
    signatures asked for (a symbol's name is a call into clingo: the
    reader of the model reads it of these only), None when not asked."""

    read: list[clingo.Symbol] | None = None


def solve_traced(
    query: str | Sequence[str],
    facts: Sequence[clingo.Symbol],
    timeout: float | None,
    seeded: bool = False,
    engine=None,
    readings: Readings | FactReadings | None = None,
    read: Iterable[tuple[str, int]] = (),
    leave_out: Callable[[Traced], Iterable[int]] | None = None,
):
    """Every atom of the (optimal) model of the question's program, or None.
    `seeded`: the graph and the derivations only of the wanted conclusions,
    and (given the `engine` whose rule base is traced) without the
    statements that cannot fire on `facts` (`idle_statements`; `readings`:
    what slicing read of the facts for another question of theirs).
    `read`: signatures (name, arity) whose atoms the model's `read` lists
    besides (clingo shows them: showing changes no model). `leave_out`:
    the places in the traced program's statements of those that have no
    ground instance (mtgkb.questions.explain.wanted), left out."""
    idle = idle_statements(engine, query, facts, readings) if seeded else frozenset()
    program = traced_program(query, seeded, idle)
    read = sorted(set(read))
    # one model; with a #minimize/#maximize, the first proven optimal one (the
    # models before it are the optimisation's steps; the last one kept wins)
    ctl = new_control(["--models=1", "--opt-mode=optN"], quiet)
    statements = program.statements
    # (statements that have no ground instance, left out: no model changes)
    idle_places = set(leave_out(program)) if leave_out is not None else set()
    if idle_places:
        statements = [st for i, st in enumerate(statements) if i not in idle_places]
    add_statements(ctl, [st for st in statements if not isinstance(st, str)])
    # (the twins written as text: parsed by clingo, no syntax trees made in Python)
    written = [st for st in statements if isinstance(st, str)]
    if written:
        ctl.add("base", [], "\n".join(written))
    if read:
        # (the signatures are the explanation's own names, not a user's)
        ctl.add("base", [], "\n".join(f"#show {name}/{arity}." for name, arity in read))
    given = give_facts(ctl, facts, fact_signatures_for(engine, facts, program_queries(query)))
    ctl.ground([("base", [])], context=given)
    found: list[TracedModel] = []

    def take(model: clingo.Model) -> None:
        atoms = TracedModel(model.symbols(atoms=True))
        if read:
            atoms.read = model.symbols(shown=True)
        found[:] = [atoms]

    solve_within(ctl, timeout, SolveTimeout, on_model=take)
    return program, (found[0] if found else None)
