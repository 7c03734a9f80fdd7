"""What the server's OpenAPI document says about requests and answers
(the routes read their bodies themselves: a scenario comes as text/plain or
as JSON, so the schemas are written here). The answers' schemas are those of
the typed answers (mtgkb.output.models, made from the registry's description
of each kind of question): `document` puts their classes in the document's
components."""

from __future__ import annotations

from mtgkb.output import models

#: Where the answers' classes are, in the OpenAPI document.
REFS = "#/components/schemas/{model}"


def _schema_and_components() -> tuple[dict, dict, dict]:
    """The schemas of an answered file and of an unanswered one (their classes
    referred to in the components), and those components."""
    answered = models.json_schema(REFS)
    failed = models.error_schema(REFS)
    components = {**answered.pop("$defs", {}), **failed.pop("$defs", {})}
    components["RunResult"] = answered
    components["RunError"] = failed
    return answered, failed, components


RUN_RESULT, RUN_ERROR, COMPONENTS = _schema_and_components()

RUN_JSON = {
    "type": "object",
    "additionalProperties": False,
    "description": "either `scenario` (text) or `state` (a JSON game state)",
    "properties": {
        "scenario": {"type": "string", "description": "the scenario, in the .mtg language"},
        "state": {
            "type": "object",
            "description": "the scenario as a JSON game state: its JSON Schema is served at "
            "GET /v1/schema/scenario (errors name the JSON path, 422)",
        },
        "timeout": {
            "type": "number",
            "exclusiveMinimum": 0,
            "description": "seconds before the work is stopped (503); default: the server's",
        },
        "max_models": {
            "type": "integer",
            "minimum": 0,
            "description": "how many declarations or orders to list at most (0: no cap)",
        },
        "lang": {"type": "string", "enum": ["en", "it"], "default": "en"},
        "name": {"type": "string", "description": "the file name used in messages"},
    },
}

RUN_REQUEST = {
    "requestBody": {
        "required": True,
        "content": {
            "text/plain": {
                "schema": {"type": "string"},
                "example": 'players: Ann, Ben\nAnn controls creature "Bear" 2/2\n'
                '"Bear" attacks Ben\nask legal\n',
            },
            "application/json": {"schema": RUN_JSON},
        },
    }
}

#: What `mtgkb run --json` prints for one answered file: one answer per `ask`,
#: each of the class of its kind of question.
RUN_ANSWER = RUN_RESULT

#: Unreadable input: the FILE:LINE:COL message with its caret line, its line
#: and column as fields (or a time-out, the memory bound).
INPUT_ERROR = RUN_ERROR

PROBLEM = {
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string"},
        "message": {"type": "string"},
        "limit": {"type": "integer", "description": "the largest scenario accepted, in bytes"},
        "file": {"type": "string"},
        "schema_version": {"type": "string"},
        "cr_edition": {"type": "string"},
    },
}


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_COMMON = {
    "400": _json(PROBLEM, "not a request: a wrong field, not JSON"),
    "413": _json(PROBLEM, "the scenario is too large"),
    "415": _json(PROBLEM, "neither text/plain nor application/json"),
    "422": _json(INPUT_ERROR, "unreadable input (mtgkb run's exit 2)"),
    "503": _json(PROBLEM, "the time-out or the memory bound stopped the work (exit 3)"),
    "500": _json(
        PROBLEM,
        "a fault of mtgkb; with `answers`: the rule base contradicts itself "
        "(exit 4, its `inconsistent` entries say where)",
    ),
}

RUN_RESPONSES = {
    "200": {
        **_json(RUN_ANSWER, "answered: every play legal (exit 0) or some play illegal (exit 1)"),
        "headers": {
            "X-Mtgkb-Exit": {
                "description": "the exit status `mtgkb run` would give",
                "schema": {"type": "integer"},
            }
        },
    },
    **_COMMON,
}

SCENARIO_VIEW = {
    "type": "object",
    "required": ["file", "scenario", "facts"],
    "properties": {
        "file": {"type": "string"},
        "scenario": {
            "type": "object",
            "properties": {
                "game": {"type": "string"},
                "options": {"type": "array", "items": {"type": "string"}},
                "active": {"type": "string"},
                "phase": {"type": "string"},
                "players": {
                    "type": "array",
                    "description": "in seating (turn) order",
                    "items": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string"},
                            "seat": {"type": "integer"},
                            "team": {"type": ["string", "null"]},
                        },
                    },
                },
                "teams": {"type": "array", "items": {"type": "object"}},
                "objects": {"type": "array", "items": {"type": "object"}},
                "attacks": {"type": "array", "items": {"type": "object"}},
                "blocks": {"type": "array", "items": {"type": "object"}},
                "questions": {"type": "array", "items": {"type": "object"}},
            },
        },
        "facts": {"type": "string", "description": "the clingo facts, as `mtgkb facts` prints"},
    },
}

FACTS_RESPONSES = {"200": _json(SCENARIO_VIEW, "the parsed scenario"), **_COMMON}

RULE = {
    "type": "object",
    "description": "what `mtgkb rules N --json` prints",
    "required": ["id", "paraphrase", "encoded_at", "tested_by"],
    "properties": {
        "id": {"type": "string"},
        "section": {"type": "string"},
        "titles": {"type": "array", "items": {"type": "object"}},
        "paraphrase": {"type": "string"},
        "lang": {"type": "string"},
        "edition": {"type": "string"},
        "encoded_at": {"type": "array", "items": {"type": "string"}},
        "tested_by": {"type": "array", "items": {"type": "string"}},
        "note": {"type": "string"},
    },
}

RULE_RESPONSES = {
    "200": _json(RULE, "the rule"),
    "404": _json(PROBLEM, "no such rule in the index"),
}


# --------------------------------------------------------------------------
# POST /v1/batch (issue 27, item 3)

BATCH_ITEM = {
    "description": "one request of the batch: the body of POST /v1/run (an object, "
    "or the scenario text as a string), optionally with an `id` its answer carries back",
    "oneOf": [
        {"type": "string"},
        {
            **RUN_JSON,
            "properties": {
                **RUN_JSON["properties"],
                "id": {"description": "any JSON value, given back with the answer"},
            },
        },
    ],
}

BATCH_REQUEST = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"type": "array", "items": BATCH_ITEM}},
            "application/x-ndjson": {
                "schema": {"type": "string", "description": "one request (JSON) per line"}
            },
        },
    }
}

BATCH_LINE = {
    "type": "object",
    "required": ["index", "status", "exit", "body"],
    "properties": {
        "id": {"description": "the request's `id`, when it had one"},
        "index": {"type": "integer", "description": "the request's place in the batch, from 0"},
        "status": {"type": "integer", "description": "the HTTP status POST /v1/run would give"},
        "exit": {"type": "integer", "description": "the exit status `mtgkb run` would give"},
        "body": {
            "description": "the body POST /v1/run would give",
            "anyOf": [{"$ref": REFS.format(model=m)} for m in ("RunResult", "RunError")]
            + [PROBLEM],
        },
    },
}

BATCH_RESPONSES = {
    "200": {
        "description": "every request answered, in input order (an item's error is its own "
        "answer, the batch still 200): a JSON array, or NDJSON streamed as answered",
        "content": {
            "application/json": {"schema": {"type": "array", "items": BATCH_LINE}},
            "application/x-ndjson": {"schema": {"type": "string"}},
        },
    },
    "400": _json(PROBLEM, "not a batch: not a JSON array, not JSON"),
    "413": _json(PROBLEM, "the batch is too large"),
    "503": _json(PROBLEM, "the server is busy (Retry-After says when to ask again)"),
}


def document(app) -> dict:
    """The server's OpenAPI document (made once), with the answers' classes
    in its components: `app.openapi` (FastAPI) calls it."""
    if app.openapi_schema:
        return app.openapi_schema
    from fastapi.openapi.utils import get_openapi

    found = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    found.setdefault("components", {}).setdefault("schemas", {}).update(COMPONENTS)
    app.openapi_schema = found
    return found
