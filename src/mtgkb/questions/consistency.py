"""A rule base that contradicts itself: reading `inconsistent/3` (derived by
`kb/single_valued.lp` from the rule base's own declarations of the atoms that
have one value) into the answers' `"inconsistent"` list, with the rules that
derived each value (spec, section 11: such a run exits 4).

Nothing here knows which atoms are single-valued: the rule base says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import clingo

from mtgkb.questions.symbols import atoms, value
from mtgkb.rulebase.index import sort_key


def found(model: Iterable[clingo.Symbol]) -> dict[tuple[str, clingo.Symbol], list[clingo.Symbol]]:
    """(atom name, whose) -> the values the model derives for it, when more than one."""
    out: dict[tuple[str, clingo.Symbol], list[clingo.Symbol]] = {}
    for name, of, val in atoms(model, "inconsistent", 3):  # (by name, once: symbols.Shown)
        out.setdefault((str(name), of), []).append(val)
    return out


def _whose(of: clingo.Symbol):
    """A holder as JSON: a name, or a list for a tuple (a player and a commander)."""
    if of.type == clingo.SymbolType.Function and of.name == "" and of.arguments:
        return [value(a) for a in of.arguments]
    return value(of)


def holders(model: Iterable[clingo.Symbol]) -> set[tuple[str, str | int]]:
    """(atom name, whose) of every atom the model gives several values: an
    answer leaves those out instead of picking one."""
    return {(name, value(of)) for name, of in found(model)}


def _derivers(
    query: str, facts: Sequence[clingo.Symbol], atoms: set[clingo.Symbol]
) -> dict[clingo.Symbol, tuple[list[str], list[str]]]:
    """For each atom: the CR numbers (tags) and `file:line` of the rules that
    derived it, from the traced rule base (mtgkb.questions.explain)."""
    from mtgkb.questions.explain import solve_traced

    try:
        program, model = solve_traced(query, list(facts), 10.0)
    except Exception:  # noqa: BLE001 - the list of rules is a help, not the finding
        return {}
    out: dict[clingo.Symbol, tuple[list[str], list[str]]] = {}
    for sym in model or ():
        if sym.type == clingo.SymbolType.Function and sym.name == "_why":
            k, head = sym.arguments[0].number, sym.arguments[1]
            if head in atoms:
                rules, where = out.setdefault(head, ([], []))
                rules += [t for t in program.tags.get(k, ()) if t not in rules]
                site = program.where.get(k)
                if site and site not in where:
                    where.append(site)
    return out


def report(
    model: Iterable[clingo.Symbol], query: str, facts: Sequence[clingo.Symbol] | str
) -> list[dict]:
    """The answer's `"inconsistent"` entries: per atom and holder, the values
    and the rules (and their places) that derived each."""
    seen = found(model)
    if not seen:
        return []
    atoms = {clingo.Function(name, [of, val]) for (name, of), vals in seen.items() for val in vals}
    symbols = facts if not isinstance(facts, str) else []
    by = _derivers(query, symbols, atoms) if symbols else {}
    out = []
    for (name, of), vals in sorted(seen.items(), key=lambda item: (item[0][0], str(item[0][1]))):
        vals = sorted(vals)
        rules: set[str] = set()
        derived = []
        for val in vals:
            tags, where = by.get(clingo.Function(name, [of, val]), ([], []))
            rules |= set(tags)
            derived.append(
                {"value": value(val), "rules": sorted(tags, key=sort_key), "at": sorted(where)}
            )
        out.append(
            {
                "atom": name,
                "of": _whose(of),
                "values": [value(v) for v in vals],
                "rules": sorted(rules, key=sort_key),
                "derived_by": derived,
            }
        )
    return out
