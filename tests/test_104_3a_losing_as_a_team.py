"""104.3a, 810.8b, 809.5b, 104.3i: conceding, and losing as a team."""

from helpers.player_answers import GIANTS, ask, rules

EMPERORS = """game: emperor
players: A1, E1, A2, B1, E2, B2
team West: A1, E1, A2
team East: B1, E2, B2
emperor: E1
emperor: E2
"""


def test_104_3a_a_player_who_concedes_loses():
    out = ask("players: Ann, Ben, Cat\nBen concedes\n", "outcome")
    assert out["lost"] == ["Ben"] and "104.3a" in rules(out)


def test_104_3a_conceding_is_not_stopped_by_cant_lose_the_game():
    out = ask("players: Ann, Ben\nBen can't lose the game\nBen concedes\n", "outcome")
    assert out["lost"] == ["Ben"]


def test_810_8b_in_two_headed_giant_the_team_leaves_and_loses():
    out = ask(GIANTS + "Dan concedes\n", "outcome")
    assert out["lost"] == ["Cat", "Dan"]
    assert {"104.3a", "810.8b"} <= rules(out)


def test_104_3a_in_team_vs_team_only_the_player_who_concedes_loses():
    text = "game: team-vs-team\nplayers: Ann, Ben, Cat, Dan\nteam N: Ann, Ben\nteam S: Cat, Dan\n"
    out = ask(text + "Dan concedes\n", "outcome")
    assert out["lost"] == ["Dan"] and "810.8b" not in rules(out)


def test_809_5b_104_3i_the_emperors_loss_is_the_teams():
    out = ask(EMPERORS + "E2 loses 20 life\n", "outcome")
    assert out["lost"] == ["B1", "E2", "B2"]
    assert {"809.5b", "104.3i", "704.5a"} <= rules(out)


def test_809_5b_a_generals_loss_is_only_theirs():
    out = ask(EMPERORS + "B1 loses 20 life\n", "outcome")
    assert out["lost"] == ["B1"] and "809.5b" not in rules(out)


def test_809_5b_an_emperor_poisoned_out_takes_the_team_along():
    out = ask(EMPERORS + "poison: E1 10\n", "outcome")
    assert out["lost"] == ["A1", "E1", "A2"]
    assert {"809.5b", "704.5c"} <= rules(out)
