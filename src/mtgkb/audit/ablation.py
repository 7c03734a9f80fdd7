"""Which statements an answer depends on, found by taking each one out.

An author who changed a few statements wants to know which of them moved an
answer. For each candidate statement, a copy of the rule base without it
(its lines made comments) answers the scenario again: if the answers change,
the scenario's answer depends on that statement. The candidates are few (the
statements changed since the baseline, or those that differ between two rule
bases), so this costs one answer per candidate and scenario.

Nothing here is a game rule.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from mtgkb.audit.baseline import describe, readers
from mtgkb.audit.sources import Base, scan
from mtgkb.rulebase.encoded import Statement

FOLDERS = ("rules", "kb", "queries")


def answers_of(base: Base, name: str, text: str) -> tuple[int, str]:
    """(exit status, answers as canonical JSON) of a scenario under `base`
    (the rule base's own description left out: it names its folder)."""
    return answer_under(base, name, text)[:2]


def answer_under(base: Base, name: str, text: str) -> tuple[int, str, dict | None]:
    """(exit status, answers as canonical JSON, the answers) of a scenario under `base`."""
    from mtgkb.engine.state import Engine
    from mtgkb.questions.answers import Limits
    from mtgkb.running.runner import answer_text

    with base.in_use():
        result = answer_text(text, name, Limits(timeout=60), engine=Engine())
    output = dict(result.output) if isinstance(result.output, dict) else None
    if output is not None:
        output.pop("rule_base", None)
    shown = json.dumps(output, sort_keys=True, ensure_ascii=False) if output else result.error
    return result.status, str(shown), output


def without(base: Base, st: Statement, into: Path) -> Base:
    """A copy of `base` in `into` with the lines of `st` made comments."""
    for name in FOLDERS:
        if (base.root / name).is_dir():
            shutil.copytree(base.root / name, into / name)
    copy = into / Path(st.file).parent.name / Path(st.file).name
    lines = copy.read_text(encoding="utf-8").splitlines(keepends=True)
    for i in range(st.line - 1, min(st.end_line, len(lines))):
        lines[i] = "% (taken out by the audit) " + lines[i]
    copy.write_text("".join(lines), encoding="utf-8")
    return Base.at(into, base.extra)


def inside(base: Base, st: Statement) -> bool:
    """A statement of one of the rule base's own folders (not a `--with` file)."""
    parent = Path(st.file).resolve().parent
    return any(parent == (base.root / name).resolve() for name in FOLDERS)


def depends_on(base: Base, name: str, text: str, candidates: Sequence[Statement]) -> list[dict]:
    """The candidates without which the scenario's answers under `base` change."""
    candidates = [st for st in candidates if inside(base, st)]
    if not candidates:
        return []
    now = answers_of(base, name, text)
    read_by = readers(scan(base))
    found = []
    for st in candidates:
        with tempfile.TemporaryDirectory(prefix="mtgkb-ablation-") as tmp:
            if answers_of(without(base, st, Path(tmp)), name, text) != now:
                found.append(describe(st, read_by))
    return found
