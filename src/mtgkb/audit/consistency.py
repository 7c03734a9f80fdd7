"""Consistency over a corpus of scenarios: the examples and conformance cases
beside the checkout and the generated corpus (`mtgkb.audit.corpus`: every
table of 2-6 players across variants and options, and random combats),
checked by `mtgkb.audit.checker.Checker`, in one process or several.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from mtgkb.audit.checker import Checker
from mtgkb.rulebase.tested import example_folders

#: From how many scenarios the audit checks in two processes (on two cores or more).
PARALLEL_FROM = 24


def _check_many(
    root: Path | None, items: list[tuple[str, str, bool]], timeout: float, progress=None
) -> list[dict]:
    checker = Checker(root, timeout=timeout)
    out: list[dict] = []
    for k, (name, text, generated) in enumerate(items, start=1):
        if progress:
            progress("consistency over the scenarios", k, len(items))
        out += checker.check(name, text, generated)
    return out


def consistency(
    corpus: Iterable[tuple[str, str]],
    root: Path | None = None,
    *,
    timeout: float = 10.0,
    generated: Iterable[str] = (),
    jobs: int = 1,
    progress=None,
) -> list[dict]:
    """Conflicts over a corpus of (name, text) scenarios: scenario text (every
    check) or fact text (the checks of life totals, losses and defending players).

    Each conflict is `{"rules": [...], "scenario": name, "message": ...}`, plus
    `"at"` (the encodings of those rules) and, for the names in `generated`,
    `"text"` (the scenario, to reproduce it). `jobs` > 1 checks in that many
    processes.
    """
    made = set(generated)
    items = [(name, text, name in made) for name, text in corpus]
    if jobs <= 1 or len(items) < 2 * jobs:
        return _check_many(root, items, timeout, progress)
    chunks = [items[k::jobs] for k in range(jobs)]
    if progress:
        progress(f"consistency over the scenarios ({jobs} processes)", 0, len(items))
    parts = _in_processes(root, chunks, timeout)
    if progress:
        progress(f"consistency over the scenarios ({jobs} processes)", len(items), len(items))
    order = {name: i for i, (name, _, _) in enumerate(items)}
    return sorted((c for part in parts for c in part), key=lambda c: order.get(c["scenario"], 0))


_WORKER = "from mtgkb.audit.consistency import _worker_main; _worker_main()"


def _worker_main() -> None:
    """A worker process of `consistency(jobs=N)`: a chunk in on stdin, conflicts out on stdout."""
    data = json.load(sys.stdin)
    root = Path(data["root"]) if data["root"] is not None else None
    items = [(name, text, generated) for name, text, generated in data["items"]]
    json.dump(_check_many(root, items, data["timeout"]), sys.stdout)


def _in_processes(root: Path | None, chunks: list[list], timeout: float) -> list[list[dict]]:
    """Each chunk checked in its own Python process (`python -c`, so no caller's
    main module is imported again); a chunk whose worker fails is checked here."""
    import subprocess

    env = dict(os.environ)
    package_parent = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
    procs = []
    for _ in chunks:
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", _WORKER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        except OSError:
            proc = None
        procs.append(proc)
    for proc, chunk in zip(procs, chunks, strict=True):
        if proc is None:
            continue
        data = {"root": str(root) if root is not None else None, "items": chunk, "timeout": timeout}
        try:
            proc.stdin.write(json.dumps(data).encode("utf-8"))
            proc.stdin.close()
        except OSError:
            pass
    parts: list[list[dict]] = []
    for proc, chunk in zip(procs, chunks, strict=True):
        found = None
        if proc is not None:
            out = proc.stdout.read()
            if proc.wait() == 0:
                try:
                    found = json.loads(out)
                except ValueError:
                    found = None
        parts.append(found if found is not None else _check_many(root, chunk, timeout))
    return parts


def file_corpus(root: Path) -> list[tuple[str, str]]:
    """The scenario files of `examples/` and of the shared conformance cases beside
    the checkout, as facts; files the parser refuses (exit 2 cases) are left out."""
    from mtgkb.language.facts import facts_text, scenario_facts
    from mtgkb.language.parser import parse_text

    return [
        (name, facts_text(scenario_facts(parse_text(text, name))))
        for name, text in file_scenarios(root)
    ]


def file_scenarios(root: Path) -> list[tuple[str, str]]:
    """The scenario files of `examples/` and of the shared conformance cases beside
    the checkout, as their text; files the parser refuses (exit 2 cases) are left out."""
    from mtgkb.language.errors import ScenarioError
    from mtgkb.language.parser import parse_text

    out = []
    for folder, name in example_folders(Path(root)):
        for path in sorted(folder.glob("*.mtg")):
            try:
                text = path.read_text(encoding="utf-8")
                parse_text(text, f"{name}/{path.name}")
            except (ScenarioError, OSError, UnicodeDecodeError):
                continue
            out.append((f"{name}/{path.name}", text))
    return out


def generated_corpus(quick: bool = False) -> list[tuple[str, str]]:
    """Every table of 2-6 players across the variants and options of the
    language, and random combats (`mtgkb.audit.corpus`), as scenario text.
    `quick`: one table per variant and a few combats."""
    from mtgkb.audit import corpus

    return corpus.generated_corpus("quick" if quick else "full")
