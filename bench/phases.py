"""Where one cold `mtgkb run --json FILE` spends its time, phase by phase
(`python -m bench.phases RUNS FILE`: in fresh processes, prints JSON); and
where a batch scenario's does (`python -m bench.phases --batch RUNS
FILE...`, `batch_run`: `mtgkb run --jsonl --jobs 1` over the files, their
chunks answered in one warm process, each phase per scenario).

Each phase is the time inside one function (its own time only: a phase
called inside another is counted in the inner one), measured by wrapping it
in a process that then runs `mtgkb run --json FILE` as the command line does:

- modules imported: every module the run imports after `import clingo,
  lark` (mtgkb's, and the standard library's the floor does not import),
  when the import statement runs, as the run goes;
- Lark: `load_tables` (the shipped parser tables loaded) and `Lark.parse`
  (the file parsed): the floor's Lark parse does the same;
- scenario built: `read_text` past Lark (the tree read into a scenario);
- scenario checked: `validate_scenario` (the file's checks, their
  grounding included);
- facts: `scenario_facts` (the scenario as clingo symbols);
- rule base read: `Engine.rule_base` (the rule files read, their citations
  generated);
- caches read and checked: `disk_cache.load_checked` (the slicing analysis
  and the input checks' statements, or the slices remembered of both: the
  file read, its digest, marshal, and the check of every value; the words
  and the vocabulary);
- rule base digest: `location.digest_of` (every file of the rule base read
  and hashed, for the `digest` an answer names);
- program given to clingo: `Control.add`, `DescribedProgram.add` and
  `add_statements` (clingo parsing the statements kept, or adding them
  parsed);
- slicing: `DescribedProgram.sources`, `.live` and `Analysis.needed`
  (which statements a grounding keeps), or `SliceMemo.looked_up` (the
  slice remembered: mtgkb.engine.slice_memo; its file read and checked is
  a cache's);
- gringo: `Control.ground`; clasp: `Control.solve` (but the models read);
- models read: `Model.symbols` (a model's atoms read into Python);
- the chunk's own work, in a batch (mtgkb.running.batch): its input checks
  (`input_errors_many`: the tables made into facts, their checks read),
  the rules not modelled (`not_modelled_ahead`), the facts given to clingo
  (`chunk_control`: a chunk's Control made, its statements added, its
  facts given) and the statements its grounding keeps (slicing:
  `ScenarioProgram.live`);
- answers made: `answer_scenario` (a file's answers made from its models,
  past the phases it calls: in a batch, where the chunk's models are read);
- listings: `first_or_every` (the first models of a listing in the
  canonical order: its atoms read and ranked, its solves' own Python) and
  `first_declarations` (the first blocks read from the counting forms, with
  their count: the walk's counts included);
- counts: `count_space` (an exact count from the derived forms);
- clingo's parser (syntax trees): `clingo.ast.parse_string` and
  `parse_files` (a rule file's statements as syntax trees, for `ask
  explain`, the generated citations, the queries merged);
- explain's own: the rule files scanned (`scan_kept`, `scan_file`), the traced
  programs made (`traced_program`), the graphs read from the models
  (`Graph.of`), the trees built (`Builder.tree`), the minimal cores'
  Python (`forbidden_plays`, its groundings and solves apart);
- other: the rest of the run (the Python around the groundings and
  solves, the answers made and written).

Every figure is the least of RUNS runs, each in a fresh process. The
phases are read by wrapping functions by name: a phase whose function is
renamed is reported missing, not silently zero.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (phase, module, qualified name of the function it is the time inside)
PHASES = (
    ("Lark", "mtgkb.language.grammar_build", "load_tables"),
    ("Lark", "lark.lark", "Lark.parse"),
    ("scenario built", "mtgkb.language.parser", "read_text"),
    ("scenario checked", "mtgkb.language.json_state", "validate_scenario"),
    ("facts", "mtgkb.language.facts", "scenario_facts"),
    ("rule base read", "mtgkb.engine.state", "Engine.rule_base"),
    ("caches read and checked", "mtgkb.rulebase.disk_cache", "load_checked"),
    ("rule base digest", "mtgkb.rulebase.location", "digest_of"),
    ("program given to clingo", "clingo.control", "Control.add"),
    ("program given to clingo", "mtgkb.engine.analysis", "DescribedProgram.add"),
    ("slicing", "mtgkb.engine.analysis", "DescribedProgram.sources"),
    ("slicing", "mtgkb.engine.analysis", "DescribedProgram.live"),
    ("slicing", "mtgkb.engine.analysis", "Analysis.needed"),
    ("slicing", "mtgkb.engine.slice_memo", "SliceMemo.looked_up"),
    ("slicing", "mtgkb.engine.scenarios", "ScenarioProgram.live"),
    ("input checks", "mtgkb.language.checks", "input_errors_many"),
    ("not modelled", "mtgkb.questions.answers", "not_modelled_ahead"),
    ("facts given to clingo", "mtgkb.engine.scenarios", "chunk_control"),
    ("answers made", "mtgkb.running.runner", "answer_scenario"),
    ("gringo", "clingo.control", "Control.ground"),
    ("clasp", "clingo.control", "Control.solve"),
    ("models read", "clingo.solving", "Model.symbols"),
    ("listings", "mtgkb.engine.listing", "first_or_every"),
    ("listings", "mtgkb.engine.first_declarations", "first_declarations"),
    ("counts", "mtgkb.engine.classes", "count_space"),
    ("program given to clingo", "mtgkb.engine.cores", "add_statements"),
    ("explain: rule files scanned", "mtgkb.rulebase.encoded", "scan_kept"),
    ("explain: rule files scanned", "mtgkb.rulebase.encoded", "scan_file"),
    ("clingo's parser (syntax trees)", "clingo.ast", "parse_string"),
    ("clingo's parser (syntax trees)", "clingo.ast", "parse_files"),
    ("explain: traced programs made", "mtgkb.questions.explain.trace", "traced_program"),
    ("explain: graphs read", "mtgkb.questions.explain.graph", "Graph.of"),
    ("explain: trees built", "mtgkb.questions.explain.tree", "Builder.tree"),
    ("explain: minimal cores", "mtgkb.questions.explain.forbidden", "forbidden_plays"),
)

#: The order the phases are reported in.
ORDER = (
    "modules imported",
    *dict.fromkeys(phase for phase, _, _ in PHASES),
    "other",
)


class Clock:
    """Each phase's own time: a stack of the phases under way, the time of
    an inner one taken off the outer one's."""

    def __init__(self) -> None:
        self.own: dict[str, float] = {}
        self._stack: list[list] = []  # [phase, start, time of inner phases]

    def wrap(self, phase: str, function):
        clock = self

        def timed(*args, **kwargs):
            clock._stack.append([phase, time.perf_counter(), 0.0])
            try:
                return function(*args, **kwargs)
            finally:
                name, start, inner = clock._stack.pop()
                spent = time.perf_counter() - start
                clock.own[name] = clock.own.get(name, 0.0) + spent - inner
                if clock._stack:
                    clock._stack[-1][2] += spent

        timed.__wrapped__ = function
        return timed


def located(module_name: str, qualified: str) -> tuple[object, str, object] | None:
    """Where a phase's function is: (its owner, a module or a class; its
    name there; the function), None when it is not there (renamed)."""
    owner = importlib.import_module(module_name)
    *path, name = qualified.split(".")
    for part in path:
        owner = getattr(owner, part, None)
    function = getattr(owner, name, None) if owner is not None else None
    return None if function is None else (owner, name, function)


def install(clock: Clock) -> list[str]:
    """Wrap every phase's function, where it is defined and wherever a
    loaded module holds it by name; the phases whose function is missing."""
    missing = []
    for phase, module_name, qualified in PHASES:
        found = located(module_name, qualified)
        if found is None:
            missing.append(f"{phase} ({module_name}.{qualified})")
            continue
        owner, name, original = found
        timed = clock.wrap(phase, original)
        setattr(owner, name, timed)
        if isinstance(owner, type(sys)):  # a module's function: also where it was imported
            for module in list(sys.modules.values()):
                if getattr(module, "__name__", "").startswith("mtgkb") and (
                    getattr(module, name, None) is original
                ):
                    setattr(module, name, timed)
    return missing


def _timed_imports(clock: Clock) -> None:
    """The import statement timed as "modules imported" when it loads a
    module (one already loaded is looked up untimed)."""
    import builtins

    original = builtins.__import__
    timed = clock.wrap("modules imported", original)

    def importing(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name in sys.modules and not fromlist:
            return original(name, globals, locals, fromlist, level)
        return timed(name, globals, locals, fromlist, level)

    builtins.__import__ = importing


def one_run(path: str) -> dict:
    """The phases of one cold run of `mtgkb run --json path`, in this
    (fresh) process, in seconds."""
    import clingo  # noqa: F401  (the floor's own imports: not counted)
    import lark  # noqa: F401

    clock = Clock()
    _timed_imports(clock)
    start = time.perf_counter()
    import mtgkb.cli

    missing = install(clock)
    with contextlib.redirect_stdout(io.StringIO()):
        mtgkb.cli.main(["run", "--json", path])
    total = time.perf_counter() - start
    phases = dict(clock.own)
    phases["other"] = total - sum(clock.own.values())
    return {"phases": phases, "total": total, "missing": missing}


#: What clingo and Lark do themselves, of the phases: the rest is mtgkb's
#: own Python (and the imports).
CLINGO_AND_LARK = ("Lark", "gringo", "clasp", "models read")


def batch_run(paths: list[str]) -> dict:
    """The phases of `mtgkb run --jsonl --jobs 1` over `paths`, warm, in
    this (fresh) process, each in seconds: the marginal cost of a scenario,
    as the issue 26 figure takes it (the run of all the files less the run
    of their first chunk, over the files between). Its chunks are answered
    here (MTGKB_POOL=0), as a worker answers them: combined, past
    COMBINE_FROM files (mtgkb.running.batch). Warmed up first on that chunk
    (a batch's worker is warm past its first chunk)."""
    import clingo  # noqa: F401  (the floor's own imports: not counted)
    import lark  # noqa: F401

    os.environ["MTGKB_POOL"] = "0"
    import mtgkb.cli
    from mtgkb.running.batch import CHUNK

    clock = Clock()
    missing = install(clock)
    first = paths[:CHUNK] if len(paths) > CHUNK else []

    def timed(files: list[str]) -> tuple[dict[str, float], float]:
        clock.own.clear()
        start = time.perf_counter()
        if files:
            mtgkb.cli.main(["run", "--jsonl", "--jobs", "1", *files])
        return dict(clock.own), time.perf_counter() - start

    with contextlib.redirect_stdout(io.StringIO()):
        timed(paths[:CHUNK])
        before, before_total = timed(first)
        after, total = timed(paths)
    between = len(paths) - len(first)
    share = (total - before_total) / between
    phases = {name: (after[name] - before.get(name, 0.0)) / between for name in after}
    phases["other"] = share - sum(phases.values())
    return {"phases": phases, "total": share, "missing": missing}


def measure_batch(paths: list[str], runs: int, env: dict | None = None) -> dict:
    """`batch_run` in `runs` fresh processes: the one that took least (its
    phases adding up to its total, for a note that splits them)."""
    found = [_fresh(["--batch-one", *paths], env) for _ in range(runs)]
    return min(found, key=lambda run: run["total"])


def measure(path: str, runs: int, env: dict | None = None) -> dict:
    """Each phase the least of `runs` fresh processes (`one_run`), run with
    `env` (None: this process's environment)."""
    return _least([_fresh(["--one", path], env) for _ in range(runs)])


def _fresh(arguments: list[str], env: dict | None) -> dict:
    """What `python -m bench.phases ARGUMENTS` prints, run in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.phases", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    if done.returncode != 0:
        raise RuntimeError(f"bench.phases {arguments[0]} did not run: {done.stderr.strip()}")
    return json.loads(done.stdout)


def _least(found: list[dict]) -> dict:
    """Each phase the least of several runs' (and the least total)."""
    phases = {p: min(run["phases"].get(p, 0.0) for run in found) for p in ORDER}
    return {
        "phases": phases,
        "total": min(run["total"] for run in found),
        "missing": sorted({m for run in found for m in run["missing"]}),
    }


def clingo_and_lark(measured: dict) -> float:
    """The seconds clingo and Lark spend of a measure's phases (CLINGO_AND_LARK)."""
    return sum(measured["phases"].get(name, 0.0) for name in CLINGO_AND_LARK)


def described(measured: dict, floor: float, largest: int = 6) -> str:
    """The largest phases / floor, in one line."""
    phases = sorted(measured["phases"].items(), key=lambda item: -item[1])[:largest]
    text = ", ".join(f"{name} {seconds / floor:.2f}" for name, seconds in phases)
    if measured["missing"]:
        text += "; not measured (renamed?): " + ", ".join(measured["missing"])
    return text


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        print(json.dumps(one_run(sys.argv[2])))
    elif sys.argv[1] == "--batch-one":
        print(json.dumps(batch_run(sys.argv[2:])))
    elif sys.argv[1] == "--batch":
        print(json.dumps(measure_batch(sys.argv[3:], int(sys.argv[2]))))
    else:
        print(json.dumps(measure(sys.argv[2], int(sys.argv[1]))))
