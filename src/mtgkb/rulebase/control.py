"""The one place a clingo Control is made.

Every program mtgkb solves, grounds or only parses runs in a Control made by
`new_control`, so that how clingo is set up (its options, its logger) is
decided here and nowhere else. Nothing here knows a game rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import clingo

Logger = Callable[[clingo.MessageCode, str], None]


def quiet(code: clingo.MessageCode, message: str) -> None:
    """clingo's warnings (undefined atoms and the like) are not the user's business."""


def new_control(options: Sequence[str] = (), logger: Logger | None = quiet) -> clingo.Control:
    """A fresh Control with clingo's command-line `options` (say
    `["--models=1"]`); its warnings go to `logger` (by default, nowhere: the
    user did not write the programs mtgkb adds)."""
    return clingo.Control(list(options), logger=logger)
