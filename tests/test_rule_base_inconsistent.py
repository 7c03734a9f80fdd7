"""A broken rule base never answers (spec, section 11; issue 24's first row).

- A rule base with no answer set for a file (here a constraint no scenario
  can satisfy, written into a copy) answers no question: every answer is
  `inconsistent`, naming the statement responsible (its file:line and the
  CR number of its tag), and the run exits 4, as a contradicting starting
  life total does (tests/test_103_4_self_contradicting_rule_base.py).
- A rule file clingo cannot ground (an unsafe variable) is bad input:
  `FILE:LINE:COL: error:` with clingo's own message, exit 2, never a
  traceback, in `mtgkb run`, `mtgkb audit`, the Python API and the server.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from helpers import ROOT

from mtgkb.language.errors import ScenarioError

# slow tier: broken copies of the rule base
pytestmark = pytest.mark.slow

SCENARIO = """players: Ann, Ben
"Bolt" deals 3 damage to Ben
ask legal
ask defending players
ask outcome
ask can Ben pay 2 life
"""
IMPOSSIBLE = "% 119.1: a planted mistake: no table may have a player\n:- player(_).\n"
UNSAFE = "% 119.3: a planted mistake: a life total from nowhere\nlife(P,X) :- player(P).\n"


def run_mtgkb(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "mtgkb", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
    )
    return proc.returncode, proc.stdout, proc.stderr


def planted(tmp_path, text: str):
    """A copy of the rule base with `text` appended to rules/119_life.lp,
    and the line its last statement is on."""
    base = tmp_path / "base"
    for folder in ("rules", "kb", "queries"):
        shutil.copytree(ROOT / folder, base / folder)
    path = base / "rules" / "119_life.lp"
    before = path.read_text(encoding="utf-8")
    if not before.endswith("\n"):
        before += "\n"
    path.write_text(before + "\n" + text, encoding="utf-8")
    line = before.count("\n") + 1 + text.count("\n")
    return base, path, line


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "s.mtg"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def test_no_answer_set_is_inconsistent_exit_4_naming_the_statement(tmp_path, scenario):
    base, _, line = planted(tmp_path, IMPOSSIBLE)
    status, out, err = run_mtgkb("run", str(scenario), "--json", "--rule-base", str(base))
    assert status == 4, err
    answers = json.loads(out)["answers"]
    assert [a["ask"] for a in answers] == ["legal", "defending", "outcome", "pay"]
    for answer in answers:
        (entry,) = answer["inconsistent"]
        assert entry["no_answer_set"] is True
        # the one statement responsible, with the CR number of its tag
        assert entry["statements"] == [{"at": f"rules/119_life.lp:{line}", "rules": ["119.1"]}]
        assert answer["rules"] == ["119.1"]
        # no value is given: none would rest on an answer set
        assert "legal" not in answer and "players" not in answer and "can" not in answer
    assert (answers[3]["player"], answers[3]["amount"]) == ("Ben", 2)


def test_no_answer_set_in_text_names_the_place_in_english_and_italian(tmp_path, scenario):
    base, _, line = planted(tmp_path, IMPOSSIBLE)
    status, out, _ = run_mtgkb("run", str(scenario), "--rule-base", str(base))
    assert status == 4
    assert "the rule base has no answer set for this file (exit 4)" in out
    assert f"rules/119_life.lp:{line} [119.1]" in out
    assert "ask legal: legal" not in out
    status, out, _ = run_mtgkb("run", str(scenario), "--rule-base", str(base), "--lang", "it")
    assert status == 4
    assert "non ha alcun answer set per questo file" in out


def test_the_unbroken_copy_still_answers(tmp_path, scenario):
    base, _, _ = planted(tmp_path, "% 119.1: nothing wrong\nplanted_nothing :- player(_).\n")
    status, out, err = run_mtgkb("run", str(scenario), "--json", "--rule-base", str(base))
    assert status == 0, err
    answers = json.loads(out)["answers"]
    assert all("inconsistent" not in a for a in answers)
    assert answers[0]["legal"] is True
    assert answers[2]["life"] == {"Ann": 20, "Ben": 17}  # 119.3, 120.3a


def test_unsafe_variable_is_file_line_col_error_in_run(tmp_path, scenario):
    base, path, line = planted(tmp_path, UNSAFE)
    for form in ((), ("--json",), ("--timeout", "60")):
        status, out, err = run_mtgkb("run", str(scenario), *form, "--rule-base", str(base))
        assert status == 2, err
        assert "Traceback" not in err
        assert f"{path}:{line}:1: error: unsafe variables in:" in err
        assert "'X' is unsafe" in err  # clingo's own words
        assert "ask legal" not in out  # nothing half-done


def test_unsafe_variable_is_file_line_col_error_in_audit(tmp_path):
    base, path, line = planted(tmp_path, UNSAFE)
    status, _, err = run_mtgkb("audit", "--quick", "--rule-base", str(base))
    assert status == 2
    assert "Traceback" not in err
    assert f"{path}:{line}:1: error: unsafe variables in:" in err


def test_unsafe_variable_in_a_house_rule_names_that_file(tmp_path, scenario):
    house = tmp_path / "house.lp"
    house.write_text("% 119.3: a house rule\nlife_gain(P,N) :- player(P).\n", encoding="utf-8")
    status, _, err = run_mtgkb("run", str(scenario), "--with", str(house))
    assert status == 2
    assert f"{house}:2:1: error: unsafe variables in:" in err


def test_unsafe_variable_in_the_python_api_is_a_scenario_error(tmp_path):
    from mtgkb.engine.state import Engine
    from mtgkb.rulebase.location import resolve_rule_base
    from mtgkb.running.api import Answerer

    base, path, line = planted(tmp_path, UNSAFE)
    engine = Engine(location=resolve_rule_base(base, []))
    with Answerer(engine) as answerer, pytest.raises(ScenarioError) as caught:
        answerer.run(SCENARIO, "s.mtg")
    err = caught.value
    assert (err.filename, err.line, err.column) == (str(path), line, 1)
    assert err.message.startswith("unsafe variables in:")
    assert str(err).startswith(f"{path}:{line}:1: error: unsafe variables in:")


def test_unsafe_variable_in_the_server_is_422_with_clingos_message(tmp_path):
    pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")
    from mtgkb.engine.state import Engine
    from mtgkb.rulebase.location import resolve_rule_base
    from mtgkb.running.pool import Pool
    from mtgkb.serve import app as server

    base, path, line = planted(tmp_path, UNSAFE)
    engine = Engine(location=resolve_rule_base(base, []))
    pool = Pool(1, engine=engine)
    try:
        status, exit_status, body = server.run_answer(
            pool, server.Settings(workers=1), {"scenario": SCENARIO, "name": "s.mtg"}
        )
    finally:
        pool.close()
    assert (status, exit_status) == (422, 2)
    assert body["error"].startswith(f"{path}:{line}:1: error: unsafe variables in:")
    assert (body["line"], body["column"]) == (line, 1)
