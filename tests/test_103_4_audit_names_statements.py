"""The audit names the statements behind a contradiction: a house rule giving
every player a second starting life total (103.4), put in `rules/` of a copy
of the checkout, is one grouped conflict, shown in many scenarios, whose
removal set is that file's line; the examples' answers are compared with
their expected answers; a `--with` file is linted like the rule base."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT
from helpers.rule_base_copies import CONTRADICTING_HOUSE as HOUSE
from helpers.rule_base_copies import copy_base, mtgkb

from mtgkb.audit.command import progress_printer
from mtgkb.audit.conflicts import group_conflicts
from mtgkb.audit.lint import tag_lint
from mtgkb.audit.report import audit
from mtgkb.audit.sources import Base, scan

# The slow tier (the audit of a copy of the rule base):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow


def test_103_4_contradicting_file_is_one_grouped_conflict_naming_its_line(tmp_path):
    base = copy_base(tmp_path)
    (base / "rules" / "999_house.lp").write_text(HOUSE, encoding="utf-8")
    # each conflict's statements are searched within the audit's time-out
    # (10 s by default; past it a conflict stands apart, without them): a
    # generous one, so that a slow machine does not change what is asserted
    status, out, err = mtgkb(
        "audit", "--json", "--quick", "--timeout", "600", "--rule-base", str(base)
    )
    assert status == 1
    report = json.loads(out)
    (conflict,) = report["conflicts"]
    assert conflict["remove"] == [{"at": "rules/999_house.lp:2", "rules": ["103.4"]}]
    core = {p["at"] for p in conflict["statements"]}
    assert "rules/999_house.lp:2" in core
    assert any(p.startswith("rules/103_starting_life.lp:") for p in core)
    assert "103.4" in conflict["rules"]
    assert conflict["scenarios"] > 1 and conflict["scenarios"] == len(conflict["seen_in"])
    assert conflict["example"] == conflict["seen_in"][0]
    assert "two starting life totals" in conflict["message"]
    assert report["summary"]["conflicts"] == 1
    assert report["summary"]["conflict_scenarios"] == conflict["scenarios"]
    assert report["rule_base"]["path"] == str(base.resolve())
    assert "mtgkb audit:" not in err  # no progress off a terminal without --progress


def test_103_4_grouping_merges_conflicts_with_one_cause():
    found = [
        {
            "rules": ["103.4"],
            "scenario": f"s{k}",
            "message": f"Ann{k} has two starting life totals, {k} and 30",
            "at": [],
            "cause": "two_starting_life",
        }
        for k in range(5)
    ]
    found.append(
        {
            "rules": ["509.1a"],
            "scenario": "x",
            "message": "'ask blocks' finds no legal declaration",
            "at": [],
        }
    )
    groups = group_conflicts(found)
    assert [(g["cause"], g["scenarios"], g["example"]) for g in groups] == [
        ("two_starting_life", 5, "s0"),
        ("'ask blocks' finds no legal declaration", 1, "x"),
    ]


def test_audit_compares_the_examples_with_their_expected_answers(tmp_path):
    base = copy_base(tmp_path)
    examples = base / "examples"
    examples.mkdir()
    (examples / "a.mtg").write_text(
        'players: Ann, Ben\n"Bolt" deals 3 damage to Ben\nask outcome\n'
    )
    (examples / "a.expected.json").write_text('{"exit": 0, "answers": [{"life": {"Ben": 18}}]}')
    (examples / "b.mtg").write_text("players: Ann, Ben\nask legal\n")
    (examples / "b.expected.json").write_text('{"exit": 0, "answers": [{"legal": true}]}')
    report = audit(base, None, corpus=[], expected=True)
    by = {e["scenario"]: e["differences"] for e in report["expected"]}
    assert by["examples/b.mtg"] == []
    assert by["examples/a.mtg"] == [
        'answer 1 (?): life is {"Ann": 20, "Ben": 17}, expected {"Ben": 18}'
    ]
    assert report["summary"]["expected_differ"] == 1 and report["summary"]["ok"] is False


def test_103_4_a_with_file_is_linted_like_the_rule_base(tmp_path):
    house = tmp_path / "house.lp"
    house.write_text("% 103.4: tagged\nmine(P) :- player(P).\n\nuntagged(P) :- mine(P).\n")
    lint = tag_lint(scan(Base.at(ROOT, [house])), None)
    assert [i["where"] for i in lint if i["kind"] == "untagged"] == [f"{house}:4"]


def test_progress_is_one_updating_line_on_stderr(capsys):
    show = progress_printer(True)
    show("consistency", 1, 2)
    show("consistency", 2, 2)
    err = capsys.readouterr().err
    assert err == "\rmtgkb audit: consistency: 1/2\rmtgkb audit: consistency: 2/2\n"
    assert progress_printer(False) is None
