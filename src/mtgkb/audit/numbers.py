"""Every CR number the rule base names is a rule of its index.

Tags are checked by `mtgkb.audit.lint.tag_lint`; this module reads the other
places a number reaches a user from: string constants of the ASP files that
are a CR number (`violation(rule("119.14"), ...)`, `play_rule(K, "601.2c")`,
`evasion(flying, "702.9b")`) and the numbers written inside the texts of
`kb/messages.lp` (and any other `message/2`, `message_it/2` fact). A number
the index does not hold is shown to users as a bare number with no
paraphrase, and usually is a typo (119.14 for 119.4).

Nothing here is a game rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from mtgkb.audit.sources import Base, finding
from mtgkb.rulebase.encoded import label
from mtgkb.rulebase.index import RuleIndex

#: A string constant that is a CR number: a section (`"704"`) or a rule (`"119.4a"`).
CR_NUMBER_STRING = re.compile(r"^\d{3}(?:\.\d+[a-z]*)?$")
#: A CR rule number inside a text (`... (509.1a)`): sections alone are not read
#: in texts, where a three-digit number may be a count.
CR_NUMBER_IN_TEXT = re.compile(r"\b\d{3}\.\d+[a-z]*\b")
MESSAGE_FACT = re.compile(r"^\s*message(?:_it)?\(")


def strings_of_code(line: str) -> Iterator[tuple[int, str]]:
    """The string constants of one line of ASP text, with their columns (1-based),
    up to the line's comment (a `%` outside a string)."""
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch == "%":
            return
        if ch == '"':
            start, i, chars = i, i + 1, []
            while i < n and line[i] != '"':
                if line[i] == "\\" and i + 1 < n:
                    chars.append(line[i + 1])
                    i += 2
                    continue
                chars.append(line[i])
                i += 1
            yield start + 1, "".join(chars)
        i += 1


def known(index: RuleIndex, number: str) -> bool:
    """A rule of the index, or a section or heading it titles."""
    return number in index or number in index.titles


def number_lint(base: Base, index: RuleIndex | None) -> list[dict]:
    """One `unknown-number` finding per CR number that the rule base's files
    name in a string (or a message names in its text) and the index lacks."""
    if index is None:
        return []
    found: list[dict] = []
    files = base.files(base.rules) + base.files(base.kb) + base.query_files() + list(base.extra)
    for path in files:
        if path.name == "rule_index.lp":
            continue
        for number, line, col, in_message in numbers_named(path):
            if known(index, number):
                continue
            where = f"{label(path, line)}:{col}"
            said = "a message names" if in_message else "the rule base names"
            text = f"{said} {number}, which is not in the rule index"
            found.append(finding("unknown-number", text, where, number))
    return found


def numbers_named(path: Path) -> Iterator[tuple[str, int, int, bool]]:
    """(number, line, column, inside a message's text) of each CR number of an ASP file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return  # the file's own errors are the logger's and the scan's findings
    for line_no, line in enumerate(text.splitlines(), 1):
        is_message = bool(MESSAGE_FACT.match(line))
        for col, value in strings_of_code(line):
            if CR_NUMBER_STRING.match(value):
                yield value, line_no, col, False
            elif is_message:
                for match in CR_NUMBER_IN_TEXT.finditer(value):
                    yield match.group(0), line_no, col + 1 + match.start(), True
