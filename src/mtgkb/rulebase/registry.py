"""The one registry of questions: one entry per kind of `ask`.

Each entry says everything the rest of mtgkb needs to know about a kind of
question: its name in the parser (`Question.kind`, also the constant of its
`asked/1` term) and in the JSON answers (spec, section 6), the query program
in `queries/` that answers it, the function that turns that query's shown
atoms into the JSON answer, how the readable tree prints it, and how the
engine may solve it (one model, counted, its own grounding). The parser, the
facts, the answers, `ask explain`, the audit, the engine and the text output
read their tables here instead of writing their own.

The answering functions are named by `module:function` and imported only
when a question of that kind is answered (`Entry.answerer`): this module
imports nothing of mtgkb, so that any module may read it without an import
cycle, and a run pays only for the answering modules its questions use. It
lives in the lowest package (mtgkb.rulebase), beside the queries it names,
so that the engine and the language may read it too.

Adding a kind of question: one entry here, one query file in `queries/`, one
answering function, one text form in `mtgkb.output.text.TEXT_FORMS`, and
their tests (docs/contributing.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, eq=False)  # one instance per kind: compared by identity (and cheaper)
class Entry:
    """One kind of question."""

    kind: str  # Question.kind: the grammar's `q_KIND` and the constant of asked/1
    ask: str  # the JSON name of its answers ("ask": ...)
    query: str  # queries/QUERY.lp answers it
    answer: str  # "module:function" making the JSON answer (question, scenario, facts, limits)
    text: str  # the key of its readable form in mtgkb.output.text.TEXT_FORMS
    # how the engine may solve it
    single_model: bool = False  # the answer is its one model (or all optimal ones agree)
    counted: bool = False  # the answer counts the query's models (mtgkb.engine.counting)
    # the query deriving the generic forms its declarations are counted from
    # (mtgkb.engine.classes), so that no ground program is recorded to count them
    counted_by: str | None = None
    own_grounding: bool = False  # grounds its own facts: shares no grounding with the file's
    judges_play: bool = False  # also solves `legal` on the declared play (spec, section 11)
    # the asked/1 term: asked(KIND(P1, ...)) with these parameters (name, type) when
    # every one is given, else the constant KIND. The type is what the parameter must
    # name, checked with the file's names before any rule is asked (mtgkb.language.
    # validate): "player", "creature" (an object on the battlefield that is a
    # creature), "combatant" (a creature the file declares attacking or blocking),
    # "object" (any object on the battlefield), "number" (the others are strings in
    # the term)
    asked: tuple[tuple[str, str], ...] = ()
    # `ask explain`
    explained_by: str | None = None  # the query whose derivation explains it (None: not explained)
    needs_parameters: bool = False  # explained only where the file asks it (it has parameters)
    words: tuple[str, ...] = ()  # other words `ask explain WORDS` names it by
    # the audit: the predicate of its orders when the answer is a list of orders
    orders: str | None = None
    # written with its own `ask` statement (False: the parser makes it of another)
    grammar: bool = True

    @property
    def explain_words(self) -> tuple[str, ...]:
        """The words `ask explain` names this kind by."""
        return (self.kind.replace("_", " "), *self.words)

    def answerer(self) -> Callable:
        """The function making this kind's JSON answer, imported on first use."""
        module, _, name = self.answer.partition(":")
        return getattr(importlib.import_module(module), name)

    def __call__(self, question, scenario, facts, limits, session=None):
        """Answer one question of this kind (see `answerer`), in `session`
        (mtgkb.engine.session.Session) when one is given."""
        return self.answerer()(question, scenario, facts, limits, session)


_ANSWERS = "mtgkb.questions.answers"
_JUDGE = "mtgkb.questions.judge"
_EXPLAIN = "mtgkb.questions.explain.answer"

# In the spec's order (section 6): the order the kinds are listed in.
ENTRIES: tuple[Entry, ...] = (
    Entry(
        "legal",
        "legal",
        "legal",
        f"{_ANSWERS}:answer_legal",
        "legal",
        single_model=True,
        explained_by="legal",
    ),
    Entry(
        "defending",
        "defending",
        "defending",
        f"{_ANSWERS}:answer_defending",
        "defending",
        single_model=True,
        explained_by="defending",
        words=("defending players",),
    ),
    Entry(
        "attack_targets",
        "attack-targets",
        "attack_targets",
        f"{_ANSWERS}:answer_attack_targets",
        "attack_targets",
        single_model=True,
        asked=(("creature", "creature"),),
        explained_by="attack_targets",
        needs_parameters=True,
    ),
    Entry(
        "attacks",
        "attacks",
        "attacks",
        f"{_ANSWERS}:answer_attacks",
        "attacks",
        counted=True,
        counted_by="attack_classes",
        explained_by="attacks",
    ),
    Entry(
        "blocks",
        "blocks",
        "blocks",
        f"{_ANSWERS}:answer_blocks",
        "blocks",
        counted=True,
        counted_by="block_classes",
        asked=(("defender", "player"),),
        explained_by="blocks",
    ),
    Entry(
        "order",
        "order",
        "order",
        f"{_ANSWERS}:answer_order",
        "orders",
        counted=True,
        explained_by="order",
        orders="order",
    ),
    Entry(
        "block_order",
        "block-order",
        "block_order",
        f"{_ANSWERS}:answer_block_order",
        "orders",
        explained_by="block_order",
        orders="block_order",
    ),
    Entry(
        "damage_order",
        "damage-order",
        "damage_order",
        f"{_ANSWERS}:answer_damage_order",
        "orders",
        explained_by="damage_order",
        orders="damage_order",
    ),
    Entry(
        "knowledge",
        "knowledge",
        "knowledge",
        f"{_ANSWERS}:answer_knowledge",
        "knowledge",
        explained_by="knowledge",
    ),
    Entry(
        "stack",
        "stack",
        "stack",
        f"{_ANSWERS}:answer_stack",
        "orders",
        counted=True,
        explained_by="stack",
        orders="stack",
    ),
    Entry(
        "outcome",
        "outcome",
        "outcome",
        f"{_ANSWERS}:answer_outcome",
        "outcome",
        single_model=True,
        judges_play=True,
        explained_by="outcome",
    ),
    Entry(
        "pay",
        "pay",
        "pay",
        f"{_ANSWERS}:answer_pay",
        "pay",
        single_model=True,
        asked=(("player", "player"), ("amount", "number")),
        explained_by="pay",
        needs_parameters=True,
        grammar=False,  # `ask can P pay N life` is asked as `pay` (spec, section 5)
    ),
    Entry(
        "can",
        "can",
        "can",
        f"{_JUDGE}:answer_can",
        "can",
        own_grounding=True,
        explained_by="can",
        needs_parameters=True,
    ),
    Entry(
        "fix",
        "fix",
        "fix",
        f"{_JUDGE}:answer_fix",
        "fix",
        own_grounding=True,
        explained_by="legal",  # explained by the faults of the declared play
    ),
    Entry(
        "explain",
        "explain",
        "explain",
        f"{_EXPLAIN}:answer_explain",
        "explain",
    ),
    Entry(
        "actions",
        "actions",
        "actions",
        f"{_ANSWERS}:answer_actions",
        "actions",
        single_model=True,
        asked=(("player", "player"),),
        explained_by="actions",
        needs_parameters=True,
    ),
    Entry(
        "assignments",
        "assignments",
        "assignments",
        f"{_ANSWERS}:answer_assignments",
        "assignments",
        asked=(("creature", "combatant"),),
        explained_by="assignments",
        needs_parameters=True,
    ),
)

BY_KIND: MappingProxyType[str, Entry] = MappingProxyType({e.kind: e for e in ENTRIES})
BY_ASK: MappingProxyType[str, Entry] = MappingProxyType({e.ask: e for e in ENTRIES})

# --- the tables the rest of mtgkb reads (views of the entries) ---------------

#: Every kind, in the spec's order.
KINDS: tuple[str, ...] = tuple(BY_KIND)
#: Question.kind -> the JSON name of its answers.
ASK_NAMES: MappingProxyType[str, str] = MappingProxyType({e.kind: e.ask for e in ENTRIES})
#: Question.kind -> the query program answering it.
QUERY_OF: MappingProxyType[str, str] = MappingProxyType({e.kind: e.query for e in ENTRIES})
#: Queries whose answer is their one model: a batch may solve them for many files at once.
SINGLE_MODEL_QUERIES = frozenset(e.query for e in ENTRIES if e.single_model)
#: Queries whose answers count their models (their groundings are recorded for counting).
COUNTED_QUERIES = frozenset(e.query for e in ENTRIES if e.counted)
#: Queries counted from the generic forms another query derives (mtgkb.engine.classes).
COUNTED_BY: MappingProxyType[str, str] = MappingProxyType(
    {e.query: e.counted_by for e in ENTRIES if e.counted_by is not None}
)
#: Kinds that build their own groundings: no part of the groundings a file's questions share.
OWN_GROUNDINGS = frozenset(e.kind for e in ENTRIES if e.own_grounding)
#: `ask explain`: Question.kind -> the query whose derivation explains it.
EXPLAINED_BY: MappingProxyType[str, str] = MappingProxyType(
    {e.kind: e.explained_by for e in ENTRIES if e.explained_by is not None}
)
#: `ask explain`: the kinds explained only where the file asks them.
NEEDS_PARAMETERS = frozenset(e.kind for e in ENTRIES if e.needs_parameters)
#: `ask explain WORDS`: the words -> the kind they name.
EXPLAIN_WORDS: MappingProxyType[str, str] = MappingProxyType(
    {w: e.kind for e in ENTRIES if e.explained_by is not None for w in e.explain_words}
)
#: The audit: order queries -> the predicate of their orders.
ORDER_QUERIES: MappingProxyType[str, str] = MappingProxyType(
    {e.query: e.orders for e in ENTRIES if e.orders is not None}
)


def get(kind: str) -> Entry | None:
    """The entry of a Question.kind (None: no such kind)."""
    return BY_KIND.get(kind)


def by_ask(name: str) -> Entry | None:
    """The entry of a JSON name (`attack-targets`, ...)."""
    return BY_ASK.get(name)


def ask_name(kind: str) -> str:
    """The JSON name of a kind (the kind itself when it has no entry)."""
    entry = BY_KIND.get(kind)
    return entry.ask if entry is not None else kind


def query_of(kind: str) -> str:
    """The query answering a kind (the kind itself when it has no entry)."""
    entry = BY_KIND.get(kind)
    return entry.query if entry is not None else kind


__all__ = [
    "ASK_NAMES",
    "BY_ASK",
    "BY_KIND",
    "COUNTED_QUERIES",
    "ENTRIES",
    "EXPLAINED_BY",
    "EXPLAIN_WORDS",
    "KINDS",
    "NEEDS_PARAMETERS",
    "ORDER_QUERIES",
    "OWN_GROUNDINGS",
    "QUERY_OF",
    "SINGLE_MODEL_QUERIES",
    "Entry",
    "ask_name",
    "by_ask",
    "get",
    "query_of",
]
