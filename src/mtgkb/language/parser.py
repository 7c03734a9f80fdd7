"""Scenario files (`.mtg`) into a typed `Scenario`: Lark does the parsing.

`parse_text(text_or_bytes, filename)` and `parse_file(path)` return a
validated `Scenario` or raise `ScenarioError` (with file, line, column and
the source line); no other exception escapes for any input. Every message
is a text of kb/input_messages.lp (mtgkb.language.checks.say), in the
language asked (`lang`: en, it).
"""

from __future__ import annotations

import errno
import os
import re
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from mtgkb.language.checks import say
from mtgkb.language.errors import ScenarioError
from mtgkb.language.model import (
    Ability,
    Attack,
    Band,
    Block,
    ChooseDefending,
    CommanderDamage,
    DamageAssignment,
    Event,
    GameObject,
    MaxAttackers,
    Option,
    Play,
    Player,
    PlayerAbility,
    PlayerControl,
    Question,
    Scenario,
    Setting,
    StackItem,
    Target,
    Team,
    Trigger,
)
from mtgkb.language.suggest import closest, did_you_mean, listed, typo_in_line, typo_in_word
from mtgkb.language.validate import validate
from mtgkb.rulebase import registry
from mtgkb.rulebase.vocabulary import AbilityWord, Vocabulary, normal_word, vocabulary

GRAMMAR = Path(__file__).resolve().parent / "grammar.lark"

# Input-size guards.
MAX_BYTES = 1 << 20  # 1 MiB
MAX_PLAYERS = 64
MAX_OBJECTS = 10_000
MAX_NAME = 200

# Numbers. clingo's integers are 32-bit and wrap silently, so every total the
# rules compute (life, team life, damage and counter sums) must stay inside
# them. A total is made of the file's numbers, each used at most once per
# event, or once per damage step for the numbers of objects: so the file's
# numbers, added up with those weights, must not pass a quarter of the 32-bit
# range (the rest leaves room for the differences and sums formed in between).
INT_LIMIT = 2**31 - 1
MAX_TOTAL = INT_LIMIT // 4  # 536,870,911
MAX_NUMBER = MAX_TOTAL  # one number alone
_MAX_DIGITS = len(str(MAX_NUMBER))
MAX_DIGITS = 20  # leading zeros included
START_ALLOWANCE = 40  # per player: the largest starting life a variant gives
STEPS_PER_COMBAT_DAMAGE = 2  # a `combat damage` may have two damage steps
# Statements whose numbers count once: setup read once, one-time events,
# questions. The numbers of any other statement (objects, declarations, and
# kinds added later) count once per damage step.
_COUNT_ONCE = frozenset(
    "life vanguard range option global_rule damage lose_life gain_life pay_life set_life "
    "ask".split()
)

# Terminals of the grammar that stand for user text, not for a keyword.
_TEXT_TERMINALS = frozenset({"NAME", "WORD", "STRING", "SIGNED_INT"})


@cache
def grammar() -> Lark:
    """The LALR parser, loaded once per process on first use.

    Its tables are built ahead of time and ship in the package as JSON data
    (`grammar_tables.json`, made by `python -m mtgkb.language.grammar_build`), which
    loads in a few milliseconds. No cache file is read or written: Lark's own
    cache is a pickle in the shared temporary folder, which anyone on the
    machine could plant. When the shipped tables are not those of
    grammar.lark (edited since) or of the installed Lark, the parser is
    built from the grammar in memory instead (about 40 ms).
    """
    from mtgkb.language.grammar_build import build_from_grammar, load_tables

    text = GRAMMAR.read_text(encoding="utf-8")
    return load_tables(text) or build_from_grammar(text)


_NUMBER_TOKEN = re.compile(r"[+-]?[0-9]+")
_NUMBER_FIRST = frozenset("+-0123456789")  # (what a number's text may start with)


def _is_number(value: object) -> bool:
    """A token that is a number, whatever terminal reads it (names and words
    cannot start with a digit; quoted names are left out)."""
    return (
        isinstance(value, Token)
        and value[:1] in _NUMBER_FIRST
        and value.type != "STRING"
        and _NUMBER_TOKEN.fullmatch(value) is not None
    )


def _all_tokens(tree: Tree, found: list[Token] | None = None) -> list[Token]:
    """Every token under `tree`, in the order written (as Lark's
    `scan_values` gives them, without a generator at every level)."""
    found = [] if found is None else found
    for child in tree.children:
        if isinstance(child, Tree):
            _all_tokens(child, found)
        elif isinstance(child, Token):
            found.append(child)
    return found


def _int_value(text: str) -> int | None:
    """The value of a SIGNED_INT, or None when it is written with more digits
    than any number mtgkb accepts needs (never a conversion of thousands of
    digits, which Python refuses)."""
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if len(digits) > MAX_DIGITS or len(digits.lstrip("0")) > _MAX_DIGITS:
        return None
    return sign * int(digits)


def _parse_states() -> list[set[str]] | None:
    """The terminals each state of the LALR table accepts (None if this Lark
    keeps its table elsewhere)."""
    try:
        states = grammar().parser.parser.parser.parse_table.states
    except AttributeError:  # pragma: no cover - another Lark layout
        return None
    return [set(actions) for actions in states.values()]


@cache
def keyword_patterns() -> tuple[tuple[str, str, re.Pattern], ...]:
    """The keywords a bare name could be read as: (terminal, how to show it,
    its pattern) for each keyword terminal of the grammar that the parser
    accepts in a state where it also accepts a NAME. There Lark's contextual
    lexer reads the word as the keyword, so a player of that name would be
    silently misread (a player called Alone in "can't attack Alone")."""
    parser = grammar()
    skip = _TEXT_TERMINALS | set(parser.lexer_conf.ignore)
    states = _parse_states()
    beside_name = set().union(*(s for s in states if "NAME" in s)) if states else None
    found = []
    for terminal in parser.terminals:
        if terminal.name in skip or terminal.name.startswith("_"):
            continue
        if beside_name is not None and terminal.name not in beside_name:
            continue
        pattern = terminal.pattern
        shown = repr(pattern.value) if pattern.type == "str" else _describe(terminal.name)
        found.append((terminal.name, shown, re.compile(pattern.to_regexp())))
    return tuple(found)


def keyword_of(name: str) -> str | None:
    """The keyword of the grammar, or the word of an ability in the
    vocabulary, that the bare name `name` could be read as."""
    for _, shown, pattern in keyword_patterns():
        if pattern.fullmatch(name):
            return shown
    word = normal_word(name)
    return repr(word) if word in vocabulary().words_after_names() else None


# -------------------- entry points


class ReadTimeout(Exception):
    """The input did not arrive within the time allowed for reading it
    (`timeout`: the seconds allowed; `message(lang)`: what to say)."""

    def __init__(self, timeout: float) -> None:
        super().__init__(timeout)
        self.timeout = timeout

    def message(self, lang: str = "en") -> str:
        return say("read_timeout", lang, f"{self.timeout:g}")

    def __str__(self) -> str:
        return self.message()


def read_source(path: str | os.PathLike, timeout: float | None = None) -> bytes:
    """The bytes of a scenario file ('-': standard input), at most MAX_BYTES
    + 1 of them (enough to tell that a file is too large, never more: reading
    /dev/zero ends), within `timeout` seconds when one is given (ReadTimeout):
    a FIFO that no one writes to does not wait forever."""
    end = None if timeout is None else time.monotonic() + timeout
    if str(path) == "-":
        if sys.stdin is None:
            raise OSError(errno.EBADF, "standard input is closed")
        fd, own = sys.stdin.fileno(), False
    else:
        flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
        if end is not None:
            flags |= os.O_NONBLOCK  # opening a FIFO would wait for a writer
        fd, own = os.open(path, flags), True
    if end is not None:
        import select  # (only a read with a time-out waits on the descriptor)
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= MAX_BYTES:
            if end is not None:
                left = end - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    raise ReadTimeout(timeout)
            try:
                chunk = os.read(fd, min(1 << 16, MAX_BYTES + 1 - size))
            except BlockingIOError:
                continue
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        if own:
            os.close(fd)
    return b"".join(chunks)


def parse_file(path: str | os.PathLike, lang: str = "en") -> Scenario:
    """Read and parse one scenario file (its errors in `lang`)."""
    name = str(path)
    try:
        data = read_source(path)
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ScenarioError(
            say("read_failed", lang, reason), filename=name, line=0, column=0
        ) from None
    return parse_text(data, filename=name, lang=lang)


def parse_text(text: str | bytes, filename: str = "<stdin>", lang: str = "en") -> Scenario:
    """Parse scenario text (str, or bytes in UTF-8) into a validated Scenario;
    its errors, of syntax and of the table, speak `lang`."""
    scenario = read_text(text, filename, lang)
    validate(scenario, lang)
    return scenario


def read_text(text: str | bytes, filename: str = "<stdin>", lang: str = "en") -> Scenario:
    """Scenario text read into a Scenario, not yet validated (parse_text
    validates it: mtgkb.language.validate); its syntax errors speak `lang`."""
    text = _decode(text, filename, lang)
    lines = text.split("\n")
    _check_characters(text, lines, filename, lang)
    try:
        tree = grammar().parse(text + "\n", start="start")
    except UnexpectedInput as exc:
        error = _syntax_error(exc, lines, filename, lang)
        # A keyword used as a name misleads the parser on a later line: say so.
        raise _keyword_name_error(lines, filename, error.line, lang) or error from None
    return _Builder(filename, lines, lang).build(tree)


# -------------------- bytes and characters


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    start = text.rfind("\n", 0, index) + 1
    return line, index - start + 1


def _decode(text: str | bytes, filename: str, lang: str = "en") -> str:
    if isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        if len(data) > MAX_BYTES:
            _too_big(data[: MAX_BYTES + 1].decode("utf-8", "replace"), filename, lang)
        try:
            decoded = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            good = data[: exc.start].decode("utf-8", "replace")
            line, col = _line_col(good, len(good))
            shown = data.split(b"\n")[line - 1].decode("utf-8", "replace")
            raise ScenarioError(
                say("not_utf8", lang, f"{data[exc.start]:02x}"),
                filename=filename,
                line=line,
                column=col,
                source_line=shown.replace("\r", ""),
            ) from None
    elif isinstance(text, str):
        decoded = text
        if (
            len(decoded) > MAX_BYTES // 4
            and len(decoded.encode("utf-8", "surrogatepass")) > MAX_BYTES
        ):
            _too_big(decoded, filename, lang)
    else:
        raise ScenarioError(
            say("not_text", lang, type(text).__name__),
            filename=filename,
            line=0,
            column=0,
        )
    if decoded.startswith("\ufeff"):
        decoded = decoded[1:]
    return decoded.replace("\r\n", "\n").replace("\r", "\n")


def _too_big(text: str, filename: str, lang: str = "en") -> None:
    # The line holding the first byte past the limit.
    message = say("file_too_large", lang, MAX_BYTES // 1024)
    size = 0
    for number, line in enumerate(text.split("\n"), start=1):
        size += len(line.encode("utf-8", "surrogatepass")) + 1
        if size > MAX_BYTES:
            raise ScenarioError(
                message,
                filename=filename,
                line=number,
                column=1,
                source_line=line[:400],
            )
    raise ScenarioError(message, filename=filename, line=1, column=1)


# Control characters other than tab, form feed and vertical tab (newlines
# are split already), and lone surrogates, which no UTF-8 file holds.
_BAD_CHAR = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\x80-\x9f\ud800-\udfff]")


def _check_characters(text: str, lines: list[str], filename: str, lang: str = "en") -> None:
    bad = _BAD_CHAR.search(text)
    if bad:
        line, col = _line_col(text, bad.start())
        raise ScenarioError(
            say("character_not_allowed", lang, f"{ord(bad.group()):04X}"),
            filename=filename,
            line=line,
            column=col,
            source_line=lines[line - 1],
        )


# -------------------- syntax errors

# The terminals said in words (kb/input_messages.lp), and those shown as written.
_TOKEN_KINDS = {
    "_NL": "token_end_of_line",
    "$END": "token_end_of_file",
    "NAME": "token_player_name",
    "STRING": "token_quoted_name",
    "WORD": "token_word",
    "SIGNED_INT": "noun_number",
}
_TOKEN_WORDS = {
    "POSS": "'s",
    "CANT": "can't",
    "TYPEWALK": "<type>walk",
    "SUMMONING_SICK": "summoning-sick",
    "STATE_BASED": "state-based",
    "FIRST_STRIKE": "first-strike",
    "COLON": "':'",
    "COMMA": "','",
    "SLASH": "'/'",
    "LSQB": "'['",
    "RSQB": "']'",
}


def _describe(terminal: str, lang: str = "en") -> str:
    if terminal in _TOKEN_KINDS:
        return say(_TOKEN_KINDS[terminal], lang)
    if terminal in _TOKEN_WORDS:
        return _TOKEN_WORDS[terminal]
    if terminal.isupper() and terminal.isidentifier():
        return terminal.lower().replace("_", " ")
    return terminal


def _expected(names: Any, lang: str = "en") -> str:
    """The words expected, every one (or none: mtgkb.language.suggest.listed)."""
    return listed(sorted({_describe(n, lang) for n in names or ()}), lang)


@cache
def grammar_keywords() -> dict[str, str]:
    """Each keyword of the grammar (a terminal that is a word) -> its terminal."""
    return {
        t.pattern.value: t.name
        for t in grammar().terminals
        if t.pattern.type == "str" and re.fullmatch(r"[a-z]+", t.pattern.value)
    }


def _suggestion(value: str, expected: Any, line: str, column: int, lang: str = "en") -> str:
    """The closest keyword to the word the parser stopped at (among those it
    expected there), else to a mistyped word earlier in the line."""
    first = re.match(r"[A-Za-z][A-Za-z'’-]*", value)
    if first is not None and expected:
        wanted = [w for w, name in grammar_keywords().items() if name in set(expected)]
        close = closest(first.group(), wanted)
        if close is not None:
            return did_you_mean(first.group(), close, lang)
    typo = typo_in_line(line, column, grammar_keywords()) or typo_in_word(
        line, column, grammar_keywords()
    )
    if typo is not None:
        return say("hint_typo", lang, typo[1], typo[0])
    return ""


def _code_end(line: str) -> int:
    """The length of a line without its comment and trailing blanks."""
    quoted = escaped = False
    end = len(line)
    for i, ch in enumerate(line):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "#":
            end = i
            break
    return len(line[:end].rstrip())


def _syntax_error(
    exc: UnexpectedInput, lines: list[str], filename: str, lang: str = "en"
) -> ScenarioError:
    line = getattr(exc, "line", None) or 1
    column = getattr(exc, "column", None) or 1
    if isinstance(exc, UnexpectedCharacters):
        char = exc.char
        if char == '"':
            message = say("syntax_unterminated_quote", lang)
        else:
            message = say("syntax_unexpected_character", lang, repr(char))
            message += _expected(exc.allowed, lang)
            source = lines[line - 1] if 1 <= line <= len(lines) else ""
            message += _suggestion("", (), source, column, lang)
    elif isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type in ("_NL", "$END"):
            message = say("syntax_ends_early", lang)
            # A statement cut short: point just past its last character.
            line = token.line if isinstance(token.line, int) else len(lines)
            if not (1 <= line <= len(lines)):
                line = len(lines)
            column = _code_end(lines[line - 1]) + 1 if lines else 1
        else:
            value = str(token.value)
            shown = value if len(value) <= 40 else value[:40] + "..."
            message = say("syntax_unexpected", lang, repr(shown))
        expected = exc.accepts or exc.expected
        message += _expected(expected, lang)
        source = lines[line - 1] if 1 <= line <= len(lines) else ""
        message += _suggestion(str(token.value), expected, source, column, lang)
    elif isinstance(exc, UnexpectedEOF):
        line = len(lines)
        column = len(lines[-1]) + 1 if lines else 1
        message = say("syntax_file_ends", lang) + _expected(exc.expected, lang)
    else:  # pragma: no cover - Lark has no other kinds
        message = None
    if not (1 <= line <= len(lines)):
        line = max(1, min(line, len(lines)))
    return ScenarioError(
        say("syntax_error_bare", lang) if message is None else say("syntax_error", lang, message),
        filename=filename,
        line=line,
        column=column,
        source_line=lines[line - 1] if lines else "",
    )


_NAMING_LINE = re.compile(r"\s*(?:players|team)\b", re.IGNORECASE)


def _keyword_name_error(
    lines: list[str], filename: str, before: int, lang: str = "en"
) -> ScenarioError | None:
    """The error of a `players:` or `team` line up to line `before` that gives
    a keyword as a bare name, if there is one."""
    for number, line in enumerate(lines[:before], start=1):
        if not _NAMING_LINE.match(line):
            continue
        try:
            tree = grammar().parse(line + "\n", start="start")
        except UnexpectedInput:
            continue
        builder = _Builder(filename, lines, lang)
        for stmt in tree.children:
            if not isinstance(stmt, Tree) or stmt.data not in ("players", "team"):
                continue
            names = _tokens(stmt)[1:] if stmt.data == "players" else [stmt.children[1]]
            for tok in names:
                tok = builder.name_token(tok)
                if tok.type == "NAME" and keyword_of(str(tok.value)) is not None:
                    try:
                        builder.check_keyword(
                            Token.new_borrow_pos("NAME", str(tok.value), tok),
                            "noun_player_name" if stmt.data == "players" else "noun_team_name",
                        )
                    except ScenarioError as err:
                        err.line = number
                        err.source_line = line
                        return err
    return None


# -------------------- the tree into a Scenario

_UNESCAPE = re.compile(r"\\([\"\\])")

# `ask can PLAY`: the base form of each verb a play may have, and the form its
# statement has. The play is then that statement, parsed by the grammar.
PLAY_VERBS = {
    "activate": "activates",
    "assign": "assigns",
    "attack": "attacks",
    "band": "band",
    "block": "blocks",
    "cast": "casts",
    "choose": "chooses",
    "make": "makes",
    "pay": "pays",
    "play": "plays",
    "target": "targets",
}
# The statements (grammar rules) that are declarations: plays of `ask can`.
DECLARATIONS = {
    "chooses_defending",
    "attack",
    "band",
    "block",
    "pay_life",
    "cast",
    "activate",
    "activate_loyalty",
    "play_land",
    "makes_concede",
    "assigns",
}
# Quoted names and numbers inside a play (parser's totals).
_QUOTED = re.compile(r'"(?:[^"\\]|\\["\\])*"')
_NUMBER = re.compile(r"(?<![\w])[+-]?[0-9]+(?![\w])")
# What starts a play for the grammar (a NUL, which no file may hold).
PLAY_MARK = "\x00"
# A word or a quoted name of a play.
_PLAY_WORD = re.compile(r'"(?:[^"\\]|\\["\\])*"|[^\s",]+')
# `ask explain Q`: the words of each kind of question (the registry's).
EXPLAINED_KINDS = registry.EXPLAIN_WORDS


def _plain(text: str) -> str:
    """A play as words: quoted names without their quotes and escapes."""
    return re.sub(r'"((?:[^"\\]|\\["\\])*)"', lambda m: _UNESCAPE.sub(r"\1", m.group(1)), text)


def _vocab(words: tuple[str, ...]) -> dict[str, str]:
    return {w.replace("_", "-"): w for w in words}


def _game_words() -> dict[str, str]:
    """The games a `game:` line may name: the vocabulary's variants."""
    return _vocab(vocabulary().games)


def _option_words() -> dict[str, str]:
    """The options an `option:` line may name."""
    return _vocab(vocabulary().options)


def _phase_words() -> dict[str, str]:
    """The phases and steps a `phase:` line may name (the vocabulary's)."""
    return _vocab(vocabulary().phases)


def _color_words() -> dict[str, str]:
    """The five colors (the vocabulary's)."""
    return _vocab(vocabulary().colors)


def _spell_words() -> dict[str, str]:
    """The kinds of spell a `P casts KIND "Name"` line may name (card types, 300.1)."""
    return _vocab(vocabulary().spell_kinds)


_HIDDEN_ZONES = {"hand", "library"}
# A player's bare name (the grammar's NAME), and a word of letters only.
_BARE_NAME = re.compile(r"[^\W\d]\w*")
# The abilities an `after first-strike damage, "C" gains/loses ...` line may
# name: those the step rules read between the steps (510.4, 702.4, 702.7).
STEP_ABILITIES = frozenset({"first_strike", "double_strike"})
_LETTERS = re.compile(r"[^\W\d_]+")


def _tokens(tree: Tree) -> list[Token]:
    return [c for c in tree.children if isinstance(c, Token)]


class _Builder:
    def __init__(self, filename: str, lines: list[str], lang: str = "en") -> None:
        self.filename = filename
        self.lines = lines
        self.lang = lang  # the language of the errors' texts
        self.sc = Scenario(filename=filename, source_lines=lines)
        self._vocabulary: Vocabulary | None = None

    def vocabulary(self) -> Vocabulary:
        """The vocabulary of the rule base in use, looked up once a file."""
        if self._vocabulary is None:
            self._vocabulary = vocabulary()
        return self._vocabulary

    # ---- errors and tokens

    def say(self, kind: str, *args: object) -> str:
        """The text of `kind` (kb/input_messages.lp) in the file's language."""
        return say(kind, self.lang, *args)

    def grouped(self, number: int) -> str:
        """A number with its thousands separated, as the language writes it."""
        return f"{number:,}".replace(",", self.say("thousands_separator"))

    def fail(self, where: Token | tuple[int, int], kind: str, *args: object) -> None:
        """Raise the error of `kind` (its text filled in with `args`) at `where`."""
        if isinstance(where, Token):
            line, column = where.line or 1, where.column or 1
        else:
            line, column = where
        raise ScenarioError(
            self.say(kind, *args),
            filename=self.filename,
            line=line,
            column=column,
            source_line=self.lines[line - 1] if 1 <= line <= len(self.lines) else "",
        )

    def statement_text(self, line: int) -> str:
        """The statement written on a line, without its comment."""
        text = self.lines[line - 1] if 1 <= line <= len(self.lines) else ""
        return text[: _code_end(text)].strip()

    @staticmethod
    def pos(tok: Token) -> tuple[int, int]:
        return (tok.line or 1, tok.column or 1)

    def name(self, tok: Token | Tree) -> str:
        """A NAME or STRING token (or a `name` tree) as the user's string."""
        if isinstance(tok, Tree):
            tok = _tokens(tok)[0]
        if tok.type == "STRING":
            value = _UNESCAPE.sub(r"\1", tok.value[1:-1])
            if not value.strip():
                self.fail(tok, "name_empty")
        else:
            value = str(tok.value)
        if len(value) > MAX_NAME:
            self.fail(tok, "name_too_long", MAX_NAME, len(value))
        return value

    @staticmethod
    def name_token(node: Token | Tree) -> Token:
        return _tokens(node)[0] if isinstance(node, Tree) else node

    def number(
        self, tok: Token, minimum: int | None = None, what: str = "what_number", *args: object
    ) -> int:
        """The number of `tok`, refused (said as the text `what`, filled in
        with `args`) past MAX_NUMBER or below `minimum`."""
        value = _int_value(tok.value)
        digits = len(tok.value.lstrip("+-"))
        if digits > MAX_DIGITS:
            self.fail(tok, "number_digits", self.say(what, *args), digits, MAX_DIGITS)
        if value is None or abs(value) > MAX_NUMBER:
            self.fail(tok, "number_too_large", self.say(what, *args), self.grouped(MAX_NUMBER))
        if minimum is not None and value < minimum:
            if minimum == 0:
                self.fail(tok, "number_negative", self.say(what, *args))
            self.fail(tok, "number_at_least", self.say(what, *args), minimum)
        return value

    def check_totals(self, statements: list[Tree]) -> None:
        """Refuse a file whose numbers could add up past clingo's integers."""
        steps = sum(1 for stmt in statements if stmt.data == "combat_damage")
        repeat = STEPS_PER_COMBAT_DAMAGE * max(1, steps)
        total = START_ALLOWANCE * len(self.sc.players)
        for stmt in statements:
            weight = 1 if stmt.data in _COUNT_ONCE else repeat
            for tok in self.numbers_of(stmt):
                value = _int_value(tok.value)
                total += weight * abs(value) if value is not None else MAX_TOTAL + 1
                if total > MAX_TOTAL:
                    self.fail(tok, "numbers_add_up", self.grouped(MAX_TOTAL), repeat)

    @staticmethod
    def numbers_of(stmt: Tree) -> list[Token]:
        """The numbers of a statement, those inside the play of `ask can` too
        (it is parsed on its own later), each at its place."""
        found: list[Token] = []
        plays: list[Token] = []
        for tok in _all_tokens(stmt):  # (one walk for both)
            if _is_number(tok):
                found.append(tok)
            if tok.type == "CAN_PLAY":
                plays.append(tok)
        for tok in plays:
            text = _QUOTED.sub(lambda m: " " * len(m.group()), str(tok.value))
            for number in _NUMBER.finditer(text):
                made = Token("SIGNED_INT", number.group())
                made.line, made.column = tok.line, (tok.column or 1) + number.start()
                found.append(made)
        return found

    def check_keyword(self, tok: Token, what: str) -> None:
        """A bare name may not be a word the grammar reads as a keyword: where
        the keyword may stand, the name would silently be read as it (`what`:
        the text that says what the name is)."""
        word = keyword_of(str(tok.value))
        if word is not None:
            self.fail(tok, "keyword_as_name", tok.value, self.say(what), word)

    def word(self, node: Tree | list[Token], vocab: dict[str, str], unknown: str) -> str:
        """The vocabulary's word written at `node`, else the error `unknown`."""
        toks = _tokens(node) if isinstance(node, Tree) else node
        text = "-".join(t.value.lower().replace("_", "-") for t in toks)
        if text not in vocab:
            known = ", ".join(vocab)
            close = closest(text, vocab)
            hint = did_you_mean(text, close, self.lang) if close else ""
            self.fail(toks[0], unknown, text, known, hint)
        return vocab[text]

    def setting(self, key: str, first: Token, value: Any, at: Token) -> Setting:
        """A setting written at most once (`active:`, `phase:`, ...)."""
        if key in self.sc.settings:
            before = self.sc.settings[key]
            self.fail(first, "setting_twice", key, before.line)
        made = Setting(line=first.line, column=first.column, name=key, value=value)
        made.positions["value"] = self.pos(at)
        self.sc.settings[key] = made
        return made

    # ---- the walk

    def build(self, tree: Tree) -> Scenario:
        statements = [stmt for stmt in tree.children if isinstance(stmt, Tree)]
        for stmt in statements:
            handler = getattr(self, "s_" + stmt.data, None)
            if handler is None:  # pragma: no cover - every rule has a handler
                self.fail(self.first_token(stmt), "unsupported_statement", stmt.data)
            handler(stmt, self.first_token(stmt))
        self.check_totals(statements)
        return self.sc

    @staticmethod
    def first_token(tree: Tree) -> Token:
        for tok in tree.scan_values(lambda v: isinstance(v, Token)):
            return tok
        raise AssertionError("empty statement")  # pragma: no cover

    # ---- 1. setup

    def s_game(self, t: Tree, first: Token) -> None:
        words = t.children[1]
        value = self.word(words, _game_words(), "unknown_game")
        made = self.setting("game", first, value, _tokens(words)[0])
        self.sc.game = value
        self.sc.game_given = True
        self.sc.game_at = made

    def s_option(self, t: Tree, first: Token) -> None:
        words, num = t.children[1], t.children[2]
        value = self.word(words, _option_words(), "unknown_option")
        at = _tokens(words)[0]
        amount = None
        if value == "range_of_influence":
            if num is None:
                self.fail(at, "option_range_needs_number")
            amount = self.number(num, 1, "what_range")
        elif num is not None:
            self.fail(num, "option_takes_no_number", at.value)
        for before in self.sc.options:
            if before.name == value and before.value == amount:
                return  # the same option twice says nothing new
            if before.name == value == "range_of_influence":
                self.fail(num, "range_twice", before.line)
        option = Option(line=first.line, column=first.column, name=value, value=amount)
        option.positions["value"] = self.pos(at)
        self.sc.options.append(option)

    def s_players(self, t: Tree, first: Token) -> None:
        for tok in _tokens(t)[1:]:
            if len(self.sc.players) >= MAX_PLAYERS:
                self.fail(tok, "too_many_players", MAX_PLAYERS)
            name = self.name(tok)
            self.check_keyword(tok, "noun_player_name")
            seat = len(self.sc.players) + 1
            self.sc.players.append(Player(line=tok.line, column=tok.column, name=name, seat=seat))

    def s_team(self, t: Tree, first: Token) -> None:
        name_node = t.children[1]
        if self.name_token(name_node).type == "NAME":
            self.check_keyword(self.name_token(name_node), "noun_team_name_unquoted")
        team = Team(line=first.line, column=first.column, name=self.name(name_node))
        team.positions["name"] = self.pos(self.name_token(name_node))
        for i, tok in enumerate(t.children[2:]):
            member = self.name(tok)
            if member in team.members:
                self.fail(tok, "team_member_twice", member, team.name)
            team.members.append(member)
            team.positions[f"member.{i}"] = self.pos(tok)
            team.positions[f"player:{member}"] = self.pos(tok)
        self.sc.teams.append(team)

    def s_active(self, t: Tree, first: Token) -> None:
        tok = t.children[1]
        self.sc.active = self.name(tok)
        self.setting("active", first, self.sc.active, tok)

    def s_starting(self, t: Tree, first: Token) -> None:
        tok = t.children[1]
        self.sc.starting = self.name(tok)
        self.setting("starting", first, self.sc.starting, tok)

    def s_phase(self, t: Tree, first: Token) -> None:
        words = t.children[1]
        self.sc.phase = self.word(words, _phase_words(), "unknown_phase")
        self.setting("phase", first, self.sc.phase, _tokens(words)[0])

    def _player_setting(
        self, t: Tree, first: Token, key: str, bucket: list, minimum=None, what="what_number"
    ):
        tok = t.children[1]
        player = self.name(tok)
        value = None
        if len(t.children) > 2:
            value = self.number(t.children[2], minimum, what)
        made = Setting(line=first.line, column=first.column, name=player, value=value)
        made.positions["player"] = self.pos(tok)
        made.positions["value"] = self.pos(t.children[2]) if len(t.children) > 2 else self.pos(tok)
        for before in bucket:
            if before.name == player and key in ("vanguard", "range"):
                self.fail(first, "player_setting_twice", key, player, before.line)
        bucket.append(made)
        return made

    def s_emperor(self, t: Tree, first: Token) -> None:
        made = self._player_setting(t, first, "emperor", self.sc.emperors)
        made.value = made.name

    def s_archenemy(self, t: Tree, first: Token) -> None:
        made = self._player_setting(t, first, "archenemy", self.sc.archenemies)
        made.value = made.name

    def s_vanguard(self, t: Tree, first: Token) -> None:
        self._player_setting(t, first, "vanguard", self.sc.vanguards, None, "what_life_modifier")

    def s_range(self, t: Tree, first: Token) -> None:
        self._player_setting(t, first, "range", self.sc.ranges, 1, "what_range")

    def s_life(self, t: Tree, first: Token) -> None:
        for item in t.children[1:]:
            name_node, num = item.children
            tok = self.name_token(name_node)
            who = self.name(tok)
            for before in self.sc.life:
                if before.name == who:
                    self.fail(tok, "life_twice", who, before.line)
            made = Setting(line=tok.line, column=tok.column, name=who)
            made.value = self.number(num, None, "what_life_total")
            made.positions["player"] = self.pos(tok)
            made.positions["value"] = self.pos(num)
            self.sc.life.append(made)

    def s_global_rule(self, t: Tree, first: Token) -> None:
        num = next(c for c in t.children if isinstance(c, Token) and c.type == "SIGNED_INT")
        if self.sc.max_attackers is not None:
            before = self.sc.max_attackers.line
            self.fail(first, "attack_limit_twice", before)
        count = self.number(num, 0, "what_creature_count")
        self.sc.max_attackers = MaxAttackers(line=first.line, column=first.column, count=count)

    # ---- section 8 setup: counters, players' abilities, control, timing

    def s_poison(self, t: Tree, first: Token) -> None:
        for item in t.children[1:]:
            name_node, num = item.children
            tok = self.name_token(name_node)
            who = self.name(tok)
            for before in self.sc.poison:
                if before.name == who:
                    self.fail(tok, "poison_twice", who, before.line)
            made = Setting(line=tok.line, column=tok.column, name=who)
            made.value = self.number(num, 0, "what_poison")
            made.positions["player"] = self.pos(tok)
            made.positions["value"] = self.pos(num)
            self.sc.poison.append(made)

    def s_commander_damage(self, t: Tree, first: Token) -> None:
        toks = _tokens(t)
        player, num, commander = toks[2], toks[3], toks[5]
        made = CommanderDamage(
            line=first.line,
            column=first.column,
            player=self.name(player),
            amount=self.number(num, 0, "what_commander_damage"),
            commander=self.name(commander),
        )
        made.positions["player"] = self.pos(player)
        made.positions["commander"] = self.pos(commander)
        for before in self.sc.commander_damage:
            if (before.player, before.commander) == (made.player, made.commander):
                self.fail(first, "commander_damage_twice", made.player, made.commander, before.line)
        self.sc.commander_damage.append(made)

    def s_player_has(self, t: Tree, first: Token) -> None:
        toks = _tokens(t.children[-1])
        made = PlayerAbility(line=first.line, column=first.column, player=self.name(first))
        made.positions["player"] = self.pos(first)
        vocab = self.vocabulary()
        ability = self.ability(toks, vocab)
        if ability.name not in vocab.player_abilities:
            shown = " ".join(tok.value for tok in toks)
            known = ", ".join(vocab.written_for_players())
            self.fail(toks[0], "player_ability_unknown", shown, known)
        made.ability = ability.name
        if ability.args:  # protection from COLOR
            made.color = ability.args[0]
        self.sc.player_abilities.append(made)

    def s_controls_player(self, t: Tree, first: Token) -> None:
        toks = _tokens(t)
        made = PlayerControl(
            line=first.line,
            column=first.column,
            controller=self.name(toks[0]),
            controlled=self.name(toks[3]),
        )
        made.positions["controller"] = self.pos(toks[0])
        made.positions["controlled"] = self.pos(toks[3])
        for before in self.sc.player_controls:
            if before.controlled == made.controlled:
                self.fail(
                    toks[3], "already_controlled", made.controlled, before.controller, before.line
                )
        self.sc.player_controls.append(made)

    def s_priority(self, t: Tree, first: Token) -> None:
        tok = t.children[1]
        self.sc.priority = self.name(tok)
        self.setting("priority", first, self.sc.priority, tok)

    def s_stack_setup(self, t: Tree, first: Token) -> None:
        self.setting("stack", first, None, first)
        for item in t.children[1:]:
            if not isinstance(item, Tree):
                continue
            toks = _tokens(item)
            made = StackItem(
                line=toks[0].line,
                column=toks[0].column,
                name=self.name(toks[0]),
                controller=self.name(toks[-1]),
            )
            made.positions["name"] = self.pos(toks[0])
            made.positions["controller"] = self.pos(toks[-1])
            self.sc.stack.append(made)

    def s_lands_played(self, t: Tree, first: Token) -> None:
        for item in t.children[1:]:
            if not isinstance(item, Tree):
                continue
            tok, num = item.children
            who = self.name(tok)
            for before in self.sc.lands_played:
                if before.name == who:
                    self.fail(tok, "lands_played_twice", who, before.line)
            made = Setting(line=tok.line, column=tok.column, name=who)
            made.value = self.number(num, 0, "what_lands_played")
            made.positions["player"] = self.pos(tok)
            self.sc.lands_played.append(made)

    # ---- section 8 declarations: casts, activations, land plays

    def play(self, first: Token, kind: str, **values: Any) -> Play:
        made = Play(
            line=first.line,
            column=first.column,
            index=len(self.sc.plays) + 1,
            kind=kind,
            player=self.name(first),
            **values,
        )
        made.positions["player"] = self.pos(first)
        self.sc.plays.append(made)
        return made

    def targets(self, made: Play, node: Tree | None) -> None:
        if node is None:
            return
        for i, child in enumerate(c for c in node.children if isinstance(c, Tree)):
            tok = self.name_token(child)
            target = Target(
                line=tok.line, column=tok.column, name=self.name(tok), quoted=tok.type == "STRING"
            )
            made.targets.append(target)
            made.positions[f"target.{i}"] = self.pos(tok)

    def s_cast(self, t: Tree, first: Token) -> None:
        kind_tok, name_tok = t.children[2], t.children[3]
        made = self.play(
            first,
            "cast",
            name=self.name(name_tok),
            spell_type=self.word([kind_tok], _spell_words(), "unknown_spell_kind"),
        )
        made.positions["name"] = self.pos(name_tok)
        targeting = None
        for part in t.children[4:]:
            if not isinstance(part, Tree):
                continue
            if part.data == "targeting":
                targeting = part
                continue
            for option in part.children:
                if not isinstance(option, Tree):
                    continue
                if option.data == "with_flash":
                    made.flash = True
                else:
                    word = _tokens(option)[-1]
                    color = self.word([word], _color_words(), "unknown_color")
                    if color in made.colors:
                        self.fail(word, "color_twice", color)
                    made.colors.append(color)
        self.targets(made, targeting)

    def s_activate(self, t: Tree, first: Token) -> None:
        name_tok, speed, targeting = t.children[2], t.children[3], t.children[4]
        made = self.play(
            first,
            "activate",
            name=self.name(name_tok),
            speed=None if speed is None else speed.data[3:],
        )
        made.positions["name"] = self.pos(name_tok)
        self.targets(made, targeting)

    def s_activate_loyalty(self, t: Tree, first: Token) -> None:
        """`P activates a loyalty ability of "X" [targeting ...]`: the same play as
        `P activates "X" as a loyalty ability [targeting ...]`."""
        name_tok = next(c for c in t.children if isinstance(c, Token) and c.type == "STRING")
        made = self.play(first, "activate", name=self.name(name_tok), speed="loyalty")
        made.positions["name"] = self.pos(name_tok)
        self.targets(made, t.children[-1])

    def s_loyalty_used(self, t: Tree, first: Token) -> None:
        """`"X" activated a loyalty ability this turn` (606.3)."""
        for before in self.sc.loyalty_used:
            if before.name == self.name(first):
                self.fail(first, "said_twice", before.line)
        made = Setting(line=first.line, column=first.column, name=self.name(first))
        made.positions["name"] = self.pos(first)
        self.sc.loyalty_used.append(made)

    def s_play_land(self, t: Tree, first: Token) -> None:
        name_tok = t.children[-1]
        made = self.play(first, "land", name=self.name(name_tok))
        made.positions["name"] = self.pos(name_tok)

    def s_makes_concede(self, t: Tree, first: Token) -> None:
        other = t.children[2]
        made = self.play(first, "concede", other=self.name(other))
        made.positions["other"] = self.pos(other)

    # ---- 2. objects

    def s_controls(self, t: Tree, first: Token) -> None:
        if len(self.sc.objects) >= MAX_OBJECTS:
            self.fail(first, "too_many_objects", MAX_OBJECTS)
        spec = t.children[-1]
        kids = spec.children
        name_tok = kids[1]
        obj = GameObject(
            line=first.line,
            column=first.column,
            name=self.name(name_tok),
            controller=self.name(first),
            card_type=spec.data,
        )
        obj.positions["controller"] = self.pos(first)
        obj.positions["name"] = self.pos(name_tok)
        abilities = kids[-1]
        if spec.data == "creature":
            obj.power = self.number(kids[2], None, "what_power")
            obj.toughness = self.number(kids[3], None, "what_toughness")
        elif spec.data == "planeswalker":
            obj.loyalty = self.number(kids[3], 0, "what_loyalty")
        elif spec.data == "battle":
            obj.defense = self.number(kids[3], 0, "what_defense")
            protector = kids[4]
            if protector is not None:
                tok = protector.children[2]
                obj.protector = self.name(tok)
                obj.positions["protector"] = self.pos(tok)
        if abilities is not None:
            self.abilities(obj, abilities)
        self.sc.objects.append(obj)

    def abilities(self, obj: GameObject, tree: Tree) -> None:
        vocab = self.vocabulary()
        for node in tree.children:
            if isinstance(node, Tree):
                toks = _tokens(node)
                # `protection from red and from white`: a `from ...` after a
                # protection is one more protection (spec section 13)
                if (
                    normal_word(toks[0].value) == "from"
                    and obj.abilities
                    and obj.abilities[-1].name.startswith("protection")
                ):
                    toks = [Token.new_borrow_pos("WORD", "protection", toks[0]), *toks]
                obj.abilities.append(self.ability(toks, vocab))

    def ability(self, toks: list[Token], vocab: Vocabulary) -> Ability:
        """One phrase of a `with` list, looked up in the vocabulary of the
        rule base (kb/vocabulary.lp): its words, then what its shape reads
        after them (a player, a number, a color, land types)."""
        words = [normal_word(t.value) for t in toks]
        made = Ability(line=toks[0].line, column=toks[0].column)
        simple, shaped = vocab.simple(), vocab.with_arguments()
        if " ".join(words) in simple:
            made.name = simple[" ".join(words)].name
            return made
        # the longest phrase the words start with (one that takes arguments
        # before a simple one of the same length: `can't attack Ben`)
        found = None
        for k in range(len(words), 0, -1):
            phrase = " ".join(words[:k])
            found = shaped.get(phrase) or simple.get(phrase)
            if found is not None:
                break
        if found is None:
            found = self.suffixed(toks[0], vocab)
            if found is not None and len(toks) == 1:
                made.name = found.name
                made.args = (toks[0].value[: -len(found.phrase)].lower(),)
                return made
            k = 1
        if found is None:
            self.unknown_ability(toks, vocab)
        rest = toks[k:] if found.shape != "suffix" else toks[1:]
        if found.shape in ("simple", "suffix"):
            shown = " ".join(t.value for t in toks[:k])
            self.fail(rest[0], "unexpected_after_ability", repr(rest[0].value), shown)
        made.name = found.name
        self.ability_arguments(made, found, toks[:k], rest, vocab)
        return made

    def ability_arguments(
        self, made: Ability, found: AbilityWord, head: list[Token], rest: list[Token], vocab
    ) -> None:
        """What follows the phrase of an ability that takes arguments."""
        shown = " ".join(t.value for t in head)

        def wants() -> str:
            """What the ability takes, as a message says it: its text is read
            from the rule base only when an error is reported."""
            return self.say(
                {
                    "player": "noun_player_name",
                    "number": "noun_number",
                    "color": "noun_color",
                    "type": "noun_land_type",
                    "types": "noun_land_types",
                    "counter": "noun_counter_and_number",
                }[found.shape]
            )

        if not rest:
            examples = [e for e in vocab.examples if e.startswith(found.phrase + " ")]
            example = self.say("as_in", examples[0]) if examples else ""
            self.fail(head[0], "ability_needs", shown, wants(), example)
        if found.shape == "counter":
            self.counter_arguments(made, shown, rest, vocab)
            return
        many = found.shape == "types"
        after = vocab.words_after(found.name)
        if after:  # words that must follow the argument (`... 3 or more creatures`)
            self.ability_words_after(head, rest, after)
            rest = rest[:1]
        if not many and len(rest) > 1:
            self.fail(
                rest[1], "unexpected_after_ability", repr(rest[1].value), f"{shown} {rest[0].value}"
            )
        for tok in rest:
            if many and tok.type != "WORD":
                self.fail(tok, "ability_takes", repr(tok.value), shown, wants())
        tok = rest[0]
        if found.shape == "number":
            if tok.type != "SIGNED_INT":
                self.fail(tok, "ability_takes", repr(tok.value), shown, wants())
            made.args = (str(self.number(tok, 1, "what_ability_value", found.phrase)),)
            return
        if tok.type != "WORD":
            self.fail(tok, "ability_takes", repr(tok.value), shown, wants())
        if found.shape == "player":
            if not _BARE_NAME.fullmatch(tok.value):
                self.fail(tok, "ability_takes", repr(tok.value), shown, wants())
            made.args = (self.name(tok),)
            made.positions["player"] = self.pos(tok)
        elif found.shape == "color":
            color = tok.value.lower()
            colors = vocabulary().colors
            if color not in colors:
                self.fail(tok, "unknown_color", color, ", ".join(colors), "")
            made.args = (color,)
            made.positions["color"] = self.pos(tok)
        else:  # a land type, or several
            made.args = tuple(self.name(w).lower() for w in rest)

    def ability_words_after(
        self, head: list[Token], rest: list[Token], after: tuple[str, ...]
    ) -> None:
        """Refuse an ability whose argument is not followed by its words."""
        shown = " ".join(t.value for t in head)
        written = [normal_word(t.value) for t in rest[1:]]
        if written == list(after):
            return
        wanted = f"'{shown} N {' '.join(after)}'"
        for tok, word, want in zip(rest[1:], written, after, strict=False):
            if word != want:
                self.fail(tok, "expected_word_as_in", repr(tok.value), want, wanted)
        if len(written) > len(after):
            extra = rest[len(after) + 1]
            self.fail(extra, "unexpected_after", repr(extra.value), wanted)
        self.fail(rest[-1], "expected_after_this", " ".join(after[len(written) :]), wanted)

    def counter_arguments(
        self, made: Ability, shown: str, rest: list[Token], vocab: Vocabulary
    ) -> None:
        """`counters -1/-1 2`: a kind of counter of the vocabulary, then how many."""
        kinds = dict(vocab.counter_kinds)
        kind_tok = rest[0]
        if kind_tok.value not in kinds:
            self.fail(kind_tok, "unknown_counter_kind", repr(kind_tok.value), ", ".join(kinds))
        phrase = f"{shown} {kind_tok.value}"
        if len(rest) < 2:
            self.fail(kind_tok, "ability_needs", phrase, self.say("noun_number"), "")
        num = rest[1]
        if num.type != "SIGNED_INT":
            self.fail(num, "ability_takes", repr(num.value), phrase, self.say("noun_number"))
        if len(rest) > 2:
            self.fail(
                rest[2], "unexpected_after_ability", repr(rest[2].value), f"{phrase} {num.value}"
            )
        made.args = (kinds[kind_tok.value], str(self.number(num, 1, "what_counters")))

    @staticmethod
    def suffixed(tok: Token, vocab: Vocabulary) -> AbilityWord | None:
        """The ability a single word ends in (`mountainwalk`: landwalk)."""
        word = tok.value.lower()
        for suffix, found in vocab.suffixes().items():
            if word.endswith(suffix) and _LETTERS.fullmatch(word[: -len(suffix)]):
                return found
        return None

    def unknown_ability(self, toks: list[Token], vocab: Vocabulary) -> None:
        """Refuse a phrase that is no ability, with a suggestion."""
        shown = " ".join(t.value for t in toks)
        phrase = " ".join(normal_word(t.value) for t in toks)
        known = [*vocab.simple(), *vocab.with_arguments()]
        longer = [p for p in known if p.startswith(phrase + " ")]
        import difflib  # (an error of the file: not imported for every run)

        close = longer[:1] or difflib.get_close_matches(phrase, known, n=1, cutoff=0.6)
        if close:
            self.fail(toks[0], "unknown_ability_close", shown, close[0])
        self.fail(toks[0], "unknown_ability_list", shown, ", ".join(vocab.written()))

    # ---- 3. declarations

    def s_chooses_defending(self, t: Tree, first: Token) -> None:
        toks = _tokens(t)
        made = ChooseDefending(
            line=first.line,
            column=first.column,
            player=self.name(toks[0]),
            defender=self.name(toks[2]),
        )
        made.positions["player"] = self.pos(toks[0])
        made.positions["defender"] = self.pos(toks[2])
        self.sc.defending_choices.append(made)

    def s_attack(self, t: Tree, first: Token) -> None:
        target = self.name_token(t.children[2])
        made = Attack(
            line=first.line,
            column=first.column,
            attacker=self.name(first),
            target=self.name(target),
        )
        made.positions["attacker"] = self.pos(first)
        made.positions["target"] = self.pos(target)
        made.target_quoted = target.type == "STRING"
        self.sc.attacks.append(made)

    def s_band(self, t: Tree, first: Token) -> None:
        band = Band(line=first.line, column=first.column, index=len(self.sc.bands) + 1)
        for i, tok in enumerate(_tokens(t)[1:]):
            member = self.name(tok)
            if member in band.members:
                self.fail(tok, "band_member_twice", member)
            band.members.append(member)
            band.positions[f"member.{i}"] = self.pos(tok)
        self.sc.bands.append(band)

    def s_block(self, t: Tree, first: Token) -> None:
        """`"B" blocks "C"`, or `"B" blocks "C", "D"` (509.1a: a blocker of
        several attackers): one block per attacker, in the order written."""
        toks = _tokens(t)
        named: set[str] = set()
        for tok in toks[2:]:
            attacker = self.name(tok)
            if attacker in named:
                self.fail(tok, "block_attacker_twice", attacker)
            named.add(attacker)
            made = Block(
                line=first.line,
                column=first.column,
                blocker=self.name(toks[0]),
                attacker=attacker,
            )
            made.positions["blocker"] = self.pos(toks[0])
            made.positions["attacker"] = self.pos(tok)
            self.sc.blocks.append(made)

    def s_assigns(self, t: Tree, first: Token) -> None:
        made = DamageAssignment(line=first.line, column=first.column, creature=self.name(first))
        made.positions["creature"] = self.pos(first)
        for k, item in enumerate(c for c in t.children if isinstance(c, Tree)):
            num, target_node = item.children[0], item.children[3]
            target = self.name_token(target_node)
            who = self.name(target)
            if any(r == who for r, _, _ in made.amounts):
                self.fail(target, "recipient_twice", who)
            made.amounts.append((who, self.number(num, 0, "what_damage"), target.type == "STRING"))
            made.positions[f"recipient.{k}"] = self.pos(target)
            made.positions[f"amount.{k}"] = self.pos(num)
        self.sc.assignments.append(made)

    # ---- 4. events

    def event(self, first: Token, kind: str, args: tuple, **extra: Any) -> Event:
        made = Event(
            line=first.line,
            column=first.column,
            index=len(self.sc.events) + 1,
            kind=kind,
            args=args,
            **extra,
        )
        self.sc.events.append(made)
        return made

    def s_damage(self, t: Tree, first: Token) -> None:
        num = t.children[2]
        target = self.name_token(t.children[5])
        amount = self.number(num, 0, "what_damage")
        made = self.event(first, "damage", (self.name(first), self.name(target), amount))
        made.positions["recipient"] = self.pos(target)
        made.recipient_quoted = target.type == "STRING"
        made.positions["amount"] = self.pos(num)

    def _player_amount(self, t: Tree, first: Token, kind: str, num: Token, what: str) -> Event:
        made = self.event(first, kind, (self.name(first), self.number(num, 0, what)))
        made.positions["player"] = self.pos(first)
        return made

    def s_lose_life(self, t: Tree, first: Token) -> None:
        self._player_amount(t, first, "lose_life", t.children[2], "what_life_lost")

    def s_gain_life(self, t: Tree, first: Token) -> None:
        made = self._player_amount(t, first, "gain_life", t.children[2], "what_life_gained")
        source = t.children[-1]
        if source is not None:
            made.source = self.name(source)

    def s_pay_life(self, t: Tree, first: Token) -> None:
        self._player_amount(t, first, "pay_life", t.children[2], "what_life_paid")

    def s_set_life(self, t: Tree, first: Token) -> None:
        made = self.event(
            first, "set_life", (self.name(first), self.number(t.children[-1], 0, "what_life_total"))
        )
        made.positions["player"] = self.pos(first)

    def s_exchange_life(self, t: Tree, first: Token) -> None:
        other = t.children[-1]
        made = self.event(first, "exchange_life", (self.name(first), self.name(other)))
        made.positions["player"] = self.pos(first)
        made.positions["other"] = self.pos(other)

    def _player_event(self, first: Token, kind: str) -> None:
        made = self.event(first, kind, (self.name(first),))
        made.positions["player"] = self.pos(first)

    def s_cant_gain_life(self, t: Tree, first: Token) -> None:
        self._player_event(first, "cant_gain_life")

    def s_cant_lose_life(self, t: Tree, first: Token) -> None:
        self._player_event(first, "cant_lose_life")

    def s_cant_lose_game(self, t: Tree, first: Token) -> None:
        self._player_event(first, "cant_lose_game")

    def s_get_poison(self, t: Tree, first: Token) -> None:
        self._player_amount(t, first, "poison", t.children[2], "what_poison")

    def s_cant_get_poison(self, t: Tree, first: Token) -> None:
        self._player_event(first, "cant_get_poison")

    def s_concede(self, t: Tree, first: Token) -> None:
        self._player_event(first, "concede")

    def s_combat_damage(self, t: Tree, first: Token) -> None:
        self.event(first, "combat_damage", ())

    def s_check_sba(self, t: Tree, first: Token) -> None:
        self.event(first, "check_state_based_actions", ())

    # ---- spec section 13: prevention (615) and changes between the combat damage steps

    def s_prevent_combat(self, t: Tree, first: Token) -> None:
        source = t.children[-1]
        if source is None:
            self.event(first, "prevent_combat_damage", ())
            return
        tok = source.children[-1]
        made = self.event(first, "prevent_combat_damage_by", (self.name(tok),))
        made.positions["source"] = self.pos(tok)

    def s_prevent_next(self, t: Tree, first: Token) -> None:
        num = t.children[3]
        target = self.name_token(t.children[-1])
        amount = self.number(num, 1, "what_damage_prevented")
        made = self.event(first, "prevent_next_damage", (self.name(target), amount))
        made.positions["recipient"] = self.pos(target)
        made.recipient_quoted = target.type == "STRING"
        made.positions["amount"] = self.pos(num)

    def s_after_first_strike(self, t: Tree, first: Token) -> None:
        creature = next(c for c in t.children if isinstance(c, Token) and c.type == "STRING")
        change = t.children[-1]
        if change.data == "step_gets":
            tok = change.children[-1]
            power, toughness = (int(x) for x in tok.value.split("/"))
            for value in (power, toughness):
                if abs(value) > MAX_NUMBER:
                    self.fail(tok, "change_too_large", MAX_NUMBER)
            args = (self.name(creature), "gets", power, toughness)
        else:
            toks = _tokens(change.children[-1])
            phrase = " ".join(normal_word(tok.value) for tok in toks)
            found = self.vocabulary().simple().get(phrase)
            if found is None or found.name not in STEP_ABILITIES:
                self.fail(toks[0], "step_ability", " ".join(tok.value for tok in toks))
            verb = "gains" if change.data == "step_gains" else "loses"
            args = (self.name(creature), verb, found.name)
        made = self.event(first, "after_first_strike", args)
        made.positions["creature"] = self.pos(creature)

    def s_makes_choose(self, t: Tree, first: Token) -> None:
        other = _tokens(t)[4]
        made = self.event(first, "makes_choose", (self.name(first), self.name(other)))
        made.positions["player"] = self.pos(first)
        made.positions["other"] = self.pos(other)

    def _items(self, nodes: list[Tree]) -> tuple[str, ...]:
        return tuple(self.name(_tokens(n)[1]).lower() for n in nodes)

    def s_each_sacrifice(self, t: Tree, first: Token) -> None:
        self.event(first, "simultaneous", ("sacrifice",), items=self._items([t.children[-1]]))

    def s_each_draw(self, t: Tree, first: Token) -> None:
        self.event(first, "simultaneous", ("draw",), items=self._items([t.children[-1]]))

    def s_each_choose(self, t: Tree, first: Token) -> None:
        kids = [c for c in t.children if isinstance(c, Tree)]
        items = [c for c in kids if c.data == "item"]
        seps = [c for c in kids if c.data == "sep"]
        zones = [c for c in kids if c.data == "zone"]
        thens = [any(tok.type == "THEN" for tok in _tokens(s)) for s in seps]
        ands = [any(tok.type == "AND" for tok in _tokens(s)) for s in seps]
        # 101.4c: `a, b, then c` (commas and a final `then`) is an ordered list
        # like `a then b then c`; `and` makes an unordered one. A list that
        # mixes them, or puts `then` anywhere but last after commas, is refused.
        ordered = (
            bool(seps) and thens[-1] and all(t or not a for t, a in zip(thens, ands, strict=True))
        )
        if any(thens) and not ordered:
            then = next(tok for s in seps for tok in _tokens(s) if tok.type == "THEN")
            self.fail(then, "choices_joined")
        hidden = False
        if zones:
            zone = _tokens(zones[0])[-1]
            hidden = zone.value.lower() in _HIDDEN_ZONES
        self.event(
            first,
            "simultaneous",
            ("choose",),
            items=self._items(items),
            in_order=ordered,
            hidden=hidden,
        )

    def s_trigger(self, t: Tree, first: Token) -> None:
        toks = _tokens(t)
        made = Trigger(
            line=first.line,
            column=first.column,
            name=self.name(toks[1]),
            controller=self.name(toks[-1]),
        )
        made.positions["name"] = self.pos(toks[1])
        made.positions["controller"] = self.pos(toks[-1])
        self.sc.triggers.append(made)

    # ---- 5. questions

    def s_ask(self, t: Tree, first: Token) -> None:
        q = t.children[1]
        kind = q.data[2:]
        question = Question(
            line=first.line,
            column=first.column,
            kind=kind,
            source=self.statement_text(first.line),
        )
        toks = _tokens(q)
        entry = registry.get(kind)
        named = entry.asked if entry is not None else ()
        if kind == "attacks":
            question.params["limit"] = self.limit(q.children[1])
        elif kind == "blocks":
            found = q.children[1]
            if found is not None:
                tok = [x for x in _tokens(found) if x.type == "NAME"][0]
                question.params["defender"] = self.name(tok)
                question.positions["defender"] = self.pos(tok)
            else:
                question.params["defender"] = None
            question.params["limit"] = self.limit(q.children[2])
        elif kind == "can":
            self.can(question, toks[-1])
        elif kind == "explain":
            self.explain_kind(question, q.children[1])
        elif len(named) == 1 and toks and toks[-1].type in ("NAME", "STRING"):
            # a question of one named parameter (the registry's `asked`), written
            # last: `ask attack targets for "C"`, `ask actions for P`, ...
            (parameter, _), last = named[0], toks[-1]
            question.params[parameter] = self.name(last)
            question.positions[parameter] = self.pos(last)
        self.sc.questions.append(question)

    # ---- 10. `ask can PLAY`, `ask explain Q`

    def can(self, question: Question, tok: Token) -> None:
        """The play of `ask can PLAY`: its verb put in the form of its
        declaration, parsed as that declaration by the grammar and built by
        the handler of that statement, into a scratch scenario."""
        text = str(tok.value).rstrip()
        line, column = tok.line or 1, tok.column or 1
        words = list(_PLAY_WORD.finditer(text))
        verb = words[0] if words and words[0].group().lower() == "band" else None
        if verb is None and len(words) >= 2:
            verb = words[1]
        base = verb.group().lower() if verb is not None else ""
        if base not in PLAY_VERBS:
            where = (line, column + (verb.start() if verb is not None else 0))
            forms = ", ".join(sorted(PLAY_VERBS))
            close = closest(base, PLAY_VERBS) if base else None
            hint = did_you_mean(base, close, self.lang) if close else ""
            self.fail(where, "play_verb_form", forms, hint)
        form = PLAY_VERBS[base]
        shift = len(form) - len(base)
        rewritten = text[: verb.start()] + form + text[verb.end() :]

        def place(offset: int) -> tuple[int, int]:
            """The column in the file of a character of the rewritten play."""
            if offset >= verb.end() + shift:
                offset -= shift
            elif offset > verb.start():
                offset = verb.start()
            return (line, column + offset)

        try:
            tree = grammar().parse(PLAY_MARK + rewritten).children[0]
        except UnexpectedInput as exc:
            err = _syntax_error(exc, [PLAY_MARK + rewritten], self.filename, self.lang)
            where = place(max(0, err.column - 1 - len(PLAY_MARK)))
            raise ScenarioError(
                err.message,
                filename=self.filename,
                line=where[0],
                column=where[1],
                source_line=self.lines[line - 1],
            ) from None
        for t in _all_tokens(tree):
            t.line, t.column = place((t.column or 1) - 1 - len(PLAY_MARK))
        stmt = tree.children[0]
        question.params["text"] = _plain(rewritten)
        if stmt.data == "target_play":
            toks = _tokens(stmt)
            target = self.name_token(stmt.children[2])
            question.params["field"] = "targets"
            question.params["player"] = self.name(toks[0])
            question.params["target"] = self.name(target)
            question.params["target_quoted"] = target.type == "STRING"
            question.positions["player"] = self.pos(toks[0])
            question.positions["target"] = self.pos(target)
            return
        if stmt.data not in DECLARATIONS:
            self.fail(place(0), "ask_can_not_declaration")
        scratch = _Builder(self.filename, self.lines, self.lang)
        getattr(scratch, "s_" + stmt.data)(stmt, self.first_token(stmt))
        for field_name, items in vars(scratch.sc).items():
            if isinstance(items, list) and items and field_name != "source_lines":
                play = items[0]
                break
        else:  # pragma: no cover - every declaration handler adds an item
            self.fail(place(0), "play_declares_nothing")
        if isinstance(play, Event) and play.kind == "pay_life":
            # `ask can P pay N life`: the payment question of section 5
            question.kind = "pay"
            question.params = {"player": play.args[0], "amount": play.args[1]}
            question.positions["player"] = play.at("player")
            return
        question.params["field"] = field_name
        question.params["play"] = play
        # every declaration of the play: a blocker of several attackers is one
        # block each (509.1a)
        question.params["plays"] = list(getattr(scratch.sc, field_name))

    def explain_kind(self, question: Question, node: Tree | None) -> None:
        """`ask explain Q`: the kind of question to explain (None: all)."""
        if node is None:
            return  # plain `ask explain`: every question
        toks = _tokens(node)
        text = " ".join(t.value.lower() for t in toks)
        if text not in EXPLAINED_KINDS:
            known = ", ".join(sorted(EXPLAINED_KINDS))
            close = closest(text, EXPLAINED_KINDS)
            hint = did_you_mean(text, close, self.lang) if close else ""
            self.fail(toks[0], "unknown_explain", text, known, hint)
        question.params["only"] = EXPLAINED_KINDS[text]

    def limit(self, node: Tree | None) -> int | None:
        if node is None:
            return None
        num = [x for x in _tokens(node) if x.type == "SIGNED_INT"][0]
        return self.number(num, 0, "what_limit")
