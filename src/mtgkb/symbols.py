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


def atoms(model: Iterable[clingo.Symbol], name: str, arity: int) -> Iterator[list[clingo.Symbol]]:
    """The arguments of every atom `name/arity` of a model."""
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
