"""JSON game states: the scenario language as JSON data, both ways.

A JSON state (described by `scenario.schema.json`, shipped beside this
module) says everything a `.mtg` file says: the table, the objects with
their abilities, the declarations, the events in order and the questions.
It is read by writing it as `.mtg` text, one statement per value
(mtgkb.language.state_writer), and parsing that text with the language's
own parser: the Scenario, its facts and its answers are those of the text
by construction. While writing, each piece of text remembers the JSON path
it came from (a `SourceMap`), so that an error the parser, the checks of
names or the rule base find names the JSON path (`/objects/3/power: ...`)
instead of a line of a text the user never wrote. Before that, the state is
checked against the schema (with the `jsonschema` library, imported only
when a state is read).

The other way, mtgkb.language.state_reader turns a parsed Scenario into its
JSON state: `mtgkb convert` between the two forms, `POST /v1/facts`
returns it. This module is the door: what reads scenario text or a state
alike (`parse_scenario`, `read_scenario`, `validate_scenario`) is here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from mtgkb.language.errors import ScenarioError
from mtgkb.language.model import Scenario
from mtgkb.language.parser import MAX_BYTES, parse_text, read_text
from mtgkb.language.state_reader import scenario_state
from mtgkb.language.state_writer import SourceMap, pointer, state_error, write_state
from mtgkb.language.suggest import closest, did_you_mean
from mtgkb.language.validate import validate

SCHEMA_FILE = Path(__file__).resolve().parent / "scenario.schema.json"


@cache
def schema() -> dict:
    """The JSON Schema of a state (scenario.schema.json)."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def is_state(source: Any) -> bool:
    """Whether `source` is a JSON state rather than scenario text: a dict,
    or text whose first character (past blanks) is `{`, which no statement
    of the language starts with."""
    if isinstance(source, dict):
        return True
    if isinstance(source, (bytes, bytearray, memoryview)):
        head = bytes(source[:4096]).lstrip(b" \t\r\n\xef\xbb\xbf")
        return head.startswith(b"{")
    if isinstance(source, str):
        return source[:4096].lstrip(" \t\r\n\ufeff").startswith("{")
    return False


def state_json(state: dict, filename: str = "<state>") -> str:
    """A state given as a dict, as JSON text (to send to a worker); a dict
    that is no JSON data (a set in it, nested past any state) is an error."""
    try:
        return json.dumps(state, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise state_error(filename, "/", "the state nests too deep to be a state") from None
    except (TypeError, ValueError) as err:
        raise state_error(filename, "/", f"not JSON data: {err}") from None


def decode(source: Any, filename: str) -> dict:
    """The JSON object of a state given as a dict, text or UTF-8 bytes."""
    if isinstance(source, dict):
        data = source
    else:
        if isinstance(source, (bytes, bytearray, memoryview)):
            raw = bytes(source)
            if len(raw) > MAX_BYTES:
                raise state_error(
                    filename, "/", f"the state is larger than {MAX_BYTES // 1024} KiB"
                )
            try:
                source = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise state_error(
                    filename,
                    "/",
                    f"the state is not valid UTF-8 ({err.reason} at byte {err.start})",
                ) from None
        elif len(source.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise state_error(filename, "/", f"the state is larger than {MAX_BYTES // 1024} KiB")
        try:
            data = json.loads(source.lstrip("\ufeff"))
        except RecursionError:
            raise state_error(filename, "/", "the JSON nests too deep to be a state") from None
        except ValueError as err:
            raise state_error(filename, "/", f"not JSON: {err}") from None
    if not isinstance(data, dict):
        raise state_error(filename, "/", "a state is a JSON object")
    return data


_TYPE_WORDS = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "boolean": "true or false",
    "number": "a number",
    "null": "null",
}


def _schema_message(error, state: dict) -> tuple[str, str]:
    """(JSON path, message) of one jsonschema error, said plainly."""
    where = list(error.absolute_path)
    validator, expected = error.validator, error.validator_value
    if validator is None:  # a field this kind does not have (a `false` schema)
        holder: Any = state
        for key in where:
            holder = holder[key]
        kind = next((holder[k] for k in ("kind", "ask", "type", "change") if k in holder), None)
        extra = next((k for k, v in holder.items() if v is error.instance), None)
        where += [extra] if extra is not None else []
        message = "not a field of " + (json.dumps(kind) if kind else "this item")
    elif validator == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        message = "must be " + " or ".join(_TYPE_WORDS.get(k, k) for k in kinds)
    elif validator == "required":
        missing = next((k for k in expected if k not in (error.instance or {})), expected[0])
        message = f"'{missing}' is required"
    elif validator == "additionalProperties":
        known = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in known)
        where.append(extra[0] if extra else "")
        message = "unknown field"
        if known and extra:
            close = closest(extra[0], sorted(known))
            message += did_you_mean(extra[0], close) if close else ""
            message += f" (known: {', '.join(sorted(known))})"
    elif validator == "enum" or validator == "const":
        values = expected if validator == "enum" else [expected]
        message = "must be one of: " + ", ".join(json.dumps(v) for v in values)
    elif validator == "pattern":
        what = error.schema.get("description", f"text matching {expected}")
        message = f"{json.dumps(error.instance, ensure_ascii=False)} is not {what}"
    elif validator == "minimum":
        message = f"must be at least {expected}"
    elif validator == "maximum":
        message = f"must be at most {expected}"
    elif validator in ("minItems", "minLength", "minProperties"):
        message = {
            "minItems": f"must have at least {expected} item(s)",
            "minLength": "may not be empty" if expected == 1 else f"needs {expected} characters",
            "minProperties": f"must have at least {expected} field(s)",
        }[validator]
    elif validator in ("maxItems", "maxLength", "maxProperties"):
        message = {
            "maxItems": f"may have at most {expected} item(s)",
            "maxLength": f"may be at most {expected} characters long",
            "maxProperties": f"may have at most {expected} field(s)",
        }[validator]
    elif validator == "uniqueItems":
        message = "names the same item twice"
    else:
        message = error.message
    return pointer(*where), message


@cache
def _validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def check_schema(state: dict, filename: str) -> None:
    """Refuse a state the schema does not describe, naming the JSON path
    of the first fault."""
    from jsonschema.exceptions import best_match

    try:
        error = best_match(_validator().iter_errors(state))
    except RecursionError:
        raise state_error(filename, "/", "the state nests too deep to be a state") from None
    if error is not None:
        path, message = _schema_message(error, state)
        raise state_error(filename, path, message)


def read_state(source: Any, filename: str = "<state>") -> Scenario:
    """A JSON state read into a Scenario, not yet validated (like
    parser.read_text); its `origin` maps its text back to the JSON."""
    state = decode(source, filename)
    check_schema(state, filename)
    lines = write_state(state, filename)
    try:
        scenario = read_text(lines.text(), filename)
    except ScenarioError as err:
        raise lines.map.located(err) from None
    scenario.origin = lines.map
    return scenario


def read_scenario(source: Any, filename: str = "<stdin>") -> Scenario:
    """Scenario text or a JSON state, read but not validated."""
    if is_state(source):
        return read_state(source, filename)
    return read_text(source, filename)


def validate_scenario(scenario: Scenario, lang: str = "en", checked: list | None = None) -> None:
    """mtgkb.language.validate, its errors said with JSON paths for a state."""
    try:
        validate(scenario, lang, checked)
    except ScenarioError as err:
        if isinstance(scenario.origin, SourceMap):
            raise scenario.origin.located(err) from None
        raise


def parse_scenario(source: Any, filename: str = "<stdin>", lang: str = "en") -> Scenario:
    """Scenario text or a JSON state, read and validated (parser.parse_text)."""
    scenario = read_scenario(source, filename)
    validate_scenario(scenario, lang)
    return scenario


def state_to_text(source: Any, filename: str = "<state>") -> str:
    """The `.mtg` text of a JSON state (checked against the schema)."""
    state = decode(source, filename)
    check_schema(state, filename)
    return write_state(state, filename).text()


def text_to_state(text: str | bytes, filename: str = "<stdin>") -> dict:
    """The JSON state of scenario text (parsed and validated)."""
    return scenario_state(parse_text(text, filename))


def convert(source: Any, filename: str = "<stdin>", to: str | None = None) -> str:
    """`mtgkb convert`: scenario text as its JSON state, a JSON state as
    scenario text (`to`: "json" or "mtg" to choose; by default the other
    form). Either is read and checked in full first (ScenarioError)."""
    scenario = parse_scenario(source, filename)
    state = scenario_state(scenario)
    if (to or ("mtg" if is_state(source) else "json")) == "json":
        return json.dumps(state, ensure_ascii=False, indent=2) + "\n"
    return write_state(state, filename).text()


__all__ = [
    "convert",
    "state_json",
    "SCHEMA_FILE",
    "SourceMap",
    "is_state",
    "parse_scenario",
    "read_scenario",
    "read_state",
    "scenario_state",
    "schema",
    "state_to_text",
    "text_to_state",
    "validate_scenario",
    "write_state",
]
