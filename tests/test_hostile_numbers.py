"""Numbers of any length are refused with the line that holds them, never a
crash in int() (issue 15, item 5): Python will not convert more than 4,300
digits, and 5,000 leading zeros count as digits too. `mtgkb.run` raises the
package's own ScenarioError, never a bare ValueError."""

import subprocess
import sys

import pytest
from helpers import ROOT

import mtgkb
from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text

# Every place of the grammar that takes a number, {n} where it stands.
FORMS = [
    "option: range-of-influence {n}",
    "range: Ann {n}",
    "life: Ann {n}",
    "rule: no more than {n} creatures can attack",
    'Ann controls creature "Bear" {n}/2',
    'Ann controls creature "Bear" 2/{n}',
    'Ann controls planeswalker "Jace" loyalty {n}',
    'Ann controls battle "Siege" defense {n}',
    '"Fireball" deals {n} damage to Ben',
    "Ann loses {n} life",
    "Ann gains {n} life",
    "Ann pays {n} life",
    "Ann's life total becomes {n}",
    "ask attacks limit {n}",
    "ask blocks limit {n}",
    "ask can Ann pay {n} life",
]
HUGE = {
    "4301 digits": "9" * 4301,
    "5000 nines": "9" * 5000,
    "5000 leading zeros": "0" * 5000 + "1",
    "signed": "-" + "7" * 4400,
    "plus": "+" + "0" * 6000,
    "one too many digits": "1" + "0" * 20,
}


def text_with(form: str, number: str) -> str:
    return "players: Ann, Ben\n" + form.format(n=number) + "\nask legal\n"


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("number", HUGE.values(), ids=HUGE.keys())
def test_a_huge_number_is_refused_at_its_line(form, number):
    text = text_with(form, number)
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "n.mtg")
    err = caught.value
    assert err.line == 2
    assert err.column == form.index("{n}") + 1
    assert "digits" in err.message or "too large" in err.message or "negative" in err.message
    assert err.format().startswith("n.mtg:2:")


@pytest.mark.parametrize("number", HUGE.values(), ids=HUGE.keys())
def test_the_api_raises_its_own_error_type(number):
    with pytest.raises(ScenarioError) as caught:
        mtgkb.run(text_with("Ann loses {n} life", number))
    assert type(caught.value) is ScenarioError
    assert not isinstance(caught.value, ValueError)


def test_leading_zeros_within_reason_are_the_number():
    scenario = parse_text(text_with("Ann loses {n} life", "0007"), "n.mtg")
    assert scenario.events[0].args == ("Ann", 7)


def test_the_command_line_exits_2_naming_the_line():
    done = subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", "-"],
        input=text_with("Ann gains {n} life", "0" * 5000 + "3"),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("<stdin>:2:11: error: life gained is written with 5001 digits")
    assert "Traceback" not in done.stderr
