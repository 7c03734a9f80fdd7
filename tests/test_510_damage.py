"""510.1a-d, 702.22h, 802.5: combat damage of the declared combat (dealt_damage/4)."""

from helpers import ask, atoms, attack, band, block, creature, only_model, permanent
from helpers import combat_table as table

SHOW = "#show dealt_damage/4. #show because/2.\n"


def damage(facts):
    """dealt_damage atoms and their because/2 citations, at a combat damage event (event 1)."""
    model = only_model(
        "damage_order", facts + "event(1,combat_damage).\n" + SHOW + ask("damage_order")
    )
    return atoms(model, "dealt_damage"), model


TWO = table(["Ann", "Ben"])


def test_510_1b_an_unblocked_attacker_damages_the_player_it_attacks():
    found, model = damage(TWO + creature("Ann", "Bear", 2, 2) + attack("Bear", "Ben"))
    assert found == {'dealt_damage(1,"Bear","Ben",2)'}
    assert 'because(dealt_damage(1,"Bear","Ben",2),rule("510.1b"))' in model


def test_510_1b_an_unblocked_attacker_damages_the_planeswalker_it_attacks():
    facts = TWO + creature("Ann", "Bear", 2, 2) + permanent("Ben", "Jace", "planeswalker")
    found, _ = damage(facts + attack("Bear", "Jace"))
    assert found == {'dealt_damage(1,"Bear","Jace",2)'}


def test_510_1a_power_zero_or_less_deals_no_damage():
    facts = TWO + creature("Ann", "Wall", 0, 4) + creature("Ann", "Weak", -1, 1)
    found, _ = damage(facts + attack("Wall", "Ben") + attack("Weak", "Ben"))
    assert found == set()


def test_509_1g_510_1c_510_1d_one_blocker_and_its_attacker_damage_each_other():
    facts = TWO + creature("Ann", "Ogre", 3, 3) + creature("Ben", "Bear", 2, 2)
    found, model = damage(facts + attack("Ogre", "Ben") + block("Bear", "Ogre"))
    assert found == {'dealt_damage(1,"Ogre","Bear",3)', 'dealt_damage(1,"Bear","Ogre",2)'}
    assert 'because(dealt_damage(1,"Ogre","Bear",3),rule("510.1c"))' in model
    assert 'because(dealt_damage(1,"Bear","Ogre",2),rule("510.1d"))' in model


def test_510_1c_several_blockers_share_the_damage_in_name_order():
    # the fixed default: each blocker in name order gets up to its toughness, the rest goes last
    facts = TWO + creature("Ann", "Giant", 5, 5)
    facts += creature("Ben", "A Wall", 0, 2) + creature("Ben", "B Wall", 0, 2)
    facts += creature("Ben", "C Wall", 0, 7)
    facts += attack("Giant", "Ben") + block("A Wall", "Giant") + block("B Wall", "Giant")
    facts += block("C Wall", "Giant")
    found, _ = damage(facts)
    assert found == {
        'dealt_damage(1,"Giant","A Wall",2)',
        'dealt_damage(1,"Giant","B Wall",2)',
        'dealt_damage(1,"Giant","C Wall",1)',
    }


def test_510_1c_blocked_attacker_deals_no_damage_to_the_player():
    facts = TWO + creature("Ann", "Ogre", 3, 3) + creature("Ben", "Wall", 0, 4)
    found, _ = damage(facts + attack("Ogre", "Ben") + block("Wall", "Ogre"))
    assert found == {'dealt_damage(1,"Ogre","Wall",3)'}


def test_702_22h_a_band_blocked_through_one_member_fights_that_blocker():
    facts = TWO + creature("Ann", "Hero", 1, 1, "banding") + creature("Ann", "Squire", 1, 2)
    facts += creature("Ben", "Ogre", 3, 3)
    facts += band(1, "Hero", "Squire") + attack("Hero", "Ben") + attack("Squire", "Ben")
    facts += block("Ogre", "Hero")
    found, model = damage(facts)
    assert found == {
        'dealt_damage(1,"Hero","Ogre",1)',
        'dealt_damage(1,"Squire","Ogre",1)',
        'dealt_damage(1,"Ogre","Hero",1)',
        'dealt_damage(1,"Ogre","Squire",2)',
    }
    assert 'because(dealt_damage(1,"Ogre","Squire",2),rule("702.22h"))' in model


def test_802_5_multiplayer_damage_to_several_players():
    facts = table(["Ann", "Ben", "Cat"], options=["attack_multiple_players"])
    facts += creature("Ann", "Bear", 2, 2) + creature("Ann", "Ogre", 3, 3)
    found, model = damage(facts + attack("Bear", "Ben") + attack("Ogre", "Cat"))
    assert found == {'dealt_damage(1,"Bear","Ben",2)', 'dealt_damage(1,"Ogre","Cat",3)'}
    assert 'because(dealt_damage(1,"Ogre","Cat",3),rule("802.5"))' in model


def test_510_1_each_combat_damage_event_deals_damage():
    facts = (
        TWO + creature("Ann", "Bear", 2, 2) + attack("Bear", "Ben") + "event(2,combat_damage).\n"
    )
    found, _ = damage(facts)
    assert found == {'dealt_damage(1,"Bear","Ben",2)', 'dealt_damage(2,"Bear","Ben",2)'}
