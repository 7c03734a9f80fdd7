"""Spec section 10 and issue 28: an explanation is read by a judge, so every
conclusion and fact in it is a sentence (kb/texts.lp, in English and
Italian), never an atom of the rule base such as `unit_rank("Rob",2)`; and
places are said counting from 1, as the CR counts them (101.4: the active
player chooses first).

The predicates that can reach an explanation are read from the rule base
(mtgkb.questions.explain.reach), not listed by hand; the audit fails on one
without its sentence."""

import io
import re
import shutil

import pytest
from helpers import ROOT, SHARED, needs_shared
from rich.console import Console

from mtgkb.audit.lint import unsaid_lint
from mtgkb.audit.sources import Base
from mtgkb.language.errors import ScenarioError
from mtgkb.output.text import print_result
from mtgkb.questions.explain.reach import explained_predicates, unsaid
from mtgkb.running.api import Answerer

#: An atom of the rule base: a name and an opening parenthesis (but the
#: plural marks of the sentences, "time(s)", "seat(s)").
INTERNAL_ATOM = re.compile(r"\b[a-z_][A-Za-z0-9_]*\((?!s\))")
#: A place counted from 0.
PLACE_ZERO = re.compile(r"\b(place|posto) 0\b")


def scenario_files() -> list:
    files = sorted(ROOT.glob("examples/*.mtg")) + sorted(ROOT.glob("bench/**/*.mtg"))
    if SHARED.is_dir():
        files += sorted(SHARED.rglob("*.mtg"))
    return files


def nodes(items):
    for item in items:
        yield item
        yield from nodes(item.get("because", []))


@pytest.fixture(scope="module")
def answerer():
    with Answerer() as a:
        yield a


def said(answerer, text: str, name: str, lang: str) -> tuple[list[str], str]:
    """The conclusions of the explanation of `text`, and the whole text answer."""
    out = answerer.run(text + "\nask explain\n", name, lang=lang)
    explanations = [a for a in out["answers"] if a.get("ask") == "explain"]
    assert explanations, name
    conclusions = [n["conclusion"] for a in explanations for n in nodes(a["tree"])]
    console = Console(file=io.StringIO(), width=200, highlight=False)
    print_result(console, out, lang)
    return conclusions, console.file.getvalue()


@needs_shared
@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.slow
def test_no_explanation_of_any_file_shows_an_atom_or_a_place_0(answerer, lang):
    files = scenario_files()
    assert len(files) > 30  # the examples, the bench and the conformance cases
    explained = 0
    for path in files:
        try:
            conclusions, text = said(answerer, path.read_text(encoding="utf-8"), str(path), lang)
        except ScenarioError:
            continue  # a case of bad input has no explanation
        explained += 1
        for line in conclusions:
            assert not INTERNAL_ATOM.search(line), (path.name, lang, line)
            assert not PLACE_ZERO.search(line), (path.name, lang, line)
        assert not INTERNAL_ATOM.search(text), (path.name, lang, text)
    assert explained > 30


def test_101_4_apnap_places_count_from_1(answerer):
    # CR 101.4: the active player (Alex) chooses first, then the others in
    # turn order: Carissa, then Rob (examples/01_apnap_sacrifice.mtg)
    text = (ROOT / "examples" / "01_apnap_sacrifice.mtg").read_text(encoding="utf-8")
    for lang, first, second in (
        ("en", "Alex has place 1 in APNAP order", "Carissa has place 2 in APNAP order"),
        ("it", "Alex ha il posto 1 nell'ordine APNAP", "Carissa ha il posto 2 nell'ordine APNAP"),
    ):
        conclusions, _ = said(answerer, text, "01", lang)
        assert first in conclusions and second in conclusions, lang
    conclusions, _ = said(answerer, text, "01", "en")
    assert "place 1 in APNAP order: Alex" in conclusions
    assert "Rob chooses alone" in conclusions  # 101.4: no shared team turns


def test_101_4d_restart_is_said_in_words(answerer):
    # CR 101.4d: a nonactive player's choice that makes an earlier player
    # choose starts the order again
    text = """players: Ann, Ben, Cat
active: Ann
each player sacrifices a creature
Ben's choice makes Ann choose
ask order
"""
    conclusions, _ = said(answerer, text, "restart", "en")
    assert "event 2: Ben's choice makes Ann choose" in conclusions
    assert any(c.startswith("after step 2, Ben's choice makes Ann") for c in conclusions)


def test_the_predicates_an_explanation_can_reach_are_read_from_the_rule_base():
    found = explained_predicates(ROOT)
    # roots (explain_root/2), because/2, rests_on/2 and the input facts
    assert {("order", 2), ("apnap_rank", 2), ("unit_rank", 2), ("turn", 3)} <= set(found)
    assert {("declared_block", 2), ("has", 2), ("game", 1)} <= set(found)
    assert ("seat", 2) not in found  # a quiet fact: no leaf
    assert unsaid(ROOT) == []


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_audit_fails_on_a_conclusion_without_its_sentence(tmp_path):
    for folder in ("rules", "kb", "queries"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    with open(tmp_path / "rules" / "102_players.lp", "a", encoding="utf-8") as f:
        f.write(
            "\n% 102.1: a conclusion with no sentence.\n"
            "mystery(P) :- player(P).\n"
            "% 102.1: named for an explanation.\n"
            'because(mystery(P), rule("102.1")) :- mystery(P).\n'
        )
    lines = (tmp_path / "rules" / "102_players.lp").read_text(encoding="utf-8").splitlines()
    where = f"rules/102_players.lp:{len(lines)}"
    found = unsaid_lint(Base.at(tmp_path))
    assert [(i["kind"], i["where"]) for i in found] == [("no-sentence", where)]
    assert "mystery/1" in found[0]["message"]
