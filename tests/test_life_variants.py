"""103.4a-e, 119.1a-e, 902.4, 903.7, 903.12f, 904.5: starting life per variant."""

from helpers import cites, events, life, only_model, players


def outcome(facts):
    return only_model("outcome", facts + "asked(outcome).\n")


def starting(facts):
    model = only_model("outcome", facts + "asked(outcome).\n#show starting_life/2.\n")
    return {a for a in model if a.startswith("starting_life(")}, model


def test_103_4_119_1_free_for_all_and_emperor_use_20():
    for game in ("free_for_all", "grand_melee", "team_vs_team", "emperor"):
        found, model = starting(players("Ann", "Ben", "Cat", game=game))
        assert found == {f'starting_life("{p}",20)' for p in ("Ann", "Ben", "Cat")}, game
        assert "103.4" in cites(model)


def test_902_4_103_4b_119_1b_vanguard_example_minus_3_gives_17():
    # CR 902.4 example (conformance c10, with Ben's +2)
    facts = players("Ann", "Ben", game="vanguard") + 'vanguard("Ann",-3). vanguard("Ben",2).\n'
    model = outcome(facts)
    assert life(model) == {'life("Ann",17)', 'life("Ben",22)'}
    assert {"902.4", "103.4b", "119.1b"} <= cites(model)


def test_902_4_a_player_without_a_life_modifier_starts_at_20():
    model = outcome(players("Ann", "Ben", game="vanguard") + 'vanguard("Ann",5).\n')
    assert life(model) == {'life("Ann",25)', 'life("Ben",20)'}


def test_903_7_103_4c_119_1c_commander_players_start_at_40():
    # conformance c20's outcome
    model = outcome(players("Ann", "Ben", "Cat", game="commander"))
    assert life(model) == {'life("Ann",40)', 'life("Ben",40)', 'life("Cat",40)'}
    assert {"903.7", "103.4c", "119.1c"} <= cites(model)
    assert not any(a.startswith("lost(") for a in model)


def test_903_12f_103_4d_119_1d_two_player_brawl_starts_at_25():
    model = outcome(players("Ann", "Ben", game="brawl"))
    assert life(model) == {'life("Ann",25)', 'life("Ben",25)'}
    assert {"903.12f", "103.4d", "119.1d"} <= cites(model)


def test_903_12f_multiplayer_brawl_starts_at_30():
    model = outcome(players("Ann", "Ben", "Cat", game="brawl"))
    assert life(model) == {'life("Ann",30)', 'life("Ben",30)', 'life("Cat",30)'}


def test_904_5_103_4e_119_1e_the_archenemy_starts_at_40_the_others_at_20():
    # conformance c26
    facts = players("Rob", "Ann", "Ben", game="archenemy") + 'archenemy("Ann").\n'
    model = outcome(facts)
    assert life(model) == {'life("Ann",40)', 'life("Rob",20)', 'life("Ben",20)'}
    assert {"904.5", "103.4e", "119.1e"} <= cites(model)
    # archenemy teams do not share a life total
    assert not any(a.startswith("team_life(") for a in model)


def test_119_1_a_given_life_total_replaces_the_starting_life():
    facts = players("Ann", "Ben", game="commander") + 'life_given("Ann",12).\n'
    found, model = starting(facts)
    assert 'starting_life("Ann",40)' in found
    assert life(model) == {'life("Ann",12)', 'life("Ben",40)'}


def test_119_1_events_start_from_the_variant_total():
    model = outcome(players("Ann", "Ben", game="commander") + events('lose_life("Ann",41)'))
    assert 'life("Ann",-1)' in model and 'lost("Ann")' in model
