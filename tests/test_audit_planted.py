"""The rules author's audit catches planted bugs (issue 24): each test plants one
mistake in a temporary copy of the rule base and checks the audit's finding
(kind, file, line, rule) and its exit status.

What each mistake breaks: a CR number the index does not hold reaches users
with no paraphrase (the index is the project's list of the CR rules it speaks
of); a deleted tag line silently turns an encoded rule into a cited one; a
changed starting life total (103.4: 20 in a two-player game) moves answers,
and the author must be told which statement did it.
"""

import argparse
import json
import shutil

import pytest
from helpers import ROOT

from mtgkb.audit.against import compare
from mtgkb.audit.command import audit_command
from mtgkb.audit.consistency import file_scenarios
from mtgkb.audit.render import to_text
from mtgkb.audit.report import audit
from mtgkb.audit.sources import Base, scan

# each test audits a copy of the rule base: the slow tier (.ci/run)
pytestmark = pytest.mark.slow


def copy_rule_base(tmp_path, *, examples: bool = False):
    for folder in ("rules", "kb", "queries") + (("examples",) if examples else ()):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def replace_line(path, old: str, new: str) -> int:
    """Replace the first line holding `old`; its line number."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        if old in line:
            lines[i] = line.replace(old, new)
            path.write_text("".join(lines), encoding="utf-8")
            return i + 1
    raise AssertionError(f"{old!r} is not in {path}")


def findings(report: dict, kind: str) -> list[dict]:
    return [f for f in report["lint"] if f["kind"] == kind]


def lint_exit(root, monkeypatch) -> int:
    """`mtgkb audit --lint --json`'s exit status with ROOT as the rule base in use."""
    monkeypatch.setenv("MTGKB_RULE_BASE", str(root))
    return audit_command(argparse.Namespace(lint=True, json=True))


def test_119_4_unknown_number_in_a_violation_is_lint(tmp_path, capsys, monkeypatch):
    """`rule("119.14")` (a typo of 119.4, paying life) names no rule of the index."""
    root = copy_rule_base(tmp_path)
    line = replace_line(root / "rules" / "119_life.lp", 'rule("119.4"),', 'rule("119.14"),')
    report = audit(root, lint_only=True)
    (found,) = findings(report, "unknown-number")
    assert found["rule"] == "119.14"
    assert found["where"].startswith(f"rules/119_life.lp:{line}:")
    assert not report["summary"]["ok"]
    assert lint_exit(root, monkeypatch) == 1
    assert json.loads(capsys.readouterr().out)["summary"]["lint"] >= 1


def test_119_4_unknown_number_in_a_message_is_lint(tmp_path):
    """A message that names a rule (here the made-up 119.99) is checked too."""
    root = copy_rule_base(tmp_path)
    with open(root / "kb" / "messages.lp", "a", encoding="utf-8") as f:
        f.write('\nmessage(planted, "see 119.99").\nmessage_it(planted, "vedi 119.99").\n')
    found = findings(audit(root, lint_only=True), "unknown-number")
    assert {f["rule"] for f in found} == {"119.99"}
    assert all(f["where"].startswith("kb/messages.lp:") for f in found)


def test_119_4a_deleted_tag_line_is_reported_against_the_baseline(tmp_path, monkeypatch):
    """The tag line above the rule that encodes 119.4a (a team's shared life total
    pays for its players) is deleted: the rule base still cites 119.4a, but no
    longer encodes it, and the baseline says it did."""
    root = copy_rule_base(tmp_path)
    life = root / "rules" / "119_life.lp"
    lines = life.read_text(encoding="utf-8").splitlines(keepends=True)
    tag = next(i for i, text in enumerate(lines) if text.startswith("% 119.4a:"))
    assert lines[tag + 1].startswith("violation(")
    del lines[tag]
    life.write_text("".join(lines), encoding="utf-8")
    report = audit(root, lint_only=True)
    (found,) = findings(report, "encoding-lost")
    assert found["rule"] == "119.4a"
    assert found["where"].startswith("rules/119_life.lp:")
    assert "only cited" in found["message"]
    assert lint_exit(root, monkeypatch) == 1


def test_the_bundled_rule_base_is_clean_against_its_baseline():
    """The bundled rule base's own baseline is current: no rule lost, no unknown number."""
    report = audit(ROOT, lint_only=True)
    assert not findings(report, "encoding-lost")
    assert not findings(report, "unknown-number")
    assert not [w for w in report["warnings"] if w["kind"] in ("no-baseline", "bad-baseline")]


def test_103_4_starting_life_25_names_the_statement_the_answers_depend_on(tmp_path):
    """103.4: each player starts with 20 life. A copy says 25: the examples that
    ask for life totals differ from their expectations, and each names the
    changed statement kb/life.lp:7 and the rule that reads it, 103.4."""
    root = copy_rule_base(tmp_path, examples=True)
    line = replace_line(
        root / "kb" / "life.lp", "default_starting_life(20)", "default_starting_life(25)"
    )
    report = audit(root, corpus=[])
    differing = [e for e in report["expected"] if e["differences"]]
    assert differing
    for entry in differing:
        assert {"at": f"kb/life.lp:{line}", "rules": ["103.4"]} in entry["depends_on"]
    assert not report["summary"]["ok"]


def test_103_4_against_the_original_names_kb_life(tmp_path):
    """`mtgkb audit --against ORIGINAL` on the starting-life-25 copy: a two-player
    scenario's life totals differ (25 here, 20 there, 103.4) and the difference
    depends on kb/life.lp."""
    root = copy_rule_base(tmp_path)
    line = replace_line(
        root / "kb" / "life.lp", "default_starting_life(20)", "default_starting_life(25)"
    )
    scenario = "players: Rob, Alex\nactive: Rob\nask outcome\n"
    section = compare(Base.at(root, ()), Base.at(ROOT, ()), corpus=[("two players", scenario)])
    (item,) = section["differing"]
    (question,) = item["questions"]
    assert question["this"]["life"] == {"Rob": 25, "Alex": 25}
    assert question["other"]["life"] == {"Rob": 20, "Alex": 20}
    assert "103.4" in question["rules_this"] and "103.4" in question["rules_other"]
    assert item["depends_on"] == [{"at": f"kb/life.lp:{line}", "rules": ["103.4"]}]


def test_103_4_tag_moved_to_another_real_rule_is_flagged(tmp_path, monkeypatch):
    """The rule that gives every player the normal starting life total is 103.4;
    its tag changed to 119.3 (a real rule: gaining and losing life) while the
    rule's text stayed the same is flagged at the tag's line."""
    root = copy_rule_base(tmp_path)
    line = replace_line(
        root / "rules" / "103_starting_life.lp",
        "% 103.4: without such a variant",
        "% 119.3: without such a variant",
    )
    report = audit(root, lint_only=True)
    (found,) = findings(report, "retagged")
    assert found["where"] == f"rules/103_starting_life.lp:{line}"
    assert found["rule"] == "119.3"
    assert "from 103.4 to 119.3" in found["message"]
    assert lint_exit(root, monkeypatch) == 1


def test_102_1_a_constraint_no_scenario_satisfies_is_one_finding_naming_its_statement(tmp_path):
    """A constraint that forbids every player (102.1: a game has players) leaves
    every scenario with no answer: the audit gives one finding, with the
    planted statement first, and the scenarios that show it grouped under it."""
    root = copy_rule_base(tmp_path, examples=True)
    players = root / "rules" / "102_players.lp"
    with open(players, "a", encoding="utf-8") as f:
        f.write("\n% 102.1: planted: no scenario satisfies it.\n:- player(_).\n")
    line = len(players.read_text(encoding="utf-8").splitlines())
    corpus = file_scenarios(root)[:3]
    report = audit(root, corpus=corpus, expected=False, jobs=1)
    (conflict,) = report["conflicts"]
    planted = {"at": f"rules/102_players.lp:{line}", "rules": ["102.1"]}
    assert conflict["statements"] == [planted]
    assert {name for name, _ in corpus} <= set(conflict["seen_in"])
    shown = to_text(report).split("conflicts (1)\n", 1)[1].splitlines()
    assert shown[0] == f"  rules/102_players.lp:{line} (102.1)"
    assert not report["summary"]["ok"]


def comment_out_statements_tagged(root, number: str) -> int:
    """Make comments of every statement of rules/ whose tag names `number`; how many."""
    taken = 0
    for file_scan in scan(Base.at(root, ())).rules:
        lines = file_scan.path.read_text(encoding="utf-8").splitlines(keepends=True)
        for st in file_scan.statements:
            if st.tags and number in st.tags and not st.generated:
                for i in range(st.line - 1, st.end_line):
                    lines[i] = "% " + lines[i]
                taken += 1
        file_scan.path.write_text("".join(lines), encoding="utf-8")
    return taken


def test_802_4a_coverage_counts_what_fired_not_test_names(tmp_path):
    """802.4a (a creature blocks only a creature attacking its controller or
    their permanents) is tested by the examples whose answers cite it; once
    every statement tagged 802.4a is gone, no answer cites it and it is tested
    by nothing, whatever the tests' names say (tests/test_802_4a_*.py stay)."""
    root = copy_rule_base(tmp_path, examples=True)
    before = {r["id"]: r for r in audit(root, corpus=[])["rules"]}
    assert "examples/02_multiplayer_combat.mtg" in before["802.4a"]["tested_by"]
    assert not any("test_802_4a" in t for t in before["802.4a"]["tested_by"])
    assert comment_out_statements_tagged(root, "802.4a") >= 2
    report = audit(root, corpus=[])
    after = {r["id"]: r for r in report["rules"]}
    assert after["802.4a"]["encoded_at"] == [] and after["802.4a"]["tested_by"] == []
    assert any(f["kind"] == "not-encoded" and f["rule"] == "802.4a" for f in report["lint"])
