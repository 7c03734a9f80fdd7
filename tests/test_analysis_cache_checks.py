"""The check that lets a cached slicing analysis be read at all
(mtgkb.engine.analysis_cache.sound_statements): every description of a
statement read back from the cache has each field of its type, every
pattern its shape, or the cache is not used (and the analysis is worked out
again: tests/test_analysis_cache.py). Here each field is damaged in turn,
in one statement of many, on the descriptions `analyse` makes."""

from __future__ import annotations

import pytest

from mtgkb.engine.analysis import UNKNOWN, analyse
from mtgkb.engine.analysis_cache import sound_statements

TEXT = """\
deadly(C) :- has(C, deathtouch), creature(C).
lethal(C) :- deadly(C), blocked(C).
{ chosen(C, first) } :- creature(C).
"""
SOURCE = TEXT.encode("utf-8")


def _described() -> list[dict]:
    return analyse(TEXT)


def _damaged(field: str, value) -> list[dict]:
    statements = _described()
    statements[1] = dict(statements[1], **{field: value})
    return statements


def test_the_descriptions_analyse_makes_are_sound():
    described = _described()
    assert sound_statements(described, SOURCE)
    # (the statement damaged below, `deadly`, has every field there is to damage)
    deadly = described[1]
    assert deadly["heads"] == [("deadly", 1, None)]
    assert ("has", 2, ((1, "deathtouch", "deathtouch/0"),)) in deadly["fixed_needs"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("heads", [("lethal", "1", None)]),  # an arity that is no number
        ("heads", [(7, 1, None)]),  # a name that is no text
        ("heads", [("lethal", 1)]),  # two fields, not three
        ("heads", [("lethal", 1, 5)]),  # a first argument that is no text
        ("heads", [("lethal", True, None)]),  # a truth value is no arity
        ("heads", ["lethal"]),  # no pattern at all
        ("needs", [("deadly", 1, None), ("blocked", 1, b"C")]),
        ("fixed_needs", [("has", 2, ((2, "deathtouch"),))]),  # a fixed value with no shape
        ("fixed_needs", [("has", 2, ((2, "deathtouch", 3),))]),  # a shape that is no text
        ("fixed_needs", [("has", 2, (("2", "deathtouch", "c"),))]),  # a position that is no number
        ("fixed_needs", [("has", 2, None)]),  # no fixed values at all
        ("fixed_needs", [UNKNOWN]),  # a fixed need must be readable
        ("fixed_heads", [("lethal", 1, ((1, 5, "c"),))]),  # a value that is no text
        ("fwd_heads", [("lethal", 1)]),  # names are texts
        ("root", 1),  # flags are truth values
        ("needs", ("deadly", 1, None)),  # lists, not a tuple
    ],
)
def test_a_damaged_field_makes_the_descriptions_unsound(field, value):
    assert not sound_statements(_damaged(field, value), SOURCE)


def test_the_unknown_atom_is_a_pattern_a_head_or_a_need_may_be():
    assert sound_statements(_damaged("heads", [UNKNOWN]), SOURCE)
    assert sound_statements(_damaged("needs", [UNKNOWN, ("deadly", 1, None)]), SOURCE)


def _rekeyed(change) -> list[dict]:
    statements = _described()
    statements[1] = change(dict(statements[1]))
    return statements


@pytest.mark.parametrize(
    "change",
    [
        lambda d: {k: v for k, v in d.items() if k != "needs"},  # a field missing
        lambda d: {**d, "extra": []},  # a field too many
        lambda d: {("needed" if k == "needs" else k): v for k, v in d.items()},  # one renamed
    ],
    ids=["missing", "extra", "renamed"],
)
def test_a_description_without_exactly_its_fields_is_unsound(change):
    # (a missing field may also be found by the field read raising KeyError,
    # which the cache's reader takes as unsound: either way, not used)
    try:
        sound = sound_statements(_rekeyed(change), SOURCE)
    except KeyError:
        sound = False
    assert not sound
