"""Reading a model of the traced program: the explanation graph (the rule
behind each conclusion, its sub-conclusions, the derivations traced)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

import clingo

from mtgkb.language.facts import DEFAULTED
from mtgkb.questions.explain.tables import QUIET_FACTS
from mtgkb.questions.explain.trace import Traced
from mtgkb.rulebase.index import sort_key
from mtgkb.rulebase.symbol_texts import NESTED_ARGUMENT

MAX_HOPS = 6  # atoms walked through (neither fact nor conclusion) below one node
PRUNE_DEPTH = 4  # levels of sub-conclusions whose facts are not repeated above them

#: The names of the atoms whose arguments the graph reads (a symbol's
#: arguments cost several calls into clingo; the other atoms are only kept).
READ = frozenset({"_why", "because", "rests_on", "explain_root", "message", "violation"}) | {
    name for name, _ in DEFAULTED
}
#: The signatures of the atoms `Graph.of` reads of READ's names (solve_traced's `read`).
READ_SIGNATURES = frozenset(
    {("_why", 3), ("because", 2), ("rests_on", 2), ("explain_root", 2), ("message", 2)}
    | {("violation", 2)}
    | DEFAULTED
)


#: A `_why(K,Atom,...)` atom in the text of a tuple of them: K and Atom's text.
_WHY = re.compile(rf"(?<=[(,])_why\((-?\d+),({NESTED_ARGUMENT}),")


class Derivations:
    """The derivations traced (`_why(K, Atom, t(Body...))`) by the atom each
    derives, as `Graph.why` gives them: [(K, Body)], several sorted. A
    model has thousands; an explanation follows a few hundred. So each
    atom's are read from clingo (every argument a call) when it is first
    asked about, found by the texts of all of them (one call and a pattern);
    all of them at once when that text is not read so (a term nested deeper,
    say)."""

    def __init__(self, atoms: list[clingo.Symbol]):
        self._atoms = atoms
        self._by_text: dict[str, list[int]] | None = None
        self._read: dict[clingo.Symbol, list] = {}
        self._whole = False  # every atom read already

    def get(self, sym: clingo.Symbol, default=None):
        found = self._read.get(sym)
        if found is None and not self._whole:
            found = self._read[sym] = self._of(sym)
        return found if found else default

    def _of(self, sym: clingo.Symbol) -> list:
        index = self._index()
        if index is None:
            return self._read_whole().get(sym, [])
        key = str(sym)
        found = []
        for at in index.get(key, ()):
            args = self._atoms[at].arguments
            if len(args) != 3 or str(args[1]) != key:  # (not read as it is written)
                return self._read_whole().get(sym, [])
            found.append(_derivation(args))
        return _sorted(found)

    def _index(self) -> dict[str, list[int]] | None:
        if self._by_text is None and not self._whole:
            text = str(clingo.Function("", self._atoms))
            found = [m.group(2) for m in _WHY.finditer(text)]
            if len(found) != len(self._atoms):
                return None
            self._by_text = {}
            for at, key in enumerate(found):
                self._by_text.setdefault(key, []).append(at)
        return self._by_text

    def _read_whole(self) -> dict[clingo.Symbol, list]:
        if not self._whole:
            read: dict[clingo.Symbol, list] = {}
            for atom in self._atoms:
                args = atom.arguments
                if len(args) == 3:
                    read.setdefault(args[1], []).append(_derivation(args))
            self._read = {sym: _sorted(found) for sym, found in read.items()}
            self._whole = True
        return self._read


def _derivation(args: list[clingo.Symbol]) -> tuple[int, tuple[clingo.Symbol, ...]]:
    """(K, Body) of a `_why(K, Atom, t(Body...))` atom's arguments."""
    return args[0].number, tuple(args[2].arguments)


def _sorted(derivations: list) -> list:
    if len(derivations) > 1:  # (a key reads every atom's text from clingo)
        derivations.sort(key=lambda d: (d[0], [str(a) for a in d[1]]))
    return derivations


#: What names a symbol in an AtomSet: clingo's handle of it (clingo interns
#: symbols: equal symbols share one); the symbol itself where a clingo's
#: symbols keep no handle in Python.
_handle = attrgetter("_rep") if hasattr(clingo.Number(0), "_rep") else (lambda sym: sym)


class AtomSet:
    """A set of a model's atoms, asked only whether it holds one: by their
    handles, where hashing a symbol, and comparing two, is a call into
    clingo each (a traced model has some 15,000 atoms; measured: 30,000
    symbols into a set and each looked up, 23 ms; by their handles, 9 ms)."""

    __slots__ = ("_handles",)

    def __init__(self, symbols: Iterable[clingo.Symbol] = ()):
        self._handles = set(map(_handle, symbols))

    def __contains__(self, sym: object) -> bool:
        return _handle(sym) in self._handles

    def add(self, sym: clingo.Symbol) -> None:
        self._handles.add(_handle(sym))

    def discard(self, sym: clingo.Symbol) -> None:
        self._handles.discard(_handle(sym))


@dataclass
class Graph:
    atoms: AtomSet
    facts: set[clingo.Symbol]
    program: Traced
    because: dict[clingo.Symbol, set[str]] = field(default_factory=dict)
    rests: dict[clingo.Symbol, list[clingo.Symbol]] = field(default_factory=dict)
    #: the derivations traced, by the atom each derives: [(K, Body)]
    why: Derivations = field(default_factory=lambda: Derivations([]))
    roots: dict[clingo.Symbol, list[clingo.Symbol]] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    #: the `violation/2` atoms of the model (read with the others: a symbol's
    #: name is a call into clingo)
    violations: list[clingo.Symbol] = field(default_factory=list)
    _children: dict[clingo.Symbol, list[clingo.Symbol]] = field(default_factory=dict)
    _building: set[clingo.Symbol] = field(default_factory=set)  # children() under way

    @classmethod
    def of(cls, program: Traced, model: Sequence[clingo.Symbol], facts: Iterable[clingo.Symbol]):
        """The graph of a model of the traced program (every atom; where
        the model is solve_traced's, read with READ_SIGNATURES, only the
        atoms of those signatures are read, the others only kept)."""
        read = getattr(model, "read", None)
        if read is not None:
            g = cls(AtomSet(model), set(facts), program)
            # (what clingo shows besides, a term that is no atom, is not read)
            texts = g._read([sym for sym in read if sym.name in READ and sym in g.atoms])
            if len(g.messages) < texts:
                # a kind with several texts: the last in the model's order wins
                return cls._read_all(program, model, facts)
            return g
        return cls._read_all(program, model, facts)

    @classmethod
    def _read_all(cls, program: Traced, model: Sequence[clingo.Symbol], facts):
        g = cls(AtomSet(), set(facts), program)
        g._read(model)
        return g

    def _read(self, model: Iterable[clingo.Symbol]) -> int:
        """Read the atoms of the model whose names are READ (the others
        kept); how many `message/2` texts were read."""
        g = self
        texts = 0
        derivations: list[clingo.Symbol] = []
        for sym in model:  # a model's atoms: every one a function symbol
            name = sym.name
            if name not in READ:
                g.atoms.add(sym)
                continue
            if name == "_why":  # (its arguments read when asked for: Derivations)
                derivations.append(sym)
                g.atoms.discard(sym)  # (kept already where only the READ atoms are read)
                continue
            args = sym.arguments
            if (name, len(args)) in DEFAULTED:
                g.facts.add(sym)  # written, or the spec's default for what was not
            g.atoms.add(sym)
            if name == "because" and len(args) == 2 and _is_rule(args[1]):
                g.because.setdefault(args[0], set()).add(args[1].arguments[0].string)
            elif name == "rests_on" and len(args) == 2:
                g.rests.setdefault(args[0], []).append(args[1])
            elif name == "explain_root" and len(args) == 2:
                g.roots.setdefault(args[0], []).append(args[1])
            elif name == "message" and len(args) == 2 and args[1].type == clingo.SymbolType.String:
                g.messages[str(args[0])] = args[1].string
                texts += 1
            elif name == "violation" and len(args) == 2:
                g.violations.append(sym)
        for subs in g.rests.values():
            subs.sort()
        g.why = Derivations(derivations)
        return texts

    def is_fact(self, sym: clingo.Symbol) -> bool:
        return sym in self.facts

    def is_conclusion(self, sym: clingo.Symbol) -> bool:
        return sym in self.because or sym.name in ("violation", "explain_limit")

    def derivation(self, sym: clingo.Symbol) -> tuple[int, tuple[clingo.Symbol, ...]] | None:
        """The derivation to show: one by a rule tagged with a rule the conclusion cites."""
        found = self.why.get(sym)
        if not found:
            return None
        cited = self.because.get(sym, set())
        for k, body in found:
            if cited & set(self.program.tags.get(k, ())):
                return k, body
        return found[0]

    def rules_of(self, sym: clingo.Symbol) -> tuple[str | None, list[str]]:
        """The rule that decided a conclusion, and the others it cites."""
        own = own_rule(sym)
        cited = sorted(self.because.get(sym, set()), key=sort_key)
        if own is not None:
            return own, [r for r in cited if r != own]
        derivation = self.derivation(sym)
        tags = list(self.program.tags.get(derivation[0], ())) if derivation else []
        if cited:
            primary = next((t for t in tags if t in cited), cited[0])
            return primary, [r for r in cited if r != primary]
        if tags and not self.is_fact(sym):
            return tags[0], tags[1:]
        return None, []

    def children(self, sym: clingo.Symbol) -> list[clingo.Symbol]:
        """The sub-conclusions and the input facts a conclusion rests on.

        Where the encodings name sub-conclusions (rests_on/2), those are the
        sub-conclusions, and the derivation adds only its input facts;
        elsewhere the derivation gives both."""
        if sym in self._children:
            return self._children[sym]
        out: list[clingo.Symbol] = [sub for sub in self.rests.get(sym, []) if sub in self.atoms]
        if not self.is_fact(sym):
            found: list[clingo.Symbol] = []
            self._walk(sym, found, 0, {sym})
            out += [s for s in found if not out or self.is_fact(s)]
        deciding = self.deciding(sym)
        out += deciding
        seen: set[clingo.Symbol] = set()
        ordered = []
        # conclusions first, then the facts they rest on
        for item in sorted(out, key=lambda s: self.is_fact(s)):
            if item not in seen and item != sym:
                seen.add(item)
                ordered.append(item)
        # pruned: a fact a sub-conclusion shows is not repeated here (but the
        # facts that decided the rule of this conclusion)
        self._building.add(sym)
        below: set[clingo.Symbol] = set()
        visited: set[clingo.Symbol] = set()
        level = [sub for sub in ordered if not self.is_fact(sub)]
        for _ in range(PRUNE_DEPTH):
            deeper = []
            for sub in level:
                if sub in self._building or sub in visited:
                    continue
                visited.add(sub)
                kids = self.children(sub)
                below.update(kids)
                deeper += [k for k in kids if not self.is_fact(k)]
            level = deeper
        self._building.discard(sym)
        ordered = [s for s in ordered if not (self.is_fact(s) and s in below) or s in deciding]
        self._children[sym] = ordered
        return ordered

    def deciding(self, sym: clingo.Symbol) -> list[clingo.Symbol]:
        """The facts and conclusions that made each rule cited for `sym` its
        rule: the body of the `because(sym, rule(R))` rules that fired (702.17b
        is cited for a block of a flyer because the blocker has reach)."""
        out: list[clingo.Symbol] = []
        for number in sorted(self.because.get(sym, ()), key=sort_key):
            rule = clingo.Function("rule", [clingo.String(number)])
            cause = clingo.Function("because", [sym, rule])
            for _, body in self.why.get(cause, []):
                for atom in body:
                    if atom == sym or atom in out:
                        continue
                    if self.is_fact(atom) and atom.name not in QUIET_FACTS:
                        out.append(atom)
                    elif not self.is_fact(atom) and self.is_conclusion(atom):
                        out.append(atom)
        return out

    def folded(self, sym: clingo.Symbol) -> tuple[clingo.Symbol, int]:
        """Where a chain of unchanged steps ends: a conclusion whose only child is
        the same conclusion one step earlier (same predicate, rule and value)."""
        steps = 0
        seen = {sym}
        while True:
            kids = self.children(sym)
            subs = [k for k in kids if not self.is_fact(k)]
            if len(subs) != 1:
                return sym, steps
            kid = subs[0]
            # the facts of the step left out must still show further down
            if not {k for k in kids if self.is_fact(k)} <= set(self.children(kid)):
                return sym, steps
            if (
                kid in seen
                or kid.name != sym.name
                or len(kid.arguments) != len(sym.arguments)
                or not kid.arguments
                or kid.arguments[-1] != sym.arguments[-1]
                or self.rules_of(kid)[0] != self.rules_of(sym)[0]
            ):
                return sym, steps
            seen.add(kid)
            sym, steps = kid, steps + 1

    def _walk(self, sym: clingo.Symbol, out: list, hops: int, visited: set) -> None:
        derivation = self.derivation(sym)
        if derivation is None:
            return
        for atom in derivation[1]:
            if atom in visited:
                continue
            visited.add(atom)
            if self.is_fact(atom):
                if atom.name not in QUIET_FACTS:
                    out.append(atom)
            elif self.is_conclusion(atom):
                out.append(atom)
            elif hops < MAX_HOPS:
                self._walk(atom, out, hops + 1, visited)


def _is_rule(term: clingo.Symbol) -> bool:
    return (
        term.type == clingo.SymbolType.Function
        and term.name == "rule"
        and len(term.arguments) == 1
        and term.arguments[0].type == clingo.SymbolType.String
    )


def own_rule(sym: clingo.Symbol) -> str | None:
    """The rule named inside a violation or a limit."""
    if sym.name == "violation" and sym.arguments and _is_rule(sym.arguments[0]):
        return sym.arguments[0].arguments[0].string
    if sym.name == "explain_limit" and len(sym.arguments) == 3 and _is_rule(sym.arguments[1]):
        return sym.arguments[1].arguments[0].string
    return None
