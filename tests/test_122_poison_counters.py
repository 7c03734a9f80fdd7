"""122.1f, 702.90b, 702.164, 704.5c, 704.6b, 810.8d, 810.10, 810.11: poison
counters on players, alone and shared by a Two-Headed Giant team."""

import pytest
from helpers.player_answers import GIANTS, ask, rules

TWO = "players: Ann, Ben\n"


def test_122_1f_poison_setup_and_events_add_up():
    out = ask(
        TWO + "poison: Ann 3\nAnn gets 2 poison counters\nBen gets 1 poison counters\n", "outcome"
    )
    assert out["poison"] == {"Ann": 5, "Ben": 1}
    assert out["lost"] == []
    assert "122.1f" in rules(out)


def test_122_1f_704_5c_104_3d_ten_counters_lose():
    out = ask(TWO + "poison: Ann 9\nAnn gets 1 poison counters\n", "outcome")
    assert out["poison"]["Ann"] == 10
    assert out["lost"] == ["Ann"]
    assert {"704.5c", "122.1f", "104.3d"} <= rules(out)
    assert "704.5a" not in rules(out)


def test_704_5c_nine_counters_do_not_lose():
    out = ask(TWO + "poison: Ann 9\n", "outcome")
    assert out["lost"] == [] and "704.5c" not in rules(out)


def test_122_1f_no_poison_no_poison_key():
    out = ask(TWO + "Ann loses 2 life\n", "outcome")
    assert "poison" not in out and "team_poison" not in out


def test_122_1f_cant_get_poison_counters_from_then_on():
    text = (
        TWO
        + "Ann gets 2 poison counters\nAnn can't get poison counters\nAnn gets 9 poison counters\n"
    )
    out = ask(text, "outcome")
    assert out["poison"]["Ann"] == 2 and out["lost"] == []


def test_104_3b_cant_lose_the_game_keeps_a_poisoned_player_in():
    out = ask(TWO + "poison: Ann 12\nAnn can't lose the game\n", "outcome")
    assert out["lost"] == [] and "104.3b" in rules(out)


def test_702_90b_infect_damage_gives_counters_not_life_loss():
    text = TWO + (
        'Ann controls creature "Glistener Elf" 1/1 with infect, lifelink\n'
        '"Glistener Elf" attacks Ben\ncombat damage\n'
    )
    out = ask(text, "outcome")
    assert out["life"] == {"Ann": 21, "Ben": 20}  # lifelink still gains (702.15b)
    assert out["poison"]["Ben"] == 1
    assert {"702.90b", "702.15b"} <= rules(out)


def test_702_90b_noncombat_infect_damage_too():
    text = (
        TWO
        + 'Ann controls creature "Blight Mamba" 1/1 with infect\n'
        + '"Blight Mamba" deals 4 damage to Ben\n'
    )
    out = ask(text, "outcome")
    assert out["life"]["Ben"] == 20 and out["poison"]["Ben"] == 4
    assert "702.90b" in rules(out)


def test_702_164c_702_164b_toxic_adds_counters_to_combat_damage():
    text = TWO + (
        'Ann controls creature "Bilious Skulldweller" 1/1 with toxic 2\n'
        '"Bilious Skulldweller" attacks Ben\ncombat damage\n'
    )
    out = ask(text, "outcome")
    assert out["life"]["Ben"] == 19 and out["poison"]["Ben"] == 2
    assert {"702.164c", "702.164b"} <= rules(out)


def test_702_164c_toxic_counts_only_combat_damage():
    text = (
        TWO
        + 'Ann controls creature "Skulldweller" 1/1 with toxic 2\n'
        + '"Skulldweller" deals 1 damage to Ben\n'
    )
    out = ask(text, "outcome")
    assert out["life"]["Ben"] == 19 and out["poison"]["Ben"] == 0
    assert "702.164c" not in rules(out)


def test_702_164c_a_blocked_toxic_creature_gives_nothing():
    text = TWO + (
        'Ann controls creature "Skulldweller" 1/1 with toxic 2\n'
        'Ben controls creature "Wall" 0/4\n'
        '"Skulldweller" attacks Ben\n"Wall" blocks "Skulldweller"\ncombat damage\n'
    )
    assert ask(text, "outcome")["poison"]["Ben"] == 0


def test_810_10_810_10a_a_team_shares_its_counters():
    out = ask(
        GIANTS + "poison: North 3\nAnn gets 2 poison counters\nBen gets 4 poison counters\n",
        "outcome",
    )
    assert out["team_poison"] == {"North": 9, "South": 0}
    assert out["poison"] == {"Ann": 9, "Ben": 9, "Cat": 0, "Dan": 0}
    assert {"810.10", "810.10a"} <= rules(out)


def test_704_6b_810_8d_a_team_loses_at_fifteen_not_ten():
    out = ask(GIANTS + "poison: South 12\n", "outcome")
    assert out["lost"] == []
    out = ask(GIANTS + "poison: South 12\nCat gets 3 poison counters\n", "outcome")
    assert out["lost"] == ["Cat", "Dan"]
    assert {"704.6b", "810.8d", "810.8a"} <= rules(out)
    assert "704.5c" not in rules(out)


def test_810_11_three_headed_giant_loses_at_twenty():
    text = (
        "game: two-headed-giant\nplayers: A1, A2, A3, B1, B2, B3\n"
        "team A: A1, A2, A3\nteam B: B1, B2, B3\npoison: A 19\n"
    )
    assert ask(text, "outcome")["lost"] == []
    out = ask(text + "A2 gets 1 poison counters\n", "outcome")
    assert out["lost"] == ["A1", "A2", "A3"]
    assert {"810.11", "704.6b"} <= rules(out)


def test_810_10c_a_members_cant_get_poison_covers_the_team():
    text = GIANTS + "Ann can't get poison counters\nBen gets 3 poison counters\n"
    out = ask(text, "outcome")
    assert out["team_poison"]["North"] == 0


def test_810_10c_without_shared_counters_a_teammate_is_not_covered():
    text = (
        "game: team-vs-team\nplayers: Ann, Ben, Cat, Dan\nteam North: Ann, Ben\n"
        "team South: Cat, Dan\nAnn can't get poison counters\nBen gets 3 poison counters\n"
    )
    out = ask(text, "outcome")
    assert out["poison"]["Ben"] == 3 and "team_poison" not in out


@pytest.mark.parametrize("game", ["free-for-all\noption: attack-left", "team-vs-team"])
def test_704_5c_outside_two_headed_giant_each_player_loses_at_ten(game):
    text = f"game: {game}\nplayers: Ann, Ben, Cat, Dan\n"
    if "team" in game:
        text += "team North: Ann, Ben\nteam South: Cat, Dan\n"
    out = ask(text + "poison: Ann 10\n", "outcome")
    assert out["lost"] == ["Ann"]


def test_702_164c_double_strike_gives_toxic_counters_in_each_step():
    text = TWO + (
        'Ann controls creature "Skull" 1/1 with toxic 1, double strike\n"Skull" attacks Ben\n'
        "combat damage\n"
    )
    out = ask(text, "outcome")
    assert out["poison"]["Ben"] == 2 and out["life"]["Ben"] == 18
    assert {"702.164c", "702.4b"} <= rules(out)


def test_704_5c_510_4_ten_counters_after_the_first_step_lose_between_the_steps():
    text = TWO + (
        "poison: Ben 9\n"
        'Ann controls creature "Elf" 1/1 with infect, first strike\n"Elf" attacks Ben\n'
        "combat damage\n"
    )
    out = ask(text, "outcome")
    assert out["lost"] == ["Ben"] and out["life"]["Ben"] == 20
    assert {"704.5c", "510.4", "702.90b"} <= rules(out)


def test_702_90b_infect_in_the_first_step_is_no_life_loss():
    text = TWO + (
        'Ann controls creature "Elf" 2/2 with infect, double strike\n"Elf" attacks Ben\n'
        "combat damage\n"
    )
    out = ask(text, "outcome")
    assert out["life"]["Ben"] == 20 and out["poison"]["Ben"] == 4
