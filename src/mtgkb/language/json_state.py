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
from typing import TYPE_CHECKING, Any

from mtgkb.language.checks import say
from mtgkb.language.errors import ScenarioError
from mtgkb.language.model import Scenario
from mtgkb.language.parser import MAX_BYTES, parse_text, read_text
from mtgkb.language.suggest import closest, did_you_mean
from mtgkb.language.validate import validate

if TYPE_CHECKING:
    from mtgkb.language.state_reader import scenario_state
    from mtgkb.language.state_writer import SourceMap, write_state

SCHEMA_FILE = Path(__file__).resolve().parent / "scenario.schema.json"

#: The two directions of a state, imported on first use: a scenario file
#: written as text needs neither (their functions import them where used).
_LAZY = {
    "SourceMap": "mtgkb.language.state_writer",
    "write_state": "mtgkb.language.state_writer",
    "scenario_state": "mtgkb.language.state_reader",
}


def __getattr__(name: str):
    """`SourceMap`, `write_state` and `scenario_state`, imported on first use."""
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


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


def state_json(state: dict, filename: str = "<state>", lang: str = "en") -> str:
    """A state given as a dict, as JSON text (to send to a worker); a dict
    that is no JSON data (a set in it, nested past any state) is an error."""
    from mtgkb.language.state_writer import state_error

    try:
        return json.dumps(state, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise state_error(filename, "/", say("state_too_deep", lang)) from None
    except (TypeError, ValueError) as err:
        raise state_error(filename, "/", say("state_not_json_data", lang, err)) from None


def decode(source: Any, filename: str, lang: str = "en") -> dict:
    """The JSON object of a state given as a dict, text or UTF-8 bytes."""
    from mtgkb.language.state_writer import state_error

    if isinstance(source, dict):
        data = source
    else:
        too_large = say("state_too_large", lang, MAX_BYTES // 1024)
        if isinstance(source, (bytes, bytearray, memoryview)):
            raw = bytes(source)
            if len(raw) > MAX_BYTES:
                raise state_error(filename, "/", too_large)
            try:
                source = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                message = say("state_not_utf8", lang, err.reason, err.start)
                raise state_error(filename, "/", message) from None
        elif len(source.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise state_error(filename, "/", too_large)
        try:
            data = json.loads(source.lstrip("\ufeff"))
        except RecursionError:
            raise state_error(filename, "/", say("json_too_deep", lang)) from None
        except ValueError as err:
            raise state_error(filename, "/", say("state_not_json", lang, err)) from None
    if not isinstance(data, dict):
        raise state_error(filename, "/", say("state_not_object", lang))
    return data


# What a JSON value of each type is (kb/input_messages.lp).
_TYPE_KINDS = {
    "object": "type_object",
    "array": "type_array",
    "string": "type_string",
    "integer": "type_integer",
    "boolean": "type_boolean",
    "number": "noun_number",
    "null": "type_null",
}
# What a text of each pattern of the schema ($defs) is: its description, said
# in the language asked.
_PATTERN_KINDS = {
    "player": "pattern_player",
    "name": "pattern_name",
    "playerOrName": "pattern_player_or_name",
    "word": "pattern_word",
}


def _pattern_text(part: dict, lang: str) -> str:
    """What a text matching the schema `part` (with a pattern) is."""
    for name, kind in _PATTERN_KINDS.items():
        if schema()["$defs"].get(name) == part:
            return say(kind, lang)
    return part.get("description") or say("schema_matching", lang, part["pattern"])


def _schema_message(error, state: dict, lang: str = "en") -> tuple[str, str]:
    """(JSON path, message) of one jsonschema error, said plainly in `lang`."""
    from mtgkb.language.state_writer import pointer

    where = list(error.absolute_path)
    validator, expected = error.validator, error.validator_value
    if validator is None:  # a field this kind does not have (a `false` schema)
        holder: Any = state
        for key in where:
            holder = holder[key]
        named = next((holder[k] for k in ("kind", "ask", "type", "change") if k in holder), None)
        extra = next((k for k, v in holder.items() if v is error.instance), None)
        where += [extra] if extra is not None else []
        item = json.dumps(named) if named else say("schema_this_item", lang)
        message = say("schema_not_field", lang, item)
    elif validator == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        types = [say(_TYPE_KINDS[k], lang) if k in _TYPE_KINDS else k for k in kinds]
        message = say("schema_must_be", lang, say("word_or", lang).join(types))
    elif validator == "required":
        missing = next((k for k in expected if k not in (error.instance or {})), expected[0])
        message = say("schema_required", lang, missing)
    elif validator == "additionalProperties":
        known = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in known)
        where.append(extra[0] if extra else "")
        message = say("schema_unknown_field", lang)
        if known and extra:
            close = closest(extra[0], sorted(known))
            message += did_you_mean(extra[0], close, lang) if close else ""
            message += say("hint_known", lang, ", ".join(sorted(known)))
    elif validator == "enum" or validator == "const":
        values = expected if validator == "enum" else [expected]
        message = say("schema_one_of", lang, ", ".join(json.dumps(v) for v in values))
    elif validator == "pattern":
        value = json.dumps(error.instance, ensure_ascii=False)
        message = say("value_is_not", lang, value, _pattern_text(error.schema, lang))
    elif validator == "minimum":
        message = say("schema_at_least", lang, expected)
    elif validator == "maximum":
        message = say("schema_at_most", lang, expected)
    elif validator in ("minItems", "minLength", "minProperties"):
        if validator == "minLength" and expected == 1:
            message = say("schema_not_empty", lang)
        else:
            kind = {
                "minItems": "schema_min_items",
                "minLength": "schema_min_length",
                "minProperties": "schema_min_fields",
            }[validator]
            message = say(kind, lang, expected)
    elif validator in ("maxItems", "maxLength", "maxProperties"):
        kind = {
            "maxItems": "schema_max_items",
            "maxLength": "schema_max_length",
            "maxProperties": "schema_max_fields",
        }[validator]
        message = say(kind, lang, expected)
    elif validator == "uniqueItems":
        message = say("schema_unique", lang)
    elif validator in ("oneOf", "anyOf") and error.context:  # (no alternative fits)
        message = say("schema_no_variant", lang, repr(error.instance))
    else:
        message = error.message  # (jsonschema's own words)
    return pointer(*where), message


@cache
def _validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def check_schema(state: dict, filename: str, lang: str = "en") -> None:
    """Refuse a state the schema does not describe, naming the JSON path
    of the first fault."""
    from jsonschema.exceptions import best_match

    from mtgkb.language.state_writer import state_error

    try:
        error = best_match(_validator().iter_errors(state))
    except RecursionError:
        raise state_error(filename, "/", say("state_too_deep", lang)) from None
    if error is not None:
        path, message = _schema_message(error, state, lang)
        raise state_error(filename, path, message)


def read_state(source: Any, filename: str = "<state>", lang: str = "en") -> Scenario:
    """A JSON state read into a Scenario, not yet validated (like
    parser.read_text); its `origin` maps its text back to the JSON. Its
    errors speak `lang`."""
    from mtgkb.language.state_writer import write_state

    state = decode(source, filename, lang)
    check_schema(state, filename, lang)
    lines = write_state(state, filename, lang)
    try:
        scenario = read_text(lines.text(), filename, lang)
    except ScenarioError as err:
        raise lines.map.located(err) from None
    scenario.origin = lines.map
    return scenario


def read_scenario(source: Any, filename: str = "<stdin>", lang: str = "en") -> Scenario:
    """Scenario text or a JSON state, read but not validated (its errors in `lang`)."""
    if is_state(source):
        return read_state(source, filename, lang)
    return read_text(source, filename, lang)


def validate_scenario(scenario: Scenario, lang: str = "en", checked: list | None = None) -> None:
    """mtgkb.language.validate, its errors said with JSON paths for a state."""
    try:
        validate(scenario, lang, checked)
    except ScenarioError as err:
        if scenario.origin is not None:  # (only a state's text has one: its module is loaded)
            from mtgkb.language.state_writer import SourceMap

            if isinstance(scenario.origin, SourceMap):
                raise scenario.origin.located(err) from None
        raise


def parse_scenario(source: Any, filename: str = "<stdin>", lang: str = "en") -> Scenario:
    """Scenario text or a JSON state, read and validated (parser.parse_text)."""
    scenario = read_scenario(source, filename, lang)
    validate_scenario(scenario, lang)
    return scenario


def state_to_text(source: Any, filename: str = "<state>") -> str:
    """The `.mtg` text of a JSON state (checked against the schema)."""
    from mtgkb.language.state_writer import write_state

    state = decode(source, filename)
    check_schema(state, filename)
    return write_state(state, filename).text()


def text_to_state(text: str | bytes, filename: str = "<stdin>") -> dict:
    """The JSON state of scenario text (parsed and validated)."""
    from mtgkb.language.state_reader import scenario_state

    return scenario_state(parse_text(text, filename))


def convert(source: Any, filename: str = "<stdin>", to: str | None = None) -> str:
    """`mtgkb convert`: scenario text as its JSON state, a JSON state as
    scenario text (`to`: "json" or "mtg" to choose; by default the other
    form). Either is read and checked in full first (ScenarioError)."""
    from mtgkb.language.state_reader import scenario_state
    from mtgkb.language.state_writer import write_state

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
