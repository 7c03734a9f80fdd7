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
- `GET /health`; `GET /` the page (static files inside the package);
- `GET /openapi.json`: the OpenAPI document.

Answers are computed in a mtgkb.running.pool.Pool of `--workers` processes forked
from the server after the rule base is read: each request has its time-out
and memory bound, and workers are recycled when they have grown. The server
listens on 127.0.0.1 unless told otherwise.

`mtgkb serve --stdio` reads one JSON request per line (the body of `POST
/v1/run`, optionally with an "id") and writes one line per request:
`{"id": ..., "status": HTTP status, "exit": mtgkb run's exit status, "body": the HTTP body}`.
"""

import dataclasses
import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtgkb import __version__
from mtgkb.questions.answers import Limits
from mtgkb.running.pool import Pool, answer

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

    def pool_memory(self) -> int | None:
        """The bound in bytes for mtgkb.running.pool.Pool (None: its default, 0: none)."""
        from mtgkb.running.pool import memory_limit

        return None if self.memory is None else (memory_limit(self.memory) or 0)


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
    if kind is int and (not isinstance(value, int) and not float(value).is_integer()):
        raise BadRequest(f'"{name}" must be a whole number')
    return kind(value)


def read_request(payload: Any, settings: Settings) -> tuple[str, str, Limits, dict]:
    """The scenario text, its name, the limits and the options of a request
    (a JSON object, or the scenario text itself). Raises BadRequest."""
    if isinstance(payload, str):
        payload = {"scenario": payload}
    if not isinstance(payload, dict):
        raise BadRequest("the request must be a JSON object or text/plain scenario text")
    known = {"scenario", "timeout", "max_models", "lang", "name", "id"}
    unknown = sorted(set(payload) - known)
    if unknown:
        raise BadRequest(f"unknown field(s): {', '.join(unknown)}")
    text = payload.get("scenario")
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
    for field in ("line", "column", "message"):
        if err is not None and hasattr(err, field):
            body[field] = getattr(err, field)
    return body


def run_answer(pool: Pool, settings: Settings, payload: Any) -> tuple[int, int, dict]:
    """(HTTP status, exit status, body) of one run request."""
    from mtgkb.running.runner import EXIT_INCONSISTENT, EXIT_INPUT, EXIT_TIMEOUT

    try:
        text, name, limits, options = read_request(payload, settings)
    except BadRequest as err:
        return 400, 2, {"error": "bad request", "message": str(err)}
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes(settings):
        return 413, 2, too_large(settings, size)
    try:
        result = answer(text, name, limits, pool=pool, **options)
    except Exception as err:  # noqa: BLE001 - a fault of mtgkb, said as such, never a crash
        message = f"{name}: error: mtgkb failed on this scenario: {type(err).__name__}: {err}"
        return 500, EXIT_TIMEOUT, {"file": name, "error": "internal", "message": message}
    if result.status == EXIT_INPUT:
        return 422, result.status, _input_error(result)
    if result.status == EXIT_TIMEOUT:
        body = {**result.output, "message": result.error or "stopped"}
        return 503, result.status, body
    if result.status == EXIT_INCONSISTENT:
        # answered, but the rule base contradicts itself: a fault of the server's rules
        return 500, result.status, as_printed(result.output, pool.engine)
    return 200, result.status, as_printed(result.output, pool.engine)


def as_printed(output: dict, engine=None) -> dict:
    """The answers as `mtgkb run --json` prints them: with the rule base
    they came from (the `engine`'s, the pool's; else the one this process
    uses, mtgkb.rulebase.location.current)."""
    if engine is not None:
        return {**output, "rule_base": engine.describe()}
    from mtgkb.rulebase import location as paths

    current = getattr(paths, "current", None)
    if current is None:
        return output
    return {**output, "rule_base": current().describe()}


# --------------------------------------------------------------------------
# the parsed scenario, for the page's drawing (computed in a worker)


def scenario_view(text: str, name: str) -> dict:
    """The parsed scenario as JSON data, and its clingo facts."""
    from mtgkb.language.errors import ScenarioError
    from mtgkb.language.facts import facts_text, scenario_facts
    from mtgkb.language.parser import parse_text
    from mtgkb.running.pool import travelling

    try:
        scenario = parse_text(text, name)
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
    }


def facts_answer(pool: Pool, settings: Settings, payload: Any) -> tuple[int, dict]:
    from mtgkb.running.deadline import DeadlineExceeded, WorkerLost
    from mtgkb.running.runner import FileResult

    try:
        text, name, limits, _ = read_request(payload, settings)
    except BadRequest as err:
        return 400, {"error": "bad request", "message": str(err)}
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes(settings):
        return 413, too_large(settings, size)
    try:
        view = pool.call(scenario_view, text, name, timeout=limits.timeout)
    except (DeadlineExceeded, WorkerLost) as err:
        return 503, {"file": name, "error": "timeout", "message": f"{name}: error: {err}"}
    if "error" in view:
        err = view["error"]
        return 422, _input_error(FileResult(name, 2, {}, err.format(), err))
    return 200, view


# --------------------------------------------------------------------------
# the rule index and the examples


def rule_answer(number: str, lang: str = "en") -> tuple[int, dict]:
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
    from contextlib import asynccontextmanager

    from fastapi import FastAPI, Request
    from fastapi.responses import FileResponse, JSONResponse, Response
    from fastapi.staticfiles import StaticFiles
    from starlette.concurrency import run_in_threadpool

    from mtgkb.serve import openapi

    settings = settings or Settings()
    owned = pool is None
    pool = pool or Pool(settings.workers, memory=settings.pool_memory())

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
    app.state.pool = pool
    app.state.settings = settings

    async def body_of(request: Request) -> tuple[Any, int] | Response:
        """The request's payload (text or JSON) and its size, or the error answer."""
        limit = max_bytes(settings) + 4096  # room for the JSON envelope
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            return JSONResponse(too_large(settings, int(declared)), status_code=413)
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                return JSONResponse(too_large(settings, size), status_code=413)
            chunks.append(chunk)
        data = b"".join(chunks)
        kind = request.headers.get("content-type", "text/plain").split(";")[0].strip().lower()
        if kind == "application/json":
            try:
                return json.loads(data.decode("utf-8")), size
            except (UnicodeDecodeError, ValueError) as err:
                message = f"the body is not JSON: {err}"
                return JSONResponse({"error": "bad request", "message": message}, 400)
        if kind in ("text/plain", "application/octet-stream", ""):
            try:
                return data.decode("utf-8"), size
            except UnicodeDecodeError:
                # the parser says where the bad byte is: let it
                return data.decode("utf-8", "surrogateescape"), size
        message = f"send text/plain or application/json, not {kind}"
        return JSONResponse({"error": "unsupported media type", "message": message}, 415)

    @app.post(
        "/v1/run",
        summary="Answer every question of a scenario",
        openapi_extra=openapi.RUN_REQUEST,
        responses=openapi.RUN_RESPONSES,
        response_class=JSONResponse,
    )
    async def run(request: Request):
        got = await body_of(request)
        if isinstance(got, Response):
            return got
        payload, _ = got
        status, exit_status, body = await run_in_threadpool(run_answer, pool, settings, payload)
        return JSONResponse(body, status_code=status, headers={"X-Mtgkb-Exit": str(exit_status)})

    @app.post(
        "/v1/facts",
        summary="The parsed scenario: players in seating order, objects, attacks, blocks",
        openapi_extra=openapi.RUN_REQUEST,
        responses=openapi.FACTS_RESPONSES,
        response_class=JSONResponse,
    )
    async def facts(request: Request):
        got = await body_of(request)
        if isinstance(got, Response):
            return got
        status, body = await run_in_threadpool(facts_answer, pool, settings, got[0])
        return JSONResponse(body, status_code=status)

    @app.get(
        "/v1/rules/{number}",
        summary="One rule of the index: paraphrase, where it is encoded, which tests use it",
        responses=openapi.RULE_RESPONSES,
        response_class=JSONResponse,
    )
    async def rule(number: str, lang: str = "en"):
        status, body = await run_in_threadpool(rule_answer, number, lang)
        return JSONResponse(body, status_code=status)

    @app.get("/v1/examples", summary="The bundled example scenarios")
    async def example_list() -> list[dict]:
        return examples()

    @app.get("/v1/examples/{name}", summary="One bundled example, as text/plain")
    async def example(name: str):
        if EXAMPLE_NAME.fullmatch(name):
            for found in examples():
                if found["name"] == name:
                    return Response(found["text"], media_type="text/plain; charset=utf-8")
        return JSONResponse({"error": "not found", "message": f"no example {name!r}"}, 404)

    @app.get("/health", summary="Whether the server answers, and its workers")
    async def health() -> dict:
        return {"status": "ok", "version": __version__, "pool": pool.stats()}

    @app.get("/", include_in_schema=False)
    async def page():
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


# --------------------------------------------------------------------------
# the command


def serve_stdio(settings: Settings, stdin=None, stdout=None) -> int:
    """One JSON request per line in, one JSON answer per line out."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    with Pool(settings.workers, memory=settings.pool_memory()) as pool:
        pool.start()
        for line in stdin:
            if not line.strip():
                continue
            ident = None
            try:
                payload = json.loads(line)
            except ValueError as err:
                status, exit_status = 400, 2
                body = {"error": "bad request", "message": f"the line is not JSON: {err}"}
            else:
                if isinstance(payload, dict):
                    ident = payload.pop("id", None)
                status, exit_status, body = run_answer(pool, settings, payload)
            out = {"status": status, "exit": exit_status, "body": body}
            if ident is not None:
                out = {"id": ident, **out}
            stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
            stdout.flush()
    return 0


def serve_command(args) -> int:

    settings = Settings(
        workers=args.workers,
        timeout=args.timeout,
        max_timeout=max(args.timeout, MAX_TIMEOUT),
        memory=args.memory,
        rule_base=args.rule_base,
    )
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
    app = create_app(settings)
    print(f"mtgkb serve: the page is at http://{args.host}:{args.port}/", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
