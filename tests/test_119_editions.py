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
    # the June file says the date it takes effect, the 14th; the index names
    # that edition by the 12th (mtgkb.rulebase.index.index_edition pairs them)
    assert (old.edition, new.edition) == ("2019-06-14", "2019-07-12")
    assert "118.4a" in old.texts and "119.4a" in new.texts and "118.3" in new.texts


def test_119_4a_and_the_life_rules_are_found_renumbered_from_118():
    history = edition_history([NEW, OLD], load_index())  # any order: sorted by date
    assert [e["edition"] for e in history["editions"]] == ["2019-06-14", "2019-07-12"]
    assert [e["index_edition"] for e in history["editions"]] == ["2019-06-12", "2019-07-12"]
    assert "118.4a (2019-06-12) is 119.4a (2019-07-12)" in history["renumbered"]
    assert "118.3 (2019-06-12) is 119.3 (2019-07-12)" in history["renumbered"]
    assert "119.3 (2019-06-12) is 120.3 (2019-07-12)" in history["renumbered"]
    # today's 118.3 (costs) is new in 2019-07-12: the old 118.3 is another rule
    costs = next(r for r in history["rules"] if r["id"] == "118.3")
    assert costs["changes"] == [{"edition": "2019-07-12", "new": "118.3"}]
    # letter for letter (118.1d Brawl is 119.1d, 118.1e Archenemy 119.1e), as
    # the index's aliases say: nothing to warn of
    assert "118.1d (2019-06-12) is 119.1d (2019-07-12)" in history["renumbered"]
    assert "118.1e (2019-06-12) is 119.1e (2019-07-12)" in history["renumbered"]
    assert history["warnings"] == []


def test_119_1e_an_alias_the_texts_contradict_is_an_older_number_mismatch(tmp_path):
    """The index once said the older 118.1d (Brawl) is today's 119.1e
    (Archenemy): the 2019 texts pair 118.1d with 119.1d, so the alias is flagged."""
    text = (ROOT / "kb" / "rule_index.lp").read_text(encoding="utf-8")
    wrong = [
        line
        for line in text.splitlines()
        if not line.startswith(('older_number("118.1d"', 'older_number("118.1e"'))
    ]
    wrong.append('older_number("118.1d","2019-06-12","2019-07-12","119.1e").')
    index = tmp_path / "rule_index.lp"
    index.write_text("\n".join(wrong) + "\n", encoding="utf-8")
    history = edition_history([OLD, NEW], load_index(index))
    (warning,) = [w for w in history["warnings"] if w["kind"] == "older-number-mismatch"]
    assert warning["rule"] == "119.1e"
    assert "118.1d (2019-06-12) is 119.1e (2019-07-12)" in warning["message"]
    assert "119.1d's" in warning["message"]


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
    (warning,) = [w for w in history["warnings"] if w["rule"] == "119.4a"]
    assert warning["kind"] == "renumbering-not-in-index" and warning["rule"] == "119.4a"


@pytest.mark.slow
def test_119_audit_with_two_editions_reports_the_renumbering():
    report = audit(ROOT, [OLD, NEW], corpus=[], expected=False)
    assert "118.4a (2019-06-12) is 119.4a (2019-07-12)" in report["history"]["renumbered"]
    text = to_text(report)
    assert "editions compared: 2019-06-14 (the index's 2019-06-12), 2019-07-12" in text
    assert "118.4a (2019-06-12) is 119.4a (2019-07-12)" in text


def test_119_4a_rules_with_cr_shows_that_editions_text_beside_ours():
    status, out, _ = mtgkb("rules", "119.4a", "--cr", str(OLD))
    assert status == 0
    assert "118.4a in cr-2019-06-12.txt (2019-06-14):" in out
    assert "pooled score of the partners" in out and "our paraphrase:" in out
    status, out, _ = mtgkb("rules", "119.4a", "--cr", str(NEW), "--json")
    data = json.loads(out)["cr_text"]
    assert data["number"] == "119.4a" and data["edition"] == "2019-07-12"
    assert "combined score" in data["text"]


def test_the_glossary_after_the_rules_belongs_to_no_rule():
    new = read_cr(NEW)
    assert "Vitality" not in new.texts["702.9b"]
    assert new.texts["702.9b"].endswith("can reach upward.")


LATER = FIXTURES / "cr-2026-01-16.txt"


def test_119_1_the_2019_renumbering_pairs_by_number_history_and_leaves_103_3_alone():
    """In 2019-07-12 Life moved from 118 to 119 (118.1 is 119.1, 118.4a is 119.4a)
    while 103.3, a rule about starting life too, kept its number: the texts of
    103.3 and 119.1 are alike, but 103.3 is no one's predecessor."""
    history = edition_history([OLD, NEW], load_index())
    assert "118.1 (2019-06-12) is 119.1 (2019-07-12)" in history["renumbered"]
    assert "118.4a (2019-06-12) is 119.4a (2019-07-12)" in history["renumbered"]
    assert not any(line.startswith("103.3 ") for line in history["renumbered"])
    by_id = {r["id"]: r["changes"] for r in history["rules"]}
    assert "119.1" in by_id and by_id["119.1"][0]["renumbered"]["from"] == "118.1"


@pytest.mark.slow
def test_103_4_a_rule_that_moved_is_diffed_with_its_predecessor_not_its_old_number():
    """Today's 103.4 (starting life) was 103.3 until a later edition, where 103.4
    was the mulligan: the history pairs it with 103.3 and diffs nothing against
    the mulligan rule; what to re-check lists it with its encoding."""
    report = audit(ROOT, [OLD, NEW, LATER], corpus=[], expected=False)
    history = report["history"]
    changes = {r["id"]: r["changes"] for r in history["rules"]}["103.4"]
    assert changes[0]["renumbered"] == {"from": "103.3", "to": "103.4"}
    assert "diff" not in changes[0]
    (item,) = [i for i in history["recheck"] if i["id"] == "103.4"]
    assert item["how"] == "renumbered from 103.3"
    assert any(site.startswith("rules/103_starting_life.lp:") for site in item["encoded_at"])
    assert "what to re-check" in to_text(report)


@pytest.mark.slow
def test_119_two_editions_still_check_the_cited_numbers_against_the_newest():
    """With two editions the cited numbers are checked against the newest one
    too: 702.9b is in the fixture, 119.4a as well; a rule the fixture lacks is
    reported missing."""
    report = audit(ROOT, [OLD, NEW], corpus=[], expected=False)
    assert report["editions"]["file"] == str(NEW)
    assert "119.4a" not in report["editions"]["missing"]
    assert "103.4" not in report["editions"]["missing"]
    assert "810.4" in report["editions"]["missing"]


@pytest.mark.slow
def test_119_an_encoded_rule_whose_text_changed_in_the_newest_edition_is_lint():
    """119.4a's text changed from 2019-06-12 to 2019-07-12 ('pooled' became
    'combined') and the rule base encodes it: re-check it, exit 1."""
    report = audit(ROOT, [OLD, NEW], corpus=[], expected=False)
    found = [f for f in report["lint"] if f["kind"] == "encoded-rule-changed"]
    assert "119.4a" in {f["rule"] for f in found}
    assert not report["summary"]["ok"]
