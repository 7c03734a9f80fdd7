"""Issue 28: a mistyped keyword gets a suggestion (as unknown abilities,
players and colours do), and a syntax error lists the words it expected in
full or not at all.

The typos are generated from the grammar's keywords: for each keyword, a
line of a readable scenario that uses it, with one letter of the keyword
changed, must fail with a suggestion."""

import re

import pytest
from helpers import ROOT, SHARED

from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import grammar_keywords, parse_text
from mtgkb.language.suggest import MAX_LISTED, closest, edits

TABLE = 'players: Rob, Alex\nactive: Rob\nRob controls creature "Bear" 2/2\n'

#: Lines for the keywords no example or conformance case uses.
COVER = """players: Alex, Rob
active: Alex
stack: empty
Rob controls an creature "Elite Vanguard" 2/1
each player chooses a creature and a land
Alex casts creature "Ambush Viper" with flash
Alex activates "Jace Beleren" as a loyalty ability
"Jace Beleren" activated a loyalty ability this turn
Alex activates a loyalty ability of "Jace Beleren" targeting Rob
after first-strike damage, "Elite Vanguard" gains double strike
prevent the next 3 damage that would be dealt to Alex
check state-based actions
Alex plays land "Forest"
Alex can't get poison counters
Alex concedes
ask attacks limit 20
"""

QUOTED = re.compile(r'"(?:[^"\\\n]|\\["\\])*"')


def error_of(text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "<typo>")
    return caught.value.message


def readable_texts() -> list[str]:
    files = sorted(ROOT.glob("examples/*.mtg")) + sorted(SHARED.rglob("*.mtg"))
    texts = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            parse_text(text, str(path))
        except ScenarioError:
            continue
        texts.append(text)
    return [*texts, COVER]


def a_use_of(keyword: str, texts: list[str]) -> tuple[list[str], int, int] | None:
    """(the lines of a text, the line, the column) where `keyword` is written
    as a word outside quoted names and comments."""
    word = re.compile(rf"(?<![\w'’-]){keyword}(?![\w'’-])", re.IGNORECASE)
    for text in texts:
        lines = text.split("\n")
        for i, line in enumerate(lines):
            code = QUOTED.sub(lambda m: " " * len(m.group()), line.split("#", 1)[0])
            found = word.search(code)
            if found:
                return lines, i, found.start()
    return None


def one_letter_changed(keyword: str) -> str:
    """The keyword with its middle letter changed into one that makes no keyword."""
    k = len(keyword) // 2
    for letter in "xqzjv":
        typo = keyword[:k] + letter + keyword[k + 1 :]
        if typo not in grammar_keywords() and letter != keyword[k]:
            return typo
    raise AssertionError(keyword)


def test_every_keyword_of_the_grammar_mistyped_gets_a_suggestion():
    keywords = sorted(grammar_keywords())
    assert {"players", "legal", "attack", "creature", "ask"} <= set(keywords)
    texts = readable_texts()
    unused, silent = [], []
    for keyword in keywords:
        found = a_use_of(keyword, texts)
        if found is None:
            unused.append(keyword)
            continue
        lines, i, column = found
        typo = one_letter_changed(keyword)
        line = lines[i][:column] + typo + lines[i][column + len(keyword) :]
        try:
            parse_text("\n".join([*lines[:i], line, *lines[i + 1 :]]), "<typo>")
        except ScenarioError as err:
            if "did you mean" not in err.message:
                silent.append((keyword, line, err.message))
            continue
        silent.append((keyword, line, "read without an error"))
    # the shared conformance cases write most of the keywords: without them
    # (a clone alone) only the keywords the repository's files use are tried
    if SHARED.is_dir():
        assert unused == [], "add a line using these keywords to COVER"
    assert silent == []


def test_ask_legl_suggests_legal_and_lists_every_question():
    message = error_of(TABLE + "ask legl\n")
    assert "did you mean 'legal'?" in message
    assert "legal" in message.split("expected one of: ")[1]
    assert "..." not in message


def test_plyers_suggests_players():
    message = error_of("plyers: Rob, Alex\n")
    assert "did you mean 'players' (not 'plyers')?" in message
    assert "..." not in message


def test_ask_can_attak_suggests_attack():
    message = error_of(TABLE + 'ask can "Bear" attak Alex\n')
    assert "did you mean 'attack'?" in message


def test_ask_explain_ordr_suggests_order():
    assert "did you mean 'order'?" in error_of(TABLE + "ask explain ordr\n")


def test_an_unknown_setting_word_suggests_the_closest():
    assert "did you mean 'upkeep'?" in error_of(TABLE + "phase: upkep\n")


def test_expected_words_are_listed_in_full_or_not_at_all():
    # a statement cut at its first word: every kind of statement could follow
    message = error_of(TABLE + 'Rob controls creature "X" 2/2 flying\n')
    listed = message.split("expected one of: ")[1:] or [""]
    assert "..." not in message
    assert len(listed[0].split(", ")) <= MAX_LISTED


def test_closeness_is_one_edit_or_two_for_long_words():
    assert edits("legl", "legal") == 1 and edits("atatck", "attack") == 1
    assert closest("legl", ["legal", "order"]) == "legal"
    assert closest("blcoks", ["blocks", "block"]) == "blocks"
    assert closest("zzzz", ["legal"]) is None
    assert closest("legal", ["legal"]) is None  # a known word is no typo


def test_a_word_the_parser_stopped_inside_of_is_suggested_whole():
    # "ax creature": the lexer reads the keyword "a", then a stray "x"
    message = error_of(TABLE + 'Alex controls ax creature "Wolf" 2/2\n')
    found = re.search(r"did you mean '(\w+)' \(not 'ax'\)\?", message)
    assert found and found.group(1) in ("a", "an"), message


def test_an_ability_word_is_not_taken_for_a_mistyped_keyword():
    # "reach" is one edit from "each", but it is a word of the vocabulary
    message = error_of(TABLE + 'Alex controls creature "Spider" 2/4 with reach extra\n')
    assert "did you mean" not in message
