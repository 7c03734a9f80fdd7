"""JSON game states: the scenario language as JSON data, both ways.

A JSON state (described by `scenario.schema.json`, shipped beside this
module) says everything a `.mtg` file says: the table, the objects with
their abilities, the declarations, the events in order and the questions.
It is read by writing it as `.mtg` text, one statement per value, and
parsing that text with the language's own parser: the Scenario, its facts
and its answers are those of the text by construction. While writing, each
piece of text remembers the JSON path it came from (a `SourceMap`), so that
an error the parser, the checks of names or the rule base find names the
JSON path (`/objects/3/power: ...`) instead of a line of a text the user
never wrote. Before that, the state is checked against the schema (with
the `jsonschema` library) and every value that becomes a bare word or name
is checked to be exactly one, so no value can change the meaning of the
text around it.

The other way, `scenario_state` turns a parsed Scenario into its JSON
state: `mtgkb convert` between the two forms, `POST /v1/facts` returns it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from mtgkb.language.errors import ScenarioError
from mtgkb.language.model import Ability, Event, Question, Scenario
from mtgkb.language.parser import MAX_BYTES, parse_text, read_text
from mtgkb.language.suggest import closest, did_you_mean
from mtgkb.language.validate import validate
from mtgkb.rulebase import registry
from mtgkb.rulebase.vocabulary import Vocabulary, normal_word, vocabulary

SCHEMA_FILE = Path(__file__).resolve().parent / "scenario.schema.json"
SCHEMA_ID = "https://mtgkb.invalid/schema/scenario.json"

# A player's name (the grammar's NAME) and a vocabulary word (its WORD).
BARE_NAME = re.compile(r"[^\W\d]\w*")
WORD = re.compile(r"[^\W\d][\w'’-]*")


@cache
def schema() -> dict:
    """The JSON Schema of a state (scenario.schema.json)."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


# -------------------------------------------------------------------------
# where each piece of the text came from


def pointer(*parts: str | int) -> str:
    """A JSON pointer (RFC 6901) of these keys and indexes."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass
class SourceMap:
    """For each line of the text of a state (1-based), the JSON path of its
    statement and the pieces of it that came from deeper paths:
    (first column, column after the last, path), columns 1-based."""

    statements: list[str] = field(default_factory=list)
    pieces: list[list[tuple[int, int, str]]] = field(default_factory=list)

    def path_at(self, line: int, column: int) -> str:
        """The JSON path of what is written at `line`, `column` (the
        narrowest piece there, else the line's statement)."""
        if not 1 <= line <= len(self.statements):
            return ""
        best = None
        for start, end, path in self.pieces[line - 1]:
            if start <= column < end and (best is None or end - start < best[1] - best[0]):
                best = (start, end, path)
        return best[2] if best is not None else self.statements[line - 1]

    def located(self, err: ScenarioError) -> ScenarioError:
        """The error of the text as an error of the state: its JSON path
        first, `line N` in its message said as the path of that line."""
        path = self.path_at(err.line, err.column) if err.path is None else err.path
        message = err.message
        if err.path is None:
            message = re.sub(
                r"\bline (\d+)\b",
                lambda m: self.statement_of(int(m.group(1))),
                message,
            )
        return ScenarioError(
            f"{path or '/'}: {message}" if err.path is None else message,
            filename=err.filename,
            line=0,
            column=0,
            path=path or "/",
        )

    def statement_of(self, line: int) -> str:
        if 1 <= line <= len(self.statements):
            return self.statements[line - 1] or "/"
        return f"line {line}"


class Lines:
    """The text of a state, written statement by statement with its map."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.map = SourceMap()

    def add(self, path: str, *parts: str | tuple[str, str]) -> None:
        """One statement: its parts, each a text or (text, its JSON path)."""
        text, pieces = "", []
        for part in parts:
            if isinstance(part, tuple):
                written, where = part
                pieces.append((len(text) + 1, len(text) + 1 + max(len(written), 1), where))
                text += written
            else:
                text += part
        self.lines.append(text)
        self.map.statements.append(path)
        self.map.pieces.append(pieces)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


# -------------------------------------------------------------------------
# reading a state


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


def fail(filename: str, path: str, message: str) -> ScenarioError:
    """An error of the state at `path`."""
    return ScenarioError(
        f"{path or '/'}: {message}", filename=filename, line=0, column=0, path=path or "/"
    )


def decode(source: Any, filename: str) -> dict:
    """The JSON object of a state given as a dict, text or UTF-8 bytes."""
    if isinstance(source, dict):
        data = source
    else:
        if isinstance(source, (bytes, bytearray, memoryview)):
            raw = bytes(source)
            if len(raw) > MAX_BYTES:
                raise fail(filename, "/", f"the state is larger than {MAX_BYTES // 1024} KiB")
            try:
                source = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise fail(
                    filename,
                    "/",
                    f"the state is not valid UTF-8 ({err.reason} at byte {err.start})",
                ) from None
        elif len(source.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise fail(filename, "/", f"the state is larger than {MAX_BYTES // 1024} KiB")
        try:
            data = json.loads(source.lstrip("\ufeff"))
        except RecursionError:
            raise fail(filename, "/", "the JSON nests too deep to be a state") from None
        except ValueError as err:
            raise fail(filename, "/", f"not JSON: {err}") from None
    if not isinstance(data, dict):
        raise fail(filename, "/", "a state is a JSON object")
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

    error = best_match(_validator().iter_errors(state))
    if error is not None:
        path, message = _schema_message(error, state)
        raise fail(filename, path, message)


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


# -------------------------------------------------------------------------
# a state as text


def whole(value: Any) -> bool:
    """A whole number, as JSON Schema counts them (2.0 is one; true is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or value.is_integer()


def quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def hyphens(word: str) -> str:
    return word.replace("_", "-")


class _Writer:
    """Writes one state as text; each value is checked to stay one word or
    one name of the text (else an error at its path)."""

    def __init__(self, state: dict, filename: str) -> None:
        self.state = state
        self.filename = filename
        self.out = Lines()
        self.players = {p for p in state.get("players", []) if isinstance(p, str)}
        # the names that can only be objects' (so an unknown bare name is a player's)
        self.objects = {
            item["name"]
            for key in ("objects", "stack", "triggers")
            for item in state.get(key, [])
            if isinstance(item, dict) and isinstance(item.get("name"), str)
        }
        self.vocab: Vocabulary = vocabulary()

    def fail(self, path: str, message: str) -> ScenarioError:
        return fail(self.filename, path, message)

    # ---- values

    def player(self, value: str, path: str) -> tuple[str, str]:
        """A player's name, written bare."""
        if not BARE_NAME.fullmatch(value):
            raise self.fail(
                path,
                f"{json.dumps(value, ensure_ascii=False)} is not a player's name (letters, "
                "digits and _, not starting with a digit)",
            )
        return (value, path)

    def obj(self, value: str, path: str) -> tuple[str, str]:
        """An object's name, written in quotes."""
        if "\n" in value or "\r" in value:
            raise self.fail(path, "a name may not hold a line break")
        return (quoted(value), path)

    def either(self, value: str, path: str) -> tuple[str, str]:
        """A player (bare) or an object or team (quoted); a name that is
        neither is written as a player's where it can be one."""
        if value in self.players or value not in self.objects and BARE_NAME.fullmatch(value):
            return (value, path)
        return self.obj(value, path)

    def player_or_team(self, value: str, path: str) -> tuple[str, str]:
        """A player (bare) or a team (quoted)."""
        return (value, path) if value in self.players else self.obj(value, path)

    def word(self, value: str, path: str) -> tuple[str, str]:
        """A word of the vocabulary (a game, a phase, a color, ...)."""
        if not WORD.fullmatch(value):
            raise self.fail(path, f"{json.dumps(value, ensure_ascii=False)} is not a word")
        return (value, path)

    @staticmethod
    def number(value: Any, path: str) -> tuple[str, str]:
        return (str(int(value)), path)

    def ability(self, value: Any, path: str) -> tuple[str, str]:
        """An ability of an object or a player: its phrase of the vocabulary,
        or {phrase: argument} for one that takes an argument."""
        vocab = self.vocab
        if isinstance(value, str):
            phrase = " ".join(normal_word(w) for w in value.split())
            if phrase in vocab.simple():
                return (phrase, path)
            suffix = self.suffixed(phrase)
            if suffix:
                return (phrase, path)
            raise self.fail(path, self.unknown(value, list(vocab.simple())))
        ((key, argument),) = value.items()
        phrase = " ".join(normal_word(w) for w in key.split())
        found = vocab.with_arguments().get(phrase)
        where = path + pointer(key)
        if found is None:
            raise self.fail(where, self.unknown(key, list(vocab.with_arguments())))
        shape = found.shape
        if shape == "number":
            if not whole(argument):
                raise self.fail(where, f"'{phrase}' takes a number")
            text = f"{phrase} {int(argument)}"
            after = vocab.words_after(found.name)
            if after:
                text += " " + " ".join(after)
            return (text, where)
        if shape == "counter":
            kinds = dict(vocab.counter_kinds)
            ok = isinstance(argument, dict) and set(argument) == {"kind", "count"}
            if not ok or argument["kind"] not in kinds or not whole(argument["count"]):
                raise self.fail(
                    where,
                    f'\'{phrase}\' takes {{"kind": one of {", ".join(kinds)}, "count": N}}',
                )
            return (f"{phrase} {argument['kind']} {int(argument['count'])}", where)
        if shape == "types":
            items = argument if isinstance(argument, list) else None
            if not items or not all(isinstance(t, str) and WORD.fullmatch(t) for t in items):
                raise self.fail(where, f"'{phrase}' takes a list of land types (words)")
            return (f"{phrase} {' '.join(items)}", where)
        if not isinstance(argument, str):
            raise self.fail(where, f"'{phrase}' takes a {shape} (a string)")
        if shape == "player":
            self.player(argument, where)
        else:
            self.word(argument, where)
        return (f"{phrase} {argument}", where)

    def suffixed(self, phrase: str) -> bool:
        return any(
            phrase.endswith(suffix) and re.fullmatch(r"[^\W\d_]+", phrase[: -len(suffix)])
            for suffix in self.vocab.suffixes()
        )

    @staticmethod
    def unknown(value: str, known: list[str]) -> str:
        close = closest(value.lower(), known)
        hint = did_you_mean(value, close) if close else ""
        return f"unknown ability {json.dumps(value, ensure_ascii=False)}{hint}"

    # ---- statements

    def write(self) -> Lines:
        st = self.state
        add = self.out.add
        if "game" in st:
            add("/game", "game: ", self.word(st["game"], "/game"))
        for i, option in enumerate(st.get("options", [])):
            path = pointer("options", i)
            if isinstance(option, str):
                add(path, "option: ", self.word(option, path))
            else:
                add(
                    path,
                    "option: ",
                    self.word(option["name"], path + "/name"),
                    " ",
                    self.number(option["value"], path + "/value"),
                )
        if st.get("players"):
            parts: list = ["players: "]
            for i, name in enumerate(st["players"]):
                parts += [", "] if i else []
                parts.append(self.player(name, pointer("players", i)))
            add("/players", *parts)
        for i, team in enumerate(st.get("teams", [])):
            path = pointer("teams", i)
            parts = ["team ", self.obj(team["name"], path + "/name"), ": "]
            for k, member in enumerate(team["members"]):
                parts += [", "] if k else []
                parts.append(self.player(member, pointer("teams", i, "members", k)))
            add(path, *parts)
        for key in ("active", "starting"):
            if key in st:
                add("/" + key, f"{key}: ", self.player(st[key], "/" + key))
        if "phase" in st:
            add("/phase", "phase: ", self.word(st["phase"], "/phase"))
        for key, word in (("emperors", "emperor"), ("archenemies", "archenemy")):
            for i, name in enumerate(st.get(key, [])):
                path = pointer(key, i)
                add(path, f"{word}: ", self.player(name, path))
        for key, word in (("vanguards", "vanguard"), ("ranges", "range")):
            for name, value in st.get(key, {}).items():
                path = pointer(key, name)
                add(path, f"{word}: ", self.player(name, path), " ", self.number(value, path))
        for key, word in (("life", "life"), ("poison", "poison")):
            if st.get(key):
                self.pairs(f"{word}: ", key, st[key], self.player_or_team)
        if "max_attackers" in st:
            count = st["max_attackers"]
            noun = "creature" if count == 1 else "creatures"
            add(
                "/max_attackers",
                "rule: no more than ",
                self.number(count, "/max_attackers"),
                f" {noun} can attack",
            )
        for i, given in enumerate(st.get("commander_damage", [])):
            path = pointer("commander_damage", i)
            add(
                path,
                "commander damage: ",
                self.player(given["player"], path + "/player"),
                " ",
                self.number(given["amount"], path + "/amount"),
                " from ",
                self.obj(given["commander"], path + "/commander"),
            )
        for i, has in enumerate(st.get("player_abilities", [])):
            path = pointer("player_abilities", i)
            add(
                path,
                self.player(has["player"], path + "/player"),
                " has ",
                self.ability(has["ability"], path + "/ability"),
            )
        for i, control in enumerate(st.get("player_controls", [])):
            path = pointer("player_controls", i)
            add(
                path,
                self.player(control["controller"], path + "/controller"),
                " controls player ",
                self.player(control["controlled"], path + "/controlled"),
            )
        if "priority" in st:
            add("/priority", "priority: ", self.player(st["priority"], "/priority"))
        if "stack" in st:
            parts = ["stack: "]
            for i, item in enumerate(st["stack"]):
                path = pointer("stack", i)
                parts += [", "] if i else []
                parts += [
                    self.obj(item["name"], path + "/name"),
                    " controlled by ",
                    self.player(item["controller"], path + "/controller"),
                ]
            add("/stack", *(parts if st["stack"] else ["stack: empty"]))
        if st.get("lands_played"):
            self.pairs("lands played: ", "lands_played", st["lands_played"], self.player)
        for i, obj in enumerate(st.get("objects", [])):
            self.object(obj, pointer("objects", i))
        for i, name in enumerate(st.get("loyalty_used", [])):
            path = pointer("loyalty_used", i)
            add(path, self.obj(name, path), " activated a loyalty ability this turn")
        for field_name in DECLARATION_FIELDS:
            for i, item in enumerate(st.get(field_name, [])):
                path = pointer(field_name, i)
                add(path, *self.declaration(field_name, item, path, base=False))
        for i, event in enumerate(st.get("events", [])):
            path = pointer("events", i)
            add(path, *self.event(event, path))
        for i, trigger in enumerate(st.get("triggers", [])):
            path = pointer("triggers", i)
            add(
                path,
                "trigger ",
                self.obj(trigger["name"], path + "/name"),
                " controlled by ",
                self.player(trigger["controller"], path + "/controller"),
            )
        for i, question in enumerate(st.get("questions", [])):
            path = pointer("questions", i)
            add(path, "ask ", *self.question(question, path))
        return self.out

    def pairs(self, head: str, key: str, values: dict, written) -> None:
        parts: list = [head]
        for i, (name, value) in enumerate(values.items()):
            path = pointer(key, name)
            parts += [", "] if i else []
            parts += [written(name, path), " ", self.number(value, path)]
        self.out.add("/" + key, *parts)

    def object(self, obj: dict, path: str) -> None:
        kind = obj["type"]
        parts: list = [
            self.player(obj["controller"], path + "/controller"),
            " controls ",
            (kind, path + "/type"),
            " ",
            self.obj(obj["name"], path + "/name"),
        ]
        if kind == "creature":
            parts += [
                " ",
                self.number(obj["power"], path + "/power"),
                "/",
                self.number(obj["toughness"], path + "/toughness"),
            ]
        elif kind == "planeswalker":
            parts += [" loyalty ", self.number(obj["loyalty"], path + "/loyalty")]
        elif kind == "battle":
            parts += [" defense ", self.number(obj["defense"], path + "/defense")]
            if "protected_by" in obj:
                parts += [
                    " protected by ",
                    self.player(obj["protected_by"], path + "/protected_by"),
                ]
        for i, ability in enumerate(obj.get("abilities", [])):
            where = path + pointer("abilities", i)
            parts += [" with " if i == 0 else ", ", self.ability(ability, where)]
        self.out.add(path, *parts)

    # ---- declarations: the file's, and the play of `ask can`

    def declaration(self, field_name: str, item: Any, path: str, base: bool) -> list:
        """The parts of one declaration; `base`: its verb in the base form
        (the play of `ask can`)."""

        def verb(form: str) -> str:
            return f" {BASE_FORMS.get(form, form) if base else form} "

        if field_name == "defending_choices":
            return [
                self.player(item["player"], path + "/player"),
                verb("chooses"),
                self.player(item["defender"], path + "/defender"),
                " as defending player",
            ]
        if field_name == "attacks":
            return [
                self.obj(item["attacker"], path + "/attacker"),
                verb("attacks"),
                self.either(item["target"], path + "/target"),
            ]
        if field_name == "bands":
            parts: list = ["band "]
            for k, name in enumerate(item):
                parts += [", "] if k else []
                parts.append(self.obj(name, f"{path}/{k}"))
            return parts
        if field_name == "blocks":
            parts = [self.obj(item["blocker"], path + "/blocker"), verb("blocks")]
            for k, name in enumerate(item["attackers"]):
                parts += [", "] if k else []
                parts.append(self.obj(name, f"{path}/attackers/{k}"))
            return parts
        if field_name == "assignments":
            parts = [self.obj(item["creature"], path + "/creature"), verb("assigns")]
            for k, (name, amount) in enumerate(item["damage"].items()):
                where = path + "/damage" + pointer(name)
                parts += [", "] if k else []
                parts += [self.number(amount, where), " damage to ", self.either(name, where)]
            return parts
        if field_name == "plays":
            return self.play(item, path, verb)
        if field_name == "targets":
            return [
                self.player(item["player"], path + "/player"),
                " target ",
                self.either(item["target"], path + "/target"),
            ]
        raise self.fail(path, f"unknown declaration {field_name!r}")  # pragma: no cover

    def play(self, item: dict, path: str, verb) -> list:
        kind = item["kind"]
        who = self.player(item["player"], path + "/player")
        if kind == "concede":
            return [who, verb("makes"), self.player(item["other"], path + "/other"), " concede"]
        name = self.obj(item["name"], path + "/name")
        if kind == "land":
            return [who, verb("plays"), "land ", name]
        if kind == "cast":
            parts = [
                who,
                verb("casts"),
                self.word(item["spell_type"], path + "/spell_type"),
                " ",
                name,
            ]
            options = ["flash"] if item.get("flash") else []
            colors = item.get("colors", [])
            written = [("flash", path + "/flash")] if options else []
            written += [
                ("color " + self.word(c, f"{path}/colors/{k}")[0], f"{path}/colors/{k}")
                for k, c in enumerate(colors)
            ]
            for k, part in enumerate(written):
                parts += [" with " if k == 0 else ", ", part]
        else:  # activate
            parts = [who, verb("activates"), name]
            speed = item.get("speed")
            if speed == "sorcery":
                parts.append(" as a sorcery")
            elif speed == "loyalty":
                parts.append(" as a loyalty ability")
        for k, target in enumerate(item.get("targets", [])):
            parts += [" targeting " if k == 0 else ", ", self.either(target, f"{path}/targets/{k}")]
        return parts

    # ---- events

    def event(self, event: dict, path: str) -> list:
        kind = event["kind"]

        def p(key: str = "player") -> tuple[str, str]:
            return self.player(event[key], f"{path}/{key}")

        def n(key: str = "amount") -> tuple[str, str]:
            return self.number(event[key], f"{path}/{key}")

        if kind == "damage":
            return [
                self.obj(event["source"], path + "/source"),
                " deals ",
                n(),
                " damage to ",
                self.either(event["recipient"], path + "/recipient"),
            ]
        if kind in ("lose_life", "pay_life"):
            return [p(), " loses " if kind == "lose_life" else " pays ", n(), " life"]
        if kind == "gain_life":
            parts = [p(), " gains ", n(), " life"]
            if "source" in event:
                parts += [" from ", self.obj(event["source"], path + "/source")]
            return parts
        if kind == "set_life":
            return [p(), "'s life total becomes ", n("life")]
        if kind == "exchange_life":
            return [p(), " exchanges life totals with ", p("other")]
        if kind in PLAYER_EVENTS:
            return [p(), PLAYER_EVENTS[kind]]
        if kind == "poison":
            return [p(), " gets ", n(), " poison counters"]
        if kind == "combat_damage":
            return ["combat damage"]
        if kind == "simultaneous":
            return self.simultaneous(event, path)
        if kind == "makes_choose":
            return [p(), "'s choice makes ", p("other"), " choose"]
        if kind == "prevent_combat_damage":
            return ["prevent all combat damage"]
        if kind == "prevent_combat_damage_by":
            return [
                "prevent all combat damage that would be dealt by ",
                self.obj(event["source"], path + "/source"),
            ]
        if kind == "prevent_next_damage":
            return [
                "prevent the next ",
                n(),
                " damage that would be dealt to ",
                self.either(event["recipient"], path + "/recipient"),
            ]
        if kind == "after_first_strike":
            parts = [
                "after first-strike damage, ",
                self.obj(event["creature"], path + "/creature"),
                " ",
            ]
            change = event["change"]
            if change == "gets":
                power, toughness = int(event["power"]), int(event["toughness"])
                return [*parts, "gets ", (f"{power:+d}/{toughness:+d}", path + "/power")]
            return [*parts, f"{change} ", self.ability(event["ability"], path + "/ability")]
        raise self.fail(path + "/kind", f"unknown event {kind!r}")  # pragma: no cover

    def simultaneous(self, event: dict, path: str) -> list:
        action = event["action"]
        items = [self.word(item, f"{path}/items/{k}") for k, item in enumerate(event["items"])]
        verbs = {"sacrifice": "sacrifices", "draw": "draws", "choose": "chooses"}
        if action != "choose" and len(items) != 1:
            raise self.fail(path + "/items", f"'{action}' takes exactly one item")
        written = [(("an " if w[0].lower() in "aeiou" else "a ") + w, where) for w, where in items]
        parts: list = [f"each player {verbs[action]} "]
        for k, item in enumerate(written):
            if k:
                if event.get("in_order"):
                    parts.append(", then " if k == len(written) - 1 else ", ")
                else:
                    parts.append(" and ")
            parts.append(item)
        if event.get("hidden"):
            parts.append(" from their hand")
        return parts

    # ---- questions

    def question(self, question: dict, path: str) -> list:
        ask = question["ask"]
        entry = ASKS.get(ask)
        if entry is None:
            raise self.fail(
                path + "/ask", f"unknown question {ask!r}; expected one of: " + ", ".join(ASKS)
            )
        kind = entry.kind
        if kind == "pay":
            return [
                "can ",
                self.player(question["player"], path + "/player"),
                " pay ",
                self.number(question["amount"], path + "/amount"),
                " life",
            ]
        if kind == "can":
            field_name = question["declaration"]
            return [
                "can ",
                *self.declaration(field_name, question["play"], path + "/play", base=True),
            ]
        if kind in ("attack_targets", "assignments"):
            return [
                kind.replace("_", " "),
                " for ",
                self.obj(question["creature"], path + "/creature"),
            ]
        if kind == "actions":
            return ["actions for ", self.player(question["player"], path + "/player")]
        parts: list = [QUESTION_WORDS.get(kind, kind.replace("_", " "))]
        if kind == "blocks" and question.get("defender") is not None:
            parts += [" for ", self.player(question["defender"], path + "/defender")]
        if kind in ("attacks", "blocks") and question.get("limit") is not None:
            parts += [" limit ", self.number(question["limit"], path + "/limit")]
        if kind == "explain" and question.get("only") is not None:
            only = ASKS.get(question["only"])
            if only is None or only.explained_by is None:
                known = [e.ask for e in registry.ENTRIES if e.explained_by is not None]
                raise self.fail(
                    path + "/only",
                    f"unknown question to explain; expected one of: {', '.join(known)}",
                )
            parts += [" ", (only.explain_words[0], path + "/only")]
        return parts


def write_state(state: dict, filename: str = "<state>") -> Lines:
    """A state (checked against the schema) as text, with its map."""
    return _Writer(state, filename).write()


# The Scenario lists that hold declarations, in the order a state's text
# writes them; `targets` is only the play of `ask can P target X`.
DECLARATION_FIELDS = ("defending_choices", "attacks", "bands", "blocks", "assignments", "plays")
BASE_FORMS = {
    "chooses": "choose",
    "attacks": "attack",
    "blocks": "block",
    "assigns": "assign",
    "casts": "cast",
    "activates": "activate",
    "plays": "play",
    "makes": "make",
}
PLAYER_EVENTS = {
    "cant_gain_life": " can't gain life",
    "cant_lose_life": " can't lose life",
    "cant_lose_game": " can't lose the game",
    "cant_get_poison": " can't get poison counters",
    "concede": " concedes",
}
QUESTION_WORDS = {"defending": "defending players"}
# each kind of question by the name its answers have ("ask": ...)
ASKS = registry.BY_ASK


# -------------------------------------------------------------------------
# a Scenario as a state


def scenario_state(scenario: Scenario) -> dict:
    """The JSON state of a parsed scenario: what its text says, nothing
    derived (the defaults stay the rule base's)."""
    return _Reader(scenario).state()


class _Reader:
    def __init__(self, scenario: Scenario) -> None:
        self.sc = scenario
        self.vocab = vocabulary()

    def ability(self, ability: Ability) -> str | dict:
        """An ability as the state writes it (its first phrase in the vocabulary)."""
        simple = not ability.args
        for word in self.vocab.abilities:
            if word.name != ability.name or word.shape == "suffix":
                continue
            if (word.shape == "simple") != simple:
                continue
            if simple:
                return word.phrase
            args = ability.args
            if word.shape == "number":
                return {word.phrase: int(args[0])}
            if word.shape == "types":
                return {word.phrase: list(args)}
            if word.shape == "counter":
                written = {const: kind for kind, const in self.vocab.counter_kinds}
                return {word.phrase: {"kind": written.get(args[0], args[0]), "count": int(args[1])}}
            return {word.phrase: args[0]}
        raise ValueError(f"no phrase for the ability {ability.name}")  # pragma: no cover

    def player_ability(self, name: str, color: str | None) -> str | dict:
        return self.ability(Ability(name=name, args=(color,) if color else ()))

    def state(self) -> dict:
        sc = self.sc
        out: dict[str, Any] = {}
        if sc.game_given and sc.game is not None:
            out["game"] = hyphens(sc.game)
        options = [
            hyphens(o.name) if o.value is None else {"name": hyphens(o.name), "value": o.value}
            for o in sc.options
        ]
        put = self.put
        put(out, "options", options)
        put(out, "players", [p.name for p in sorted(sc.players, key=lambda p: p.seat)])
        put(out, "teams", [{"name": t.name, "members": list(t.members)} for t in sc.teams])
        if sc.active:
            out["active"] = sc.active
        if sc.starting:
            out["starting"] = sc.starting
        if "phase" in sc.settings:
            out["phase"] = hyphens(sc.phase)
        put(out, "emperors", [s.name for s in sc.emperors])
        put(out, "archenemies", [s.name for s in sc.archenemies])
        put(out, "vanguards", {s.name: s.value for s in sc.vanguards})
        put(out, "ranges", {s.name: s.value for s in sc.ranges})
        put(out, "life", {s.name: s.value for s in sc.life})
        put(out, "poison", {s.name: s.value for s in sc.poison})
        if sc.max_attackers is not None:
            out["max_attackers"] = sc.max_attackers.count
        put(
            out,
            "commander_damage",
            [
                {"player": c.player, "amount": c.amount, "commander": c.commander}
                for c in sc.commander_damage
            ],
        )
        put(
            out,
            "player_abilities",
            [
                {"player": a.player, "ability": self.player_ability(a.ability, a.color)}
                for a in sc.player_abilities
            ],
        )
        put(
            out,
            "player_controls",
            [{"controller": c.controller, "controlled": c.controlled} for c in sc.player_controls],
        )
        if sc.priority:
            out["priority"] = sc.priority
        if "stack" in sc.settings:
            out["stack"] = [{"name": s.name, "controller": s.controller} for s in sc.stack]
        put(out, "lands_played", {s.name: s.value for s in sc.lands_played})
        put(out, "objects", [self.object(o) for o in sc.objects])
        put(out, "loyalty_used", [s.name for s in sc.loyalty_used])
        put(
            out,
            "defending_choices",
            [{"player": c.player, "defender": c.defender} for c in sc.defending_choices],
        )
        put(out, "attacks", [{"attacker": a.attacker, "target": a.target} for a in sc.attacks])
        put(out, "bands", [list(b.members) for b in sc.bands])
        put(out, "blocks", self.blocks(sc.blocks))
        put(
            out,
            "assignments",
            [
                {"creature": a.creature, "damage": {r: amount for r, amount, _ in a.amounts}}
                for a in sc.assignments
            ],
        )
        put(out, "plays", [self.play(p) for p in sc.plays])
        put(out, "events", [self.event(e) for e in sc.events])
        put(out, "triggers", [{"name": t.name, "controller": t.controller} for t in sc.triggers])
        put(out, "questions", [self.question(q) for q in sc.questions])
        return out

    @staticmethod
    def put(out: dict, key: str, value: Any) -> None:
        if value:
            out[key] = value

    def object(self, obj) -> dict:
        made: dict[str, Any] = {
            "name": obj.name,
            "controller": obj.controller,
            "type": obj.card_type,
        }
        for key in ("power", "toughness", "loyalty", "defense"):
            if getattr(obj, key) is not None:
                made[key] = getattr(obj, key)
        if obj.protector is not None:
            made["protected_by"] = obj.protector
        if obj.abilities:
            made["abilities"] = [self.ability(a) for a in obj.abilities]
        return made

    @staticmethod
    def blocks(blocks) -> list[dict]:
        """The blocks, one item per statement (a blocker of several attackers
        is one statement, 509.1a)."""
        out: list[dict] = []
        last = None
        for block in blocks:
            key = (block.line, block.column, block.blocker)
            if out and key == last:
                out[-1]["attackers"].append(block.attacker)
            else:
                out.append({"blocker": block.blocker, "attackers": [block.attacker]})
            last = key
        return out

    @staticmethod
    def play(play) -> dict:
        made: dict[str, Any] = {"kind": play.kind, "player": play.player}
        if play.kind == "concede":
            made["other"] = play.other
            return made
        made["name"] = play.name
        if play.kind == "cast":
            made["spell_type"] = hyphens(play.spell_type)
            if play.flash:
                made["flash"] = True
            if play.colors:
                made["colors"] = list(play.colors)
        if play.speed is not None:
            made["speed"] = play.speed
        if play.targets:
            made["targets"] = [t.name for t in play.targets]
        return made

    def event(self, event: Event) -> dict:
        kind, args = event.kind, event.args
        made: dict[str, Any] = {"kind": kind}
        if kind == "damage":
            made.update(source=args[0], recipient=args[1], amount=args[2])
        elif kind in ("lose_life", "gain_life", "pay_life", "poison"):
            made.update(player=args[0], amount=args[1])
            if event.source is not None:
                made["source"] = event.source
        elif kind == "set_life":
            made.update(player=args[0], life=args[1])
        elif kind in ("exchange_life", "makes_choose"):
            made.update(player=args[0], other=args[1])
        elif kind in PLAYER_EVENTS:
            made["player"] = args[0]
        elif kind == "simultaneous":
            made.update(action=args[0], items=list(event.items))
            if event.in_order:
                made["in_order"] = True
            if event.hidden:
                made["hidden"] = True
        elif kind == "prevent_combat_damage_by":
            made["source"] = args[0]
        elif kind == "prevent_next_damage":
            made.update(recipient=args[0], amount=args[1])
        elif kind == "after_first_strike":
            made.update(creature=args[0], change=args[1])
            if args[1] == "gets":
                made.update(power=args[2], toughness=args[3])
            else:
                made["ability"] = self.ability(Ability(name=args[2]))
        return made

    def question(self, question: Question) -> dict:
        entry = registry.get(question.kind)
        made: dict[str, Any] = {"ask": entry.ask if entry is not None else question.kind}
        params = question.params
        kind = question.kind
        if kind == "can":
            field_name = params["field"]
            made["declaration"] = field_name
            made["play"] = self.can_play(field_name, params)
            return made
        if kind == "explain":
            only = params.get("only")
            if only is not None:
                made["only"] = registry.get(only).ask
            return made
        for key, value in params.items():
            if value is not None:
                made[key] = value
        return made

    def can_play(self, field_name: str, params: dict) -> Any:
        if field_name == "targets":
            return {"player": params["player"], "target": params["target"]}
        play = params["play"]
        if field_name == "blocks":
            return self.blocks(params.get("plays") or [play])[0]
        if field_name == "plays":
            return self.play(play)
        if field_name == "defending_choices":
            return {"player": play.player, "defender": play.defender}
        if field_name == "attacks":
            return {"attacker": play.attacker, "target": play.target}
        if field_name == "bands":
            return list(play.members)
        if field_name == "assignments":
            return {"creature": play.creature, "damage": {r: a for r, a, _ in play.amounts}}
        raise ValueError(f"no state for a play of {field_name}")  # pragma: no cover


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
