"""One vocabulary (issue 9, item 4): the keyword abilities, games and options
of the scenario language are listed once, in kb/vocabulary.lp, and the docs
are checked against it and against the input schema, so they cannot drift:

- every ability of the vocabulary has an example in docs/language.md;
- docs/predicates.md, section 1, documents exactly the input predicates of
  `facts.SCHEMA` (= the `#defined` of kb/input.lp), its `has/2` row names
  exactly the vocabulary's simple abilities, its `game/1` and `option/1` rows
  the vocabulary's games and options;
- the parser reads the vocabulary of the rule base in use, and refuses an
  unknown ability at its place with a suggestion (exit 2).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from helpers import ROOT

from mtgkb.language.errors import ScenarioError
from mtgkb.language.facts import SCHEMA
from mtgkb.language.model import GameObject
from mtgkb.language.parser import _Builder, grammar, keyword_of, parse_text
from mtgkb.rulebase.vocabulary import vocabulary

LANGUAGE = ROOT / "docs" / "language.md"
PREDICATES = ROOT / "docs" / "predicates.md"
TWO = "players: Ann, Ben\n"


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


def _documented_abilities() -> set[str]:
    """The abilities the examples of docs/language.md give, read as the parser reads them."""
    found = set()
    for block in re.findall(r"^```mtg\n(.*?)^```", LANGUAGE.read_text("utf-8"), re.M | re.S):
        for line in block.splitlines():
            if " with " not in line:
                continue
            tree = grammar().parse(line + "\n")
            for node in tree.iter_subtrees():
                if node.data == "abilities":  # the whole list: `... and from white`
                    holder = GameObject()
                    _Builder("doc", [line]).abilities(holder, node)
                    found |= {ability.name for ability in holder.abilities}
    return found


def test_every_ability_of_the_vocabulary_has_an_example_in_the_language_doc():
    missing = [n for n in vocabulary().names() if n not in _documented_abilities()]
    assert missing == [], (
        f"abilities of kb/vocabulary.lp with no example in docs/language.md: {missing}"
    )


def _fact_cells(section: str) -> set[tuple[str, int]]:
    """(name, arity) of each `name(args)` in the first column of the tables."""
    out = set()
    for row in re.findall(r"^\| (.*?) \|", section, re.M):
        for name, args in re.findall(r"`(\w+)\(([^`]*)\)`", row):
            out.add((name, len(args.split(","))))
    return out


def test_predicates_doc_documents_exactly_the_input_schema():
    text = PREDICATES.read_text("utf-8")
    inputs = _section(text, "## 1. Input facts", "### Where the table was written")
    facts = _fact_cells(_section(inputs, "### The table", "### Events"))
    terms = _section(inputs, "### Events", "### Questions")
    # the events' section names its facts in prose, beside a table of event terms
    prose = re.sub(r"^\|.*$", "", terms, flags=re.M)
    facts |= {(n, len(a.split(","))) for n, a in re.findall(r"`(\w+)\(([^`()]*)\)`", prose)}
    # (the questions' section lists the terms of the one fact asked/1)
    if inputs[inputs.index("### Questions") :].split("\n\n")[1].startswith("`asked(Q)`"):
        facts.add(("asked", 1))
    declared = {
        (name, int(arity))
        for name, arity in re.findall(
            r"#defined\s+(\w+)/(\d+)\.", (ROOT / "kb" / "input.lp").read_text()
        )
    }
    assert set(SCHEMA) == declared
    assert sorted(set(SCHEMA) - facts) == [], "input predicates docs/predicates.md leaves out"
    assert sorted(facts - set(SCHEMA)) == [], "facts docs/predicates.md lists that are no input"


def _row(name: str) -> str:
    return next(r for r in PREDICATES.read_text("utf-8").splitlines() if r.startswith(f"| `{name}"))


def test_predicates_doc_names_the_vocabulary_s_abilities_games_and_options():
    vocab = vocabulary()
    simple = {a.name for a in vocab.abilities if a.shape == "simple"}
    listed = set(re.findall(r"`(\w+)`", _row("has(O,A)").split("|")[2]))
    assert listed == simple
    games = set(re.findall(r"`(\w+)`", _row("game(V)").split("(")[1].split(". ")[0]))
    assert games == set(vocab.games)
    players = set(re.findall(r"`(\w+)`", _row("player_has(P,A)").split("|")[2].split("(A")[1]))
    assert players | {"protection"} == set(vocab.player_abilities)  # (protection: protection/2)
    options = re.findall(r"`(\w+)(?:\(N\))?`", _row("option(O)").split("|")[2].split(";")[0])
    assert options == list(vocab.options)


def test_the_grammar_reads_an_ability_as_a_phrase():
    # no terminal of the grammar spells an ability: adding one needs no rebuild
    text = (ROOT / "src" / "mtgkb" / "language" / "grammar.lark").read_text("utf-8")
    # (PT_CHANGE is `-1/-1` or `+2/+0`: an argument, as a number is, not an ability's name)
    assert re.search(r"^ability: \(WORD \| SIGNED_INT \| PT_CHANGE\)\+$", text, re.M)
    terminals = {t.lower() for t in re.findall(r'^[A-Z_]+: "([^"]+)"i', text, re.M)}
    assert not {"flying", "reach", "menace", "haste", "trample", "toxic"} & terminals


# --------------------------------------------------------------------------
# Reading abilities
# --------------------------------------------------------------------------


def _error(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "t.mtg")
    return caught.value


def _abilities(phrase: str) -> list:
    sc = parse_text(TWO + f'Ann controls creature "Bear" 2/2 with {phrase}\n', "t.mtg")
    return [(a.name, a.args) for a in sc.objects[0].abilities]


def test_each_shape_of_the_vocabulary_reads_its_arguments():
    assert _abilities("flying, cannot attack alone and Summoning_Sick") == [
        ("flying", ()),
        ("cant_attack_alone", ()),
        ("summoning_sick", ()),
    ]
    assert _abilities("can’t attack Ben, toxic 2") == [
        ("cant_attack_player", ("Ben",)),
        ("toxic", ("2",)),
    ]
    assert _abilities("Mountainwalk, landwalk snow forest") == [
        ("landwalk", ("mountain",)),
        ("landwalk", ("snow", "forest")),
    ]
    assert _abilities("protection from Red, color blue, type swamp") == [
        ("protection", ("red",)),
        ("color", ("blue",)),
        ("land_type", ("swamp",)),
    ]


@pytest.mark.parametrize(
    "phrase, column, message",
    [
        ("flanking", 39, "unknown ability 'flanking'; did you mean 'flying'?"),
        ("first_strike", 39, "unknown ability 'first_strike'; did you mean 'first strike'?"),
        ("whenever you gain", 39, "did you mean 'whenever you gain life'?"),
        ("flying reach", 46, "unexpected 'reach' after the ability 'flying'; separate abilities"),
        ("can't attack Ben alone", 56, "unexpected 'alone' after the ability 'can't attack Ben'"),
        ("toxic", 39, "'toxic' needs a number after it, as in 'toxic 2'"),
        ("toxic 0", 45, "a toxic value must be at least 1"),
        ("color purple", 45, "unknown color 'purple'"),
        ("can't attack Cid", 52, "unknown player Cid"),
    ],
)
def test_a_phrase_that_is_no_ability_is_refused_at_its_place(phrase, column, message):
    err = _error(TWO + f'Ann controls creature "Bear" 2/2 with {phrase}\n')
    assert (err.line, err.column) == (2, column)
    assert message in err.message


def test_an_unknown_ability_is_bad_input_exit_2(tmp_path):
    path = tmp_path / "f.mtg"
    path.write_text(TWO + 'Ann controls creature "Bear" 2/2 with flyng\nask legal\n', "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", str(path)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith(
        f"{path}:2:39: error: unknown ability 'flyng'; did you mean 'flying'?"
    )
    assert "Traceback" not in proc.stderr


def test_a_name_the_vocabulary_puts_after_can_t_attack_is_refused_as_a_bare_name():
    # `can't attack Alone` would read as the ability `can't attack alone`
    assert keyword_of("Alone") == "'alone'" and keyword_of("Alonso") is None
    err = _error("players: Ann, Alone\n")
    assert (err.line, err.column) == (1, 15) and "'Alone' cannot be a player's name" in err.message


@pytest.mark.slow  # a copy of the rule base or a --with file: its analysis is computed anew
def test_the_vocabulary_is_the_rule_base_s_in_use(tmp_path, monkeypatch):
    # a copy of the rule base with one more spelling of flying, and one game less
    for folder in ("rules", "kb", "queries"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    vocab = tmp_path / "kb" / "vocabulary.lp"
    text = vocab.read_text("utf-8").replace("emperor; commander;", "commander;")
    vocab.write_text(text + '\nability_word("volante", flying, simple).\n', "utf-8")
    monkeypatch.setenv("MTGKB_RULE_BASE", str(tmp_path))
    assert _abilities("volante") == [("flying", ())]
    assert "unknown game 'emperor'" in _error("game: emperor\n" + TWO).message
    monkeypatch.setenv("MTGKB_RULE_BASE", str(ROOT))
    assert (
        "unknown ability 'volante'" in _error(TWO + 'Ann controls land "L" with volante\n').message
    )


def test_a_player_has_only_the_abilities_the_vocabulary_gives_players():
    sc = parse_text(TWO + "Ann has hexproof\nBen has protection from Red\n", "t.mtg")
    assert [(a.ability, a.color) for a in sc.player_abilities] == [
        ("hexproof", None),
        ("protection", "red"),
    ]
    err = _error(TWO + "Ann has flying\n")
    assert (err.line, err.column) == (2, 9)
    assert err.message == (
        "a player cannot have 'flying'; a player may have: hexproof, shroud, protection from red, "
        "protection from everything"
    )


def test_509_1b_cites_every_evasion_ability_of_the_vocabulary():
    # the rule quantifies over evasion/2: a shadow block broken is cited under 509.1b
    from helpers.answering import run

    text = TWO + (
        'Ann controls creature "Wisp" 1/1 with shadow\nBen controls creature "Bear" 2/2\n'
        '"Wisp" attacks Ben\n"Bear" blocks "Wisp"\nask legal\n'
    )
    (legal,) = run(text)["answers"]
    assert [v["rule"] for v in legal["violations"]] == ["702.28b"]
    assert {"509.1b", "702.28b"} <= set(legal["rules"])
    assert ("shadow", "702.28b") in vocabulary().evasion


def test_the_vocabulary_is_read_once_per_file_stamp():
    assert vocabulary() is vocabulary()
