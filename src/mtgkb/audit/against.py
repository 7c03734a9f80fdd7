"""`mtgkb audit --against OTHER`: what a change of the rule base does.

Two rule bases (the one audited and OTHER, typically the original it was
copied from) answer the same corpus: the scenario files beside the audited
rule base (examples, expected-answer folders) and the generated corpus. Each
scenario whose answers differ is reported with, per differing question, the
answer and the rules cited on each side, and the statements that differ
between the two bases and that its answer depends on (each taken out of the
audited base in turn: `mtgkb.audit.ablation`).

Nothing here is a game rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from mtgkb.audit.ablation import answer_under, depends_on
from mtgkb.audit.baseline import describe, file_key, readers, statement_digest, statements_of
from mtgkb.audit.consistency import file_scenarios, generated_corpus
from mtgkb.audit.sources import Base, scan
from mtgkb.rulebase.encoded import Statement


def differing_statements(base: Base, other: Base) -> tuple[list[Statement], list[Statement]]:
    """(the statements of `base` that `other` does not hold in the same file,
    those of `other` that `base` does not hold)."""
    mine, theirs = statements_of(scan(base)), statements_of(scan(other))

    def keys(statements: list[Statement]) -> set[tuple[str, str]]:
        return {(file_key(st), statement_digest(st)) for st in statements}

    in_mine, in_theirs = keys(mine), keys(theirs)
    return (
        [st for st in mine if (file_key(st), statement_digest(st)) not in in_theirs],
        [st for st in theirs if (file_key(st), statement_digest(st)) not in in_mine],
    )


def cited(answer: dict) -> list[str]:
    """The rules an answer cites: its `rules` and its violations' rules."""
    rules = {str(r) for r in answer.get("rules", []) or []}
    rules |= {str(v["rule"]) for v in answer.get("violations", []) or [] if v.get("rule")}
    return sorted(rules)


def question_differences(mine: dict | None, theirs: dict | None) -> list[dict]:
    """Per question whose answer differs: its `ask`, and each side's answer and rules."""
    if mine is None or theirs is None:
        return [{"ask": "(the file)", "this": mine, "other": theirs}]
    a, b = mine.get("answers", []), theirs.get("answers", [])
    out = []
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x == y:
            continue
        item = {"ask": (x or y or {}).get("ask", "?"), "number": i + 1, "this": x, "other": y}
        item["rules_this"] = cited(x) if isinstance(x, dict) else []
        item["rules_other"] = cited(y) if isinstance(y, dict) else []
        out.append(item)
    return out


def compare(
    base: Base,
    other: Base,
    corpus: Iterable[tuple[str, str]] | None = None,
    quick: bool = True,
    progress=None,
) -> dict:
    """The `against` section of the report."""
    mine, theirs = differing_statements(base, other)
    if corpus is None:
        corpus = file_scenarios(base.root) + generated_corpus(quick)
    scenarios = list(corpus)
    read_by = readers(scan(base))
    differing = []
    for k, (name, text) in enumerate(scenarios, start=1):
        if progress:
            progress(f"answers against {other.root}", k, len(scenarios))
        status_a, shown_a, out_a = answer_under(base, name, text)
        status_b, shown_b, out_b = answer_under(other, name, text)
        if (status_a, shown_a) == (status_b, shown_b):
            continue
        item = {
            "scenario": name,
            "exit": [status_a, status_b],
            "questions": question_differences(out_a, out_b),
            "depends_on": depends_on(base, name, text, mine) if mine else [],
        }
        differing.append(item)
    return {
        "other": str(Path(other.root)),
        "scenarios": len(scenarios),
        "statements_only_here": [describe(st, read_by) for st in mine],
        "statements_only_there": [describe(st) for st in theirs],
        "differing": differing,
    }
