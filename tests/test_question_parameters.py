"""A question's parameters are checked against the types its registry entry
declares (mtgkb.rulebase.registry, Entry.asked), so a new kind of question
has its players and creatures checked without any change to mtgkb.language:
an unknown name is bad input (exit 2, FILE:LINE:COL)."""

from dataclasses import replace
from types import MappingProxyType

import pytest

from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import read_text
from mtgkb.language.validate import validate
from mtgkb.rulebase import registry

TABLE = 'players: Ann, Ben\nAnn controls land "Swamp"\nask actions for Ann\n'


def asking(monkeypatch, kind: str, asked: tuple, **params):
    """The table with its question turned into a new kind, registered with
    these parameter types, its parameters written where `Ann` is."""
    entry = registry.Entry(kind, kind, kind, "nowhere:answer", kind, asked=asked)
    monkeypatch.setattr(registry, "BY_KIND", MappingProxyType({**registry.BY_KIND, kind: entry}))
    sc = read_text(TABLE, "t.mtg")
    question = sc.questions[0]
    written = question.positions["player"]
    made = replace(question, kind=kind, params=params, positions={p: written for p in params})
    return replace(sc, questions=[made])


def test_a_new_questions_unknown_player_is_bad_input(monkeypatch):
    sc = asking(monkeypatch, "opponents", (("player", "player"),), player="Zed")
    with pytest.raises(ScenarioError) as caught:
        validate(sc)
    assert (caught.value.line, caught.value.column) == (3, 17)
    assert "unknown player Zed" in caught.value.message
    validate(asking(monkeypatch, "opponents", (("player", "player"),), player="Ben"))


def test_a_new_questions_creature_must_be_a_creature(monkeypatch):
    sc = asking(monkeypatch, "power_of", (("creature", "creature"),), creature="Swamp")
    with pytest.raises(ScenarioError) as caught:
        validate(sc)
    assert '"Swamp" is a land, not a creature' in caught.value.message


def test_a_number_parameter_names_nothing(monkeypatch):
    validate(asking(monkeypatch, "life_of", (("amount", "number"),), amount=3))
