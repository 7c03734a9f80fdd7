"""The edge of the rule base (`not_modelled(rule(N))`, kb/not_modelled.lp):
an answer that a rule the rule base does not encode could change says so,
`"unmodelled": [N, ...]` in JSON and `not modelled: N (paraphrase)` in text,
in English and Italian, with the exit status unchanged; a house rule may
declare more; `mtgkb audit` lists every declaration with its condition and
fails when a declared rule is also encoded.

The CR: 120.3c (damage dealt to a planeswalker removes that many loyalty
counters) and 120.3h (damage dealt to a battle removes that many defense
counters) are not encoded: `ask outcome` follows life totals and creatures
only, so a file where a planeswalker or a battle is dealt damage gets an
outcome that these rules could change."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from helpers import PLANESWALKER, ROOT

from mtgkb.audit.not_modelled import not_modelled
from mtgkb.audit.sources import Base, scan
from mtgkb.rulebase.index import load_index

BATTLE = """players: Ann, Ben
Ben controls battle "Invasion of Tarkir" defense 5 protected by Ann
"Shock" deals 2 damage to "Invasion of Tarkir"
ask outcome
"""
PLAIN = """players: Ann, Ben
"Shock" deals 2 damage to Ben
ask legal
ask outcome
ask order
"""
ILLEGAL = """players: Ann, Ben
active: Ann
phase: declare-attackers
Ben controls creature "Grizzly Bears" 2/2
"Grizzly Bears" attacks Ann
ask legal
ask outcome
"""
PROBE = 'not_modelled(rule("802.2a")) :- player(_).\n'


def run_mtgkb(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "mtgkb", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ),
    )
    return proc.returncode, proc.stdout, proc.stderr


def written(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_120_3c_damage_to_a_planeswalker_outcome_says_not_modelled(tmp_path):
    path = written(tmp_path, "pw.mtg", PLANESWALKER)
    status, out, err = run_mtgkb("run", path, "--json")
    assert status == 0, err
    legal, outcome = json.loads(out)["answers"]
    assert outcome["unmodelled"] == ["120.3c"]
    # narrowed to the outcome (not_modelled_in/2): legality does not follow loyalty
    assert "unmodelled" not in legal and legal["legal"] is True
    status, out, _ = run_mtgkb("run", path)
    assert status == 0
    assert "not modelled: 120.3c (Damage to a planeswalker takes off that many" in out
    status, out, _ = run_mtgkb("run", path, "--lang", "it")
    assert "non modellata: 120.3c (Il danno a un planeswalker toglie" in out


def test_120_3h_damage_to_a_battle_outcome_says_not_modelled(tmp_path):
    status, out, err = run_mtgkb("run", written(tmp_path, "b.mtg", BATTLE), "--json")
    assert status == 0, err
    (outcome,) = json.loads(out)["answers"]
    assert outcome["unmodelled"] == ["120.3h"]


def test_a_file_within_the_edge_carries_no_unmodelled_key(tmp_path):
    status, out, err = run_mtgkb("run", written(tmp_path, "p.mtg", PLAIN), "--json")
    assert status == 0, err
    answers = json.loads(out)["answers"]
    assert all("unmodelled" not in a for a in answers)
    assert answers[1]["life"] == {"Ann": 20, "Ben": 18}  # 120.3a: the answer itself stands


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_a_house_rule_probe_marks_every_answer(tmp_path):
    probe = written(tmp_path, "probe.lp", PROBE)
    path = written(tmp_path, "p.mtg", PLAIN)
    status, out, err = run_mtgkb("run", path, "--json", "--with", probe)
    assert status == 0, err  # the exit status does not change
    answers = json.loads(out)["answers"]
    assert [a["ask"] for a in answers] == ["legal", "outcome", "order"]
    assert all(a["unmodelled"] == ["802.2a"] for a in answers)
    status, out, _ = run_mtgkb("run", path, "--with", probe)
    assert status == 0
    assert out.count("not modelled: 802.2a (") == 3


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_the_exit_status_of_an_illegal_play_is_kept(tmp_path):
    # 508.1a: Ben's creature can't attack on Ann's turn; the probe changes nothing of that
    probe = written(tmp_path, "probe.lp", PROBE)
    status, out, _ = run_mtgkb(
        "run", written(tmp_path, "i.mtg", ILLEGAL), "--json", "--with", probe
    )
    assert status == 1
    legal = json.loads(out)["answers"][0]
    assert legal["legal"] is False and legal["unmodelled"] == ["802.2a"]


def test_the_python_api_carries_unmodelled():
    from mtgkb import run

    answers = run(PLANESWALKER)["answers"]
    assert answers[1]["unmodelled"] == ["120.3c"]


def copy_base(tmp_path):
    base = tmp_path / "base"
    for folder in ("rules", "kb", "queries"):
        shutil.copytree(ROOT / folder, base / folder)
    return base


def test_audit_lists_each_declaration_with_its_condition():
    base = Base.at(ROOT, [])
    found, lint = not_modelled(base, scan(base), load_index(ROOT / "kb" / "rule_index.lp"))
    assert not lint
    by_rule = {}
    for item in found:
        by_rule.setdefault(item["rule"], []).append(item)
    assert set(by_rule) >= {"120.3c", "120.3h"}
    first = by_rule["120.3c"][0]
    assert first["at"].startswith("kb/not_modelled.lp:")
    assert "card_type(X,planeswalker)" in first["when"]
    assert first["answers"] == ["outcome"]


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_audit_fails_when_a_rule_is_both_encoded_and_declared(tmp_path):
    base = copy_base(tmp_path)
    planted = base / "rules" / "120_damage.lp"
    planted.write_text(
        planted.read_text(encoding="utf-8")
        + "\n% 120.3c: a planted encoding of loyalty loss\n"
        + "loyalty_lost(X,N) :- dealt_damage(_,_,X,N), card_type(X,planeswalker).\n",
        encoding="utf-8",
    )
    audited = Base.at(base, [])
    _, lint = not_modelled(audited, scan(audited), load_index(base / "kb" / "rule_index.lp"))
    (item,) = [i for i in lint if i["kind"] == "encoded-and-not-modelled"]
    assert item["rule"] == "120.3c"
    assert "rules/120_damage.lp:" in item["message"]


@pytest.mark.slow
def test_audit_command_lists_and_fails_on_encoded_and_declared(tmp_path):
    base = copy_base(tmp_path)
    house = written(
        tmp_path,
        "house.lp",
        "% 120.3a: a house rule that says it is and is not modelled\n"
        "house_life_loss(P,N) :- dealt_damage(_,_,P,N), player(P).\n"
        'not_modelled(rule("120.3a")) :- player(_).\n',
    )
    status, out, err = run_mtgkb("audit", "--quick", "--rule-base", str(base), "--with", house)
    assert status == 1, err
    assert "encoded-and-not-modelled" in out
    assert "120.3a is declared not modelled" in out
    assert "120.3c when card_type(X,planeswalker)" in out


@pytest.mark.parametrize(
    "word", ['notModelled: "not modelled: {n} ({p})"', 'notModelled: "non modellata: {n} ({p})"']
)
def test_the_page_has_the_line_in_english_and_italian(word):
    static = ROOT / "src" / "mtgkb" / "serve" / "static"
    assert word in (static / "app.js").read_text(encoding="utf-8")  # the page's words
    assert "answer.unmodelled" in (static / "answers.js").read_text(encoding="utf-8")


def test_a_batch_chunk_works_out_its_files_unmodelled_rules_at_once(tmp_path, monkeypatch):
    # kb/not_modelled.lp grounded once for a chunk's files (each file's facts
    # given the scenario argument), not once a file; the answers are each
    # file's own: 120.3h on the battle's outcome, 120.3c on the
    # planeswalker's, nothing on the plain damage to a player (120.3a)
    from mtgkb.questions import answers
    from mtgkb.questions.answers import Limits
    from mtgkb.running.batch import COMBINE_FROM, answer_files, answer_path

    texts = [BATTLE, PLANESWALKER, PLAIN] * (COMBINE_FROM // 3 + 1)
    paths = [written(tmp_path, f"f{i}.mtg", text) for i, text in enumerate(texts)]
    alone = [answer_path(p, Limits()).output for p in paths]

    def file_by_file(*args, **kwargs):
        raise AssertionError("a file of the chunk grounded the declarations alone")

    monkeypatch.setattr(answers, "_not_modelled", file_by_file)
    together = [r.output for r in answer_files(paths, Limits())]
    assert together == alone
    battle, walker, plain = together[:3]
    assert battle["answers"][0]["unmodelled"] == ["120.3h"]
    assert [a.get("unmodelled") for a in walker["answers"]] == [None, ["120.3c"]]
    assert all("unmodelled" not in a for a in plain["answers"])
