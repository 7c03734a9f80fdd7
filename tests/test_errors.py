"""Bad input is refused with the place it was written (file, line, column,
the source line and a caret), and nothing but ScenarioError ever escapes."""

import pytest
from helpers import CONFORMANCE, examples, needs_shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgkb.language.errors import ScenarioError
from mtgkb.language.model import Scenario
from mtgkb.language.parser import parse_file, parse_text

TWO = "players: Ann, Ben\n"
THREE = "players: Rob, Alex, Carissa\n"


def error(text) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "t.mtg")
    return caught.value


def where(text) -> tuple[int, int]:
    err = error(text)
    return (err.line, err.column)


# -------------------- the message format


def test_message_names_file_line_column_then_source_and_caret():
    err = error(TWO + '  Carl controls creature "Bear" 2/2\n')
    lines = str(err).split("\n")
    assert lines[0] == "t.mtg:2:3: error: unknown player Carl (known: Ann, Ben)"
    assert lines[1] == '  Carl controls creature "Bear" 2/2'
    assert lines[2] == "  ^"
    assert err.format() == str(err)
    assert err.as_dict() == {
        "file": "t.mtg",
        "line": 2,
        "column": 3,
        "message": "unknown player Carl (known: Ann, Ben)",
    }


def test_error_survives_pickling_with_its_position():
    import pickle

    err = pickle.loads(pickle.dumps(error(TWO + "Carl loses 1 life\n")))
    assert (err.filename, err.line, err.column) == ("t.mtg", 2, 1)
    assert str(err).endswith("Carl loses 1 life\n^")


def test_caret_keeps_tabs_so_it_lines_up():
    err = error(TWO + "\tCarl loses 1 life\n")
    assert str(err).split("\n")[2] == "\t^"


@needs_shared
def test_conformance_c12_unknown_player_at_line_2_column_1():
    with pytest.raises(ScenarioError) as caught:
        parse_file(CONFORMANCE / "c12_unknown_player.mtg")
    err = caught.value
    assert (err.line, err.column) == (2, 1)
    assert str(err).startswith(
        f"{CONFORMANCE / 'c12_unknown_player.mtg'}:2:1: error: unknown player Carl"
    )


@needs_shared
def test_conformance_c11_syntax_error_at_line_2():
    with pytest.raises(ScenarioError) as caught:
        parse_file(CONFORMANCE / "c11_syntax_error.mtg")
    assert caught.value.line == 2
    assert "syntax error" in str(caught.value)


# -------------------- syntax


@pytest.mark.parametrize(
    "text, pos",
    [
        (TWO + 'Ann controls creature "Bear 2/2\n', (2, 23)),  # unterminated name
        (TWO + 'Ann controls creature "B\\ear" 2/2\n', (2, 23)),  # only \" and \\ escape
        (TWO + "ask legal ask order\n", (2, 11)),  # one statement per line
        (TWO + "ask\n", (2, 4)),  # cut short: just past the end
        (TWO + "ask can Ann pay life\n", (2, 17)),
        (TWO + "Ann's life total becomes\n", (2, 25)),
        (TWO + "\n\nfrobnicate\n", (4, 11)),  # a bare word is a player name, cut short
        (TWO + "Ann controls creature Bear 2/2\n", (2, 23)),  # object names are quoted
        ("players: Ann, Ben,\n", (1, 19)),
    ],
)
def test_syntax_errors_point_at_the_token(text, pos):
    err = error(text)
    assert (err.line, err.column) == pos
    assert err.message.startswith("syntax error")


@pytest.mark.parametrize(
    "line, pos, words",
    [
        ("game: chess", (2, 7), "unknown game 'chess'"),
        ("option: attack-sideways", (2, 9), "unknown option"),
        ("option: range-of-influence", (2, 9), "needs a number"),
        ("option: attack-left 2", (2, 21), "takes no number"),
        ("phase: cleanup", (2, 8), "unknown phase"),
    ],
)
def test_unknown_vocabulary_is_named(line, pos, words):
    err = error(TWO + line + "\n")
    assert (err.line, err.column) == pos and words in err.message


# -------------------- names and references


@pytest.mark.parametrize(
    "text, pos",
    [
        ("players: Ann, Ben, Ann\n", (1, 20)),
        (TWO + 'Ann controls creature "X" 1/1\nBen controls land "X"\n', (3, 19)),
        (TWO + 'Ann controls creature "Ben" 1/1\n', (2, 23)),
        ("game: team-vs-team\nplayers: A, B\nteam A: A\nteam T: B\n", (3, 6)),
        (TWO + 'Ann controls creature "X" 1/1\ntrigger "X" controlled by Ann\n', (3, 9)),
        (TWO + 'trigger "T" controlled by Ann\ntrigger "T" controlled by Ben\n', (3, 9)),
    ],
)
def test_duplicate_names_share_one_namespace(text, pos):
    err = error(text)
    assert (err.line, err.column) == pos and "duplicate name" in err.message


@pytest.mark.parametrize(
    "text, pos",
    [
        (TWO + "active: Carl\n", (2, 9)),
        (TWO + "starting: Carl\n", (2, 11)),
        (TWO + "range: Carl 1\n", (2, 8)),
        (TWO + "vanguard: Carl 1\n", (2, 11)),
        (TWO + "life: Ann 3, Carl 4\n", (2, 14)),
        (TWO + 'Ann controls creature "X" 1/1 with can\'t attack Carl\n', (2, 49)),
        (TWO + 'Ann controls battle "X" defense 3 protected by Carl\n', (2, 48)),
        (TWO + "Ann chooses Carl as defending player\n", (2, 13)),
        (TWO + "Carl loses 1 life\n", (2, 1)),
        (TWO + "Ann exchanges life totals with Carl\n", (2, 32)),
        (TWO + '"Bolt" deals 3 damage to Carl\n', (2, 26)),
        (TWO + 'trigger "T" controlled by Carl\n', (2, 27)),
        (TWO + "ask can Carl pay 1 life\n", (2, 9)),
        (TWO + "ask blocks for Carl\n", (2, 16)),
        (TWO + '"Ghost" attacks Ben\n', (2, 1)),
        (TWO + 'Ann controls creature "X" 1/1\n"X" attacks Carl\n', (3, 13)),
        (TWO + 'Ann controls creature "X" 1/1\n"X" attacks "Nowhere"\n', (3, 13)),
        (TWO + 'Ann controls creature "X" 1/1\n"X" blocks "Ghost"\n', (3, 12)),
        (TWO + 'Ann controls creature "X" 1/1\n"Bolt" deals 1 damage to "Ghost"\n', (3, 26)),
        (TWO + 'ask attack targets for "Ghost"\n', (2, 24)),
    ],
)
def test_unknown_names_are_refused_where_written(text, pos):
    err = error(text)
    assert (err.line, err.column) == pos
    assert "unknown" in err.message


def test_the_first_problem_in_the_file_is_reported():
    assert where(TWO + "ask can Zed pay 1 life\nactive: Carl\n") == (2, 9)


def test_unknown_player_suggests_a_close_name():
    assert "did you mean Carissa?" in error(THREE + "Carisa loses 1 life\n").message


@pytest.mark.parametrize(
    "text, pos, words",
    [
        (
            TWO + 'Ann controls land "L" with type swamp\nask attack targets for "L"\n',
            (3, 24),
            "not a creature",
        ),
        (
            TWO + 'Ann controls creature "X" 1/1\n"X" attacks Ben\n"X" attacks Ben\n',
            (4, 1),
            "already",
        ),
        (TWO + 'Ann controls creature "X" 1/1\n"X" attacks X\n', (3, 13), "quotes"),
    ],
)
def test_declarations_name_the_right_kind_of_thing(text, pos, words):
    err = error(text)
    assert (err.line, err.column) == pos and words in err.message


def test_702_22c_band_members_exist_and_are_two_or_more():
    text = TWO + 'Ann controls creature "H" 1/1 with banding\n'
    assert where(text + 'band "H", "Ghost"\n') == (3, 11)
    assert "two or more" in error(text + 'band "H"\n').message
    text += 'Ann controls creature "S" 1/1\n'
    assert "named twice in this band" in error(text + 'band "H", "S", "H"\n').message


def test_101_4d_a_choice_making_another_choose_needs_an_earlier_simultaneous_choice():
    err = error(THREE + "Carissa's choice makes Rob choose\neach player sacrifices a creature\n")
    assert (err.line, err.column) == (2, 1) and "101.4d" in err.message


@pytest.mark.parametrize(
    "line, col",
    [
        ('"Bolt" deals -3 damage to Ann', 14),
        ("Ann loses -1 life", 11),
        ("Ann gains -1 life", 11),
        ("Ann pays -1 life", 10),
        ("ask can Ann pay -1 life", 17),
        ("range: Ann 0", 12),
        ("ask attacks limit -1", 19),
    ],
)
def test_amounts_are_not_negative(line, col):
    assert where(TWO + line + "\n") == (2, col)


def test_numbers_stay_inside_clingo_integers():
    assert "too large" in error(TWO + "Ann loses 99999999999999999999 life\n").message


# -------------------- the table


def test_no_players_is_an_error():
    assert where("") == (1, 1) and "no players" in error("").message
    assert where("# nothing\n\nask legal\n") == (3, 1)


def test_102_1_a_game_has_two_or_more_players():
    assert where("players: Ann\n") == (1, 10)


def test_two_player_game_has_exactly_two_players():
    err = error("game: two-player\n" + THREE)
    assert (err.line, err.column) == (1, 7) and "exactly two players" in err.message


def test_reserved_statement_words_are_not_player_names():
    assert where("players: Ann, Team\n") == (1, 15)


def test_805_1_team_members_must_sit_adjacent():
    err = error("game: team-vs-team\nplayers: A, B, C, D\nteam X: A, C\nteam Y: B, D\n")
    assert (err.line, err.column) == (3, 12) and "805.1" in err.message


def test_805_1_seats_wrap_around_the_table():
    sc = parse_text("game: team-vs-team\nplayers: A, B, C, D\nteam X: D, A\nteam Y: B, C\n")
    assert [t.members for t in sc.teams] == [["D", "A"], ["B", "C"]]


def test_805_1_shared_team_turns_needs_teams():
    err = error(THREE + "option: shared-team-turns\n")
    assert (err.line, err.column) == (2, 9) and "805.1" in err.message


def test_102_3_a_player_is_on_one_team():
    err = error("players: A, B, C\nteam X: A, B\nteam Y: B, C\n")
    assert (err.line, err.column) == (3, 9) and "already on team X" in err.message


def test_806_2b_free_for_all_must_name_an_attack_option():
    err = error("game: free-for-all\n" + THREE)
    assert (err.line, err.column) == (1, 7) and "806.2b" in err.message


def test_806_2b_free_for_all_names_only_one_attack_option():
    text = "game: free-for-all\noption: attack-left\noption: attack-multiple-players\n" + THREE
    err = error(text)
    assert (err.line, err.column) == (3, 9) and "806.2b" in err.message
    assert where("option: attack-left\noption: attack-right\n" + THREE) == (2, 9)


def test_806_2b_is_not_required_of_a_commander_game():
    sc = parse_text("game: commander\n" + THREE)
    assert sc.options == []


def test_808_1_team_vs_team_needs_teams_covering_every_player():
    assert "808.1" in error("game: team-vs-team\n" + THREE).message
    err = error("game: team-vs-team\nplayers: A, B, C, D, E\nteam X: A, B\nteam Y: C, D\n")
    assert (err.line, err.column) == (2, 22) and "on no team" in err.message


def test_810_1_two_headed_giant_teams_have_two_players_or_more():
    err = error("game: two-headed-giant\nplayers: A, B\nteam X: A\nteam Y: B\n")
    assert (err.line, err.column) == (3, 1) and "810.1" in err.message


def test_810_11_two_headed_giant_teams_are_the_same_size():
    text = "game: two-headed-giant\nplayers: A, B, C, D, E\nteam X: A, B\nteam Y: C, D, E\n"
    err = error(text)
    assert (err.line, err.column) == (4, 1) and "810.11" in err.message
    sc = parse_text(
        "game: two-headed-giant\nplayers: A, B, C, D, E, F\nteam X: A, B, C\nteam Y: D, E, F\n"
    )
    assert len(sc.teams) == 2


def test_810_4_life_names_the_team_in_two_headed_giant():
    text = "game: two-headed-giant\nplayers: A, B, C, D\nteam X: A, B\nteam Y: C, D\n"
    err = error(text + "life: A 20\n")
    assert (err.line, err.column) == (5, 7) and "810.4" in err.message
    assert "is a team" in error("players: A, B\nteam X: A\nteam Y: B\nlife: X 20\n").message


EMPEROR = (
    "game: emperor\nplayers: G1, E1, G2, G3, E2, G4\nteam Red: G1, E1, G2\nteam Blue: G3, E2, G4\n"
)


def test_809_1_emperor_teams_have_three_players_or_more():
    err = error(
        "game: emperor\nplayers: A, B, C, D\nteam X: A, B\nteam Y: C, D\nemperor: A\nemperor: C\n"
    )
    assert (err.line, err.column) == (3, 1) and "809.1" in err.message


def test_809_2_one_emperor_per_team():
    err = error(EMPEROR + "emperor: E1\nemperor: G1\nemperor: E2\n")
    assert (err.line, err.column) == (6, 10) and "809.2" in err.message
    err = error(EMPEROR + "emperor: E1\n")
    assert (err.line, err.column) == (4, 1) and "no emperor" in err.message


def test_809_2_the_emperor_sits_in_the_middle_of_the_team():
    err = error(EMPEROR + "emperor: E1\nemperor: G4\n")
    assert (err.line, err.column) == (6, 10) and "809.2" in err.message


def test_809_2_emperor_lines_belong_to_emperor_games():
    assert "809.2" in error(THREE + "emperor: Rob\n").message


def test_904_2a_archenemy_game_names_exactly_one_archenemy():
    assert where("game: archenemy\n" + THREE) == (1, 7)
    err = error("game: archenemy\n" + THREE + "archenemy: Rob\narchenemy: Alex\n")
    assert (err.line, err.column) == (4, 1) and "904.2a" in err.message
    assert "904.2a" in error(THREE + "archenemy: Rob\n").message


def test_904_2a_declared_archenemy_team_is_the_archenemy_alone():
    text = "game: archenemy\nplayers: A, B, C\narchenemy: A\nteam X: A, B\nteam Y: C\n"
    assert "team of one" in error(text).message


@pytest.mark.parametrize(
    "line",
    [
        "game: two-player",
        "active: Ann",
        "starting: Ann",
        "phase: main",
        "rule: no more than 1 creature can attack",
    ],
)
def test_single_settings_are_given_once(line):
    err = error(TWO + line + "\n" + line + "\n")
    assert err.line == 3 and "already" in err.message


# -------------------- hostile input


def test_non_utf8_bytes_name_their_place():
    err = error(b"players: Ann, Ben\nAnn loses 1 life \xff\n")
    assert (err.line, err.column) == (2, 18) and "UTF-8" in err.message


def test_nul_and_control_characters():
    err = error(TWO + 'Ann controls creature "A\x00B" 1/1\n')
    assert (err.line, err.column) == (2, 25)
    assert "\x00" not in str(err)


def test_size_guards():
    assert "larger than" in error(TWO + ("# " + "x" * 998 + "\n") * 1100).message
    assert (
        "too many players"
        in error("players: " + ", ".join(f"P{i}" for i in range(65)) + "\n").message
    )
    err = error(TWO + 'Ann controls creature "' + "n" * 201 + '" 1/1\n')
    assert (err.line, err.column) == (2, 23) and "200 characters" in err.message
    many = "".join(f'Ann controls land "L{i}"\n' for i in range(10_001))
    err = error(TWO + many)
    assert err.line == 10_002 and "too many objects" in err.message


def test_a_very_long_line_gives_a_short_message():
    err = error(TWO + "Ann loses 1 life " + "x" * 100_000 + "\n")
    assert err.line == 2 and len(str(err)) < 2000


def test_parse_file_that_cannot_be_read(tmp_path):
    with pytest.raises(ScenarioError) as caught:
        parse_file(tmp_path / "missing.mtg")
    assert "cannot read" in caught.value.message


_PIECES = [
    "players:",
    "Ann",
    "Ben",
    ",",
    ":",
    "team",
    "T",
    "ask",
    "legal",
    "blocks",
    "for",
    "limit",
    "[",
    "]",
    "controls",
    "creature",
    '"X"',
    '"Y"',
    "2/2",
    "with",
    "flying",
    "can't",
    "attack",
    "attacks",
    "blocks",
    "deals",
    "3",
    "-1",
    "damage",
    "to",
    "life",
    "loses",
    "'s",
    "each",
    "player",
    "chooses",
    "a",
    "card",
    "then",
    "and",
    "game:",
    "free-for-all",
    "option:",
    "attack-left",
    "emperor:",
    "#",
    "\n",
    "\n",
    "\t",
    '"',
    "\\",
    "\x00",
    "\u00e9",
    "range:",
    "band",
    "trigger",
    "controlled",
    "by",
    "combat",
    "mountainwalk",
]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_property_token_soup_gives_a_scenario_or_a_scenario_error(pieces):
    _only_scenario_errors(TWO + " ".join(pieces))


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=200))
def test_property_random_text_gives_a_scenario_or_a_scenario_error(text):
    _only_scenario_errors(text)
    _only_scenario_errors(TWO + text)


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=200))
def test_property_random_bytes_give_a_scenario_or_a_scenario_error(data):
    _only_scenario_errors(data)
    _only_scenario_errors(TWO.encode() + data)


def _only_scenario_errors(text):
    try:
        result = parse_text(text, "fuzz.mtg")
    except ScenarioError as err:
        rendered = str(err)
        assert rendered.startswith(f"fuzz.mtg:{err.line}:{err.column}: error: ")
        assert err.line >= 1 and err.column >= 1
    else:
        assert isinstance(result, Scenario)
