"""The one error a scenario file can give: where it is and what is wrong.

Rendered like a compiler message::

    game.mtg:2:1: error: unknown player 'Carl'
    Carl controls creature "Bear" 2/2
    ^
"""

from __future__ import annotations

import unicodedata


def _printable(line: str) -> str:
    """The source line with control characters (NUL, ...) shown as U+FFFD."""
    return "".join(
        ch if ch == "\t" or unicodedata.category(ch) not in ("Cc", "Cs") else "\ufffd"
        for ch in line
    )


class ScenarioError(Exception):
    """Unreadable input: a syntax error, an unknown name, a forbidden setup.

    `line` and `column` count from 1 (column 0 / line 0 when the position is
    the whole file); `source_line` is the text of that line, without newline.
    """

    def __init__(
        self,
        message: str,
        *,
        filename: str = "<stdin>",
        line: int = 1,
        column: int = 1,
        source_line: str = "",
        path: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.line = line
        self.column = column
        self.source_line = source_line
        # in a JSON state: the JSON pointer of the value at fault (`/objects/3/power`);
        # the message then starts with it, and line and column are 0
        self.path = path

    def format(self) -> str:
        """`FILE:LINE:COL: error: message`, the offending line, a caret under the
        column; in a JSON state `FILE: error: /json/path: message`."""
        if self.path is not None:
            return f"{self.filename}: error: {self.message}"
        head = f"{self.filename}:{self.line}:{self.column}: error: {self.message}"
        if not self.source_line and self.line <= 0:
            return head
        shown = _printable(self.source_line)
        if len(shown) > 400:
            # Keep the column in view on a very long line.
            start = max(0, self.column - 200)
            shown = shown[start : start + 400]
            caret_at = self.column - start
        else:
            caret_at = self.column
        prefix = shown[: max(0, caret_at - 1)]
        # Tabs stay tabs so the caret lines up in a terminal.
        pad = "".join("\t" if ch == "\t" else " " for ch in prefix)
        return f"{head}\n{shown}\n{pad}^"

    def as_dict(self) -> dict:
        """The error as JSON-ready data."""
        data = {
            "file": self.filename,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }
        if self.path is not None:
            data["path"] = self.path
        return data

    def __reduce__(self):
        # Keep the position when the error crosses a process boundary.
        return (
            _rebuild,
            (self.message, self.filename, self.line, self.column, self.source_line, self.path),
        )

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return (
            f"ScenarioError({self.message!r}, filename={self.filename!r}, "
            f"line={self.line}, column={self.column})"
        )


def _rebuild(
    message: str,
    filename: str,
    line: int,
    column: int,
    source_line: str,
    path: str | None = None,
) -> ScenarioError:
    return ScenarioError(
        message, filename=filename, line=line, column=column, source_line=source_line, path=path
    )


class UsageError(ValueError):
    """A bound or an option out of its range (a time-out, a number of jobs or
    models, a memory bound): the caller's mistake, not the scenario's."""


MAX_TIMEOUT = 1_000_000.0  # seconds (about 11.6 days): any longer is no bound at all


def check_timeout(value: object, what: str = "timeout") -> float | None:
    """A time-out in seconds: None (no time-out) or a finite number above 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"{what} must be a number of seconds, not {value!r}")
    seconds = float(value)
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        raise UsageError(f"{what} must be a finite number of seconds, not {value!r}")
    if seconds <= 0:
        raise UsageError(f"{what} must be more than 0 seconds, not {value!r}")
    if seconds > MAX_TIMEOUT:
        raise UsageError(f"{what} may be at most {MAX_TIMEOUT:g} seconds, not {value!r}")
    return seconds


def check_count(value: object, what: str, minimum: int, maximum: int = 2**31 - 1) -> int:
    """A whole number between `minimum` and `maximum`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{what} must be a whole number, not {value!r}")
    if value < minimum:
        raise UsageError(f"{what} must be at least {minimum}, not {value}")
    if value > maximum:
        raise UsageError(f"{what} may be at most {maximum}, not {value}")
    return value
