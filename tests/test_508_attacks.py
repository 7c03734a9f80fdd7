"""508.1a-d, 702.3b, 702.22c-d, 802.3, 802.3a-b: declaring attackers."""

import json

from helpers import ask, atoms, attack, band, cites, creature, models, only_model, permanent, s
from helpers import combat_table as table

from mtgkb.rulebase.words import messages


def violations(facts):
    model = only_model("legal", facts + ask("legal"))
    return atoms(model, "violation"), cites(model), model


def declarations(facts):
    """Each legal attack declaration as a dict creature -> target."""
    found = []
    for model in models("attacks", facts + ask("attacks")):
        decl = {}
        for a in atoms(model, "attacks"):
            c, x = json.loads("[" + a[len("attacks(") : -1] + "]")
            decl[c] = x
        found.append(decl)
    return found


def targets(facts, creature_name):
    model = only_model("attack_targets", facts + ask(f"attack_targets({s(creature_name)})"))
    out = set()
    for a in atoms(model, "attack_target"):
        c, x = json.loads("[" + a[len("attack_target(") : -1] + "]")
        assert c == creature_name
        out.add(x)
    return out, cites(model)


TWO = table(["Ann", "Ben"])


# --- 508.1a ------------------------------------------------------------------


def test_508_1a_tapped_creature_cant_attack():
    facts = TWO + creature("Ann", "Bear", 2, 2, "tapped") + attack("Bear", "Ben")
    found, rules, _ = violations(facts)
    assert found == {'violation(rule("508.1a"),attacker_tapped("Bear"))'}
    assert "508.1a" in rules
    assert targets(TWO + creature("Ann", "Bear", 2, 2, "tapped"), "Bear")[0] == set()


def test_508_1a_summoning_sick_creature_needs_haste():
    facts = TWO + creature("Ann", "Bear", 2, 2, "summoning_sick") + attack("Bear", "Ben")
    found, _, _ = violations(facts)
    assert found == {'violation(rule("508.1a"),attacker_summoning_sick("Bear"))'}
    hasty = TWO + creature("Ann", "Bear", 2, 2, "summoning_sick", "haste") + attack("Bear", "Ben")
    assert violations(hasty)[0] == set()


def test_508_1a_only_the_attacking_players_creatures_attack():
    facts = TWO + creature("Ben", "Ogre", 3, 3) + attack("Ogre", "Ann")
    found, _, _ = violations(facts)
    assert 'violation(rule("508.1a"),attacker_not_attacking_players("Ogre"))' in found


# --- 508.1b, 802.3 -----------------------------------------------------------


def test_508_1b_planeswalkers_and_battles_of_the_defending_player_are_targets():
    facts = (
        TWO
        + creature("Ann", "Bear")
        + permanent("Ben", "Jace", "planeswalker")
        + permanent("Ann", "Invasion", "battle", protector="Ben")
        + permanent("Ann", "Own Walker", "planeswalker")
    )
    found, rules = targets(facts, "Bear")
    assert found == {"Ben", "Jace", "Invasion"}
    assert "506.2" in rules


def test_508_1b_attacking_a_creature_is_illegal():
    facts = TWO + creature("Ann", "Bear") + creature("Ben", "Wall", 0, 4) + attack("Bear", "Wall")
    found, _, _ = violations(facts)
    assert 'violation(rule("508.1b"),attack_target_invalid("Bear","Wall"))' in found


def test_802_3_attacking_a_teammate_is_illegal():
    facts = table(
        ["Ann", "Ben", "Cat", "Dan"],
        game="team_vs_team",
        teams={"A": ["Ann", "Ben"], "B": ["Cat", "Dan"]},
    )
    facts += creature("Ann", "Bear") + attack("Bear", "Ben")
    found, _, _ = violations(facts)
    assert 'violation(rule("802.2"),attacks_non_defending("Bear","Ben"))' in found


def test_508_1b_a_creature_attacks_one_thing():
    facts = (
        TWO
        + creature("Ann", "Bear")
        + permanent("Ben", "Jace", "planeswalker")
        + attack("Bear", "Ben")
        + attack("Bear", "Jace")
    )
    found, _, _ = violations(facts)
    assert found == {'violation(rule("508.1b"),attacks_twice("Bear","Ben","Jace"))'}


# --- 508.1c, 702.3b, 802.3a --------------------------------------------------


def test_702_3b_defender_cant_attack():
    facts = TWO + creature("Ann", "Wall", 0, 4, "defender")
    assert targets(facts, "Wall") == (set(), {"702.3b"})
    found, rules, _ = violations(facts + attack("Wall", "Ben"))
    assert found == {'violation(rule("702.3b"),defender_attacks("Wall"))'}


def test_508_1c_cant_attack_restriction():
    facts = TWO + creature("Ann", "Bear", 2, 2, "cant_attack") + attack("Bear", "Ben")
    found, rules, _ = violations(facts)
    assert found == {'violation(rule("508.1c"),cant_attack("Bear"))'}


def test_508_1c_example_two_creatures_that_cant_attack_alone_may_attack_together():
    facts = TWO + creature("Ann", "A", 1, 1, "cant_attack_alone")
    facts += creature("Ann", "B", 1, 1, "cant_attack_alone")
    assert violations(facts + attack("A", "Ben") + attack("B", "Ben"))[0] == set()
    found, rules, _ = violations(facts + attack("A", "Ben"))
    assert found == {'violation(rule("508.1c"),attacks_alone("A"))'}
    decls = declarations(facts)
    assert len(decls) == 2
    assert {} in decls and {"A": "Ben", "B": "Ben"} in decls


def test_802_3a_cant_attack_alone_counts_attackers_of_every_player():
    facts = table(["Rob", "Alex", "Carissa"], options=["attack_multiple_players"])
    facts += creature("Rob", "Loner", 1, 1, "cant_attack_alone") + creature("Rob", "Bear")
    found, rules, _ = violations(facts + attack("Loner", "Alex") + attack("Bear", "Carissa"))
    assert found == set()
    found, rules, _ = violations(facts + attack("Loner", "Alex"))
    assert found == {'violation(rule("508.1c"),attacks_alone("Loner"))'}
    assert "802.3a" in rules


def test_802_3a_cant_attack_a_player_applies_only_to_attacking_that_player():
    # conformance c28: 2 choices for Rogue (none, Cat) x 3 for Bear = 6
    facts = table(["Ann", "Ben", "Cat"], options=["attack_multiple_players"])
    facts += 'max_attackers(2).\ncant_attack_player("Rogue","Ben").\n'
    facts += creature("Ann", "Rogue", 2, 1) + creature("Ann", "Bear", 2, 2)
    facts += creature("Ben", "Wall", 0, 4, "cant_block")
    facts += creature("Cat", "Guard", 1, 1, "blocks_if_able", "cant_block_alone")
    decls = declarations(facts)
    assert len(decls) == 6
    assert all(d.get("Rogue") != "Ben" for d in decls)
    found, rules, _ = violations(facts + attack("Rogue", "Ben"))
    assert found == {'violation(rule("508.1c"),cant_attack_player("Rogue","Ben"))'}
    assert {"508.1c", "802.3a"} <= rules
    assert targets(facts, "Rogue")[0] == {"Cat"}


def test_508_1c_no_more_than_n_creatures_can_attack():
    facts = TWO + "max_attackers(1).\n" + creature("Ann", "A") + creature("Ann", "B")
    found, _, _ = violations(facts + attack("A", "Ben") + attack("B", "Ben"))
    assert found == {'violation(rule("508.1c"),too_many_attackers(2,1))'}
    assert "too_many_attackers" in messages()  # its text, kb/messages.lp
    assert len(declarations(facts)) == 3


# --- 508.1d ------------------------------------------------------------------

EXAMPLE_508_1D = (
    TWO + "max_attackers(1).\n" + creature("Ann", "Eager", 2, 2, "attacks_if_able")
) + creature("Ann", "Plain", 2, 2)


def test_508_1d_example_only_the_attacks_if_able_creature_attacks():
    assert declarations(EXAMPLE_508_1D) == [{"Eager": "Ben"}]


def test_508_1d_example_attacking_with_neither_is_illegal():
    found, _, _ = violations(EXAMPLE_508_1D + "phase(declare_attackers).\n")
    assert found == {'violation(rule("508.1d"),attack_requirement_unmet("Eager"))'}
    assert "attack_requirement_unmet" in messages()  # its text, kb/messages.lp


def test_508_1d_example_attacking_with_the_other_creature_is_illegal():
    found, _, _ = violations(EXAMPLE_508_1D + attack("Plain", "Ben"))
    assert found == {'violation(rule("508.1d"),attack_requirement_unmet("Eager"))'}


def test_508_1d_example_attacking_with_both_is_illegal():
    found, _, _ = violations(EXAMPLE_508_1D + attack("Plain", "Ben") + attack("Eager", "Ben"))
    assert found == {'violation(rule("508.1c"),too_many_attackers(2,1))'}


def test_508_1d_example_the_attacks_if_able_creature_alone_is_legal():
    assert violations(EXAMPLE_508_1D + attack("Eager", "Ben"))[0] == set()


def test_508_1d_a_requirement_that_cant_be_obeyed_is_no_violation():
    facts = TWO + creature("Ann", "Eager", 2, 2, "attacks_if_able", "tapped")
    facts += creature("Ann", "Bear") + attack("Bear", "Ben")
    assert violations(facts)[0] == set()


def test_508_1d_requirements_not_judged_before_any_attack_is_declared():
    facts = TWO + creature("Ann", "Eager", 2, 2, "attacks_if_able")
    assert violations(facts)[0] == set()


# --- 702.22c, 702.22d, 802.3b ------------------------------------------------

FIVE = table(["Ann", "Ben", "Cat"], options=["attack_multiple_players"])


def test_702_22c_a_band_of_a_banding_creature_and_one_other_is_legal():
    facts = FIVE + creature("Ann", "Hero", 1, 1, "banding") + creature("Ann", "Squire", 1, 2)
    facts += band(1, "Hero", "Squire") + attack("Hero", "Ben") + attack("Squire", "Ben")
    assert violations(facts)[0] == set()


def test_702_22c_a_band_holds_at_most_one_creature_without_banding():
    facts = (
        FIVE
        + creature("Ann", "Hero", 1, 1, "banding")
        + creature("Ann", "A")
        + creature("Ann", "B")
    )
    facts += band(1, "Hero", "A", "B") + attack("Hero", "Ben") + attack("A", "Ben")
    facts += attack("B", "Ben")
    found, rules, _ = violations(facts)
    assert found == {'violation(rule("702.22c"),band_nonbanding_pair("A","B"))'}


def test_702_22c_band_members_attack_and_need_banding():
    facts = FIVE + creature("Ann", "A") + creature("Ann", "B")
    facts += band(1, "A") + band(2, "B") + attack("A", "Ben")
    found, _, _ = violations(facts)
    assert found == {
        'violation(rule("702.22c"),band_needs_banding("A"))',
        'violation(rule("702.22c"),band_needs_banding("B"))',
        'violation(rule("702.22c"),band_member_not_attacking("B"))',
    }


def test_702_22d_802_3b_a_band_attacks_one_player():
    facts = FIVE + creature("Ann", "Hero", 1, 1, "banding") + creature("Ann", "Squire", 1, 2)
    facts += band(1, "Hero", "Squire") + attack("Hero", "Ben") + attack("Squire", "Cat")
    found, rules, _ = violations(facts)
    assert found == {'violation(rule("702.22d"),band_split("Hero","Squire"))'}
    assert "802.3b" in rules


# --- names are data (conformance c19) ----------------------------------------


def test_508_1_names_are_data():
    odd = "x). :- not y. #show z/0. %"
    brave = 'Bear "the Brave"'
    facts = TWO + creature("Ann", odd, 1, 1) + creature("Ann", brave, 2, 2)
    assert violations(facts + attack(odd, "Ben"))[0] == set()
    decls = declarations(facts + attack(odd, "Ben"))
    assert len(decls) == 4
    assert {odd: "Ben", brave: "Ben"} in decls
