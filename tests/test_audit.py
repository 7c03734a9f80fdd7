"""`mtgkb audit`: coverage, lint, consistency with minimal rule sets, CR editions.

One deliberately broken copy of the rule base (made once for the module)
carries every defect; each test checks that the audit reports its own.
"""

import argparse
import json
import shutil

import pytest
from helpers import ROOT, SHARED, needs_shared

from mtgkb.audit import command as command_module
from mtgkb.audit.command import audit_command
from mtgkb.audit.consistency import consistency, file_corpus, generated_corpus
from mtgkb.audit.editions import edition_check
from mtgkb.audit.render import to_json, to_markdown, to_text
from mtgkb.audit.report import audit
from mtgkb.audit.sources import Base, scan
from mtgkb.cli import build_parser
from mtgkb.rulebase.index import load_index, sort_key

# The slow tier (the full audit):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

CR_EXCERPT = SHARED / "reference" / "cr-2026-04-17-excerpt.txt"
needs_cr = pytest.mark.skipif(
    not CR_EXCERPT.is_file(), reason="../shared/reference is not beside this checkout"
)
STARTING_LIFE = ROOT / "rules" / "103_starting_life.lp"

TWO_PLAYER = dict(generated_corpus())["two-player"]
COMMANDER = dict(generated_corpus())["commander 3 players"]


def _copy(tmp_path):
    for folder in ("rules", "kb", "queries"):
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    """A copy of the rule base with an untagged rule, a made-up tag, an undefined atom
    and a second starting-life rule; its audit report (against the CR excerpt if present)."""
    root = _copy(tmp_path_factory.mktemp("broken"))
    with open(root / "rules" / "102_players.lp", "a", encoding="utf-8") as f:
        f.write("\n\nuntagged_rule(P) :- player(P).\n")
    (root / "rules" / "999_broken.lp").write_text(
        "% 119.11: a made-up rule number.\n"
        "made_up(P) :- player(P).\n"
        "\n"
        "% 102.1: reads a predicate no rule defines.\n"
        "ghost(P) :- player(P), nowhere(P).\n"
        "\n"
        "% 103.4: a second, wrong starting life total.\n"
        "starting_life(P,19) :- player(P).\n"
        "\n"
        "% 102.1: a kind of violation with no message (never derived).\n"
        'violation(rule("102.1"),kind_without_text(P)) :- nowhere(P).\n',
        encoding="utf-8",
    )
    cr = CR_EXCERPT if CR_EXCERPT.is_file() else None
    report = audit(root, cr, corpus=[("two-player", TWO_PLAYER)])
    return root, report


def _kinds(items, kind):
    return [i for i in items if i["kind"] == kind]


def test_audit_json_shape(broken):
    _, report = broken
    data = json.loads(to_json(report))
    assert set(data) >= {"rules", "lint", "warnings", "conflicts", "summary"}
    row = next(r for r in data["rules"] if r["id"] == "102.4")
    assert set(row) >= {"id", "encoded_at", "tested_by"}
    assert row["encoded_at"] and all(
        w.startswith("rules/102_players.lp:") for w in row["encoded_at"]
    )
    assert isinstance(row["tested_by"], list)
    for item in data["lint"] + data["warnings"]:
        assert set(item) >= {"kind", "message"}
    for conflict in data["conflicts"]:
        assert set(conflict) >= {"rules", "scenario", "message"}
    summary = data["summary"]
    assert summary["ok"] is False and summary["lint"] == len(data["lint"])
    assert summary["rules"] == len(data["rules"]) and summary["scenarios"] == 1


def test_audit_lint_reports_an_untagged_rule(broken):
    root, report = broken
    lines = (root / "rules" / "102_players.lp").read_text(encoding="utf-8").splitlines()
    line = lines.index("untagged_rule(P) :- player(P).") + 1
    assert f"rules/102_players.lp:{line}" in [
        i["where"] for i in _kinds(report["lint"], "untagged")
    ]


def test_audit_lint_reports_a_tag_naming_a_rule_outside_the_index(broken):
    _, report = broken
    unknown = _kinds(report["lint"], "unknown-tag")
    assert ("119.11", "rules/999_broken.lp:1") in [(i["rule"], i["where"]) for i in unknown]


def test_audit_lint_reports_a_violation_kind_without_a_message(broken):
    _, report = broken
    found = _kinds(report["lint"], "no-message")
    assert [(i["where"], i["message"].split()[0]) for i in found] == [
        ("rules/999_broken.lp:11", "kind_without_text")
    ]


def test_audit_warns_of_a_message_without_its_italian_twin(tmp_path):
    from mtgkb.audit.kinds import missing_texts
    from mtgkb.rulebase.encoded import scan_folder

    (tmp_path / "rules").mkdir()
    (tmp_path / "kb").mkdir()
    (tmp_path / "rules" / "1.lp").write_text(
        "bad(C,k_one(C)) :- c(C).\nviolation(rule(R),K) :- bad(R,K).\n"
        'input_error(rule("1"),k_two,()) :- c(_).\n',
        encoding="utf-8",
    )
    (tmp_path / "kb" / "messages.lp").write_text('message(k_one, "one {1}").\n', encoding="utf-8")
    (tmp_path / "kb" / "input_messages.lp").write_text(
        'input_message(k_two, "two").\ninput_message_it(k_two, "due").\n', encoding="utf-8"
    )
    found = missing_texts(scan_folder(tmp_path / "rules"), tmp_path / "kb")
    assert [(kind, name) for kind, name, _, _ in found] == [("no-italian", "k_one")]


def test_audit_lint_reports_an_undefined_atom_and_an_unused_predicate(broken):
    _, report = broken
    undefined = _kinds(report["lint"], "undefined")
    assert any(
        i["where"] == "rules/999_broken.lp:5" and "nowhere(P)" in i["message"] for i in undefined
    )
    unused = {i["message"].split()[0] for i in _kinds(report["warnings"], "unused")}
    assert {"ghost/1", "made_up/1", "untagged_rule/1"} <= unused


@needs_cr
def test_audit_cr_reports_a_made_up_number_missing_from_the_edition(broken):
    _, report = broken
    assert report["editions"]["edition"] == "2026-04-17"
    assert "119.11" in report["editions"]["missing"]
    assert "102.1" not in report["editions"]["missing"]
    assert report["editions"]["changed"] == []
    assert "119.11" in [i["rule"] for i in _kinds(report["lint"], "not-in-edition")]


@needs_cr
def test_audit_cr_reports_a_rule_whose_text_changed(tmp_path):
    text = CR_EXCERPT.read_text(encoding="utf-8")
    marker = "119.4. If a cost or effect allows a player to pay an amount of life greater than 0"
    assert marker in text
    changed = tmp_path / "cr-changed.txt"
    changed.write_text(
        text.replace(marker, marker.replace("greater than 0", "greater than 1")), encoding="utf-8"
    )
    index = load_index(ROOT / "kb" / "rule_index.lp")
    section, lint, _ = edition_check(changed, index, scan(Base.at(ROOT)))
    # the only numbers the excerpt lacks are the index's rules without a fingerprint
    # (their text is not in the excerpt: kb/rule_index.lp says which)
    outside = sorted((e.id for e in index if e.digest is None), key=sort_key)
    assert section["changed"] == ["119.4"] and section["missing"] == outside
    assert [i["rule"] for i in lint if i["kind"] != "not-in-edition"] == ["119.4"]
    not_in_edition = [i["rule"] for i in lint if i["kind"] == "not-in-edition"]
    assert sorted(not_in_edition, key=sort_key) == outside


@pytest.mark.skipif(
    not STARTING_LIFE.is_file(),
    reason="rules/103_starting_life.lp (starting_life/2) has not landed",
)
def test_second_starting_life_rule_is_a_conflict_naming_the_rules(broken):
    _, report = broken
    (conflict,) = report["conflicts"]
    assert conflict["scenario"] == "two-player"
    assert "two starting life totals" in conflict["message"]
    assert {"103.4", "119.1"} & set(conflict["rules"])
    assert len(conflict["rules"]) <= 3  # a minimal set, not every rule that fired
    assert "rules/999_broken.lp:8" in conflict["at"]


@pytest.mark.skipif(
    not STARTING_LIFE.is_file(),
    reason="rules/103_starting_life.lp (starting_life/2) has not landed",
)
def test_commander_conflict_names_the_commander_rule_too(broken):
    root, _ = broken
    (conflict,) = consistency([("commander", COMMANDER)], root)
    assert "903.7" in conflict["rules"] and {"103.4", "119.1"} & set(conflict["rules"])


def test_rule_base_of_this_checkout_has_no_lint_and_no_conflict():
    corpus = generated_corpus()[::4]
    report = audit(ROOT, None, corpus=corpus)
    assert report["lint"] == []
    assert report["conflicts"] == []
    assert report["summary"]["ok"] is True and report["summary"]["scenarios"] == len(corpus)


def test_audit_renders_text_and_markdown(broken):
    _, report = broken
    text = to_text(report)
    assert "untagged" in text and "rules responsible" in text and "exit 1" in text
    md = to_markdown(report)
    assert md.startswith("# mtgkb audit") and "| untagged |" in md and "## Coverage" in md


def test_audit_command_exit_status(monkeypatch, capsys, tmp_path):
    args = argparse.Namespace(json=True, markdown=False, cr=None)
    clean = {"rules": [], "lint": [], "warnings": [], "conflicts": [], "summary": {"ok": True}}
    monkeypatch.setattr(command_module, "audit", lambda root, cr, **kw: clean)
    assert audit_command(args) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["ok"] is True
    dirty = dict(clean, lint=[{"kind": "untagged", "message": "x"}], summary={"ok": False})
    monkeypatch.setattr(command_module, "audit", lambda root, cr, **kw: dirty)
    assert audit_command(args) == 1
    capsys.readouterr()
    missing = argparse.Namespace(json=False, markdown=False, cr=tmp_path / "no-such-cr.txt")
    assert audit_command(missing) == 2
    assert "no such file" in capsys.readouterr().err


def test_audit_command_passes_its_time_out_on(monkeypatch, capsys):
    # `mtgkb audit --timeout S` bounds each scenario's check and each
    # conflict's search by S seconds; without it, the audit's own default
    seen = []
    clean = {"rules": [], "lint": [], "warnings": [], "conflicts": [], "summary": {"ok": True}}
    monkeypatch.setattr(command_module, "audit", lambda root, cr, **kw: seen.append(kw) or clean)
    parser = build_parser("audit")
    assert audit_command(parser.parse_args(["audit", "--json", "--timeout", "600"])) == 0
    assert audit_command(parser.parse_args(["audit", "--json"])) == 0
    capsys.readouterr()
    assert seen[0]["timeout"] == 600.0 and "timeout" not in seen[1]
    with pytest.raises(SystemExit) as stopped:  # bad input: exit 2, said by argparse
        parser.parse_args(["audit", "--timeout", "0"])
    assert stopped.value.code == 2
    assert "more than 0 seconds" in capsys.readouterr().err


@needs_shared
def test_file_corpus_reads_examples_and_conformance_cases_and_skips_bad_input():
    corpus = dict(file_corpus(ROOT))
    assert "../shared/conformance/c05_block_other_players_attacker.mtg" in corpus
    assert "../shared/conformance/c11_syntax_error.mtg" not in corpus  # exit 2: input, not rules
    assert 'player("Rob")' in corpus["../shared/conformance/c05_block_other_players_attacker.mtg"]
    assert consistency(sorted(corpus.items())[::6], ROOT) == []


def test_the_invariants_are_asp_in_the_package_and_no_asp_is_left_in_its_python():
    import ast
    import re
    from pathlib import Path

    import mtgkb.audit
    from mtgkb.audit.scene import INVARIANTS
    from mtgkb.rulebase.encoded import scan_file

    package = Path(mtgkb.audit.__file__).parent
    assert INVARIANTS.parent == package and INVARIANTS.suffix == ".lp"
    scanned = scan_file(INVARIANTS)
    rules = [st for st in scanned.statements if st.is_rule]
    assert not scanned.errors and len(rules) > 10
    assert all(st.tags for st in rules)  # a `% N: intent` comment above each rule
    assert any(st.tags == ("103.4",) for st in rules)  # two starting life totals
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        documents = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) not in documents:
                    text = node.value
                    asp = re.search(r"[\w)]\s*:-|#(external|defined|show)\b", text)
                    assert asp is None, (path.name, text)
