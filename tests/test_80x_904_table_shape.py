"""The table's shape (805.1, 806.2b, 808.1, 809.1, 809.2, 810.1, 810.11,
904.2, 904.2a) is decided by the rule base (rules/100_input_checks.lp), not by
Python: each refused table is an `input_error(rule(R), Kind, Args)` with the
place it was written, and every kind has a message and its Italian twin."""

import re

import clingo
import pytest
from helpers import ROOT

from mtgkb.audit.consistency import generated_corpus
from mtgkb.language.checks import input_errors
from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import _Builder, grammar, parse_text
from mtgkb.language.validate import _Checker
from mtgkb.rulebase.encoded import encoded_map
from mtgkb.rulebase.location import data_dir


def unchecked(text: str):
    """The scenario of a text whose names are right, before its table is checked."""
    lines = text.split("\n")
    sc = _Builder("t.mtg", lines).build(grammar().parse(text + "\n"))
    checker = _Checker(sc)
    checker.names()
    checker.references()
    checker.flush()
    return sc


def rules_broken(text: str) -> dict[str, set[str]]:
    """Kind -> the rules the input checks say it breaks."""
    found: dict[str, set[str]] = {}
    for sym in input_errors(unchecked(text)):
        if sym.name == "input_error":
            rule, kind = sym.arguments[0], sym.arguments[1]
            number = rule.arguments[0].string if rule.arguments else str(rule)
            found.setdefault(kind.name, set()).add(number)
    return found


def error(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "t.mtg")
    return caught.value


SIX = "players: A, B, C, D, E, F\n"


def test_810_1_two_headed_giant_refuses_a_third_team():
    text = "game: two-headed-giant\n" + SIX + "team X: A, B\nteam Y: C, D\nteam Z: E, F\n"
    assert rules_broken(text) == {"third_team": {"810.1"}}
    err = error(text)
    assert (err.line, err.column) == (5, 1)
    assert err.message == (
        "a two-headed-giant game is played by exactly two teams (810.1); team Z makes 3"
    )
    assert str(err).split("\n")[1:] == ["team Z: E, F", "^"]


def test_810_1_two_teams_of_two_are_a_two_headed_giant_table():
    text = "game: two-headed-giant\nplayers: A, B, C, D\nteam X: A, B\nteam Y: C, D\n"
    assert rules_broken(text) == {}
    assert len(parse_text(text).teams) == 2


def test_810_11_three_headed_giant_teams_are_allowed_but_equal():
    ok = "game: two-headed-giant\n" + SIX + "team X: A, B, C\nteam Y: D, E, F\n"
    assert rules_broken(ok) == {}
    bad = "game: two-headed-giant\n" + SIX + "team X: A, B\nteam Y: C, D, E, F\n"
    assert rules_broken(bad) == {"team_sizes_differ": {"810.11"}}


def test_904_2_archenemy_is_played_by_two_teams():
    text = "game: archenemy\n" + SIX + "archenemy: A\nteam Boss: A\nteam X: B, C\nteam Y: D, E, F\n"
    assert rules_broken(text) == {"archenemy_team_count": {"904.2"}}
    err = error(text)
    assert (err.line, err.column) == (4, 1) and "(904.2)" in err.message


def test_904_2_everyone_else_is_on_the_other_team():
    text = "game: archenemy\n" + SIX + "archenemy: A\nteam Boss: A\nteam X: B, C, D, E\n"
    assert rules_broken(text) == {"archenemy_player_on_no_team": {"904.2"}}
    err = error(text)
    assert (err.line, err.column) == (2, 25)
    assert err.message == "F is on no team; in this archenemy game every player is"


def test_809_2_805_1_rules_cited_by_the_checks_themselves():
    middle = "game: emperor\n" + SIX + "team X: A, B, C\nteam Y: D, E, F\nemperor: A\nemperor: E\n"
    assert rules_broken(middle) == {"emperor_not_in_middle": {"809.2"}}
    apart = "game: team-vs-team\nplayers: A, B, C, D\nteam X: A, C\nteam Y: B, D\n"
    assert rules_broken(apart) == {"team_not_adjacent": {"805.1"}}


def test_806_2b_808_1_809_1_cited_by_the_checks():
    assert rules_broken("game: free-for-all\nplayers: A, B, C\n") == {
        "ffa_needs_attack_option": {"806.2b"}
    }
    assert rules_broken("game: team-vs-team\nplayers: A, B, C\n") == {
        "team_game_needs_teams": {"808.1"}
    }
    small = "game: emperor\n" + SIX + "team X: A, B\nteam Y: C, D, E, F\nemperor: E\n"
    assert rules_broken(small)["team_too_small"] == {"809.1"}


def _kinds_of_checks() -> set[str]:
    text = (data_dir("rules") / "100_input_checks.lp").read_text(encoding="utf-8")
    return set(re.findall(r"input_error\((?:rule\([^)]*\)|no_rule),([a-z_]+),", text))


def test_every_input_error_kind_has_a_message_and_its_italian_twin():
    ctl = clingo.Control()
    ctl.load(str(data_dir("kb") / "input_messages.lp"))
    ctl.ground([("base", [])])
    atoms = ctl.symbolic_atoms
    en = {s.symbol.arguments[0].name for s in atoms.by_signature("input_message", 2)}
    it = {s.symbol.arguments[0].name for s in atoms.by_signature("input_message_it", 2)}
    kinds = _kinds_of_checks()
    assert len(kinds) >= 19
    assert kinds <= en and kinds <= it


def test_the_table_rules_are_encoded_in_lp_files():
    encoded = encoded_map()
    for number in ("805.1", "806.2b", "808.1", "809.1", "809.2", "810.1", "810.11"):
        assert any("100_input_checks.lp" in site for site in encoded[number]), number
    for number in ("904.2", "904.2a"):
        assert any(site.endswith(".lp") or ".lp:" in site for site in encoded[number])


def test_702_22c_101_4d_810_4_904_2a_faults_of_one_statement_are_the_rule_bases():
    band = 'players: A, B\nA controls creature "X" 1/1 with banding\n"X" attacks B\nband "X"\n'
    assert rules_broken(band) == {"band_too_small": {"702.22c"}}
    assert where_of(band) == (4, 1)
    choose = "players: A, B\nA's choice makes B choose\n"
    assert rules_broken(choose) == {"choice_without_each_player": {"101.4d"}}
    giant = "game: two-headed-giant\nplayers: A, B, C, D\nteam X: A, B\nteam Y: C, D\nlife: A 5\n"
    assert rules_broken(giant) == {"life_of_a_giant": {"810.4"}}
    assert error(giant).message == (
        "in a two-headed-giant game life is shared by the team (810.4): "
        "give the life of A's team (X), not of A"
    )
    boss = "game: archenemy\nplayers: A, B, C\narchenemy: A\narchenemy: B\n"
    assert rules_broken(boss)["second_archenemy"] == {"904.2a"}
    err = error(boss)
    assert (err.line, err.column) == (4, 1)
    assert err.message == "there is one archenemy (904.2a); already given at line 3"


def test_100_1_a_game_has_two_or_more_players_by_the_rule_base():
    one = "players: Rob\nactive: Rob\n"
    assert rules_broken(one)["too_few_players"] == {"100.1"}
    assert where_of(one) == (1, 10)
    assert error(one).message == "a game needs at least two players"
    with pytest.raises(ScenarioError, match="almeno due giocatori"):
        parse_text(one, "t.mtg", lang="it")
    assert rules_broken("players: Rob, Alex\n") == {}


def test_faults_of_one_statement_are_reported_with_the_names_in_file_order():
    # the band fault (line 4) comes before the unknown player (line 5), as before
    text = 'players: A, B\nA controls creature "X" 1/1\n"X" attacks B\nband "X"\nC loses 1 life\n'
    assert where_of(text) == (4, 1)


def where_of(text: str) -> tuple[int, int]:
    err = error(text)
    return (err.line, err.column)


def _table_texts():
    texts = [text for _, text in generated_corpus()]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.mtg"))]
    six = "players: A, B, C, D, E, F\n"
    texts += [
        "game: two-headed-giant\n" + six + "team X: A, B\nteam Y: C, D\nteam Z: E, F\n",
        "game: emperor\n" + six + "team X: A, B, C\nteam Y: D, E, F\nemperor: A\nemperor: E\n",
        "game: team-vs-team\nplayers: A, B, C, D\nteam X: A, C\nteam Y: B, D\n",
        "game: archenemy\n" + six + "archenemy: A\nteam Boss: A\nteam X: B, C, D, E\n",
        "game: free-for-all\noption: attack-left\noption: attack-right\nplayers: A, B, C\n",
        'players: A, B\nA controls creature "X" 1/1\n"X" attacks B\nband "X"\n',
    ]
    return texts


@pytest.mark.slow
def test_the_input_checks_ground_only_what_can_fire_and_find_the_same_errors():
    checked = 0
    for text in _table_texts():
        sc = _Builder("t.mtg", text.split("\n")).build(grammar().parse(text + "\n"))
        assert set(input_errors(sc)) == set(input_errors(sc, sliced=False)), text
        checked += 1
    assert checked > 90


def test_many_tables_checked_at_once_find_each_ones_errors():
    # a batch checks a chunk's tables in one grounding (each a scenario of
    # mtgkb.engine.scenarios): each table's errors are those it has alone
    from mtgkb.language.checks import input_errors_many

    scenarios = [
        _Builder("t.mtg", text.split("\n")).build(grammar().parse(text + "\n"))
        for text in _table_texts()
    ]
    together = input_errors_many(scenarios)
    assert together is not None
    rules = set()
    for sc, shown in zip(scenarios, together, strict=True):
        assert set(shown) == set(input_errors(sc))
        rules |= {str(s.arguments[0].arguments[0].string) for s in shown if s.name == "input_error"}
    # the refused tables among them, each for its own rule
    assert {"806.2b", "810.1", "904.2"} <= rules
