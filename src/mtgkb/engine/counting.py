"""Exact model counts from independent parts of the ground program.

Nothing here knows a game rule. The grounder's own output (recorded by a
clingo observer while the question is grounded) is split into parts that
share no atom; the number of (optimal, shown) models of the whole is the
product of the numbers of each part, so a declaration space of 21^20 is
counted as 20 parts of 21 each, in Python integers.

Why the product is exact:

- Only the relevant part of the program counts: the atoms that are shown,
  that a constraint or an optimisation statement reads, and, transitively,
  what the rules deriving them read. The rest (say a count of blockers that
  nothing asks about) is derived from it, so it neither adds nor removes
  models, provided it has no cycle through its own atoms and no choice or
  disjunction: otherwise everything counts as relevant.
- Two relevant atoms are in the same part when some relevant rule names
  both (head or body), or one shown term is conditioned on both. Facts and
  the externals a solve fixes are constants and join nothing.
- An optimisation statement is a sum of weighted literals, so its optimum
  over independent parts is the sum of each part's optimum (level by level),
  and the optimal models of the whole are exactly the combinations of
  optimal models of the parts.
- Models are counted as distinct sets of shown atoms (clingo's
  `--project=show`); each shown atom or term lies in one part.

Each part is counted by clasp alone, from the part's own ground rules given
to a fresh Control through its backend. Parts that are the same program up
to a renaming of atoms (the usual case: one per blocker with the same
choice) are counted once.

A part whose choices are all free and shown (see _determined: every
blocker of a menace attacker, a player's triggers in stack order, a
player's several choices) is counted by a table over its choices
(count_by_table: assignments that leave the same rules half-decided in the
same way are one row), so k triggers cost 2^k rows, not k! models. Other
parts (an optimisation statement: the requirements of 509.1c; choices not
shown one by one) are enumerated by clasp, which `max_models` (at least
PART_MODELS) bounds, and only then is the count a lower bound.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import clingo

from mtgkb.engine.programs import quiet, solve_within
from mtgkb.rulebase.control import new_control

RULE, WEIGHT = 0, 1
PART_MODELS = 100000  # models enumerated in one part at least, whatever the listing's cap


class Unsupported(Exception):
    """A ground program this module does not split (theory atoms, #project)."""


class GroundRecorder:
    """A clingo observer that keeps the ground program: rules, weight rules,
    optimisation statements, shown atoms and terms, externals."""

    def __init__(self) -> None:
        # (RULE, choice, head, body) or (WEIGHT, choice, head, lower, body)
        self.rules: list[tuple] = []
        self.optimize: list[tuple[int, tuple]] = []
        self.shown: dict[clingo.Symbol, list[tuple[int, ...]]] = {}
        self.externals: set[int] = set()
        self.facts: set[int] = set()
        self.unsupported = False

    # --- the observer interface, called by clingo while it grounds
    def rule(self, choice: bool, head: Sequence[int], body: Sequence[int]) -> None:
        if not choice and len(head) == 1 and not body:
            self.facts.add(head[0])
        else:
            self.rules.append((RULE, choice, tuple(head), tuple(body)))

    def weight_rule(
        self, choice: bool, head: Sequence[int], lower_bound: int, body: Sequence[tuple[int, int]]
    ) -> None:
        self.rules.append((WEIGHT, choice, tuple(head), lower_bound, tuple(body)))

    def minimize(self, priority: int, literals: Sequence[tuple[int, int]]) -> None:
        self.optimize.append((priority, tuple(literals)))

    def output_atom(self, symbol: clingo.Symbol, atom: int) -> None:
        self.shown.setdefault(symbol, []).append(() if atom == 0 else (atom,))

    def output_term(self, symbol: clingo.Symbol, condition: Sequence[int]) -> None:
        self.shown.setdefault(symbol, []).append(tuple(condition))

    def external(self, atom: int, value: clingo.TruthValue) -> None:
        self.externals.add(atom)

    def project(self, atoms: Sequence[int]) -> None:
        self.unsupported = True

    def assume(self, literals: Sequence[int]) -> None:
        self.unsupported = True

    def acyc_edge(self, node_u: int, node_v: int, condition: Sequence[int]) -> None:
        self.unsupported = True

    def theory_atom(self, atom_id_or_zero: int, term_id: int, elements: Sequence[int]) -> None:
        self.unsupported = True

    def theory_atom_with_guard(
        self,
        atom_id_or_zero: int,
        term_id: int,
        elements: Sequence[int],
        operator_id: int,
        right_hand_side_id: int,
    ) -> None:
        self.unsupported = True


def _body_literals(rule: tuple) -> tuple[int, ...]:
    if rule[0] == RULE:
        return rule[3]
    return tuple(lit for lit, _ in rule[4])


class _Parts:
    """Union-find over atoms."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, a: int) -> int:
        parent = self.parent
        root = parent.setdefault(a, a)
        while root != parent[root]:
            root = parent[root]
        while a != root:
            parent[a], a = root, parent[a]
        return root

    def union(self, atoms: Sequence[int]) -> None:
        if not atoms:
            return
        first = self.find(atoms[0])
        for a in atoms[1:]:
            other = self.find(a)
            if other != first:
                self.parent[other] = first


def count_models(
    program: GroundRecorder,
    true_externals: set[int],
    *,
    max_models: int = 0,
    cache: dict | None = None,
    end: float | None = None,
) -> tuple[int, bool]:
    """The number of (optimal) models of the recorded program projected on its
    shown atoms and terms, with the externals in `true_externals` true and the
    others false; and whether it is exact (False when a part's enumeration
    stopped at `max_models`, or PART_MODELS if more)."""
    if max_models > 0:
        max_models = max(max_models, PART_MODELS)
    if program.unsupported:
        raise Unsupported("the ground program has statements that are not split")
    facts = program.facts
    externals = program.externals

    def value(lit: int) -> bool | None:
        """True/False for a literal whose truth the solve fixes, else None."""
        atom = lit if lit > 0 else -lit
        if atom in facts:
            truth = True
        elif atom in externals:
            truth = atom in true_externals
        else:
            return None
        return truth if lit > 0 else not truth

    # Rules that may fire, with the literals the solve fixes left out of the
    # normal bodies (weight bodies keep them: the bound needs their weight).
    live: list[tuple] = []
    for rule in program.rules:
        if rule[0] == RULE:
            body = []
            dead = False
            for lit in rule[3]:
                truth = value(lit)
                if truth is None:
                    body.append(lit)
                elif not truth:
                    dead = True
                    break
            if dead:
                continue
            head = tuple(a for a in rule[2] if a not in facts) if rule[1] else rule[2]
            if not rule[1] and head and any(a in facts for a in head):
                continue  # a head already true: the rule adds nothing
            live.append((RULE, rule[1], head, tuple(body)))
        else:
            live.append(rule)

    # Which atoms matter: shown ones, those constraints and optimisation
    # read, and what the rules deriving them read.
    defined: dict[int, list[int]] = {}
    roots: list[int] = []
    for i, rule in enumerate(live):
        if not rule[2] and not rule[1]:
            roots.append(i)  # a constraint
        for a in rule[2]:
            defined.setdefault(a, []).append(i)
    relevant: set[int] = set()
    todo: list[int] = []
    shown: dict[clingo.Symbol, list[tuple[int, ...]]] = {}
    for symbol, conditions in program.shown.items():
        kept = []
        constant = False
        for condition in conditions:
            lits = []
            for lit in condition:
                truth = value(lit)
                if truth is None:
                    lits.append(lit)
                elif not truth:
                    lits = None
                    break
            if lits is None:
                continue
            if not lits:
                constant = True
                break
            kept.append(tuple(lits))
        if constant or not kept:
            continue  # shown in every model, or in none: no choice
        shown[symbol] = kept
    for kept in shown.values():
        for lits in kept:
            todo.extend(abs(lit) for lit in lits)
    optimize = []
    for priority, literals in program.optimize:
        terms = []
        for lit, weight in literals:
            truth = value(lit)
            if truth is None:
                terms.append((lit, weight))
                todo.append(abs(lit))
        if terms:
            optimize.append((priority, terms))
    used = [False] * len(live)
    for i in roots:
        used[i] = True
        todo.extend(abs(lit) for lit in _body_literals(live[i]))
    while todo:
        atom = todo.pop()
        if atom in relevant or atom in facts or atom in externals:
            continue
        relevant.add(atom)
        for i in defined.get(atom, ()):
            if not used[i]:
                used[i] = True
                rule = live[i]
                todo.extend(abs(lit) for lit in _body_literals(rule))
                if rule[1]:  # a choice's other heads come with it
                    todo.extend(rule[2])
    if not _safe_rest(live, used):
        used = [True] * len(live)

    # The parts.
    parts = _Parts()
    for i, rule in enumerate(live):
        if used[i]:
            atoms = [a for a in rule[2]]
            atoms += [abs(lit) for lit in _body_literals(rule) if value(lit) is None]
            if atoms:
                parts.union(atoms)
            else:
                parts.union([-(i + 1)])  # a rule on constants alone: its own part
    for conditions in shown.values():
        parts.union([abs(lit) for lits in conditions for lit in lits])
    for _, terms in optimize:
        for lit, _ in terms:
            parts.find(abs(lit))
    members: dict[int, dict] = {}

    def part(key: int) -> dict:
        root = parts.find(key)
        if root not in members:
            members[root] = {"rules": [], "optimize": {}, "shown": []}
        return members[root]

    for i, rule in enumerate(live):
        if not used[i]:
            continue
        atoms = [a for a in rule[2]] + [
            abs(lit) for lit in _body_literals(rule) if value(lit) is None
        ]
        part(atoms[0] if atoms else -(i + 1))["rules"].append(rule)
    for priority, terms in optimize:
        for lit, weight in terms:
            part(abs(lit))["optimize"].setdefault(priority, []).append((lit, weight))
    for conditions in shown.values():
        part(abs(conditions[0][0]))["shown"].append(conditions)

    total = 1
    exact = True
    memo = cache if cache is not None else {}
    for found in members.values():
        if not found["shown"] and not found["rules"] and not found["optimize"]:
            continue
        key, program_of_part = _canonical(found, value)
        if key in memo:
            n, complete = memo[key]
        else:
            n = None
            if _determined(program_of_part["rules"], dict(enumerate(program_of_part["shown"]))):
                n = count_by_table(program_of_part["rules"], end, program_of_part["optimize"])
            complete = True
            if n is None:
                n, complete = _count_part(program_of_part, max_models, end)
            memo[key] = (n, complete)
        exact = exact and complete
        total *= n
        if total == 0:
            return 0, True
    return total, exact


def _safe_rest(live: list[tuple], used: list[bool]) -> bool:
    """Whether the rules left out (deriving atoms nothing relevant reads) have
    one answer set for every choice of the rest: no choice or disjunction,
    and no cycle through their own heads."""
    heads: set[int] = set()
    for i, rule in enumerate(live):
        if not used[i]:
            if rule[1] or len(rule[2]) > 1:
                return False
            heads.update(rule[2])
    if not heads:
        return True
    # acyclic among the left-out atoms
    needs: dict[int, set[int]] = {a: set() for a in heads}
    for i, rule in enumerate(live):
        if not used[i]:
            h = rule[2][0]
            needs[h].update(abs(lit) for lit in _body_literals(rule) if abs(lit) in heads)
    return _no_cycle(needs)


def _canonical(found: dict, value) -> tuple[tuple, dict]:
    """A part's program with its atoms renumbered in order of appearance
    (equal keys: the same program up to renaming, so the same count), and
    the constants it reads."""
    names: dict[int, int] = {}
    constants: dict[int, bool] = {}

    def rename(lit: int) -> int:
        atom = abs(lit)
        truth = value(atom)
        if truth is not None:
            # a constant: 1 is "true", 2 "false"
            constants[atom] = truth
            new = 1 if truth else 2
        else:
            new = names.get(atom)
            if new is None:
                new = names[atom] = len(names) + 3
        return new if lit > 0 else -new

    rules = []
    for rule in found["rules"]:
        if rule[0] == RULE:
            rules.append(
                (
                    RULE,
                    rule[1],
                    tuple(rename(a) for a in rule[2]),
                    tuple(rename(x) for x in rule[3]),
                )
            )
        else:
            rules.append(
                (
                    WEIGHT,
                    rule[1],
                    tuple(rename(a) for a in rule[2]),
                    rule[3],
                    tuple((rename(x), w) for x, w in rule[4]),
                )
            )
    optimize = tuple(
        (priority, tuple((rename(lit), w) for lit, w in terms))
        for priority, terms in sorted(found["optimize"].items())
    )
    shown = tuple(
        sorted(
            tuple(sorted(tuple(rename(x) for x in lits) for lits in conditions))
            for conditions in found["shown"]
        )
    )
    key = (tuple(rules), optimize, shown)
    return key, {"rules": rules, "optimize": optimize, "shown": shown, "atoms": len(names)}


def _count_part(part: dict, max_models: int, end: float | None) -> tuple[int, bool]:
    """clasp's count of one part's (optimal) models, projected on what it shows."""
    project = bool(part["shown"])
    options = ["--project=project"] if project else []
    ctl = new_control(options, quiet)
    with ctl.backend() as backend:
        atoms: dict[int, int] = {}

        def lit(x: int) -> int:
            a = abs(x)
            if a not in atoms:
                atoms[a] = backend.add_atom()
                if a == 1:
                    backend.add_rule([atoms[a]])
            return atoms[a] if x > 0 else -atoms[a]

        for rule in part["rules"]:
            if rule[0] == RULE:
                backend.add_rule([lit(a) for a in rule[2]], [lit(x) for x in rule[3]], rule[1])
            else:
                backend.add_weight_rule(
                    [lit(a) for a in rule[2]], rule[3], [(lit(x), w) for x, w in rule[4]], rule[1]
                )
        for priority, terms in part["optimize"]:
            backend.add_minimize(priority, [(lit(x), w) for x, w in terms])
        projection = []
        for conditions in part["shown"]:
            aux = backend.add_atom()
            for lits in conditions:
                backend.add_rule([aux], [lit(x) for x in lits])
            projection.append(aux)
        if projection:
            backend.add_project(projection)
    ctl.configuration.solve.models = str(max_models if project else 1)
    ctl.configuration.solve.opt_mode = "optN"
    left = None if end is None else max(0.0, end - time.monotonic())
    result = solve_within(ctl, left, TimeoutError)  # solve.py turns it into SolveTimeout
    models = ctl.statistics["summary"]["models"]
    optimal = int(models["optimal"])
    count = optimal if part["optimize"] else int(models["enumerated"])
    if part["optimize"] and not optimal and result.satisfiable:
        count = int(models["enumerated"])
    if not project:
        return (1 if result.satisfiable else 0), True
    return count, bool(result.exhausted)


# --------------------------------------------------------------------------
# When every choice of a part is shown: count answer sets, not projections


def _determined(live: list[tuple], shown: dict) -> dict | None:
    """The shown terms that determine every answer set, when there are such:
    every atom a choice rule may make true is free (its choice rules have no
    body left and no other rule derives it) and is shown by a term that holds
    exactly when it does (its one condition is the atom and atoms it implies),
    and the other atoms have no cycle through one another (so the choices fix
    them). Then distinct answer sets show distinct terms, and the number of
    projected models is the number of answer sets, whatever the other shown
    terms (say citations that any choice yields): count_by_table counts them.
    Returns those witnesses; None when that does not hold."""
    free: set[int] = set()
    derived: dict[int, list[tuple]] = {}
    for rule in live:
        if rule[1]:
            if rule[0] != RULE or rule[3]:
                return None
            free.update(rule[2])
        elif len(rule[2]) > 1:
            return None  # a disjunction
        elif rule[2]:
            derived.setdefault(rule[2][0], []).append(rule)
    if not free or free & derived.keys():
        return None
    if not _acyclic(derived):
        return None

    def single(atom: int) -> tuple[int, ...] | None:
        rules = derived.get(atom)
        if rules is None or len(rules) != 1 or rules[0][0] != RULE:
            return None
        return rules[0][3]

    # x :- y: whenever y holds, so does x
    follows: dict[int, list[int]] = {}
    for head, rules in derived.items():
        for rule in rules:
            if rule[0] == RULE and len(rule[3]) == 1 and rule[3][0] > 0:
                follows.setdefault(rule[3][0], []).append(head)

    def implied(by: int) -> set[int]:
        """The atoms that hold whenever `by` does, through rules on one atom."""
        found = {by}
        layer = [by]
        for _ in range(4):
            layer = [x for y in layer for x in follows.get(y, ()) if x not in found]
            found.update(layer)
        return found

    witness: dict[int, clingo.Symbol] = {}
    for symbol, conditions in shown.items():
        if len(conditions) != 1:
            continue
        lits = conditions[0]
        for _ in range(3):
            if len(lits) == 1 and lits[0] > 0 and lits[0] not in free:
                body = single(lits[0])
                if body is not None:
                    lits = body
                    continue
            break
        chosen = [x for x in lits if x in free]
        if len(chosen) == 1 and all(x > 0 for x in lits) and set(lits) <= implied(chosen[0]):
            witness.setdefault(chosen[0], symbol)
    if len(witness) != len(free):
        return None
    return {symbol: shown[symbol] for symbol in witness.values()}


def _acyclic(derived: dict[int, list[tuple]]) -> bool:
    """No cycle among the derived atoms."""
    return _no_cycle(
        {
            head: {abs(x) for rule in rules for x in _body_literals(rule)} & derived.keys()
            for head, rules in derived.items()
        }
    )


def _no_cycle(needs: dict[int, set[int]]) -> bool:
    """No cycle in `needs` (atom -> the atoms of the map it needs): Kahn's algorithm."""
    users: dict[int, list[int]] = {}
    waiting: dict[int, int] = {}
    for a, deps in needs.items():
        waiting[a] = len(deps)
        for d in deps:
            users.setdefault(d, []).append(a)
    ready = [a for a, n in waiting.items() if n == 0]
    done = 0
    while ready:
        a = ready.pop()
        done += 1
        for u in users.get(a, ()):
            waiting[u] -= 1
            if waiting[u] == 0:
                ready.append(u)
    return done == len(needs)


# --------------------------------------------------------------------------
# A counting table over one part

FRESH = (0, 0, 0)  # (a marker: a rule none of whose literals is decided yet)
TABLE_STATES = 20000  # rows of the table at one step at most, else clasp counts the part


def count_by_table(
    rules: Sequence[tuple], end: float | None = None, optimize: Sequence[tuple] = ()
) -> int | None:
    """The number of answer sets of one part whose choices are free atoms and
    whose other atoms the choices fix (see _determined), without enumerating
    them: the free atoms are decided one at a time, and assignments that leave
    the same rules half-decided in the same way (the same bound still to reach
    over the same undecided literals) are one row of the table, with the number
    of assignments it stands for. A permutation of k things has 2^k rows at
    most, not k!; a group of blockers tied by a count has one row per count.
    None when the table grows past TABLE_STATES rows (clasp counts it then).

    With `optimize` ((priority, ((lit, weight), ...)), ...), the optimal
    answer sets are counted: each row keeps the least cost so far (by
    priority, highest first) and the number of assignments that reach it,
    since rows that leave the same rules behave the same from then on.

    `rules` are a part's canonical rules: atom 1 is true, atom 2 false."""
    order: list[int] = []
    free: set[int] = set()
    kept: list[tuple[int | None, int, tuple]] = []  # (head, bound, ((lit, weight), ...))
    for rule in rules:
        if rule[1]:
            for a in rule[2]:
                if a not in free:
                    free.add(a)
                    order.append(a)
        elif rule[0] == RULE:
            kept.append(
                (rule[2][0] if rule[2] else None, len(rule[3]), tuple((x, 1) for x in rule[3]))
            )
        else:
            if any(w < 0 for _, w in rule[4]):
                return None
            kept.append((rule[2][0] if rule[2] else None, rule[3], rule[4]))
    # Only what a constraint reads can change the count.
    defining: dict[int, list[int]] = {}
    for rid, (head, _, _) in enumerate(kept):
        if head is not None:
            defining.setdefault(head, []).append(rid)
    needed = [False] * len(kept)
    todo = [rid for rid, (head, _, _) in enumerate(kept) if head is None]
    levels = sorted({priority for priority, _ in optimize}, reverse=True)
    costs_of: dict[int, list[tuple[int, int, bool]]] = {}
    for priority, terms in optimize:
        for lit, weight in terms:
            costs_of.setdefault(abs(lit), []).append((levels.index(priority), weight, lit > 0))
            todo.extend(defining.get(abs(lit), ()))
    while todo:
        rid = todo.pop()
        if needed[rid]:
            continue
        needed[rid] = True
        for x, _ in kept[rid][2]:
            todo.extend(defining.get(abs(x), ()))
    kept = [r for r, n in zip(kept, needed, strict=True) if n]
    defining = {}
    readers: dict[int, list[tuple[int, int]]] = {}
    for rid, (head, _, body) in enumerate(kept):
        if head is not None:
            defining.setdefault(head, []).append(rid)
        for pos, (x, _) in enumerate(body):
            readers.setdefault(abs(x), []).append((rid, pos))
    level = {a: i for i, a in enumerate(order)}
    # the step after which an atom's value is surely known
    known_at: dict[int, int] = {}

    def known(atom: int) -> int:
        if atom in level:
            return level[atom]
        if atom not in known_at:
            known_at[atom] = -1  # (acyclic: no recursion back here)
            known_at[atom] = max(
                (known(abs(x)) for rid in defining.get(atom, ()) for x, _ in kept[rid][2]),
                default=-1,
            )
        return known_at[atom]

    for atom in defining:
        known(atom)
    first = []  # the first step at which a literal of a rule on free atoms alone is decided
    marked = []  # rules on other atoms too (or on constants)
    repeats = []  # positions of a literal whose atom comes earlier in the same body
    for _, _, body in kept:
        atoms = [abs(x) for x, _ in body]
        marked.append(any(a not in level for a in atoms))
        first.append(min((level[a] for a in atoms if a in level), default=-1))
        repeats.append({i for i, a in enumerate(atoms) if a in atoms[:i]})
    rule_known = [max((known(abs(x)) for x, _ in body), default=-1) for _, _, body in kept]

    weights = [sum(w for _, w in body) for _, _, body in kept]

    # A row: the half-decided rules {rid: (bound left, mask of decided
    # literals, weight of the undecided ones)}, the decided derived atoms
    # still to be read {atom: value}, and how many rules of an atom are dead
    # {atom: n}.
    def decide(pending: dict, decided: dict, dead: dict, head: int, truth: bool) -> None:
        decided[head] = truth
        dead.pop(head, None)
        for rid in defining[head]:
            pending.pop(rid, None)

    def settle(
        pending: dict, decided: dict, dead: dict, atom: int, truth: bool, step: int, cost: list
    ) -> bool:
        """Give `atom` its value and follow what it decides; False if a
        constraint is broken. A rule on free atoms alone that is no longer
        pending is decided once some other literal of it is (known from the
        step); the others are marked None until all their literals are known."""
        work = [(atom, truth)]
        while work:
            atom, truth = work.pop()
            for index, weight, positive in costs_of.get(atom, ()):
                if positive == truth:
                    cost[index] += weight
            for rid, pos in readers.get(atom, ()):
                head, bound, body = kept[rid]
                if head is not None and head in decided:
                    continue
                entry = pending.get(rid, FRESH)
                if entry is None:
                    continue  # decided already
                if entry is FRESH and step >= 0 and not marked[rid]:
                    if first[rid] < step or pos in repeats[rid]:
                        continue  # decided already
                left, mask, rest = entry if entry is not FRESH else (bound, 0, weights[rid])
                lit, weight = body[pos]
                mask |= 1 << pos
                rest -= weight
                if (lit > 0) == truth:
                    left -= weight
                if left <= 0:
                    pending[rid] = None if marked[rid] or step < 0 else FRESH
                    if head is None:
                        return False
                    decide(pending, decided, dead, head, True)
                    work.append((head, True))
                elif rest < left:
                    pending[rid] = None if marked[rid] or step < 0 else FRESH
                    if head is not None:
                        n = dead.get(head, 0) + 1
                        if n == len(defining[head]):
                            decide(pending, decided, dead, head, False)
                            work.append((head, False))
                        else:
                            dead[head] = n
                else:
                    pending[rid] = (left, mask, rest)
        return True

    pending: dict = {}
    decided: dict = {}
    dead: dict = {}
    start = [(1, True), (2, False)]
    start += [(a, False) for a in readers if a not in defining and a not in free and a > 2]
    for head, bound, body in kept:
        if not body:  # a rule on nothing (bound 0 holds; else never)
            if bound <= 0:
                if head is None:
                    return 0
                if head not in decided:
                    decided[head] = True
                    start.append((head, True))
            elif head is not None:
                dead[head] = dead.get(head, 0) + 1
                if dead[head] == len(defining[head]):
                    decided[head] = False
                    start.append((head, False))
    cost = [0] * len(levels)
    for atom, truth in start:
        if not settle(pending, decided, dead, atom, truth, -1, cost):
            return 0

    def row_key(pending: dict, decided: dict, dead: dict) -> tuple:
        """What a row's future depends on: its half-decided rules by what is
        left of them (two rules left with the same head, bound and literals
        decide the same), the rules marked decided, the decided atoms and
        the dead rules of each atom."""
        left = []
        marks = []
        for rid, entry in pending.items():
            if entry is None:
                marks.append(rid)
                continue
            residue = (rid, entry[1])
            name = names.get(residue)
            if name is None:
                body = kept[rid][2]
                mask = entry[1]
                rest = (kept[rid][0], tuple(body[i] for i in range(len(body)) if not mask >> i & 1))
                name = names[residue] = contents.setdefault(rest, len(contents))
            left.append((name, entry[0]))
        left.sort()
        return (tuple(left), frozenset(marks), frozenset(decided.items()), frozenset(dead.items()))

    names: dict[tuple[int, int], int] = {}  # (rule, decided literals) -> what is left, numbered
    contents: dict[tuple, int] = {}

    rows: list = [(pending, decided, dead, 1, tuple(cost))]
    for step, atom in enumerate(order):
        if end is not None and time.monotonic() > end:
            raise TimeoutError()
        following: dict = {}
        for p, d, x, n, c in rows:
            for truth in (True, False):
                pending, decided, dead, cost = dict(p), dict(d), dict(x), list(c)
                if not settle(pending, decided, dead, atom, truth, step, cost):
                    continue
                cost = tuple(cost)
                for a in [a for a in decided if known_at.get(a, -1) <= step]:
                    del decided[a]
                for rid in [
                    r
                    for r, e in pending.items()
                    if e is FRESH or (e is None and rule_known[r] <= step)
                ]:
                    del pending[rid]
                key = row_key(pending, decided, dead)
                found = following.get(key)
                if found is None or cost < found[4]:
                    following[key] = [pending, decided, dead, n, cost]
                elif cost == found[4]:
                    found[3] += n
        rows = list(following.values())
        if len(rows) > TABLE_STATES:
            return None
    if not rows:
        return 0
    least = min(row[4] for row in rows)
    return sum(row[3] for row in rows if row[4] == least)
