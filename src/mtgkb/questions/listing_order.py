"""The canonical order of each listing answer (mtgkb.engine.listing.Canonical),
from the order in which the file names things.

The file order of names: the players in seating order, then the objects
(permanents) in the order the file declares them, then the triggers, the
stack's items and the plays in theirs; a name the file does not declare
comes after them, in text order. (A JSON state declares them in the order
of its lists.)

- Declarations (`ask attacks`, `ask blocks`): the creatures that choose, in
  file order; the first creature's choice varies slowest. A creature's
  choices: none first ("no attack", "no block"), then one target at a time in
  file order (for blocks the attackers in the order the file declares them),
  then sets of targets (a creature blocking several attackers, 509.1a), as
  binary numbers in which the i-th target in file order is worth 2^i.
  `ask blocks for P` ranks only P's creatures (the only ones the answer shows).
- Damage assignments (`ask assignments`): the recipients in file order, each
  one's amount from 0 up; the first recipient's amount varies slowest.
- Orders (`ask order`, `ask stack`, `ask block-order`, `ask damage-order`):
  sequences compared position by position by the file order of what stands
  there; for `ask order`, the players' own choice orders (101.4c) next, the
  players in seating order.
"""

from __future__ import annotations

import clingo

from mtgkb.engine.listing import Canonical
from mtgkb.questions.symbols import value


class FileOrder:
    """The file order of the names a scenario declares."""

    def __init__(self, scenario) -> None:
        names: list[str] = []
        players = sorted(getattr(scenario, "players", ()), key=lambda p: p.seat)
        names += [p.name for p in players]
        for field in ("objects", "triggers", "stack", "plays"):
            names += [getattr(x, "name", "") for x in getattr(scenario, field, ())]
        self.index: dict[str, int] = {}
        for name in names:
            self.index.setdefault(name, len(self.index))
        self.controller = {o.name: o.controller for o in getattr(scenario, "objects", ())}
        # each term's place and value, worked out once: a listing ranks
        # thousands of atoms naming the same few hundred terms, and reading a
        # term's value is several calls into clingo where hashing it is one
        self._known: dict[clingo.Symbol, tuple[tuple, str | int]] = {}
        self._texts: dict[str, tuple[tuple, str]] | None = None

    def __call__(self, term: clingo.Symbol) -> tuple:
        """The place of a name (or number) in file order."""
        return self._read(term)[0]

    def value(self, term: clingo.Symbol) -> str | int:
        """The term's value (mtgkb.questions.symbols.value)."""
        return self._read(term)[1]

    def _read(self, term: clingo.Symbol) -> tuple[tuple, str | int]:
        known = self._known.get(term)
        if known is None:
            found = value(term)
            if isinstance(found, int):
                place = (0, found, "")
            else:
                text = str(found)
                place = (1, self.index.get(text, len(self.index)), text)
            known = self._known[term] = (place, found)
        return known

    def by_text(self, text: str) -> tuple[tuple, str]:
        """The place and value of a declared name from the text clingo
        writes for it (mtgkb.rulebase.symbol_texts.argument_texts), as `_read` of its
        symbol gives them; KeyError for any other text."""
        if self._texts is None:
            # (each name's text written by clingo itself: its escapes as clingo's)
            self._texts = {
                str(clingo.String(name)): ((1, i, name), name) for name, i in self.index.items()
            }
        return self._texts[text]

    def term_of_text(self, text: str) -> clingo.Symbol:
        """The symbol of a declared name from the text clingo writes for it;
        KeyError for any other text."""
        return clingo.String(self.by_text(text)[1])


def declarations(scenario, predicate: str, choosers: set[str] | None = None) -> Canonical:
    """`predicate(C, T)`: creature C declares T (attacks or blocks); only the
    creatures controlled by `choosers` (None: every creature) take part."""
    order = FileOrder(scenario)

    def rank(atom: clingo.Symbol) -> tuple | None:
        creature, target = atom.arguments
        if (
            choosers is not None
            and order.controller.get(str(order.value(creature))) not in choosers
        ):
            return None
        place = order(target)
        # (a creature's later targets first: "none" then the first target
        # come first, as binary numbers with the first target the lowest bit)
        return (order(creature), (-place[0], -place[1]), place[2])

    # each creature's and each target's part of a rank, by text, worked out
    # once: thousands of atoms pair the same few hundred names
    creature_parts: dict[str, tuple | None] = {}
    target_parts: dict[str, tuple] = {}

    def rank_text(texts: tuple[str, ...]) -> tuple | None:
        # (the same rank, from the arguments' texts)
        chooser, target = texts
        if chooser not in creature_parts:
            creature, name = order.by_text(chooser)
            chosen = choosers is None or order.controller.get(name) in choosers
            creature_parts[chooser] = creature if chosen else None
        creature = creature_parts[chooser]
        if creature is None:
            return None
        if target not in target_parts:
            place = order.by_text(target)[0]
            target_parts[target] = ((-place[0], -place[1]), place[2])
        part = target_parts[target]
        return (creature, part[0], part[1])

    return Canonical(
        {(predicate, 2): rank},
        prefer_present=False,
        by_text={(predicate, 2): rank_text},
        term_of_text=order.term_of_text,
    )


def assignments(scenario) -> Canonical:
    """`assignment(R, N)` (shown) and `enum_amount(R, N)` (the atom it is
    shown from): N damage to R; 0 is no atom."""
    order = FileOrder(scenario)

    def rank(atom: clingo.Symbol) -> tuple | None:
        recipient, amount = atom.arguments
        n = value(amount)
        if not isinstance(n, int) or n <= 0:
            return None
        return (order(recipient), -n)

    rank_of = {("assignment", 2): rank, ("enum_amount", 2): rank}
    return Canonical(rank_of, prefer_present=False)


def orders(scenario, predicate: str) -> Canonical:
    """`predicate(Pos, X)`: X stands at position Pos; with `choice_order(P,
    Pos, X)` (101.4c) after them for `order`."""
    order = FileOrder(scenario)

    def rank(atom: clingo.Symbol) -> tuple:
        position, thing = atom.arguments
        return (0, order(position), (), order(thing))

    def choice(atom: clingo.Symbol) -> tuple:
        player, position, thing = atom.arguments
        return (1, order(player), order(position), order(thing))

    rank_of = {(predicate, 2): rank}
    if predicate == "order":
        rank_of[("choice_order", 3)] = choice
    return Canonical(rank_of, prefer_present=True)
