"""Canonical listings: the order in which an answer lists the models of a query.

An answer that lists declarations or orders (`ask attacks`, `ask blocks`,
`ask order`, `ask stack`, ...) lists the first N of its models in one order,
whatever clingo's version, the batch the file is answered in, `--jobs` or
the server: the order is a property of the models, never of the search.

The order (`Canonical`) ranks the atoms that make a listing (say
`blocks(B,A)`): each atom gets a rank (a tuple; the caller derives it from
the file's order of names, mtgkb.questions.listing_order), and a model is
the vector, over the ranked atoms in rank order, of whether it differs from
the preferred value there (`prefer_present`: having the atom, else lacking
it). Models are listed in the lexicographic order of those vectors: the
model that takes the preferred value at the first atom where two models
differ comes first. Models with the same vector (they differ only in atoms
nothing ranks) are listed together, by their shown atoms as text.

How the first N are found (`first_models`), exactly, without enumerating
every model:

- When every model has been seen (the count is at most the listing), they
  are sorted (`sort_models`).
- Otherwise N models are enumerated under Domain heuristics that decide
  the ranked atoms first, in rank order, each to its preferred value
  (`_prefer`): clasp then tends to find them in the order, but the listing
  never trusts that (`_enumerated`). It proves them the first N by counting:
  the models before the last one's vector L are, for each position p where
  L takes the other value, those agreeing with L before p and taking the
  preferred value at p; if clasp counts no more models under each of those
  prefixes (as assumptions) than the N hold, every model before L is among
  them, and the models with L's vector itself are enumerated whole. The N
  plus those, sorted, start the listing. (About N models enumerated and one
  solve per non-preferred value of L, where the walk below read thousands
  of models for 100 blocks; any other clasp order only costs the walk.)
  This is tried first with clasp's projection off, on answer sets (each
  model read by its shown atoms), which is proven only when no two answer
  sets read show the same atoms and the counts, of answer sets, match; else
  it is done again projected.
- When that count finds a model the N missed, the listing walks the order
  with clingo assumptions only (the ground program is never changed: the
  groundings are shared by other questions and observed for counting;
  heuristics only guide the search): the least model is found greedily
  (fix the preferred value at the first atom where a witness model differs,
  if some model allows it, else the other one), then the next ones by
  prefixes. The models sharing the first k values of the last listed model
  are a contiguous stretch of the order, so enumerating that stretch and
  sorting it gives the models that follow, in order; k is lowered (the
  stretch widened) until the stretch holds a later model. A stretch too
  large for the budget is split by the positions it leaves free, the last
  first. Solves with a `#minimize`/`#maximize` are bounded by the optimum
  (clasp's `enum,<bound>` mode), so only optimal models are listed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import field

import clingo

from mtgkb.engine.programs import solve_within
from mtgkb.rulebase.records import record
from mtgkb.rulebase.symbol_texts import argument_texts

Rank = Callable[[clingo.Symbol], tuple | None]
#: A rank from the texts clingo writes for an atom's arguments; LookupError
#: for a text it does not know (the atom is then ranked from its symbol).
TextRank = Callable[[tuple[str, ...]], tuple | None]


@record(frozen=True)
class Canonical:
    """The order of a listing: a rank for each atom of the predicates named
    (name, arity) -> rank function (None: the atom takes no part), and
    which value of an atom comes first. `by_text`: for some of them, the
    same rank read from the texts of the atom's arguments (`rank_all`)."""

    ranks: Mapping[tuple[str, int], Rank]
    prefer_present: bool = False
    by_text: Mapping[tuple[str, int], TextRank] = field(default_factory=dict)
    #: the symbol of a name the order knows from the text clingo writes for
    #: it (LookupError for any other text; None: no name is known so)
    term_of_text: Callable[[str], clingo.Symbol] | None = None

    def rank(self, symbol: clingo.Symbol) -> tuple | None:
        if symbol.type != clingo.SymbolType.Function:
            return None
        ranked = self.ranks.get((symbol.name, len(symbol.arguments)))
        return None if ranked is None else ranked(symbol)

    def rank_all(self, name: str, arity: int, symbols: list[clingo.Symbol]) -> list[tuple | None]:
        """The rank of each of `symbols`, atoms `name/arity` of a ranked
        predicate. With a `by_text` rank, read from the texts of all their
        arguments at once (`argument_texts`): a listing ranks thousands of
        atoms, and reading an atom's arguments one by one, and looking each
        up by its symbol, is several calls into clingo an atom (the 6,746
        blocks of the 2 x 100 creatures: measured 0.06 s)."""
        ranked = self.ranks[(name, arity)]
        by_text = self.by_text.get((name, arity))
        texts = argument_texts(symbols, name, arity) if by_text is not None else None
        if texts is None:
            return [ranked(symbol) for symbol in symbols]
        out: list[tuple | None] = []
        for symbol, args in zip(symbols, texts, strict=True):
            try:
                out.append(by_text(args))
            except LookupError:
                out.append(ranked(symbol))
        return out


def sort_models(
    models: Sequence[Sequence[clingo.Symbol]], canonical: Canonical
) -> list[Sequence[clingo.Symbol]]:
    """The models in the canonical order."""
    ranked = [sorted(r for s in model if (r := canonical.rank(s)) is not None) for model in models]
    places = {r: i for i, r in enumerate(sorted({r for rs in ranked for r in rs}))}
    end = len(places)

    def key(i: int) -> tuple:
        positions = [places[r] for r in ranked[i]]
        if canonical.prefer_present:
            # at the first rank only one of two models has, the one having it first
            vector = (*positions, end)
        else:
            # at the first rank only one of two models has, the one lacking it first
            vector = tuple(-p for p in positions)
        return vector, sorted(str(s) for s in models[i])

    return [models[i] for i in sorted(range(len(models)), key=key)]


class _Timeout(Exception):
    pass


class OrderedSearch:
    """The first models of `ctl` in the canonical order, by solves under
    assumptions (the externals already assigned stay as they are)."""

    def __init__(
        self,
        ctl: clingo.Control,
        canonical: Canonical,
        *,
        end: float | None = None,
        stop: type[BaseException] = _Timeout,
    ):
        self.ctl, self.canonical, self.end, self.stop = ctl, canonical, end, stop
        universe: dict[tuple, int] = {}
        for name, arity in canonical.ranks:
            # only the ranked predicates' atoms (not the whole ground program;
            # each a function of that name and arity: ranked directly); each
            # read of an atom is a call into clingo, so an atom nothing ranks
            # is read no further than its symbol
            for positive in (True, False):
                atoms = list(ctl.symbolic_atoms.by_signature(name, arity, positive))
                ranks = canonical.rank_all(name, arity, [atom.symbol for atom in atoms])
                for atom, rank in zip(atoms, ranks, strict=True):
                    if rank is None or rank in universe:
                        continue
                    if atom.is_fact:
                        continue  # (the same in every model: it orders nothing)
                    universe[rank] = atom.literal
        ranks = sorted(universe)
        self.place = {rank: i for i, rank in enumerate(ranks)}
        atoms = [universe[rank] for rank in ranks]
        # bit i: a model differs from the preferred value at the atom of rank i
        self.bits = [-a for a in atoms] if canonical.prefer_present else atoms
        self._prefer(atoms, canonical.prefer_present)
        self._all = set(range(len(self.bits)))
        self._seen: dict = {}
        self.solves = 0
        self.every = False  # (whether `first` saw every model)

    def _prefer(self, atoms: list[int], present: bool) -> None:
        """Domain heuristics that make clasp decide the ranked atoms first, in
        rank order, each to its preferred value: a solve's first model is then
        the least in the order, or close to it (`_least` still proves it
        least, with one solve per bit it takes the other value at). They
        guide the search only while `_domain` selects the Domain heuristic
        (measured: they make the walk to the least model one solve where it
        took a hundred, and enumerating a stretch slower, so only `_least`
        and `_enumerated` use them); the models are the same with or
        without them. (One `true`/`false` modifier per atom: a level and a
        sign at once, one call into clingo where a `level` and a `sign` took
        two.)"""
        types = clingo.backend.HeuristicType
        both = types.True_ if present else types.False_
        n = len(atoms)
        with self.ctl.backend() as backend:
            add = backend.add_heuristic
            for i, atom in enumerate(atoms):
                add(atom, both, n - i, 1, [])

    # -- solving

    def _solve(self, assumptions: list[int], models: int) -> tuple[list, bool]:
        """Up to `models` models (0: all) under `assumptions`, each as
        (shown atoms, sort key, positions of its bits), and whether that is
        all of them."""
        self.ctl.configuration.solve.models = str(models)
        found: list = []
        left = None if self.end is None else max(0.0, self.end - time.monotonic())
        self.solves += 1
        outcome = solve_within(
            self.ctl,
            left,
            self.stop,
            on_model=lambda m: found.append(self._read(m.symbols(shown=True))),
            assumptions=assumptions,
        )
        return found, bool(outcome.exhausted)

    def _read(self, symbols: list[clingo.Symbol]) -> tuple:
        read = self._symbol
        seen = [read(s) for s in symbols]
        present = {p for p, _ in seen if p is not None}
        if self.canonical.prefer_present:
            ones = sorted(self._all - present)
        else:
            ones = sorted(present)
        # the lexicographic order of the bit vectors: at the first position
        # where they differ, the vector without the bit first
        key = (tuple(-p for p in ones), sorted(text for _, text in seen))
        return symbols, key, ones

    def _symbol(self, symbol: clingo.Symbol) -> tuple[int | None, str]:
        """A shown atom's place in the order (None: unranked) and text, read
        from clingo once (clingo interns symbols: the handle names it)."""
        handle = getattr(symbol, "_rep", symbol)
        found = self._seen.get(handle)
        if found is None:
            rank = self.canonical.rank(symbol)
            found = self._seen[handle] = (self.place.get(rank), str(symbol))
        return found

    def _dense(self, ones: Iterable[int], length: int) -> list[int]:
        vector = [0] * length
        for p in ones:
            if p < length:
                vector[p] = 1
        return vector

    def _assume(self, prefix: Sequence[int]) -> list[int]:
        return [b if v else -b for b, v in zip(self.bits, prefix, strict=False)]

    @contextmanager
    def _domain(self, enum_mode: str | None = None) -> Iterator[None]:
        """Solves under the order's Domain heuristics (`_prefer`), and
        `enum_mode` if one is given; the configuration restored after."""
        solvers = self.ctl.configuration.solver
        solve = self.ctl.configuration.solve
        kept = [solvers[i].heuristic for i in range(len(solvers))]
        mode = solve.enum_mode
        try:
            for i in range(len(solvers)):
                solvers[i].heuristic = "Domain"
            if enum_mode is not None:
                solve.enum_mode = enum_mode
            yield
        finally:
            solve.enum_mode = mode
            for i, heuristic in enumerate(kept):
                solvers[i].heuristic = heuristic

    @contextmanager
    def _projection(self, projected: bool) -> Iterator[None]:
        """Solves of the shown atoms (`projected`, as the grounding says) or
        of answer sets (clasp's projection off); restored after."""
        solve = self.ctl.configuration.solve
        project = solve.project
        try:
            if not projected:
                solve.project = "no"
            yield
        finally:
            solve.project = project

    def _least(self, prefix: list[int]) -> list[int] | None:
        """The least bit vector of a model whose vector starts with `prefix`."""
        with self._domain():
            return self._least_walk(prefix)

    def _least_walk(self, prefix: list[int]) -> list[int] | None:
        n = len(self.bits)
        found, _ = self._solve(self._assume(prefix), 1)
        if not found:
            return None
        witness = self._dense(found[0][2], n)
        at = len(prefix)
        while True:
            # the witness takes the preferred value up to its next difference
            while at < n and witness[at] == 0:
                at += 1
            if at == n:
                return witness
            found, _ = self._solve(self._assume([*witness[:at], 0]), 1)
            if found:
                witness = self._dense(found[0][2], n)
            at += 1

    def _fits(self, prefix: Sequence[int], budget: int) -> bool:
        """Whether at most `budget` models start with `prefix` (counted by
        clasp alone, no model read into Python)."""
        self.ctl.configuration.solve.models = str(budget + 1)
        left = None if self.end is None else max(0.0, self.end - time.monotonic())
        self.solves += 1
        outcome = solve_within(self.ctl, left, self.stop, assumptions=self._assume(prefix))
        models = self.ctl.statistics["summary"]["models"]["enumerated"]
        return bool(outcome.exhausted) and models <= budget

    def _stretch(self, prefix: Sequence[int], budget: int) -> list | None:
        """Every model whose vector starts with `prefix`, sorted; None past `budget`."""
        if not self._fits(prefix, budget):
            return None
        found, exhausted = self._solve(self._assume(prefix), budget + 1)
        if not exhausted or len(found) > budget:
            return None
        return sorted(found, key=lambda f: f[1])

    # -- the walk

    def first(self, count: int, budget: int) -> list[list[clingo.Symbol]]:
        """The first `count` models in the canonical order."""
        if count <= 0:
            return []
        proven = self._enumerated(count, budget, projected=False)
        if proven is None:
            proven = self._enumerated(count, budget)
        if proven is not None:
            return [symbols for symbols, _, _ in proven[:count]]
        return self._walk(count, budget)

    def _enumerated(self, count: int, budget: int, projected: bool = True) -> list | None:
        """The first `count` models, sorted, from one enumeration under the
        order's heuristics, if counting proves no model before the last of
        them was missed (None: not proven).

        Unprojected (`projected` false), clasp enumerates and counts answer
        sets, where a model is their shown atoms: measured on the 2 x 100
        blocks, clasp's projection redid every decision of the heuristics
        after each model (6,700 choices a model, where without it one or
        two), 100 models 0.09 s -> 0.05 s. It proves the same listing only
        while each answer set shows atoms no other shows: none of those
        enumerated repeats another's, and the counts prove each region
        before the last holds no answer set beside them (an answer set more,
        even one showing the same atoms, fails the proof: the caller then
        enumerates projected)."""
        # clasp's enumeration modes, measured: recording each model found
        # costs less per model while they are few (100 of the 2 x 100 blocks:
        # 0.07 s, backtracking 0.5 s) and more as the records pile up (30,000
        # orders of nine triggers: 4 s, backtracking 1.1 s); unprojected,
        # backtracking costs no more than recording (0.05 s, 0.06 s)
        mode = "record" if projected and count <= budget else "bt"
        with self._projection(projected):
            return self._proven(count, budget, mode, projected)

    def _proven(self, count: int, budget: int, mode: str, projected: bool) -> list | None:
        with self._domain(mode):
            found, exhausted = self._solve([], count)
        found.sort(key=lambda f: f[1])
        if not projected and _repeats(found):
            return None
        if exhausted or not found:
            self.every = exhausted
            return found  # (every model)
        last = set(found[-1][2])
        at: dict[int | None, int] = {}  # first difference from the last -> models
        for _, _, ones in found:
            differ = last.symmetric_difference(ones)
            first = min(differ) if differ else None
            at[first] = at.get(first, 0) + 1
        dense = self._dense(last, len(self.bits))
        # the models before the last's vector: at each of its bits, those
        # agreeing with it before the bit and lacking it there (counted
        # under the heuristics, backtracking: measured the fastest, 2 x 100
        # blocks 0.08 s -> 0.04 s; the count is the same in any mode)
        with self._domain("bt"):
            for p in sorted(last):
                if not self._fits([*dense[:p], 0], at.pop(p, 0)):
                    return None
        if at.keys() - {None}:
            return None
        # the models with the last's vector, every one of them (text order)
        same, exhausted = self._solve(self._assume(dense), budget + 1)
        if not exhausted or len(same) > budget:
            return None
        rest = [f for f in found if set(f[2]) != last]
        listed = sorted(rest + same, key=lambda f: f[1])
        if not projected and _repeats(listed):
            return None
        return listed

    def _walk(self, count: int, budget: int) -> list[list[clingo.Symbol]]:
        """The first `count` models, by stretches of the order."""
        n = len(self.bits)
        least = self._least([])
        if least is None:
            return []
        out: list = list(self._stretch(least, max(budget, count)) or [])
        while out and len(out) < count:
            wide = max(budget, 2 * (count - len(out)))
            last = out[-1]
            dense = self._dense(last[2], n)
            later: list = []
            need = count - len(out)
            step, k, tried = 1, n, n
            while k > 0:
                k = max(0, n - step)
                step *= 2
                # once some later models are found, a wider stretch (a
                # contiguous run of the order too) only while it stays small
                stretch = self._stretch(dense[:k], wide if not later else 4 * need)
                if stretch is None:
                    break  # too many: look between k and what was tried
                found = [f for f in stretch if f[1] > last[1]]
                if found:
                    later = found
                    if len(later) >= need:
                        break
                else:
                    tried = k
            if not later:
                later = self._split(dense, k, tried, wide)
            if not later:
                break
            out.extend(later)
        return [symbols for symbols, _, _ in out[:count]]

    def _split(self, last: list[int], low: int, high: int, budget: int) -> list:
        """The first models after `last` whose vectors first differ from it
        at a position in [low, high) (they agree with it from `high` on
        otherwise): the stretch after the latest such position."""
        for at in range(high - 1, low - 1, -1):
            if last[at]:
                continue
            least = self._least([*last[:at], 1])
            if least is None:
                continue
            # the widest stretch of `least` within the budget (every model in
            # it is at least `least`, the first after `last`)
            low, high = at + 1, len(least)
            while low < high:
                middle = (low + high) // 2
                if self._fits(least[:middle], budget):
                    high = middle
                else:
                    low = middle + 1
            return self._stretch(least[:low], budget) or []
        return []


def _repeats(found: list) -> bool:
    """Whether two of the sorted models read by `OrderedSearch._solve` show
    the same atoms."""
    return any(a[1] == b[1] for a, b in zip(found, found[1:], strict=False))


def first_models(
    ctl: clingo.Control,
    canonical: Canonical,
    count: int,
    *,
    end: float | None = None,
    stop: type[BaseException] = _Timeout,
    budget: int = 4096,
) -> list[list[clingo.Symbol]]:
    """The first `count` (optimal) models of `ctl` in the canonical order,
    with the externals as assigned; the solve configuration is restored."""
    with _solve_configuration_kept(ctl):
        bound = _optimum(ctl, end, stop)
        if bound is not None:
            ctl.configuration.solve.opt_mode = "enum," + ",".join(str(c) for c in bound)
        search = OrderedSearch(ctl, canonical, end=end, stop=stop)
        return search.first(count, budget)


def first_or_every(
    ctl: clingo.Control,
    canonical: Canonical,
    count: int,
    *,
    end: float | None = None,
    stop: type[BaseException] = _Timeout,
    budget: int = 4096,
) -> tuple[list[list[clingo.Symbol]], bool] | None:
    """The first `count` models of `ctl` in the canonical order and whether
    they are all its models (its enumeration ended: every model seen), for a
    program that optimises nothing (None: it optimises, see `first_models`);
    `count` > 0. One enumeration then both lists and tells whether the
    listing is every model, where a first enumeration in clasp's order only
    to tell that read the same models twice."""
    with _solve_configuration_kept(ctl):
        if _optimum(ctl, end, stop) is not None:
            return None
        search = OrderedSearch(ctl, canonical, end=end, stop=stop)
        return search.first(count, budget), search.every


@contextmanager
def _solve_configuration_kept(ctl: clingo.Control) -> Iterator[None]:
    """The solve configuration's models and optimisation mode, restored after."""
    config = ctl.configuration.solve
    models, opt_mode = config.models, config.opt_mode
    try:
        yield
    finally:
        config.models, config.opt_mode = models, opt_mode


def _optimum(ctl: clingo.Control, end, stop) -> list[int] | None:
    """The optimal cost of the program (None when it optimises nothing),
    found with clasp's projection off. Projected, clasp optimises over the
    shown parts it meets first ("Optimization may depend on enumeration
    order"): where atoms not shown add to the cost (805.10d: a teammate's
    blocks obeying requirements, 509.1c), the cost it reported was not the
    optimum, and the listing then held declarations that obey fewer
    requirements than the best."""
    ctl.configuration.solve.opt_mode = "opt"
    ctl.configuration.solve.models = "0"
    costs: list = []

    def take(model: clingo.Model) -> bool:
        costs.append(list(model.cost))
        return bool(model.cost)  # (without a cost, one model says so: stop)

    left = None if end is None else max(0.0, end - time.monotonic())
    solve = ctl.configuration.solve
    projected = solve.project
    try:
        solve.project = "no"
        solve_within(ctl, left, stop, on_model=take)
    finally:
        solve.project = projected
    return costs[-1] if costs and costs[-1] else None
