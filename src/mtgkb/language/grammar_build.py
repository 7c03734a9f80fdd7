"""Build the scenario parser ahead of time: `python -m mtgkb.language.grammar_build`.

Lark builds the LALR tables of `grammar.lark` in about 40 ms, on every start.
Instead of Lark's `cache=True` (a pickle in the shared temporary folder, which
another local user can plant: unpickling it runs their code), the tables are
generated once, here, and shipped in the package as JSON data
(`mtgkb/language/grammar_tables.json`: no pickle, no code), keyed by the SHA-256 of the
grammar, the Lark version they were made with and the file's layout
(TABLES_FORMAT). `mtgkb.language.parser.grammar()` loads them when all three
match and otherwise builds the parser from the grammar in memory; nothing is
ever read from or written to a cache folder. The layout (`compact_form`)
spares Lark's generic deserialization of its terminals and rules: loading
took 11-12 ms of a warm loop in Lark's own layout, 7 ms in this one.

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
from lark.grammar import NonTerminal, Rule, RuleOptions, Terminal
from lark.lexer import ContextualLexer, PatternRE, PatternStr, TerminalDef

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


#: The layout of the shipped file (bumped when it changes; another one is
#: not read, and the parser is then built from the grammar).
TABLES_FORMAT = 2


def tables_json(text: str | None = None) -> str:
    """The text of grammar_tables.json for the grammar `text`: Lark's
    serialized parser in the compact layout of `compact_form`. It is checked
    here that the file loads into the very parser Lark's own loading of that
    serialized form makes."""
    if text is None:
        text = GRAMMAR.read_text(encoding="utf-8")
    data, memo = build_from_grammar(text).memo_serialize([TerminalDef, Rule])
    shipped = {
        "about": "The LALR tables of grammar.lark, made by "
        "`python -m mtgkb.language.grammar_build`.",
        "format": TABLES_FORMAT,
        "grammar_sha256": grammar_digest(text),
        "lark_version": lark.__version__,
        **compact_form(data, memo),
    }
    written = json.dumps(shipped, ensure_ascii=True, separators=(",", ":")) + "\n"
    if not same_parser(parser_from(json.loads(written)), larks_own_loading(data, memo)):
        raise RuntimeError("the compact tables do not load into Lark's own parser")
    return written


def larks_own_loading(data: dict, memo: dict) -> Lark:
    """The parser as Lark loads it from its serialized form (`memo_serialize`)."""
    return Lark._load_from_dict(data, memo, _plugins={"ContextualLexer": LazyContextualLexer})


def compact_form(data: dict, memo: dict) -> dict:
    """Lark's serialized parser (`memo_serialize`) as shipped: its data, its
    LALR states and its memo (the terminals and the rules) in the layouts
    below, which load without Lark's generic deserialization (half of what
    loading took: a dict walked and a class looked up for each of some
    2,000 objects), and in a third of the JSON."""
    table = data["parser"]["parser"]
    stateless = {**data, "parser": {**data["parser"], "parser": {**table, "states": None}}}
    return {
        "data": _encode(stateless),
        "states": _states_encoded(table["states"]),
        "memo": [_memo_encoded(memo[k]) for k in range(len(memo))],
    }


def load_tables(text: str, path: Path = TABLES) -> Lark | None:
    """The parser from the shipped tables, or None when there are none for
    this grammar, this Lark and this layout (or they cannot be read)."""
    try:
        shipped = json.loads(path.read_text(encoding="utf-8"))
        if (
            shipped.get("format") != TABLES_FORMAT
            or shipped.get("grammar_sha256") != grammar_digest(text)
            or shipped.get("lark_version") != lark.__version__
        ):
            return None
        return parser_from(shipped)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


def parser_from(shipped: dict) -> Lark:
    """The parser of a shipped file's data, states and memo (`compact_form`,
    read from JSON)."""
    data = _plain(shipped["data"])
    data["parser"]["parser"]["states"] = _states_decoded(shipped["states"])
    memo = dict(enumerate(map(_memo_object, shipped["memo"])))
    return larks_own_loading(data, memo)


def _plain(value):
    """A value of Lark's serialized data from its JSON form (`_encode`):
    tuples and number-keyed dicts made again, the rest kept as read."""
    if type(value) is dict:
        if len(value) == 1 and _TUPLE in value:
            return tuple(map(_plain, value[_TUPLE]))
        if len(value) == 1 and _ITEMS in value:
            return {_plain(k): _plain(v) for k, v in value[_ITEMS]}
        for key, item in value.items():
            if type(item) is dict or type(item) is list:
                value[key] = _plain(item)
        return value
    if type(value) is list:
        return [_plain(v) if type(v) is dict or type(v) is list else v for v in value]
    return value


# The LALR states: {state: {token: (action, argument)}}, the argument of a
# reduction a reference to its rule in the memo ({"@": k}), shipped as
# [state, [token, action, number, token, action, number, ...]] (the number:
# the state shifted to, or the rule's key in the memo).


#: The action of a reduction in Lark's serialized states (a shift's is 0).
_REDUCE = 1


def _states_encoded(states: dict) -> list:
    out = []
    for state, actions in states.items():
        flat = []
        for token, (action, argument) in actions.items():
            flat += [token, action, argument["@"] if action == _REDUCE else argument]
        out.append([state, flat])
    return out


def _states_decoded(shipped: list) -> dict:
    return {
        state: {
            flat[i]: (_REDUCE, {"@": flat[i + 2]})
            if flat[i + 1] == _REDUCE
            else (flat[i + 1], flat[i + 2])
            for i in range(0, len(flat), 3)
        }
        for state, flat in shipped
    }


# The memo: Lark's terminals and rules, each a list of its fields in
# Lark's order (`__serialize_fields__`), a letter first for its class; the
# values of other fields as `_encode` writes them.
_SYMBOLS = {"Terminal": "T", "NonTerminal": "N"}


def _memo_encoded(entry: dict) -> list:
    if entry["__type__"] == "TerminalDef":
        pattern = entry["pattern"]
        kind = _PATTERN_CODES[pattern["__type__"]]
        fields = [_encode(pattern[f]) for f in _PATTERNS[kind].__serialize_fields__]
        return ["D", entry["name"], [kind, *fields], entry["priority"]]
    if entry["__type__"] != "Rule":
        raise TypeError(f"cannot ship a {entry['__type__']} in the parser tables")
    options = entry["options"]
    return [
        "R",
        _symbol_encoded(entry["origin"]),
        [_symbol_encoded(s) for s in entry["expansion"]],
        entry["order"],
        entry["alias"],
        [_encode(options[f]) for f in RuleOptions.__serialize_fields__],
    ]


def _symbol_encoded(symbol: dict) -> list:
    code = _SYMBOLS[symbol["__type__"]]
    return [code, symbol["name"], symbol["filter_out"]] if code == "T" else [code, symbol["name"]]


#: A pattern's class by its letter in the memo, and the letter by the class's name.
_PATTERNS = {"S": PatternStr, "E": PatternRE}
_PATTERN_CODES = {cls.__name__: code for code, cls in _PATTERNS.items()}


def _memo_object(entry: list):
    """A terminal or a rule, with the attributes Lark's deserialization gives
    it: made by the class's own constructor where that sets exactly those
    (a rule, its symbols, its options, a terminal), a pattern's fields set
    one by one as Lark sets them (its constructor would make its flags a
    frozenset, where Lark's loading leaves the list)."""
    if entry[0] == "D":
        _, name, (kind, *fields), priority = entry
        cls = _PATTERNS[kind]
        pattern = cls.__new__(cls)
        for field, value in zip(cls.__serialize_fields__, fields, strict=True):
            setattr(pattern, field, _plain(value))
        return TerminalDef(name, pattern, priority)
    _, origin, expansion, order, alias, options = entry
    return Rule(
        _symbol(origin),
        [_symbol(s) for s in expansion],
        order,
        alias,
        RuleOptions(*map(_plain, options)),
    )


def _symbol(encoded: list) -> Terminal | NonTerminal:
    return Terminal(encoded[1], encoded[2]) if encoded[0] == "T" else NonTerminal(encoded[1])


def same_parser(a: Lark, b: Lark) -> bool:
    """Whether two loaded parsers hold the same rules, terminals and LALR
    states, each object of the same class with the same attributes (the
    test of the compact layouts against Lark's own loading)."""
    table_a = a.parser.parser.parser.parse_table
    table_b = b.parser.parser.parser.parse_table
    return (
        _same(a.rules, b.rules)
        and _same(a.terminals, b.terminals)
        and _same(table_a.states, table_b.states)
        and table_a.start_states == table_b.start_states
        and table_a.end_states == table_b.end_states
        and _same(a.lexer_conf.ignore, b.lexer_conf.ignore)
    )


def _same(a, b) -> bool:
    """Equal values of the same types all the way down (attributes too)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (str, int, float, bool, frozenset, set)) or a is None:
        return a == b
    return _same(_attributes(a), _attributes(b))


def _attributes(obj) -> dict:
    names = [n for cls in type(obj).__mro__ for n in getattr(cls, "__slots__", ())]
    found = {n: getattr(obj, n) for n in names if hasattr(obj, n)}
    return {**found, **getattr(obj, "__dict__", {})}


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
