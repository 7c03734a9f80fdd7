"""506.2, 506.2a, 506.2b, 802.2, 803.1, 805.10a, 809.3c: who the defending players are.

The helpers at the top write scenario facts in the schema of docs/predicates.md;
they live in tests/helpers/.
"""

import json

from helpers import (  # noqa: F401
    ask,
    atoms,
    attack,
    band,
    block,
    cites,
    creature,
    models,
    only_model,
    permanent,
    quoted,
    s,
    table_facts,
)
from helpers import combat_table as table

from mtgkb.rulebase.words import messages


def defending(facts):
    model = only_model("defending", facts + ask("defending"))
    return {json.loads(a[len("defending(") : -1]) for a in atoms(model, "defending")}, cites(model)


# A multiplayer game whose variant sets no attack option: the attacking player
# chooses one opponent (506.2a). (A Commander game attacks multiple players
# unless the file writes a choice, 903.2: tests/test_903_2_commander_defaults.py.)
CHOOSING = "vanguard"


# --- tests -------------------------------------------------------------------


def test_506_2_two_player_nonactive_player_defends():
    # conformance c02
    players, rules = defending(table(["Ann", "Ben"], active="Ben"))
    assert players == {"Ann"}
    assert "506.2" in rules


def test_506_2a_commander_attacking_player_chooses_one_opponent():
    # conformance c20
    facts = table(["Ann", "Ben", "Cat"], game="commander")
    facts += 'chooses_defending("Ann","Ben").\n'
    players, rules = defending(facts)
    assert players == {"Ben"}
    assert "506.2a" in rules


def test_506_2a_without_a_choice_nobody_defends_yet():
    players, rules = defending(table(["Ann", "Ben", "Cat"], game=CHOOSING))
    assert players == set()
    assert "506.2a" in rules


def test_506_2a_attacks_declared_at_one_opponent_show_the_choice():
    facts = table(["Ann", "Ben", "Cat"], game=CHOOSING) + creature("Ann", "Bear")
    facts += attack("Bear", "Ben")
    players, rules = defending(facts)
    assert players == {"Ben"}
    assert "506.2a" in rules
    assert atoms(only_model("legal", facts + ask("legal")), "violation") == set()


def test_506_2a_before_the_choice_every_choice_is_considered():
    facts = table(["Ann", "Ben", "Cat"], game=CHOOSING) + creature("Ann", "Bear")
    facts += creature("Ann", "Ogre") + creature("Ben", "Wall", 0, 4)
    facts += permanent("Cat", "Jace", "planeswalker")
    # against Ben: Bear, Ogre each none or Ben (4); against Cat: none, Cat or Jace each (9);
    # the empty declaration is counted once
    assert len(models("attacks", facts + ask("attacks"))) == 4 + 9 - 1
    model = only_model("attack_targets", facts + ask('attack_targets("Bear")'))
    found = {a for a in atoms(model, "attack_target")}
    assert found == {
        'attack_target("Bear","Ben")',
        'attack_target("Bear","Cat")',
        'attack_target("Bear","Jace")',
    }
    assert "506.2a" in cites(model)


def test_506_2a_attacks_at_two_opponents_without_a_choice_are_illegal():
    facts = table(["Ann", "Ben", "Cat"], game=CHOOSING)
    facts += creature("Ann", "Bear") + creature("Ann", "Ogre") + attack("Bear", "Ben")
    facts += attack("Ogre", "Cat")
    assert defending(facts)[0] == set()
    found = atoms(only_model("legal", facts + ask("legal")), "violation")
    assert found == {
        'violation(rule("506.2a"),attacks_non_defending("Bear","Ben"))',
        'violation(rule("506.2a"),attacks_non_defending("Ogre","Cat"))',
    }


def test_506_2a_choosing_oneself_is_a_violation():
    facts = table(["Ann", "Ben", "Cat"], game="commander") + 'chooses_defending("Ann","Ann").\n'
    model = only_model("legal", facts + ask("legal"))
    assert 'violation(rule("506.2a"),defending_not_opponent("Ann","Ann"))' in model
    assert "defending_not_opponent" in messages()  # its text, kb/messages.lp


def test_506_2a_only_the_attacking_player_chooses():
    facts = table(["Ann", "Ben", "Cat"], game="commander") + 'chooses_defending("Ben","Cat").\n'
    model = only_model("legal", facts + ask("legal"))
    assert 'violation(rule("506.2a"),defending_chooser_not_attacking("Ben","Cat"))' in model


def test_506_2b_805_10a_two_headed_giant_the_nonactive_team_defends():
    # conformance c17
    facts = table(
        ["Ann", "Ben", "Cat", "Dan"],
        game="two_headed_giant",
        teams={"North": ["Ann", "Ben"], "South": ["Cat", "Dan"]},
    )
    players, rules = defending(facts)
    assert players == {"Cat", "Dan"}
    assert {"805.10a", "506.2b"} <= rules


def test_802_2_attack_multiple_players_every_opponent_defends():
    facts = table(["Ann", "Ben", "Cat", "Dan"], options=["attack_multiple_players"])
    players, rules = defending(facts)
    assert players == {"Ben", "Cat", "Dan"}
    assert "802.2" in rules


def test_802_2_808_3a_team_vs_team_opponents_defend_not_teammates():
    facts = table(
        ["Ann", "Ben", "Cat", "Dan"],
        game="team_vs_team",
        teams={"A": ["Ann", "Ben"], "B": ["Cat", "Dan"]},
    )
    players, rules = defending(facts)
    assert players == {"Cat", "Dan"}
    assert "802.2" in rules


def test_803_1a_attack_left_the_left_neighbour_defends():
    facts = table(["Ann", "Ben", "Cat", "Dan"], options=["attack_left"], active="Dan")
    players, rules = defending(facts)
    assert players == {"Ann"}
    assert "803.1a" in rules


def test_803_1b_attack_right_the_right_neighbour_defends():
    facts = table(["Ann", "Ben", "Cat", "Dan"], options=["attack_right"], active="Ann")
    players, rules = defending(facts)
    assert players == {"Dan"}
    assert "803.1b" in rules


def test_803_1a_teammate_to_the_left_means_nobody_defends():
    facts = table(
        ["Ann", "Ben", "Cat", "Dan"],
        game="team_vs_team",
        options=["attack_left"],
        teams={"A": ["Ann", "Ben"], "B": ["Cat", "Dan"]},
    )
    players, rules = defending(facts)
    assert players == set()
    assert "803.1a" in rules


def test_807_2a_807_2b_grand_melee_defaults_to_attack_left_and_range_1():
    facts = table(["A1", "A2", "A3", "A4", "A5"], game="grand_melee", active="A3")
    players, rules = defending(facts)
    assert players == {"A4"}
    assert "803.1a" in rules


def test_809_3c_emperor_general_defender_is_dictated():
    # conformance c25's table: G1's only adjacent opponent is G4
    facts = table(
        ["G1", "E1", "G2", "G3", "E2", "G4"],
        game="emperor",
        teams={"Red": ["G1", "E1", "G2"], "Blue": ["G3", "E2", "G4"]},
        extra=['emperor("E1"). emperor("E2").'],
    )
    players, rules = defending(facts)
    assert players == {"G4"}
    assert {"506.2a", "809.3c"} <= rules


def test_809_3c_example_an_emperor_can_attack_nobody_at_the_start():
    facts = table(
        ["G1", "E1", "G2", "G3", "E2", "G4"],
        game="emperor",
        active="E1",
        teams={"Red": ["G1", "E1", "G2"], "Blue": ["G3", "E2", "G4"]},
        extra=['emperor("E1"). emperor("E2").'],
    )
    players, _ = defending(facts)
    assert players == set()


def test_904_archenemy_shared_team_turns_the_archenemy_defends():
    facts = table(
        ["Arch", "Ben", "Cat"], game="archenemy", active="Ben", extra=['archenemy("Arch").']
    )
    players, rules = defending(facts)
    assert players == {"Arch"}
    assert "805.10a" in rules


def test_506_2_defending_query_gives_one_model():
    facts = table(["Ann", "Ben", "Cat"], options=["attack_multiple_players"])
    assert len(models("defending", facts + ask("defending"))) == 1
