"""Is the table one its variant allows? Asked of the rule base, before any question.

The rules of a table's shape (805.1, 806.2b, 808.1, 809.1, 809.2, 810.1,
810.11, 904.2, 904.2a) are in `rules/100_input_checks.lp`. This module only
hands it the table facts and where each statement was written
(`written(Part, Line, Column)`), and turns the `input_error` written first in
the file into the ScenarioError of the spec, with its text from
`kb/input_messages.lp`.
"""

from __future__ import annotations

from functools import cache

import clingo
from clingo import Function, Number, String, Symbol

from .errors import ScenarioError
from .facts import option_symbol, scenario_facts
from .model import Position, Scenario
from .paths import input_check_files
from .programs import quiet

SHOW = (
    "#show input_error/3. #show input_error_at/4. #show first_round/1."
    " #show message/2. #show message_it/2."
)


def _at(part: Symbol, where: Position) -> Symbol:
    return Function("written", [part, Number(where[0]), Number(where[1])])


def position_facts(sc: Scenario) -> list[Symbol]:
    """`written(Part, Line, Column)` for every part of the table's statements."""
    out = []
    if sc.game_given and sc.game_at is not None:
        out.append(_at(Function("game"), sc.game_at.at("value")))
    for option in sc.options:
        out.append(_at(Function("option", [option_symbol(option)]), option.at("value")))
    for player in sc.players:
        out.append(_at(Function("player", [String(player.name)]), player.at()))
    for team in sc.teams:
        t = String(team.name)
        out.append(_at(Function("team", [t]), team.at()))
        for member in team.members:
            part = Function("member", [t, String(member)])
            out.append(_at(part, team.at(f"player:{member}")))
    for setting in sc.emperors:
        p = String(setting.name)
        out.append(_at(Function("emperor_statement", [p]), setting.at()))
        out.append(_at(Function("emperor", [p]), setting.at("player")))
    for setting in sc.archenemies:
        out.append(_at(Function("archenemy_statement", [String(setting.name)]), setting.at()))
    for band in sc.bands:
        k = Number(band.index)
        out.append(_at(Function("band", [k]), band.at()))
        for i in range(len(band.members)):
            out.append(_at(Function("member_of_band", [k]), band.at(f"member.{i}")))
    for event in sc.events:
        out.append(_at(Function("event", [Number(event.index)]), event.at()))
    for setting in sc.life:
        out.append(_at(Function("life", [String(setting.name)]), setting.at("player")))
    return out


@cache
def _program() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in input_check_files())


def input_errors(sc: Scenario) -> list[Symbol]:
    """The shown atoms of the input checks: input_error/3, input_error_at/4, the texts."""
    ctl = clingo.Control(["--models=1"], logger=quiet)
    ctl.add("base", [], _program())
    ctl.add("base", [], SHOW)
    with ctl.backend() as backend:
        for fact in scenario_facts(sc) + position_facts(sc):
            backend.add_rule([backend.add_atom(fact)])
    ctl.ground([("base", [])])
    shown: list[Symbol] = []
    ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
    return shown


def render(arg: Symbol) -> str:
    """An argument as a message shows it: a name as written, a number, a word
    with '-' for '_', a list(Item, Rest) joined by ', '."""
    if arg.type == clingo.SymbolType.String:
        return arg.string
    if arg.type == clingo.SymbolType.Number:
        return str(arg.number)
    if arg.name == "list" and len(arg.arguments) == 2:
        rest = arg.arguments[1]
        tail = [] if rest.type == clingo.SymbolType.Function and rest.name == "nil" else [rest]
        return ", ".join([render(arg.arguments[0])] + [render(t) for t in tail])
    if not arg.arguments:
        return arg.name.replace("_", "-")
    return str(arg)


def fill(template: str, args: list[Symbol]) -> str:
    text = template
    for i, arg in enumerate(args, start=1):
        text = text.replace("{" + str(i) + "}", render(arg))
    return text


def table_errors(sc: Scenario, language: str = "en") -> list[tuple[int, int, str, bool]]:
    """Every input error the rule base finds: (line, column, message, first
    round), the first round being the faults reported with the names."""
    texts: dict[str, dict[str, str]] = {"en": {}, "it": {}}
    errors: set[tuple[Symbol, Symbol]] = set()
    early: set[str] = set()
    places = []
    for sym in input_errors(sc):
        a = sym.arguments
        if sym.name == "message":
            texts["en"][a[0].name] = a[1].string
        elif sym.name == "message_it":
            texts["it"][a[0].name] = a[1].string
        elif sym.name == "first_round":
            early.add(a[0].name)
        elif sym.name == "input_error":
            errors.add((a[1], a[2]))
        elif sym.name == "input_error_at":
            places.append((a[2].number, a[3].number, a[0], a[1]))
    out = []
    for line, column, kind, args in places:
        if (kind, args) not in errors:
            continue
        template = texts[language].get(kind.name) or texts["en"].get(kind.name, kind.name)
        out.append((line, column, fill(template, list(args.arguments)), kind.name in early))
    return sorted(out)


def check(sc: Scenario, language: str = "en") -> None:
    """Raise ScenarioError for the input error written first in the file, if any."""
    found = table_errors(sc, language)
    if found:
        line, column, message, _ = found[0]
        raise ScenarioError(
            message,
            filename=sc.filename,
            line=line,
            column=column,
            source_line=sc.source_line(line),
        )
