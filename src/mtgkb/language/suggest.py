"""Suggestions for a mistyped word of a scenario file: the closest keyword
of the grammar, or form, to a word the parser could not read (`ask legl`:
did you mean 'legal'?).

A word is close to a keyword when one edit (a letter changed, added, left
out, or two neighbours swapped) makes it the keyword, or two edits for a
keyword of six letters or more. Nothing here reads a scenario's meaning:
only words."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

#: The words of a line outside quoted names (lowercase words: names are
#: capitalised or quoted).
_WORD = re.compile(r'"(?:[^"\\\n]|\\["\\])*"|([a-z][a-z\'’-]*)')
#: How many expected words a syntax error lists; with more, it lists none.
MAX_LISTED = 40


def edits(a: str, b: str) -> int:
    """The optimal-string-alignment distance: letters changed, added, left
    out, and neighbours swapped, each one edit."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[len(a)][len(b)]


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word `word` is most likely a typo of, or None (itself known,
    or none close enough)."""
    word = word.lower()
    known = sorted(set(known))
    if not word or word in known:
        return None
    best: tuple | None = None
    for candidate in known:
        distance = edits(word, candidate)
        if distance > (2 if len(candidate) >= 6 else 1):
            continue
        ratio = difflib.SequenceMatcher(None, word, candidate).ratio()
        key = (distance, -ratio, candidate)
        if best is None or key < best:
            best = key
    return best[2] if best else None


def typo_in_line(line: str, before: int, keywords: Iterable[str]) -> tuple[str, str] | None:
    """(word, keyword): the first unquoted lowercase word of `line` that
    starts before column `before` (from 1), is no keyword and is a typo of
    one; or None."""
    keywords = set(keywords)
    for found in _WORD.finditer(line.split("#", 1)[0]):
        word = found.group(1)
        if found.start() + 1 > before:
            break
        if word is None or word in keywords:
            continue
        close = closest(word, keywords)
        if close is not None:
            return word, close
    return None


def did_you_mean(word: str, keyword: str) -> str:
    """The suggestion, as the other messages of the parser give it."""
    if word.lower() == keyword:
        return ""
    return f"; did you mean '{keyword}'?"


def listed(words: list[str]) -> str:
    """'; expected X' or '; expected one of: X, Y, ...' with every word, or
    nothing when there are too many to read."""
    if not words or len(words) > MAX_LISTED:
        return ""
    return "; expected " + (words[0] if len(words) == 1 else "one of: " + ", ".join(words))
