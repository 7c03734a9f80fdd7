"""What the questions of one file, or of one batch chunk, share (`Session`):
the groundings of the file being answered (`SharedGroundings`) and the
models a batch solved ahead for many scenarios at once. Made per file by the
runner and per chunk by the batch, and passed down to the answers.

Nothing here knows a game rule.
"""

from __future__ import annotations

import operator

import clingo

from mtgkb.engine.analysis import FactReadings
from mtgkb.engine.solve import Grounding, group_queries
from mtgkb.engine.state import Engine

# Queries grounded together pay the rule base's set-up once, but each query's
# rules become conditional, so what they derive is no longer a fact to the
# grounder. With the rule base sliced forward by values, sharing costs less
# than it saves up to the largest games measured (legal + outcome, warm:
# 8 players x 50 creatures 102 -> 92 ms, x 200 (about 6,400 facts) 365 ms
# either way); past that it is not known to pay.
SHARE_UP_TO_FACTS = 5000


class SharedGroundings:
    """The groundings the questions of one file share: its queries (`names`,
    one per question, in order) grouped where they can be grounded together
    (mtgkb.engine.solve.group_queries), with each question's `asked/1`
    switchable so that it is on for its own solve only. Kept from the file's
    first question to its last, keyed by the scenario and its facts; a
    group's grounding is freed after its last question."""

    def __init__(
        self,
        engine: Engine,
        scenario,
        fixed: list[clingo.Symbol],
        names: list[str],
        asked: list[clingo.Symbol],
        also: list[str] = (),
        signatures: tuple[tuple[str, int], ...] | None = None,
        arguments: tuple[tuple[clingo.Symbol, ...], ...] | None = None,
    ):
        """`also`: queries the questions solve on these facts besides their
        own (`legal`, judging the declared play for `ask outcome`), grouped
        with them; a group is freed after the last question of its own.
        `signatures`: the (name, arity) of each of the `fixed` facts, in
        order, where they are known; `arguments`, likewise their arguments."""
        self.engine = engine
        self.scenario = scenario
        self.fixed = fixed
        self.uses = {name: names.count(name) for name in names}
        grouped = list(dict.fromkeys([*names, *also]))
        if len(fixed) <= SHARE_UP_TO_FACTS:
            self.groups = group_queries(grouped, engine=engine)
        else:
            self.groups = [[name] for name in grouped]
        self.remaining = {tuple(g): sum(self.uses.get(name, 0) for name in g) for g in self.groups}
        self.asked = list(dict.fromkeys(asked))
        self.built: dict[tuple, Grounding] = {}
        # what forward slicing read of the file's facts, shared by its groundings
        self.readings = FactReadings(fixed, signatures, arguments)
        self.signatures = signatures

    def matches(self, scenario, fixed: list) -> bool:
        # (the same symbols, by identity in C, before comparing any by value:
        # a comparison is a call into clingo)
        return (
            self.scenario is scenario
            and len(self.fixed) == len(fixed)
            and (
                all(map(operator.is_, self.fixed, fixed))
                or all(a is b or a == b for a, b in zip(self.fixed, fixed, strict=True))
            )
        )

    def group_of(self, query: str) -> tuple | None:
        return next((tuple(g) for g in self.groups if query in g), None)

    def grounding(self, query: str, facts, asked: tuple) -> tuple[Grounding, tuple]:
        """The grounding to solve `query` in, and the atoms to switch on for it."""
        group = self.group_of(query)
        alone = group is None or (len(group) == 1 and self.uses.get(query, 0) <= 1)
        if alone or any(a not in self.asked for a in asked):
            alone = Grounding(
                [query],
                facts,
                engine=self.engine,
                readings=self.readings,
                signatures=self.signatures,
            )
            return alone, ()
        if group not in self.built:
            self.built[group] = Grounding(
                group,
                self.fixed,
                switchable=self.asked,
                engine=self.engine,
                readings=self.readings,
                signatures=self.signatures,
            )
        return self.built[group], asked

    def done(self, query: str) -> None:
        """One question of `query` answered: free its grounding after the last."""
        group = self.group_of(query)
        if group in self.remaining:
            self.remaining[group] -= 1
            if self.remaining[group] <= 0:
                self.built.pop(group, None)


class Session:
    """What the questions of one file, or of one batch chunk, share.

    `engine` is the engine they are answered with (a fresh one when not
    given); `ahead` holds models solved ahead for many scenarios at once
    (mtgkb.engine.scenarios.solve_many, by mtgkb.running.batch), each taken
    once by the question it answers; `groundings` are those of the file
    being answered (SharedGroundings), or None between files; `solved` the
    file's models of single-model queries, so that a query asked twice on
    the same facts (`ask legal`, and `ask outcome` judging the play) is
    solved once."""

    def __init__(self, engine: Engine | None = None):
        self.engine = Engine() if engine is None else engine
        self.ahead: dict[tuple, list[clingo.Symbol]] = {}
        self.groundings: SharedGroundings | None = None
        # the file's models of single-model queries, by query and facts (the
        # keys: mtgkb.questions.answers.solved_key, SameFacts)
        self.solved: dict[tuple, list[clingo.Symbol]] = {}
        # the file's facts -> whether the rule base has no answer set on them
        # (the `"inconsistent"` entry saying so, or None)
        self.no_answer_set: dict = {}
        # the file's facts -> the rules not modelled on them, and the kinds of
        # question each is narrowed to (mtgkb.questions.answers)
        self.unmodelled: dict = {}
        # what the answers read of one of the file's models, by what and the
        # model (say `ask legal`'s violations, which `ask outcome` reads
        # again of the same model to judge the declared play)
        self.read: dict = {}

    def end_file(self) -> None:
        """The file's last question is answered: drop its groundings and models."""
        self.groundings = None
        self.solved.clear()
        self.no_answer_set.clear()
        self.unmodelled.clear()
        self.read.clear()
