"""Coverage: each rule of the index, where it is encoded (rules that only cite
it, `because/2` and `rests_on/2`, are `cited_at`) and what tests it; an
indexed rule encoded nowhere is lint, an encoded rule no test names a warning.
"""

from __future__ import annotations

from mtgkb.audit.sources import Base, Scans, finding
from mtgkb.rulebase.encoded import label
from mtgkb.rulebase.index import RuleIndex
from mtgkb.rulebase.tested import tested_map


def tag_sites(scans: Scans) -> dict[str, list[str]]:
    """Every number named by a `% N` tag line -> where the tag lines are."""
    sites: dict[str, list[str]] = {}
    for scan in scans.all():
        for tag in scan.tags:
            for num in tag.numbers:
                sites.setdefault(num, []).append(label(tag.file, tag.line))
    return sites


def encoded_sites(scans: Scans, cited: bool = False) -> dict[str, list[str]]:
    """CR number -> the rules that encode it (with `cited`: that only cite it)."""
    found: dict[str, list[str]] = {}
    for scan in scans.rules:
        for st in scan.statements:
            if st.is_rule and st.tags and st.is_citation == cited:
                for num in st.tags:
                    found.setdefault(num, []).append(label(st.file, st.line))
    return found


def coverage(
    base: Base, index: RuleIndex | None, scans: Scans
) -> tuple[list[dict], list[dict], list[dict]]:
    """(one row per rule of the index, lint, warnings)."""
    encoded = encoded_sites(scans)
    cited = encoded_sites(scans, cited=True)
    entries = list(index) if index is not None else []
    has_tests = (base.root / "tests").is_dir()
    tested = tested_map(base.root, [e.id for e in entries])
    rows: list[dict] = []
    lint: list[dict] = []
    warnings: list[dict] = []
    for entry in entries:
        row = {
            "id": entry.id,
            "encoded_at": encoded.get(entry.id, []),
            "cited_at": cited.get(entry.id, []),
            "tested_by": tested[entry.id],
        }
        if entry.relied_on:
            row["relied_on"] = True
        rows.append(row)
        if entry.relied_on:
            continue
        if not row["encoded_at"] and not row["cited_at"]:
            lint.append(
                finding(
                    "not-encoded",
                    f"{entry.id} is in the index but no ASP rule is tagged with it",
                    "kb/rule_index.lp",
                    entry.id,
                )
            )
        elif has_tests and not row["tested_by"]:
            warnings.append(
                finding(
                    "untested",
                    f"{entry.id} is encoded but no test or example names it",
                    None,
                    entry.id,
                )
            )
    return rows, lint, warnings


def summary(rows: list[dict]) -> dict:
    """The counts of the report's summary that coverage gives."""
    return {
        "rules": len(rows),
        "relied_on": sum(1 for r in rows if r.get("relied_on")),
        "encoded": sum(1 for r in rows if r["encoded_at"]),
        "cited_only": sum(1 for r in rows if r["cited_at"] and not r["encoded_at"]),
        "tested": sum(1 for r in rows if r["tested_by"]),
    }
