"""Consistency over a corpus of scenarios: the examples and conformance cases
beside the checkout and the generated corpus (`mtgkb.audit.corpus`: every
table of 2-6 players across variants and options, and random combats),
checked by `mtgkb.audit.checker.Checker`, in one process or several (the
workers start first: `start_corpus`, `Pending.result`). The files with a
`*.expected.json` are answered once, as `mtgkb run` answers them, for both
their expected answers (mtgkb.audit.expected) and their consistency checks.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from mtgkb.audit.checker import Case, Checker
from mtgkb.language.facts import scenario_facts
from mtgkb.rulebase.tested import example_folders

#: From how many scenarios the audit checks in two processes (on two cores or more).
PARALLEL_FROM = 24


@dataclass(frozen=True)
class Item:
    """One scenario of the corpus: its name and text; `generated` (a refused
    one is a finding, reported with its text); `path`, for a file beside the
    checkout (one the parser refuses is left out, as `file_scenarios` does);
    `expectation`, the file's `*.expected.json` to compare its answers with
    (mtgkb.audit.expected: answered once, for both checks)."""

    name: str
    text: str
    generated: bool = False
    path: str | None = None
    expectation: str | None = None
    readable: bool = True  # (a file that cannot be read or decoded is compared only)


@dataclass
class Checked:
    """What checking a corpus found: the conflicts (in the corpus's order),
    the files compared with their expectations, and the names of the
    scenarios checked (the files the parser refuses are not)."""

    conflicts: list[dict] = field(default_factory=list)
    expected: list[dict] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"conflicts": self.conflicts, "expected": self.expected, "checked": self.checked}


def _check_many(
    root: Path | None, items: list[Item], timeout: float, progress=None, step: str = ""
) -> Checked:
    """A chunk of the corpus checked in this process: each file with an
    expectation answered once, as `mtgkb run` answers it, for both checks;
    the models of the single-model questions, and of `ask legal` on the plays
    fed back, solved for the whole chunk at once (Checker.solve_ahead)."""
    from mtgkb.audit.expected import answer_read, entry_of, read_case
    from mtgkb.language.json_state import is_state
    from mtgkb.running.runner import FileResult, parse_or_fail

    checker = Checker(root, timeout=timeout)
    out = Checked()
    with checker.base.in_use():
        session = checker.chunk_session()
        engine = session.engine
        runs: dict[int, tuple] = {}  # item -> (expectation, data, what the run parsed)
        cases: dict[int, Case] = {}
        for k, item in enumerate(items):
            if item.expectation is not None:
                path = Path(item.path)
                try:
                    expected, data = read_case(path)
                except (OSError, ValueError) as err:
                    runs[k] = (str(err), None, None)
                else:
                    runs[k] = (expected, data, parse_or_fail(data, str(path)))
            if not item.readable:
                continue
            # a file the parser refuses is left out (its expectation is compared)
            run = runs.get(k, (None, None, None))[2]
            usable = run is not None and not isinstance(run, FileResult) and not is_state(item.text)
            found = checker.case(
                item.name, item.text, item.generated, item.path is None, run if usable else None
            )
            if isinstance(found, Case):
                cases[k] = found
            elif found is not None:
                out.checked.append(item.name)
                out.conflicts += found
        parsed = [run[2] for run in runs.values() if run[2] is not None]
        checker.ahead_of(
            [Case("", scenario_facts(sc), sc) for sc in parsed if not isinstance(sc, FileResult)]
            + [case for k, case in cases.items() if k not in runs],
            session,
        )
        given: dict[int, list | None] = {}
        for k, (expected, data, scenario) in runs.items():
            item = items[k]
            if data is None:
                out.expected.append({"scenario": item.name, "differences": [expected]})
                continue
            path = Path(item.path)
            result = answer_read(path, data, scenario, engine, session)
            out.expected.append(entry_of(path, item.name, expected, result))
            answers = result.output.get("answers") if isinstance(result.output, dict) else None
            given[k] = answers if isinstance(answers, list) else None
        order = sorted(cases)

        def told(done: int, total: int) -> None:
            if progress:
                progress(step or "consistency over the scenarios", done, total)

        found_each = checker.check_many([(cases[k], given.get(k)) for k in order], session, told)
        for k, found in zip(order, found_each, strict=True):
            out.checked.append(items[k].name)
            out.conflicts += found
    order_of = {item.name: i for i, item in enumerate(items)}
    out.checked.sort(key=lambda name: order_of.get(name, 0))
    out.conflicts.sort(key=lambda c: order_of.get(c["scenario"], 0))
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
    items = [Item(name, text, name in made) for name, text in corpus]
    return check_corpus(items, root, timeout=timeout, jobs=jobs, progress=progress).conflicts


def check_corpus(
    items: list[Item],
    root: Path | None = None,
    *,
    timeout: float = 10.0,
    jobs: int = 1,
    progress=None,
) -> Checked:
    """`start_corpus(...).result()`: the corpus checked now."""
    return start_corpus(items, root, timeout=timeout, jobs=jobs, progress=progress).result()


def start_corpus(
    items: list[Item],
    root: Path | None = None,
    *,
    timeout: float = 10.0,
    jobs: int = 1,
    progress=None,
) -> Pending:
    """The corpus's check begun: in `jobs` worker processes (each a part of
    the corpus, taken in turn) when jobs > 1 and the corpus has two items a
    job, so that the caller can do other work meanwhile; else in this
    process, at `result()`."""
    if jobs <= 1 or len(items) < 2 * jobs:
        return Pending(root, items, timeout, progress)
    chunks = [items[k::jobs] for k in range(jobs)]
    return Pending(root, items, timeout, progress, chunks)


class Pending:
    """A corpus's check under way (`start_corpus`); `result()` waits for it."""

    def __init__(self, root, items, timeout, progress=None, chunks=None):
        self.root, self.items, self.timeout, self.progress = root, items, timeout, progress
        self.chunks = chunks
        self.workers = [] if chunks is None else [_Worker(root, c, timeout) for c in chunks]

    def cancel(self) -> None:
        """Stop the workers (their checks are not wanted any more)."""
        for worker in self.workers:
            if worker.proc is not None and worker.proc.poll() is None:
                worker.proc.kill()

    def result(self) -> Checked:
        progress = self.progress
        if self.chunks is None:
            return _check_many(self.root, self.items, self.timeout, progress)
        step = f"consistency over the scenarios ({len(self.chunks)} processes)"
        if progress:
            progress(step, 0, len(self.items))
        parts = [w.result() for w in self.workers]
        if progress:
            progress(step, len(self.items), len(self.items))
        order = {item.name: i for i, item in enumerate(self.items)}
        out = Checked()
        for part in parts:
            out.conflicts += part.conflicts
            out.expected += part.expected
            out.checked += part.checked
        out.conflicts.sort(key=lambda c: order.get(c["scenario"], 0))
        by_file = {item.path: i for i, item in enumerate(self.items) if item.path is not None}
        out.expected.sort(key=lambda e: by_file.get(e.get("file"), order.get(e["scenario"], 0)))
        out.checked.sort(key=lambda name: order.get(name, 0))
        return out


_WORKER = "from mtgkb.audit.consistency import _worker_main; _worker_main()"


def _worker_main() -> None:
    """A worker process of a corpus's check: a chunk in on stdin, what it
    found out on stdout."""
    data = json.load(sys.stdin)
    root = Path(data["root"]) if data["root"] is not None else None
    items = [Item(**item) for item in data["items"]]
    json.dump(_check_many(root, items, data["timeout"]).as_dict(), sys.stdout)


class _Worker:
    """One chunk checked in its own Python process (`python -c`, so no
    caller's main module is imported again), fed and read by a thread of
    this one; a chunk whose worker fails is checked here, at `result()`."""

    def __init__(self, root: Path | None, chunk: list[Item], timeout: float):
        import subprocess
        import threading

        self.root, self.chunk, self.timeout = root, chunk, timeout
        self.found: Checked | None = None
        env = dict(os.environ)
        package_parent = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _WORKER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        except OSError:
            self.proc = None
            self.thread = None
            return
        data = {
            "root": str(root) if root is not None else None,
            "items": [asdict(item) for item in chunk],
            "timeout": timeout,
        }
        self.thread = threading.Thread(target=self._talk, args=(json.dumps(data),), daemon=True)
        self.thread.start()

    def _talk(self, data: str) -> None:
        try:
            out, _ = self.proc.communicate(data.encode("utf-8"))
        except OSError:
            return
        if self.proc.returncode == 0:
            try:
                found = json.loads(out)
                self.found = Checked(found["conflicts"], found["expected"], found["checked"])
            except (ValueError, KeyError, TypeError):
                self.found = None

    def result(self) -> Checked:
        if self.thread is not None:
            self.thread.join()
        if self.found is None:
            return _check_many(self.root, self.chunk, self.timeout)
        return self.found


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


def corpus_items(root: Path, quick: bool = False, expected: bool = True) -> list[Item]:
    """The audit's corpus: the scenario files of `examples/` and of the shared
    conformance cases beside the checkout (each with its `*.expected.json`
    when `expected` and it has one; a file the parser refuses is checked
    against its expectation only), then the generated corpus."""
    from mtgkb.audit.expected import expectation_of

    out = []
    for folder, name in example_folders(Path(root)):
        for path in sorted(folder.glob("*.mtg")):
            wanted = expectation_of(path) if expected else None
            try:
                text, readable = path.read_text(encoding="utf-8"), True
            except (OSError, UnicodeDecodeError):
                if wanted is None:
                    continue
                text, readable = "", False
            out.append(
                Item(
                    f"{name}/{path.name}",
                    text,
                    path=str(path),
                    expectation=str(wanted) if wanted is not None else None,
                    readable=readable,
                )
            )
    return out + [Item(name, text, True) for name, text in generated_corpus(quick)]


def generated_corpus(quick: bool = False) -> list[tuple[str, str]]:
    """Every table of 2-6 players across the variants and options of the
    language, and random combats (`mtgkb.audit.corpus`), as scenario text.
    `quick`: one table per variant and a few combats."""
    from mtgkb.audit import corpus

    return corpus.generated_corpus("quick" if quick else "full")
