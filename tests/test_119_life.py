"""119, 118.3, 120.3, 702.15, 701.12, 104.3b, 704.5a: life totals event by event,
payments, losses and life-gain triggers (hand-written facts in the schema)."""

from helpers import VIOLATIONS, cites, events, life, models, only_model, outcome, players  # noqa: F401
from helpers import life_creature as creature

ANN_BEN = players("Ann", "Ben")


# 103.4 / 119.1 ---------------------------------------------------------------


def test_103_4_119_1_each_player_starts_with_20_life():
    model = outcome(ANN_BEN)
    assert life(model) == {'life("Ann",20)', 'life("Ben",20)'}
    assert {"103.4", "119.1"} <= cites(model)


# 119.2, 120.3, 120.3a -------------------------------------------------------------


def test_119_2_120_3a_damage_to_a_player_is_life_loss():
    model = outcome(ANN_BEN + events('damage("Shock","Ann",2)'))
    assert life(model) == {'life("Ann",18)', 'life("Ben",20)'}
    assert {"119.2", "120.3a", "120.3"} <= cites(model)


def test_120_3_damage_to_a_creature_changes_no_life_total():
    facts = ANN_BEN + creature("Ben", "Bear") + events('damage("Shock","Bear",2)')
    assert life(outcome(facts)) == {'life("Ann",20)', 'life("Ben",20)'}


def test_120_3a_damage_from_the_combat_rules_dealt_damage_is_life_loss_too():
    # another file derives dealt_damage/4 for combat; the life rules read it generically
    facts = ANN_BEN + events("combat_damage") + 'dealt_damage(1,"Ogre","Ben",3).\n'
    assert life(outcome(facts)) == {'life("Ann",20)', 'life("Ben",17)'}


# 119.3 -----------------------------------------------------------------------------------


def test_119_3_gain_and_lose_life_adjust_the_total():
    model = outcome(
        ANN_BEN + events('gain_life("Ann",3)', 'lose_life("Ann",5)', 'lose_life("Ben",1)')
    )
    assert life(model) == {'life("Ann",18)', 'life("Ben",19)'}
    assert "119.3" in cites(model)


# 119.4, 119.4b, 118.3, 118.3b -----------------------------------------------------------------


def test_119_4_118_3b_paying_life_subtracts_it():
    model = outcome(ANN_BEN + 'life_given("Ann",4).\n' + events('pay_life("Ann",4)'))
    assert 'life("Ann",0)' in model
    assert {"119.4", "118.3b"} <= cites(model)


def test_119_4_118_3_an_unaffordable_payment_is_a_violation_and_does_not_happen():
    facts = ANN_BEN + 'life_given("Ann",4).\n' + events('pay_life("Ann",5)') + VIOLATIONS
    model = outcome(facts)
    assert 'life("Ann",4)' in model
    # the violation names the payment's event (the first and only one)
    assert 'violation(rule("119.4"),cannot_pay("Ann",5,event(1)))' in model
    assert 'because(violation(rule("119.4"),cannot_pay("Ann",5,event(1))),rule("118.3"))' in model
    assert "119.4" in cites(model)


def test_119_4_the_check_uses_the_life_total_at_the_time_of_payment():
    facts = (
        ANN_BEN
        + events('lose_life("Ann",15)', 'pay_life("Ann",6)', 'pay_life("Ann",5)')
        + VIOLATIONS
    )
    model = outcome(facts)
    # Ann has 5 life at event 2: the payment of 6 fails, the one of 5 at event 3 is made
    assert 'violation(rule("119.4"),cannot_pay("Ann",6,event(2)))' in model
    assert not any('cannot_pay("Ann",5' in a for a in model)
    assert 'life("Ann",0)' in model


def pay_answer(facts, player, amount):
    model = only_model("pay", facts + f'asked(pay("{player}",{amount})).\n')
    return f'can_pay("{player}",{amount})' in model, cites(model)


def test_119_4_conformance_c09_can_pay_up_to_the_life_total():
    facts = ANN_BEN + 'life_given("Ann",4).\n'
    can, rules = pay_answer(facts, "Ann", 5)
    assert not can and "119.4" in rules and "118.3" in rules
    can, rules = pay_answer(facts, "Ann", 4)
    assert can and "119.4" in rules
    can, rules = pay_answer(facts, "Ann", 0)
    assert can and "119.4b" in rules


def test_119_4b_118_3b_zero_life_can_always_be_paid():
    facts = (
        ANN_BEN + 'life_given("Ann",-3).\n' + events('cant_lose_life("Ann")', 'pay_life("Ann",0)')
    )
    model = outcome(facts + VIOLATIONS)
    assert not any(a.startswith("violation(") for a in model)
    assert 'life("Ann",-3)' in model
    can, rules = pay_answer(facts, "Ann", 0)
    assert can and {"119.4b", "118.3b"} <= rules


# 119.5 -----------------------------------------------------------------------------------


def test_119_5_setting_life_is_a_gain_or_loss_of_the_difference():
    pridemate = creature("Ben", "Ajani's Pridemate", "life_gain_trigger")
    model = outcome(ANN_BEN + pridemate + events('set_life("Ann",12)', 'set_life("Ben",25)'))
    assert life(model) == {'life("Ann",12)', 'life("Ben",25)'}
    assert 'triggered("Ajani\'s Pridemate",1)' in model
    assert "119.5" in cites(model)


def test_119_5_setting_life_to_the_current_total_is_no_gain():
    pridemate = creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    model = outcome(ANN_BEN + pridemate + events('set_life("Ann",20)'))
    assert 'life("Ann",20)' in model and 'triggered("Ajani\'s Pridemate",0)' in model


# 119.6, 104.3b, 704.5a ---------------------------------------------------------------


def test_119_6_704_5a_a_player_at_0_life_loses():
    # conformance c18's outcome with the combat damage as a dealt_damage fact
    facts = (
        ANN_BEN
        + 'life_given("Ben",3).\n'
        + events("combat_damage")
        + 'dealt_damage(1,"Hill Giant","Ben",3).\n'
    )
    model = outcome(facts)
    assert life(model) == {'life("Ann",20)', 'life("Ben",0)'}
    assert {a for a in model if a.startswith("lost(")} == {'lost("Ben")'}
    assert {"704.5a", "104.3b", "119.6"} <= cites(model)


def test_704_5a_losses_are_checked_once_after_the_last_event():
    model = outcome(ANN_BEN + events('lose_life("Ben",25)', 'gain_life("Ben",10)'))
    assert 'life("Ben",5)' in model and 'lost("Ben")' not in model


def test_104_3b_a_player_who_cant_lose_the_game_stays_in_at_0_life():
    model = outcome(ANN_BEN + events('cant_lose_game("Ben")', 'lose_life("Ben",25)'))
    assert 'life("Ben",-5)' in model and 'lost("Ben")' not in model
    assert "104.3b" in cites(model)


# 119.7, 119.8 ----------------------------------------------------------------------------


def test_119_7_a_player_who_cant_gain_life_gains_nothing_from_then_on():
    pridemate = creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    facts = (
        ANN_BEN
        + pridemate
        + events('gain_life("Ann",2)', 'cant_gain_life("Ann")', 'gain_life("Ann",5)')
    )
    model = outcome(facts)
    assert 'life("Ann",22)' in model
    assert 'triggered("Ajani\'s Pridemate",1)' in model
    assert "119.7" in cites(model)


def test_119_8_a_player_who_cant_lose_life_takes_no_loss_from_damage_or_effects():
    facts = ANN_BEN + events(
        'cant_lose_life("Ann")', 'damage("Shock","Ann",2)', 'lose_life("Ann",3)'
    )
    model = outcome(facts)
    assert 'life("Ann",20)' in model
    assert "119.8" in cites(model)


def test_119_8_a_player_who_cant_lose_life_cant_pay_life():
    facts = ANN_BEN + events('cant_lose_life("Ann")', 'pay_life("Ann",2)')
    model = outcome(facts + VIOLATIONS)
    assert 'life("Ann",20)' in model
    assert 'violation(rule("119.8"),cant_pay_life("Ann",2,event(2)))' in model
    can, rules = pay_answer(facts, "Ann", 2)
    assert not can and "119.8" in rules


def test_119_7_119_8_the_effect_does_not_reach_back_before_its_event():
    facts = ANN_BEN + events(
        'gain_life("Ann",4)', 'lose_life("Ben",4)', 'cant_gain_life("Ann")', 'cant_lose_life("Ben")'
    )
    assert life(outcome(facts)) == {'life("Ann",24)', 'life("Ben",16)'}


# 119.9, 119.10 ---------------------------------------------------------------------------------


def test_119_9_each_life_gain_event_of_the_controller_triggers_once():
    pridemate = creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    facts = (
        ANN_BEN
        + pridemate
        + events('gain_life("Ann",1)', 'gain_life("Ann",1)', 'gain_life("Ben",3)')
    )
    model = outcome(facts)
    assert 'triggered("Ajani\'s Pridemate",2)' in model
    assert "119.9" in cites(model)


def test_119_9_119_10_gaining_0_life_is_no_life_gain_event():
    pridemate = creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    facts = ANN_BEN + pridemate + events('gain_life("Ann",0)') + "#show because/2.\n"
    model = outcome(facts)
    assert 'triggered("Ajani\'s Pridemate",0)' in model
    assert 'because(zero_life_gain(1,"Ann"),rule("119.10"))' in model


# 702.15b, 702.15e, 120.3f ---------------------------------------------------------------------


def test_702_15b_120_3f_lifelink_damage_gains_its_controller_that_much():
    facts = ANN_BEN + creature("Ann", "Vampire Nighthawk", "lifelink")
    model = outcome(facts + events('damage("Vampire Nighthawk","Ben",2)'))
    assert life(model) == {'life("Ann",22)', 'life("Ben",18)'}
    assert {"702.15b", "120.3f"} <= cites(model)


def test_702_15b_lifelink_damage_to_a_creature_also_gains_life():
    facts = ANN_BEN + creature("Ann", "Vampire Nighthawk", "lifelink") + creature("Ben", "Bear")
    model = outcome(facts + events('damage("Vampire Nighthawk","Bear",2)'))
    assert life(model) == {'life("Ann",22)', 'life("Ben",20)'}


def test_702_15e_two_lifelink_sources_at_once_are_two_life_gain_events():
    # CR 702.15e example (conformance c07), the combat damage as dealt_damage facts
    facts = ANN_BEN + creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    facts += creature("Ann", "Vampire Nighthawk", "lifelink") + creature(
        "Ann", "Child of Night", "lifelink"
    )
    facts += events("combat_damage")
    facts += (
        'dealt_damage(1,"Vampire Nighthawk","Ben",2). dealt_damage(1,"Child of Night","Ben",2).\n'
    )
    model = outcome(facts)
    assert life(model) == {'life("Ann",24)', 'life("Ben",16)'}
    assert 'triggered("Ajani\'s Pridemate",2)' in model
    assert "702.15e" in cites(model)


def test_702_15e_one_lifelink_source_damaging_several_recipients_is_one_event():
    facts = ANN_BEN + creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    facts += (
        creature("Ann", "Vampire Nighthawk", "lifelink")
        + creature("Ben", "Bear")
        + events("combat_damage")
    )
    facts += 'dealt_damage(1,"Vampire Nighthawk","Ben",2).\n'
    facts += 'dealt_damage(1,"Vampire Nighthawk","Bear",1).\n'
    model = outcome(facts)
    assert 'life("Ann",23)' in model
    assert 'triggered("Ajani\'s Pridemate",1)' in model


def test_702_15e_lifelink_sources_in_separate_damage_events_trigger_separately():
    facts = ANN_BEN + creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    facts += creature("Ann", "Vampire Nighthawk", "lifelink")
    facts += events('damage("Vampire Nighthawk","Ben",2)', 'damage("Vampire Nighthawk","Ben",2)')
    assert 'triggered("Ajani\'s Pridemate",2)' in outcome(facts)


def test_119_7_lifelink_gains_nothing_for_a_player_who_cant_gain_life():
    facts = ANN_BEN + creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    facts += creature("Ann", "Vampire Nighthawk", "lifelink")
    facts += events('cant_gain_life("Ann")', 'damage("Vampire Nighthawk","Ben",2)')
    model = outcome(facts)
    assert life(model) == {'life("Ann",20)', 'life("Ben",18)'}
    assert 'triggered("Ajani\'s Pridemate",0)' in model


# 701.12a, 701.12c ---------------------------------------------------------------------------------


def test_701_12c_exchanging_life_totals_gains_and_loses_the_difference():
    facts = ANN_BEN + creature("Ann", "Ajani's Pridemate", "life_gain_trigger")
    model = outcome(facts + 'life_given("Ann",7).\n' + events('exchange_life("Ann","Ben")'))
    assert life(model) == {'life("Ann",20)', 'life("Ben",7)'}
    assert 'triggered("Ajani\'s Pridemate",1)' in model
    assert "701.12c" in cites(model)


def test_701_12a_119_7_no_exchange_that_would_raise_a_player_who_cant_gain_life():
    facts = (
        ANN_BEN
        + 'life_given("Ann",7).\n'
        + events('cant_gain_life("Ann")', 'exchange_life("Ann","Ben")')
    )
    model = outcome(facts)
    assert life(model) == {'life("Ann",7)', 'life("Ben",20)'}
    assert {"701.12a", "119.7"} <= cites(model)


def test_701_12a_119_8_no_exchange_that_would_lower_a_player_who_cant_lose_life():
    facts = (
        ANN_BEN
        + 'life_given("Ann",7).\n'
        + events('cant_lose_life("Ben")', 'exchange_life("Ann","Ben")')
    )
    model = outcome(facts)
    assert life(model) == {'life("Ann",7)', 'life("Ben",20)'}
    assert {"701.12a", "119.8"} <= cites(model)


def test_701_12c_exchange_is_allowed_when_the_blocked_direction_is_not_needed():
    # Ann can't gain life but her total goes down: the exchange happens
    facts = (
        ANN_BEN
        + 'life_given("Ben",7).\n'
        + events('cant_gain_life("Ann")', 'exchange_life("Ann","Ben")')
    )
    assert life(outcome(facts)) == {'life("Ann",7)', 'life("Ben",20)'}


# Conformance c23 ---------------------------------------------------------------------------------


def test_119_conformance_c23_life_events():
    facts = players("Ann", "Ben", "Cat", game="free_for_all") + 'life_given("Ann",10).\n'
    facts += events(
        'damage("Shock","Ann",2)',
        'gain_life("Ann",3)',
        'pay_life("Ann",4)',
        'set_life("Ben",12)',
        'lose_life("Cat",5)',
        'exchange_life("Ann","Cat")',
        'cant_gain_life("Ben")',
        'gain_life("Ben",5)',
        'cant_lose_life("Cat")',
        'damage("Shock","Cat",2)',
        'cant_lose_game("Ann")',
    )
    facts += 'event_source(2,"Soul Warden").\n'
    model = outcome(facts + VIOLATIONS)
    assert life(model) == {'life("Ann",15)', 'life("Ben",12)', 'life("Cat",7)'}
    assert not any(a.startswith(("lost(", "violation(")) for a in model)
    assert {"119.4", "119.5", "701.12c", "119.7", "119.8"} <= cites(model)


def test_119_3_one_model_and_one_life_per_player_over_many_events():
    facts = players("Ann", "Ben", "Cat")
    terms = []
    for i in range(60):
        who = ("Ann", "Ben", "Cat")[i % 3]
        terms += [
            f'pay_life("{who}",1)',
            f'set_life("{who}",{10 + i % 7})',
            f'exchange_life("{who}","Ann")',
        ]
    found = models("outcome", facts + events(*terms) + "asked(outcome).\n")
    assert len(found) == 1
    assert len(life(found[0])) == 3
