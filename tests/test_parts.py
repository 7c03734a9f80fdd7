"""Parts of a rule file read once for each value (mtgkb.rulebase.parts): the
text the engine grounds and the statements explain, the cores and the audit
read agree, every other statement keeps its line, and each reader grounds the
part's rules once per value (the part alone, as clingo loads it, is never
grounded)."""

from __future__ import annotations

from pathlib import Path

import clingo
import clingo.ast as cast
import pytest
from helpers import ROOT

from mtgkb.rulebase import citations, parts
from mtgkb.rulebase.encoded import scan_file
from mtgkb.rulebase.location import program_files

VALUES = "% 510.4: the steps.\nstep(one).\nstep(two) :- later.\n"
PART = """% no rule: before.
before(1).

#program step(s).
% no rule: a rule over two lines, with a comment inside and a string.
got(s,X) :- seen(X,s), % the step
            X != "s", not st(s).
% no rule: a function named like the parameter stays as it is.
kept(s(1),s) :- seen(_,s).

#program base.
% no rule: after.
after(1).
"""


def _rule_base(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "a_values.lp").write_text(VALUES, encoding="utf-8")
    (folder / "b_part.lp").write_text(PART, encoding="utf-8")
    return folder / "b_part.lp"


def _statements(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []

    def take(node) -> None:
        if node.ast_type not in (cast.ASTType.Comment, cast.ASTType.Program):
            out.append((node.location.begin.line, str(node)))

    cast.parse_string(text, take)
    return out


def test_a_parts_rules_are_read_once_for_each_value_in_place(tmp_path):
    path = _rule_base(tmp_path)
    text = citations.program_text(path)
    assert text.count("\n") == PART.count("\n")  # every line where it was
    found = _statements(text)
    assert (2, "before(1).") in found and (13, "after(1).") in found
    assert [s for line, s in found if line == 6] == [
        'got(one,X) :- seen(X,one); X != "s"; not st(one).',
        'got(two,X) :- seen(X,two); X != "s"; not st(two).',
    ]
    assert [s for line, s in found if line == 9] == [
        "kept(s(1),one) :- seen(_,one).",
        "kept(s(1),two) :- seen(_,two).",
    ]
    assert "#program" not in text


def test_the_text_reader_and_the_statement_reader_agree(tmp_path):
    path = _rule_base(tmp_path)
    scanned = [(st.line, str(st.ast)) for st in scan_file(path).statements]
    assert scanned == _statements(citations.program_text(path))
    assert [st.instance for st in scan_file(path).statements if st.line == 9] == [
        (clingo.Function("one"),),
        (clingo.Function("two"),),
    ]


@pytest.mark.parametrize("name", [p.name for p in program_files(ROOT / "rules")])
def test_the_readers_agree_on_each_rule_file(name):
    path = ROOT / "rules" / name
    lines = path.read_text(encoding="utf-8").count("\n") + 1
    scan = scan_file(path)
    assert not scan.errors
    text = [s for line, s in _statements(citations.program_text(path)) if line <= lines]
    assert [str(st.ast) for st in scan.statements if not st.generated] == text


def test_every_reader_grounds_the_instances(tmp_path):
    path = _rule_base(tmp_path)
    facts = 'seen("x",one). seen("y",two). later.'
    ctl = clingo.Control()
    citations.load(ctl, path)  # (the file as clingo loads it, and its instances)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    got = {str(a.symbol) for a in ctl.symbolic_atoms if a.symbol.name in ("got", "kept")}
    assert got == {'got(one,"x")', 'got(two,"y")', "kept(s(1),one)", "kept(s(1),two)"}
    alone = clingo.Control()
    alone.load(str(path))
    alone.add("base", [], facts)
    alone.ground([("base", [])])
    assert not [a for a in alone.symbolic_atoms if a.symbol.name == "got"]


def test_a_part_no_head_gives_a_value_is_an_error(tmp_path):
    folder = tmp_path / "rules"
    folder.mkdir()
    path = folder / "x.lp"
    path.write_text("#program nowhere(n).\nq(n).\n", encoding="utf-8")
    with pytest.raises(parts.PartError, match="nowhere"):
        citations.program_text(path)
    assert any("no head gives nowhere a value" in e for e in scan_file(path).errors)


def test_the_plain_clingo_copy_holds_the_instances():
    copy = (ROOT / "rules" / "generated_citations.lp").read_text(encoding="utf-8")
    assert copy == citations.plain_clingo_copy(ROOT)
    assert "step_link(first,S,R) :- strikes(first,S)" in copy
    assert "step_link(regular,S,R) :- strikes(regular,S)" in copy
