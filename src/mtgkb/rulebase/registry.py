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
imports nothing of mtgkb but mtgkb.rulebase.records (which imports none),
so that any module may read it without an import cycle, and a run pays
only for the answering modules its questions use. It lives in the lowest
package (mtgkb.rulebase), beside the queries it names,
so that the engine and the language may read it too.

Each entry also describes its JSON answer (`Entry.fields`, with the shapes
of `SHAPES` and the fields of `COMMON_FIELDS` every answer may have): the
typed answer classes and the server's OpenAPI document are made from these
descriptions (mtgkb.output.models), and a test validates every answer of
every scenario file against them, so the description cannot drift from the
answers.

Adding a kind of question: one entry here (with its `fields`), one query
file in `queries/`, one answering function, one text form in
`mtgkb.output.text.TEXT_FORMS`, and their tests (docs/contributing.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import MappingProxyType

from mtgkb.rulebase.records import record


@record(frozen=True, eq=False)  # one instance per kind: compared by identity (and cheaper)
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
    # its JSON answer besides `ask` and COMMON_FIELDS: (name, type, meaning) per
    # key; a name ending in "?" is a key the answer may leave out. Types:
    # str, int, bool, null, object (any object), list[T], map[T] (an object of
    # names to T), T | U, and the shapes of SHAPES.
    fields: tuple[tuple[str, str, str], ...] = ()

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


#: Every answer's fields besides its own (`Entry.fields`).
COMMON_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("rules", "list[str]", "the CR rules that decided the answer"),
    ("unmodelled?", "list[str]", "rules the scenario brings into play that are not modelled"),
    ("inconsistent?", "list[Inconsistent]", "values the rule base derived several of (exit 4)"),
)

#: The answers of the order questions without their own keys.
ORDERS: tuple[tuple[str, str, str], ...] = (
    ("orders", "list[list[str]]", "each order, a sequence"),
    ("count?", "int", "how many orders there are, where the listing was cut"),
    ("complete?", "bool", "false when the enumeration stopped at its cap"),
    ("reason?", "str", "why `count` is a lower bound"),
)

#: The shapes the fields name: (name, type, meaning) per key, as in
#: `Entry.fields`; a shape with the field "..." may have other keys.
SHAPES: MappingProxyType[str, tuple[tuple[str, str, str], ...]] = MappingProxyType(
    {
        "Violation": (
            ("rule", "str", "the CR rule broken"),
            ("kind", "ViolationKind", "the kind of violation (kb/messages.lp)"),
            ("message", "str", "what is wrong, in the answer's language"),
            ("objects", "list[str]", "the names the violation is about"),
            ("line?", "int", "the line of the declaration (or question) that broke it"),
            ("column?", "int", "its column"),
            ("path?", "str", "in a JSON game state: the JSON path of that declaration"),
        ),
        "Change": (
            ("remove?", "str", "a declaration to leave out"),
            ("add?", "str", "a declaration to add"),
            ("change?", "str", "a declaration to change"),
            ("to?", "str", "what it becomes"),
        ),
        "Edit": (
            ("op", "str", "remove, add, replace (a declaration by `with`) or choose"),
            ("declaration", "Declaration", "the declaration removed, added, replaced or chosen"),
            ("with?", "Declaration", "what replaces it"),
        ),
        "Declaration": (
            ("type", "str", "attack, block, cast, activate or choose_defending"),
            ("attacker?", "str", "the attacking creature"),
            ("target?", "str", "what it attacks"),
            ("blocker?", "str", "the blocking creature"),
            ("player?", "str", "who casts, activates or chooses"),
            ("name?", "str", "the spell or the source of the ability"),
            ("spell_type?", "str", "the card type of the spell cast"),
            ("targets?", "list[str]", "the targets of the spell or ability"),
            ("defender?", "str", "the defending player chosen"),
            ("line?", "int", "where the file declares it"),
            ("column?", "int", "its column"),
            ("path?", "str", "in a JSON game state: the JSON path of that declaration"),
        ),
        "Inconsistent": (
            ("rules", "list[str]", "the rules whose statements derived the values"),
            ("...", "", "the atom, its holder and values, or the statements with no answer set"),
        ),
        "Node": (("...", "", "one step of a derivation: a conclusion and the rule that made it"),),
        "Unsupported": (
            ("supported", "bool", "false: this kind of question is not answered yet"),
            ("message", "str", "what is not built"),
            ("play?", "str", "the play asked about (`ask can`)"),
        ),
    }
)

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
        fields=(
            ("legal", "bool", "whether every declared play is legal"),
            ("violations", "list[Violation]", "each rule the declared play breaks"),
        ),
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
        fields=(("players", "list[str]", "the defending players, in seating order"),),
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
        fields=(
            ("creature", "str", "the creature asked about"),
            ("targets", "list[str]", "what it could attack: players, planeswalkers, battles"),
        ),
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
        fields=(
            (
                "count",
                "int",
                "how many legal declarations of attackers (exact unless not complete)",
            ),
            ("complete", "bool", "false when the enumeration stopped at its cap"),
            (
                "assignments",
                "list[map[str | list[str]]]",
                "each listed declaration: attacker to what it attacks",
            ),
            ("reason?", "str", "why `count` is a lower bound"),
        ),
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
        fields=(
            ("defender", "str | null", "whose blocks (null: several defending players together)"),
            (
                "defenders?",
                "list[str]",
                "the defending players blocking together, in seating order",
            ),
            ("count", "int", "how many legal declarations of blockers (exact unless not complete)"),
            ("complete", "bool", "false when the enumeration stopped at its cap"),
            (
                "assignments",
                "list[map[str | list[str]]]",
                "each listed declaration: blocker to the attacker(s) it blocks ({}: no blocks)",
            ),
            (
                "teammates?",
                "list[str]",
                "under shared team turns (805.10d), the defender's teammates, in seating order:"
                " each declaration listed is the defender's part of the team's, their blocks"
                " not shown",
            ),
            ("reason?", "str", "why `count` is a lower bound"),
        ),
    ),
    Entry(
        "order",
        "order",
        "order",
        f"{_ANSWERS}:answer_order",
        "orders",
        counted=True,
        counted_by="order_classes",
        explained_by="order",
        orders="order",
        fields=(
            ("orders", "list[list[str]]", "each order of the players (APNAP), a sequence"),
            (
                "choice_orders?",
                "map[list[list[str]]]",
                "per player making several choices at once, the orders of those choices",
            ),
            ("made_by?", "map[str]", "who makes each choice of the order"),
            ("count?", "int", "how many orders there are, where the listing was cut"),
            ("complete?", "bool", "false when the enumeration stopped at its cap"),
            ("reason?", "str", "why `count` is a lower bound"),
        ),
    ),
    Entry(
        "block_order",
        "block-order",
        "block_order",
        f"{_ANSWERS}:answer_block_order",
        "orders",
        explained_by="block_order",
        orders="block_order",
        fields=ORDERS,
    ),
    Entry(
        "damage_order",
        "damage-order",
        "damage_order",
        f"{_ANSWERS}:answer_damage_order",
        "orders",
        explained_by="damage_order",
        orders="damage_order",
        fields=ORDERS,
    ),
    Entry(
        "knowledge",
        "knowledge",
        "knowledge",
        f"{_ANSWERS}:answer_knowledge",
        "knowledge",
        explained_by="knowledge",
        fields=(
            (
                "known",
                "map[list[str]]",
                "per player, the earlier choosers whose choice that player knows",
            ),
        ),
    ),
    Entry(
        "stack",
        "stack",
        "stack",
        f"{_ANSWERS}:answer_stack",
        "orders",
        counted=True,
        counted_by="stack_classes",
        explained_by="stack",
        orders="stack",
        fields=ORDERS,
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
        fields=(
            ("life", "map[int]", "each player's life total"),
            ("team_life?", "map[int]", "each team's shared life total"),
            ("lost", "list[str]", "every player who lost, in seating order"),
            ("triggers", "map[int]", "how many times each source triggered"),
            ("poison?", "map[int]", "each player's poison counters"),
            ("team_poison?", "map[int]", "each team's poison counters"),
            (
                "commander_damage?",
                "map[map[int]]",
                "per player, the combat damage dealt by each commander",
            ),
            ("destroyed?", "list[str]", "the objects destroyed"),
            ("illegal_play?", "bool", "true: the declared play is illegal (its violations follow)"),
            ("violations?", "list[Violation]", "the rules the declared play breaks"),
        ),
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
        fields=(
            ("player", "str", "who would pay"),
            ("amount", "int", "how much life"),
            (
                "can",
                "bool | null",
                "whether the player can pay (null: the life total is inconsistent)",
            ),
        ),
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
        fields=(
            ("play", "str", "the play asked about, as written"),
            ("can", "bool", "whether the play can be made"),
            ("forbidden_by", "list[str]", "a minimal set of rules that together forbid it"),
            ("violations", "list[Violation]", "each rule the play would break"),
        ),
    ),
    Entry(
        "fix",
        "fix",
        "fix",
        f"{_JUDGE}:answer_fix",
        "fix",
        own_grounding=True,
        explained_by="legal",  # explained by the faults of the declared play
        fields=(
            ("legal", "bool", "whether the declared play is legal already"),
            (
                "changes",
                "list[Change] | null",
                "the changes to the closest legal play, in words (null: none is legal)",
            ),
            (
                "edits",
                "list[Edit] | null",
                "the same changes and choices, as data (null: no legal play)",
            ),
            ("count", "int", "how many legal plays are equally close"),
            ("choices?", "list[str]", "choices the file left open, made by the closest play"),
            ("complete?", "bool", "false when the count stopped at its cap"),
            ("reason?", "str", "why `count` is a lower bound"),
            (
                "remaining?",
                "list[Violation]",
                "what no change of attacks, blocks and targets mends",
            ),
        ),
    ),
    Entry(
        "explain",
        "explain",
        "explain",
        f"{_EXPLAIN}:answer_explain",
        "explain",
        fields=(
            ("question?", "str", "the kind of question explained (absent: every answer)"),
            ("tree", "list[Node]", "the derivation, each node citing the rule that derived it"),
            ("forbidden?", "list[Node]", "why the declared play is illegal"),
            ("truncated", "bool", "whether the tree was cut at its bound"),
        ),
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
        fields=(
            ("player", "str", "the player asked about"),
            ("may", "list[str]", "the kinds of play the player may make now"),
            ("made_by?", "map[str]", "who makes each of them"),
        ),
    ),
    Entry(
        "assignments",
        "assignments",
        "assignments",
        f"{_ANSWERS}:answer_assignments",
        "assignments",
        counted=True,
        counted_by="assignment_classes",
        asked=(("creature", "combatant"),),
        explained_by="assignments",
        needs_parameters=True,
        fields=(
            ("creature", "str", "the creature asked about"),
            ("count", "int", "how many legal assignments of its combat damage"),
            ("complete", "bool", "false when the enumeration stopped at its cap"),
            ("assignments", "list[map[int]]", "each listed assignment: recipient to damage"),
            ("reason?", "str", "why `count` is a lower bound"),
        ),
    ),
)

BY_KIND: MappingProxyType[str, Entry] = MappingProxyType({e.kind: e for e in ENTRIES})


def answer_class_name(kind: str) -> str:
    """The name of a kind's typed answer class (mtgkb.output.models):
    `attack_targets` -> `AttackTargetsAnswer`."""
    return "".join(part.capitalize() for part in kind.split("_")) + "Answer"


#: The typed answer class of each kind, by name (mtgkb.output.models makes them).
ANSWER_CLASS_NAMES: tuple[str, ...] = tuple(answer_class_name(e.kind) for e in ENTRIES)

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
    "COMMON_FIELDS",
    "COUNTED_QUERIES",
    "ENTRIES",
    "EXPLAINED_BY",
    "EXPLAIN_WORDS",
    "KINDS",
    "NEEDS_PARAMETERS",
    "ORDER_QUERIES",
    "ORDERS",
    "OWN_GROUNDINGS",
    "QUERY_OF",
    "SHAPES",
    "SINGLE_MODEL_QUERIES",
    "Entry",
    "ask_name",
    "by_ask",
    "get",
    "query_of",
]
