"""Small helpers every module that runs clingo shares (nothing here knows a rule).

- `quiet`: a clingo logger that keeps clingo's warnings (undefined atoms and
  the like) from the user, who did not write the programs;
- `add_facts`: facts into a Control, as text (tests, `mtgkb facts`) or as
  symbols through the backend (so a user's name stays data);
- `stamp`: what identifies the files' contents on disk (path, mtime, size),
  for caches; a file that is gone is left out.
"""

from __future__ import annotations

from collections.abc import Sequence

import clingo

from .paths import file_stamp as stamp

__all__ = ["add_facts", "quiet", "stamp"]


def quiet(code: clingo.MessageCode, message: str) -> None:
    """clingo's warnings (undefined atoms and the like) are not the user's business."""


def add_facts(ctl: clingo.Control, facts: str | Sequence[clingo.Symbol]) -> None:
    """Facts as text (tests, `mtgkb facts`) or as symbols (a user's name stays data)."""
    if isinstance(facts, str):
        ctl.add("base", [], facts)
        return
    with ctl.backend() as backend:
        for sym in facts:
            backend.add_rule([backend.add_atom(sym)])
