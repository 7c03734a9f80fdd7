"""`mtgkb serve`: a resident server for engines and for the judges' page.

An ASGI application (FastAPI on uvicorn, installed by `mtgkb[serve]`):

- `POST /v1/run`: a scenario as `text/plain` (the .mtg language) or as JSON
  `{"scenario": "...", "timeout": S, "max_models": N, "lang": "en"}`; the
  answer is the object `mtgkb run --json` prints for one file. 200 (exit 0
  or 1), 422 (unreadable input: the FILE:LINE:COL message, line and column
  as fields), 413 (too large), 503 (time-out or memory bound), 400 (a
  request that is not one);
- `POST /v1/facts`: the parsed scenario (players in seating order, teams,
  objects, attacks, blocks, questions) and its clingo facts, for drawing;
- `GET /v1/rules/{number}`: one entry of the rule index (`mtgkb rules N --json`);
- `GET /v1/examples`, `GET /v1/examples/{name}`: the bundled examples;
- `POST /v1/batch`: many run requests, a JSON array (answered as one) or
  NDJSON (streamed back as NDJSON), in input order, each with its own
  status, exit status and body (mtgkb.serve.batch);
- `GET /health`; `GET /` the page (static files inside the package);
- `GET /openapi.json`: the OpenAPI document.

Every request passes mtgkb.serve.guard first (security headers, Host names,
origins, the token); scenario requests are admitted by
mtgkb.serve.admission (the workers and a bounded queue: 503 with Retry-After
beyond, the queue time counted in the time-out), and those that wait for a
worker are answered together, as one chunk (mtgkb.serve.gathering);
mtgkb.serve.listening binds the port and times out clients that send their
headers too slowly.

Answers are computed in a mtgkb.running.pool.Pool of `--workers` processes forked
from the server after the rule base is read: each request has its time-out
and memory bound, and workers are recycled when they have grown. The server
listens on 127.0.0.1 unless told otherwise.

`mtgkb serve --stdio` reads one JSON request per line (the body of `POST
/v1/run`, optionally with an "id") and writes one line per request:
`{"id": ..., "status": HTTP status, "exit": mtgkb run's exit status, "body": the HTTP body}`.
"""

import dataclasses
import functools
import json
import math
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtgkb import __version__
from mtgkb.output.envelope import stamp
from mtgkb.questions.answers import Limits
from mtgkb.running.pool import Pool, answer, usable_cpus
from mtgkb.serve.gathering import LINGER, MOST, Gathering
from mtgkb.serve.listening import HEADER_TIMEOUT, guarded_protocol

STATIC = Path(__file__).resolve().parent / "static"
LANGS = ("en", "it")
DEFAULT_TIMEOUT = 10.0
MAX_TIMEOUT = 60.0
DEFAULT_MAX_MODELS = 100000


@dataclass
class Settings:
    """What one server was started with."""

    workers: int = 1
    timeout: float = DEFAULT_TIMEOUT  # a request's time-out when it names none
    max_timeout: float = MAX_TIMEOUT  # the most a request may ask for
    memory: int | None = None  # MB per request (--memory); None: deadline.py's default, 0: none
    rule_base: str | None = None
    max_bytes: int | None = None  # None: the parser's own bound
    host: str = "127.0.0.1"  # where it listens (the Host names it answers follow)
    allowed_hosts: tuple[str, ...] = ()  # further Host names (--allow-host)
    allowed_origins: tuple[str, ...] = ()  # origins whose pages may call it (--allow-origin)
    token: str | None = None  # the bearer token every request carries (--token)
    queue: int | None = None  # requests that may wait for a worker (None: 4 per worker)
    retry_after: int = 1  # seconds a client refused as the server is busy waits
    header_timeout: float = HEADER_TIMEOUT  # to send a request's line and headers
    body_timeout: float = 3 * HEADER_TIMEOUT  # to send a request's body
    max_batch: int = 1000  # scenarios in one POST /v1/batch
    gather: int = MOST  # the most waiting requests a worker answers as one chunk (--gather)
    linger: float = LINGER  # seconds the last free worker waits for its share (0: none)

    def pool_memory(self) -> int | None:
        """The bound in bytes for mtgkb.running.pool.Pool (None: its default, 0: none)."""
        from mtgkb.running.pool import memory_limit

        return None if self.memory is None else (memory_limit(self.memory) or 0)

    def queue_size(self) -> int:
        return 4 * self.workers if self.queue is None else self.queue

    def batch_bytes(self) -> int:
        """The most a batch's body may have: 16 scenarios at the parser's bound."""
        return 16 * (max_bytes(self) + 4096)

    def guard(self):
        from mtgkb.serve.guard import Guard

        return Guard(self.host, self.allowed_hosts, self.allowed_origins, self.token)


class BadRequest(Exception):
    """A request that is not one: HTTP 400 with this message."""


def max_bytes(settings: Settings) -> int:
    from mtgkb.language.parser import MAX_BYTES

    return settings.max_bytes or MAX_BYTES


# --------------------------------------------------------------------------
# requests, the same for HTTP and --stdio


def _number(value: Any, name: str, kind: type) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadRequest(f'"{name}" must be a number')
    try:
        if kind is int and (not isinstance(value, int) and not float(value).is_integer()):
            raise BadRequest(f'"{name}" must be a whole number')
        return kind(value)
    except (OverflowError, ValueError):  # a number of 400 digits is no float
        raise BadRequest(f'"{name}" is out of range') from None


def parse_json(data: bytes | str) -> Any:
    """The JSON value of a request body or line; BadRequest when it is not
    one (bad UTF-8, bad JSON, nested deeper than any request is)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise BadRequest(f"the request is not UTF-8: {err}") from None
    try:
        return json.loads(data)
    except RecursionError:  # '[' * 100000: deeper than any request is
        raise BadRequest("the JSON nests too deep to be a request") from None
    except ValueError as err:
        raise BadRequest(f"the request is not JSON: {err}") from None


def read_request(payload: Any, settings: Settings) -> tuple[str, str, Limits, dict]:
    """The scenario text, its name, the limits and the options of a request
    (a JSON object, or the scenario text itself). Raises BadRequest."""
    if isinstance(payload, str):
        payload = {"scenario": payload}
    if not isinstance(payload, dict):
        raise BadRequest("the request must be a JSON object or text/plain scenario text")
    known = {"scenario", "state", "timeout", "max_models", "lang", "name", "id"}
    unknown = sorted(set(payload) - known)
    if unknown:
        raise BadRequest(f"unknown field(s): {', '.join(unknown)}")
    text = payload.get("scenario")
    if "state" in payload:  # a JSON game state (mtgkb.language.json_state) instead
        text = state_text(payload)
    if not isinstance(text, str):
        raise BadRequest('"scenario" must be the scenario text, as a string')
    name = payload.get("name", "<request>")
    if not isinstance(name, str) or not name or len(name) > 200 or "\n" in name:
        raise BadRequest('"name" must be a short one-line string')
    timeout = settings.timeout
    if payload.get("timeout") is not None:
        timeout = _number(payload["timeout"], "timeout", float)
        if not math.isfinite(timeout) or timeout <= 0:
            raise BadRequest('"timeout" must be a finite number of seconds above 0')
        if timeout > settings.max_timeout:
            raise BadRequest(f'"timeout" may be at most {settings.max_timeout:g} s on this server')
    max_models = DEFAULT_MAX_MODELS
    if payload.get("max_models") is not None:
        max_models = _number(payload["max_models"], "max_models", int)
        if not 0 <= max_models <= 1 << 31:
            raise BadRequest('"max_models" must be a whole number from 0 (no cap) up')
    lang = payload.get("lang", "en")
    if lang not in LANGS:
        raise BadRequest(f'"lang" must be one of {", ".join(LANGS)}')
    # the language travels in Limits where the run API has it there, else as
    # a keyword of runner.answer_now where it takes one (mtgkb.running.pool._accepted)
    bounds = {"max_models": max_models, "timeout": timeout}
    fields = {f.name for f in dataclasses.fields(Limits)}
    if "lang" in fields:
        bounds["lang"] = lang
    if "memory" in fields:
        bounds["memory"] = settings.memory  # the server's bound, named in its messages
    try:
        limits = Limits(**bounds)
    except ValueError as err:  # mtgkb.language.errors.UsageError: a bound out of range
        raise BadRequest(str(err)) from None
    return text, name, limits, {"lang": lang}


def state_text(payload: dict) -> str:
    """The JSON text of a request's `state` (read as a state by the worker:
    mtgkb.language.json_state.is_state)."""
    if "scenario" in payload:
        raise BadRequest('give either "scenario" (text) or "state" (a JSON object), not both')
    if not isinstance(payload["state"], dict):
        raise BadRequest('"state" must be a JSON object (the schema: GET /v1/schema/scenario)')
    return json.dumps(payload["state"], ensure_ascii=False)


def too_large(settings: Settings, size: int) -> dict:
    limit = max_bytes(settings)
    return {
        "error": "too large",
        "message": f"the request is {size} bytes; a scenario may have at most {limit} bytes",
        "limit": limit,
    }


def _input_error(result) -> dict:
    body = {"file": result.name, "error": result.error or result.output.get("error", "")}
    err = result.exception
    for field in ("line", "column", "message", "path"):
        if err is not None and getattr(err, field, None) is not None:
            body[field] = getattr(err, field)
    return body


@dataclass
class Job:
    """One scenario request, read and checked, ready for a worker."""

    text: str
    name: str
    limits: Limits
    options: dict


def prepare(payload: Any, settings: Settings) -> Job | tuple[int, int, dict]:
    """The Job of a request, or the (HTTP status, exit status, body) that
    refuses it (400, 413)."""
    try:
        text, name, limits, options = read_request(payload, settings)
    except BadRequest as err:
        return 400, 2, {"error": "bad request", "message": str(err)}
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes(settings):
        return 413, 2, too_large(settings, size)
    return Job(text, name, limits, options)


def timed_out(job: Job, waited: float) -> tuple[int, int, dict]:
    """The time-out answer of a job whose time ran out waiting for a worker."""
    from mtgkb.running.runner import EXIT_TIMEOUT

    message = (
        f"{job.name}: error: the time-out of {job.limits.timeout:g} s ran out while the "
        f"request waited for a worker ({waited:.3g} s): the server is busy"
    )
    return 503, EXIT_TIMEOUT, {"file": job.name, "error": "timeout", "message": message}


def left_after(job: Job, waited: float) -> Limits | None:
    """The job's limits with the time it has left after `waited` seconds in
    the queue (None: no time left)."""
    if waited < 0.001 or job.limits.timeout is None:  # a free worker: no wait to speak of
        return job.limits
    left = job.limits.timeout - waited
    if left <= 0.001:
        return None
    return dataclasses.replace(job.limits, timeout=left)


def run_job(pool: Pool, job: Job, waited: float = 0.0) -> tuple[int, int, dict]:
    """(HTTP status, exit status, body) of one scenario, answered in `pool`
    with the time the job has left after `waited` seconds in the queue."""
    from mtgkb.running.runner import EXIT_TIMEOUT

    limits = left_after(job, waited)
    if limits is None:
        return timed_out(job, waited)
    try:
        result = answer(job.text, job.name, limits, pool=pool, **job.options)
    except Exception as err:  # noqa: BLE001 - a fault of mtgkb, said as such, never a crash
        message = f"{job.name}: error: mtgkb failed on this scenario: {type(err).__name__}: {err}"
        return 500, EXIT_TIMEOUT, {"file": job.name, "error": "internal", "message": message}
    return responded(pool, job, limits, waited, result)


def responded(pool: Pool, job: Job, limits: Limits, waited: float, result) -> tuple[int, int, dict]:
    """(HTTP status, exit status, body) of a job's runner.FileResult, answered
    within `limits` after `waited` seconds in the queue."""
    from mtgkb.running.runner import EXIT_INCONSISTENT, EXIT_INPUT, EXIT_TIMEOUT

    if result.status == EXIT_INPUT:
        return 422, result.status, _input_error(result)
    if result.status == EXIT_TIMEOUT:
        message = result.error or "stopped"
        if limits is not job.limits:  # the request's own time-out, queue time included
            message = message.replace(f"of {limits.timeout:g} s", f"of {job.limits.timeout:g} s")
            message += f" ({waited:.3g} s of it waiting for a worker)"
        return 503, result.status, {**result.output, "message": message}
    if result.status == EXIT_INCONSISTENT:
        # answered, but the rule base contradicts itself: a fault of the server's rules
        return 500, result.status, as_printed(result.output, pool.engine)
    return 200, result.status, as_printed(result.output, pool.engine)


def gathering_key(job: Job) -> tuple:
    """What requests answered as one chunk share (mtgkb.serve.gathering):
    every bound and option but the time-out."""
    bounds = dataclasses.replace(job.limits, timeout=None)
    return bounds, tuple(sorted(job.options.items()))


def run_group(pool: Pool, jobs: list[tuple[Job, float]]) -> list[tuple[int, int, dict]]:
    """(HTTP status, exit status, body) of each of `jobs` (a job and the
    seconds it waited for a worker) gathered for one worker: answered as one
    chunk in one task (mtgkb.running.batch.answer_together), which the least
    time any of them has left bounds. A job is answered alone instead
    (run_job, with the time it has left then) when its time ran out while
    it waited, when its answer is an input error (the answer alone says
    where, with its line and column) or a time-out, or when the chunk was
    stopped or failed: what it answers is what it answers alone."""
    from mtgkb.running.batch import answer_group
    from mtgkb.running.pool import stopped_result

    if len(jobs) == 1:
        return [run_job(pool, *jobs[0])]
    start = time.monotonic()
    lefts = [left_after(job, waited) for job, waited in jobs]
    together = [i for i, limits in enumerate(lefts) if limits is not None]
    out: list[tuple[int, int, dict] | None] = [None] * len(jobs)
    stopped = False
    if len(together) >= 2:
        bounds = dataclasses.replace(jobs[together[0]][0].limits, timeout=None)
        times = [lefts[i].timeout for i in together if lefts[i].timeout is not None]
        items = [(jobs[i][0].name, jobs[i][0].text, None) for i in together]
        results = answer_group(items, bounds, pool, timeout=min(times) if times else None)
        stopped = results is None
        for i, result in zip(together, results or [None] * len(together), strict=True):
            if result is not None:
                job, waited = jobs[i]
                out[i] = responded(pool, job, lefts[i], waited, result)
    for i, (job, waited) in enumerate(jobs):
        if out[i] is not None:
            continue
        spent = time.monotonic() - start
        if stopped and i in together and left_after(job, waited + spent) is None:
            # its time ran out while the chunk was worked on: its time-out answer
            out[i] = responded(pool, job, lefts[i], waited, stopped_result(job.name, lefts[i]))
        else:
            out[i] = run_job(pool, job, waited + spent)
    return out


def run_answer(pool: Pool, settings: Settings, payload: Any) -> tuple[int, int, dict]:
    """(HTTP status, exit status, body) of one run request."""
    job = prepare(payload, settings)
    if isinstance(job, tuple):
        return job
    return run_job(pool, job)


def as_printed(output: dict, engine=None) -> dict:
    """The answers as `mtgkb run --json` prints them: with the rule base
    they came from (the `engine`'s, the pool's; else the one this process
    uses, mtgkb.rulebase.location.current), the schema version and the CR
    edition."""
    if engine is not None:
        return stamp({**output, "rule_base": engine.describe()})
    from mtgkb.rulebase import location as paths

    current = getattr(paths, "current", None)
    if current is None:
        return stamp(dict(output))
    return stamp({**output, "rule_base": current().describe()})


# --------------------------------------------------------------------------
# the parsed scenario, for the page's drawing (computed in a worker)


def scenario_view(text: str, name: str, lang: str = "en") -> dict:
    """The parsed scenario as JSON data, and its clingo facts (or its
    input error, said in `lang`)."""
    from mtgkb.language.errors import ScenarioError
    from mtgkb.language.facts import facts_text, scenario_facts
    from mtgkb.language.json_state import parse_scenario, scenario_state
    from mtgkb.running.pool import travelling
    from mtgkb.serve.page_data import written_abilities

    try:
        scenario = parse_scenario(text, name, lang)
    except ScenarioError as err:
        return {"error": travelling(err)}
    team_of = {m: t.name for t in scenario.teams for m in t.members}
    return {
        "file": name,
        "scenario": {
            # as written (null when the file leaves it to the rule base's defaults)
            "game": scenario.game.replace("_", "-") if scenario.game else None,
            "options": [o.name.replace("_", "-") for o in scenario.options],
            "active": scenario.active or None,
            "phase": scenario.phase.replace("_", "-") if scenario.phase else None,
            "players": [
                {"name": p.name, "seat": p.seat, "team": team_of.get(p.name)}
                for p in sorted(scenario.players, key=lambda p: p.seat)
            ],
            "teams": [{"name": t.name, "members": list(t.members)} for t in scenario.teams],
            "objects": [
                {
                    "name": o.name,
                    "controller": o.controller,
                    "type": o.card_type,
                    "power": o.power,
                    "toughness": o.toughness,
                    "loyalty": o.loyalty,
                    "defense": o.defense,
                    "abilities": [a.name.replace("_", "-") for a in o.abilities],
                    "written": written_abilities(text, o),  # as the file writes them
                    "line": o.line,
                }
                for o in scenario.objects
            ],
            "attacks": [
                {"attacker": a.attacker, "target": a.target, "line": a.line}
                for a in scenario.attacks
            ],
            "blocks": [
                {"blocker": b.blocker, "attacker": b.attacker, "line": b.line}
                for b in scenario.blocks
            ],
            "questions": [{"ask": q.kind, "line": q.line} for q in scenario.questions],
        },
        "facts": facts_text(scenario_facts(scenario)),
        # everything the scenario says, as a JSON state: sendable back to /v1/run
        "state": scenario_state(scenario),
    }


def facts_job(pool: Pool, job: Job, waited: float = 0.0) -> tuple[int, dict]:
    """(HTTP status, body) of the parsed scenario of one request."""
    from mtgkb.running.deadline import DeadlineExceeded, WorkerLost
    from mtgkb.running.runner import FileResult

    limits = left_after(job, waited)
    if limits is None:
        status, _, body = timed_out(job, waited)
        return status, body
    try:
        lang = job.options.get("lang", "en")
        view = pool.call(scenario_view, job.text, job.name, lang, timeout=limits.timeout)
    except (DeadlineExceeded, WorkerLost) as err:
        return 503, {"file": job.name, "error": "timeout", "message": f"{job.name}: error: {err}"}
    if "error" in view:
        err = view["error"]
        return 422, _input_error(FileResult(job.name, 2, {}, err.format(), err))
    return 200, view


def facts_answer(pool: Pool, settings: Settings, payload: Any) -> tuple[int, dict]:
    job = prepare(payload, settings)
    if isinstance(job, tuple):
        return job[0], job[2]
    return facts_job(pool, job)


# --------------------------------------------------------------------------
# the rule index and the examples


@functools.lru_cache(maxsize=4096)
def rule_answer(number: str, lang: str = "en") -> tuple[int, dict]:
    """(HTTP status, body) of one entry of the rule index: computed once per
    number and language (a lookup reads the rule files and the tests: 100 ms
    and more of CPU), then answered from memory. The body is shared: do not
    change it."""
    from mtgkb.rulebase.command import entry_dict
    from mtgkb.rulebase.encoded import encoded_at
    from mtgkb.rulebase.index import load_index, lookup
    from mtgkb.rulebase.tested import tested_by

    if lang not in LANGS:
        return 400, {"error": "bad request", "message": f"lang must be one of {', '.join(LANGS)}"}
    if len(number) > 40:
        return 404, {"error": "not found", "message": "not a CR rule number"}
    index = load_index()
    try:
        found = lookup(number, lang, index=index)
    except KeyError as err:
        return 404, {"error": "not found", "message": str(err.args[0])}
    entry = found.entry
    data = entry_dict(
        entry,
        lang,
        found.note,
        index=index,
        encoded=encoded_at(entry.id),
        tested=tested_by(entry.id),
    )
    return 200, data


EXAMPLE_NAME = re.compile(r"[A-Za-z0-9_-]{1,80}")


def examples_dir() -> Path | None:
    """The bundled examples: inside the package (a wheel), or in the checkout."""
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "examples", package.parent.parent / "examples"):
        if folder.is_dir():
            return folder
    return None


def examples() -> list[dict]:
    """The bundled example scenarios: name, title (their first comment), text."""
    folder = examples_dir()
    if folder is None:
        return []
    found = []
    for path in sorted(folder.glob("*.mtg")):
        text = path.read_text(encoding="utf-8")
        first = next((ln for ln in text.splitlines() if ln.startswith("#")), "# " + path.stem)
        found.append({"name": path.stem, "title": first.lstrip("# ").strip(), "text": text})
    return found


# --------------------------------------------------------------------------
# the application


def create_app(settings: Settings | None = None, pool: Pool | None = None):
    """The FastAPI application; `pool` (default: one of `settings.workers`)
    answers every scenario."""
    import asyncio
    from contextlib import asynccontextmanager

    from fastapi import FastAPI, Request
    from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
    from fastapi.staticfiles import StaticFiles
    from starlette.background import BackgroundTask
    from starlette.concurrency import run_in_threadpool

    from mtgkb.serve import openapi
    from mtgkb.serve.admission import Admission, Full, Waited
    from mtgkb.serve.batch import BatchError, Unreadable, read_batch
    from mtgkb.serve.guard import GuardMiddleware

    settings = settings or Settings()
    owned = pool is None
    pool = pool or Pool(settings.workers, memory=settings.pool_memory())
    admission = Admission(settings.workers, settings.queue_size(), settings.retry_after)
    gathering = Gathering(settings.gather)

    @asynccontextmanager
    async def lifespan(app):
        pool.start()  # the rule base is read once, before the workers fork
        yield
        if owned:
            pool.close()

    app = FastAPI(
        title="mtgkb",
        version=__version__,
        description="Rules questions about Magic: The Gathering, answered from the "
        "Comprehensive Rules encoded as answer-set programs.",
        lifespan=lifespan,
        docs_url=None,  # the interactive docs load scripts from a CDN: none here
        redoc_url=None,
    )
    app.openapi = functools.partial(openapi.document, app)  # with the answers' classes
    app.state.pool = pool
    app.state.settings = settings
    app.state.admission = admission
    app.add_middleware(GuardMiddleware, guard=settings.guard())

    def busy() -> Response:
        message = (
            f"the server is busy ({admission.inside} requests at work or waiting, "
            f"at most {admission.capacity}): ask again later"
        )
        return JSONResponse(
            stamp({"error": "busy", "message": message}),
            status_code=503,
            # the body was not read: the connection is closed after the answer
            headers={"Retry-After": str(admission.retry_after), "Connection": "close"},
        )

    def closing(status: int, body: dict) -> Response:
        """An answer after which the connection is closed (its body was not read)."""
        return JSONResponse(stamp(body), status_code=status, headers={"Connection": "close"})

    async def bytes_of(request: Request, limit: int) -> bytes | Response:
        """The body, at most `limit` bytes, sent within the body time-out."""
        import anyio

        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            return closing(413, too_large(settings, int(declared)))
        chunks, size = [], 0
        try:
            with anyio.fail_after(settings.body_timeout):
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > limit:
                        return closing(413, too_large(settings, size))
                    chunks.append(chunk)
        except TimeoutError:
            message = f"the body was not sent within {settings.body_timeout:g} s"
            return closing(408, {"error": "request timeout", "message": message})
        return b"".join(chunks)

    async def body_of(request: Request) -> tuple[Any, int] | Response:
        """The request's payload (text or JSON) and its size, or the error answer."""
        data = await bytes_of(request, max_bytes(settings) + 4096)  # room for the envelope
        if isinstance(data, Response):
            return data
        kind = request.headers.get("content-type", "text/plain").split(";")[0].strip().lower()
        if kind == "application/json":
            try:
                return parse_json(data), len(data)
            except BadRequest as err:
                return JSONResponse(stamp({"error": "bad request", "message": str(err)}), 400)
        if kind in ("text/plain", "application/octet-stream", ""):
            try:
                return data.decode("utf-8"), len(data)
            except UnicodeDecodeError:
                # the parser says where the bad byte is: let it
                return data.decode("utf-8", "surrogateescape"), len(data)
        message = f"send text/plain or application/json, not {kind}"
        return JSONResponse(stamp({"error": "unsupported media type", "message": message}), 415)

    async def answered(job: Job, work) -> tuple:
        """`work(pool, job, waited)` in a thread once a worker is free (the
        wait counts in the job's time-out); Waited when the time ran out."""
        async with admission.worker(job.limits.timeout) as waited:
            return await run_in_threadpool(work, pool, job, waited)

    async def admitted_job(request: Request, respond) -> Response:
        """What `run` and `facts` share: a place in the server (503 when it is
        full), the body read and the request prepared; then `respond(job)`,
        with the Job or prepare's refusal (HTTP status, exit status, body)."""
        try:
            async with admission.admitted():
                got = await body_of(request)
                if isinstance(got, Response):
                    return got
                return await respond(prepare(got[0], settings))
        except Full:
            return busy()

    async def run_of(job: Job) -> tuple[int, int, dict]:
        """A run request's answer: alone when a worker is free; else it waits
        for one, and is answered with the requests waiting with it
        (mtgkb.serve.gathering), by whichever of them gets a worker first."""
        entry = gathering.join(job, gathering_key(job))
        worker = asyncio.ensure_future(admission.acquire(job.limits.timeout))
        # (a request that got a worker, or whose time ran out, waits no more:
        # none takes it along from then on, before it has run again)
        worker.add_done_callback(lambda _: gathering.leave(entry))
        try:
            await asyncio.wait({worker, entry.answer}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            gathering.leave(entry)
            _give_back(worker)
            raise
        if entry.taken:  # another request took it along: its answer comes from there
            _give_back(worker)
            return await entry.answer
        gathering.leave(entry)
        try:
            waited = worker.result()
        except Waited as late:
            return timed_out(job, late.waited)
        # its share of the requests in the server, and, the last worker taken,
        # a moment for that share to arrive (mtgkb.serve.gathering); the
        # items of a batch, admitted as one request, are counted waiting
        in_server = max(admission.inside, len(gathering.waiting) + admission.at_work)
        share = gathering.share(in_server, settings.workers)
        if admission.all_at_work() and settings.linger > 0:
            try:
                await gathering.linger(share, settings.linger)
            except BaseException:
                admission.release()  # (its client left while it waited: the worker is free)
                raise
        taken = gathering.take(entry, share)
        now = time.monotonic()
        jobs = [(job, waited)] + [(t.job, now - t.arrived) for t in taken]
        group = asyncio.ensure_future(run_in_threadpool(run_group, pool, jobs))

        def finished(done: asyncio.Future) -> None:
            # (the worker is given back and those taken along answered when the
            # work ends, even if this request's client has left)
            admission.release()
            if done.cancelled():
                gathering.done(taken, None, RuntimeError("the work was cancelled"))
            elif done.exception() is not None:
                gathering.done(taken, None, done.exception())
            else:
                gathering.done(taken, done.result()[1:], None)

        group.add_done_callback(finished)
        return (await asyncio.shield(group))[0]

    def _give_back(worker: asyncio.Future) -> None:
        """Let go of a worker a request no longer needs, or stop waiting for
        one (a wait cancelled as it got one still gets it: given back then)."""

        def settle(done: asyncio.Future) -> None:
            if not done.cancelled() and done.exception() is None:
                admission.release()

        if worker.done():
            settle(worker)
        else:
            worker.cancel()
            worker.add_done_callback(settle)

    @app.post(
        "/v1/run",
        summary="Answer every question of a scenario",
        openapi_extra=openapi.RUN_REQUEST,
        responses=openapi.RUN_RESPONSES,
        response_class=JSONResponse,
    )
    async def run(request: Request):
        async def respond(job: Job | tuple) -> Response:
            status, exit_status, body = await run_of(job) if isinstance(job, Job) else job
            headers = {"X-Mtgkb-Exit": str(exit_status)}
            return JSONResponse(stamp(body), status_code=status, headers=headers)

        return await admitted_job(request, respond)

    @app.post(
        "/v1/facts",
        summary="The parsed scenario: players in seating order, objects, attacks, blocks",
        openapi_extra=openapi.RUN_REQUEST,
        responses=openapi.FACTS_RESPONSES,
        response_class=JSONResponse,
    )
    async def facts(request: Request):
        async def respond(job: Job | tuple) -> Response:
            if not isinstance(job, Job):
                return JSONResponse(stamp(job[2]), status_code=job[0])
            try:
                status, body = await answered(job, facts_job)
            except Waited as late:
                status, _, body = timed_out(job, late.waited)
            return JSONResponse(stamp(body), status_code=status)

        return await admitted_job(request, respond)

    async def batch_item(item: Any, index: int) -> dict:
        """One line of a batch's answer: {"index", "id"?, "status", "exit", "body"}."""
        ident = item.pop("id", None) if isinstance(item, dict) else None
        job = prepare(item, settings) if not isinstance(item, Unreadable) else None
        if job is None:
            status, exit_status = 400, 2
            body = {"error": "bad request", "message": item.message}
        elif isinstance(job, Job):
            status, exit_status, body = await run_of(job)
        else:
            status, exit_status, body = job
        line = {"index": index, "status": status, "exit": exit_status, "body": stamp(body)}
        return line if ident is None else {"id": ident, **line}

    async def batch_lines(items: list):
        """The answers of a batch in input order, up to `gather` for each
        worker at a time: those waiting for a worker are answered together."""
        window = max(1, settings.workers) * max(1, settings.gather)
        pending: list = []
        try:
            for index, item in enumerate(items):
                pending.append(asyncio.ensure_future(batch_item(item, index)))
                items[index] = None  # answered items leave memory
                if len(pending) >= window:
                    yield await pending.pop(0)
            while pending:
                yield await pending.pop(0)
        finally:
            for task in pending:
                task.cancel()

    @app.post(
        "/v1/batch",
        summary="Answer many scenarios: a JSON array, or NDJSON streamed back as NDJSON",
        openapi_extra=openapi.BATCH_REQUEST,
        responses=openapi.BATCH_RESPONSES,
    )
    async def batch(request: Request):
        try:
            admission.enter()
        except Full:
            return busy()
        streaming = False
        try:
            data = await bytes_of(request, settings.batch_bytes())
            if isinstance(data, Response):
                return data
            kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
            try:
                items, streamed = read_batch(data, kind, settings.max_batch)
            except BatchError as err:
                return JSONResponse(
                    stamp({"error": "bad request", "message": str(err)}), err.status
                )
            del data
            if not streamed:
                return JSONResponse([line async for line in batch_lines(items)])

            left = []

            def leave_once() -> None:
                if not left:
                    left.append(True)
                    admission.leave()

            async def ndjson():
                try:  # the answers are computed as they are sent, in input order
                    async for line in batch_lines(items):
                        yield json.dumps(line, ensure_ascii=False) + "\n"
                finally:
                    leave_once()

            streaming = True
            return StreamingResponse(
                ndjson(), media_type="application/x-ndjson", background=BackgroundTask(leave_once)
            )
        finally:
            if not streaming:
                admission.leave()

    @app.get(
        "/v1/rules/{number}",
        summary="One rule of the index: paraphrase, where it is encoded, which tests use it",
        responses=openapi.RULE_RESPONSES,
        response_class=JSONResponse,
    )
    async def rule(number: str, lang: str = "en"):
        if len(number) > 40 or lang not in LANGS:
            status, body = rule_answer(number[:41], lang if lang in LANGS else "?")
        else:
            status, body = await run_in_threadpool(rule_answer, number, lang)
        return JSONResponse(stamp(body), status_code=status)

    @app.get("/v1/schema/scenario", summary="The JSON Schema of a JSON game state")
    async def scenario_schema():
        from mtgkb.language.json_state import schema

        return JSONResponse(schema(), media_type="application/schema+json")

    @app.get("/v1/vocabulary", summary="The words of the scenario language (the page's builder)")
    async def vocabulary() -> dict:
        from mtgkb.serve.page_data import vocabulary_view

        return await run_in_threadpool(vocabulary_view)

    @app.get("/v1/examples", summary="The bundled example scenarios")
    async def example_list() -> list[dict]:
        return examples()

    @app.get("/v1/examples/{name}", summary="One bundled example, as text/plain")
    async def example(name: str):
        if EXAMPLE_NAME.fullmatch(name):
            for found in examples():
                if found["name"] == name:
                    return Response(found["text"], media_type="text/plain; charset=utf-8")
        return JSONResponse(stamp({"error": "not found", "message": f"no example {name!r}"}), 404)

    @app.get("/health", summary="Whether the server answers, and its workers")
    async def health() -> dict:
        return stamp(
            {
                "status": "ok",
                "version": __version__,
                "pool": pool.stats(),
                "admission": admission.stats(),
                "gathering": gathering.stats(),
            }
        )

    @app.get("/", include_in_schema=False)
    async def page():
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


# --------------------------------------------------------------------------
# the command


def _lines(stream, limit: int):
    """The lines of a binary `stream`, each at most `limit` bytes: a longer
    line is read past (never held whole) and given as None."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while True:  # the rest of the long line, a bounded piece at a time
                rest = stream.readline(1 << 16)
                if not rest or rest.endswith(b"\n"):
                    break
            yield None, len(line)
            continue
        yield line, len(line)


def stdio_answer(pool: Pool, settings: Settings, line: bytes | None, size: int) -> dict:
    """The answer line of one request line of `serve --stdio`."""
    ident = None
    if line is None:
        status, exit_status = 413, 2
        body = too_large(settings, size)
        body["message"] = (
            f"the line has more than {size - 1} bytes; a request line may have at most "
            f"{stdio_line_bytes(settings)} bytes"
        )
    else:
        try:
            payload = parse_json(line)
        except BadRequest as err:
            status, exit_status = 400, 2
            body = {"error": "bad request", "message": str(err)}
        else:
            if isinstance(payload, dict):
                ident = payload.pop("id", None)
            status, exit_status, body = run_answer(pool, settings, payload)
    out = {"status": status, "exit": exit_status, "body": stamp(body)}
    return out if ident is None else {"id": ident, **out}


def stdio_line_bytes(settings: Settings) -> int:
    """The most a --stdio request line may have: a scenario at the parser's
    bound, with room for JSON escapes and the envelope."""
    return 2 * max_bytes(settings) + 4096


def serve_stdio(settings: Settings, stdin=None, stdout=None) -> int:
    """One JSON request per line in, one JSON answer per line out. A line
    that is not a request (not UTF-8, not JSON, too deep, too long) gets its
    error answer, and the loop goes on."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    limit = stdio_line_bytes(settings)
    with Pool(settings.workers, memory=settings.pool_memory()) as pool:
        pool.start()
        for line, size in _lines(stdin, limit):
            if line is not None and not line.strip():
                continue
            out = stdio_answer(pool, settings, line, size)
            stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
            stdout.flush()
    return 0


def serve_command(args) -> int:
    from urllib.parse import quote

    from mtgkb.serve.listening import ListenError, bind, off_loopback, page_urls

    settings = Settings(
        workers=args.workers or usable_cpus(),
        timeout=args.timeout,
        max_timeout=max(args.timeout, MAX_TIMEOUT),
        memory=args.memory,
        rule_base=args.rule_base,
        host=args.host,
        allowed_hosts=tuple(getattr(args, "allow_host", None) or ()),
        allowed_origins=tuple(getattr(args, "allow_origin", None) or ()),
        token=getattr(args, "token", None) or os.environ.get("MTGKB_SERVE_TOKEN") or None,
        queue=getattr(args, "queue", None),
        gather=getattr(args, "gather", None) or Settings.gather,
        header_timeout=getattr(args, "idle_timeout", None) or HEADER_TIMEOUT,
    )
    # a body (up to a few MB) has three times as long as the headers
    settings.body_timeout = 3 * settings.header_timeout
    # the rule base (--rule-base, --with) was made this process's by
    # mtgkb.cli.main; the workers inherit it
    if args.stdio:
        return serve_stdio(settings)
    try:
        import fastapi  # noqa: F401
        import uvicorn
    except ImportError:
        print("mtgkb serve: error: the server needs: pip install 'mtgkb[serve]'", file=sys.stderr)
        return 2
    if off_loopback(args.host):
        if settings.token is None:
            print(
                f"mtgkb serve: error: --host {args.host} can be reached from other machines: "
                "give a --token (or MTGKB_SERVE_TOKEN) that every request must carry",
                file=sys.stderr,
            )
            return 2
        print(
            f"mtgkb serve: warning: listening on {args.host}, reachable from other machines; "
            "every request must carry the token (Authorization: Bearer TOKEN)",
            file=sys.stderr,
        )
    try:
        sock = bind(args.host, args.port)
    except ListenError as err:
        print(f"mtgkb serve: error: {err}", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    app = create_app(settings)
    raise_open_files_limit()
    config = uvicorn.Config(
        app,
        log_level="warning",
        http=guarded_protocol(settings.header_timeout),
        timeout_keep_alive=5,
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    # the page takes the token from the address (its fragment never reaches a server)
    suffix = f"#token={quote(settings.token, safe='')}" if settings.token else ""
    for url in page_urls(args.host, port):
        print(f"mtgkb serve: the page is at {url}{suffix}", file=sys.stderr, flush=True)
    print(f"mtgkb serve: listening on port {port}", file=sys.stderr, flush=True)
    server.run(sockets=[sock])
    return 0


def raise_open_files_limit() -> None:
    """Let the server hold as many connections as the system allows it."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY:
            hard = 1 << 16
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, OSError, ValueError):
        pass
