"""117.1, 117.1a-b, 304.1, 307.1, 602.5d, 606.3, 702.8a, 116.2a, 305.1-305.2,
805.4c, 805.5a: when a player may cast, activate or play a land, checked on
declared plays (`ask legal`) and listed by `ask actions for P`."""

import pytest
from helpers.player_answers import GIANTS, ask, broken, rules

TWO = "players: Ann, Ben\nactive: Ann\n"
ALL = ["instant", "flash", "ability", "sorcery-speed ability", "sorcery", "land"]
FAST = ["instant", "flash", "ability"]


def test_117_1_117_1a_the_active_player_in_main_may_do_everything():
    out = ask(TWO, "actions for Ann")
    assert set(out["may"]) == set(ALL)
    assert {"117.1", "117.1a", "307.1", "305.1"} <= rules(out)


def test_117_1_without_priority_nothing():
    out = ask(TWO, "actions for Ben")
    assert out["may"] == [] and "117.1" in rules(out)


def test_117_1a_304_1_702_8a_with_priority_on_anothers_turn_instant_speed_only():
    out = ask(TWO + "priority: Ben\n", "actions for Ben")
    assert set(out["may"]) == set(FAST)
    assert {"304.1", "702.8a", "117.1b"} <= rules(out)


def test_307_1_117_1a_sorcery_timing_needs_an_empty_stack():
    text = TWO + 'stack: "Lightning Bolt" controlled by Ben\n'
    assert set(ask(text, "actions for Ann")["may"]) == set(FAST)


@pytest.mark.parametrize(
    "phase", ["upkeep", "draw", "beginning-of-combat", "declare-attackers", "end"]
)
def test_117_1a_307_1_sorcery_timing_needs_a_main_phase(phase):
    assert set(ask(TWO + f"phase: {phase}\n", "actions for Ann")["may"]) == set(FAST)


def test_305_2_one_land_a_turn():
    out = ask(TWO + "lands played: Ann 1\n", "actions for Ann")
    assert "land" not in out["may"] and "sorcery" in out["may"]
    assert "305.2" in rules(out)


def test_117_1a_304_1_an_instant_on_anothers_turn_is_legal_with_priority():
    out = ask(TWO + "priority: Ben\n" + 'Ben casts instant "Shock" targeting Ann\n', "legal")
    assert out["legal"] is True and {"117.1a", "304.1"} <= rules(out)


def test_117_1a_an_instant_without_priority_is_not():
    out = ask(TWO + 'Ben casts instant "Shock" targeting Ann\n', "legal")
    assert broken(out) == {"117.1a"} and "304.1" in rules(out)


def test_307_1_a_sorcery_on_anothers_turn_without_priority_breaks_both():
    out = ask(TWO + 'Ben casts sorcery "Divination"\n', "legal")
    assert broken(out) == {"117.1a", "307.1"}


def test_307_1_a_sorcery_on_anothers_turn_is_illegal():
    out = ask(TWO + "priority: Ben\n" + 'Ben casts sorcery "Divination"\n', "legal")
    assert broken(out) == {"307.1"}


def test_307_1_a_sorcery_with_a_nonempty_stack_is_illegal():
    text = TWO + 'stack: "Lightning Bolt" controlled by Ben\nAnn casts sorcery "Divination"\n'
    assert broken(ask(text, "legal")) == {"307.1"}


def test_117_1a_a_creature_spell_follows_sorcery_timing():
    out = ask(TWO + "phase: upkeep\n" + 'Ann casts creature "Grizzly Bears"\n', "legal")
    assert broken(out) == {"117.1a"}


def test_702_8a_flash_casts_at_instant_speed():
    text = TWO + "priority: Ben\n" + 'Ben casts creature "Ambush Viper" with flash\n'
    out = ask(text, "legal")
    assert out["legal"] is True and "702.8a" in rules(out)


def test_117_1b_an_ability_needs_only_priority():
    text = TWO + "priority: Ben\nphase: end\n" + 'Ben activates "Prodigal Sorcerer" targeting Ann\n'
    assert ask(text, "legal")["legal"] is True


def test_602_5d_an_ability_as_a_sorcery_follows_sorcery_timing():
    text = TWO + "priority: Ben\n" + 'Ben activates "Bonesplitter" as a sorcery\n'
    assert broken(ask(text, "legal")) == {"602.5d"}
    assert ask(TWO + 'Ann activates "Bonesplitter" as a sorcery\n', "legal")["legal"] is True


def test_606_3_loyalty_once_a_turn_and_at_sorcery_timing():
    text = TWO + 'Ann controls planeswalker "Jace Beleren" loyalty 3\n'
    act = 'Ann activates "Jace Beleren" as a loyalty ability\n'
    assert ask(text + act, "legal")["legal"] is True
    assert broken(ask(text + act + act, "legal")) == {"606.3"}
    assert broken(ask(text + "phase: upkeep\n" + act, "legal")) == {"606.3"}


def test_606_3_a_loyalty_ability_of_someone_elses_planeswalker():
    text = TWO + 'Ben controls planeswalker "Jace Beleren" loyalty 3\n'
    out = ask(text + 'Ann activates "Jace Beleren" as a loyalty ability\n', "legal")
    assert broken(out) == {"606.3"}


def test_116_2a_305_1_a_land_in_ones_own_main_phase():
    assert ask(TWO + 'Ann plays land "Forest"\n', "legal")["legal"] is True
    out = ask(TWO + "priority: Ben\n" + 'Ben plays land "Forest"\n', "legal")
    assert broken(out) == {"305.1"}
    # Without priority, on another player's turn: both missing conditions are named.
    out = ask(TWO + 'Ben plays land "Forest"\n', "legal")
    assert broken(out) == {"116.2a", "305.1"}


def test_305_2_a_second_land_is_illegal():
    assert broken(ask(TWO + "lands played: Ann 1\n" + 'Ann plays land "Forest"\n', "legal")) == {
        "305.2"
    }
    text = TWO + 'Ann plays land "Forest"\nAnn plays land "Island"\n'
    out = ask(text, "legal")
    assert broken(out) == {"305.2"}
    assert out["violations"][0]["objects"] == ["Island", "Ann"]


def test_805_5a_a_teammate_acts_when_the_team_has_priority():
    out = ask(GIANTS + 'Ben casts sorcery "Divination"\n', "legal")
    assert out["legal"] is True and "805.5a" in rules(out)
    out = ask(GIANTS, "actions for Ben")
    assert set(out["may"]) == set(ALL) and "805.5a" in rules(out)
    assert ask(GIANTS, "actions for Cat")["may"] == []


def test_805_5a_priority_names_the_team():
    out = ask(GIANTS + "priority: Dan\n", "actions for Cat")
    assert set(out["may"]) == set(FAST)


def test_805_4c_each_teammate_plays_a_land_in_the_teams_turn():
    text = GIANTS + "lands played: Ann 1\n" + 'Ben plays land "Forest"\n'
    out = ask(text, "legal")
    assert out["legal"] is True and "805.4c" in rules(out)
    assert broken(ask(text + 'Ben plays land "Island"\n', "legal")) == {"305.2"}


def test_117_1_actions_read_the_setup_not_the_declarations():
    text = TWO + 'Ann plays land "Forest"\n'
    assert "land" in ask(text, "actions for Ann")["may"]


def test_117_1a_stack_empty_is_the_default_written_out():
    assert set(ask(TWO + "stack: empty\n", "actions for Ann")["may"]) == set(ALL)
