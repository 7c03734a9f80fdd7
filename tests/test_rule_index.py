"""The rule index (kb/rule_index.lp), `mtgkb rules`, and where rules are encoded and tested."""

import argparse
import json
import re

import pytest
from helpers import CONFORMANCE, ROOT, SHARED, needs_shared

from mtgkb.rulebase import encoded as ruleindex
from mtgkb.rulebase import tested as ruletests
from mtgkb.rulebase.command import rules_command
from mtgkb.rulebase.cr_text import read_cr
from mtgkb.rulebase.encoded import scan_file, scan_folder
from mtgkb.rulebase.index import EDITION, load_index, lookup
from mtgkb.rulebase.tested import names_rule

CR_EXCERPT = SHARED / "reference" / "cr-2026-04-17-excerpt.txt"
needs_cr = pytest.mark.skipif(
    not CR_EXCERPT.is_file(), reason="../shared/reference is not beside this checkout"
)


@pytest.fixture(scope="module")
def index():
    return load_index(ROOT / "kb" / "rule_index.lp")


def test_index_has_an_entry_for_every_tag_in_rules(index):
    tagged = {}
    for scan in scan_folder(ROOT / "rules"):
        for tag in scan.tags:
            for number in tag.numbers:
                tagged.setdefault(number, f"{scan.path.name}:{tag.line}")
    assert tagged, "no % N tags found in rules/"
    missing = {n: where for n, where in tagged.items() if n not in index}
    assert not missing, f"tags naming rules not in kb/rule_index.lp: {missing}"


def test_index_entries_have_both_paraphrases_a_section_title_and_the_edition(index):
    assert len(index) >= 150
    for entry in index:
        assert entry.paraphrase.get("en") and entry.paraphrase.get("it"), entry.id
        assert "\n" not in entry.text("en") and "\n" not in entry.text("it")
        assert entry.section == entry.id.split(".")[0]
        assert entry.section in index.titles, entry.id
        assert entry.edition == EDITION


def test_index_covers_the_rules_of_the_seeds_and_the_brief(index):
    wanted = (
        ["101.4"]
        + [f"101.4{c}" for c in "abcde"]
        + ["102.1", "102.2", "102.3", "102.4"]
        + [f"119.{i}" for i in range(1, 11)]
        + [f"119.1{c}" for c in "abcde"]
        + ["119.4a", "119.4b"]
        + ["506.2", "506.2a", "506.2b", "802.1", "802.2", "802.2a", "802.3", "802.3a", "802.3b"]
        + ["802.4", "802.4a", "802.4b", "802.5", "805.6", "805.6a", "103.4", "118.3", "118.3b"]
        + ["810.9" + c for c in "abcdefgh"]
        + ["702.14c", "702.14d", "904.5", "903.12f"]
    )
    assert [n for n in wanted if n not in index] == []


@needs_cr
def test_index_numbers_and_fingerprints_match_the_2026_04_17_excerpt(index):
    cr = read_cr(CR_EXCERPT)
    assert cr.edition == EDITION
    # an entry without a fingerprint is a rule whose text the excerpt does not
    # hold (yet): once it does, the entry must carry the fingerprint
    assert [e.id for e in index if e.digest is not None and e.id not in cr.digests] == []
    assert [e.id for e in index if e.digest is None and e.id in cr.digests] == []
    assert [e.id for e in index if e.digest and e.digest != cr.digests[e.id]] == []


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower().replace("\u2019", "'"))


@needs_cr
def test_paraphrases_are_our_own_words_not_the_cr_sentences(index):
    """No English paraphrase shares a run of eight words with the CR text of its rule."""
    text = CR_EXCERPT.read_text(encoding="utf-8")
    blocks = {}
    for match in re.finditer(r"^(\d{3}\.\d+[a-z]?)\.? (.*)$", text, re.M):
        blocks[match.group(1)] = match.group(2)
    copied = []
    for entry in index:
        cr = " ".join(_words(blocks.get(entry.id, "")))
        mine = _words(entry.text("en"))
        for i in range(len(mine) - 7):
            if " ".join(mine[i : i + 8]) in cr:
                copied.append(entry.id)
                break
    assert copied == []


@needs_shared
def test_italian_paraphrases_do_not_copy_the_seed_pages(index):
    """No Italian paraphrase shares a run of eight words with the Italian seed pages."""
    seeds = " ".join(
        _words(" ".join(p.read_text(encoding="utf-8") for p in (SHARED / "seeds").glob("*.txt")))
    )
    copied = []
    for entry in index:
        mine = _words(entry.text("it"))
        if any(" ".join(mine[i : i + 8]) in seeds for i in range(len(mine) - 7)):
            copied.append(entry.id)
    assert copied == []


def test_older_number_118_4a_resolves_with_a_note(index):
    found = lookup("118.4a", index=index)
    assert found.entry.id == "119.4a"
    assert found.note == "118.4a (up to 2019-06-12) is 119.4a (from 2019-07-12 on)"
    assert ("118.4a", "2019-06-12", "2019-07-12") in found.entry.older


def test_118_1d_brawl_and_118_1e_archenemy_resolve_letter_for_letter(index):
    """The 2019-07-12 edition moved Life from 118 to 119 letter for letter: the
    older 118.1d (Brawl) is 119.1d, the older 118.1e (Archenemy) is 119.1e."""
    brawl = lookup("118.1d", index=index)
    assert brawl.entry.id == "119.1d"
    assert brawl.note == "118.1d (up to 2019-06-12) is 119.1d (from 2019-07-12 on)"
    archenemy = lookup("118.1e", index=index)
    assert archenemy.entry.id == "119.1e"
    assert archenemy.note == "118.1e (up to 2019-06-12) is 119.1e (from 2019-07-12 on)"
    assert lookup("118.1e@2019-06-12", index=index).entry.id == "119.1e"
    assert set(index.entries["119.1e"].same_as) >= {"103.4e", "904.5"}


def test_today_costs_rule_and_the_old_life_rule_share_a_number(index):
    today = lookup("118.3", index=index)
    assert today.entry.id == "118.3"
    # the number names two rules: both are said, with the editions each holds for
    assert today.note == (
        "118.3 means 119.3 (life) in editions up to 2019-06-12, "
        "and 118.3 (costs) from 2019-07-12 on"
    )
    assert [(e.id, when) for e, when in today.meanings] == [
        ("118.3", "editions from 2019-07-12 on"),
        ("119.3", "editions up to 2019-06-12"),
    ]
    old = lookup("118.3@2019-06-12", index=index)
    assert old.entry.id == "119.3"
    assert lookup("119.3 (2019-01-25)", index=index).entry.id == "120.3"
    # the official English edition of 2023-06-16 already numbers Costs 118
    assert lookup("118.3@2023-06-16", index=index).entry.id == "118.3"
    assert lookup("118.3@2019-07-12", index=index).entry.id == "118.3"
    with pytest.raises(KeyError):
        lookup("999.9", index=index)


def test_starting_life_rules_of_103_and_119_state_the_same(index):
    for c in "abcde":
        assert f"119.1{c}" in index.entries[f"103.4{c}"].same_as


def test_lookup_in_italian(index):
    found = lookup("118.4a", "it", index=index)
    assert found.entry.id == "119.4a"
    assert found.note == "118.4a (fino al 2019-06-12) è 119.4a (dal 2019-07-12 in poi)"
    assert "squadra" in found.entry.text("it")
    assert found.entry.text("it") != found.entry.text("en")


def test_encoded_at_finds_the_your_team_tag_in_102_players():
    lines = (ROOT / "rules" / "102_players.lp").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.startswith("your_team(P,P)"))
    assert f"rules/102_players.lp:{line}" in ruleindex.encoded_at("102.4", ROOT)
    assert f"rules/102_players.lp:{line + 1}" in ruleindex.encoded_at(
        "102.4", ROOT
    )  # same block, one tag


def test_tags_apply_to_their_block_and_a_blank_line_ends_it(tmp_path):
    program = tmp_path / "x.lp"
    program.write_text(
        "%%% 101.4: a banner is not a tag\n"
        "a(1).\n"
        "\n"
        "% 102.2, 102.3: two numbers\n"
        "% more words about it\n"
        "b(X) :- a(X),\n"
        "        X > 0.\n"
        "c(X) :- b(X).\n"
        "\n"
        "d :- c(1). % 102.1: a trailing comment is not a tag\n"
        "% 101.4a-e: not a number\n"
        "e :- d.\n",
        encoding="utf-8",
    )
    scan = scan_file(program)
    tags = {st.line: st.tags for st in scan.statements}
    assert tags == {2: None, 6: ("102.2", "102.3"), 8: ("102.2", "102.3"), 10: None, 12: ()}
    assert [t.malformed for t in scan.tags if t.malformed] == [("101.4a-e",)]


def test_tags_are_read_past_text_of_several_bytes_tabs_and_block_comments(tmp_path):
    # a scan reads a line comment's text from the file's bytes at clingo's
    # place (columns in bytes): the same tags as the comments clingo reads
    program = tmp_path / "x.lp"
    program.write_text(
        'name("Città dèi"). % 101.4: not first on its line\n'
        "\t% 102.2: after a tab\n"
        "a(1).\n"
        "\n"
        "%* 102.3: a block comment\n   is never a tag *%\n"
        "b(1).\n"
        "\n"
        '% 102.1: above a rule with "è"\n'
        'c("è") :- a(1). % 101.4: trailing\n',
        encoding="utf-8",
    )
    scan = scan_file(program)
    tags = {st.line: st.tags for st in scan.statements}
    assert tags == {1: None, 3: ("102.2",), 7: None, 10: ("102.1",)}
    assert [t.line for t in scan.tags] == [2, 9]
    text = program.read_text(encoding="utf-8")
    assert [(st.line, st.tags) for st in ruleindex.scan_text(text, program).statements] == [
        (st.line, st.tags) for st in scan.statements
    ]


def test_only_real_encodings_count_as_encoded_and_no_rule_tags_cite_nothing(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.lp").write_text(
        "% 102.1: the nonactive players.\n"
        "nonactive(P) :- player(P), not active(P).\n"
        "% 102.1: each is nonactive by 102.1.\n"
        'because(nonactive(P), rule("102.1")) :- nonactive(P).\n'
        "\n"
        "% no rule: plumbing that encodes no CR rule.\n"
        "helper(P) :- player(P).\n",
        encoding="utf-8",
    )
    scan = scan_file(tmp_path / "rules" / "x.lp")
    by_line = {st.line: st for st in scan.statements}
    assert by_line[7].tags == () and not by_line[7].encodes  # tagged, so no lint
    assert by_line[4].is_citation and not by_line[2].is_citation
    assert ruleindex.encoded_map(tmp_path) == {"102.1": ["rules/x.lp:2"]}
    assert ruleindex.encoded_map(tmp_path, cited=True) == {"102.1": ["rules/x.lp:4"]}


def test_tested_by_matches_whole_number_words_in_test_names():
    assert names_rule("test_802_4a_blocker_must_block", "802.4a")
    assert not names_rule("test_802_4a_blocker_must_block", "802.4")
    assert not names_rule("test_119_10_replacement", "119.1")
    assert names_rule("test_119_1_and_103_4_starting_life", "103.4")


def test_tested_by_finds_a_test_of_this_file():
    found = ruletests.tested_by("118.4a", ROOT)
    assert "tests/test_rule_index.py::test_older_number_118_4a_resolves_with_a_note" in found


@needs_shared
def test_tested_by_finds_the_conformance_case_citing_a_rule():
    assert (CONFORMANCE / "c05_block_other_players_attacker.expected.json").is_file()
    assert "../shared/conformance/c05_block_other_players_attacker.mtg" in ruletests.tested_by(
        "802.4a", ROOT
    )


def _rules(capsys, number=None, lang="en", as_json=False):
    status = rules_command(argparse.Namespace(number=number, lang=lang, json=as_json))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_rules_command_prints_an_old_number_in_italian_json(capsys):
    status, out, _ = _rules(capsys, "118.4a", "it", True)
    data = json.loads(out)
    assert status == 0
    assert data["id"] == "119.4a" and data["edition"] == EDITION
    assert data["older_numbers"] == [
        {
            "id": "118.4a",
            "edition": "2019-06-12",
            "editions": "up to 2019-06-12",
            "renumbered_in": "2019-07-12",
        }
    ]
    assert data["note"] == "118.4a (fino al 2019-06-12) è 119.4a (dal 2019-07-12 in poi)"
    assert data["encoded_at"] and all(
        re.fullmatch(r"rules/\S+\.lp:\d+", w) for w in data["encoded_at"]
    )
    assert data["titles"] == [{"id": "119", "title": "Life"}]


def test_rules_command_text_names_where_a_rule_is_encoded(capsys):
    status, out, _ = _rules(capsys, "102.4")
    assert status == 0
    first, rest = out.split("\n", 1)
    assert first.startswith("rule base: ") and str(ROOT) in first
    assert rest.startswith("102.4  (102 Players)")
    assert "rules/102_players.lp:" in out


def test_rules_command_table_and_unknown_number(capsys):
    status, out, _ = _rules(capsys)
    assert status == 0 and "802.4a" in out and "119.4a" in out
    status, out, _ = _rules(capsys, "119", as_json=True)
    assert status == 0 and {e["id"] for e in json.loads(out)} >= {"119.1", "119.10"}
    status, _, err = _rules(capsys, "999.9")
    assert status == 1 and "999.9" in err


def test_in_a_long_block_each_statement_takes_the_nearest_tag_above_it(tmp_path):
    # a kb-like block of facts with no blank line: the tags above a statement
    # in its block are read one by one, the nearest wins, a blank line ends it
    facts = [f"f({i})." for i in range(1, 501)]
    program = tmp_path / "long.lp"
    program.write_text(
        "% 102.1: the first tag\n"
        + "\n".join(facts[:250])
        + "\n% 102.2: the second tag\n"
        + "\n".join(facts[250:])
        + "\n\ng.\n",
        encoding="utf-8",
    )
    scan = scan_file(program)
    tags = [st.tags for st in scan.statements]
    assert tags == [("102.1",)] * 250 + [("102.2",)] * 250 + [None]
