"""The bilingual message tables of kb/ (`message/2` beside `message_it/2`,
`input_message/2` beside `input_message_it/2`) as written in their files."""

import re
from pathlib import Path


def twinned_kinds(path: Path, english: str) -> list[str]:
    """The kinds of `english(kind, ...)` lines of the file, in order, each
    checked to be followed on the next line by its `<english>_it(kind, ...)`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    kinds = []
    for i, line in enumerate(lines):
        found = re.match(rf"{english}\((\w+),", line)
        if found:
            kinds.append(found.group(1))
            assert lines[i + 1].startswith(f"{english}_it({found.group(1)},"), line
    return kinds
