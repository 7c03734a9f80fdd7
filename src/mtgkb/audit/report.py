"""`mtgkb audit`: the rule base checks itself. This module assembles the report
from the parts, each in its own module of mtgkb.audit:

- coverage: each rule of the index, where it is encoded and cited, what tests it;
- lint: untagged rules, unknown tags, clingo's complaints, missing messages,
  unused predicates;
- consistency (checker, scene, conflicts): the questions of a corpus of
  scenarios asked as `mtgkb run` asks them, the audit's invariants
  (invariants.lp), and for each contradiction the minimal set of CR rules
  responsible, grouped by cause;
- expected: the examples' answers against their `*.expected.json`;
- editions: with `--cr FILE`, cited numbers missing from that edition and
  rules whose text changed; with several files, each rule's history.

The report is rendered by mtgkb.audit.render; the command is mtgkb.audit.command.
Nothing here is a game rule: the checks are questions asked of the rules.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path

from mtgkb.audit import baseline as _baseline
from mtgkb.audit import coverage as _coverage
from mtgkb.audit.ablation import depends_on
from mtgkb.audit.against import compare
from mtgkb.audit.conflicts import group_conflicts
from mtgkb.audit.consistency import PARALLEL_FROM, Item, Pending, corpus_items, start_corpus
from mtgkb.audit.editions import editions
from mtgkb.audit.expected import expected_answers
from mtgkb.audit.lint import lint as lint_of
from mtgkb.audit.not_modelled import not_modelled as not_modelled_of
from mtgkb.audit.sources import Base, finding, scan
from mtgkb.audit.units import run_units, unit_findings
from mtgkb.rulebase.index import EDITION, RuleIndex, load_index
from mtgkb.rulebase.location import RuleBase


def audit(
    root: Path | None = None,
    cr_file: Path | Iterable[Path] | None = None,
    corpus: Iterable[tuple[str, str]] | None = None,
    *,
    timeout: float = 10.0,
    quick: bool = False,
    jobs: int | None = None,
    progress=None,
    expected: bool = True,
    lint_only: bool = False,
    save_baseline: bool = False,
    against: Path | None = None,
) -> dict:
    """Audit the rule base of a checkout (`root`) or of this installation (None).

    `corpus`: (name, text) scenarios for the consistency check, as scenario
    text or facts; by default the scenario files beside the rule base and
    the generated corpus (`corpus_items`; `quick` keeps one table per
    variant and a few random combats). The default corpus's files that
    have a `*.expected.json` are answered once, as `mtgkb run` answers
    them, for both their consistency checks and their expected answers.
    `jobs`: processes for the consistency check (default: two on a machine
    with two cores or more, for a corpus of `PARALLEL_FROM` scenarios or
    more); they begin first and check while the rule base's text is
    checked in this process.
    `progress(step, done, total)`: told of each step's progress.
    `expected`: answer the example files that have a `*.expected.json` with
    the audited rule base and report where they differ.
    `cr_file`: one CR text file, or a list of them (editions, oldest first
    or in any order: they are sorted by their dates).
    `lint_only`: the checks of the rule base's text alone (tags, CR numbers,
    clingo's complaints, messages, unused predicates, the baseline): no
    scenario is answered.
    `save_baseline`: write the rule base's baseline (`kb/audit_baseline.json`)
    from this audit, for the next ones to compare with.
    `against`: another rule base's folder: the text checks, then the corpus
    answered by both (`mtgkb.audit.against`) instead of the consistency and
    expected-answer checks.
    """
    base = Base.at(root)
    # the corpus's check first: in worker processes, it runs while the text is checked here
    pending, items, merged = None, [], False
    if not lint_only and against is None:
        if corpus is not None:
            items = [Item(name, text) for name, text in corpus]
        else:
            items, merged = corpus_items(base.root, quick, expected), True
        if jobs is None:
            jobs = min(2, os.cpu_count() or 1) if len(items) >= PARALLEL_FROM else 1
        pending = start_corpus(
            items,
            base.root if root is not None else None,
            timeout=timeout,
            jobs=jobs or 1,
            progress=progress,
        )
    with _cancelled_on_error(pending):
        lint: list[dict] = []
        index_path = base.kb / "rule_index.lp"
        index: RuleIndex | None = None
        if index_path.is_file():
            index = load_index(index_path)
        else:
            lint.append(finding("no-index", "kb/rule_index.lp is missing", "kb/rule_index.lp"))
        scans = scan(base)
        units = run_units(base)
        coverage, coverage_lint, coverage_warnings = _coverage.coverage(
            base, index, scans, _coverage.fired_by(units, [])
        )
        lint += coverage_lint
        warnings: list[dict] = []
        more_lint, more_warnings = lint_of(base, scans, index)
        lint += more_lint
        warnings += more_warnings
        unmodelled, more_lint = not_modelled_of(base, scans, index)
        lint += more_lint
        more_lint, more_warnings = unit_findings(base, units, index)
        lint += more_lint
        warnings += more_warnings
        baseline, more_warnings = _baseline.load(base)
        warnings += more_warnings
        if baseline is not None:
            lint += _baseline.lost_encodings(baseline, coverage) + _baseline.retagged(
                baseline, scans
            )
        changed = _baseline.changed_statements(baseline, scans) if baseline is not None else []
        if save_baseline:
            _baseline.save(base, coverage, scans)
        if against is not None:
            section = compare(base, Base.at(Path(against), ()), quick=quick, progress=progress)
            report = {
                "rules": coverage,
                "lint": lint,
                "warnings": warnings,
                "units": [u.as_dict() for u in units],
                "not_modelled": unmodelled,
                "against": section,
            }
            return _finish(report, base, [0] * section["scenarios"], [], [], lint, warnings)
        if lint_only:  # (what tests each rule is measured by answering scenarios: not here)
            return _finish(
                {
                    "rules": coverage,
                    "lint": lint,
                    "warnings": warnings,
                    "units": [u.as_dict() for u in units],
                    "not_modelled": unmodelled,
                    "lint_only": True,
                },
                base,
                [],
                [],
                [],
                lint,
                warnings,
            )

        # (worked out while the workers check: what the unit tests check beyond the rule they name)
        by_units = _coverage.unit_checked(base, index, scans, units)
        checked = pending.result()
        found = checked.conflicts
        scenarios = checked.checked
        texts = {item.name: item.text for item in items}
        conflicts = group_conflicts(found, base, texts, timeout, progress)

        report: dict = {
            "rules": coverage,
            "lint": lint,
            "warnings": warnings,
            "units": [u.as_dict() for u in units],
            "conflicts": conflicts,
            "not_modelled": unmodelled,
        }
        differing: list[dict] = []
        if expected:
            # the files beside the checkout were answered once, for both checks
            report["expected"] = checked.expected if merged else expected_answers(base, progress)
            differing = [e for e in report["expected"] if e["differences"]]
        # what tests each rule: the answers of the scenarios answered here, the unit tests
        coverage, _, coverage_warnings = _coverage.coverage(
            base, index, scans, _coverage.tested(units, report.get("expected", []), by_units)
        )
        report["rules"] = coverage
        if expected:
            for entry in differing:
                if changed and entry.get("file"):
                    path = Path(entry["file"])
                    text = path.read_text(encoding="utf-8")
                    entry["depends_on"] = depends_on(base, str(path), text, changed)
        warnings += coverage_warnings
        cr_files = [cr_file] if isinstance(cr_file, (str, Path)) else list(cr_file or [])
        sections, more_lint, more_warnings = editions(
            cr_files, index, scans, progress, report["rules"]
        )
        report.update(sections)
        lint += more_lint
        warnings += more_warnings
        return _finish(report, base, scenarios, found, differing, lint, warnings)


@contextmanager
def _cancelled_on_error(pending: Pending | None):
    """The corpus's workers stopped when the audit fails before it waits for them."""
    try:
        yield
    except BaseException:
        if pending is not None:
            pending.cancel()
        raise


def _finish(
    report: dict,
    base: Base,
    scenarios: list,
    found: list,
    differing: list,
    lint: list[dict],
    warnings: list[dict],
) -> dict:
    """The report with its rule base and its summary."""
    conflicts = report.get("conflicts", [])
    report["rule_base"] = RuleBase(base.root, base.extra).describe()
    report["summary"] = {
        "root": str(base.root),
        "edition": EDITION,
        **_coverage.summary(report["rules"]),
        "lint": len(lint),
        "warnings": len(warnings),
        "scenarios": len(scenarios),
        "conflicts": len(conflicts),
        "not_modelled": len({d["rule"] for d in report.get("not_modelled", [])}),
        "conflict_scenarios": len(found),
        "unit_tests": len(report.get("units", [])),
        "unit_tests_failed": sum(1 for u in report.get("units", []) if not u["ok"]),
        "expected_checked": len(report.get("expected", [])),
        "expected_differ": len(differing),
        "against_differ": len(report.get("against", {}).get("differing", [])),
        "ok": not lint
        and not conflicts
        and not differing
        and not report.get("against", {}).get("differing"),
    }
    return report
