"""Forward and backward slicing remember their answers (`live`, `needed`):
the files of a batch or of a server's requests are alike in everything
slicing reads, and ask the same again and again. What is remembered is
what a fresh program works out, whatever a caller does with the list it
got, for each question apart, and for the newest LIVE_MEMO questions only."""

from __future__ import annotations

import clingo

from mtgkb.engine import analysis as slicing
from mtgkb.engine.analysis import Analysis, analyse

RULES = """\
deadly(C) :- has(C, deathtouch).
healing(C) :- has(C, lifelink).
lethal(C) :- deadly(C), blocked(C).
shown(C) :- lethal(C).
#show shown/1.
"""
QUERY = "#show shown/1.\n"


def _analysis() -> Analysis:
    data = {
        "base": analyse(RULES),
        "queries": {"q": analyse(QUERY)},
        "guardable": {"q": True},
        "definitions": {"q": {}},
    }
    return Analysis(data, RULES.encode("utf-8"))


def _sources(analysis: Analysis, *facts: str) -> dict:
    return analysis.sources([clingo.parse_term(f) for f in facts])


def _texts(analysis: Analysis, indices: list[int]) -> list[str]:
    return analysis.program(indices).splitlines()


def test_a_question_asked_again_gets_what_a_fresh_program_works_out():
    remembered = _analysis()
    every = list(range(len(remembered.base)))
    deathtouch = ('has("Bear", deathtouch)', 'blocked("Bear")')
    lifelink = ('has("Bear", lifelink)',)
    first = remembered.live(every, _sources(remembered, *deathtouch))
    first.clear()  # (a caller's list is its own)
    again = remembered.live(every, _sources(remembered, *deathtouch))
    fresh = _analysis()
    assert again == fresh.live(every, _sources(fresh, *deathtouch))
    assert "lethal(C) :- deadly(C), blocked(C)." in _texts(remembered, again)
    # another question is not answered from the first one's answer
    other = remembered.live(every, _sources(remembered, *lifelink))
    assert "deadly(C) :- has(C, deathtouch)." not in _texts(remembered, other)
    assert "healing(C) :- has(C, lifelink)." in _texts(remembered, other)


def test_backward_after_forward_is_remembered_per_question():
    analysis = _analysis()
    every = list(range(len(analysis.base)))
    fired = analysis.live(every, _sources(analysis, 'has("Bear", deathtouch)', 'blocked("Bear")'))
    needed = analysis.needed(("q",), fired)
    needed.append(99)  # (a caller's list is its own)
    kept = _texts(analysis, analysis.needed(("q",), fired))
    # what `shown` rests on stays; `healing` (no reader, not shown) goes
    assert "lethal(C) :- deadly(C), blocked(C)." in kept
    assert "healing(C) :- has(C, lifelink)." not in kept


def test_only_the_newest_questions_are_remembered(monkeypatch):
    monkeypatch.setattr(slicing, "LIVE_MEMO", 3)
    analysis = _analysis()
    every = list(range(len(analysis.base)))
    for n in range(10):
        analysis.live(every, _sources(analysis, f'has("Bear", ability{n})'))
        analysis.needed(("q",), every[: n % 4 + 1])
    assert len(analysis._live_of) == 3
    assert len(analysis._needed_of) == 3
