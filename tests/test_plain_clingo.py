"""Plain clingo reproduces mtgkb's answers exactly (spec, section 7), with the
command line the README gives, on the rule base's files as they are

    echo '#minimize{0}.' | python -m clingo rules/*.lp kb/*.lp queries/Q.lp facts.lp - \\
        0 --project=show --opt-mode=optN --quiet=1

(rules/generated_citations.lp holds the citations the `cite` tags generate)
or on the program `mtgkb program --query Q > program.lp` prints.

`0` asks for every model (clingo's default is one), `--opt-mode=optN` for
every optimal one, `--project=show` for one model per shown answer, and
`--quiet=1` prints only the optimal models; the zero-weight `#minimize` from
standard input makes every program an optimisation, so that `--quiet=1`
prints all models of the queries that optimise nothing too."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from helpers import ROOT

from mtgkb.engine.solve import models_as_text
from mtgkb.language.facts import facts_text, question_symbol, scenario_facts
from mtgkb.language.parser import parse_file, parse_text
from mtgkb.questions.answers import QUERY_OF

# The slow tier (plain clingo on the whole rule base):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

#: One printed atom: spaces inside quoted names belong to the atom.
ATOM = re.compile(r'(?:[^\s"]|"(?:[^"\\]|\\.)*")+')
RECIPE = ["0", "--project=show", "--opt-mode=optN", "--quiet=1"]
ZERO = "#minimize{0}.\n"


def exported(query: str, tmp_path) -> str:
    """`mtgkb program --query Q` written to a file: the program's path."""
    out = subprocess.run(
        [sys.executable, "-m", "mtgkb", "program", "--rule-base", str(ROOT), "--query", query],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = tmp_path / f"program_{query}.lp"
    path.write_text(out, encoding="utf-8")
    return str(path)


def globbed(query: str, tmp_path) -> list[str]:
    """`rules/*.lp kb/*.lp queries/Q.lp`, as the shell expands them."""
    files = [str(f) for folder in ("rules", "kb") for f in sorted((ROOT / folder).glob("*.lp"))]
    return [*files, str(ROOT / "queries" / f"{query}.lp")]


def plain_clingo(query: str, facts: str, tmp_path, files_of=None) -> list[set[str]]:
    """The models plain clingo prints with the README's command line (on the
    program `mtgkb program` prints, or on the files `files_of` names)."""
    path = tmp_path / "facts.lp"
    path.write_text(facts, encoding="utf-8")
    program = files_of(query, tmp_path) if files_of else [exported(query, tmp_path)]
    files = [*program, str(path), "-"]
    proc = subprocess.run(
        [sys.executable, "-m", "clingo", *files, *RECIPE],
        input=ZERO,
        capture_output=True,
        text=True,
    )
    assert "OPTIMUM FOUND" in proc.stdout, proc.stdout + proc.stderr
    models, take = [], False
    for line in proc.stdout.splitlines():
        if line.startswith("Answer:"):
            take = True
        elif take:
            models.append(set(ATOM.findall(line)))
            take = False
    return models


def cases():
    out = []
    for path in sorted((ROOT / "examples").glob("*.mtg")):
        scenario = parse_file(path)
        for question in scenario.questions:
            query = QUERY_OF.get(question.kind)
            if query and query != "explain":
                out.append(pytest.param(path, question, query, id=f"{path.stem}-{query}"))
    return out


@pytest.mark.parametrize("recipe", ["rule-base-files", "mtgkb-program"])
@pytest.mark.parametrize("path,question,query", cases())
def test_plain_clingo_prints_exactly_the_models_mtgkb_answers_from(
    path, question, query, recipe, tmp_path
):
    scenario = parse_file(path)
    own = question_symbol(question)
    facts = [s for s in scenario_facts(scenario) if s.name != "asked" or s.arguments[0] == own]
    text = facts_text(facts)
    files_of = globbed if recipe == "rule-base-files" else None
    theirs = plain_clingo(query, text, tmp_path, files_of)
    ours = models_as_text(query, text)
    assert len(theirs) == len(ours)
    assert sorted(map(sorted, theirs)) == sorted(map(sorted, ours))


REQUIREMENT = """players: Rob, Alex
Rob controls creature "Serra Angel" 4/4
Rob controls creature "Hill Giant" 3/3
Alex controls creature "Sentry" 1/4 with blocks each combat if able
Alex controls creature "Bears" 2/2
"Serra Angel" attacks Alex
"Hill Giant" attacks Alex
ask blocks
"""


def test_509_1c_without_the_recipe_plain_clingo_prints_too_few_or_too_many(tmp_path):
    """The two traps the recipe avoids, on a block requirement (509.1c, a
    #maximize): one model without `0`; the optimisation's steps as well with
    `0 --opt-mode=optN` alone."""
    text = facts_text(scenario_facts(parse_text(REQUIREMENT)))
    ours = models_as_text("blocks", text)
    assert len(ours) == 6
    path = tmp_path / "f.lp"
    path.write_text(text, encoding="utf-8")
    files = [exported("blocks", tmp_path), str(path)]
    run = [sys.executable, "-m", "clingo", *files, "--project=show"]
    one = subprocess.run(run, capture_output=True, text=True).stdout
    assert one.count("Answer:") < len(ours)  # the optimisation steps to one optimum
    optn = [*run, "0", "--opt-mode=optN"]
    steps = subprocess.run(optn, capture_output=True, text=True).stdout
    assert steps.count("Answer:") > len(ours)
    theirs = plain_clingo("blocks", text, tmp_path)
    assert sorted(map(sorted, theirs)) == sorted(map(sorted, ours))
