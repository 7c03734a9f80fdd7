"""`mtgkb audit`, the command: its options, its progress line, its exit status."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mtgkb.audit.render import to_json, to_markdown, to_text
from mtgkb.audit.report import audit


def progress_printer(enabled: bool):
    """A `progress(step, done, total)` that writes one updating line on stderr, or None."""
    if not enabled:
        return None
    state = {"step": None}

    def show(step: str, done: int, total: int) -> None:
        if state["step"] not in (None, step):
            print(file=sys.stderr)
        state["step"] = step
        end = "\n" if done >= total else ""
        print(f"\rmtgkb audit: {step}: {done}/{total}", end=end, file=sys.stderr, flush=True)
        if done >= total:
            state["step"] = None

    return show


def audit_command(args: argparse.Namespace) -> int:
    """`mtgkb audit [--json | --markdown] [--cr FILE]... [--progress] [--timeout S]`: exit 1 on
    lint, conflicts or examples whose answers differ from their expectation."""
    cr = getattr(args, "cr", None)
    crs = [cr] if isinstance(cr, (str, Path)) else list(cr or [])
    for f in crs:
        if not Path(f).is_file():
            print(f"mtgkb audit: {f}: no such file", file=sys.stderr)
            return 2
    chosen = getattr(args, "chosen_rule_base", None)
    faults = chosen.grounding_errors() if chosen is not None else []
    if faults:
        # a program clingo cannot read or ground: bad input, said as clingo says it
        print("\n".join(faults), file=sys.stderr)
        return 2
    shown = getattr(args, "progress", False) or sys.stderr.isatty()
    options = {"progress": progress_printer(shown)}
    if getattr(args, "quick", False):
        options["quick"] = True
    if getattr(args, "lint", False):
        options["lint_only"] = True
    against = getattr(args, "against", None)
    if against is not None:
        if not all((Path(against) / d).is_dir() for d in ("rules", "kb")):
            print(f"mtgkb audit: {against}: not a rule base (no rules/ and kb/)", file=sys.stderr)
            return 2
        options["against"] = Path(against)
    if getattr(args, "save_baseline", False):
        options["save_baseline"] = True
    if getattr(args, "timeout", None) is not None:
        options["timeout"] = args.timeout
    try:
        report = audit(None, [Path(f) for f in crs] or None, **options)
    except ValueError as err:
        print(f"mtgkb audit: {err}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(to_json(report))
    elif getattr(args, "markdown", False):
        print(to_markdown(report), end="")
    else:
        print(to_text(report))
    return 0 if report["summary"]["ok"] else 1


def unit_test_command(args: argparse.Namespace) -> int:
    """`mtgkb test [--json]`: the rule base's own unit tests (`tests/units/*.toml`,
    mtgkb.audit.units); exit 1 when one fails, 0 when all pass (or there are none)."""
    import json

    from mtgkb.audit.sources import Base
    from mtgkb.audit.units import UNITS_FOLDER, run_units

    base = Base.at(None)
    results = run_units(base)
    if getattr(args, "json", False):
        print(json.dumps([r.as_dict() for r in results], ensure_ascii=False, indent=1))
    else:
        if not results:
            print(f"mtgkb test: no unit tests in {base.root / UNITS_FOLDER}")
        for r in results:
            rule = f" ({r.rule})" if r.rule else ""
            mark = "ok  " if r.ok else "FAIL"
            print(f"{mark} {r.file}: {r.name}{rule}")
            if not r.ok:
                print(f"     {r.message}")
        failed = sum(1 for r in results if not r.ok)
        print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if any(not r.ok for r in results) else 0
