"""A rule base that contradicts itself never answers quietly (spec, section
11): a house rule giving every player a second starting life total (103.4)
makes the answers say "inconsistent" with the rules and places behind each
value, pick no value, and the run exit 4. The single-valued atoms are
declared in kb/single_valued.lp, not in Python."""

from __future__ import annotations

import json

import clingo
import pytest
from helpers import ROOT
from helpers.rule_base_copies import CONTRADICTING_HOUSE, copy_base, mtgkb

SCENARIO = """players: Ann, Ben
"Bolt" deals 3 damage to Ben
ask legal
ask can Ben pay 25 life
ask outcome
"""
HOUSE = CONTRADICTING_HOUSE


@pytest.fixture
def files(tmp_path):
    scenario = tmp_path / "s.mtg"
    scenario.write_text(SCENARIO, encoding="utf-8")
    house = tmp_path / "house.lp"
    house.write_text(HOUSE, encoding="utf-8")
    return scenario, house


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_103_4_second_starting_life_total_gives_inconsistent_and_exit_4(files):
    scenario, house = files
    status, out, _ = mtgkb("run", str(scenario), "--json", "--with", str(house))
    assert status == 4
    outcome = json.loads(out)["answers"][-1]
    found = {(i["atom"], i["of"]): i for i in outcome["inconsistent"]}
    start = found[("starting_life", "Ann")]
    assert start["values"] == [20, 30]
    assert start["rules"] == ["103.4"]
    places = {d["value"]: d["at"] for d in start["derived_by"]}
    assert places[30] == [f"{house}:2"]
    assert places[20][0].startswith("rules/103_starting_life.lp:")
    assert found[("life", "Ben")]["values"] == [17, 27]
    assert "119.3" in found[("life", "Ben")]["rules"]
    # no value is picked, nor an answer resting on one
    assert outcome["life"] == {}
    legal, pay, _ = json.loads(out)["answers"]
    assert pay["can"] is None and pay["inconsistent"]
    assert {i["atom"] for i in legal["inconsistent"]} >= {"starting_life"}


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_103_4_contradicting_file_in_rules_of_a_copy_exits_4_in_text_too(tmp_path, files):
    scenario, _ = files
    base = copy_base(tmp_path)
    (base / "rules" / "999_house.lp").write_text(HOUSE, encoding="utf-8")
    status, out, _ = mtgkb("run", str(scenario), "--rule-base", str(base))
    assert status == 4
    assert "the rule base contradicts itself: starting_life of Ann is 20, 30" in out
    assert "rules/999_house.lp:2" in out


@pytest.mark.slow
def test_103_4_the_checkout_is_consistent_on_its_examples():
    for path in sorted((ROOT / "examples").glob("*.mtg")):
        status, out, _ = mtgkb("run", str(path), "--json")
        assert status in (0, 1)
        assert all("inconsistent" not in a for a in json.loads(out)["answers"])


def test_single_valued_atoms_are_declared_in_the_rule_base_not_in_python():
    """The check reads the declarations: a new declared atom is checked with no other change."""
    program = (ROOT / "kb" / "single_valued.lp").read_text(encoding="utf-8")
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.add("base", [], "single_valued(poison, P, N) :- poison(P, N). poison(a, 3). poison(a, 4).")
    ctl.add(
        "base", [], "single_valued(counters, X, N) :- counters(X, N). counters(b,1). counters(b,2)."
    )
    ctl.ground([("base", [])])
    found = {str(a.symbol) for a in ctl.symbolic_atoms.by_signature("inconsistent", 3)}
    assert found == {
        "inconsistent(poison,a,3)",
        "inconsistent(poison,a,4)",
        "inconsistent(counters,b,1)",
        "inconsistent(counters,b,2)",
    }


def test_903_10a_a_holder_of_two_names_is_a_list():
    from mtgkb.questions.consistency import report

    pair = clingo.Function("", [clingo.String("Alex"), clingo.String("Atraxa")])
    model = [
        clingo.Function(
            "inconsistent", [clingo.Function("commander_damage"), pair, clingo.Number(n)]
        )
        for n in (3, 5)
    ]
    (item,) = report(model, "outcome", "")
    assert (item["atom"], item["of"], item["values"]) == (
        "commander_damage",
        ["Alex", "Atraxa"],
        [3, 5],
    )
