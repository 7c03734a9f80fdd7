"""509.1a-c, 509.1h, 702.9b, 702.14c-d, 702.17b, 702.22h, 702.28b, 702.111b,
802.2a, 802.4a-b, 805.10d: declaring blockers."""

import json

from helpers import ask, atoms, attack, band, block, cites, creature, models, only_model, permanent
from helpers import combat_table as table


def violations(facts):
    model = only_model("legal", facts + ask("legal"))
    return atoms(model, "violation"), cites(model)


def block_declarations(facts, who=None):
    question = "blocks" if who is None else f'blocks("{who}")'
    found = []
    for model in models("blocks", facts + ask(question)):
        decl = {}
        for a in atoms(model, "blocks"):
            b, c = json.loads("[" + a[len("blocks(") : -1] + "]")
            decl[b] = c
        found.append(decl)
    return found


TWO = table(["Ann", "Ben"])
THREE = table(["Rob", "Alex", "Carissa"], options=["attack_multiple_players"])

# conformance c06
C06 = (
    THREE
    + creature("Rob", "Runeclaw Bear")
    + creature("Rob", "Serra Angel", 4, 4, "flying")
    + creature("Rob", "Hill Giant", 3, 3)
    + creature("Alex", "Grizzly Bears")
    + creature("Alex", "Giant Spider", 2, 4, "reach")
    + creature("Carissa", "Elvish Archers", 2, 1)
    + attack("Runeclaw Bear", "Alex")
    + attack("Serra Angel", "Alex")
    + attack("Hill Giant", "Carissa")
)


def test_802_4a_c06_every_legal_block_of_one_defender():
    decls = block_declarations(C06, "Alex")
    expected = [
        {},
        {"Grizzly Bears": "Runeclaw Bear"},
        {"Giant Spider": "Runeclaw Bear"},
        {"Giant Spider": "Serra Angel"},
        {"Grizzly Bears": "Runeclaw Bear", "Giant Spider": "Runeclaw Bear"},
        {"Grizzly Bears": "Runeclaw Bear", "Giant Spider": "Serra Angel"},
    ]
    assert len(decls) == 6
    assert all(d in decls for d in expected)


def test_802_4b_blocks_of_all_defenders_multiply():
    assert len(block_declarations(C06)) == 6 * 2


def test_802_4a_c05_a_creature_blocks_only_creatures_attacking_its_controller():
    facts = table(["Rob", "Alex", "Carissa"], options=["attack_multiple_players"])
    facts += creature("Rob", "Runeclaw Bear") + creature("Rob", "Hill Giant", 3, 3)
    facts += creature("Alex", "Grizzly Bears")
    facts += attack("Runeclaw Bear", "Alex") + attack("Hill Giant", "Carissa")
    found, rules = violations(facts + block("Grizzly Bears", "Hill Giant"))
    assert found == {'violation(rule("802.4a"),blocks_unattacked("Grizzly Bears","Hill Giant"))'}
    assert "802.4a" in rules


def test_802_4a_a_creature_attacking_a_planeswalker_may_be_blocked_by_its_controller():
    facts = THREE + creature("Rob", "Bear") + permanent("Alex", "Jace", "planeswalker")
    facts += creature("Alex", "Wall", 0, 4) + attack("Bear", "Jace") + block("Wall", "Bear")
    assert violations(facts)[0] == set()


def test_802_4a_the_protector_of_a_battle_blocks_its_attackers():
    facts = (
        THREE + creature("Rob", "Bear") + permanent("Carissa", "Siege", "battle", protector="Alex")
    )
    facts += creature("Alex", "Wall", 0, 4) + creature("Carissa", "Guard", 1, 1)
    facts += attack("Bear", "Siege")
    assert violations(facts + block("Wall", "Bear"))[0] == set()
    found, _ = violations(facts + block("Guard", "Bear"))
    assert found == {'violation(rule("802.4a"),blocks_unattacked("Guard","Bear"))'}


def test_802_2a_c03_mountainwalk_looks_only_at_the_player_it_attacks():
    facts = THREE + creature("Rob", "Runeclaw Bear") + creature("Rob", "Goblin Mountaineer", 1, 1)
    facts += (
        'landwalk("Goblin Mountaineer",1). landwalk_requires("Goblin Mountaineer",1,"mountain").\n'
    )
    facts += creature("Carissa", "Grizzly Bears")
    facts += attack("Runeclaw Bear", "Alex") + attack("Goblin Mountaineer", "Carissa")
    facts += block("Grizzly Bears", "Goblin Mountaineer")
    alex_mountain = permanent("Alex", "Mountain", "land", types=["mountain"])
    assert violations(facts + alex_mountain)[0] == set()
    # conformance c04: Carissa controls the Mountain
    carissa_mountain = permanent("Carissa", "Mountain", "land", types=["mountain"])
    found, rules = violations(facts + carissa_mountain)
    assert found == {
        'violation(rule("702.14c"),landwalk_blocked("Grizzly Bears","Goblin Mountaineer"))'
    }
    assert {"702.14c", "802.2a"} <= rules


def test_702_14d_example_snow_forestwalk_doesnt_cancel_snow_forestwalk():
    walker = 'landwalk("{0}",1). landwalk_requires("{0}",1,"snow").\n'
    walker += 'landwalk_requires("{0}",1,"forest").\n'
    facts = TWO + creature("Ann", "Attacker") + creature("Ben", "Blocker")
    facts += walker.format("Attacker") + walker.format("Blocker")
    facts += attack("Attacker", "Ben") + block("Blocker", "Attacker")
    snow_forest = permanent("Ben", "Snow-Covered Forest", "land", types=["snow", "forest"])
    found, rules = violations(facts + snow_forest)
    assert found == {'violation(rule("702.14c"),landwalk_blocked("Blocker","Attacker"))'}
    assert "702.14d" in rules
    # a Forest that is not snow (and a snow land that is no Forest) doesn't satisfy it
    plain = permanent("Ben", "Forest", "land", types=["forest"])
    plain += permanent("Ben", "Snow-Covered Island", "land", types=["snow", "island"])
    assert violations(facts + plain)[0] == set()


def test_702_9b_a_flyer_is_blocked_only_by_flying_or_reach():
    facts = TWO + creature("Ann", "Angel", 4, 4, "flying") + creature("Ben", "Bears")
    facts += attack("Angel", "Ben")
    found, rules = violations(facts + block("Bears", "Angel"))
    assert found == {'violation(rule("702.9b"),blocks_flyer("Bears","Angel"))'}
    assert "509.1b" in rules


def test_702_17b_reach_blocks_a_flyer():
    facts = (
        TWO + creature("Ann", "Angel", 4, 4, "flying") + creature("Ben", "Spider", 2, 4, "reach")
    )
    facts += attack("Angel", "Ben")
    assert violations(facts + block("Spider", "Angel"))[0] == set()
    found = models("blocks", facts + ask('blocks("Ben")'))
    assert len(found) == 2
    assert all("702.17b" in cites(model) for model in found)


def test_509_1b_example_flying_and_shadow_are_cumulative():
    facts = TWO + creature("Ann", "Wraith", 2, 2, "flying", "shadow")
    facts += creature("Ben", "Bird", 1, 1, "flying") + creature(
        "Ben", "Shade", 1, 1, "flying", "shadow"
    )
    facts += attack("Wraith", "Ben")
    found, _ = violations(facts + block("Bird", "Wraith"))
    assert found == {'violation(rule("702.28b"),shadow_block("Bird","Wraith"))'}
    assert violations(facts + block("Shade", "Wraith"))[0] == set()
    decls = block_declarations(facts, "Ben")
    assert len(decls) == 2 and {"Shade": "Wraith"} in decls


def test_702_28b_a_shadow_creature_cant_block_one_without_shadow():
    facts = TWO + creature("Ann", "Bear") + creature("Ben", "Shade", 1, 1, "shadow")
    found, _ = violations(facts + attack("Bear", "Ben") + block("Shade", "Bear"))
    assert found == {'violation(rule("702.28b"),shadow_block("Shade","Bear"))'}


# 509.1c example: a "blocks if able" creature, another creature, a menace attacker
MENACE = (
    TWO
    + creature("Ann", "Brute", 3, 3, "menace")
    + creature("Ben", "Eager", 1, 1, "blocks_if_able")
    + creature("Ben", "Plain", 1, 1)
    + attack("Brute", "Ben")
)


def test_509_1c_example_must_block_with_both():
    assert block_declarations(MENACE, "Ben") == [{"Eager": "Brute", "Plain": "Brute"}]
    both = block("Eager", "Brute") + block("Plain", "Brute")
    assert violations(MENACE + both)[0] == set()


def test_509_1c_example_blocking_with_neither_breaks_the_requirement():
    found, rules = violations(MENACE + "phase(declare_blockers).\n")
    assert found == {'violation(rule("509.1c"),block_requirement_unmet("Eager"))'}


def test_509_1c_702_111b_example_only_the_first_breaks_menace():
    found, _ = violations(MENACE + block("Eager", "Brute"))
    assert found == {'violation(rule("702.111b"),menace_single_blocker("Brute","Eager"))'}


def test_509_1c_702_111b_example_only_the_second_breaks_menace_and_requirement():
    found, _ = violations(MENACE + block("Plain", "Brute"))
    assert found == {
        'violation(rule("702.111b"),menace_single_blocker("Brute","Plain"))',
        'violation(rule("509.1c"),block_requirement_unmet("Eager"))',
    }


def test_509_1a_tapped_creatures_and_the_attackers_creatures_dont_block():
    facts = TWO + creature("Ann", "Bear") + creature("Ann", "Other")
    facts += creature("Ben", "Sleepy", 1, 1, "tapped") + attack("Bear", "Ben")
    found, _ = violations(facts + block("Sleepy", "Bear") + block("Other", "Bear"))
    assert found == {
        'violation(rule("509.1a"),blocker_tapped("Sleepy"))',
        'violation(rule("509.1a"),blocker_not_defending("Other"))',
    }


def test_509_1a_a_blocker_blocks_one_attacker():
    facts = TWO + creature("Ann", "A") + creature("Ann", "B") + creature("Ben", "Wall", 0, 4)
    facts += attack("A", "Ben") + attack("B", "Ben") + block("Wall", "A") + block("Wall", "B")
    found, _ = violations(facts)
    assert found == {'violation(rule("509.1a"),blocks_several("Wall","A","B"))'}


def test_509_1b_cant_block_and_cant_block_alone():
    facts = TWO + creature("Ann", "Bear") + creature("Ben", "Coward", 1, 1, "cant_block")
    found, _ = violations(facts + attack("Bear", "Ben") + block("Coward", "Bear"))
    assert found == {'violation(rule("509.1b"),cant_block("Coward"))'}
    facts = TWO + creature("Ann", "Bear") + creature("Ben", "Shy", 1, 1, "cant_block_alone")
    facts += creature("Ben", "Friend") + attack("Bear", "Ben")
    found, _ = violations(facts + block("Shy", "Bear"))
    assert found == {'violation(rule("509.1b"),blocks_alone("Shy"))'}
    assert violations(facts + block("Shy", "Bear") + block("Friend", "Bear"))[0] == set()
    assert len(block_declarations(facts, "Ben")) == 3


def test_802_4b_another_defenders_blockers_dont_count_for_cant_block_alone():
    facts = THREE + creature("Rob", "Bear") + creature("Rob", "Ogre", 3, 3)
    facts += creature("Alex", "Shy", 1, 1, "cant_block_alone") + creature("Carissa", "Guard")
    facts += attack("Bear", "Alex") + attack("Ogre", "Carissa")
    found, rules = violations(facts + block("Shy", "Bear") + block("Guard", "Ogre"))
    assert found == {'violation(rule("509.1b"),blocks_alone("Shy"))'}
    assert "802.4b" in rules


def test_805_10d_c17_a_defending_player_blocks_for_a_teammate():
    facts = table(
        ["Ann", "Ben", "Cat", "Dan"],
        game="two_headed_giant",
        teams={"North": ["Ann", "Ben"], "South": ["Cat", "Dan"]},
    )
    facts += creature("Ann", "Hill Giant", 3, 3) + creature("Dan", "Grizzly Bears")
    facts += attack("Hill Giant", "Cat") + block("Grizzly Bears", "Hill Giant")
    assert violations(facts)[0] == set()
    # a teammate's creature attacks too (805.10a), and the team blocks as one (cant block alone)
    facts += creature("Ben", "Ogre", 3, 3) + attack("Ogre", "Dan")
    facts += creature("Cat", "Shy", 1, 1, "cant_block_alone") + block("Shy", "Ogre")
    assert violations(facts)[0] == set()


def test_702_22h_example_a_blocked_band_member_blocks_the_band():
    facts = TWO + creature("Ann", "Bird", 1, 1, "flying", "banding")
    facts += creature("Ann", "Swampwalker", 2, 2)
    facts += 'landwalk("Swampwalker",1). landwalk_requires("Swampwalker",1,"swamp").\n'
    facts += permanent("Ben", "Swamp", "land", types=["swamp"])
    facts += creature("Ben", "Spider", 2, 4, "reach")
    facts += band(1, "Bird", "Swampwalker") + attack("Bird", "Ben") + attack("Swampwalker", "Ben")
    facts += block("Spider", "Bird") + "#show blocked/1. #show because/2.\n"
    model = only_model("legal", facts + ask("legal"))
    assert atoms(model, "violation") == set()
    assert {'blocked("Bird")', 'blocked("Swampwalker")'} <= model
    assert 'because(blocked("Swampwalker"),rule("702.22h"))' in model
    # the swampwalker itself can't be blocked
    found, _ = violations(facts.replace(block("Spider", "Bird"), block("Spider", "Swampwalker")))
    assert 'violation(rule("702.14c"),landwalk_blocked("Spider","Swampwalker"))' in found


def test_508_1k_509_1h_an_attacker_with_no_blocker_is_unblocked():
    facts = TWO + creature("Ann", "Bear") + attack("Bear", "Ben") + "#show unblocked/1.\n"
    assert 'unblocked("Bear")' in only_model("legal", facts + ask("legal"))


def test_509_1a_no_block_is_a_legal_declaration():
    facts = TWO + creature("Ann", "Bear") + creature("Ben", "Wall", 0, 4) + attack("Bear", "Ben")
    assert (
        block_declarations(facts, "Ben") == [{}, {"Wall": "Bear"}]
        or len(block_declarations(facts, "Ben")) == 2
    )
    assert {} in block_declarations(facts, "Ben")
