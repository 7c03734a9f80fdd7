"""A JSON game state written as `.mtg` text, with the map of where each
piece of the text came from in the JSON (mtgkb.language.json_state reads a
state so: the parser reads the text, and an error found at a line and
column of it is said at the JSON path there).

Every value that becomes a bare word or name of the text is checked to be
exactly one (a player's name `Dana, Eve` would be two players; a name with a
line break two statements), so no value can change the meaning of the text
around it; names in quotes are escaped. Errors are said with the texts of
kb/input_messages.lp, in the language asked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from mtgkb.language.checks import say
from mtgkb.language.errors import ScenarioError
from mtgkb.language.suggest import closest, did_you_mean
from mtgkb.rulebase import registry
from mtgkb.rulebase.vocabulary import Vocabulary, normal_word, vocabulary

# A player's name (the grammar's NAME) and a vocabulary word (its WORD).
BARE_NAME = re.compile(r"[^\W\d]\w*")
WORD = re.compile(r"[^\W\d][\w'’-]*")


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

    def statement_at(self, line: int) -> str:
        """The JSON path of the statement written at `line`."""
        return self.statements[line - 1] if 1 <= line <= len(self.statements) else ""

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
                r"\b(?:line|riga) (\d+)\b",
                lambda m: self.statement_of(int(m.group(1))) or m.group(),
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
        """The JSON path of the statement at `line` ("" past the text)."""
        if 1 <= line <= len(self.statements):
            return self.statements[line - 1] or "/"
        return ""


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


def state_error(filename: str, path: str, message: str) -> ScenarioError:
    """An error of a state at the JSON `path`."""
    return ScenarioError(
        f"{path or '/'}: {message}", filename=filename, line=0, column=0, path=path or "/"
    )


def whole(value: Any) -> bool:
    """A whole number, as JSON Schema counts them (2.0 is one; true is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or value.is_integer()


def quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class StateWriter:
    """Writes one state as text; each value is checked to stay one word or
    one name of the text (else an error at its path, said in `lang`)."""

    def __init__(self, state: dict, filename: str, lang: str = "en") -> None:
        self.state = state
        self.filename = filename
        self.lang = lang
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

    def say(self, kind: str, *args: object) -> str:
        """The text of `kind` (kb/input_messages.lp) in the state's language."""
        return say(kind, self.lang, *args)

    def fail(self, path: str, kind: str, *args: object) -> ScenarioError:
        """The error of `kind` (its text filled in with `args`) at `path`."""
        return state_error(self.filename, path, self.say(kind, *args))

    # ---- values

    def player(self, value: str, path: str) -> tuple[str, str]:
        """A player's name, written bare."""
        if not BARE_NAME.fullmatch(value):
            shown = json.dumps(value, ensure_ascii=False)
            raise self.fail(path, "value_is_not", shown, self.say("pattern_player"))
        return (value, path)

    def obj(self, value: str, path: str) -> tuple[str, str]:
        """An object's name, written in quotes."""
        if "\n" in value or "\r" in value:
            raise self.fail(path, "state_name_line_break")
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
            shown = json.dumps(value, ensure_ascii=False)
            raise self.fail(path, "value_is_not", shown, self.say("token_word"))
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
            raise self.unknown(path, value, list(vocab.simple()))
        ((key, argument),) = value.items()
        phrase = " ".join(normal_word(w) for w in key.split())
        found = vocab.with_arguments().get(phrase)
        where = path + pointer(key)
        if found is None:
            raise self.unknown(where, key, list(vocab.with_arguments()))
        shape = found.shape
        if shape == "number":
            if not whole(argument):
                raise self.fail(where, "state_takes_number", phrase)
            text = f"{phrase} {int(argument)}"
            after = vocab.words_after(found.name)
            if after:
                text += " " + " ".join(after)
            return (text, where)
        if shape == "counter":
            kinds = dict(vocab.counter_kinds)
            ok = isinstance(argument, dict) and set(argument) == {"kind", "count"}
            if not ok or argument["kind"] not in kinds or not whole(argument["count"]):
                raise self.fail(where, "state_takes_counter", phrase, ", ".join(kinds))
            return (f"{phrase} {argument['kind']} {int(argument['count'])}", where)
        if shape == "types":
            items = argument if isinstance(argument, list) else None
            if not items or not all(isinstance(t, str) and WORD.fullmatch(t) for t in items):
                raise self.fail(where, "state_takes_land_types", phrase)
            return (f"{phrase} {' '.join(items)}", where)
        if not isinstance(argument, str):
            noun = {"player": "thing_player", "color": "noun_color", "type": "noun_type"}
            raise self.fail(
                where, "state_takes_string", phrase, self.say(noun.get(shape, "noun_value"))
            )
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

    def unknown(self, path: str, value: str, known: list[str]) -> ScenarioError:
        """The error of an ability not in the vocabulary, with a suggestion."""
        close = closest(value.lower(), known)
        hint = did_you_mean(value, close, self.lang) if close else ""
        return self.fail(path, "state_unknown_ability", json.dumps(value, ensure_ascii=False), hint)

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
        raise self.fail(path, "state_unknown_declaration", repr(field_name))  # pragma: no cover

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
        if kind == "check_state_based_actions":
            return ["check state-based actions"]
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
        raise self.fail(path + "/kind", "state_unknown_event", repr(kind))  # pragma: no cover

    def simultaneous(self, event: dict, path: str) -> list:
        action = event["action"]
        items = [self.word(item, f"{path}/items/{k}") for k, item in enumerate(event["items"])]
        verbs = {"sacrifice": "sacrifices", "draw": "draws", "choose": "chooses"}
        if action != "choose" and len(items) != 1:
            raise self.fail(path + "/items", "state_one_item", action)
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
            raise self.fail(path + "/ask", "state_unknown_question", repr(ask), ", ".join(ASKS))
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
        if len(entry.asked) == 1 and kind != "blocks":
            # a question of one named parameter, written last after `for`
            # (`ask attack targets for "C"`, `ask actions for P`: the registry's `asked`)
            (name, of_type), where = entry.asked[0], f"{path}/{entry.asked[0][0]}"
            named = self.player if of_type == "player" else self.obj
            return [kind.replace("_", " "), " for ", named(question[name], where)]
        parts: list = [QUESTION_WORDS.get(kind, kind.replace("_", " "))]
        if kind == "blocks" and question.get("defender") is not None:
            parts += [" for ", self.player(question["defender"], path + "/defender")]
        if kind in ("attacks", "blocks") and question.get("limit") is not None:
            parts += [" limit ", self.number(question["limit"], path + "/limit")]
        if kind == "explain" and question.get("only") is not None:
            only = ASKS.get(question["only"])
            if only is None or only.explained_by is None:
                known = [e.ask for e in registry.ENTRIES if e.explained_by is not None]
                raise self.fail(path + "/only", "state_unknown_explain", ", ".join(known))
            parts += [" ", (only.explain_words[0], path + "/only")]
        return parts


def write_state(state: dict, filename: str = "<state>", lang: str = "en") -> Lines:
    """A state (checked against the schema) as text, with its map (its
    errors said in `lang`)."""
    return StateWriter(state, filename, lang).write()


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
