"""805.8 (with 722.4, 722.5): under shared team turns, the player who controls
another controls that player's whole team."""

from helpers.player_answers import GIANTS, ask, rules

CAT_CONTROLS_ANN = GIANTS + "Cat controls player Ann\n"


def test_805_8_the_controller_makes_the_teammates_choices_too():
    out = ask(CAT_CONTROLS_ANN + "each player sacrifices a creature\n", "order")
    assert out["made_by"] == {"Ann": "Cat", "Ben": "Cat"}
    assert {"805.8", "722.5"} <= rules(out)


def test_805_8_ask_actions_for_the_teammate_names_the_controller():
    out = ask(CAT_CONTROLS_ANN, "actions for Ben")
    assert out["made_by"] == {"Ben": "Cat"} and "805.8" in rules(out)
    # 722.8: Cat still makes her own plays, and nobody makes them for her.
    assert "made_by" not in ask(CAT_CONTROLS_ANN, "actions for Cat")


def test_805_8_722_4_the_controller_knows_both_teammates_face_down_choices():
    out = ask(CAT_CONTROLS_ANN + "each player chooses a card from their hand\n", "knowledge")
    # The active team chooses first (805.6); Cat made both North choices herself.
    assert set(out["known"]["Cat"]) == {"Ann", "Ben"}
    assert out["known"]["Dan"] == []
    assert {"805.8", "722.4"} <= rules(out)


def test_805_8_without_shared_team_turns_control_stays_with_the_player():
    text = CAT_CONTROLS_ANN.replace("game: two-headed-giant", "game: team-vs-team")
    out = ask(text + "each player sacrifices a creature\n", "order")
    assert out["made_by"] == {"Ann": "Cat"} and "805.8" not in rules(out)


def test_805_8_the_option_alone_extends_control_too():
    text = CAT_CONTROLS_ANN.replace(
        "game: two-headed-giant", "game: team-vs-team\noption: shared-team-turns"
    )
    out = ask(text + "each player sacrifices a creature\n", "order")
    assert out["made_by"] == {"Ann": "Cat", "Ben": "Cat"}
