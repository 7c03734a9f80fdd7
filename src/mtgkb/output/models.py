"""The typed answers: pydantic models made from the registry's one
description of each kind of answer (mtgkb.rulebase.registry: `Entry.fields`,
`COMMON_FIELDS`, `SHAPES`), so that the classes, the JSON Schema and the
server's OpenAPI document cannot drift from the answers (a test validates
every answer of every scenario file against them).

One class per kind of question (`LegalAnswer`, `BlocksAnswer`, ...), named
after its kind; `UnsupportedAnswer` for a kind not built yet and
`UnansweredAnswer` for a question the rule base has no answer set for (exit
4); `Answer` is any of them; `RunResult` is what `mtgkb run --json` prints
for one file (and `mtgkb.run` returns), `RunError` a file that could not be
answered. The kinds of violation (`ViolationKind`) are those kb/messages.lp
(and any file added with `--with`) gives a message, read from the rule
base. The models forbid keys the description does not name and take values
as they are (strict).
"""

from __future__ import annotations

import keyword
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from mtgkb.output.envelope import SCHEMA_VERSION
from mtgkb.rulebase import registry
from mtgkb.rulebase import words as _words

STRICT = ConfigDict(extra="forbid", strict=True)
OPEN = ConfigDict(extra="allow", strict=True)

#: Every kind of violation the rule base declares (kb/messages.lp, the files added), sorted.
VIOLATION_KINDS: tuple[str, ...] = tuple(sorted(_words.messages("en")))
ViolationKind = Literal[VIOLATION_KINDS]  # type: ignore[valid-type]

SCALARS: dict[str, Any] = {"str": str, "int": int, "bool": bool, "null": None, "object": dict}


def class_name(kind: str) -> str:
    """`attack_targets` -> `AttackTargetsAnswer` (the registry names them)."""
    return registry.answer_class_name(kind)


def _split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == separator and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


class Types:
    """The Python types of the registry's type words, and the shape classes
    (made once each, on first use)."""

    def __init__(self) -> None:
        self.shapes: dict[str, type[BaseModel]] = {}

    def of(self, text: str) -> Any:
        options = [self.one(part) for part in _split(text, "|")]
        return options[0] if len(options) == 1 else Union[tuple(options)]  # noqa: UP007

    def one(self, text: str) -> Any:
        if text in SCALARS:
            return SCALARS[text]
        if text == "ViolationKind":
            return ViolationKind
        for head, make in (("list[", lambda t: list[t]), ("map[", lambda t: dict[str, t])):
            if text.startswith(head) and text.endswith("]"):
                return make(self.of(text[len(head) : -1]))
        if text in registry.SHAPES:
            return self.shape(text)
        raise ValueError(f"the registry names an unknown type {text!r}")

    def shape(self, name: str) -> type[BaseModel]:
        if name not in self.shapes:
            fields = registry.SHAPES[name]
            is_open = any(field == "..." for field, _, _ in fields)
            described = [f for f in fields if f[0] != "..."]
            doc = next((d for f, _, d in fields if f == "..."), None) or f"A {name.lower()}."
            self.shapes[name] = self.model(name, described, OPEN if is_open else STRICT, doc)
        return self.shapes[name]

    def model(self, name: str, fields, config: ConfigDict, doc: str, **fixed) -> type[BaseModel]:
        """A model of the described fields (and `fixed`: name -> (type, Field))."""
        made: dict[str, Any] = dict(fixed)
        for field, kind, meaning in fields:
            optional = field.endswith("?")
            key = field.rstrip("?")
            attribute = key + "_" if keyword.iskeyword(key) else key
            alias = {"alias": key} if attribute != key else {}
            if optional:
                made[attribute] = (self.of(kind), Field(None, description=meaning, **alias))
            else:
                made[attribute] = (self.of(kind), Field(description=meaning, **alias))
        return create_model(name, __config__=config, __doc__=doc, **made)


def _answer_models() -> tuple[dict[str, type[BaseModel]], type[BaseModel], type[BaseModel], Types]:
    types = Types()
    by_ask = {}
    for entry in registry.ENTRIES:
        ask = (Literal[entry.ask], Field(description="the kind of question answered"))
        by_ask[entry.ask] = types.model(
            class_name(entry.kind),
            [*entry.fields, *registry.COMMON_FIELDS],
            STRICT,
            f"The answer to `ask {entry.kind.replace('_', ' ')}`.",
            ask=ask,
        )
    asks = tuple(e.ask for e in registry.ENTRIES)
    unsupported = types.model(
        "UnsupportedAnswer",
        registry.SHAPES["Unsupported"],
        STRICT,
        "A question of a kind not answered yet.",
        ask=(Literal[asks], Field(description="the kind of question")),
    )
    # the parameters that name the question, as the kinds describe them
    named = {}
    for entry in registry.ENTRIES:
        described = {f.rstrip("?"): (t, d) for f, t, d in entry.fields}
        for parameter, _ in entry.asked:
            if parameter in described and parameter not in named:
                kind, meaning = described[parameter]
                named[parameter] = (parameter + "?", kind, meaning)
    unanswered = types.model(
        "UnansweredAnswer",
        [
            *named.values(),
            ("rules", "list[str]", "the rules of the statements that allow no answer set"),
            ("inconsistent", "list[Inconsistent]", "the statements that allow no answer set"),
        ],
        STRICT,
        "A question of a file the rule base has no answer set for (exit 4): "
        "what names the question, no value.",
        ask=(Literal[asks], Field(description="the kind of question")),
    )
    return by_ask, unsupported, unanswered, types


BY_ASK, UnsupportedAnswer, UnansweredAnswer, _TYPES = _answer_models()
Violation = _TYPES.shape("Violation")
Change = _TYPES.shape("Change")
Edit = _TYPES.shape("Edit")
Declaration = _TYPES.shape("Declaration")
Inconsistent = _TYPES.shape("Inconsistent")
Node = _TYPES.shape("Node")

Answer = Union[(*BY_ASK.values(), UnsupportedAnswer, UnansweredAnswer)]  # noqa: UP007


class RuleBase(BaseModel):
    """The rule base the answers came from."""

    model_config = STRICT
    path: str
    digest: str
    with_: list[str] | None = Field(None, alias="with")


class RunResult(BaseModel):
    """What `mtgkb run --json` prints for one answered file (and `mtgkb.run`
    returns): one answer per `ask`, in file order."""

    model_config = STRICT
    file: str
    answers: list[Answer]  # type: ignore[valid-type]
    schema_version: Literal[SCHEMA_VERSION] = Field(description="the version of this schema")
    cr_edition: str = Field(description="the edition (date) of the CR the rule base follows")
    rule_base: RuleBase | None = None


class RunError(BaseModel):
    """A file that could not be answered: unreadable input (with its place),
    a time-out or the memory bound."""

    model_config = STRICT
    file: str
    error: str = Field(description="FILE:LINE:COL: error: ..., or timeout, memory, internal")
    line: int | None = None
    column: int | None = None
    message: str | None = None
    path: str | None = Field(None, description="in a JSON game state: the JSON path at fault")
    schema_version: Literal[SCHEMA_VERSION]
    cr_edition: str
    rule_base: RuleBase | None = None


# each kind's class is a name of this module too (`mtgkb.output.models.LegalAnswer`)
globals().update({model.__name__: model for model in BY_ASK.values()})


def model_of(answer: dict) -> type[BaseModel]:
    """The class an answer (a dict) is an instance of: its kind's, or
    UnsupportedAnswer, or UnansweredAnswer."""
    if answer.get("supported") is False:
        return UnsupportedAnswer
    if any(item.get("no_answer_set") for item in answer.get("inconsistent", ())):
        return UnansweredAnswer
    return BY_ASK[answer["ask"]]


def typed(answer: dict) -> BaseModel:
    """The answer as an instance of its class (pydantic.ValidationError
    when it does not fit its description)."""
    return model_of(answer).model_validate(answer)


def typed_result(output: dict) -> RunResult | RunError:
    """One file's output (`mtgkb.run`, `mtgkb run --json`) as a RunResult or a
    RunError, each answer checked against its own class."""
    if "answers" not in output:
        return RunError.model_validate(output)
    for answer in output["answers"]:
        typed(answer)  # (a clear error: the union would report every class)
    return RunResult.model_validate(output)


def json_schema(ref_template: str = "#/$defs/{model}") -> dict:
    """The JSON Schema of an answered file (RunResult)."""
    return TypeAdapter(RunResult).json_schema(ref_template=ref_template)


def error_schema(ref_template: str = "#/$defs/{model}") -> dict:
    """The JSON Schema of a file that could not be answered (RunError)."""
    return TypeAdapter(RunError).json_schema(ref_template=ref_template)


#: The public classes, by name (the answers' classes, their shapes, the file's).
CLASSES: dict[str, Any] = {
    **{model.__name__: model for model in BY_ASK.values()},
    "UnsupportedAnswer": UnsupportedAnswer,
    "UnansweredAnswer": UnansweredAnswer,
    "Violation": Violation,
    "Change": Change,
    "Edit": Edit,
    "Declaration": Declaration,
    "Inconsistent": Inconsistent,
    "Node": Node,
    "RuleBase": RuleBase,
    "RunResult": RunResult,
    "RunError": RunError,
}

__all__ = [
    "BY_ASK",
    "CLASSES",
    "VIOLATION_KINDS",
    "Answer",
    "ViolationKind",
    "class_name",
    "error_schema",
    "json_schema",
    "model_of",
    "typed",
    "typed_result",
    *CLASSES,
]
