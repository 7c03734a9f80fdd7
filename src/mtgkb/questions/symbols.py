"""Reading shown clingo atoms back into Python values for the answers."""

from collections.abc import Iterable, Iterator

import clingo


def value(symbol: clingo.Symbol) -> str | int:
    """A name stays a name, a number a number, any other term its clingo text."""
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    return str(symbol)


class Shown(list):
    """The shown atoms of one model, with their names and arities read into
    Python once: an answer asks for a dozen kinds of atom, and reading a
    symbol's name is several calls into clingo. Not to be changed once read."""

    __slots__ = ("_shapes",)

    def shapes(self) -> dict[tuple[str, int], list]:
        """The arguments of the atoms, by name and arity."""
        try:
            return self._shapes
        except AttributeError:
            found: dict[tuple[str, int], list] = {}
            function = clingo.SymbolType.Function
            for symbol in self:
                if symbol.type == function:
                    args = symbol.arguments
                    found.setdefault((symbol.name, len(args)), []).append(args)
            self._shapes = found
            return found


def atoms(model: Iterable[clingo.Symbol], name: str, arity: int) -> Iterator[list[clingo.Symbol]]:
    """The arguments of every atom `name/arity` of a model."""
    if isinstance(model, Shown):
        yield from model.shapes().get((name, arity), ())
        return
    for symbol in model:
        if symbol.type == clingo.SymbolType.Function and symbol.name == name:
            if len(symbol.arguments) == arity:
                yield symbol.arguments


def values(model: Iterable[clingo.Symbol], name: str, arity: int) -> Iterator[list[str | int]]:
    """Like `atoms`, with each argument turned into a Python value."""
    for args in atoms(model, name, arity):
        yield [value(a) for a in args]


def names_in(term: clingo.Symbol) -> list[str]:
    """Every user name (string) inside a term, in order: the objects of a violation."""
    if term.type == clingo.SymbolType.String:
        return [term.string]
    if term.type == clingo.SymbolType.Function:
        return [name for arg in term.arguments for name in names_in(arg)]
    return []


def cited_rules(model: Iterable[clingo.Symbol]) -> set[str]:
    """The rule numbers of `cites(rule(R))` atoms."""
    found = set()
    for (rule,) in atoms(model, "cites", 1):
        if rule.type == clingo.SymbolType.Function and rule.name == "rule" and rule.arguments:
            found.add(str(value(rule.arguments[0])))
    return found


def sequence(model: Iterable[clingo.Symbol], name: str) -> list[str | int]:
    """The values of `name(Pos, X)` atoms ordered by position."""
    return [x for _, x in sorted((pos, x) for pos, x in values(model, name, 2))]


class Decoder:
    """`values` and `cited_rules` for many models that share their atoms (say
    100,000 stack orders of the same 81 `stack/2` atoms): each distinct atom
    is read into Python once. clingo interns symbols, so the symbol's handle
    identifies it; reading a symbol costs about ten calls into clingo."""

    def __init__(self) -> None:
        self._seen: dict = {}

    def _read(self, symbol: clingo.Symbol) -> tuple:
        key = getattr(symbol, "_rep", symbol)
        found = self._seen.get(key)
        if found is None:
            if symbol.type == clingo.SymbolType.Function:
                args = symbol.arguments
                found = (symbol.name, len(args), tuple(value(a) for a in args), symbol)
            else:
                found = ("", -1, (), symbol)
            self._seen[key] = found
        return found

    def values(self, model: Iterable[clingo.Symbol], name: str, arity: int) -> list[tuple]:
        out = []
        for symbol in model:
            found = self._read(symbol)
            if found[0] == name and found[1] == arity:
                out.append(found[2])
        return out

    def sequence(self, model: Iterable[clingo.Symbol], name: str) -> list[str | int]:
        return [x for _, x in sorted(self.values(model, name, 2))]

    def cited_rules(self, models: Iterable[Iterable[clingo.Symbol]]) -> set[str]:
        distinct = {}
        for model in models:
            for symbol in model:
                found = self._read(symbol)
                if found[0] == "cites" and found[1] == 1:
                    distinct[id(found)] = found[3]
        return cited_rules(distinct.values())
