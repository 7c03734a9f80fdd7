"""The audit's baseline: what the rule base encoded, and which statements it
held, when an author last accepted it (`mtgkb audit --save-baseline`).

It lives in the rule base itself (`kb/audit_baseline.json`, data only, read
by no program), so a copy carries it. Against it the audit reports:

- a rule encoded at the baseline and encoded nowhere now (a deleted tag line
  or rule moves a rule quietly from "encoded" to "cited only" or to nothing);
- the statements changed since the baseline (new or edited text: a
  statement is known by its file and its text as clingo prints it, so
  moving it or re-spacing it changes nothing), which the expected-answer
  check names when an answer differs.

Nothing here is a game rule.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from mtgkb.audit.sources import Base, Scans, finding, head_and_body
from mtgkb.rulebase.encoded import Statement, label
from mtgkb.rulebase.index import EDITION

BASELINE_FILE = "audit_baseline.json"
#: The baseline's format; another one is read as no baseline (and said so).
BASELINE_FORMAT = 1


def baseline_path(base: Base) -> Path:
    return base.kb / BASELINE_FILE


def statement_digest(st: Statement) -> str:
    """A statement as clingo prints it (spacing, comments and place do not count)."""
    text = str(st.ast) if st.ast is not None else ""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def file_key(st: Statement) -> str:
    """`rules/102_players.lp`: the statement's file, as the report names it."""
    return label(st.file)


def statements_of(scans: Scans) -> list[Statement]:
    """Every statement the rule base's programs hold (no generated citation:
    it is its rule's tag again)."""
    return [st for scan in scans.all() for st in scan.statements if not st.generated]


def snapshot(rows: list[dict], scans: Scans) -> dict:
    """The baseline of a rule base: its encoded rules and its statements."""
    statements: dict[str, dict[str, list[str]]] = {}
    for st in statements_of(scans):
        statements.setdefault(file_key(st), {})[statement_digest(st)] = list(st.tags or ())
    return {
        "format": BASELINE_FORMAT,
        "edition": EDITION,
        "encoded": {r["id"]: r["encoded_at"] for r in rows if r["encoded_at"]},
        "statements": statements,
    }


def save(base: Base, rows: list[dict], scans: Scans) -> Path:
    path = baseline_path(base)
    text = json.dumps(snapshot(rows, scans), indent=1, sort_keys=True) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


@dataclass(frozen=True)
class Baseline:
    encoded: dict[str, list[str]]
    # file -> statement digest -> the CR numbers of its tag at the baseline
    statements: dict[str, dict[str, tuple[str, ...]]]


def load(base: Base) -> tuple[Baseline | None, list[dict]]:
    """(the baseline, or None; warnings about it: none saved, unreadable)."""
    path = baseline_path(base)
    if not path.is_file():
        text = (
            f"kb/{BASELINE_FILE} is missing: rules no longer encoded and statements "
            "changed since the last accepted audit cannot be named "
            "(`mtgkb audit --save-baseline` writes it)"
        )
        return None, [finding("no-baseline", text, f"kb/{BASELINE_FILE}")]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != BASELINE_FORMAT:
            raise ValueError(f"format {data.get('format')!r}, not {BASELINE_FORMAT}")
        encoded = {str(k): [str(x) for x in v] for k, v in data["encoded"].items()}
        statements = {
            str(f): {str(d): tuple(map(str, tags)) for d, tags in held.items()}
            for f, held in data["statements"].items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        text = f"kb/{BASELINE_FILE} cannot be read ({err}); save it again"
        return None, [finding("bad-baseline", text, f"kb/{BASELINE_FILE}")]
    return Baseline(encoded, statements), []


def lost_encodings(baseline: Baseline, rows: list[dict]) -> list[dict]:
    """Lint: each rule the baseline encoded that no statement encodes now."""
    now = {r["id"]: r for r in rows}
    found = []
    for number, sites in sorted(baseline.encoded.items()):
        row = now.get(number)
        if row is not None and row["encoded_at"]:
            continue
        if row is None:
            state = "is no longer in the rule index"
        elif row["cited_at"]:
            state = "is now only cited (" + ", ".join(row["cited_at"]) + ")"
        else:
            state = "is now encoded nowhere"
        text = f"{number} was encoded at the baseline ({', '.join(sites)}) and {state}"
        found.append(finding("encoding-lost", text, sites[0] if sites else None, number))
    return found


def changed_statements(baseline: Baseline, scans: Scans) -> list[Statement]:
    """The statements whose text the baseline did not hold in their file."""
    return [
        st
        for st in statements_of(scans)
        if statement_digest(st) not in baseline.statements.get(file_key(st), {})
    ]


def retagged(baseline: Baseline, scans: Scans) -> list[dict]:
    """Lint: a statement whose text is the baseline's but whose tag names other
    CR rules. Moving a tag to another real rule (103.4 to 119.3) leaves every
    number known to the index; what gives it away is that the code it tags
    did not change: either the tag was right before, or the author confirms
    the new one by saving the baseline again."""
    found = []
    for st in statements_of(scans):
        if not st.tags:
            continue
        before = baseline.statements.get(file_key(st), {}).get(statement_digest(st))
        if not before or set(before) == set(st.tags):
            continue
        old, new = ", ".join(before), ", ".join(st.tags)
        text = (
            f"the tag changed from {old} to {new} but the statement did not: check that "
            f"{new} is the rule it encodes, then `mtgkb audit --save-baseline`"
        )
        found.append(finding("retagged", text, label(st.file, st.tag_line or st.line), new))
    return found


def readers(scans: Scans) -> dict[tuple[str, int], set[str]]:
    """Each predicate -> the CR numbers of the tagged rules of rules/ that read it."""
    found: dict[tuple[str, int], set[str]] = {}
    for scan in scans.rules:
        for st in scan.statements:
            if st.ast is None or not st.tags:
                continue
            for sig in head_and_body(st.ast)[1]:
                found.setdefault(sig, set()).update(st.tags)
    return found


def describe(st: Statement, read_by: dict[tuple[str, int], set[str]] | None = None) -> dict:
    """A statement as the report names it: its place and the CR numbers of its
    tag or, for a fact of kb/ (data, untagged), of the rules that read it."""
    item = {"at": label(st.file, st.line)}
    if st.tags:
        item["rules"] = list(st.tags)
    elif read_by is not None and st.ast is not None:
        numbers = set().union(*(read_by.get(sig, set()) for sig in head_and_body(st.ast)[0]))
        if numbers:
            item["rules"] = sorted(numbers)
    return item
