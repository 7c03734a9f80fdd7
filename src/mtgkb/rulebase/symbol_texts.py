"""Many clingo symbols read at once: the texts clingo writes for the
arguments of thousands of atoms, from the text of one tuple of them all (two
calls into clingo, where reading each argument of each atom is several), and
a string's value from its text or from its symbol. Used where many atoms are read into Python:
a listing's ranks (mtgkb.engine.listing) and the words of the answers
(mtgkb.rulebase.words). Also a program's text split outside its strings and
brackets (`split_outside`): the head of a marked rule
(mtgkb.rulebase.citations), a traced rule's literals (mtgkb.questions.explain)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import clingo

#: A string as clingo writes it (with its escapes): a pattern's text.
STRING = r'"(?:[^"\\]|\\.)*"'
#: A string, or a plain term (no parenthesis, comma or string inside): a
#: pattern's text.
PLAIN_ARGUMENT = rf'(?>{STRING}|[^,()"]+)'
_INSIDE = rf'(?:{STRING}|[^()"])*'
for _ in range(3):
    _INSIDE = rf'(?:{STRING}|[^()"]|\({_INSIDE}\))*'
#: One argument's text, a term with up to four levels of parentheses inside
#: it (no comma outside them): a pattern's text.
NESTED_ARGUMENT = rf'(?:{STRING}|[^,()"]|\({_INSIDE}\))*'
#: clingo's escapes in a string it writes: \\, \" and \n
_ESCAPED = re.compile(r"\\(.)")


def argument_texts(
    symbols: Sequence[clingo.Symbol], name: str, arity: int
) -> list[tuple[str, ...]] | None:
    """The texts clingo writes for the arguments of each of `symbols`, atoms
    `name/arity`, when every argument is a string or a plain term (None
    otherwise): read from the text of one tuple of them all, two calls into
    clingo."""
    if not symbols or arity == 0:
        return None
    text = str(clingo.Function("", list(symbols)))
    atom = re.escape(name) + r"\(" + ",".join([PLAIN_ARGUMENT] * arity) + r"\)"
    if re.fullmatch(rf"\((?:{atom},)*{atom},?\)", text) is None:
        return None
    # (every atom whole: each match starts where the last ended, at an atom)
    captured = re.escape(name) + r"\(" + ",".join([f"({PLAIN_ARGUMENT})"] * arity) + r"\)"
    found = re.findall(captured, text)
    if arity == 1:
        found = [(one,) for one in found]
    return found if len(found) == len(symbols) else None


def value_of(text: str) -> str:
    """The value of an argument from the text clingo writes for it: a
    string's own characters (its escapes undone), any other term as written."""
    if not text.startswith('"'):
        return text
    return _ESCAPED.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), text[1:-1])


def symbol_value(symbol: clingo.Symbol) -> str:
    """`value_of` read from a symbol itself: a string's own characters, any
    other term as clingo writes it."""
    return symbol.string if symbol.type == clingo.SymbolType.String else str(symbol)


def masked(text: str) -> str:
    """A program's text with its strings blanked out, the same length (their
    brackets and separators not read)."""
    # (the pattern compiled when first needed, by `re`'s own cache)
    return re.sub(STRING, lambda m: "_" * len(m.group()), text) if '"' in text else text


@lru_cache(maxsize=8)
def _splits(separator: str) -> re.Pattern:
    """What `split_outside` reads of a text: brackets, and `separator`."""
    return re.compile(r"[(){}\[\]]|" + re.escape(separator))


def split_outside(text: str, separator: str) -> list[str]:
    """A program's text split at each `separator` (` :- `, `; `, `,`, ...)
    outside parentheses, braces, brackets and strings."""
    out, depth, last = [], 0, 0
    for found in _splits(separator).finditer(masked(text)):
        c = found.group()
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif depth == 0:
            out.append(text[last : found.start()])
            last = found.end()
    out.append(text[last:])
    return out
