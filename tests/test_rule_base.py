"""The rule base belongs to its user: `--rule-base DIR`, `MTGKB_RULE_BASE`,
`--with FILE.lp`, the rule base named in every report and answer, and the note
when the current folder is a checkout that differs from the rule base in use."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from helpers import ROOT
from helpers.rule_base_copies import copy_base, mtgkb

from mtgkb.rulebase import location as paths

SCENARIO = """players: Ann, Ben
"Bolt" deals 3 damage to Ben
ask outcome
"""


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "s.mtg"
    path.write_text(SCENARIO, encoding="utf-8")
    return str(path)


def _starting_life(base, n):
    life = base / "kb" / "life.lp"
    text = life.read_text(encoding="utf-8")
    life.write_text(text.replace("default_starting_life(20).", f"default_starting_life({n})."))


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_103_4_rule_base_option_answers_from_that_folder(tmp_path, scenario):
    base = copy_base(tmp_path)
    _starting_life(base, 25)
    status, out, _ = mtgkb("run", scenario, "--json", "--rule-base", str(base))
    data = json.loads(out)
    assert status == 0
    assert data["answers"][0]["life"] == {"Ann": 25, "Ben": 22}
    assert "103.4" in data["answers"][0]["rules"]
    assert data["rule_base"]["path"] == str(base.resolve())
    assert data["rule_base"]["digest"] == paths.digest_of(base.resolve())
    # the checkout's own answer differs: the option, not the checkout, decided
    _, out, _ = mtgkb("run", scenario, "--json")
    assert json.loads(out)["answers"][0]["life"] == {"Ann": 20, "Ben": 17}


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_103_4_environment_names_the_rule_base(tmp_path, scenario):
    base = copy_base(tmp_path)
    _starting_life(base, 30)
    status, out, _ = mtgkb("run", scenario, "--json", env={"MTGKB_RULE_BASE": str(base)})
    assert status == 0
    assert json.loads(out)["answers"][0]["life"] == {"Ann": 30, "Ben": 27}
    # the option wins over the environment
    _, out, _ = mtgkb(
        "run", scenario, "--json", "--rule-base", str(ROOT), env={"MTGKB_RULE_BASE": str(base)}
    )
    assert json.loads(out)["answers"][0]["life"] == {"Ann": 20, "Ben": 17}


HOUSE = """% 103.4: house rule: two-player games start at 25 life
life_variant(two_player).
% 103.4: house rule: two-player games start at 25 life
starting_life(P,25) :- player(P), game(two_player).
"""


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_103_4_with_adds_a_house_rule_after_the_rule_base(tmp_path, scenario):
    house = tmp_path / "house.lp"
    house.write_text(HOUSE, encoding="utf-8")
    status, out, _ = mtgkb("run", scenario, "--json", "--with", str(house))
    data = json.loads(out)
    assert data["rule_base"]["with"] == [str(house.resolve())]
    assert status == 0
    assert data["answers"][0]["life"] == {"Ann": 25, "Ben": 22}
    # MTGKB_WITH names the same files for every command
    _, out, _ = mtgkb("run", scenario, "--json", env={"MTGKB_WITH": str(house)})
    assert json.loads(out)["answers"][0]["life"] == {"Ann": 25, "Ben": 22}


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_with_refuses_a_missing_file_and_an_unreadable_program(tmp_path, scenario):
    status, _, err = mtgkb("run", scenario, "--with", str(tmp_path / "nope.lp"))
    assert status == 2 and "nope.lp: no such file" in err
    bad = tmp_path / "bad.lp"
    bad.write_text("a :- b(.\n")
    status, _, err = mtgkb("run", scenario, "--with", str(bad))
    assert status == 2 and f"{bad}:1:" in err and "Traceback" not in err
    status, _, err = mtgkb("run", scenario, "--rule-base", str(tmp_path))
    assert status == 2 and "not a rule base" in err


@pytest.mark.slow
def test_every_text_report_starts_by_naming_the_rule_base(scenario):
    title = f"rule base: {ROOT} ({paths.digest_of(ROOT)})"
    for args in (("rules", "119.3"), ("rules",)):
        status, out, _ = mtgkb(*args, "--rule-base", str(ROOT))
        assert status == 0
        assert out.splitlines()[0] == title, args
    # the answers of `run` alone on standard output; the rule base on standard
    # error with --verbose, and nothing there without it
    status, out, err = mtgkb("run", scenario, "--rule-base", str(ROOT))
    assert status == 0 and "rule base" not in out and err == ""
    status, out, err = mtgkb("run", scenario, "--verbose", "--rule-base", str(ROOT))
    assert status == 0 and "rule base" not in out
    assert err.splitlines()[0] == title
    _, out, _ = mtgkb("facts", scenario, "--rule-base", str(ROOT))
    assert out.splitlines()[0] == f"% {title}"
    _, out, _ = mtgkb("rules", "119.3", "--json")
    assert json.loads(out)["rule_base"]["path"] == str(ROOT)


@pytest.mark.slow
def test_a_checkout_that_differs_from_the_rule_base_in_use_is_said_on_stderr(tmp_path, scenario):
    checkout = copy_base(tmp_path, "checkout")
    (checkout / "pyproject.toml").write_text('[project]\nname = "mtgkb"\n')
    status, out, err = mtgkb("run", scenario, "--json", cwd=checkout)
    assert status == 0 and json.loads(out)["answers"]
    assert "differ" not in err  # same files: nothing to say
    _starting_life(checkout, 25)
    status, out, err = mtgkb("run", scenario, "--json", cwd=checkout)
    assert status == 0
    notes = [line for line in err.splitlines() if "differ" in line]
    assert len(notes) == 1 and "kb/" in notes[0] and "rules/" not in notes[0]
    # answering from it: nothing to say
    _, _, err = mtgkb("run", scenario, "--rule-base", ".", cwd=checkout)
    assert "differ" not in err


def test_resolve_rule_base_is_the_one_function_serve_calls(tmp_path):
    base = copy_base(tmp_path)
    chosen = paths.resolve_rule_base(base, [], env={})
    assert chosen.root == base.resolve() and chosen.extra == ()
    assert paths.resolve_rule_base(None, None, env={"MTGKB_RULE_BASE": str(base)}).root == (
        base.resolve()
    )
    assert paths.resolve_rule_base(None, None, env={}).root == paths.installed_root()
    with pytest.raises(paths.RuleBaseError):
        paths.resolve_rule_base(tmp_path / "missing", env={})


def test_the_python_api_names_the_rule_base_too():
    import mtgkb as api

    out = api.run(SCENARIO)
    assert out["rule_base"] == {"path": str(ROOT), "digest": paths.digest_of(ROOT)}
    assert out["answers"][0]["life"] == {"Ann": 20, "Ben": 17}


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_the_rule_base_in_use_follows_the_environment_and_its_folder(tmp_path, monkeypatch):
    # current() keeps its last resolution while the environment names the
    # same folder and the folder is there
    first, second = copy_base(tmp_path, "first"), copy_base(tmp_path, "second")
    monkeypatch.setenv(paths.ENV_RULE_BASE, str(first))
    assert paths.current().root == first.resolve()
    monkeypatch.setenv(paths.ENV_RULE_BASE, str(second))
    assert paths.current().root == second.resolve()
    shutil.rmtree(second)
    with pytest.raises(paths.RuleBaseError, match="no such folder"):
        paths.current()


HOUSE_BLOCK = """% 509.1a: house rule: a creature of power 1 can't block
pair_fault(B,C,"509.1a",house_small_blocker(B)) :- block_pair(B,C), power(B,1).
message(house_small_blocker, "{1} is too small to block (house rule)").
message_it(house_small_blocker, "{1} è troppo piccola per bloccare (regola della casa)").
"""

BLOCKED = """players: Ann, Ben
Ann controls creature "Wisp" 2/2
Ben controls creature "Bear" 1/1
"Wisp" attacks Ben
"Bear" blocks "Wisp"
ask legal
"""


@pytest.mark.slow  # a --with file: its analysis is computed anew
def test_a_kind_of_violation_added_with_with_speaks_its_own_texts(tmp_path):
    # 509.1a: the house rule forbids the block; its violation is told with
    # the texts the added file gives it, in English and in Italian
    house = tmp_path / "house.lp"
    house.write_text(HOUSE_BLOCK, encoding="utf-8")
    scenario = tmp_path / "blocked.mtg"
    scenario.write_text(BLOCKED, encoding="utf-8")
    for lang, text in (
        ("en", "Bear is too small to block (house rule)"),
        ("it", "Bear è troppo piccola per bloccare (regola della casa)"),
    ):
        status, out, _ = mtgkb("run", str(scenario), "--json", "--with", str(house), "--lang", lang)
        (legal,) = json.loads(out)["answers"]
        assert status == 1 and legal["legal"] is False
        (violation,) = legal["violations"]
        assert violation["rule"] == "509.1a" and violation["kind"] == "house_small_blocker"
        assert violation["message"] == text


TYPED = """
import json, sys
import mtgkb
answer = mtgkb.run(sys.stdin.read())
typed = mtgkb.RunResult.model_validate(answer)
print(json.dumps([v.kind for v in typed.answers[0].violations]))
"""


@pytest.mark.slow  # a --with file: its analysis is computed anew
def test_the_typed_answers_know_a_kind_of_violation_added_with_with(tmp_path):
    # the Python API's typed answers (ViolationKind) take the kinds the
    # added files give texts, as the answers do: 509.1a's house rule again
    house = tmp_path / "house.lp"
    house.write_text(HOUSE_BLOCK, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", TYPED],
        input=BLOCKED,
        capture_output=True,
        text=True,
        env={**os.environ, "MTGKB_WITH": str(house)},
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["house_small_blocker"]
