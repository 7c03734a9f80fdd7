"""The first declarations of a listing in its canonical order, read from the
model of its counting query (the generic forms of mtgkb.engine.classes),
without a grounding of the listing's own.

A batch solves each file's counting query in the chunk's grounding
(mtgkb.engine.scenarios.solve_many); a file alone solves it on its own
(mtgkb.questions.answers). That model describes the declarations
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
A declaration with the most points proves every pick it makes: the first
pick tried at a chooser is checked on the declaration that makes it and the
first picks of all the later choosers (all shown picks fixed: a count in
one pass), and when that one has the most points, the later first picks
need no count of their own (`_Walk.proven`). And an option no constraint
names and that earns nothing (`classes.unconstrained_options`) is as good
as another such: a chooser's first pick of one decides for its others, with
no count of their own.

Not read here (the caller lists from a grounding, as before):
- a chooser that may pick several options at once;
- a shown chooser with an option whose atom the order does not rank;
- choosers whose atoms interleave in the order;
- a shape the counter does not count;
- a walk past WORK counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

import clingo

from mtgkb.engine.classes import (
    FORMS,
    Space,
    Unsupported,
    best_of,
    read_space,
    unconstrained_options,
)
from mtgkb.engine.listing import Canonical

#: Counts of a space with some picks fixed that one walk may make, at most
#: (then the caller lists from a grounding). The first 5 declarations of the
#: batch benchmark's files (4 players x 8 creatures) take 4.4 on average and
#: 17 at most (5.6 before a pick of an unconstrained option was decided by
#: the chooser's first such pick; 12 and 22 before a first pick was proven
#: by a whole declaration); the first 100 of the 2 x 100 count, 14 (110).
WORK = 400


def first_declarations(
    model: Sequence[clingo.Symbol],
    space_name: str,
    predicate: str,
    canonical: Canonical,
    listed: int,
    end: float | None = None,
) -> tuple[int, list[list[clingo.Symbol]]] | None:
    """(the number of declarations, the first `listed` of them in the
    canonical order, each as the atoms its model shows) from the counting
    query's `model`; None where this module does not read them (see its
    docstring). TimeoutError past `end` (a time.monotonic() value)."""
    forms, beside = [], []
    for symbol in model:
        # (the name alone, one call into clingo: a symbol that is no function
        # has none, and its type was a second call for each of thousands)
        try:
            is_form = symbol.name in FORMS
        except RuntimeError:
            is_form = False
        (forms if is_form else beside).append(symbol)
    names = _Names(forms, canonical)
    try:
        space = read_space(forms, space_name)
        # (without branches or alike choosers, the count is best_of's ways)
        points, total = best_of(space, end)
    except Unsupported:
        return None
    if total == 0 or listed <= 0:
        return total, []
    order = _picks_in_order(space, names, predicate, canonical)
    if order is None:
        return None
    walk = _Walk(space, points, order, listed, lambda x, y: _atom(predicate, names, x, y), end)
    try:
        walk.from_chooser(0)
    except Unsupported:
        return None
    return total, [[*declaration, *beside] for declaration in walk.found]


def _picks_in_order(
    space: Space, names: _Names, predicate: str, canonical: Canonical
) -> list[tuple[str, list[str | None]]] | None:
    """The shown choosers in the order's rank, each with its picks in the
    order of its bits: None ("none") first, unless it must pick, then its
    options. None where the order is not read so."""
    ranks: dict[tuple[str, str], tuple] = {}
    spans: list[tuple[tuple, tuple, str]] = []  # each chooser's first and last rank
    by_text = canonical.by_text.get((predicate, 2))
    for x, options in space.options.items():
        if x in space.hidden or not options:
            continue
        if len(options) > 1 and space.capacity.get(x, 1) > 1:
            return None  # (several options at once: its sets' order is not walked here)
        if x not in names:
            return None
        mine = []
        for y in options:
            if y not in names:
                return None
            rank = _rank(canonical, by_text, predicate, names, x, y)
            if rank is None:
                return None
            ranks[(x, y)] = rank
            mine.append(rank)
        spans.append((min(mine), max(mine), x))
    spans.sort()
    for (_, last, _), (first, _, _) in itertools.pairwise(spans):
        if last >= first:
            return None  # (its atoms interleave with another chooser's)
    out = []
    for _, _, x in spans:
        ranked = sorted(space.options[x], key=lambda y: ranks[(x, y)])
        picks: list[str | None] = [] if x in space.must_pick else [None]
        picks += reversed(ranked)
        out.append((x, picks))
    return out


class _Names:
    """The symbol of each chooser and option of the forms by its text (the
    space names them by the texts clingo writes): through the canonical
    order where it knows the name, else read from the forms, once."""

    def __init__(self, forms: list[clingo.Symbol], canonical: Canonical) -> None:
        self.forms, self.known = forms, canonical.term_of_text
        self.read: dict[str, clingo.Symbol] | None = None
        self.seen: dict[str, clingo.Symbol | None] = {}

    def __contains__(self, text: str) -> bool:
        return self.get(text) is not None

    def __getitem__(self, text: str) -> clingo.Symbol:
        found = self.get(text)
        if found is None:
            raise KeyError(text)
        return found

    def get(self, text: str) -> clingo.Symbol | None:
        if text not in self.seen:
            self.seen[text] = self._find(text)
        return self.seen[text]

    def _find(self, text: str) -> clingo.Symbol | None:
        if self.known is not None:
            try:
                return self.known(text)
            except LookupError:
                pass
        if self.read is None:
            self.read = {}
            for symbol in self.forms:
                arguments = symbol.arguments
                if symbol.name in ("decl_chooser", "decl_option") and len(arguments) == 3:
                    terms = arguments[1:3] if symbol.name == "decl_option" else arguments[1:2]
                    for term in terms:
                        self.read.setdefault(str(term), term)
        return self.read.get(text)


def _atom(predicate: str, names: _Names, x: str, y: str) -> clingo.Symbol:
    """The atom shown for chooser `x` picking option `y`."""
    return clingo.Function(predicate, [names[x], names[y]])


def _rank(canonical: Canonical, by_text, predicate: str, names: _Names, x: str, y: str):
    """The rank of `predicate(x, y)`, from the texts of its arguments where
    the order reads them (the space names each term by its text), else from
    its symbol."""
    if by_text is not None:
        try:
            return by_text((x, y))
        except LookupError:
            pass
    return canonical.rank(_atom(predicate, names, x, y))


class _Walk:
    """The first `listed` declarations: the choosers' picks in order, each
    kept only when a declaration with the most points extends it.

    A declaration with the most points proves every pick it makes: the
    first one tried at each chooser is checked on the declaration that
    makes it and the first picks of all the choosers after it (a count of a
    space whose shown picks are all fixed, a pass over the choosers); when
    that one has the most points, the first picks after it are kept with no
    count of their own (`proven`: the chooser from which that declaration
    holds). Else the count with only the picks so far fixed decides."""

    def __init__(
        self, space: Space, points: int, order: list, listed: int, atom_of, end: float | None
    ) -> None:
        self.space, self.points, self.order, self.listed = space, points, order, listed
        self.atom_of = atom_of  # (chooser, option) -> the atom shown
        self.end = end
        self.fixed: dict[str, str | None] = {}
        self.shown: list[clingo.Symbol] = []
        self.found: list[list[clingo.Symbol]] = []
        self.work = 0
        self.proven: int | None = None
        self.unconstrained = unconstrained_options(space)

    def from_chooser(self, i: int) -> None:
        if i == len(self.order):
            self.found.append(list(self.shown))
            return
        x, picks = self.order[i]
        alike = None  # (kept, proven) at x's first pick of an unconstrained option
        for k, y in enumerate(picks):
            self.fixed[x] = y
            if k > 0:
                self.proven = None  # (the declaration that proved the first picks has another here)
            unconstrained = y is not None and y in self.unconstrained
            if unconstrained and alike is not None:
                # (as good as x's first such pick: a declaration that proved
                # that one, with this pick instead, proves this one)
                kept, proven = alike
                self.proven = None if proven is None else i
            else:
                kept = self._kept(i, first=k == 0)
                if unconstrained:
                    alike = (kept, self.proven)
            if kept:
                if y is not None:
                    self.shown.append(self.atom_of(x, y))
                self.from_chooser(i + 1)
                if y is not None:
                    self.shown.pop()
            if len(self.found) >= self.listed:
                break
        del self.fixed[x]

    def _kept(self, i: int, first: bool) -> bool:
        """Whether the picks fixed so far (the last one at chooser `i`) are
        made by a declaration with the most points."""
        if first and self.proven is not None and self.proven < i:
            return True
        later = {x: picks[0] for x, picks in self.order[i + 1 :]}
        if self._reaches_best({**self.fixed, **later}):
            self.proven = i
            return True
        self.proven = None
        return bool(later) and self._reaches_best(self.fixed)

    def _reaches_best(self, fixed: dict[str, str | None]) -> bool:
        """Whether a declaration with the most points makes the picks `fixed`."""
        self.work += 1
        if self.work > WORK:
            raise Unsupported("too long a walk")
        options = dict(self.space.options)
        must = set(self.space.must_pick)
        for x, y in fixed.items():
            options[x] = [] if y is None else [y]
            if y is not None:
                must.add(x)
        points, ways = best_of(replace(self.space, options=options, must_pick=must), self.end)
        return ways > 0 and points == self.points
