"""CR editions from the official texts: with two or more `--cr FILE`s the audit
finds, for every rule of the index, where its text changed (a word diff) and
where it was renumbered (by matching the texts across editions), such as Life
moving from section 118 (up to 2019-06-12) to 119 (from 2019-07-12 on).
`mtgkb rules N --cr FILE` shows that edition's text beside our paraphrase.

The fixtures are the project's own: invented sentences in the official file
format (title line, "effective as of", numbered rules)."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT
from helpers.rule_base_copies import mtgkb

from mtgkb.audit.editions import edition_history, word_diff
from mtgkb.audit.render import to_text
from mtgkb.audit.report import audit
from mtgkb.rulebase.cr_text import read_cr
from mtgkb.rulebase.index import load_index

FIXTURES = ROOT / "tests" / "fixtures"
OLD = FIXTURES / "cr-2019-06-12.txt"
NEW = FIXTURES / "cr-2019-07-12.txt"


def test_fixtures_read_as_official_cr_files():
    old, new = read_cr(OLD), read_cr(NEW)
    assert (old.edition, new.edition) == ("2019-06-12", "2019-07-12")
    assert "118.4a" in old.texts and "119.4a" in new.texts and "118.3" in new.texts


def test_119_4a_and_the_life_rules_are_found_renumbered_from_118():
    history = edition_history([NEW, OLD], load_index())  # any order: sorted by date
    assert [e["edition"] for e in history["editions"]] == ["2019-06-12", "2019-07-12"]
    assert "118.4a (2019-06-12) is 119.4a (2019-07-12)" in history["renumbered"]
    assert "118.3 (2019-06-12) is 119.3 (2019-07-12)" in history["renumbered"]
    assert "119.3 (2019-06-12) is 120.3 (2019-07-12)" in history["renumbered"]
    # today's 118.3 (costs) is new in 2019-07-12: the old 118.3 is another rule
    costs = next(r for r in history["rules"] if r["id"] == "118.3")
    assert costs["changes"] == [{"edition": "2019-07-12", "new": "118.3"}]
    # the index's aliases say the same: no warning
    assert history["warnings"] == []


def test_119_4a_and_702_9b_word_diffs_name_the_words_that_changed():
    history = edition_history([OLD, NEW], load_index())
    by_id = {r["id"]: r["changes"] for r in history["rules"]}
    (change,) = by_id["119.4a"]
    assert change["renumbered"] == {"from": "118.4a", "to": "119.4a"}
    assert "[-pooled-] {+combined+}" in change["diff"]
    (change,) = by_id["702.9b"]
    assert "renumbered" not in change and "[-themselves-] {+as well+}" in change["diff"]
    # an unchanged rule has no diff
    assert all("diff" not in c for c in by_id["119.2"])


def test_word_diff_keeps_only_words_around_the_change():
    old = "one two three four five six seven eight nine ten"
    new = "one two three four five SIX seven eight nine ten"
    assert word_diff(old, new, context=2) == "… four five [-six-] {+SIX+} seven eight …"


def test_119_a_renumbering_missing_from_the_index_is_a_warning(tmp_path):
    text = (ROOT / "kb" / "rule_index.lp").read_text(encoding="utf-8")
    index = tmp_path / "rule_index.lp"
    index.write_text(
        "\n".join(
            line for line in text.splitlines() if not line.startswith('older_number("118.4a"')
        )
    )
    history = edition_history([OLD, NEW], load_index(index))
    (warning,) = history["warnings"]
    assert warning["kind"] == "renumbering-not-in-index" and warning["rule"] == "119.4a"


@pytest.mark.slow
def test_119_audit_with_two_editions_reports_the_renumbering():
    report = audit(ROOT, [OLD, NEW], corpus=[], expected=False)
    assert "118.4a (2019-06-12) is 119.4a (2019-07-12)" in report["history"]["renumbered"]
    text = to_text(report)
    assert "editions compared: 2019-06-12, 2019-07-12" in text
    assert "118.4a (2019-06-12) is 119.4a (2019-07-12)" in text


def test_119_4a_rules_with_cr_shows_that_editions_text_beside_ours():
    status, out, _ = mtgkb("rules", "119.4a", "--cr", str(OLD))
    assert status == 0
    assert "118.4a in cr-2019-06-12.txt (2019-06-12):" in out
    assert "pooled score of the partners" in out and "our paraphrase:" in out
    status, out, _ = mtgkb("rules", "119.4a", "--cr", str(NEW), "--json")
    data = json.loads(out)["cr_text"]
    assert data["number"] == "119.4a" and data["edition"] == "2019-07-12"
    assert "combined score" in data["text"]


def test_the_glossary_after_the_rules_belongs_to_no_rule():
    new = read_cr(NEW)
    assert "Vitality" not in new.texts["702.9b"]
    assert new.texts["702.9b"].endswith("can reach upward.")
