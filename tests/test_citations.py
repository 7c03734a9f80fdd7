"""Citations generated from `% N cite:` tags (mtgkb.rulebase.citations): what a
marked rule gets, that the engine, `ask explain`, the rule index and plain
clingo (through `mtgkb program`) all see it, and that no citation the marker
would make is written by hand."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from mtgkb.engine.rule_base import LoadedRuleBase
from mtgkb.engine.solve import models_as_text
from mtgkb.rulebase import encoded as ruleindex
from mtgkb.rulebase.citations import CitationError, generate, hand_written, program_text
from mtgkb.rulebase.encoded import scan_file
from mtgkb.rulebase.location import program_files

# slow tier: generated citations of rule-base copies
pytestmark = pytest.mark.slow

#: One printed atom, and the README's plain clingo recipe (as tests/test_plain_clingo.py).
ATOM = re.compile(r'(?:[^\s"]|"(?:[^"\\]|\\.)*")+')
RECIPE = ["0", "--project=show", "--opt-mode=optN", "--quiet=1"]
ZERO = "#minimize{0}.\n"

ORDER = """players: Rob, Alex, Carissa
active: Alex
Rob controls creature "Runeclaw Bear" 2/2
Alex controls creature "Grizzly Bears" 2/2
each player sacrifices a creature
ask order
"""


def mtgkb(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mtgkb", *args],
        input=stdin,
        capture_output=True,
        text=True,
    )


# --------------------------------------------------------------------------
# What a marked rule gets
# --------------------------------------------------------------------------


def test_a_cite_tag_gives_the_rule_a_citation_under_each_number_of_its_tag():
    text = (
        "% 101.4, 805.6 cite: a unit's place.\n"
        "unit_rank(U,R) :- apnap_unit(_,U), R = #min{ K,P : apnap_rank(P,K) }, R < #sup.\n"
    )
    made = generate(text)
    assert [(g.line, g.number) for g in made] == [(2, "101.4"), (2, "805.6")]
    assert made[0].text == 'because(unit_rank(U,R),rule("101.4")) :- unit_rank(U,R).'


def test_computed_head_arguments_become_variables_of_their_own():
    text = "% 119.4 cite: paying life.\nlife_change(I,P,-N,pay) :- pay_attempt(I,P,N).\n"
    (made,) = generate(text)
    assert made.text == (
        'because(life_change(I,P,_C1,pay),rule("119.4")) :- life_change(I,P,_C1,pay).'
    )


def test_without_the_marker_there_is_no_citation(tmp_path):
    text = "% 101.4: a unit's place.\nunit_rank(U,R) :- apnap_unit(U,R).\n"
    assert generate(text) == []
    path = tmp_path / "x.lp"
    path.write_text(text, encoding="utf-8")
    assert program_text(path) == text
    path.write_text(text.replace("101.4:", "101.4 cite:"), encoding="utf-8")
    assert program_text(path).endswith('because(unit_rank(U,R),rule("101.4")) :- unit_rank(U,R).\n')


def test_a_marked_rule_whose_head_is_not_one_atom_is_an_error_of_its_line(tmp_path):
    text = "% 509.1 cite: a constraint.\n:- blocks(B,C), not can_block(B,C).\n"
    with pytest.raises(CitationError, match=r"x\.lp:2: .*one atom"):
        generate(text, "x.lp")
    path = tmp_path / "x.lp"
    path.write_text(text, encoding="utf-8")
    assert any(":2:" in e and "one atom" in e for e in scan_file(path).errors)


def test_the_marker_is_no_tag_item_and_a_generated_citation_counts_as_cited(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.lp").write_text(
        "% 102.1 cite: the nonactive players.\nnonactive(P) :- player(P), not active(P).\n",
        encoding="utf-8",
    )
    scan = scan_file(tmp_path / "rules" / "x.lp")
    assert scan.tags[0].numbers == ("102.1",) and not scan.tags[0].malformed
    assert ruleindex.encoded_map(tmp_path) == {"102.1": ["rules/x.lp:2"]}
    assert ruleindex.encoded_map(tmp_path, cited=True) == {"102.1": ["rules/x.lp:2"]}


def test_the_fast_reader_and_the_scan_generate_the_same_citations_for_every_rule_file():
    for path in sorted((ROOT / "rules").glob("*.lp")) + sorted((ROOT / "kb").glob("*.lp")):
        scanned = sorted((s.line, str(s.ast)) for s in scan_file(path).statements if s.generated)
        read = sorted((g.line, g.text) for g in generate(path.read_text(encoding="utf-8"), path))
        assert scanned == read, path.name


# --------------------------------------------------------------------------
# No citation written by hand that the marker would make
# --------------------------------------------------------------------------


def test_no_rule_file_writes_by_hand_a_citation_its_cite_tag_would_make():
    found = []
    for folder in ("rules", "kb"):
        for path in sorted((ROOT / folder).glob("*.lp")):
            found += [
                ruleindex.label(st.file, st.line) for st in hand_written(scan_file(path).statements)
            ]
    assert found == [], "write `cite` in the rule's tag instead of: " + ", ".join(found)


def test_a_hand_written_duplicate_of_a_marker_is_found(tmp_path):
    path = tmp_path / "x.lp"
    path.write_text(
        "% 119.4: paying life.\n"
        "life_change(I,P,-N,pay) :- pay_attempt(I,P,N).\n"
        "% 119.4: life paid is life lost.\n"
        'because(life_change(I,P,D,pay), rule("119.4")) :- life_change(I,P,D,pay).\n'
        "\n"
        "% 102.4: your team.\n"
        "your_team(P,P) :- player(P).\n"
        "your_team(P,Q) :- teammate(P,Q).\n"
        "% 102.4: only the second rule's shape is cited: no marker can say it.\n"
        'because(your_team(P,Q), rule("102.4")) :- your_team(P,Q).\n',
        encoding="utf-8",
    )
    assert [st.line for st in hand_written(scan_file(path).statements)] == [4]


# --------------------------------------------------------------------------
# The engine, `ask explain` and plain clingo see the generated citations
# --------------------------------------------------------------------------


def copy_of_rule_base(tmp_path: Path) -> Path:
    root = tmp_path / "base"
    for name in ("rules", "kb", "queries"):
        shutil.copytree(ROOT / name, root / name)
    return root


MARKED_ORDER = "% 101.4 cite: the position, whatever step it opened at.\n"


def test_the_order_answer_cites_101_4_by_the_marker_alone(tmp_path):
    """`order(Pos,P)` is cited to 101.4 only by its rule's `cite` tag: the
    answer names 101.4 with it and no rule without it."""
    assert MARKED_ORDER in (ROOT / "rules" / "101_apnap.lp").read_text(encoding="utf-8")
    assert 'because(order(Pos,P),rule("101.4"))' in program_text(ROOT / "rules" / "101_apnap.lp")
    scenario = tmp_path / "order.mtg"
    scenario.write_text(ORDER, encoding="utf-8")
    with_marker = json.loads(mtgkb("run", "--json", str(scenario)).stdout)
    assert with_marker["answers"][0]["orders"] == [["Alex", "Carissa", "Rob"]]
    assert with_marker["answers"][0]["rules"] == ["101.4"]
    root = copy_of_rule_base(tmp_path)
    apnap = root / "rules" / "101_apnap.lp"
    apnap.write_text(
        apnap.read_text(encoding="utf-8").replace(MARKED_ORDER, MARKED_ORDER.replace(" cite", "")),
        encoding="utf-8",
    )
    without = json.loads(mtgkb("run", "--json", "--rule-base", str(root), str(scenario)).stdout)
    assert without["answers"][0]["orders"] == [["Alex", "Carissa", "Rob"]]
    assert not without["answers"][0].get("rules")


EXTRA = """#defined test_never/0.
% 101.4c{mark}: a second way to a place in APNAP order, which never fires.
apnap_rank(P,K) :- apnap_rank(P,K), test_never.
"""


@pytest.mark.parametrize("mark", [" cite", ""])
def test_ask_explain_cites_a_generated_citation_and_not_once_the_marker_is_gone(mark, tmp_path):
    """An added file's marked rule cites 101.4c of every place in APNAP
    order; `ask explain order` names it beside 101.4, which decides the
    place; without the marker 101.4c is nowhere in the explanation."""
    extra = tmp_path / "extra.lp"
    extra.write_text(EXTRA.format(mark=mark), encoding="utf-8")
    scenario = tmp_path / "order.mtg"
    scenario.write_text(ORDER + "ask explain order\n", encoding="utf-8")
    out = json.loads(mtgkb("run", "--json", "--with", str(extra), str(scenario)).stdout)
    tree = out["answers"][1]["tree"]
    text = json.dumps(tree)
    assert '"atom": "apnap_rank(\\"Alex\\",0)", "rule": "101.4"' in text
    assert ("101.4c" in text) == bool(mark)


def test_the_analysed_text_and_its_cache_key_hold_the_generated_citations(tmp_path):
    root = copy_of_rule_base(tmp_path)
    files = program_files(root / "rules")  # (less the copy kept for plain clingo)
    queries = sorted((root / "queries").glob("*.lp"))
    marked = LoadedRuleBase((), files, queries, root / "queries")
    assert 'because(order(Pos,P),rule("101.4")) :- order(Pos,P).' in marked.text
    apnap = root / "rules" / "101_apnap.lp"
    apnap.write_text(
        apnap.read_text(encoding="utf-8").replace(MARKED_ORDER, MARKED_ORDER.replace(" cite", "")),
        encoding="utf-8",
    )
    unmarked = LoadedRuleBase((), files, queries, root / "queries")
    assert 'because(order(Pos,P),rule("101.4"))' not in unmarked.text
    assert marked._key() != unmarked._key()


def test_plain_clingo_on_mtgkb_program_and_mtgkb_facts_shows_what_the_engine_shows(tmp_path):
    scenario = tmp_path / "order.mtg"
    scenario.write_text(ORDER, encoding="utf-8")
    facts = mtgkb("facts", str(scenario))
    program = mtgkb("program", "--query", "order")
    assert facts.returncode == 0 and program.returncode == 0, facts.stderr + program.stderr
    assert 'because(order(Pos,P),rule("101.4")) :- order(Pos,P).' in program.stdout
    (tmp_path / "facts.lp").write_text(facts.stdout, encoding="utf-8")
    (tmp_path / "program.lp").write_text(program.stdout, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "clingo", str(tmp_path / "program.lp"), str(tmp_path / "facts.lp")]
        + ["-", *RECIPE],
        input=ZERO,
        capture_output=True,
        text=True,
    )
    assert "OPTIMUM FOUND" in run.stdout, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    theirs = [
        set(ATOM.findall(lines[i + 1]))
        for i, line in enumerate(lines)
        if line.startswith("Answer:")
    ]
    ours = models_as_text("order", facts.stdout)
    assert sorted(map(sorted, theirs)) == sorted(map(sorted, ours))
    assert any('cites(rule("101.4"))' in model for model in theirs)


def test_mtgkb_program_names_an_unknown_query_and_exits_2():
    out = mtgkb("program", "--query", "nope")
    assert out.returncode == 2
    assert re.search(r"no query 'nope' \(known: .*legal", out.stderr)


# --- the copy for plain clingo: rules/generated_citations.lp --------------------


def test_the_copy_for_plain_clingo_is_what_the_tags_generate_now():
    from mtgkb.rulebase.citations import plain_clingo_copy
    from mtgkb.rulebase.location import GENERATED_CITATIONS

    copy = ROOT / "rules" / GENERATED_CITATIONS
    assert copy.read_text(encoding="utf-8") == plain_clingo_copy(ROOT), (
        f"run `mtgkb program --citations > rules/{GENERATED_CITATIONS}`"
    )
    assert 'because(apnap_rank(P,K),rule("101.4")) :- apnap_rank(P,K).' in copy.read_text()


def test_the_copy_names_what_each_citation_cites_not_the_line_of_its_tag(tmp_path):
    """A comment line added to a rule file moves its rules' lines but changes
    nothing of the copy for plain clingo: each citation is named by the atom
    it cites, so rules/generated_citations.lp stays as it is."""
    from mtgkb.rulebase.citations import plain_clingo_copy

    base = tmp_path / "base"
    for folder in ("rules", "kb"):
        shutil.copytree(ROOT / folder, base / folder)
    before = plain_clingo_copy(base)
    apnap = base / "rules" / "101_apnap.lp"
    apnap.write_text("% a comment line\n" + apnap.read_text(encoding="utf-8"), encoding="utf-8")
    assert "% 101.4: generated from a `cite` tag: apnap_rank(P,K).\n" in before
    assert plain_clingo_copy(base) == before


def test_mtgkb_reads_no_copy_and_the_audit_says_when_it_is_stale(tmp_path):
    """A stale copy changes nothing mtgkb answers (it generates the citations
    itself); the audit warns that plain clingo would cite otherwise."""
    from mtgkb.audit.lint import stale_citations
    from mtgkb.audit.sources import Base
    from mtgkb.rulebase.location import GENERATED_CITATIONS

    base = tmp_path / "base"
    for folder in ("rules", "kb", "queries"):
        shutil.copytree(ROOT / folder, base / folder)
    scenario = ROOT / "examples" / "01_apnap_sacrifice.mtg"

    def order_rules() -> list[str]:
        out = subprocess.run(
            [sys.executable, "-m", "mtgkb", "run", "--json", "--rule-base", str(base), scenario],
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)["answers"][0]["rules"]

    before = order_rules()
    assert "101.4" in before and stale_citations(Base.at(base)) == []
    (base / "rules" / GENERATED_CITATIONS).write_text('because(x, rule("999.9")) :- x.\nx.\n')
    assert order_rules() == before
    found = stale_citations(Base.at(base))
    assert [f["kind"] for f in found] == ["stale-citations"]
