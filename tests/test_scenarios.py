"""The bundled examples and the shared conformance cases, answered in process
and compared with their expected answers (exit status, answers, cited rules)."""

import json
from pathlib import Path

import pytest
from helpers import CONFORMANCE, ROOT
from helpers.answering import engine
from helpers.expectations import problems

from mtgkb.running.runner import answer_text


def cases(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.mtg") if p.with_suffix(".expected.json").exists())


def check(mtg: Path) -> None:
    expected = json.loads(mtg.with_suffix(".expected.json").read_text(encoding="utf-8"))
    result = answer_text(mtg.read_bytes(), str(mtg), engine=engine())
    assert result.status == expected.get("exit", 0), result.error or result.output
    if result.status == 2:
        line = expected.get("error_line")
        assert line is None or f":{line}:" in result.error
        return
    answers = result.output["answers"]
    for i, want in enumerate(expected.get("answers", [])):
        got = answers[i]
        assert got.get("supported") is not False, f"answer {i + 1} is not built: {got}"
        assert not problems(want, got), f"answer {i + 1}: {problems(want, got)}"


@pytest.mark.parametrize("mtg", cases(ROOT / "examples"), ids=lambda p: p.name)
def test_example_answers_as_expected(mtg):
    check(mtg)


@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason="../shared is not beside this checkout")
@pytest.mark.parametrize("mtg", cases(CONFORMANCE), ids=lambda p: p.name)
def test_shared_conformance_case(mtg):
    check(mtg)


def test_examples_exist_and_each_has_an_expectation():
    mtgs = sorted((ROOT / "examples").glob("*.mtg"))
    assert len(mtgs) >= 4
    assert all(m.with_suffix(".expected.json").exists() for m in mtgs)
