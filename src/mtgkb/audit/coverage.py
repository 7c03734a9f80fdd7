"""Coverage: each rule of the index, where it is encoded (rules that only cite
it, `because/2` and `rests_on/2`, are `cited_at`) and what tests it; an
indexed rule encoded nowhere is lint, an encoded rule nothing tests a warning.

What tests a rule is what fired, not what a test's name says: the scenario
files answered by the audit whose answers cite the rule, and the rule base's
unit tests (tests/units) that check it and pass (`fired_by`): the rule a test
names, and the rules whose statements derived an atom it asserts
(mtgkb.audit.units.checked_rules, `tested`). A rule whose encoding is
deleted is no longer cited by any answer, so it is no longer tested either.
"""

from __future__ import annotations

from mtgkb.audit.sources import Base, Scans, finding
from mtgkb.rulebase.encoded import label
from mtgkb.rulebase.index import RuleIndex


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
                place = label(st.file, st.line)
                for num in st.tags:
                    if st.instance is None or place not in found.get(num, ()):
                        found.setdefault(num, []).append(place)  # (a part's rule: once)
    return found


def fired_by(units: list, answered: list[dict]) -> dict[str, list[str]]:
    """Each CR number -> what exercised it: the passing unit tests that check it
    (`mtgkb.audit.units.UnitResult`) and the scenarios (`{"scenario", "cited"}`,
    as the expected-answer check gives them) whose answers cite it."""
    found: dict[str, list[str]] = {}
    for unit in units:
        if unit.ok and unit.rule:
            found.setdefault(unit.rule, []).append(f"{unit.file}: {unit.name}")
    for item in answered:
        for number in item.get("cited", ()):
            found.setdefault(number, []).append(item["scenario"])
    return found


def unit_checked(
    base: Base, index: RuleIndex | None, scans: Scans, units: list
) -> dict[str, list[str]]:
    """For each rule of the index no passing unit test names, the passing
    unit tests that assert an atom a statement of that rule derived
    (mtgkb.audit.units.checked_rules)."""
    from mtgkb.audit.units import checked_rules

    named = fired_by(units, [])
    left = [entry.id for entry in index or () if entry.id not in named]
    return checked_rules(base, scans.rules, left, units)


def tested(units: list, answered: list[dict], by_units: dict[str, list[str]]):
    """`fired_by(units, answered)`, and for each rule nothing names there, the
    unit tests that check it without naming it (`unit_checked`)."""
    found = fired_by(units, answered)
    for number, tests in by_units.items():
        if number not in found:
            found[number] = list(tests)
    return found


def coverage(
    base: Base, index: RuleIndex | None, scans: Scans, tested: dict[str, list[str]]
) -> tuple[list[dict], list[dict], list[dict]]:
    """(one row per rule of the index, lint, warnings), with `tested` (from
    `fired_by`) naming what exercised each rule."""
    encoded = encoded_sites(scans)
    cited = encoded_sites(scans, cited=True)
    entries = list(index) if index is not None else []
    rows: list[dict] = []
    lint: list[dict] = []
    warnings: list[dict] = []
    for entry in entries:
        row = {
            "id": entry.id,
            "encoded_at": encoded.get(entry.id, []),
            "cited_at": cited.get(entry.id, []),
            "tested_by": tested.get(entry.id, []),
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
        elif tested and not row["tested_by"]:
            # a rule only cited (because/2, rests_on/2) is not encoded: say what it is
            what = "encoded" if row["encoded_at"] else "only cited (" + row["cited_at"][0] + ")"
            warnings.append(
                finding(
                    "untested",
                    f"{entry.id} is {what} but no scenario answered cites it and no unit "
                    "test checks it",
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
