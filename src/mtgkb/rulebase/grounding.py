"""A rule base clingo cannot ground: an unsafe variable, or any other error
clingo reports when it prepares a program, said as bad input is said,
`FILE:LINE:COL: error: <clingo's message>` (exit 2), never a traceback.

The check grounds every program of the rule base (the solved files, the
queries, the user's added files) together, with no scenario facts: clingo
reads each file from disk, so its messages name the file and line the user
wrote. It takes a few hundredths of a second; the engine runs it when it
works out a rule base's analysis, and the runner when a solve failed.
Nothing here knows a game rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import clingo

from mtgkb.rulebase.control import new_control

#: clingo's place of a message: FILE:LINE:COL, then -COL or -LINE:COL (read by
#: mtgkb.running.runner too).
PLACE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+)(?:-\d+(?::\d+)?)?: (?P<rest>.*)$")
#: clingo's marker of the program part a statement belongs to: not the user's text.
_PART = re.compile(r"\[#inc_base\];?")


class RuleBaseFault(RuntimeError):
    """A file of the rule base that clingo cannot read or ground: `messages`
    are clingo's, each `FILE:LINE:COL: error: ...`."""

    def __init__(self, messages: list[str]):
        super().__init__("\n".join(messages))
        self.messages = list(messages)


def _normal(message: str) -> str:
    """clingo's message with its place as `FILE:LINE:COL` and without the
    marker of the program part: one place per message, as the language's
    errors have."""
    lines = [_PART.sub("", line).rstrip() for line in message.strip().splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return message.strip()
    for k, line in enumerate(lines):
        found = PLACE.match(line)
        if found is not None:
            lines[k] = f"{found['file']}:{found['line']}:{found['col']}: {found['rest']}"
    return "\n".join(lines)


def grounding_errors(files: Iterable[Path]) -> list[str]:
    """clingo's error messages (normalised: `FILE:LINE:COL: error: ...`) for
    the programs `files` grounded together with no facts; none when they
    ground. Syntax errors come out too (each file's first)."""
    messages: list[str] = []

    def log(code: clingo.MessageCode, message: str) -> None:
        if code == clingo.MessageCode.RuntimeError or ": error:" in message:
            messages.append(_normal(message))

    ctl = new_control(["--warn=none"], log)
    try:
        for path in files:
            ctl.load(str(path))
        ctl.ground([("base", [])])
    except RuntimeError:
        if not messages:
            messages.append(f"{next(iter(files), '<rule base>')}: error: clingo cannot ground it")
    return list(dict.fromkeys(messages))


def check_grounds(files: Iterable[Path]) -> None:
    """Raise RuleBaseFault with clingo's messages when `files` do not ground."""
    found = grounding_errors(list(files))
    if found:
        raise RuleBaseFault(found)
