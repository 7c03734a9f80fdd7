"""`ask outcome` judges the file's declared play (spec, section 11) with the
very model `ask legal` gives: a file's single-model queries are solved once
per query and facts (`Session.solved`), and a batch solves the judged play
ahead with the rest (`answers.single_model_solves`). Issue 11: this was a
third grounding per batch file (70 -> 47 ms per scenario).

The rule that decides: 702.9b (a creature with flying can't be blocked
except by creatures with flying or reach)."""

from __future__ import annotations

import sys

import pytest
from helpers import ROOT

from mtgkb.engine.state import Engine, Options
from mtgkb.questions import answers
from mtgkb.questions.answers import Limits
from mtgkb.running import batch
from mtgkb.running.runner import NO_LIMITS, answer_text

ILLEGAL = (
    "players: Ann, Ben\n"
    'Ann controls creature "Serra Angel" 4/4 with flying\n'
    'Ben controls creature "Grizzly Bears" 2/2\n'
    '"Serra Angel" attacks Ben\n"Grizzly Bears" blocks "Serra Angel"\ncombat damage\n'
)


@pytest.fixture()
def solves(monkeypatch) -> list[str]:
    """The queries solved one scenario at a time, in order."""
    made: list[str] = []
    original = answers._solve_single
    monkeypatch.setattr(
        answers, "_solve_single", lambda q, *a, **k: made.append(q) or original(q, *a, **k)
    )
    return made


def _by_ask(result) -> dict[str, dict]:
    return {a["ask"]: a for a in result.output["answers"]}


@pytest.mark.parametrize("order", [("legal", "outcome"), ("outcome", "legal")])
def test_ask_outcome_judges_the_play_with_the_model_ask_legal_gave(solves, order):
    text = ILLEGAL + "".join(f"ask {q}\n" for q in order)
    got = _by_ask(answer_text(text, "t.mtg", engine=Engine()))
    assert got["legal"]["legal"] is False
    assert got["outcome"]["illegal_play"] is True
    assert got["outcome"]["violations"] == got["legal"]["violations"]
    assert {v["rule"] for v in got["legal"]["violations"]} == {"702.9b"}
    assert sorted(solves) == ["legal", "outcome"]  # legal once, not once more for outcome


def test_without_ask_legal_outcome_still_judges_the_play(solves):
    got = _by_ask(answer_text(ILLEGAL + "ask outcome\n", "t.mtg", engine=Engine()))
    assert got["outcome"]["illegal_play"] is True
    assert "702.9b" in got["outcome"]["rules"]
    assert sorted(solves) == ["legal", "outcome"]


def test_a_batch_solves_the_judged_play_ahead(solves, tmp_path):
    # enough files for the chunk to be solved at once (batch.COMBINE_FROM)
    paths = []
    for i in range(batch.COMBINE_FROM):
        path = tmp_path / f"f{i}.mtg"
        path.write_text(ILLEGAL + ("ask outcome\n" if i % 2 else "ask legal\nask outcome\n"))
        paths.append(str(path))
    results = list(batch.answer_files(paths, NO_LIMITS, engine=Engine()))
    for result in results:
        outcome = _by_ask(result)["outcome"]
        assert outcome["illegal_play"] is True
        assert "702.9b" in outcome["rules"]
    assert solves == []  # every legal and outcome model came from the chunk's one solve


def test_a_large_file_shares_one_grounding_between_legal_and_outcome():
    # with forward slicing by values, sharing pays for large files too
    # (bench: 8 players x 50 creatures, 102 -> 92 ms warm); the answers are
    # those of a grounding per question
    sys.path.insert(0, str(ROOT))
    from bench.generate import scale

    text = scale(creatures=25, players=8)  # about 1,100 facts
    counts, outputs = [], []
    for share in (True, False):
        engine = Engine(Options.from_env().but(share=share))
        before = engine.rule_base().controls
        outputs.append(answer_text(text, "game.mtg", Limits(), engine=engine).output)
        counts.append(engine.rule_base().controls - before)
    assert outputs[0] == outputs[1]
    assert outputs[0]["answers"][0]["rules"]  # the rules that decide it are named
    assert counts[0] < counts[1]


@pytest.mark.parametrize(
    "play", [ILLEGAL, ILLEGAL.replace('"Grizzly Bears" blocks "Serra Angel"\n', "")]
)
def test_ask_outcome_alone_judges_the_play_in_its_own_grounding(play):
    # `ask outcome` without `ask legal` solves legal on the same facts: the
    # two share one grounding (legal's with its asked/1 off), and the answer
    # is that of a grounding per query
    outputs, counts = [], []
    for share in (True, False):
        engine = Engine(Options.from_env().but(share=share))
        before = engine.rule_base().controls
        outputs.append(answer_text(play + "ask outcome\n", "t.mtg", engine=engine).output)
        counts.append(engine.rule_base().controls - before)
    assert outputs[0] == outputs[1]
    outcome = outputs[0]["answers"][0]
    if "blocks" in play:
        assert outcome["illegal_play"] is True
        assert "702.9b" in outcome["rules"]
    else:
        assert outcome["life"]["Ben"] == 16  # 120.3a: Serra Angel's 4 damage, unblocked
        assert "120.3a" in outcome["rules"]
    assert counts == [1, 2]
