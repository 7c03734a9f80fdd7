"""The first declarations of a listing in its canonical order, read from the
model of its counting query (the generic forms of mtgkb.engine.classes),
without a grounding of the listing's own.

A batch solves each file's counting query in the chunk's grounding
(mtgkb.engine.scenarios.solve_many). That model describes the declarations
(who chooses among which options, under which constraints). Beside the forms,
it also shows the atoms that every declaration of the listing shows (who
chooses, the rules cited). A declaration is then shown as
`predicate(X, Y)` for each option Y that a shown chooser X picks, plus those
atoms.

The canonical order (mtgkb.engine.listing.Canonical) ranks each such atom.
Here it must put each chooser's atoms next to each other, and then a model's
bit vector is the choosers' picks one after the other:

- the choosers come in the order of their atoms' ranks;
- each chooser's picks come in the order of its own bits: none first (every
  atom absent), then one option at a time, the option whose atom ranks last
  first.

So the first N declarations are the first N leaves of a walk over the
choosers in that order, each one's picks in that order. A pick is kept only
when the declarations that extend the picks made so far still include one
with the most points of all. The exact counter (`best_of`) decides that on
the space with those picks fixed. No clasp and no ground program is needed.

Not read here (the caller lists from a grounding, as before):
- a chooser that may pick several options at once;
- a shown chooser with an option whose atom the order does not rank;
- choosers whose atoms interleave in the order;
- a shape the counter does not count;
- a walk past WORK counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import clingo

from mtgkb.engine.classes import FORMS, Space, Unsupported, best_of, read_space
from mtgkb.engine.listing import Canonical

#: Counts of a space with some picks fixed that one walk may make, at most
#: (then the caller lists from a grounding). The first 5 declarations of the
#: batch benchmark's files (4 players x 8 creatures) took 12 on average and
#: 22 at most.
WORK = 400


def first_declarations(
    model: Sequence[clingo.Symbol],
    space_name: str,
    predicate: str,
    canonical: Canonical,
    listed: int,
) -> tuple[int, list[list[clingo.Symbol]]] | None:
    """(the number of declarations, the first `listed` of them in the
    canonical order, each as the atoms its model shows) from the counting
    query's `model`; None where this module does not read them (see its
    docstring)."""
    forms, beside, names = [], [], {}
    for symbol in model:
        if symbol.type != clingo.SymbolType.Function or symbol.name not in FORMS:
            beside.append(symbol)
            continue
        forms.append(symbol)
        arguments = symbol.arguments
        if symbol.name in ("decl_chooser", "decl_option") and len(arguments) == 3:
            for term in arguments[1:3] if symbol.name == "decl_option" else arguments[1:2]:
                names.setdefault(str(term), term)
    try:
        space = read_space(forms, space_name)
        # (without branches or alike choosers, the count is best_of's ways)
        points, total = best_of(space)
    except Unsupported:
        return None
    if total == 0 or listed <= 0:
        return total, []
    order = _picks_in_order(space, names, predicate, canonical)
    if order is None:
        return None
    walk = _Walk(space, points, order, listed)
    try:
        walk.from_chooser(0)
    except Unsupported:
        return None
    return total, [[*declaration, *beside] for declaration in walk.found]


def _picks_in_order(
    space: Space, names: dict, predicate: str, canonical: Canonical
) -> list[tuple[str, list[tuple[str | None, clingo.Symbol | None]]]] | None:
    """The shown choosers in the order's rank, each with its picks in the
    order of its bits: (option, the atom shown) with (None, None) for "none"
    first, unless it must pick. None where the order is not read so."""
    bits: list[tuple[tuple, str]] = []
    atoms: dict[tuple[str, str], clingo.Symbol] = {}
    ranks: dict[tuple[str, str], tuple] = {}
    for x, options in space.options.items():
        if x in space.hidden or not options:
            continue
        if len(options) > 1 and space.capacity.get(x, 1) > 1:
            return None  # (several options at once: its sets' order is not walked here)
        for y in options:
            if x not in names or y not in names:
                return None
            atom = clingo.Function(predicate, [names[x], names[y]])
            rank = canonical.rank(atom)
            if rank is None:
                return None
            atoms[(x, y)], ranks[(x, y)] = atom, rank
            bits.append((rank, x))
    bits.sort()
    choosers: list[str] = []
    for _, x in bits:
        if not choosers or choosers[-1] != x:
            if x in choosers:
                return None  # (its atoms interleave with another chooser's)
            choosers.append(x)
    out = []
    for x in choosers:
        ranked = sorted(space.options[x], key=lambda y: ranks[(x, y)])
        picks: list = [] if x in space.must_pick else [(None, None)]
        picks += [(y, atoms[(x, y)]) for y in reversed(ranked)]
        out.append((x, picks))
    return out


class _Walk:
    """The first `listed` declarations: the choosers' picks in order, each
    kept only when a declaration with the most points extends it."""

    def __init__(self, space: Space, points: int, order: list, listed: int) -> None:
        self.space, self.points, self.order, self.listed = space, points, order, listed
        self.fixed: dict[str, str | None] = {}
        self.shown: list[clingo.Symbol] = []
        self.found: list[list[clingo.Symbol]] = []
        self.work = 0

    def from_chooser(self, i: int) -> None:
        if i == len(self.order):
            self.found.append(list(self.shown))
            return
        x, picks = self.order[i]
        for y, atom in picks:
            self.fixed[x] = y
            if self._reaches_best():
                if atom is not None:
                    self.shown.append(atom)
                self.from_chooser(i + 1)
                if atom is not None:
                    self.shown.pop()
            if len(self.found) >= self.listed:
                break
        del self.fixed[x]

    def _reaches_best(self) -> bool:
        """Whether a declaration with the most points makes the picks fixed."""
        self.work += 1
        if self.work > WORK:
            raise Unsupported("too long a walk")
        options = dict(self.space.options)
        must = set(self.space.must_pick)
        for x, y in self.fixed.items():
            options[x] = [] if y is None else [y]
            if y is not None:
                must.add(x)
        points, ways = best_of(replace(self.space, options=options, must_pick=must))
        return ways > 0 and points == self.points
