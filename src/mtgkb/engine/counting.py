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
choice) are counted once. A part is enumerated, so a part that cannot be
split further (every blocker of a menace attacker, a restriction on the
whole group) costs what its own models cost; `max_models` (at least
PART_MODELS) bounds that, and only then is the count a lower bound.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import clingo

from mtgkb.engine.control import new_control
from mtgkb.engine.programs import quiet, solve_within

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
    # acyclic among the left-out atoms: Kahn's algorithm
    needs: dict[int, set[int]] = {a: set() for a in heads}
    for i, rule in enumerate(live):
        if not used[i]:
            h = rule[2][0]
            needs[h].update(abs(lit) for lit in _body_literals(rule) if abs(lit) in heads)
    users: dict[int, list[int]] = {}
    waiting = {}
    ready = []
    for a, deps in needs.items():
        waiting[a] = len(deps)
        if not deps:
            ready.append(a)
        for d in deps:
            users.setdefault(d, []).append(a)
    done = 0
    while ready:
        a = ready.pop()
        done += 1
        for u in users.get(a, ()):
            waiting[u] -= 1
            if waiting[u] == 0:
                ready.append(u)
    return done == len(heads)


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
