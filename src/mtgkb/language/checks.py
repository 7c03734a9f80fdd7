"""Is the input one the rules allow? Asked of the rule base, before any question.

The rules of a table's shape (100.1, 805.1, 806.2b, 808.1, 809.1, 809.2,
810.1, 810.11, 904.2, 904.2a) and the faults of one statement (702.22c,
101.4d, 606.2, 810.4, 904.2a) are in `rules/100_input_checks.lp`. This module only hands it
the table facts and where each statement was written (`written(Part, Line,
Column)`), grounds only the statements that can fire on them, and turns each
`input_error` into (line, column, text) with its text from
`kb/input_messages.lp`; mtgkb.language.validate reports the first in the file as the
ScenarioError of the spec.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import clingo
from clingo import Function, Number, String, Symbol

from mtgkb.engine.analysis import ANALYSIS_VERSION, DescribedProgram, FactReadings, analyse
from mtgkb.engine.analysis_cache import sound_statements
from mtgkb.engine.programs import add_facts, quiet, stamp
from mtgkb.engine.slice_memo import SliceMemo
from mtgkb.engine.state import Options
from mtgkb.language.errors import ScenarioError
from mtgkb.language.facts import fact_signatures, option_symbol, scenario_facts
from mtgkb.language.model import Position, Scenario
from mtgkb.rulebase.citations import program_texts
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.disk_cache import content_digest, load_checked, store_checked
from mtgkb.rulebase.location import input_check_files

SHOW = "#show input_error/3. #show input_error_at/4. #show first_round/1."
#: what the checks' slices are remembered under (mtgkb.engine.slice_memo)
CHECKS = ("input_checks",)


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
    for setting in sc.poison:
        out.append(_at(Function("poison", [String(setting.name)]), setting.at("player")))
    for control in sc.player_controls:
        part = Function("controlled", [String(control.controller), String(control.controlled)])
        out.append(_at(part, control.at("controlled")))
    for given in sc.commander_damage:
        part = Function("commander", [String(given.player), String(given.commander)])
        out.append(_at(part, given.at("commander")))
    for setting in sc.loyalty_used:
        out.append(_at(Function("loyalty_used", [String(setting.name)]), setting.at("name")))
    return out


TEXTS = frozenset({"input_message", "input_message_it"})


def _is_text(statement: dict) -> bool:
    """A fact of a message's text (kb/input_messages.lp): read once by
    _texts, never grounded with the checks."""
    heads = statement["fixed_heads"]
    return (
        len(heads) == 1 and len(heads[0]) == 3 and heads[0][0] in TEXTS and not statement["needs"]
    )


def _grounds_nothing(span: tuple[int, int], source: bytes) -> bool:
    return span[0] == span[1] or source.startswith(b"#defined", span[0])


class _Checks(DescribedProgram):
    """The program of the input checks as read now: its text (the files with
    their generated citations) and its statements, described as the rule
    base's are, so that one forward slicing serves both."""

    def __init__(self, source: bytes, statements: list[dict]):
        super().__init__(statements, source)
        self.texts = tuple(i for i, st in enumerate(statements) if _is_text(st))
        # what is grounded: not the texts, nor the `#defined` and `#program
        # base.` statements (nothing to ground: clingo's warnings are off)
        self.rules = tuple(
            i
            for i, st in enumerate(statements)
            if not _is_text(st) and not _grounds_nothing(st["span"], source)
        )
        self._scenario_program = None

    def scenario_program(self):
        """The checks to be given the scenario argument, for many tables at
        once (mtgkb.engine.scenarios): each rule with the statement it is,
        for forward slicing, and every atom hidden but the shown terms."""
        if self._scenario_program is None:
            from mtgkb.engine.rule_base import calls_functions_in
            from mtgkb.engine.scenarios import described_program

            calls = calls_functions_in(self.source.decode("utf-8"))
            self._scenario_program = described_program(self, self.rules, calls_functions=calls)
        return self._scenario_program


def _program() -> _Checks:
    """The checks of the rule base in use (read again when one of its files
    changes), their analysis from the disk cache when it is sound."""
    return _program_of(stamp(input_check_files()), Options.from_env().cache_dir)


def _slices() -> SliceMemo | None:
    """The slices of the checks remembered on disk (mtgkb.engine.slice_memo),
    for this process's first check of a table; None where not remembered."""
    options = Options.from_env()
    if options.cache_dir is None or not options.slice_memo:
        return None
    return _slices_of(stamp(input_check_files()), options.cache_dir)


@cache
def _source_of(files: tuple) -> tuple[bytes, str]:
    """The checks' text (the files with their generated citations) and its key."""
    texts = program_texts([path for path, *_ in files])
    source = "\n".join(texts + [SHOW]).encode("utf-8")
    return source, f"{CHECKS_VERSION}-{ANALYSIS_VERSION}-{content_digest(source)}"


@cache
def _slices_of(files: tuple, cache_dir: Path) -> SliceMemo:
    source, key = _source_of(files)
    # (the first check of a process: later ones add the statements parsed, kept
    # by the program, DescribedProgram.add)
    return SliceMemo(cache_dir, f"checks-{key}", source, first=1)


@cache
def _program_of(files: tuple, cache_dir: Path | None) -> _Checks:
    """The checks' text and statements. The statements are worked out from
    clingo's syntax tree (about 40 ms), or read from the analysis cache: byte
    offsets into this text (checked to tile it, statement by statement, with
    only blanks and comments between, each beginning as its description
    says), never program text."""
    source, key = _source_of(files)
    name = f"input-checks-{key}.marshal"
    if cache_dir is not None:
        found = load_checked(cache_dir / name, lambda d: _sound(d, source))
        if found is not None:
            return _Checks(source, found)
    statements = _statements(source)
    if cache_dir is not None:
        store_checked(cache_dir, name, statements, "input-checks-*")
    return _Checks(source, statements)


CHECKS_VERSION = 2  # of the cached statements: 2, described as the rule base's are


def _statements(source: bytes) -> list[dict]:
    """The checks' statements, described as the rule base's are
    (mtgkb.engine.analysis.analyse: spans, heads, needs, fixed values)."""
    return analyse(source.decode("utf-8"))


_WORD = re.compile(rb"[a-z_][A-Za-z0-9_']*")


def _sound(statements, source: bytes) -> bool:
    """Every cached statement well formed and one of `source`'s, in order
    (analysis_cache.sound_statements), and each beginning as its
    description says: a statement that derives nothing with `:-`, `:~` or a
    directive; a plain head with its name; a text with a text's name."""
    if not sound_statements(statements, source):
        return False
    for st in statements:
        start, end = st["span"]
        if start == end:
            continue  # the `#program base.` clingo begins every text with
        word = _WORD.match(source, start)
        if not st["heads"]:
            if word is not None or source[start : start + 1] not in (b":", b"#"):
                return False
        elif _is_text(st):
            if word is None or word.group().decode() != st["fixed_heads"][0][0]:
                return False
        elif word is not None and word.group().decode() not in {h[0] for h in st["heads"]}:
            return False
    return True


def _texts() -> dict[str, dict[str, str]]:
    """Language -> kind -> the text of the input errors (kb/input_messages.lp)."""
    return _texts_of(_program())


def input_text(kind: str, language: str = "en") -> str:
    """The text of one kind of input error in `language` (kb/input_messages.lp),
    the English one where it has no twin, the kind itself where it has no text."""
    texts = _texts()
    return texts.get(language, {}).get(kind) or texts["en"].get(kind, kind)


# a place for an argument in a text: {1}, {2}, ...
_PLACE = re.compile(r"\{(\d+)\}")


def say(kind: str, language: str = "en", *args: object) -> str:
    """The text of `kind` in `language` (input_text), {1}, {2}, ... the
    `args` as written (one pass: an argument's own braces stay)."""
    return _PLACE.sub(lambda m: str(args[int(m.group(1)) - 1]), input_text(kind, language))


@cache
def _texts_of(program: _Checks) -> dict[str, dict[str, str]]:
    ctl = new_control(logger=quiet)
    ctl.add("base", [], program.program(program.texts))
    ctl.ground([("base", [])])
    out: dict[str, dict[str, str]] = {"en": {}, "it": {}}
    for language, name in (("en", "input_message"), ("it", "input_message_it")):
        for atom in ctl.symbolic_atoms.by_signature(name, 2):
            kind, text = atom.symbol.arguments
            out[language][kind.name] = text.string
    return out


def _table_facts(sc: Scenario) -> list[Symbol]:
    """What the checks are given: the table's facts and where each was written."""
    return _signed_table_facts(sc)[0]


def _signed_table_facts(sc: Scenario) -> tuple[list[Symbol], list[tuple[str, int]] | None]:
    """`_table_facts`, and the (name, arity) of each, in order (None where
    not known): forward slicing then reads no fact's name from clingo."""
    table = replace(sc, objects=[], attacks=[], blocks=[], bands=[], triggers=[], questions=[])
    words: dict[str, Symbol] = {}  # (each card type made once, not once an object)
    kinds = []
    for o in sc.objects:
        if o.card_type not in words:
            words[o.card_type] = Function(o.card_type)
        kinds.append(Function("card_type", [String(o.name), words[o.card_type]]))
    facts = scenario_facts(table)
    written = position_facts(sc)  # (each a written/3)
    signed = fact_signatures(facts)
    signatures = None
    if signed is not None and len(signed) == len(facts):
        signatures = [*signed, *[("card_type", 2)] * len(kinds), *[("written", 3)] * len(written)]
    return facts + kinds + written, signatures


def input_errors(sc: Scenario, sliced: bool = True) -> list[Symbol]:
    """The shown atoms of the input checks: input_error/3, input_error_at/4,
    first_round/1 and the texts."""
    facts, signatures = _signed_table_facts(sc)
    ctl = new_control(["--models=1", "--warn=none"], quiet)
    # only the statements that may fire on these facts (forward slicing, as
    # for the rule base): most of the grounding where there is nothing to check
    memo = _slices() if sliced else None
    readings = FactReadings(facts, signatures)
    remembered = None if memo is None else memo.looked_up(CHECKS, facts, readings)
    if remembered is not None:
        ctl.add("base", [], memo.program(remembered))
    else:
        program = _program()
        kept = program.rules
        if sliced:
            kept = program.live(program.rules, program.sources(facts, readings=readings))
        if memo is not None:
            memo.remember(CHECKS, facts, readings, kept, program, {CHECKS[0]: (False, {})})
        program.add(ctl, kept)  # (parsed once, after the first time)
    add_facts(ctl, facts)
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


def input_errors_many(scenarios: list[Scenario]) -> list[list[Symbol]] | None:
    """input_errors of many tables, grounded and solved at once (each table
    given as a scenario of mtgkb.engine.scenarios): a batch pays the
    grounder's set-up of the checks once per chunk, not once per file. None
    when they cannot be solved so (then check each alone)."""
    from mtgkb.engine.scenarios import solve_scenarios

    program = _program().scenario_program()
    if program is None:
        return None
    signed = [_signed_table_facts(sc) for sc in scenarios]
    return solve_scenarios(
        program, [facts for facts, _ in signed], signatures=[names for _, names in signed]
    )


def table_errors(
    sc: Scenario, language: str = "en", shown: list[Symbol] | None = None
) -> list[tuple[int, int, str, bool]]:
    """Every input error the rule base finds: (line, column, message, first
    round), the first round being the faults reported with the names.
    `shown`: the checks' shown atoms for this table, when solved already
    (input_errors_many)."""
    errors: set[tuple[Symbol, Symbol]] = set()
    early: set[str] = set()
    places = []
    for sym in input_errors(sc) if shown is None else shown:
        a = sym.arguments
        if sym.name == "first_round":
            early.add(a[0].name)
        elif sym.name == "input_error":
            errors.add((a[1], a[2]))
        elif sym.name == "input_error_at":
            places.append((a[2].number, a[3].number, a[0], a[1]))
    out = []
    for line, column, kind, args in places:
        if (kind, args) not in errors:
            continue
        texts = _texts()  # read only for a message to be rendered
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
