"""Rule numbers: the edition of the Comprehensive Rules the rule base
follows, a number written loosely made plain, and the rules' order.

Kept apart from mtgkb.rulebase.index (which re-exports them) so that what
only needs these, the answers and their envelope, need not import the index.
"""

from __future__ import annotations

import re

#: The edition of the Comprehensive Rules the rule base follows.
EDITION = "2026-04-17"


def normalize(number: str) -> str:
    """`119.4a.` or ` 119.4A ` -> `119.4a`."""
    return number.strip().rstrip(".").lower()


def section_of(number: str) -> str:
    return number.split(".", 1)[0]


def sort_key(number: str) -> tuple:
    """Numeric order: 119.9 < 119.10, 119.1 < 119.1a."""
    sect, _, rest = number.partition(".")
    match = re.fullmatch(r"(\d*)([a-z]?)", rest)
    if not match:
        return (int(sect) if sect.isdigit() else 0, 0, rest)
    return (int(sect), int(match.group(1) or -1), match.group(2))
