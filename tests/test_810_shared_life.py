"""810.4, 810.8, 810.9, 810.11, 119.4a: the shared life total of Two-Headed Giant."""

from helpers import VIOLATIONS, cites, events, life, only_model
from helpers import life_creature as creature

PRIDEMATE = "Ajani's Pridemate"


def giants(*teams, given=None):
    """A Two-Headed Giant game; teams as (name, [members]) seated in order."""
    facts = "game(two_headed_giant). option(shared_team_turns).\n"
    seat = 0
    for name, members in teams:
        for member in members:
            seat += 1
            facts += f'player("{member}"). seat("{member}",{seat}). team("{name}","{member}").\n'
    facts += f'active("{teams[0][1][0]}").\n'
    for team, n in (given or {}).items():
        facts += f'life_given("{team}",{n}).\n'
    return facts


def outcome(facts):
    return only_model("outcome", facts + "asked(outcome).\n")


def team_life(model):
    return {a for a in model if a.startswith("team_life(")}


def lost(model):
    return {a for a in model if a.startswith("lost(")}


NORTH_SOUTH = giants(("North", ["Ann", "Ben"]), ("South", ["Cat", "Dan"]))


def test_810_4_103_4a_119_1a_each_team_shares_a_total_of_30():
    model = outcome(NORTH_SOUTH)
    assert team_life(model) == {'team_life("North",30)', 'team_life("South",30)'}
    assert len(life(model)) == 4 and all(a.endswith(",30)") for a in life(model))
    assert {"810.4", "103.4a", "119.1a"} <= cites(model)


def test_810_11_each_member_beyond_the_second_adds_15():
    facts = giants(("North", ["Ann", "Ben", "Eve"]), ("South", ["Cat", "Dan", "Fay"]))
    model = outcome(facts)
    assert team_life(model) == {'team_life("North",45)', 'team_life("South",45)'}
    assert "810.11" in cites(model)


def test_810_9_flame_rift_example_4_damage_to_each_player():
    # CR 810.9 example (conformance c08)
    facts = NORTH_SOUTH + events(
        *(f'damage("Flame Rift","{p}",4)' for p in ("Ann", "Ben", "Cat", "Dan"))
    )
    model = outcome(facts)
    assert team_life(model) == {'team_life("North",22)', 'team_life("South",22)'}
    assert life(model) == {f'life("{p}",22)' for p in ("Ann", "Ben", "Cat", "Dan")}
    assert lost(model) == set()
    assert {"810.9", "810.9a"} <= cites(model)


def test_810_9a_beacon_of_immortality_example_doubles_the_team_total():
    # "Double target player's life total" on a team at 17: the player gains 17 (the team's)
    facts = giants(("North", ["Ann", "Ben"]), ("South", ["Cat", "Dan"]), given={"North": 17})
    model = outcome(facts + events('gain_life("Ann",17)'))
    assert 'team_life("North",34)' in model
    assert 'life("Ann",34)' in model and 'life("Ben",34)' in model


def test_810_9a_119_4a_lurking_evil_example_pays_half_the_team_total():
    facts = giants(("North", ["Ann", "Ben"]), ("South", ["Cat", "Dan"]), given={"North": 11})
    model = outcome(facts + events('pay_life("Ann",6)') + VIOLATIONS)
    assert 'team_life("North",5)' in model
    assert not any(a.startswith("violation(") for a in model)


def test_119_4a_a_member_can_pay_more_than_half_the_team_total():
    facts = NORTH_SOUTH + events('pay_life("Ann",25)')
    model = outcome(facts + VIOLATIONS)
    assert 'team_life("North",5)' in model
    assert "119.4" in cites(model)


def test_119_4a_810_9b_a_payment_above_the_team_total_is_a_violation():
    facts = giants(("North", ["Ann", "Ben"]), ("South", ["Cat", "Dan"]), given={"North": 5})
    model = outcome(facts + events('pay_life("Ben",6)') + VIOLATIONS)
    assert 'team_life("North",5)' in model
    assert 'violation(rule("119.4a"),cannot_pay("Ben",6,event(1)))' in model
    assert 'because(violation(rule("119.4a"),cannot_pay("Ben",6,event(1))),rule("810.9b"))' in model


def test_119_4a_the_pay_question_checks_the_team_total():
    facts = giants(("North", ["Ann", "Ben"]), ("South", ["Cat", "Dan"]), given={"North": 5})
    model = only_model("pay", facts + 'asked(pay("Ann",5)). asked(pay("Ben",6)).\n')
    assert 'can_pay("Ann",5)' in model and 'can_pay("Ben",6)' not in model
    assert "119.4a" in cites(model)


def test_810_9c_setting_a_member_to_10_from_25_loses_15_for_the_team():
    # CR 810.9c example
    facts = giants(("North", ["Ann", "Ben"]), ("South", ["Cat", "Dan"]), given={"North": 25})
    model = outcome(facts + events('set_life("Ann",10)'))
    assert 'team_life("North",10)' in model
    assert "810.9c" in cites(model)


def test_810_9c_setting_a_member_higher_is_a_gain_for_that_member_only():
    facts = (
        NORTH_SOUTH + creature("Ann", PRIDEMATE, "life_gain_trigger") + events('set_life("Ben",40)')
    )
    model = outcome(facts)
    assert 'team_life("North",40)' in model
    # the gain is Ben's: Ann's "whenever you gain life" does not trigger (119.9)
    assert f'triggered("{PRIDEMATE}",0)' in model


def test_810_9e_a_player_cant_exchange_life_totals_with_a_teammate():
    facts = NORTH_SOUTH + "#show because/2.\n" + events('exchange_life("Ann","Ben")')
    model = outcome(facts)
    assert 'team_life("North",30)' in model
    assert 'because(exchange_blocked(1),rule("810.9e"))' in model


def test_701_12c_810_9a_an_exchange_with_an_opponent_exchanges_team_totals():
    facts = giants(("North", ["Ann", "Ben"]), ("South", ["Cat", "Dan"]), given={"North": 12})
    model = outcome(facts + events('exchange_life("Ben","Dan")'))
    assert team_life(model) == {'team_life("North",30)', 'team_life("South",12)'}


def test_810_9g_when_a_player_cant_gain_life_nobody_on_the_team_can():
    facts = NORTH_SOUTH + events(
        'cant_gain_life("Ann")', 'gain_life("Ben",5)', 'gain_life("Cat",5)'
    )
    model = outcome(facts)
    assert team_life(model) == {'team_life("North",30)', 'team_life("South",35)'}
    assert "810.9g" in cites(model)


def test_810_9h_when_a_player_cant_lose_life_nobody_on_the_team_can_lose_or_pay():
    facts = NORTH_SOUTH + events(
        'cant_lose_life("Ann")', 'damage("Shock","Ben",3)', 'pay_life("Ben",2)'
    )
    model = outcome(facts + VIOLATIONS)
    assert 'team_life("North",30)' in model
    assert 'violation(rule("810.9h"),cant_pay_life("Ben",2,event(3)))' in model
    assert "810.9h" in cites(model)
    pay = only_model("pay", facts + 'asked(pay("Ben",2)). asked(pay("Ben",0)).\n')
    assert 'can_pay("Ben",2)' not in pay and 'can_pay("Ben",0)' in pay
    assert {"810.9h", "119.4b"} <= cites(pay)


def test_810_8c_810_8a_a_team_at_0_life_loses_with_every_member():
    facts = NORTH_SOUTH + events('damage("Flame Rift","Ann",15)', 'damage("Flame Rift","Ben",15)')
    model = outcome(facts)
    assert team_life(model) == {'team_life("North",0)', 'team_life("South",30)'}
    assert lost(model) == {'lost("Ann")', 'lost("Ben")'}
    assert {"810.8c", "810.8a"} <= cites(model)


def test_810_8a_a_member_who_cant_lose_the_game_keeps_the_team_in():
    facts = NORTH_SOUTH + events('cant_lose_game("Ben")', 'lose_life("Ann",31)')
    model = outcome(facts)
    assert 'team_life("North",-1)' in model
    assert lost(model) == set()
    assert "810.8a" in cites(model)


def test_119_9_810_9_a_teammates_gain_does_not_trigger_your_life_gain_ability():
    facts = NORTH_SOUTH + creature("Ann", PRIDEMATE, "life_gain_trigger")
    facts += creature("Ben", "Vampire Nighthawk", "lifelink")
    facts += events(
        'gain_life("Ben",2)', 'damage("Vampire Nighthawk","Cat",2)', 'gain_life("Ann",1)'
    )
    model = outcome(facts)
    assert team_life(model) == {'team_life("North",35)', 'team_life("South",28)'}
    assert f'triggered("{PRIDEMATE}",1)' in model
