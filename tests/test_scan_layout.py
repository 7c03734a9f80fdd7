"""A rule file's layout kept on disk (mtgkb.rulebase.encoded): the second scan
of an unchanged file reads its statements' places, kinds and tags from the
layout and parses the file's text only when a syntax tree is read. It says
what a whole scan says (the tags of 101.4 and 102.2 below, the citations a
`cite` tag generates), holds no program text, and a damaged, planted or
stale layout is not used.

The rule base's own files are checked too: each scanned from its layout says
what its whole scan says, statement for statement."""

from __future__ import annotations

import marshal
from pathlib import Path

import clingo.ast as cast
import pytest

from mtgkb.rulebase import citations, disk_cache, encoded
from mtgkb.rulebase.location import program_files

RULES = """%%% a banner
% 101.4 cite: the players' order.
apnap_rank(P,K) :- seat(P,K), player(P).
apnap_first(P) :- apnap_rank(P,1).

% 102.2: teams; a trailing comment is no tag
team_of(P,T) :- team(T,P). % 999.9: not a tag
#minimize { 1,P : player(P); 2,T : team(T,_) }.
#show apnap_first/1.
"""


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("MTGKB_CACHE", "1")
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(folder))
    encoded.forget_scans()
    yield folder
    encoded.forget_scans()


def _said(scan: encoded.FileScan) -> tuple:
    statements = [
        (st.line, st.end_line, st.kind, st.tags, st.tag_line, st.cite, st.generated, str(st.ast))
        for st in scan.statements
    ]
    tags = [(t.line, t.numbers, t.malformed, t.cite) for t in scan.tags]
    return statements, tags, scan.errors


def _from_layout(path: Path) -> encoded.FileScan:
    encoded.forget_scans()
    return encoded.scan_kept(path)


def test_101_4_a_file_read_from_its_layout_says_what_its_whole_scan_says(tmp_path, cache):
    path = tmp_path / "rules.lp"
    path.write_text(RULES, encoding="utf-8")
    whole = encoded.scan_file(path)
    first = encoded.scan_kept(path)  # scanned whole, its layout kept
    assert len(list(cache.glob("layout*.bin"))) == 1
    again = _from_layout(path)
    assert _said(again) == _said(first) == _said(whole)
    tags = {st.line: st.tags for st in again.statements if not st.generated}
    assert tags[3] == ("101.4",) and tags[4] == ("101.4",)  # one tag, its block
    assert tags[7] == ("102.2",)  # a trailing comment is no tag
    cited = [str(st.ast) for st in again.statements if st.generated]
    assert cited == [  # each rule of the marked tag's block, cited to its number
        'because(apnap_rank(P,K),rule("101.4")) :- apnap_rank(P,K).',
        'because(apnap_first(P),rule("101.4")) :- apnap_first(P).',
    ]


def test_a_file_read_from_its_layout_is_parsed_once_and_no_place_is_read(
    tmp_path, cache, monkeypatch
):
    # what the layout spares: asking clingo for each statement's place (several
    # calls a statement, most of a whole scan's time); the parse is the same
    path = tmp_path / "rules.lp"
    path.write_text(RULES, encoding="utf-8")
    encoded.scan_kept(path)
    citations.generated(str(path), RULES)  # (as the rule base reads them, first)
    parsed: list[str] = []
    places: list[str] = []
    parse, read = cast.parse_string, cast.AST.__getattr__

    def parsing(text, *args, **kwargs):
        parsed.append(text)
        return parse(text, *args, **kwargs)

    def reading(node, name):
        if name == "location":
            places.append(name)
        return read(node, name)

    monkeypatch.setattr(cast, "parse_string", parsing)
    monkeypatch.setattr(cast.AST, "__getattr__", reading)
    again = _from_layout(path)
    assert [str(st.ast) for st in again.statements]  # every tree read
    assert parsed.count(RULES) == 1
    assert places == []
    encoded.scan_file(path)  # (a whole scan reads them: the test can see it)
    assert places


def test_a_layout_holds_no_program_text(tmp_path, cache):
    path = tmp_path / "rules.lp"
    path.write_text(RULES, encoding="utf-8")
    encoded.scan_kept(path)
    (kept,) = cache.glob("layout*.bin")
    data = marshal.loads(kept.read_bytes()[len(disk_cache.CACHE_MAGIC) + 8 :])

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, tuple)):
            for item in value:
                yield from strings(item)

    assert set(strings(data)) == {"101.4", "102.2"}  # the tags' numbers, no more


def test_a_damaged_or_planted_layout_is_not_used(tmp_path, cache):
    path = tmp_path / "rules.lp"
    path.write_text(RULES, encoding="utf-8")
    whole = _said(encoded.scan_kept(path))
    (kept,) = cache.glob("layout*.bin")
    version, count, statements, tags = marshal.loads(
        kept.read_bytes()[len(disk_cache.CACHE_MAGIC) + 8 :]
    )
    # another count of parse items, a statement at an item the parse does
    # not hold, a line that is no
    # number, a tag that is no CR number's text: each written whole, with a
    # good digest
    first = statements[0]
    for planted in (
        (version, count + 3, statements, tags),
        (version, count, [(*first[:5], count + 5), *statements[1:]], tags),
        (version, count, [("3", *first[1:]), *statements[1:]], tags),
        (version, count, [(*first[:2], (101.4,), *first[3:]), *statements[1:]], tags),
    ):
        disk_cache.store_checked(cache, kept.name, planted, "layout*.bin")
        assert _said(_from_layout(path)) == whole
    kept.write_bytes(kept.read_bytes()[:-3])  # cut short: its digest fails
    assert _said(_from_layout(path)) == whole


def test_an_edited_file_is_scanned_again(tmp_path, cache):
    path = tmp_path / "rules.lp"
    path.write_text(RULES, encoding="utf-8")
    encoded.scan_kept(path)
    path.write_text(RULES.replace("% 102.2: teams", "% 102.3: teams"), encoding="utf-8")
    tags = {st.line: st.tags for st in _from_layout(path).statements}
    assert tags[7] == ("102.3",)
    assert len(list(cache.glob("layout*.bin"))) == 2  # one layout per content


def test_every_file_of_the_rule_base_reads_from_its_layout_as_scanned_whole(cache):
    root = Path(encoded.default_root())
    files = [f for folder in ("rules", "kb", "queries") for f in program_files(root / folder)]
    for path in files:
        encoded.scan_kept(path)
    assert len(list(cache.glob("layout*.bin"))) > len(files) // 2
    for path in files:
        assert _said(_from_layout(path)) == _said(encoded.scan_file(path)), path


def test_510_1c_a_part_is_read_for_the_values_its_rule_base_gives_now(tmp_path, cache):
    # the part's statements are kept as written; their instances follow the
    # values another file writes, read anew when this file's layout is used
    folder = tmp_path / "rules"
    folder.mkdir()
    steps = folder / "steps.lp"
    steps.write_text("combat_step(regular).\n", encoding="utf-8")
    part = folder / "part.lp"
    part.write_text(
        "#program combat_step(st).\n"
        "% 510.1c: a step's blockers still there.\n"
        "step_link(st,S,R) :- strikes(st,S), present(st,R).\n"
        "#program base.\n",
        encoding="utf-8",
    )
    first = encoded.scan_kept(part)
    assert [str(st.ast) for st in first.statements] == [
        "step_link(regular,S,R) :- strikes(regular,S); present(regular,R)."
    ]
    steps.write_text("combat_step(first).\ncombat_step(regular).\n", encoding="utf-8")
    again = _from_layout(part)
    assert _said(again) == _said(encoded.scan_file(part))
    assert [(st.tags, [str(a) for a in st.instance]) for st in again.statements] == [
        (("510.1c",), ["first"]),
        (("510.1c",), ["regular"]),
    ]


SHARED_LINE = """% 101.4: the players' order.
apnap_rank(P,K) :- seat(P,K), player(P). apnap_last(P) :- apnap_rank(P,K), not apnap_rank(_,K+1).
apnap_first(P) :- apnap_rank(P,1).

% 102.2: teams
team_of(P,T) :-
    team(T,P).
#show apnap_first/1.
"""


def test_the_trees_asked_for_at_once_are_parsed_from_their_lines_alone(
    tmp_path, cache, monkeypatch
):
    # `ask explain` reads about half of the rule base's statements (the rest
    # cannot fire on its facts): only their lines are parsed, the others
    # left blank; a statement sharing a line with one asked for is read too
    path = tmp_path / "rules.lp"
    path.write_text(SHARED_LINE, encoding="utf-8")
    whole = encoded.scan_file(path)
    encoded.scan_kept(path)
    parsed: list[str] = []
    parse = cast.parse_string

    def parsing(text, *args, **kwargs):
        parsed.append(text)
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(cast, "parse_string", parsing)
    again = _from_layout(path)
    by_line = {(st.line, st.kind): st for st in again.statements}
    asked = [again.statements[0], again.statements[3]]  # line 2's first rule; lines 6-7
    assert (asked[0].line, asked[1].line, asked[1].end_line) == (2, 6, 7)
    assert parsed == []  # (read from the layout: nothing parsed yet)
    encoded.prepare_trees(asked)
    (text,) = parsed
    assert text.split("\n")[0:3] == ["", SHARED_LINE.split("\n")[1], ""]
    assert "apnap_first(P) :-" not in text and "#show" not in text
    assert text.split("\n")[5:7] == SHARED_LINE.split("\n")[5:7]
    # the rules read: the two asked for and the one on the same line, as a whole scan reads them
    read = {st.line: str(st._ast) for st in again.statements if st._ast is not None}
    assert len([st for st in again.statements if st._ast is not None]) == 3
    assert read[6] == str(whole.statements[3].ast)
    assert [str(st._ast) for st in again.statements[:2]] == [
        str(st.ast) for st in whole.statements[:2]
    ]
    # a tree not read yet is read from the whole file when asked for
    assert str(by_line[(8, "ShowSignature")].ast) == "#show apnap_first/1."
    assert len(parsed) == 2
    assert _said(again) == _said(whole)


def test_510_1c_a_file_with_parts_is_parsed_whole(tmp_path, cache, monkeypatch):
    # a line of a part (`#program NAME(P).`) is read in the context of the
    # directive above it: such a file's trees come from its whole parse
    path = tmp_path / "rules.lp"
    path.write_text(RULES + "#program later.\nlate(1).\n", encoding="utf-8")
    encoded.scan_kept(path)
    again = _from_layout(path)
    trees = again.statements[0]._trees
    assert trees is not None and not trees.by_lines
    encoded.prepare_trees(again.statements[:1])
    assert all(st._ast is not None for st in again.statements if not st.generated)
    assert _said(again) == _said(encoded.scan_file(path))
