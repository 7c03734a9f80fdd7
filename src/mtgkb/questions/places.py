"""Where in the file a violation comes from: the line and column of the
declaration it is about, for a program reading the answers (issue 27).

A violation names objects (its term's arguments, in order: `"objects"`);
the declaration it is about is the first one, in file order, whose own names
begin with the violation's first object and hold its second where it has
one (`"Bear" blocks "Giant"` for a violation about Bear blocking Giant);
else the first naming both its first objects (the block of a creature with
menace); else the first whose subject is its first object, or that names
it anywhere; else the line that brings that object into the game. A
violation about an event (a payment that can't be made) names it, and is
placed at that event's line. This
reads the shape of the language's declarations, never a rule of the game;
a violation that names nothing written in the file gets no place.
"""

from __future__ import annotations

from collections.abc import Iterable


def declared(scenario) -> list[tuple[tuple[str, ...], int, int]]:
    """(names, line, column) of each declaration of the play, in file order:
    its subject first (the attacker, the blocker, the player)."""
    found = []
    for choice in getattr(scenario, "defending_choices", ()):
        found.append(((choice.player, choice.defender), choice.line, choice.column))
    for attack in getattr(scenario, "attacks", ()):
        found.append(((attack.attacker, attack.target), attack.line, attack.column))
    for block in getattr(scenario, "blocks", ()):
        found.append(((block.blocker, block.attacker), block.line, block.column))
    for band in getattr(scenario, "bands", ()):
        found.append((tuple(band.members), band.line, band.column))
    for assignment in getattr(scenario, "assignments", ()):
        recipients = tuple(str(amount[0]) for amount in assignment.amounts)
        found.append(((assignment.creature, *recipients), assignment.line, assignment.column))
    for play in getattr(scenario, "plays", ()):
        names = (play.player, play.name, *(t.name for t in play.targets))
        found.append((names, play.line, play.column))
    return sorted((d for d in found if d[1] > 0), key=lambda d: (d[1], d[2]))


def place(objects: list[str], declarations, scenario) -> tuple[int, int] | None:
    """The (line, column) a violation naming `objects` comes from, or None."""
    return _place(objects, _Declarations(declarations), scenario)


class _Declarations:
    """The declarations (as `declared` gives them) by the names they hold:
    for each name, the places in the list of those that hold it, in order,
    so that a violation looks only at the declarations naming its first
    object (each of `place`'s passes needs that, but for the objects' line)."""

    __slots__ = ("all", "naming")

    def __init__(self, declarations) -> None:
        self.all = list(declarations)
        self.naming: dict[str, list[int]] = {}
        for i, (names, _, _) in enumerate(self.all):
            for name in dict.fromkeys(names):
                self.naming.setdefault(name, []).append(i)


def _place(objects: list[str], declarations: _Declarations, scenario) -> tuple[int, int] | None:
    if not objects:
        return None
    first, named = objects[0], set(objects[:2])
    passes = (
        # its subject first, the other object after it ("Bear" blocks "Giant")
        lambda names: names[0] == first and (len(named) == 1 or objects[1] in names[1:]),
        lambda names: named <= set(names),  # both objects, in any place
        lambda names: names[0] == first,  # its subject
        lambda names: first in names,  # its first object anywhere
    )
    # (each pass fits only a declaration that holds `first`: those alone, in order)
    holding = [declarations.all[i] for i in declarations.naming.get(first, ())]
    for fits in passes:
        for names, line, column in holding:
            if names and fits(names):
                return line, column
    for thing in getattr(scenario, "objects", ()):
        if getattr(thing, "name", None) == first and thing.line > 0:
            return thing.line, thing.column
    return None


def locate(violations: Iterable[dict], scenario, at: tuple[int, int] | None = None) -> None:
    """Give each violation (changed in place) the `line` and `column` it comes
    from: `at` when given (the line of `ask can`'s play), else the line of the
    event it names (`"event"`, its number in file order, which is taken out:
    a payment that can't be made), else the place of the declaration it is
    about, where there is one."""
    events = {}
    if scenario is not None and at is None:
        events = {e.index: (e.line, e.column) for e in getattr(scenario, "events", ())}
    declarations = None
    for violation in violations:
        event = violation.pop("event", None)
        if scenario is None:
            continue
        if at is not None:
            found = at
        elif event in events:
            found = events[event]
        else:
            if declarations is None:
                declarations = _Declarations(declared(scenario))
            found = _place(violation["objects"], declarations, scenario)
        violation.update(where_written(scenario, found))


def where_written(scenario, found: tuple[int, int] | None) -> dict:
    """The keys that say where a statement is written: `line` and `column` in
    a scenario's text, or the JSON `path` of the statement in a JSON game
    state (the text made of a state is nobody's to read); none when it is
    written nowhere."""
    if found is None or found[0] <= 0:
        return {}
    origin = getattr(scenario, "origin", None)
    if origin is not None:
        return {"path": origin.statement_at(found[0])}
    return {"line": found[0], "column": found[1]}


__all__ = ["declared", "locate", "place", "where_written"]
