"""722.1, 722.3-722.6, 722.8: one player controlling another."""

from helpers.player_answers import ask, broken, rules

THREE = "players: Ann, Ben, Cat\nactive: Ann\nBen controls player Ann\n"


def test_722_5_722_3_order_names_who_makes_the_controlled_players_choices():
    out = ask(THREE + "each player sacrifices a creature\n", "order")
    assert out["orders"] == [["Ann", "Ben", "Cat"]]  # 722.3: Ann is still active
    assert out["made_by"] == {"Ann": "Ben"}
    assert {"722.5", "722.3", "101.4"} <= rules(out)


def test_722_5_no_control_no_made_by():
    out = ask("players: Ann, Ben\neach player sacrifices a creature\n", "order")
    assert "made_by" not in out


def test_722_4_the_controller_knows_the_controlled_players_face_down_choice():
    out = ask(THREE + "each player chooses a card from their hand\n", "knowledge")
    assert out["known"] == {"Ann": [], "Ben": ["Ann"], "Cat": []}
    assert {"722.4", "101.4a"} <= rules(out)


def test_722_4_the_controller_sees_what_the_controlled_player_sees():
    text = "players: Ann, Ben, Cat, Dan\nactive: Ann\nBen controls player Dan\n"
    out = ask(text + "each player chooses a creature\n", "knowledge")
    # Ben makes Dan's choice, last of all: what Dan sees then, Ben sees (722.4).
    assert out["known"]["Dan"] == ["Ann", "Ben", "Cat"]
    assert out["known"]["Ben"] == ["Ann", "Cat"]
    assert "722.4" in rules(out)


def test_722_6_making_another_player_concede_is_never_legal():
    out = ask(THREE + "Ben makes Ann concede\n", "legal")
    assert out["legal"] is False and broken(out) == {"722.6"}
    assert "104.3a" in rules(out)


def test_722_6_the_controlled_player_may_still_concede():
    out = ask(THREE + "Ann concedes\n", "outcome")
    assert out["lost"] == ["Ann"]


def test_722_5_722_1_the_controlled_players_actions_are_made_by_the_controller():
    out = ask(THREE, "actions for Ann")
    assert "sorcery" in out["may"] and out["made_by"] == {"Ann": "Ben"}
    assert {"722.5", "722.1"} <= rules(out)


def test_722_8_the_controller_keeps_their_own_plays():
    out = ask(THREE + "priority: Ben\n", "actions for Ben")
    assert set(out["may"]) == {"instant", "flash", "ability"}
    assert "722.8" in rules(out) and "made_by" not in out


def test_722_5_a_cast_made_for_the_controlled_player_is_judged_as_theirs():
    out = ask(THREE + 'Ann casts sorcery "Divination"\n', "legal")
    assert out["legal"] is True
