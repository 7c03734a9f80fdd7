"""A rule base is the user's input too: a file of it that clingo cannot read
(a rule, the vocabulary, a query, the input checks) is reported as bad input,
`FILE:LINE:COL: error:` naming that file, with exit 2 and no traceback, and
no answer is printed half-done."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT
from helpers.rule_base_copies import copy_base, mtgkb

# The slow tier (processes on a broken copy of the rule base):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

SCENARIO = ROOT / "examples" / "01_apnap_sacrifice.mtg"


@pytest.mark.parametrize(
    "broken",
    ["rules/119_life.lp", "kb/vocabulary.lp", "queries/order.lp", "rules/100_input_checks.lp"],
)
def test_a_file_clingo_cannot_read_is_named_with_its_line(tmp_path, broken):
    base = copy_base(tmp_path)
    path = base / broken
    lines = path.read_text(encoding="utf-8").count("\n")
    with path.open("a", encoding="utf-8") as out:
        out.write("this is not (( asp\n")
    status, out, err = mtgkb("run", "--json", "--rule-base", str(base), str(SCENARIO))
    assert status == 2, err
    assert "Traceback" not in err
    assert f"{path}:{lines + 1}:" in err and "error: syntax error" in err
    assert out.strip() == ""  # nothing half-done
    # the errors name only the broken file
    errors = [line for line in err.splitlines() if " error: " in line]
    assert errors and all(line.startswith(f"{path}:") for line in errors), err


def test_the_unbroken_copy_answers(tmp_path):
    base = copy_base(tmp_path)
    status, out, err = mtgkb("run", "--json", "--rule-base", str(base), str(SCENARIO))
    assert status == 0, err
    assert json.loads(out)["answers"][0]["ask"] == "order"
