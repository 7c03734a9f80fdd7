"""Shared test helpers: the rule base solved on hand-written facts, and the
shared conformance folder (tests that need it skip when it is absent)."""

import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The tests judge this checkout's rule base, however mtgkb is installed (a
# wheel carries its own copy): an edit to rules/, kb/ or queries/ that breaks a
# rule fails here. Set before mtgkb is imported; subprocesses inherit it.
os.environ["MTGKB_RULE_BASE"] = str(ROOT)
os.environ.pop("MTGKB_WITH", None)

import clingo  # noqa: E402
import pytest  # noqa: E402

from mtgkb.solve import models_as_text  # noqa: E402

SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"

needs_shared = pytest.mark.skipif(
    not CONFORMANCE.is_dir(), reason="../shared is not beside this checkout"
)


def models(query: str, facts: str, **options) -> list[set[str]]:
    """The shown atoms of every model of `queries/<query>.lp` on `facts`."""
    return models_as_text(query, facts, **options)


def only_model(query: str, facts: str) -> set[str]:
    """The shown atoms of the single model; fails if there is not exactly one."""
    found = models(query, facts)
    assert len(found) == 1, f"expected one model, got {len(found)}: {found}"
    return found[0]


def quoted(name: str) -> str:
    """A clingo string literal for a user name (names are data)."""
    return json.dumps(name, ensure_ascii=False)


def table_facts(
    players,
    active=None,
    *,
    game=None,
    starting=None,
    phase=None,
    teams=None,
    options=(),
    ranges=None,
    extra=(),
) -> str:
    """The facts of a table in the schema of docs/predicates.md: players in
    seat order, the active player (first by default), the variant (two-player
    or free-for-all by count by default), and only the other settings given."""
    game = game or ("two_player" if len(players) == 2 else "free_for_all")
    lines = [f"game({game}).", f"active({quoted(active or players[0])})."]
    if starting is not None:
        lines.append(f"starting({quoted(starting)}).")
    if phase is not None:
        lines.append(f"phase({phase}).")
    lines += [f"option({o})." for o in options]
    for seat, player in enumerate(players, start=1):
        lines.append(f"player({quoted(player)}). seat({quoted(player)},{seat}).")
    for team, members in (teams or {}).items():
        lines += [f"team({quoted(team)},{quoted(m)})." for m in members]
    for player, n in (ranges or {}).items():
        lines.append(f"range({quoted(player)},{n}).")
    lines += list(extra)
    return "\n".join(lines) + "\n"


def arguments(term: clingo.Symbol) -> list:
    """A term's arguments as Python strings and numbers."""
    return [a.string if a.type == clingo.SymbolType.String else a.number for a in term.arguments]


def sequence_of(model, name: str) -> tuple:
    """The X of every `name(Pos,X)` atom of a model (atoms as text), by position."""
    pairs = []
    for text in model:
        term = clingo.parse_term(text)
        if term.name == name and len(term.arguments) == 2:
            pairs.append(arguments(term))
    return tuple(x for _, x in sorted(pairs))
