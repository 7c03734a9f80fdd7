"""Exact counts of declarations from the generic forms the rules derive.

Nothing here knows a game rule. A query such as `queries/block_classes.lp`
derives, in one model, how the declarations of its enumerating twin
(`queries/blocks.lp`) are made: choosers (`decl_chooser(S,X,G)`: X chooses
in group G), each picking at most K (`decl_capacity`) of its options
(`decl_option`), and the constraints that span several choosers:

- `decl_min_takers(S,Y,G,N)`: the choosers of group G that pick Y are none,
  or N or more;
- `decl_max_takers(S,Y,N)`: at most N choosers pick Y (the positions of an
  order: one thing each);
- `decl_must_pick(S,X)`: X picks at least one of its options (with a
  capacity of 1, exactly one: a thing put in one position of an order);
- `decl_not_alone(S,X)`: when X picks something, two or more choosers of its
  group pick something;
- `decl_max_choosers(S,G,N)`: at most N choosers of group G pick something;
- `decl_reward_chooser(S,X)`, `decl_reward_option(S,Y)`: one point when X
  picks something, when some chooser picks Y; only the declarations with the
  most points count;
- `decl_branch(S,Y,B)`: option Y belongs to branch B, and a declaration
  picks options of one branch only (a choice made first, as the defending
  player of 506.2a: the declarations of each branch are counted, those with
  the most points over all of them kept, and a declaration of no branched
  option, one of every branch, counted once);
- `decl_hidden(S,X)`: X's picks are not shown, so declarations that differ
  only there are one (805.10d: a teammate's blocks). What is counted is the
  shown parts of the best declarations: a shown part counts once when some
  picks of the hidden choosers complete it into a declaration with the most
  points;
- `decl_alike(S,X,Y)`: X's and Y's picks look alike (swapping them gives
  the same declaration: two things alike put in an order). Counted where
  each of such choosers is the others' twin (the same options, group and
  constraints) and picks exactly one option that no other chooser may
  share: then the declarations that differ by who of them picks what are
  m! for m alike (swapping any of them changes the picks), and the count is
  the count of them apart divided by the product of those m!; else
  `Unsupported`;
- `decl_open(S)` (a choice that is not shown decides the options): a shape
  this counter does not count (`Unsupported`).

The number of declarations is counted with Python integers, without
enumerating them:

- Choosers are split into independent components (two choosers are in one
  when they may pick the same constrained option, or belong to a group with
  a constraint); the count is the product of the components' counts, and
  since points add up over components, the declarations with the most
  points are the combinations of each component's best ones.
- Choosers that share nothing with any other are grouped into classes (the
  same number of free options, capacity and points): a class of m counts
  as the m-th power of one of them.
- Within a component, options that the same choosers may pick and that
  carry the same constraint are one class: a dynamic program over the
  choosers, one at a time, keeps as its state how many options of each
  class have each number of takers so far (capped where the constraint no
  longer changes), how many choosers of each constrained group picked
  (capped) and whether a "not alone" chooser did; each state holds the
  most points reached and the number of ways to reach it (points are
  additive, so fewer points on the same state can never win later).
  Options no constraint names are free: a chooser picking i of its f free
  ones has C(f, i) ways. Choosers alike (the same kinds of options, the
  same number of free ones, capacity, group and constraints) are one class:
  the moves from a state are worked out once for the class. (So the orders
  of k things, each put in one of k positions that take one thing each,
  are a dynamic program of k + 1 states: k! without an order enumerated.)
- Hidden choosers come last in their component. The shown ones' states
  keep each state's most points and its number of shown parts, as above;
  then the most points the hidden choosers can still add from each state
  (a pass back over their steps, from the closing check) says which states'
  shown parts belong to a best declaration, each counted once. Hidden
  choosers that share nothing add nothing to the count (one way to complete
  them, when they have one).

A division (`queries/assignment_classes.lp`: a creature's combat damage
divided among its recipients) has forms of its own: `div_total(S,P)`, an
amount P divided among the parts `div_part(S,R)`, each getting 0 or more;
`div_zero(S,R)`, R gets nothing; `div_needs(S,R,Q,N)`, R gets more than 0
only if Q gets N or more. Its divisions are counted by which of the parts
that need something get more than 0 (at most MAX_GATED of them: a subset
each): those get at least 1, what they need gets at least that, the other
such parts nothing, and the rest is stars and bars, C(s + m - 1, m - 1) for
s left over m parts.

`Unsupported` is raised when the forms have a shape the counter does not
read, or the dynamic program grows past MAX_STATES states; the caller then
counts another way.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import field, replace
from functools import cache
from itertools import combinations
from math import comb, factorial

import clingo

from mtgkb.rulebase.records import record
from mtgkb.rulebase.symbol_texts import PLAIN_ARGUMENT, STRING

MAX_STATES = 200000  # states of one step of the dynamic program at most
MAX_GATED = 16  # parts of a division that need something, at most (2^16 subsets)


class Unsupported(Exception):
    """The derived forms have a shape this counter does not count."""


@record
class Space:
    """The declarations of one space (`blocks`, `attacks`), as derived."""

    # (each name is the text of its symbol)
    choosers: dict[str, str] = field(default_factory=dict)  # X -> its group
    options: dict[str, list[str]] = field(default_factory=dict)
    capacity: dict[str, int] = field(default_factory=dict)
    min_takers: dict[tuple[str, str], int] = field(default_factory=dict)
    max_takers: dict[str, int] = field(default_factory=dict)
    must_pick: set[str] = field(default_factory=set)
    not_alone: set[str] = field(default_factory=set)
    max_choosers: dict[str, int] = field(default_factory=dict)
    reward_chooser: set[str] = field(default_factory=set)
    reward_option: set[str] = field(default_factory=set)
    # option -> its branch: a declaration picks options of one branch only
    branch: dict[str, str] = field(default_factory=dict)
    # the choosers whose picks are not shown
    hidden: set[str] = field(default_factory=set)
    # pairs of choosers whose picks look alike
    alike: list[tuple[str, str]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)


#: An argument of a form: a string (with its escapes) or a plain term.
ARGUMENT = re.compile(PLAIN_ARGUMENT)
_FLAT = rf"(?>[a-z_]\w*\({PLAIN_ARGUMENT}(?:,{PLAIN_ARGUMENT})*\)|{PLAIN_ARGUMENT})"
#: The text clingo writes for a tuple of symbols each a string, a plain term,
#: or a function whose arguments are strings and plain terms (no term inside
#: an argument).
FLAT_TUPLE = re.compile(rf"\((?:{_FLAT}(?:,{_FLAT})*,?)?\)")
# a symbol whose arguments are such flat terms (a term inside an argument, at
# most), and the text of a tuple of such symbols
_DEEP = rf"(?>[a-z_]\w*\({_FLAT}(?:,{_FLAT})*\)|{PLAIN_ARGUMENT})"


@cache
def _deep_tuple() -> re.Pattern:
    """The text of a tuple of symbols each a flat term or a function of flat
    terms, compiled when first needed: 3.6 ms, which a cold run that reads
    no forms (a listing that ends by itself) is spared."""
    return re.compile(rf"\((?:{_DEEP}(?:,{_DEEP})*,?)?\)")


#: The forms of a space of declarations: the number of arguments each has
#: after its space, and the positions of its numbers.
FORMS: dict[str, tuple[int, frozenset[int]]] = {
    "decl_chooser": (2, frozenset()),
    "decl_option": (2, frozenset()),
    "decl_capacity": (2, frozenset({2})),
    "decl_hidden": (1, frozenset()),
    "decl_alike": (2, frozenset()),
    "decl_open": (0, frozenset()),
    "decl_min_takers": (3, frozenset({3})),
    "decl_max_takers": (2, frozenset({2})),
    "decl_must_pick": (1, frozenset()),
    "decl_not_alone": (1, frozenset()),
    "decl_max_choosers": (2, frozenset({2})),
    "decl_reward_chooser": (1, frozenset()),
    "decl_reward_option": (1, frozenset()),
    "decl_branch": (2, frozenset()),
}


def read_space(symbols: Iterable[clingo.Symbol], space: str) -> Space:
    """The forms of `space` among the shown `symbols`."""
    return _space(_forms(list(symbols), space))


def _rows(forms: list[tuple[str, str]], table: dict[str, tuple[int, frozenset[int]]]) -> dict:
    """Each form's arguments (its numbers as ints), by the form's name; the
    forms `table` (FORMS, DIVISION_FORMS) does not name are left out.
    Unsupported for a form whose arguments are not as many plain terms as
    it has (a term inside one, which the counter does not read)."""
    rows: dict[str, list[tuple]] = {}
    for name, rest in forms:
        if name not in table:
            continue
        arity, numbers = table[name]
        args = ARGUMENT.findall(rest)
        if len(args) != arity:
            raise Unsupported(f"{name} with arguments the counter does not read: {rest}")
        if numbers:
            args = [int(a) if i in numbers else a for i, a in enumerate(args, start=1)]
        rows.setdefault(name, []).append(tuple(args))
    return rows


def _space(forms: list[tuple[str, str]]) -> Space:
    found = Space()
    rows = _rows(forms, FORMS)
    for x, group in rows.get("decl_chooser", ()):
        found.choosers[x] = group
        found.options.setdefault(x, [])
    for x, y in rows.get("decl_option", ()):
        found.options.setdefault(x, []).append(y)
    for x, k in rows.get("decl_capacity", ()):
        found.capacity[x] = min(found.capacity.get(x, k), k)
    for y, group, n in rows.get("decl_min_takers", ()):
        key = (y, group)
        found.min_takers[key] = max(found.min_takers.get(key, 0), n)
    for y, n in rows.get("decl_max_takers", ()):
        found.max_takers[y] = min(found.max_takers.get(y, n), n)
    for (x,) in rows.get("decl_must_pick", ()):
        found.must_pick.add(x)
    for (x,) in rows.get("decl_not_alone", ()):
        found.not_alone.add(x)
    for group, n in rows.get("decl_max_choosers", ()):
        found.max_choosers[group] = min(found.max_choosers.get(group, n), n)
    for (x,) in rows.get("decl_reward_chooser", ()):
        found.reward_chooser.add(x)
    for (y,) in rows.get("decl_reward_option", ()):
        found.reward_option.add(y)
    for y, b in rows.get("decl_branch", ()):
        if found.branch.setdefault(y, b) != b:
            found.unsupported.append(f"{y} is in two branches")
    for (x,) in rows.get("decl_hidden", ()):
        found.hidden.add(x)
    for x, y in rows.get("decl_alike", ()):
        found.alike.append((x, y))
    for _ in rows.get("decl_open", ()):
        found.unsupported.append("a choice that is not shown decides the options")
    for x in found.options.keys() | found.must_pick:
        if x not in found.choosers:
            found.unsupported.append(f"{x} has options but is no chooser")
        found.options[x] = sorted(set(found.options[x]))
    return found


def _forms(symbols: list[clingo.Symbol], space: str) -> list[tuple[str, str]]:
    """Each function `name(space, A...)` among `symbols`: its name and the
    text of its arguments after `space` (the names stay as clingo writes
    them). Read from the text of one tuple of all the symbols, two calls
    into clingo, where the text of each symbol was one call per symbol (the
    6,925 forms of the 2 x 100 blocks: read_space 0.04 s -> 0.03 s CPU), also
    when some symbol has a term inside an argument (one level deep: the
    `cites/1` a listing query shows beside them); from each symbol's own text
    when some symbol is nested deeper."""
    text = str(clingo.Function("", symbols))
    # a form: its name and the text of its arguments after `space`
    named = rf"([a-z_]\w*)\({re.escape(space)}((?:,{PLAIN_ARGUMENT})*)\)"
    if FLAT_TUPLE.fullmatch(text):
        # (every symbol flat: a form starts after the tuple's "(" or a ","
        # outside strings, and strings are read whole, never inside)
        form = rf"{STRING}|(?<=[(,]){named}"
        return [(name, rest) for name, rest in re.findall(form, text) if name]
    if _deep_tuple().fullmatch(text):
        # (a term inside some argument, as `cites(rule("509.1a"))` beside the
        # forms: the symbols are read one after the other, each whole, from
        # the tuple's "(": a form is a whole symbol, never a term inside one)
        form = rf"(?<=[(,])(?:(?>{named})(?=[,)])|({_DEEP}))"
        found = re.findall(form, text)
        # (a form with a term inside an argument is read by neither: never
        # dropped in silence)
        unread = re.compile(rf"[a-z_]\w*\({re.escape(space)}[,)]")
        for _, _, deep in found:
            if deep and unread.match(deep) and deep.partition("(")[0] in FORMS | DIVISION_FORMS:
                raise Unsupported(f"a form with a term inside an argument: {deep}")
        return [(name, rest) for name, rest, _ in found if name]
    found = []
    head = f"({space},"
    for symbol in symbols:
        text = str(symbol)
        name, paren, rest = text.partition("(")
        if not paren:
            continue
        if text.startswith(head, len(name)):
            found.append((name, text[len(name) + len(head) - 1 : -1]))
        elif rest == f"{space})":
            found.append((name, ""))
    return found


def count_space(symbols: Iterable[clingo.Symbol], space: str, end: float | None = None) -> int:
    """The exact number of declarations of `space` (those with the most
    points) that the derived forms among `symbols` describe, or of its
    divisions where they are a division's. Raises Unsupported for a shape it
    does not count, TimeoutError past `end` (a time.monotonic() value)."""
    forms = _forms(list(symbols), space)
    if any(name in DIVISION_FORMS for name, _ in forms):
        return count_division(_division(forms))
    return count(_space(forms), end)


def count(space: Space, end: float | None = None) -> int:
    """The number of best declarations of `space` (see the module's docstring)."""
    if space.unsupported:
        raise Unsupported("; ".join(space.unsupported))
    if space.branch and space.hidden:
        raise Unsupported("hidden picks in a space of branches")
    if space.alike:
        return _apart(space, end)
    if not space.branch:
        return _best(space, end)[1]
    # one branch at a time: its options and the unbranched ones
    branches = sorted(set(space.branch.values()))
    found = [_best(_within(space, b), end) for b in branches]
    best = max(points for points, _ in found)
    total = sum(ways for points, ways in found if points == best)
    # the declarations of no branched option were counted in each best branch
    points, ways = _best(_within(space, None), end)
    if points == best:
        total -= (sum(1 for p, _ in found if p == best) - 1) * ways
    return total


def best_of(space: Space, end: float | None = None) -> tuple[int, int]:
    """The most points a declaration of `space` reaches and how many
    declarations reach them (see the module's docstring), for a space of no
    branches and no alike choosers (else Unsupported)."""
    if space.unsupported:
        raise Unsupported("; ".join(space.unsupported))
    if space.branch or space.alike:
        raise Unsupported("branches or alike choosers")
    return _best(space, end)


def _apart(space: Space, end: float | None) -> int:
    """The number of best declarations of `space` where alike choosers' picks
    look the same: those of the choosers told apart, divided by m! for each
    m alike (see the module's docstring)."""
    alike = list(dict.fromkeys(x for pair in space.alike for x in pair))
    divisor = 1
    for members in _connected(alike, space.alike):
        if not all(_each_picks_one_unshared(space, x) for x in members):
            raise Unsupported(f"the picks of {', '.join(sorted(members))} look alike")
        if len({_twin(space, x) for x in members}) != 1:
            raise Unsupported(f"{', '.join(sorted(members))} look alike but are not twins")
        divisor *= factorial(len(members))
    told_apart = count(replace(space, alike=[]), end)
    if told_apart % divisor:
        raise Unsupported("declarations of alike choosers that swapping does not pair off")
    return told_apart // divisor


def _connected(items: list, links: Iterable[Iterable]) -> list[list]:
    """`items` in the sets that `links` join (each link: items that belong
    together), each set in the order of `items`, the sets in the order of
    their first item."""
    parent = {x: x for x in items}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for link in links:
        first = None
        for x in link:
            root = find(x)
            if first is None:
                first = root
            elif root != first:
                parent[root] = first
    sets: dict = {}
    for x in items:
        sets.setdefault(find(x), []).append(x)
    return list(sets.values())


def _each_picks_one_unshared(space: Space, x: str) -> bool:
    """Whether chooser `x` picks exactly one option, and none that two
    choosers may share."""
    return (
        x in space.choosers
        and x in space.must_pick
        and space.capacity.get(x) == 1
        and x not in space.hidden
        and all(space.max_takers.get(y) == 1 for y in space.options[x])
    )


def _twin(space: Space, x: str) -> tuple:
    """What chooser `x` is to the count, its name aside."""
    return (
        tuple(space.options[x]),
        space.choosers[x],
        x in space.not_alone,
        x in space.reward_chooser,
    )


def _within(space: Space, branch: str | None) -> Space:
    """`space` with only the options of `branch` among the branched ones
    (None: none of them)."""
    options = {
        x: [y for y in ys if space.branch.get(y, branch) == branch]
        for x, ys in space.options.items()
    }
    return replace(space, options=options, branch={})


def _best(space: Space, end: float | None) -> tuple[int, int]:
    """The most points of a declaration of `space`, and how many declarations
    have them."""
    choosers = sorted(space.choosers)
    for x in choosers:
        if x not in space.capacity:
            raise Unsupported(f"{x} has no capacity")
    takers, need, most, constrained_groups = _constraints(space, choosers)

    # components: choosers that share a constrained option or a constrained group
    by_group: dict[str, list] = {}
    for x in choosers:
        by_group.setdefault(space.choosers[x], []).append(x)
    links = [takers[y] for y in need] + [by_group.get(g, []) for g in constrained_groups]
    total, best = 1, 0
    singles: dict[tuple, int] = {}  # the classes of choosers that share nothing: key -> members
    for members in _connected(choosers, links):
        if len(members) == 1:
            x = members[0]
            alone = not any(y in need for y in space.options[x])
            if alone and space.choosers[x] not in constrained_groups:
                key = (
                    len(space.options[x]),
                    space.capacity[x],
                    x in space.reward_chooser,
                    x in space.must_pick,
                    x in space.hidden,
                )
                singles[key] = singles.get(key, 0) + 1
                continue
        points, ways = _count_component(space, members, need, most, end)
        total, best = total * ways, best + points
        if total == 0:
            return 0, 0
    for (free, capacity, rewarded, must, hidden), m in singles.items():
        ways = [comb(free, i) for i in range(min(free, capacity) + 1)]
        # (a chooser that must pick: never none; one rewarded for picking
        # picks something in every best declaration, when it can)
        picks = rewarded and len(ways) > 1
        one = sum(ways[1:]) if must or picks else sum(ways)
        # (hidden picks show nothing: one way to complete the shown part, if any)
        if hidden:
            one = min(one, 1)
        total, best = total * one**m, best + (m if picks else 0)
    return best, total


def _constraints(space: Space, choosers: list[str]) -> tuple[dict, dict, dict, set]:
    """Of `choosers`: the choosers that may pick each option; the options a
    constraint names, each with the number of takers from which it holds
    (`need`); the most takers of an option fewer may pick than could
    (`most`); the groups with a constraint of their own."""
    takers: dict[str, list[str]] = {}
    for x in choosers:
        for y in space.options[x]:
            takers.setdefault(y, []).append(x)
    need: dict[str, int] = {}
    for (y, group), n in space.min_takers.items():
        mine = takers.get(y, [])
        if any(space.choosers[x] != group for x in mine):
            raise Unsupported(f"{y} is picked from several groups")
        if n > 1 and mine:
            need[y] = max(need.get(y, 0), n)
    for y in space.reward_option:
        if y in takers:
            need.setdefault(y, 1)
    # the options fewer may pick than could: their takers are counted too
    most: dict[str, int] = {}
    for y, n in space.max_takers.items():
        if len(takers.get(y, ())) > n:
            most[y] = n
            need.setdefault(y, 1)
    constrained_groups = {space.choosers[x] for x in space.not_alone} | set(space.max_choosers)
    return takers, need, most, constrained_groups


def unconstrained_options(space: Space) -> frozenset[str]:
    """The options of `space` that no constraint of several choosers names
    and that earn nothing (none of `_best`'s tracked options): a chooser
    picking one of them rather than another changes neither a declaration's
    points nor whether it holds. Fixing some choosers' picks keeps them so:
    it only takes takers away."""
    choosers = sorted(space.choosers)
    takers, need, _, _ = _constraints(space, choosers)
    return frozenset(y for y in takers if y not in need)


def _count_component(
    space: Space, members: list, need: dict, most: dict, end: float | None
) -> tuple[int, int]:
    """The most points of one component's declarations and how many have them
    (see the module's docstring: a dynamic program over its choosers). `need`: the takers from
    which a tracked option's constraint holds; `most`: the most takers a
    tracked option may have, where one is set."""
    # the choosers that may pick each constrained option (read from each
    # chooser's options once, not one scan of every chooser's per option)
    picked_by: dict[str, list] = {}
    for x in members:
        for y in space.options[x]:
            if y in need:
                picked_by.setdefault(y, []).append(x)
    tracked = sorted(picked_by)
    takers_of: dict[str, frozenset] = {y: frozenset(picked_by[y]) for y in tracked}
    # classes of options: the same takers, the same constraints, the same point
    kinds: dict[tuple, list] = {}
    for y in tracked:
        key = (takers_of[y], need[y], most.get(y), y in space.reward_option)
        kinds.setdefault(key, []).append(y)
    kind_list = sorted(kinds.items(), key=lambda item: sorted(item[1]))
    # levels 0..cap of takers: the last one "cap or more" where no most is
    # set, else exactly `most` (the constraint needing `need` or more holds
    # from there on either way)
    needs = [key[1] for key, _ in kind_list]
    limits = [key[2] for key, _ in kind_list]
    caps = [n if m is None else max(n, m) for n, m in zip(needs, limits, strict=True)]
    sizes = [len(ys) for _, ys in kind_list]
    rewarded = [key[3] for key, _ in kind_list]
    kinds_of_chooser = {
        x: [i for i, (key, _) in enumerate(kind_list) if x in key[0]] for x in members
    }
    groups = sorted({space.choosers[x] for x in members})
    group_index = {g: i for i, g in enumerate(groups)}
    group_cap = [max(2, space.max_choosers.get(g, 0) + 1) for g in groups]

    # a state: (histogram of each kind: takers per level, picked count per group,
    # groups where a "not alone" chooser picked)
    start_hist = tuple(tuple([size] + [0] * cap) for size, cap in zip(sizes, caps, strict=True))
    # (each state is numbered once: the steps look states up by number, where
    # hashing a state, a tuple of tuples, on every move was most of the work)
    number: dict[tuple, int] = {}
    table: list[tuple] = []

    def numbered(state: tuple) -> int:
        found = number.get(state)
        if found is None:
            found = number[state] = len(table)
            table.append(state)
        return found

    start = numbered((start_hist, (0,) * len(groups), frozenset()))
    # the moves from one state, for choosers alike: signature -> state -> moves
    memo: dict[tuple, dict[int, list]] = {}

    def signature_of(x) -> tuple:
        free = sum(1 for y in space.options[x] if y not in need)
        return (
            tuple(kinds_of_chooser[x]),
            space.capacity[x],
            free,
            group_index[space.choosers[x]],
            x in space.not_alone,
            1 if x in space.reward_chooser else 0,
            x in space.must_pick,
        )

    def moves_of(signature: tuple, state: int) -> list:
        alike = memo.setdefault(signature, {})
        moves = alike.get(state)
        if moves is None:
            moves = alike[state] = [
                (numbered(after), gain, many)
                for after, gain, many in _moves(table[state], signature, caps, limits, group_cap)
            ]
        return moves

    def step(states: dict[int, list[int]], signature: tuple) -> dict[int, list[int]]:
        """The states after one more chooser: each its most points and the
        number of ways to reach them."""
        if end is not None and time.monotonic() > end:
            raise TimeoutError()
        following: dict[int, list[int]] = {}
        alike = memo.setdefault(signature, {})
        for state, (points, ways) in states.items():
            moves = alike.get(state)
            if moves is None:
                moves = moves_of(signature, state)
            for after, gain, many in moves:
                reached = points + gain
                found = following.get(after)
                if found is None or reached > found[0]:
                    following[after] = [reached, ways * many]
                elif reached == found[0]:
                    found[1] += ways * many
        if len(following) > MAX_STATES:
            raise Unsupported("too many states in the count")
        return following

    def closing(state: int) -> int | None:
        """The points a declaration ending in `state` gains from its options
        taken, or None when it breaks a constraint of the group."""
        hist, picked, alone = table[state]
        points = 0
        for i, levels in enumerate(hist):
            if needs[i] > 1 and any(levels[level] for level in range(1, needs[i])):
                return None  # some option has takers, but fewer than it needs
            if rewarded[i]:
                points += sizes[i] - levels[0]
        for g, n in enumerate(picked):
            if g in alone and n < 2:
                return None
            limit = space.max_choosers.get(groups[g])
            if limit is not None and n > limit:
                return None
        return points

    # the shown choosers first, then the hidden ones (whose picks are not shown)
    shown = [x for x in members if x not in space.hidden]
    hidden = [x for x in members if x in space.hidden]
    states: dict[int, list[int]] = {start: [0, 1]}
    for x in shown:
        states = step(states, signature_of(x))
    # the most points the hidden choosers can still add from each state they
    # meet (a pass forward for the states, then one back over their steps)
    layers = []
    reached = states
    for x in hidden:
        signature = signature_of(x)
        layers.append((signature, list(reached)))
        reached = step(reached, signature)
    still = {s: gain for s in reached if (gain := closing(s)) is not None}
    for signature, layer in reversed(layers):
        earlier: dict[int, int] = {}
        for state in layer:
            gains = [
                gain + still[after]
                for after, gain, _ in moves_of(signature, state)
                if after in still
            ]
            if gains:
                earlier[state] = max(gains)
        still = earlier

    # each shown part counts once: the ways of its state, where the state's
    # most points can still reach the most of all
    best = None
    total = 0
    for state, (points, ways) in states.items():
        if state not in still:
            continue
        points += still[state]
        if best is None or points > best:
            best, total = points, ways
        elif points == best:
            total += ways
    return (0, 0) if best is None else (best, total)


def _moves(
    state: tuple, signature: tuple, caps: list[int], limits: list, group_cap: list[int]
) -> list:
    """Where one chooser (`signature`: the kinds of constrained options it may
    pick, its capacity, its number of free options, its group, whether it
    may not pick alone, its point for picking, whether it must pick) may take
    the dynamic program from `state`: (the state after, the points gained, in
    how many ways). `limits`: the most takers of each kind (None: any)."""
    hist, picked, alone = state
    kinds, capacity, free, g, lonely, point, must = signature
    # (a chooser picks at most `capacity`: the ways past it are never summed)
    free_ways = [comb(free, i) for i in range(min(free, capacity) + 1)]
    counts = list(picked)
    counts[g] = min(counts[g] + 1, group_cap[g])
    picking = (tuple(counts), alone | {g} if lonely else alone)
    moves: dict[tuple, int] = {} if must else {(state, 0): 1}  # picking nothing
    for new_hist, taken, tracked_ways in _picks(hist, list(kinds), caps, limits, capacity):
        room = capacity - taken
        if taken == 0:
            many = sum(free_ways[1 : room + 1])  # some free options only
        else:
            many = tracked_ways * sum(free_ways[: room + 1])
        if many:
            move = ((new_hist, *picking), point)
            moves[move] = moves.get(move, 0) + many
    return [(after, gain, many) for (after, gain), many in moves.items()]


def _picks(hist: tuple, kinds: list[int], caps: list[int], limits: list, capacity: int):
    """Every way one chooser may pick constrained options: (the histogram
    after, how many it picked, in how many ways), picking at most
    `capacity` among the kinds it may pick, never an option past its most
    takers (`limits`)."""
    results = [(hist, 0, 1)]
    for i in kinds:
        grown = []
        for current, taken, ways in results:
            levels = current[i]
            for new_levels, n, w in _level_picks(levels, caps[i], limits[i], capacity - taken):
                if n == 0:
                    grown.append((current, taken, ways))
                else:
                    changed = current[:i] + (new_levels,) + current[i + 1 :]
                    grown.append((changed, taken + n, ways * w))
        results = grown
        if len(results) > MAX_STATES:
            raise Unsupported("too many ways for one chooser to pick")
    return results


def _level_picks(levels: tuple, cap: int, most: int | None, room: int):
    """The ways to pick up to `room` options of one kind, given how many of
    them have 0..cap takers: (levels after, how many picked, ways). An option
    `most` choosers took already is not picked again (None: no such bound)."""
    out = [(levels, 0, 1)]
    if room <= 0:
        return out
    for level in range(len(levels) if most is None else min(len(levels), most)):
        grown = []
        for current, n, ways in out:
            have = levels[level]
            for a in range(1, min(have, room - n) + 1):
                new = list(current)
                new[level] -= a
                up = min(level + 1, cap)
                new[up] += a
                grown.append((tuple(new), n + a, ways * comb(have, a)))
        out += grown
    return out


# --------------------------------------------------------------------------
# Divisions: an amount divided among parts


@record
class Division:
    """An amount divided among parts, as derived (`div_*` forms)."""

    totals: list[int] = field(default_factory=list)
    parts: set[str] = field(default_factory=set)
    zero: set[str] = field(default_factory=set)
    # R -> [(Q, N)]: R gets more than 0 only if Q gets N or more
    needs: dict[str, list[tuple[str, int]]] = field(default_factory=dict)


#: The forms of a division, as FORMS has them.
DIVISION_FORMS: dict[str, tuple[int, frozenset[int]]] = {
    "div_total": (1, frozenset({1})),
    "div_part": (1, frozenset()),
    "div_zero": (1, frozenset()),
    "div_needs": (3, frozenset({3})),
}


def _division(forms: list[tuple[str, str]]) -> Division:
    rows = _rows(forms, DIVISION_FORMS)
    found = Division()
    found.totals = sorted({p for (p,) in rows.get("div_total", ())})
    found.parts = {r for (r,) in rows.get("div_part", ())}
    found.zero = {r for (r,) in rows.get("div_zero", ())}
    for r, q, n in rows.get("div_needs", ()):
        found.needs.setdefault(r, []).append((q, n))
    return found


def count_division(division: Division) -> int:
    """The number of ways to divide the total among the parts (see the
    module's docstring)."""
    parts = sorted(division.parts)
    if not parts:
        return 1  # (nothing to divide it among: one way, nothing given)
    if len(division.totals) != 1:
        raise Unsupported(f"a division of {len(division.totals)} amounts")
    (total,) = division.totals
    if total < 0:
        return 0
    gated = sorted(r for r in parts if r in division.needs)
    if len(gated) > MAX_GATED:
        raise Unsupported("too many parts that need something")
    ways = 0
    for size in range(len(gated) + 1):
        for positive in combinations(gated, size):
            ways += _divisions_with(division, parts, set(gated) - set(positive), positive, total)
    return ways


def _divisions_with(
    division: Division, parts: list[str], nothing: set[str], positive: tuple, total: int
) -> int:
    """The divisions where the parts `positive` get more than 0 and those of
    `nothing` (and div_zero's) get 0."""
    nothing = nothing | (division.zero & set(parts))
    least = dict.fromkeys(parts, 0)
    for r in positive:
        if r in nothing:
            return 0
        least[r] = max(least[r], 1)
        for q, n in division.needs[r]:
            if q not in least or q in nothing:
                if n > 0:
                    return 0
                continue
            least[q] = max(least[q], n)
    given = [r for r in parts if r not in nothing]
    left = total - sum(least[r] for r in given)
    if not given:
        return 1 if total == 0 else 0
    if left < 0:
        return 0
    return comb(left + len(given) - 1, len(given) - 1)
