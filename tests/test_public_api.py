"""The public Python API (issue 27, item 3): `mtgkb.__all__` names it,
`mtgkb.ScenarioError` and `mtgkb.SolveTimeout` come from the package itself,
and `mtgkb.run_many` answers many scenarios in input order, an unreadable or
stopped one giving its own error without stopping the others."""

from __future__ import annotations

import os

import pytest
from helpers import ILLEGAL_BLOCK_PLAY, much_work

import mtgkb

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool forks its workers")

ILLEGAL_BLOCK = ILLEGAL_BLOCK_PLAY + "ask legal\n"
# 802.4a: the same play with the Grizzly Bears blocking the Runeclaw Bear,
# which attacks Alex, its controller: legal
LEGAL_BLOCK = ILLEGAL_BLOCK.replace(
    '"Grizzly Bears" blocks "Hill Giant"', '"Grizzly Bears" blocks "Runeclaw Bear"'
)
UNREADABLE = "players: Rob, Alex\nRob controls creature\n"


def test_the_public_names_are_listed_and_importable_from_the_package():
    from mtgkb import Answerer, Outcome, ScenarioError, SolveTimeout, UsageError, run, run_many
    from mtgkb.engine.solve import SolveTimeout as solve_timeout
    from mtgkb.language.errors import ScenarioError as scenario_error

    assert {"run", "run_many", "Answerer", "Outcome", "ScenarioError", "SolveTimeout"} <= set(
        mtgkb.__all__
    )
    for name in mtgkb.__all__:
        assert getattr(mtgkb, name) is not None
    assert ScenarioError is scenario_error and SolveTimeout is solve_timeout
    assert issubclass(UsageError, ValueError)
    assert callable(run) and callable(run_many) and isinstance(Answerer, type)
    assert isinstance(Outcome, type)
    with pytest.raises(AttributeError):
        mtgkb.no_such_name  # noqa: B018


def test_802_4a_run_many_answers_in_input_order_with_each_error_in_its_place():
    seen = []

    def scenarios():  # read lazily, one at a time
        for item in (
            ("illegal.mtg", ILLEGAL_BLOCK),
            UNREADABLE,
            ("legal.mtg", LEGAL_BLOCK.encode("utf-8")),
        ):
            seen.append(item)
            yield item

    outcomes = list(mtgkb.run_many(scenarios(), workers=2))
    assert len(seen) == 3
    illegal, unreadable, legal = outcomes
    assert illegal.name == "illegal.mtg" and illegal.ok
    (verdict,) = illegal.answer["answers"]
    assert verdict["legal"] is False and "802.4a" in verdict["rules"]
    assert not unreadable.ok and isinstance(unreadable.error, mtgkb.ScenarioError)
    assert unreadable.error.line == 2
    with pytest.raises(mtgkb.ScenarioError):
        unreadable.result()
    assert legal.name == "legal.mtg"
    (verdict,) = legal.result()["answers"]
    assert verdict["legal"] is True


def test_run_many_gives_a_time_out_as_that_scenario_s_error_and_goes_on(tmp_path):
    path = tmp_path / "illegal.mtg"
    path.write_text(ILLEGAL_BLOCK, encoding="utf-8")
    # the one time-out is each scenario's: long enough for the illegal block
    # on a loaded machine (it failed at 0.5 s with the load at 6 on 2 cores),
    # far too short for much_work's pigeonhole proof at any speed
    stopped, answered = mtgkb.run_many([much_work(), path], timeout=3, max_models=10**9)
    assert isinstance(stopped.error, mtgkb.SolveTimeout)
    assert answered.name == str(path) and answered.answer["answers"][0]["legal"] is False


def test_run_many_checks_its_bounds_first():
    with pytest.raises(mtgkb.UsageError):
        list(mtgkb.run_many([ILLEGAL_BLOCK], timeout=-1))
    with pytest.raises(TypeError):
        list(mtgkb.run_many([42]))


def test_802_4a_run_many_answers_together_what_each_answers_alone(monkeypatch):
    # without a time-out, TOGETHER scenarios at a time as one chunk; each
    # answer the one it gets alone, the unreadable one's error with its line
    from mtgkb.running import api

    chunks = []
    together = api.Answerer.run_together

    def counted(self, named, *args, **kwargs):
        chunks.append(len(named))
        return together(self, named, *args, **kwargs)

    def alone(answerer, name, text):
        try:
            return answerer.run(text, name, lang="it"), None
        except mtgkb.ScenarioError as err:
            return None, (type(err), str(err), err.line)

    monkeypatch.setattr(api.Answerer, "run_together", counted)
    scenarios = [ILLEGAL_BLOCK, LEGAL_BLOCK, UNREADABLE] * 3 + [("last.mtg", ILLEGAL_BLOCK)]
    texts = [s if isinstance(s, str) else s[1] for s in scenarios]
    with mtgkb.Answerer() as answerer:
        many = list(mtgkb.run_many(scenarios, lang="it", answerer=answerer))
        expected = [alone(answerer, o.name, t) for o, t in zip(many, texts, strict=True)]
    assert chunks == [api.TOGETHER, len(scenarios) - api.TOGETHER]
    got = [(o.answer, o.error and (type(o.error), str(o.error), o.error.line)) for o in many]
    assert got == expected
    illegal, legal, unreadable = many[:3]
    assert illegal.answer["answers"][0]["legal"] is False
    assert illegal.answer["answers"][0]["rules"] == ["802.4a", "802.4b"]
    assert legal.answer["answers"][0]["legal"] is True
    assert isinstance(unreadable.error, mtgkb.ScenarioError) and unreadable.error.line == 2
    assert many[-1].name == "last.mtg" and many[-1].answer["answers"][0]["legal"] is False


def test_802_4a_an_answerer_in_this_process_answers_with_the_collector_deferred(monkeypatch):
    # MTGKB_POOL=0: answered in the caller's process, as a worker answers
    # (mtgkb.rulebase.collector), the caller's threshold restored after
    import gc

    from mtgkb.rulebase.collector import COLLECTION_THRESHOLD
    from mtgkb.running import api, batch

    monkeypatch.setenv("MTGKB_POOL", "0")
    seen = []
    one, many = api.answer_text, batch.answer_group

    def answer_text(*args, **kwargs):
        seen.append(gc.get_threshold()[0])
        return one(*args, **kwargs)

    def answer_group(*args, **kwargs):
        seen.append(gc.get_threshold()[0])
        return many(*args, **kwargs)

    monkeypatch.setattr(api, "answer_text", answer_text)
    monkeypatch.setattr(batch, "answer_group", answer_group)
    kept = gc.get_threshold()
    gc.set_threshold(700, *kept[1:])
    try:
        with mtgkb.Answerer() as answerer:
            assert answerer.pool is None
            alone = answerer.run(ILLEGAL_BLOCK)
            together = answerer.run_together([("a", ILLEGAL_BLOCK), ("b", LEGAL_BLOCK)])
        assert gc.get_threshold()[0] == 700
    finally:
        gc.set_threshold(*kept)
    assert seen == [COLLECTION_THRESHOLD, COLLECTION_THRESHOLD]
    assert alone["answers"][0]["legal"] is False
    assert alone["answers"][0]["rules"] == ["802.4a", "802.4b"]
    assert [r.output["answers"][0]["legal"] for r in together] == [False, True]
