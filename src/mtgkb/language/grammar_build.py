"""Build the scenario parser ahead of time: `python -m mtgkb.language.grammar_build`.

Lark builds the LALR tables of `grammar.lark` in about 40 ms, on every start.
Instead of Lark's `cache=True` (a pickle in the shared temporary folder, which
another local user can plant: unpickling it runs their code), the tables are
generated once, here, and shipped in the package as JSON data
(`mtgkb/language/grammar_tables.json`: no pickle, no code), keyed by the SHA-256 of the
grammar and the Lark version they were made with. `mtgkb.language.parser.grammar()`
loads them when both match (in about 2 ms) and otherwise builds the parser
from the grammar in memory; nothing is ever read from or written to a cache
folder.

Run this after every change to `grammar.lark` (a test says when it is due).
"""

from __future__ import annotations

import hashlib
import json
import sys
from copy import copy
from pathlib import Path

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import ContextualLexer, TerminalDef

HERE = Path(__file__).resolve().parent
GRAMMAR = HERE / "grammar.lark"
TABLES = HERE / "grammar_tables.json"
OPTIONS = dict(
    parser="lalr",
    lexer="contextual",
    propagate_positions=False,
    maybe_placeholders=True,
)

# Lark's serialized parser holds tuples and dicts keyed by numbers, which
# JSON has not: they travel as {"__tuple__": [...]} and {"__items__": [[k, v]]}.
_TUPLE, _ITEMS = "__tuple__", "__items__"


def grammar_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_from_grammar(text: str | None = None) -> Lark:
    """The parser built from the grammar (no cache of any kind)."""
    if text is None:
        text = GRAMMAR.read_text(encoding="utf-8")
    return Lark(text, **OPTIONS)


def _encode(value):
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and not {_TUPLE, _ITEMS} & set(value):
            return {k: _encode(v) for k, v in value.items()}
        return {_ITEMS: [[_encode(k), _encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot ship a {type(value).__name__} in the parser tables")


def _decode(obj: dict):
    if len(obj) == 1:
        if _TUPLE in obj:
            return tuple(obj[_TUPLE])
        if _ITEMS in obj:
            return {key: value for key, value in obj[_ITEMS]}
    return obj


def tables_json(text: str | None = None) -> str:
    """The text of grammar_tables.json for the grammar `text`."""
    if text is None:
        text = GRAMMAR.read_text(encoding="utf-8")
    data, memo = build_from_grammar(text).memo_serialize([TerminalDef, Rule])
    shipped = {
        "about": "The LALR tables of grammar.lark, made by "
        "`python -m mtgkb.language.grammar_build`.",
        "grammar_sha256": grammar_digest(text),
        "lark_version": lark.__version__,
        "data": _encode(data),
        "memo": _encode(memo),
    }
    return json.dumps(shipped, ensure_ascii=True, separators=(",", ":")) + "\n"


def load_tables(text: str, path: Path = TABLES) -> Lark | None:
    """The parser from the shipped tables, or None when there are none for
    this grammar and this Lark (or they cannot be read)."""
    try:
        shipped = json.loads(path.read_text(encoding="utf-8"), object_hook=_decode)
        if (
            shipped.get("grammar_sha256") != grammar_digest(text)
            or shipped.get("lark_version") != lark.__version__
        ):
            return None
        return Lark._load_from_dict(
            shipped["data"], shipped["memo"], _plugins={"ContextualLexer": LazyContextualLexer}
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


class LazyContextualLexer(ContextualLexer):
    """Lark's contextual lexer, whose lexer for a state of the parser (one
    for each set of terminals a state accepts: 143 of them for 493 states) is
    made the first time the parser is in that state: a file reaches a few
    dozen of them, and making them all cost a fresh process about 4 ms. Each
    is the one Lark would have made (the same terminals, conf and ignored
    terminals; the scanner of each is made on first use in both). Loading
    the shipped tables skips Lark's validation of the terminals, so there is
    no comparator of terminals to pass on."""

    def __init__(self, conf, states, always_accept=()) -> None:
        trad_conf = copy(conf)
        trad_conf.terminals = list(conf.terminals)
        self.lexers = _LexersByState(self, trad_conf, states, always_accept)
        trad_conf.skip_validation = True  # (as Lark: the terminals are not checked again)
        self.root_lexer = self.BasicLexer(trad_conf, None)


class _LexersByState(dict):
    """State -> its lexer (ContextualLexer.lexers), each made when first asked
    for, shared by the states that accept the same terminals."""

    def __init__(self, owner: ContextualLexer, conf, states, always_accept) -> None:
        super().__init__()
        self.owner, self.conf, self.states = owner, copy(conf), states
        self.always = set(conf.ignore) | set(always_accept)
        self.by_terminals: dict = {}

    def __missing__(self, state):
        accepts = self.states[state]
        key = frozenset(accepts)
        lexer = self.by_terminals.get(key)
        if lexer is None:
            named = self.conf.terminals_by_name
            lexer_conf = copy(self.conf)
            lexer_conf.terminals = [named[n] for n in set(accepts) | self.always if n in named]
            lexer = self.by_terminals[key] = self.owner.BasicLexer(lexer_conf, None)
        self[state] = lexer
        return lexer


def main(argv: list[str] | None = None) -> int:
    target = Path(argv[0]) if argv else TABLES
    target.write_text(tables_json(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
