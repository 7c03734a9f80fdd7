"""510.4, 702.4c, 702.4d, 702.7c: a creature changed between the two combat
damage steps (`after first-strike damage, "C" gains double strike`, `... loses
first strike`, `... gets +2/+0`). The creatures that assign damage in the second
step are those that had neither first strike nor double strike as the first step
began, and those that have double strike now (510.4)."""

import subprocess
import sys

from helpers.answering import run

TWO = "players: Rob, Alex\nactive: Rob\n"


def outcome_after(creature: str, change: str | None, extra: str = "") -> dict:
    text = TWO + f'Rob controls creature "Knight" {creature}\n"Knight" attacks Alex\n' + extra
    if change:
        text += f'after first-strike damage, "Knight" {change}\n'
    text += "combat damage\nask outcome\n"
    return next(a for a in run(text)["answers"] if a["ask"] == "outcome")


def test_702_4d_a_first_striker_that_gains_double_strike_deals_damage_again():
    assert outcome_after("2/2 with first strike", None)["life"]["Alex"] == 18
    found = outcome_after("2/2 with first strike", "gains double strike")
    assert found["life"]["Alex"] == 16
    assert {"702.4d", "510.4"} <= set(found["rules"])


def test_702_4c_a_creature_that_loses_double_strike_deals_no_damage_in_the_second_step():
    assert outcome_after("2/2 with double strike", None)["life"]["Alex"] == 16
    found = outcome_after("2/2 with double strike", "loses double strike")
    assert found["life"]["Alex"] == 18
    assert "702.4c" in found["rules"]


def test_702_7c_a_first_striker_that_loses_first_strike_does_not_strike_again():
    found = outcome_after("2/2 with first strike", "loses first strike")
    assert found["life"]["Alex"] == 18  # it had first strike as the first step began
    assert "702.7c" in found["rules"]


def test_702_4b_a_double_striker_that_loses_first_strike_keeps_double_strike():
    found = outcome_after("2/2 with double strike", "loses first strike")
    assert found["life"]["Alex"] == 16


def test_702_7c_a_creature_that_gains_first_strike_after_the_first_step_still_strikes():
    extra = 'Rob controls creature "Striker" 1/1 with first strike\n"Striker" attacks Alex\n'
    found = outcome_after("2/2", "gains first strike", extra)
    assert found["life"]["Alex"] == 20 - 1 - 2
    assert "702.7c" in found["rules"]


def test_510_4_a_power_change_between_the_steps_counts_in_the_second_step():
    found = outcome_after("1/1 with double strike", "gets +2/+0")
    assert found["life"]["Alex"] == 20 - 1 - 3
    assert "510.4" in found["rules"]


def test_510_4_without_a_first_strike_step_the_change_never_happens():
    found = outcome_after("2/2", "gains double strike")
    assert found["life"]["Alex"] == 18  # one combat damage step: no moment between steps


def test_510_4_a_toughness_change_between_the_steps_saves_a_blocker():
    text = TWO + 'Rob controls creature "Knight" 2/2 with double strike\n'
    text += 'Alex controls creature "Wall" 0/3\n"Knight" attacks Alex\n"Wall" blocks "Knight"\n'
    text += 'after first-strike damage, "Wall" gets +0/+2\ncombat damage\nask outcome\n'
    found = next(a for a in run(text)["answers"] if a["ask"] == "outcome")
    assert found["destroyed"] == []  # 4 damage on toughness 5


def test_510_4_only_first_strike_and_double_strike_change_between_the_steps(tmp_path):
    path = tmp_path / "bad.mtg"
    text = TWO + 'Rob controls creature "Knight" 2/2\n'
    path.write_text(text + 'after first-strike damage, "Knight" gains flying\n')
    done = subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 2
    expected = "bad.mtg:4:43: error: 'flying' can't change between the combat damage steps"
    assert expected in done.stderr
