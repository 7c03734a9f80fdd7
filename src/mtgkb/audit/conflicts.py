"""Conflicts grouped by cause: the kind of contradiction and the CR rules
responsible, one entry per cause with the scenarios it shows in; with the
scenarios' texts, the statements behind each (a minimal set that together
make it, and a minimal set whose removal resolves it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mtgkb.audit.checker import load_case
from mtgkb.audit.scene import prepare, statements_behind, statements_unsatisfiable
from mtgkb.audit.sources import Base
from mtgkb.rulebase.encoded import FileScan, label
from mtgkb.rulebase.index import sort_key

#: Words of a conflict message that name things of one scenario (players,
#: objects, numbers; a quoted 'ask ...' names the question and stays): left
#: out when conflicts are grouped by cause.
_PARTICULAR = re.compile(r"\"[^\"]*\"|\b[A-Z][\w']*|\b\d+\b")


def _cause(conflict: dict) -> str:
    if conflict.get("cause"):
        return conflict["cause"]
    return " ".join(_PARTICULAR.sub("_", conflict["message"]).split())


def _statement_rules(places: Sequence[str], scans: Sequence[FileScan]) -> list[dict]:
    """Each statement's place with the CR numbers of its tag."""
    tags = {label(st.file, st.line): list(st.tags or ()) for sc in scans for st in sc.statements}
    return [{"at": p, "rules": tags.get(p, [])} for p in places]


def group_conflicts(
    conflicts: Sequence[dict],
    base: Base | None = None,
    texts: dict[str, str] | None = None,
    timeout: float = 10.0,
    progress=None,
) -> list[dict]:
    """Conflicts grouped by cause (the kind of contradiction and the CR rules
    responsible): one entry per cause with the number of scenarios it shows
    in and one example; with `base` and the scenarios' `texts`, the
    statements behind it (`statements`: a minimal set that together make it;
    `remove`: a minimal set whose removal resolves it), each with its CR numbers."""
    groups: dict[tuple, list[dict]] = {}
    for c in conflicts:
        groups.setdefault((_cause(c), tuple(c["rules"])), []).append(c)
    out = []
    prepared = None
    for k, ((cause, _), items) in enumerate(groups.items(), start=1):
        first = items[0]
        group = dict(first)
        group.update(
            cause=cause,
            scenarios=len(items),
            example=first["scenario"],
            seen_in=[c["scenario"] for c in items],
        )
        text = first.get("text") or (texts or {}).get(first["scenario"])
        if base is not None and text is not None:
            if progress:
                progress("statements behind each conflict", k, len(groups))
            if prepared is None:
                prepared = prepare(base, by_statement=True)
            found = _statements_of(base, prepared, first, text, timeout)
            if found:
                scans = base.rule_scans()
                group["statements"] = _statement_rules(found["core"], scans)
                group["remove"] = _statement_rules(found["remove"], scans)
        out.append(group)
    return _merge_by_statements(out)


def _statements_of(base: Base, prepared, conflict: dict, text: str, timeout: float):
    """The statements behind one conflict: for an invariant's conflict (it has a
    cause), those that make it and those whose removal resolves it; for a
    scenario with no answer or a question with none, a minimal set of
    statements that leave the scenario with no answer (removing any one of
    them resolves it, so they are both)."""
    try:
        case = load_case(conflict["scenario"], text)
        found = statements_behind(base, prepared, case.facts, timeout)
        if found:
            return found
        core = statements_unsatisfiable(base, prepared, case.facts, timeout)
    except Exception:  # noqa: BLE001 - the grouping stands without it
        return None
    return {"core": core, "remove": core} if core else None


def _merge_by_statements(groups: list[dict]) -> list[dict]:
    """Groups resolved by removing the same statements are one cause: one entry,
    with the CR rules, causes and scenarios of all."""
    merged: dict[tuple, dict] = {}
    out: list[dict] = []
    for group in groups:
        key = tuple(p["at"] for p in group.get("remove", ()))
        if not key:
            out.append(group)
            continue
        if key not in merged:
            merged[key] = group
            out.append(group)
            continue
        into = merged[key]
        into["rules"] = sorted(set(into["rules"]) | set(group["rules"]), key=sort_key)
        into["at"] = list(dict.fromkeys(into["at"] + group["at"]))
        into["seen_in"] += group["seen_in"]
        into["scenarios"] += group["scenarios"]
        causes = into["cause"].split(" + ") + group["cause"].split(" + ")
        into["cause"] = " + ".join(sorted(set(causes)))
        known = {p["at"] for p in into.get("statements", [])}
        into["statements"] = into.get("statements", []) + [
            p for p in group.get("statements", []) if p["at"] not in known
        ]
    return out
