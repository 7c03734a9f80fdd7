"""The body of `POST /v1/batch` (issue 27, item 3): many run requests at
once, as a JSON array or as NDJSON (one request per line). Each item is what
`POST /v1/run` takes (a JSON object, or the scenario text as a string),
optionally with an "id" that its answer carries back. An item that is not a
request gets its own error answer; it does not fail the batch."""

from __future__ import annotations

import json
from typing import Any

NDJSON_TYPES = ("application/x-ndjson", "application/ndjson", "application/jsonl")


class BatchError(Exception):
    """A body that is no batch at all (400), or one too long (413)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Unreadable:
    """An NDJSON line that is not JSON: answered with its error, in its place."""

    def __init__(self, message: str) -> None:
        self.message = message


def read_batch(data: bytes, kind: str, max_items: int) -> tuple[list[Any], bool]:
    """The items of a batch body of media type `kind`, and whether the
    answers are streamed back (NDJSON). Raises BatchError."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BatchError(f"the batch is not UTF-8: {err}") from None
    if kind in NDJSON_TYPES:
        items: list[Any] = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            if len(items) >= max_items:
                raise BatchError(f"a batch may have at most {max_items} scenarios", 413)
            try:
                items.append(json.loads(line))
            except RecursionError:
                items.append(Unreadable(f"line {number} nests too deep to be a request"))
            except ValueError as err:
                items.append(Unreadable(f"line {number} is not JSON: {err}"))
        return items, True
    if kind != "application/json":
        raise BatchError(
            "send the batch as application/json (an array) or application/x-ndjson, "
            f"not {kind or 'no media type'}"
        )
    try:
        items = json.loads(text)
    except RecursionError:
        raise BatchError("the batch nests too deep") from None
    except ValueError as err:
        raise BatchError(f"the batch is not JSON: {err}") from None
    if not isinstance(items, list):
        raise BatchError("a batch is a JSON array of requests")
    if len(items) > max_items:
        raise BatchError(f"a batch may have at most {max_items} scenarios", 413)
    return items, False
