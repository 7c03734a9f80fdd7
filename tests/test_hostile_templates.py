"""Violation messages are filled in one pass: a name that looks like a
placeholder (`{2}`, `{all}`) stays the literal name it is (issue 15, item 12).

The rule that decides these answers is 802.4a: a defender blocks only
creatures that attack it (or its planeswalkers and battles)."""

import pytest
from helpers.answering import run

from mtgkb.questions.answers import fill_template

ILLEGAL_BLOCK = """\
players: Rob, Alex, Carissa
active: Rob
Rob controls creature "Runeclaw Bear" 2/2
Rob controls creature "Hill Giant" 3/3
Alex controls creature "{blocker}" 2/2
"Runeclaw Bear" attacks Alex
"Hill Giant" attacks Carissa
"{blocker}" blocks "Hill Giant"
ask legal
ask explain
"""


@pytest.mark.parametrize("blocker", ["{2}", "{1}", "{all}", "{2}{1}", "{{2}}", "{3}"])
def test_a_blocker_named_like_a_placeholder_stays_literal(blocker):
    text = ILLEGAL_BLOCK.replace("{blocker}", blocker.replace("\\", "\\\\"))
    legal, explain = run(text)["answers"]
    assert legal["legal"] is False
    (violation,) = legal["violations"]
    assert violation["rule"] == "802.4a"
    assert "802.4a" in legal["rules"]
    message = violation["message"]
    assert message.startswith(f"{blocker} can't block Hill Giant")
    assert "Hill Giant can't block Hill Giant" not in message
    assert "Grizzly" not in message
    assert f"the controller of {blocker}" in message
    # the explanation renders the same message the same way
    shown = str(explain)
    assert f"{blocker} can't block Hill Giant" in shown


def test_fill_template_reads_the_template_only_once():
    assert fill_template("{1} can't block {2}", ["{2}", "Giant"]) == "{2} can't block Giant"
    assert fill_template("{all}", ["{1}", "{all}"]) == "{1}, {all}"
    assert fill_template("{1} and {2}", ["{all}", "B"]) == "{all} and B"
    # a placeholder with no argument is left as written
    assert fill_template("{1} and {3}", ["A"]) == "A and {3}"
