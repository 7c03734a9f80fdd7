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
from pathlib import Path

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

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
        return Lark._load_from_dict(shipped["data"], shipped["memo"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def main(argv: list[str] | None = None) -> int:
    target = Path(argv[0]) if argv else TABLES
    target.write_text(tables_json(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
