"""801 range of influence, 802.4-802.5 block and damage order, 803.1 attack
left/right, 805.10 team combat, 809.3 Emperor: multiplayer combat."""

import json

from helpers import ask, atoms, attack, band, cites, creature, models, only_model, permanent, s
from helpers import combat_table as table


def targets(facts, name):
    model = only_model("attack_targets", facts + ask(f"attack_targets({s(name)})"))
    found = {
        json.loads("[" + a[len("attack_target(") : -1] + "]")[1]
        for a in atoms(model, "attack_target")
    }
    return found, cites(model)


def violations(facts):
    model = only_model("legal", facts + ask("legal"))
    return atoms(model, "violation"), cites(model)


def order(query, facts):
    found = models(query, facts + ask(query))
    assert len(found) == 1
    model = found[0]
    pairs = sorted(json.loads("[" + a[a.index("(") + 1 : -1] + "]") for a in atoms(model, query))
    return [p for _, p in pairs], cites(model)


# --- 801: range of influence -------------------------------------------------


def test_801_2_distance_is_counted_the_shorter_way_round():
    facts = table(["A", "B", "C", "D", "E"], options=["attack_multiple_players"])
    model = only_model("defending", facts + "#show distance/3.\n" + ask("defending"))
    assert {'distance("A","E",1)', 'distance("A","C",2)', 'distance("A","D",2)'} <= model
    assert 'distance("A","A",0)' in model


def test_801_2a_801_2b_a_players_own_range_overrides_the_option():
    facts = table(
        ["Ann", "Ben", "Cat", "Dan", "Eve"],
        options=["attack_multiple_players", "range_of_influence(2)"],
        ranges={"Ann": 1},
    )
    model = only_model(
        "defending",
        facts + "#show range_of_influence/2. #show within_range/2.\n" + ask("defending"),
    )
    assert 'range_of_influence("Ann",1)' in model and 'range_of_influence("Ben",2)' in model
    assert 'within_range("Ann","Ann")' in model and 'within_range("Ann","Cat")' not in model
    assert 'within_range("Ben","Dan")' in model


def test_801_3_801_2d_c24_band_battle_and_range():
    facts = table(
        ["Ann", "Ben", "Cat", "Dan", "Eve"],
        options=["attack_multiple_players", "range_of_influence(2)"],
        ranges={"Ann": 1},
    )
    facts += creature("Ann", "Benalish Hero", 1, 1, "banding") + creature("Ann", "Squire", 1, 2)
    facts += permanent("Cat", "Invasion of Tarkir", "battle", protector="Ben")
    found, rules = targets(facts, "Squire")
    assert found == {"Ben", "Eve", "Invasion of Tarkir"}
    assert "801.3" in rules
    declared = band(1, "Benalish Hero", "Squire")
    declared += attack("Benalish Hero", "Ben") + attack("Squire", "Ben")
    assert violations(facts + declared)[0] == set()
    found, rules = violations(facts + attack("Squire", "Cat"))
    assert found == {'violation(rule("801.3"),attack_out_of_range("Squire","Cat"))'}


def test_801_5a_the_chosen_defending_player_must_be_in_range():
    facts = table(["A", "B", "C", "D", "E"], game="commander", options=["range_of_influence(1)"])
    found, _ = violations(facts + 'chooses_defending("A","C").\n')
    assert found == {'violation(rule("801.5a"),defending_out_of_range("A","C"))'}


# --- 803.1: attack left and right --------------------------------------------

C14 = (
    table(["Ann", "Ben", "Cat", "Dan"], options=["attack_left"])
    + creature("Ann", "Bear")
    + permanent("Ben", "Jace", "planeswalker")
    + permanent("Dan", "Liliana", "planeswalker")
)


def test_803_1a_c14_attack_left_targets():
    found, rules = targets(C14, "Bear")
    assert found == {"Ben", "Jace"}
    assert "803.1a" in rules


def test_803_1a_attacking_another_player_is_illegal():
    found, rules = violations(C14 + attack("Bear", "Liliana"))
    assert found == {'violation(rule("803.1a"),attacks_non_defending("Bear","Liliana"))'}


def test_803_1b_attack_right_targets():
    facts = table(["Ann", "Ben", "Cat", "Dan"], options=["attack_right"]) + creature("Ann", "Bear")
    facts += permanent("Ben", "Jace", "planeswalker") + permanent("Dan", "Liliana", "planeswalker")
    found, rules = targets(facts, "Bear")
    assert found == {"Dan", "Liliana"}
    assert "803.1b" in rules


# --- 805.10: shared team turns -----------------------------------------------

TWO_HEADED = table(
    ["Ann", "Ben", "Cat", "Dan"],
    game="two_headed_giant",
    active="Ben",
    teams={"North": ["Ann", "Ben"], "South": ["Cat", "Dan"]},
)


def test_805_10a_every_player_of_the_active_team_attacks():
    facts = TWO_HEADED + creature("Ann", "Giant", 3, 3)
    found, rules = targets(facts, "Giant")
    assert found == {"Cat", "Dan"}
    assert "805.10a" in rules


def test_805_10b_the_team_attack_is_judged_as_a_whole():
    facts = (
        TWO_HEADED + creature("Ann", "Loner", 1, 1, "cant_attack_alone") + creature("Ben", "Bear")
    )
    assert violations(facts + attack("Loner", "Cat") + attack("Bear", "Dan"))[0] == set()
    found, rules = violations(facts + attack("Loner", "Cat"))
    assert found == {'violation(rule("508.1c"),attacks_alone("Loner"))'}
    assert "805.10b" in rules


def test_805_10d_805_10f_team_block_and_damage_order():
    facts = TWO_HEADED + creature("Ann", "Giant", 3, 3) + creature("Ben", "Bear")
    facts += attack("Giant", "Dan") + attack("Bear", "Cat")
    assert order("damage_order", facts)[0] == ["Ben", "Ann", "Cat", "Dan"]
    players, rules = order("block_order", facts)
    assert players == ["Cat", "Dan"]
    assert "805.10d" in rules


# --- 802.4, 802.5: block and damage order ------------------------------------

C27 = (
    table(["Ann", "Ben", "Cat"], options=["attack_multiple_players"], active="Ben")
    + creature("Ben", "Bear")
    + creature("Ben", "Ogre", 3, 3)
    + attack("Bear", "Cat")
    + attack("Ogre", "Ann")
)


def test_802_4_c27_defending_players_block_in_apnap_order():
    players, rules = order("block_order", C27)
    assert players == ["Cat", "Ann"]
    assert {"802.4", "101.4"} <= rules


def test_802_5_c27_combat_damage_is_assigned_in_apnap_order():
    players, rules = order("damage_order", C27)
    assert players == ["Ben", "Cat", "Ann"]
    assert "802.5" in rules


def test_802_4_a_player_not_attacked_declares_no_blockers():
    facts = table(["Ann", "Ben", "Cat", "Dan"], options=["attack_multiple_players"], active="Cat")
    facts += creature("Cat", "Bear") + permanent("Ann", "Jace", "planeswalker")
    facts += attack("Bear", "Jace")
    assert order("block_order", facts)[0] == ["Ann"]
    assert order("damage_order", facts)[0] == ["Cat", "Ann"]


# --- 809.3: Emperor ----------------------------------------------------------

EMPEROR = table(
    ["G1", "E1", "G2", "G3", "E2", "G4"],
    game="emperor",
    teams={"Red": ["G1", "E1", "G2"], "Blue": ["G3", "E2", "G4"]},
    extra=['emperor("E1"). emperor("E2").'],
)


def test_809_3c_c25_a_general_attacks_only_the_adjacent_opponent():
    found, rules = targets(EMPEROR + creature("G1", "Knight"), "Knight")
    assert found == {"G4"}
    assert "809.3c" in rules


def test_809_3a_emperor_ranges_of_influence():
    model = only_model("defending", EMPEROR + "#show range_of_influence/2.\n" + ask("defending"))
    assert {'range_of_influence("E1",2)', 'range_of_influence("G1",1)'} <= model


def test_809_3c_attack_multiple_players_still_only_adjacent():
    facts = EMPEROR + "option(attack_multiple_players).\n" + creature("G1", "Knight")
    found, _ = targets(facts, "Knight")
    assert found == {"G4"}
    found, rules = violations(facts + attack("Knight", "G3"))
    assert 'violation(rule("809.3c"),attack_not_adjacent("Knight","G3"))' in found
