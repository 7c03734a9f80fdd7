"""Is the input one the rules allow? Asked of the rule base, before any question.

The rules of a table's shape (805.1, 806.2b, 808.1, 809.1, 809.2, 810.1,
810.11, 904.2, 904.2a) and the faults of one statement (702.22c, 101.4d,
810.4, 904.2a) are in `rules/100_input_checks.lp`. This module only hands it
the table facts and where each statement was written (`written(Part, Line,
Column)`), grounds only the statements that can fire on them, and turns each
`input_error` into (line, column, text) with its text from
`kb/input_messages.lp`; mtgkb.language.validate reports the first in the file as the
ScenarioError of the spec.
"""

from __future__ import annotations

import zlib
from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path

import clingo
import clingo.ast as cast
from clingo import Function, Number, String, Symbol

from mtgkb.engine.citations import program_text
from mtgkb.engine.control import new_control
from mtgkb.engine.programs import add_facts, quiet, stamp
from mtgkb.language.errors import ScenarioError
from mtgkb.language.facts import option_symbol, scenario_facts
from mtgkb.language.model import Position, Scenario
from mtgkb.rulebase.location import input_check_files

SHOW = "#show input_error/3. #show input_error_at/4. #show first_round/1."


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


Pattern = tuple[str, int, tuple]  # name, arity, each argument's shape (None: any)


def _shape_of_ast(term) -> str | None:
    if term.ast_type == cast.ASTType.SymbolicTerm:
        return _shape_of_symbol(term.symbol)
    if term.ast_type == cast.ASTType.Function and term.name:
        return f"f/{term.name}/{len(term.arguments)}"
    return None


def _shape_of_symbol(sym: Symbol) -> str | None:
    if sym.type == clingo.SymbolType.Function and sym.name:
        return f"f/{sym.name}/{len(sym.arguments)}"
    return None


def _atom_pattern(lit) -> Pattern | None:
    """The pattern of a plain positive literal (None for anything else)."""
    if lit.ast_type != cast.ASTType.Literal or lit.sign != cast.Sign.NoSign:
        return None
    if lit.atom.ast_type != cast.ASTType.SymbolicAtom:
        return None
    term = lit.atom.symbol
    if term.ast_type == cast.ASTType.Pool and term.arguments:
        # p(a;b): one pattern for every alternative, its arguments left open
        first = term.arguments[0]
        if first.ast_type == cast.ASTType.Function and first.name:
            return (first.name, len(first.arguments), (None,) * len(first.arguments))
        return None
    if term.ast_type == cast.ASTType.Function and term.name:
        return (term.name, len(term.arguments), tuple(_shape_of_ast(a) for a in term.arguments))
    if (
        term.ast_type == cast.ASTType.SymbolicTerm
        and term.symbol.type == clingo.SymbolType.Function
    ):
        sym = term.symbol
        return (sym.name, len(sym.arguments), tuple(_shape_of_symbol(a) for a in sym.arguments))
    return None


def _is_false(head) -> bool:
    """The head of an integrity constraint."""
    return (
        head.ast_type == cast.ASTType.Literal and head.atom.ast_type == cast.ASTType.BooleanConstant
    )


def _fact_pattern(sym: Symbol) -> Pattern:
    return (sym.name, len(sym.arguments), tuple(_shape_of_symbol(a) for a in sym.arguments))


# One statement of the checks: its byte span in the checks' text, what it is
# ("rule": grounded when it may fire; "text": a message read by _texts;
# "none": nothing to ground), the pattern of the atom its head derives (None:
# none, or any) and the patterns of the atoms its body needs.
Statement = tuple[int, int, str, Pattern | None, tuple[Pattern, ...]]


class _Checks:
    """The program of the input checks as read now: its text (the files with
    their generated citations) and its statements, described for slicing."""

    def __init__(self, source: bytes, statements: list[Statement]):
        self.source = source
        self.statements = statements
        self.rules = tuple(i for i, st in enumerate(statements) if st[2] == "rule")
        self.texts = tuple(i for i, st in enumerate(statements) if st[2] == "text")

    def text(self, indices) -> str:
        return "\n".join(
            self.source[self.statements[i][0] : self.statements[i][1]].decode() for i in indices
        )


def _program() -> _Checks:
    """The checks of the rule base in use (read again when one of its files
    changes), their analysis from the disk cache when it is sound."""
    from mtgkb.engine.state import Options

    return _program_of(stamp(input_check_files()), Options.from_env().cache_dir)


@cache
def _program_of(files: tuple, cache_dir: Path | None) -> _Checks:
    """The checks' text and statements. The statements are worked out from
    clingo's syntax tree (about 40 ms), or read from the analysis cache: byte
    offsets into this text (checked to tile it, statement by statement, with
    only blanks and comments between), never program text."""
    from mtgkb.engine.analysis_cache import load_checked, store_checked, tiled

    texts = [program_text(path) for path, *_ in files]  # with their generated citations
    source = "\n".join(texts + [SHOW]).encode("utf-8")
    key = f"{zlib.crc32(source):08x}{zlib.adler32(source):08x}{len(source):x}"
    name = f"input-checks-{CHECKS_VERSION}-{key}.marshal"
    if cache_dir is not None:
        found = load_checked(cache_dir / name, lambda d: _sound(d, source) and tiled(d, source))
        if found is not None:
            return _Checks(source, found)
    statements = _statements(source)
    if cache_dir is not None:
        store_checked(cache_dir, name, statements, "input-checks-*")
    return _Checks(source, statements)


CHECKS_VERSION = 1  # of the description of a statement


def _statements(source: bytes) -> list[Statement]:
    from mtgkb.engine.analysis import _line_starts

    lines = _line_starts(source)  # clingo's columns count bytes
    out: list[Statement] = []

    def take(node) -> None:
        kind = node.ast_type
        if kind == cast.ASTType.Comment:
            return  # a gap between statements
        begin, end = node.location.begin, node.location.end
        span = (lines[begin.line - 1] + begin.column - 1, lines[end.line - 1] + end.column - 1)
        if span[0] == span[1]:
            return  # the `#program base.` clingo begins every text with
        head: Pattern | None = None
        needs: tuple[Pattern, ...] = ()
        role = "rule"
        if kind in (cast.ASTType.Program, cast.ASTType.Defined):
            role = "none"  # nothing to ground (clingo's warnings are off: --warn=none)
        elif kind == cast.ASTType.Rule:
            head = _atom_pattern(node.head)
            if head is not None and head[0] in TEXTS and not node.body:
                role = "text"  # the texts are read once (_texts), not solved
            elif head is None and not _is_false(node.head):
                raise ValueError(f"cannot slice the input checks at {node}")  # pragma: no cover
            needs = tuple(p for p in map(_atom_pattern, node.body) if p is not None)
        out.append((*span, role, head, needs))

    cast.parse_string(source.decode("utf-8"), take, logger=quiet)
    return out


def _sound(statements, source: bytes) -> bool:
    """Every cached statement well formed (its spans are checked by `tiled`)."""
    if type(statements) is not list:
        return False
    for st in statements:
        if type(st) is not tuple or len(st) != 5 or st[2] not in ("rule", "text", "none"):
            return False
        start, end, _, head, needs = st
        if type(start) is not int or type(end) is not int or type(needs) is not tuple:
            return False
        if not (head is None or _is_pattern(head)) or not all(map(_is_pattern, needs)):
            return False
        if not source.startswith(_beginning(st), start):
            return False  # not the statement it says it is
    return True


def _beginning(statement: Statement) -> tuple[bytes, ...]:
    """What the text of a statement so described may begin with."""
    _, _, role, head, _ = statement
    if role == "none":
        return (b"#",)  # #program, #defined
    if head is None:
        return (b":-", b"#")  # an integrity constraint (_statements refuses other heads), #show
    if role == "text" and head[0] not in TEXTS:
        return ()  # never
    return (head[0].encode(),)


def _is_pattern(p) -> bool:
    return (
        type(p) is tuple
        and len(p) == 3
        and type(p[0]) is str
        and type(p[1]) is int
        and type(p[2]) is tuple
        and all(a is None or type(a) is str for a in p[2])
    )


def _matches(need: Pattern, known: dict[tuple[str, int], set[tuple]]) -> bool:
    for shape in known.get(need[:2], ()):
        if all(a is None or b is None or a == b for a, b in zip(need[2], shape, strict=True)):
            return True
    return False


TEXTS = frozenset({"input_message", "input_message_it"})


def _texts() -> dict[str, dict[str, str]]:
    """Language -> kind -> the text of the input errors (kb/input_messages.lp)."""
    return _texts_of(_program())


@cache
def _texts_of(program: _Checks) -> dict[str, dict[str, str]]:
    ctl = new_control(logger=quiet)
    ctl.add("base", [], program.text(program.texts))
    ctl.ground([("base", [])])
    out: dict[str, dict[str, str]] = {"en": {}, "it": {}}
    for language, name in (("en", "input_message"), ("it", "input_message_it")):
        for atom in ctl.symbolic_atoms.by_signature(name, 2):
            kind, text = atom.symbol.arguments
            out[language][kind.name] = text.string
    return out


def _sliced(program: _Checks, facts: list[Symbol]) -> list[int]:
    """The statements that may fire on these facts: a rule whose body needs an
    atom that no fact and no rule that may fire can match (compared by name,
    arity and the constants and function names of its arguments) is left out.
    Exact, and it saves most of the grounding where there is nothing to check."""
    return list(_kept(program, frozenset(map(_fact_pattern, facts))))


@lru_cache(maxsize=512)
def _kept(program: _Checks, patterns: frozenset[Pattern]) -> tuple[int, ...]:
    """The statements kept for facts of these patterns (tables of one shape share it)."""
    known: dict[tuple[str, int], set[tuple]] = {}
    for pattern in patterns:
        known.setdefault(pattern[:2], set()).add(pattern[2])
    kept = set()
    grown = True
    while grown:
        grown = False
        for i in program.rules:
            _, _, _, head, needs = program.statements[i]
            if i not in kept and all(_matches(n, known) for n in needs):
                kept.add(i)
                if head is not None:
                    known.setdefault(head[:2], set()).add(head[2])
                grown = True
    return tuple(sorted(kept))


def input_errors(sc: Scenario, sliced: bool = True) -> list[Symbol]:
    """The shown atoms of the input checks: input_error/3, input_error_at/4,
    first_round/1 and the texts."""
    table = replace(sc, objects=[], attacks=[], blocks=[], bands=[], triggers=[], questions=[])
    facts = scenario_facts(table) + position_facts(sc)
    ctl = new_control(["--models=1", "--warn=none"], quiet)
    program = _program()
    ctl.add("base", [], program.text(_sliced(program, facts) if sliced else program.rules))
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


def table_errors(sc: Scenario, language: str = "en") -> list[tuple[int, int, str, bool]]:
    """Every input error the rule base finds: (line, column, message, first
    round), the first round being the faults reported with the names."""
    texts = _texts()
    errors: set[tuple[Symbol, Symbol]] = set()
    early: set[str] = set()
    places = []
    for sym in input_errors(sc):
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
