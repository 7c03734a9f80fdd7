"""A player's name never changes what a line means (issue 15, item 2).

With `players: Ann, Alone`, the line `... with can't attack Alone` used to be
read as "can't attack alone" (508.1c/509.1b's attacking-alone restriction)
and an illegal attack (508.1d's "can't attack <player>") was called legal.
A bare name that the grammar would read as a keyword where a name may stand
is refused at the line that names it; every other keyword is a valid name and
reads as the name everywhere.

The words are taken from the grammar itself: every keyword terminal, in three
spellings, and the regular-expression keywords (can't, <type>walk, ...)
through strings drawn from their own patterns.
"""

import re

import pytest
from helpers import examples
from helpers.answering import run
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token, Tree

from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import grammar, keyword_of, parse_text

# slow tier: hostile names: every keyword of the grammar as a name
pytestmark = pytest.mark.slow

NAME = re.compile(grammar().get_terminal("NAME").pattern.to_regexp())
TEXT = {"NAME", "WORD", "STRING", "SIGNED_INT"}

# Every place of the grammar where a player's bare name stands.
TEMPLATE = """\
players: Ann, {p}
team T: Ann, {p}
active: {p}
starting: {p}
emperor: {p}
archenemy: {p}
vanguard: {p} 3
range: {p} 2
life: {p} 20, Ann 20
{p} controls creature "Bear" 2/2 with can't attack {p}
{p} controls creature "Elf" 2/2 with can't attack {p}, flying
{p} controls creature "Orc" 2/2 with can't attack {p} and flying
{p} controls battle "Siege" defense 3 protected by {p}
{p} chooses {p} as defending player
"Bear" attacks {p}
"Bear" assigns 1 damage to {p}, 1 damage to {p}
"Siege" deals 3 damage to {p}
{p} loses 1 life
{p} gains 1 life
{p} pays 1 life
{p}'s life total becomes 5
{p} exchanges life totals with {p}
{p} can't gain life
{p} can't lose life
{p} can't lose the game
{p}'s choice makes {p} choose
trigger "T" controlled by {p}
ask can {p} pay 2 life
ask blocks for {p}
ask blocks [for {p}] limit 2
"""
NEUTRAL = "Zed"


def keyword_terminals():
    parser = grammar()
    ignored = set(parser.lexer_conf.ignore)
    return [
        t for t in parser.terminals if t.name not in TEXT | ignored and not t.name.startswith("_")
    ]


STRING_KEYWORDS = [t for t in keyword_terminals() if t.pattern.type == "str"]
REGEX_KEYWORDS = [t for t in keyword_terminals() if t.pattern.type == "re"]


def as_neutral(tree: Tree, name: str) -> Tree:
    """The tree with every NAME token spelled `name` spelled NEUTRAL instead."""
    kids = []
    for kid in tree.children:
        if isinstance(kid, Tree):
            kids.append(as_neutral(kid, name))
        elif isinstance(kid, Token) and kid.type == "NAME" and kid == name:
            kids.append(Token("NAME", NEUTRAL))
        elif tree.data == "ability" and kid is tree.children[-1] and kid == name:
            kids.append(Token("WORD", NEUTRAL))  # `can't attack P`: the phrase's last word
        elif isinstance(kid, Token) and kid.type == "CAN_PLAY":
            # the play of `ask can` is parsed on its own (parser.py): its first word
            words = str(kid).split(" ", 1)
            if words[0] == name:
                words[0] = NEUTRAL
            kids.append(Token("CAN_PLAY", " ".join(words)))
        else:
            kids.append(kid)
    return Tree(tree.data, kids)


def read_as_name(name: str) -> bool:
    """True when the grammar reads `name` as a name in every place of TEMPLATE,
    and the vocabulary reads `can't attack NAME` as the ability naming a player."""
    neutral = grammar().parse(TEMPLATE.format(p=NEUTRAL))
    try:
        tree = grammar().parse(TEMPLATE.format(p=name))
    except Exception:  # noqa: BLE001 - a syntax error is a misreading too
        return False
    if as_neutral(tree, name) != neutral:
        return False
    # with no player of that name, the ability that names one is refused (the
    # creature's name has a space: no bare name drawn can be it)
    text = (
        f"players: Ann, {NEUTRAL}\n"
        f'Ann controls creature "Grizzly Bears" 1/1 with can\'t attack {name}\n'
    )
    try:
        parse_text(text, "v.mtg")
    except ScenarioError as err:
        return err.message.startswith(f"unknown player {name}")
    return False


def check(name: str) -> None:
    if not NAME.fullmatch(name):
        return  # not a bare name at all (punctuation, an apostrophe)
    unambiguous = read_as_name(name)
    text = f"players: Ann, {name}\n{name} loses 3 life\nask outcome\n"
    if unambiguous:
        scenario = parse_text(text, "k.mtg")
        assert scenario.player_names == ["Ann", name]
        assert keyword_of(name) is None
        return
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "k.mtg")
    err = caught.value
    assert (err.line, err.column) == (1, 15), err
    assert f"'{name}' cannot be a player's name" in err.message
    assert keyword_of(name) is not None


@pytest.mark.parametrize("terminal", STRING_KEYWORDS, ids=lambda t: t.name)
def test_every_keyword_of_the_grammar_is_refused_or_read_as_the_name(terminal):
    word = terminal.pattern.value
    for name in {word, word.title(), word.upper()}:
        check(name)


@pytest.mark.parametrize("terminal", REGEX_KEYWORDS, ids=lambda t: t.name)
@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_every_pattern_keyword_is_refused_or_read_as_the_name(terminal, data):
    pattern = terminal.pattern.to_regexp()
    name = data.draw(st.from_regex(pattern, fullmatch=True))
    check(name)


def test_a_name_like_the_probe_s_own_creature_is_read_as_a_name():
    """A drawn name once equalled the probe's creature ("B"), whose ability
    then named a creature, not an unknown player: the name was wrongly
    taken for a keyword (found by the slow tier's random draws)."""
    for name in ("B", "Bears", "Grizzly"):
        assert read_as_name(name), name
        check(name)


def test_the_keywords_beside_names_are_refused():
    # the ones the grammar accepts where a name may stand today
    for name in ("Alone", "and", "Game", "Each", "Combat", "Life", "Trigger", "Ask", "Band"):
        assert keyword_of(name) is not None, name
        assert not read_as_name(name)
    for name in ("A", "With", "Player", "Team2", "Flying", "Alonso", "Cannot"):
        assert keyword_of(name) is None, name
        assert read_as_name(name)


def test_a_player_called_alone_is_refused_not_misread():
    text = """\
players: Ann, Alone
Ann controls creature "Bear" 2/2 with can't attack Alone
"Bear" attacks Alone
ask legal
"""
    with pytest.raises(ScenarioError) as caught:
        run(text, "alone.mtg")
    err = caught.value
    assert err.format().startswith("alone.mtg:1:15: error: 'Alone' cannot be a player's name")
    assert "'alone'" in err.message


def test_the_same_attack_on_an_ordinary_name_is_illegal_by_508_1d():
    text = """\
players: Ann, Bob
Ann controls creature "Bear" 2/2 with can't attack Bob
"Bear" attacks Bob
ask legal
"""
    (legal,) = run(text)["answers"]
    assert legal["legal"] is False
    assert any(v["rule"].startswith("508.1") for v in legal["violations"])


def test_a_bare_team_name_that_is_a_keyword_is_refused_a_quoted_one_is_not():
    base = "game: team-vs-team\nplayers: Ann, Ben\nteam {t}: Ann\nteam Other: Ben\nask legal\n"
    with pytest.raises(ScenarioError) as caught:
        parse_text(base.format(t="Alone"), "t.mtg")
    assert (caught.value.line, caught.value.column) == (3, 6)
    scenario = parse_text(base.format(t='"Alone"'), "t.mtg")
    assert [t.name for t in scenario.teams] == ["Alone", "Other"]
