"""docs/language.md, the language reference that ships with the project:
every example of a block marked `mtg` parses, every kind of statement
and question of the grammar has an example there (every ability of the
vocabulary too: tests/test_vocabulary.py), and the examples
of the newer sections (blocks marked `mtg pending`) count as soon as the
grammar accepts them, so the test tightens as the grammar grows."""

from __future__ import annotations

import re

import pytest
from helpers import CONFORMANCE, ROOT
from lark.exceptions import LarkError

from mtgkb.language.parser import grammar

DOC = ROOT / "docs" / "language.md"
BLOCK = re.compile(r"^```(mtg(?: pending)?)\n(.*?)^```", re.M | re.S)
#: The grammar rules whose alternatives are the kinds a reader must find documented.
#: (Abilities are phrases of the vocabulary: tests/test_vocabulary.py checks them.)
KIND_RULES = ("statement", "object_spec", "each_player", "question")


def examples() -> list[tuple[str, bool]]:
    """Every example line of the doc, and whether it is marked pending."""
    out = []
    for info, body in BLOCK.findall(DOC.read_text(encoding="utf-8")):
        for line in body.splitlines():
            if line.split("#", 1)[0].strip():
                out.append((line, info == "mtg pending"))
    return out


def kinds_of(line: str) -> set[str] | None:
    """The grammar rules and aliases one line parses into; None when it does not parse."""
    try:
        tree = grammar().parse(line + "\n")
    except LarkError:
        return None
    return {t.data for t in tree.iter_subtrees()}


def grammar_kinds() -> set[str]:
    """Each alternative of the kind rules: its alias, or the rule it names."""
    kinds = set()
    for rule in grammar().rules:
        if rule.origin.name not in KIND_RULES:
            continue
        if rule.alias:
            kinds.add(rule.alias)
        elif len(rule.expansion) == 1 and not rule.expansion[0].is_term:
            kinds.add(rule.expansion[0].name)
    return kinds - set(KIND_RULES)  # (their own alternatives are the kinds)


def test_the_doc_has_examples_of_sections_1_to_10():
    text = DOC.read_text(encoding="utf-8")
    for n in range(1, 11):
        assert re.search(rf"^## {n}\. ", text, re.M), f"section {n} is missing"
    assert len(examples()) > 100


@pytest.mark.parametrize("line", [line for line, pending in examples() if not pending])
def test_every_example_parses(line):
    assert kinds_of(line) is not None, f"does not parse: {line}"


def test_every_kind_of_the_grammar_has_an_example():
    covered: set[str] = set()
    for line, _ in examples():
        covered |= kinds_of(line) or set()
    missing = sorted(grammar_kinds() - covered)
    assert missing == [], f"kinds of the grammar with no example in docs/language.md: {missing}"


def test_pending_examples_that_parse_are_real_statements():
    """A pending example the grammar accepts already counts above; one it
    does not accept yet must at least be a line of the form of a statement."""
    for line, pending in examples():
        if pending and kinds_of(line) is None:
            assert re.match(r"^(ask |[A-Za-z\"])", line), line


@pytest.mark.skipif(not CONFORMANCE.parent.is_dir(), reason="../shared is not beside this checkout")
def test_the_doc_copies_no_run_of_eight_words_of_the_cr():
    reference = CONFORMANCE.parent / "reference"
    cr = " ".join(
        " ".join(p.read_text(encoding="utf-8").split()) for p in reference.glob("*.txt")
    ).lower()
    words = re.sub(r"[`|*]", " ", DOC.read_text(encoding="utf-8")).lower().split()
    copied = [" ".join(words[i : i + 8]) for i in range(len(words) - 7)]
    assert [run for run in copied if run in cr] == []


def question_table_rows() -> list[str]:
    """The first cells of the table of section 5 (the questions)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## 5. Questions", 1)[1].split("\n## ", 1)[0]
    return [line.split("|")[1] for line in section.splitlines() if line.startswith("| `ask")]


def test_the_question_table_has_a_row_for_every_kind_of_the_registry():
    """Section 5's table names every kind of question (the registry's, as the
    grammar writes it): a row's first cell parses as an `ask` of that kind
    once its placeholders are filled in."""
    from mtgkb.rulebase import registry

    filled = {"P": "Alex", '"C"': '"Bear"', "N": "3", "PLAY": '"Bear" attacks Alex'}
    documented = set()
    for cell in question_table_rows():
        for written in re.findall(r"`(ask [^`]*)`", cell):
            line = re.sub(r"\[[^\]]*\]", "", written)  # optional parts left out
            line = " ".join(filled.get(word, word) for word in line.split())
            documented |= {k[2:] for k in kinds_of(line) or () if k.startswith("q_")}
            if "pay" in line.split():
                documented.add("pay")
    kinds = {entry.kind for entry in registry.ENTRIES}
    assert kinds - documented == set(), "kinds of question missing from the table of section 5"
