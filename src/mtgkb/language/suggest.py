"""Suggestions for a mistyped word of a scenario file: the closest keyword
of the grammar, or form, to a word the parser could not read (`ask legl`:
did you mean 'legal'?).

A word is close to a keyword when one edit (a letter changed, added, left
out, or two neighbours swapped) makes it the keyword, or two edits for a
keyword of six letters or more. Nothing here reads a scenario's meaning:
only words; the texts of the suggestions are kb/input_messages.lp's, in the
language asked."""

from __future__ import annotations

import re
from collections.abc import Iterable

from mtgkb.language.checks import say

#: The first word of a line, lowercase (names are capitalised or quoted).
_FIRST_WORD = re.compile(r"\s*([a-z][a-z'’-]*)")
#: How many expected words a syntax error lists; with more, it lists none.
MAX_LISTED = 40
#: A word of letters.
_LETTERS = re.compile(r"[A-Za-z]+")


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
    import difflib  # (only when a word is not known: a file's error)

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
    """(word, keyword): the first word of `line` when the parser stopped
    right after it (at column `before`, from 1), is no keyword and is a typo
    of one (`plyers: Rob` read "plyers" as a name); or None. Words further
    on are left alone: an ability such as "reach" is one edit from "each"."""
    keywords = set(keywords)
    found = _FIRST_WORD.match(line)
    if found is None or line[found.end() : max(found.end(), before - 1)].strip():
        return None
    word = found.group(1)
    if word in keywords:
        return None
    close = closest(word, keywords)
    return (word, close) if close is not None else None


def typo_in_word(line: str, column: int, keywords: Iterable[str]) -> tuple[str, str] | None:
    """(word, keyword): the word of `line` the parser stopped inside of (at
    column `column`, from 1: "ax creature" read as the keyword "a" and a
    stray "x"), when it is a typo of a keyword; or None."""
    at = column - 1
    if not 0 < at <= len(line) or not line[at - 1].isalpha():
        return None
    start = at
    while start > 0 and line[start - 1].isalpha():
        start -= 1
    word = _LETTERS.match(line, start)
    if word is None:
        return None
    close = closest(word.group(), keywords)
    return (word.group(), close) if close is not None else None


def did_you_mean(word: str, keyword: str, lang: str = "en") -> str:
    """The suggestion, as the other messages of the parser give it."""
    if word.lower() == keyword:
        return ""
    return say("hint_close", lang, f"'{keyword}'")


def listed(words: list[str], lang: str = "en") -> str:
    """'; expected X' or '; expected one of: X, Y, ...' with every word, or
    nothing when there are too many to read."""
    if not words or len(words) > MAX_LISTED:
        return ""
    if len(words) == 1:
        return say("expected_one", lang, words[0])
    return say("expected_any", lang, ", ".join(words))
