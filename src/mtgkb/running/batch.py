"""Batch work: many scenario files in one process, a local process pool or on Dask.

All give the answers of `runner.answer_text` file by file, in input order,
one FileResult per file (so `--jsonl` can stream them as they come).

Files are answered in chunks. Without a time-out, the questions of a chunk
that have one answer per scenario (`ask legal`, `outcome`, `defending`,
`attack targets`, `can ... pay`) are grounded and solved together, one
grounding per kind of question (mtgkb.engine.scenarios.solve_many): the rule base's
set-up is paid once per chunk, not once per file. With a time-out each file
is answered on its own, in a child process bounded by it.

One engine (mtgkb.engine.state.Engine) answers every chunk of a run in this
process or in its recycled worker (which inherits it); each chunk has its
own session (mtgkb.engine.session.Session), which holds the models solved
ahead for it. The workers of `--jobs` (a mtgkb.running.pool.Pool) hold the
run's engine, forked after it read the rule base; Dask's workers make one
per chunk (a task cannot carry one).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator

from mtgkb.engine.session import Session
from mtgkb.engine.state import Engine
from mtgkb.language.checks import say
from mtgkb.language.parser import ReadTimeout, read_source
from mtgkb.questions.answers import Limits, SameFacts
from mtgkb.running.deadline import DeadlineExceeded
from mtgkb.running.runner import (
    EXIT_INPUT,
    EXIT_TIMEOUT,
    FileResult,
    answer_scenario,
    answer_text,
    read_or_fail,
    release_session,
    validate_or_fail,
)

PROGRESS_FROM = 20  # files: fewer finish before a bar is worth drawing
CHUNK = 32  # files answered together
# Solving a chunk's scenarios at once first rewrites the rule base for it
# (about 0.3 s a query, once per engine): measured, it pays from about 18
# files of 4 players x 8 creatures (2 files: 0.80 s against 0.25 s alone;
# 32 files: 1.73 s against 2.15 s). Fewer files are answered one by one,
# unless the engine has the rewritten programs already.
COMBINE_FROM = 16
# Without --jobs, a large run uses at most this many workers: each holds its
# own groundings and engine (measured: up to 163 MB resident each over 200
# files of 4 players x 8 creatures), so a many-CPU machine is not filled
# with them unasked.
DEFAULT_JOBS_MOST = 8

Item = tuple[str, bytes | str | None, str | None]  # name, bytes or text (None: read it), read error


class _ReadStopped(str):
    """The message of an input the time-out stopped reading (exit 3)."""


def read_input(path: str, timeout: float | None = None, lang: str = "en") -> Item:
    """The name, bytes and read error of one input ('-' is standard input):
    at most the size limit plus one byte, within `timeout` seconds if given;
    the error said in `lang`."""
    name = "<stdin>" if path == "-" else path
    try:
        return name, read_source(path, timeout), None
    except ReadTimeout as err:
        stopped = say("read_stopped", lang, err.message(lang))
        return name, None, _ReadStopped(f"{name}: error: {stopped}")
    except (OSError, ValueError) as err:
        reason = getattr(err, "strerror", None) or err
        return name, None, f"{name}:1:1: error: {say('read_failed', lang, reason)}"


def _unreadable(name: str, error: str) -> FileResult:
    if isinstance(error, _ReadStopped):
        return FileResult(name, EXIT_TIMEOUT, {"file": name, "error": "timeout"}, str(error))
    return FileResult(name, EXIT_INPUT, {"file": name, "error": error}, error)


def _read_timed(path: str, limits: Limits) -> tuple[Item, float]:
    """Read one input within the time-out; the item and the seconds spent."""
    start = time.monotonic()
    item = read_input(path, limits.timeout, limits.lang)
    return item, time.monotonic() - start


def answer_path(path: str, limits: Limits, engine: Engine | None = None) -> FileResult:
    """Read and answer one file on its own."""
    (name, data, error), spent = _read_timed(path, limits)
    if error is not None:
        return _unreadable(name, error)
    return _answer_data((name, data), limits, spent, engine)


def _answer_data(
    item: tuple[str, bytes], limits: Limits, spent: float = 0.0, engine: Engine | None = None
) -> FileResult:
    name, data = item
    result = answer_text(data, name, limits, spent, engine)
    result.exception = None  # exceptions need not travel back from a worker
    return result


def _answer_chunk_named(items: list[Item], limits: Limits) -> list[FileResult]:
    """`_answer_chunk` on a Dask worker: each answer names the worker's rule base."""
    engine = Engine()
    base = engine.describe()
    results = _answer_chunk(items, limits, engine)
    for result in results:
        result.output.setdefault("rule_base", base)
    return results


def answer_together(items: list[Item], limits: Limits, engine: Engine) -> list[FileResult]:
    """Answer `items` as one chunk, their questions with one answer per
    scenario solved together however few they are (the requests a server
    gathers: its workers keep the engine's chunk programs from one chunk to
    the next, mtgkb.running.pool). `limits` has no time-out: the caller
    bounds the whole chunk."""
    return _answer_chunk(items, limits, engine, always=True)


def answer_group_in_worker(items: list[Item], limits: Limits, engine: Engine | None = None) -> list:
    """A worker's task (mtgkb.running.pool) for the requests a server
    gathered: `items` (name, scenario text, None) answered as one chunk
    (answer_together), `limits` without a time-out (the pool bounds the
    task); each result's exception made to travel back."""
    from mtgkb.running.pool import as_task

    return as_task(lambda: answer_together(items, limits, engine or Engine()))


def answer_group(
    items: list[Item],
    limits: Limits,
    workers=None,
    engine: Engine | None = None,
    timeout: float | None = None,
) -> list[FileResult | None] | None:
    """`items` (name, text, None) answered as one chunk (answer_together,
    `limits` without a time-out): in one task of `workers` (a
    mtgkb.running.pool.Pool, with its engine) bounded by `timeout` and the
    memory bound of `limits`, else in this process with `engine`. Each
    result, or None where the item is to be answered again alone (its answer
    in the chunk is an input error, which alone says where, with its line
    and column, or a time-out); None for all when the chunk was not answered
    (stopped, its memory bound, a worker lost, a failure): what each answers
    is what it answers alone (the server's gathered requests, run_many)."""
    try:
        if workers is None:
            results = answer_together(items, limits, engine or Engine())
        else:
            from mtgkb.running.pool import task_memory

            results = workers.call(
                answer_group_in_worker,
                items,
                limits,
                timeout=timeout,
                memory=task_memory(limits),
                with_engine=True,
            )
    except Exception:  # noqa: BLE001 - stopped, lost or failed: each is answered alone
        return None
    return [None if r.status in (EXIT_INPUT, EXIT_TIMEOUT) else r for r in results]


def _answer_chunk(
    items: list[Item], limits: Limits, engine: Engine | None = None, always: bool = False
) -> list[FileResult]:
    """Answer a chunk of inputs with `engine` (a fresh one when not given);
    questions with one answer per scenario are solved for the whole chunk at
    once (without a time-out, unless the engine's `combine` is off, or the
    chunk is too small to pay for it, COMBINE_FROM, and not `always`)."""
    engine = Engine() if engine is None else engine
    few = len(items) < COMBINE_FROM and not engine.scenario_programs and not always
    if limits.timeout is not None or not engine.options.combine or few:
        return [_answer_item(item, limits, engine) for item in items]
    try:
        return _answer_combined(items, limits, engine)
    except MemoryError:
        pass  # (leave the handler first: its traceback holds the grounding)
    # One file of the chunk outgrew the memory bound: answer each on its own,
    # so that only that file says so.
    release_session(limits)
    return [_answer_item(item, limits, engine) for item in items]


def _answer_item(item: Item, limits: Limits, engine: Engine | None = None) -> FileResult:
    """One input on its own: read within the time-out (unless read already),
    then answered in what is left of it."""
    name, data, error = item
    spent = 0.0
    if data is None and error is None:
        (name, data, error), spent = _read_timed(name, limits)
    if error is not None:
        return _unreadable(name, error)
    return _answer_data((name, data), limits, spent, engine)


def _answer_combined(items: list[Item], limits: Limits, engine: Engine) -> list[FileResult]:
    loaded: list[Item] = [
        read_input(n, lang=limits.lang) if d is None and e is None else (n, d, e)
        for n, d, e in items
    ]
    from mtgkb.engine.scenarios import Readings, solve_many
    from mtgkb.language.checks import input_errors_many
    from mtgkb.language.facts import fact_arguments, fact_signatures, scenario_facts
    from mtgkb.questions import answers

    read: list = []
    for name, data, error in loaded:
        if error is not None:
            read.append(_unreadable(name, error))
        else:
            read.append(read_or_fail(data, name, limits.lang))
    # the tables' input checks, in one grounding for the chunk (a table
    # without players is refused before its checks; one the chunk could not
    # solve is checked alone)
    places = [i for i, sc in enumerate(read) if not isinstance(sc, FileResult) and sc.players]
    solved = input_errors_many([read[i] for i in places]) if places else None
    checked = dict(zip(places, solved, strict=True)) if solved is not None else {}
    parsed: list = []
    for i, ((name, _, _), scenario) in enumerate(zip(loaded, read, strict=True)):
        if not isinstance(scenario, FileResult):
            scenario = validate_or_fail(scenario, name, limits.lang, checked.get(i))
        if isinstance(scenario, FileResult):
            scenario.exception = None  # exceptions need not travel back from a worker
            parsed.append(scenario)
            continue
        parsed.append((name, scenario, scenario_facts(scenario)))
    # query -> [(its ahead key, its facts, the file's place)]
    work: dict[str, list[tuple]] = {}
    for place, entry in enumerate(parsed):
        if isinstance(entry, FileResult):
            continue
        _, scenario, facts = entry
        for query, own in answers.single_model_solves(scenario, facts):
            work.setdefault(query, []).append((answers.ahead_key(scenario, query, own), own, place))
    session = Session(engine)  # the chunk's: its models solved ahead
    # the rules not modelled on each file's facts, in one grounding
    answers.not_modelled_ahead([e[2] for e in parsed if not isinstance(e, FileResult)], session)
    readings = Readings()  # the chunk's facts, read from clingo once for its queries
    file_facts = {i: e[2] for i, e in enumerate(parsed) if not isinstance(e, FileResult)}
    for query in _solved_together(work, file_facts, session, engine, readings):
        del work[query]
    for query, instances in work.items():
        if len(instances) < 2:
            continue
        facts = [own for _, own, _ in instances]
        models = solve_many(
            query,
            facts,
            engine=engine,
            readings=readings,
            signatures=[fact_signatures(own) for own in facts],
            arguments=[fact_arguments(own) for own in facts],
        )
        if models is None:
            continue
        for (key, _, _), model in zip(instances, models, strict=True):
            session.ahead[key] = answers.shown_model(query, model)
    results = []
    for entry in parsed:
        if isinstance(entry, FileResult):
            results.append(entry)
            continue
        name, scenario, facts = entry
        results.append(answer_scenario(scenario, name, limits, facts, session))
    return results


def _solved_together(
    work: dict, file_facts: dict, session: Session, engine: Engine, readings
) -> list[str]:
    """Solve ahead, in one grounding of the chunk (solve_merged), the
    queries of `work` that two or more files ask, each file once and on its
    own facts (`file_facts`: each file's, by its place; not a play judged on
    other facts): a file's facts but the questions' are then one scenario.
    The queries so solved (none when fewer than two can be, or they cannot
    share a grounding: then each is solved on its own)."""
    from mtgkb.engine.scenarios import solve_merged
    from mtgkb.language.facts import asked_facts, fact_arguments, fact_signatures, fixed_facts
    from mtgkb.questions import answers

    def on_own_facts(instances) -> bool:
        places = [place for _, _, place in instances]
        return len(set(places)) == len(places) and all(
            SameFacts(fixed_facts(own)) == SameFacts(fixed_facts(file_facts[place]))
            for _, own, place in instances
        )

    together = [q for q, found in work.items() if len(found) >= 2 and on_own_facts(found)]
    if len(together) < 2:
        return []
    files: dict[int, dict[str, tuple]] = {}  # place -> query -> (key, facts)
    for query in together:
        for key, own, place in work[query]:
            files.setdefault(place, {})[query] = (key, own)
    places = sorted(files)
    found = solve_merged(
        together,
        [fixed_facts(file_facts[p]) for p in places],
        [{q: asked_facts(own) for q, (_, own) in files[p].items()} for p in places],
        engine=engine,
        readings=readings,
        signatures=[fact_signatures(file_facts[p]) for p in places],
        arguments=[fact_arguments(file_facts[p]) for p in places],
    )
    if found is None:
        return []
    for query in together:
        for place, model in zip(places, found[query], strict=True):
            if model is not None:
                session.ahead[files[place][query][0]] = answers.shown_model(query, model)
    return together


def _chunks(items: list[Item], size: int) -> list[list[Item]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _pending(paths: list[str], limits: Limits) -> list[Item]:
    """Inputs to answer: standard input is read here (once, within the
    time-out), files by whoever answers."""
    return [
        read_input(path, limits.timeout, limits.lang) if path == "-" else (path, None, None)
        for path in paths
    ]


def progress(results: Iterable[FileResult], total: int) -> Iterator[FileResult]:
    """`results` with a progress bar on standard error for long runs at a terminal."""
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield from results
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = ("answering", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task("answering", total=total)
        for result in results:
            bar.advance(task)
            yield result


def default_jobs(files: int) -> int:
    """The processes a run of `files` answers them in when it names none:
    one per CPU it may use, as long as each gets COMBINE_FROM files or more
    to answer together, and at most DEFAULT_JOBS_MOST (else the run's other
    CPUs wait: 200 files of 4 players x 8 creatures on 2 CPUs, 5.8 s in one
    worker, 3.3 s in two; 32 files 1.17 s in this process, 0.76 s in two
    workers); 1 for fewer files (this process, or one worker past CHUNK)."""
    if files < 2 * COMBINE_FROM:
        return 1  # (the pool's module is not even imported: most runs are of a file or a few)
    from mtgkb.running import pool

    if not pool.enabled():
        return 1
    return max(1, min(pool.usable_cpus(), files // COMBINE_FROM, DEFAULT_JOBS_MOST))


def answer_files(
    paths: list[str], limits: Limits, jobs: int | None = None, engine: Engine | None = None
) -> Iterator[FileResult]:
    """Answer files in this process (jobs 1) or a pool of `jobs` (None:
    default_jobs); in input order; with `engine` (one made for the run when
    not given)."""
    engine = Engine() if engine is None else engine
    jobs = default_jobs(len(paths)) if jobs is None else jobs
    if jobs > 1 and len(paths) > 1:
        yield from answer_in_pool(paths, limits, jobs, engine)
        return
    items = _pending(paths, limits)

    def results() -> Iterator[FileResult]:
        # past one chunk, the chunks are answered in a recycled worker
        # (mtgkb.running.pool), so that a run over many files stays bounded in memory
        workers = None
        if len(items) > CHUNK:
            from mtgkb.running import pool

            if pool.enabled():
                workers = pool.Pool(1, memory=pool.task_memory(limits), engine=engine)
        try:
            for chunk in _chunks(items, CHUNK):
                if workers is None:
                    yield from _answer_chunk(chunk, limits, engine)
                    continue
                try:
                    done = workers.call(_answer_chunk, chunk, limits, with_engine=True)
                except DeadlineExceeded:  # WorkerLost: killed from outside, or its memory
                    # file by file again, so that only the file at fault says so
                    done = [_alone(workers, item, limits) for item in chunk]
                yield from done
        finally:
            if workers is not None:
                workers.close()

    yield from progress(results(), len(items))


def answer_in_pool(
    paths: list[str], limits: Limits, jobs: int, engine: Engine | None = None
) -> Iterator[FileResult]:
    """Answer files in `jobs` local worker processes (a mtgkb.running.pool.Pool
    forked after `engine` read the rule base: each worker holds it for all
    its chunks); results come in input order."""
    from mtgkb.running import pool

    engine = (Engine() if engine is None else engine).prepare()
    items = _pending(paths, limits)
    chunks = _chunks(items, pool_chunk_size(len(items), jobs))

    def results() -> Iterator[FileResult]:
        from concurrent.futures import ThreadPoolExecutor

        workers = pool.Pool(jobs, memory=pool.task_memory(limits), engine=engine)
        threads = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="mtgkb-jobs")
        given = 0
        try:
            futures = [threads.submit(_chunk_in, workers, chunk, limits) for chunk in chunks]
            for future in futures:
                done = future.result()
                given += 1
                yield from done
        except DeadlineExceeded:
            # A worker was killed from outside (the kernel's OOM killer, a
            # signal): the files not answered yet say so; the run goes on.
            workers.kill()
            for chunk in chunks[given:]:
                for name, _, _ in chunk:
                    yield _lost(name)
        except BaseException:
            # Interrupted (SIGINT, SIGTERM, a closed reader): stop the workers
            # now rather than wait for their chunks.
            workers.kill()
            raise
        finally:
            threads.shutdown(wait=False, cancel_futures=True)
            workers.close()

    yield from progress(results(), len(items))


def pool_chunk_size(files: int, jobs: int) -> int:
    """The files a task of `jobs` workers answers: two tasks a worker, so
    that they end together; but where that makes tasks so small that their
    files would be answered one by one (COMBINE_FROM) and one task a worker
    would combine them, one task a worker (50 files, 2 workers: 2 tasks of
    25, not 4 of 13). Fewer files than that keep a task for each worker:
    there, answering in parallel is what pays (a few large files)."""
    size = -(-files // (jobs * 2))
    if size < COMBINE_FROM <= files // jobs:
        size = -(-files // jobs)
    return max(1, min(CHUNK, size))


def _chunk_in(workers, chunk: list[Item], limits: Limits) -> list[FileResult]:
    """One chunk answered in `workers` (a mtgkb.running.pool.Pool); past its
    memory bound, file by file again, so that only the file at fault says
    so. A worker killed from outside raises DeadlineExceeded."""
    try:
        return workers.call(_answer_chunk, chunk, limits, with_engine=True)
    except DeadlineExceeded as lost:
        if not getattr(lost, "out_of_memory", False):
            raise
    return [_alone(workers, item, limits) for item in chunk]


def _alone(workers, item: Item, limits: Limits) -> FileResult:
    """One file answered in its own task of `workers` (a mtgkb.running.pool.Pool)."""
    from mtgkb.running.runner import out_of_memory

    try:
        return workers.call(_answer_chunk, [item], limits, with_engine=True)[0]
    except DeadlineExceeded as lost:
        if getattr(lost, "out_of_memory", False):
            return out_of_memory(item[0], limits)
        return _lost(item[0])


def _lost(name: str) -> FileResult:
    message = f"{name}: error: the worker process answering it was killed"
    return FileResult(name, EXIT_TIMEOUT, {"file": name, "error": "timeout"}, message)


def answer_on_dask(paths: list[str], limits: Limits, address: str) -> Iterator[FileResult]:
    """Answer files on the Dask cluster at `address`; the files travel as bytes
    (read here) in chunks, the answers come back in input order."""
    try:
        from dask.distributed import Client
    except ImportError:
        error = "mtgkb: error: --scheduler needs Dask: pip install 'mtgkb[dask]'"
        for path in paths:
            yield _unreadable(path, error)
        return
    items = [read_input(path, limits.timeout, limits.lang) for path in paths]
    try:
        client = Client(address, timeout=30, set_as_default=False)
    except Exception as err:  # noqa: BLE001 - any failure to connect is one message
        error = f"mtgkb: error: cannot reach the Dask scheduler at {address}: {err}"
        for name, _, _ in items:
            yield _unreadable(name, error)
        return
    with client:
        chunks = _chunks(items, CHUNK)
        futures = client.map(_answer_chunk_named, chunks, limits=limits, pure=False)

        def results() -> Iterator[FileResult]:
            for future in futures:
                yield from future.result()

        yield from progress(results(), len(items))
