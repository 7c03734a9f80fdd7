"""The rule base's own unit tests (tests/units/*.toml, run with clintest by
`mtgkb test` and by `mtgkb audit`): they pass on the bundled rule base, and a
copy whose rule breaks the CR fails them, in the audit too.

102.2: in a two-player game each player's opponent is the other one, and
nobody is their own opponent; a copy that drops `P != Q` makes every player
their own opponent, which its unit test must catch.
"""

import argparse
import shutil

import pytest
from helpers import ROOT

from mtgkb.audit import coverage
from mtgkb.audit.command import unit_test_command
from mtgkb.audit.report import audit
from mtgkb.audit.sources import Base, scan
from mtgkb.audit.units import run_units
from mtgkb.rulebase.index import load_index

# slow tier: audits of rule-base copies (the unit tests' coverage and their cache)
pytestmark = pytest.mark.slow

OPPONENTS = "opponent(P,Q) :- player(P), player(Q), P != Q, not teammate(P,Q)."


def copy_with_units(tmp_path):
    for folder in ("rules", "kb", "queries", "tests/units"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def test_the_bundled_unit_tests_pass():
    results = run_units(Base.at(ROOT))
    assert len(results) >= 10
    assert [r.name for r in results if not r.ok] == []
    assert all(r.rule for r in results)


@pytest.mark.slow
def test_102_2_a_player_their_own_opponent_fails_the_unit_test_and_the_audit(tmp_path, monkeypatch):
    root = copy_with_units(tmp_path)
    players = root / "rules" / "102_players.lp"
    text = players.read_text(encoding="utf-8")
    assert OPPONENTS in text
    players.write_text(text.replace("P != Q, not teammate", "not teammate"), encoding="utf-8")
    failed = [r for r in run_units(Base.at(root)) if not r.ok]
    # 102.2's own test fails, and so does any other that needs the opponents
    # (506.2a: the attacking player chooses among opponents, never themself)
    assert ("tests/units/102_players.toml", "102.2") in {(r.file, r.rule) for r in failed}
    (own,) = [r for r in failed if r.rule == "102.2"]
    assert 'not opponent("A","A")' in own.message
    report = audit(root, lint_only=True)
    found = [f for f in report["lint"] if f["kind"] == "unit-test-failed"]
    assert "102.2" in [f["rule"] for f in found]
    monkeypatch.setenv("MTGKB_RULE_BASE", str(root))
    assert unit_test_command(argparse.Namespace(json=False)) == 1


def test_a_malformed_unit_file_is_a_failure_not_a_crash(tmp_path):
    root = copy_with_units(tmp_path)
    (root / "tests" / "units" / "999_broken.toml").write_text("[[test]\nname = ", encoding="utf-8")
    (root / "tests" / "units" / "998_bad.toml").write_text(
        'file = "rules/102_players.lp"\n[[test]]\nname = "x"\nrule = "102.1"\nmodels = "many"\n',
        encoding="utf-8",
    )
    failed = {r.file: r.message for r in run_units(Base.at(root)) if not r.ok}
    assert failed["tests/units/999_broken.toml"].startswith("unreadable:")
    assert "models must be one of" in failed["tests/units/998_bad.toml"]


def test_a_unit_test_may_say_a_program_has_no_model(tmp_path):
    root = copy_with_units(tmp_path)
    (root / "tests" / "units" / "997_none.toml").write_text(
        'file = "rules/102_players.lp"\n'
        "[[test]]\n"
        'name = "a planted constraint leaves no model"\n'
        'rule = "102.1"\n'
        "program = 'player(\"A\"). :- player(_).'\n"
        'models = "none"\n',
        encoding="utf-8",
    )
    results = {r.file: r for r in run_units(Base.at(root))}
    assert results["tests/units/997_none.toml"].ok


def _tested_by_units(root):
    """What the unit tests alone test of each rule (no scenario answered)."""
    base = Base.at(root)
    scans = scan(base)
    index = load_index(base.kb / "rule_index.lp")
    units = run_units(base)
    by_units = coverage.unit_checked(base, index, scans, units)
    return coverage.tested(units, [], by_units), base, index, scans


def test_115_1a_a_unit_test_named_for_115_1_checks_the_115_1a_statement_whose_atom_it_asserts():
    # 115.1a: a spell's targets are chosen as it is cast (rules/115_targets.lp tags the
    # statement deriving play_rule(K,"601.2c") with it); the unit test named 115.1
    # asserts that atom, so it checks 115.1a too: what a test checks is what it asserts
    tested, *_ = _tested_by_units(ROOT)
    spell = "tests/units/115_targets.toml: a spell cast with a target targets it"
    assert any(t.startswith(spell) for t in tested["115.1a"])
    assert any(t.startswith(spell) for t in tested["115.1"])  # the rule it names


def test_808_1_a_statement_that_fires_without_deriving_an_asserted_atom_is_not_checked():
    # 808.1 (teams of a team game): rules/100_input_checks.lp's team counts fire in the
    # unit test of 702.22c (a band's members) but that test asserts only input errors of
    # bands, so it does not check 808.1
    tested, *_ = _tested_by_units(ROOT)
    band = "tests/units/100_input_checks.toml: a band has two or more members"
    assert not any(t.startswith(band) for t in tested.get("808.1", []))
    assert any(t.startswith(band) for t in tested["702.22c"])


def test_103_4d_an_untested_rule_only_cited_is_said_to_be_cited_not_encoded():
    # 103.4d (Brawl starting life) is only cited by a because/2 rule of
    # rules/103_starting_life.lp: the warning says so instead of "is encoded"
    tested, base, index, scans = _tested_by_units(ROOT)
    tested.pop("103.4d", None)
    rows, _, warnings = coverage.coverage(base, index, scans, tested)
    (row,) = [r for r in rows if r["id"] == "103.4d"]
    assert row["encoded_at"] == [] and row["cited_at"]
    (warning,) = [w for w in warnings if w["rule"] == "103.4d"]
    assert warning["kind"] == "untested"
    assert warning["message"].startswith("103.4d is only cited (rules/103_starting_life.lp:")


def test_102_2_a_cached_outcome_is_not_used_once_the_rule_file_changes(tmp_path, monkeypatch):
    # 102.2: a player is not their own opponent. Run once (the outcomes cached),
    # then the copy drops `P != Q`: its unit test of 102.2 must fail, not pass from the cache
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MTGKB_CACHE", "1")
    root = copy_with_units(tmp_path / "base")
    first = run_units(Base.at(root))
    assert [r.name for r in first if not r.ok] == []
    assert list((tmp_path / "cache").glob("units-*"))
    again = run_units(Base.at(root))  # read back: the same outcomes
    assert [(r.name, r.ok, r.message) for r in again] == [(r.name, r.ok, r.message) for r in first]
    players = root / "rules" / "102_players.lp"
    text = players.read_text(encoding="utf-8")
    players.write_text(text.replace("P != Q, not teammate", "not teammate"), encoding="utf-8")
    failed = {r.rule for r in run_units(Base.at(root)) if not r.ok}
    assert "102.2" in failed
