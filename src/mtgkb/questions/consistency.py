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
from mtgkb.rulebase.numbering import sort_key


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


# --------------------------------------------------------------------------
# A rule base with no answer set for a file


def no_answer_set(facts: Sequence[clingo.Symbol], engine, timeout: float = 10.0) -> dict | None:
    """The `"inconsistent"` entry of a rule base that has no answer set on
    these facts (the file's, without its questions), or None when it has one.

    Every statement of the rule base's solved files (rules/, kb/, the added
    files) gets a switch of its own (mtgkb.engine.cores); an unsatisfiable
    core over the switches, shrunk by deletion, names a minimal set of
    statements that together allow no answer set: each with its place and
    the CR numbers of its tag. When the budget runs out first, the entry
    says so with no statements."""
    from mtgkb.engine.cores import (
        Budget,
        active,
        minimal_rules,
        solve_assuming,
        switch_statements,
        switched_control,
    )
    from mtgkb.rulebase.encoded import label, scan_kept

    scans = [scan_kept(path) for path in engine.location.solved_files()]
    switches = switch_statements(scans)
    ctl, present = switched_control(switches, [], [f for f in facts if f.name != "asked"])
    atoms = ctl.symbolic_atoms
    on = [atoms[active(n)].literal for n in present]
    try:
        satisfiable, _, _ = solve_assuming(ctl, on, timeout)
    except Budget:
        return None  # (no finding without proof)
    if satisfiable:
        return None
    try:
        places = minimal_rules(ctl, present, timeout) or []
        found = True
    except Budget:
        places, found = [], False
    tags = {label(st.file, st.line): list(st.tags or ()) for sc in scans for st in sc.statements}
    statements = [{"at": p, "rules": tags.get(p, [])} for p in places]
    rules = sorted({r for s in statements for r in s["rules"]}, key=sort_key)
    entry = {"no_answer_set": True, "rules": rules, "statements": statements}
    if not found:
        entry["statements_found"] = False
    return entry


def unanswered(answer: dict, entry: dict, asked: Sequence[str] = ()) -> dict:
    """The answer to a question of a file the rule base has no answer set
    for: what names the question (its `ask` and the parameters `asked`) and
    the `"inconsistent"` entry, no value (the run exits 4, spec section 11)."""
    out = {"ask": answer.get("ask")}
    for key in asked:
        if key in answer:
            out[key] = answer[key]
    out["inconsistent"] = [entry]
    out["rules"] = list(entry["rules"])
    return out
