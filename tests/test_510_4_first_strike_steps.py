"""510.4, 702.7b, 702.4b, 702.15e, 119.9, 704.5a, 802.5, 810.8c: two combat
damage steps when a creature in combat has first strike or double strike."""

from helpers.combat_answers import outcome

TWO = "players: Rob, Alex\nactive: Rob\n"


def test_702_7b_a_first_striker_kills_its_blocker_before_it_deals_damage():
    text = TWO + 'Rob controls creature "Elite Vanguard" 2/1 with first strike\n'
    text += 'Alex controls creature "Grizzly Bears" 2/2\n'
    text += '"Elite Vanguard" attacks Alex\n"Grizzly Bears" blocks "Elite Vanguard"\n'
    found = outcome(text)
    assert found["destroyed"] == ["Grizzly Bears"]
    assert {"510.4", "702.7b", "704.5g"} <= set(found["rules"])


def test_510_4_without_first_strike_both_creatures_die_in_one_step():
    text = TWO + 'Rob controls creature "Bear A" 2/2\nAlex controls creature "Bear B" 2/2\n'
    text += '"Bear A" attacks Alex\n"Bear B" blocks "Bear A"\n'
    found = outcome(text)
    assert sorted(found["destroyed"]) == ["Bear A", "Bear B"]
    assert "510.4" not in found["rules"]


def test_510_4_a_blocker_with_first_strike_kills_the_attacker_first():
    text = TWO + 'Rob controls creature "Bear" 2/2 with lifelink\n'
    text += 'Alex controls creature "Striker" 2/2 with first strike\n'
    text += '"Bear" attacks Alex\n"Striker" blocks "Bear"\n'
    found = outcome(text)
    assert found["destroyed"] == ["Bear"]
    assert found["life"]["Rob"] == 20  # the dead Bear dealt no damage, so no lifelink
    assert "510.4" in found["rules"]


def test_702_4b_double_strike_deals_damage_in_both_steps():
    text = TWO + 'Rob controls creature "Boros Swiftblade" 1/2 with double strike\n'
    text += '"Boros Swiftblade" attacks Alex\n'
    found = outcome(text)
    assert found["life"]["Alex"] == 18
    assert "702.4b" in found["rules"]


def test_702_15e_119_9_a_double_striking_lifelinker_gains_twice_and_triggers_twice():
    text = TWO + 'Rob controls creature "Ajani\'s Pridemate" 2/2 with whenever you gain life\n'
    text += 'Rob controls creature "Boros Swiftblade" 1/2 with double strike, lifelink\n'
    text += '"Boros Swiftblade" attacks Alex\n'
    found = outcome(text)
    assert found["life"] == {"Rob": 22, "Alex": 18}
    assert found["triggers"] == {"Ajani's Pridemate": 2}
    assert {"702.15e", "119.9", "702.15b"} <= set(found["rules"])


def test_702_15e_lifelink_in_both_steps_from_two_sources_counts_each_source_and_step():
    text = TWO + 'Rob controls creature "Ajani\'s Pridemate" 2/2 with whenever you gain life\n'
    text += 'Rob controls creature "Swiftblade" 1/2 with double strike, lifelink\n'
    text += 'Rob controls creature "Nighthawk" 2/3 with lifelink\n'
    text += '"Swiftblade" attacks Alex\n"Nighthawk" attacks Alex\n'
    found = outcome(text)
    assert found["life"] == {"Rob": 24, "Alex": 16}
    assert found["triggers"] == {"Ajani's Pridemate": 3}


def test_510_4_704_5a_a_player_who_reaches_0_between_the_steps_has_lost():
    text = TWO + "life: Alex 1, Rob 1\n"
    text += 'Rob controls creature "Striker" 1/1 with first strike\n'
    text += 'Alex controls creature "Leech" 3/3 with lifelink\n'
    text += 'Alex controls creature "Wall" 0/5\n'
    text += '"Striker" attacks Alex\n'
    # Alex's own lifelinker can't save Alex: it is not in combat, and the loss came first
    found = outcome(text)
    assert found["lost"] == ["Alex"]
    assert {"510.4", "704.5a"} <= set(found["rules"])


def test_510_4_a_player_who_lost_between_the_steps_gets_no_life_back_in_the_second():
    text = TWO + "life: Alex 1\n"
    text += 'Rob controls creature "Striker" 1/1 with first strike\n'
    text += 'Rob controls creature "Bear" 2/2\n'
    text += 'Alex controls creature "Leech" 1/5 with lifelink\n'
    text += '"Striker" attacks Alex\n"Bear" attacks Alex\n"Leech" blocks "Bear"\n'
    found = outcome(text)
    # after the first step Alex has 0 life and has lost (704.5a): the game is over for
    # Alex, whose Leech deals no damage in a second step, so its lifelink gives nothing back
    assert found["life"]["Alex"] == 0
    assert found["lost"] == ["Alex"]
    assert {"510.4", "704.5a"} <= set(found["rules"])


def test_802_5_multiplayer_steps_are_assigned_in_apnap_order():
    text = "players: Rob, Alex, Carissa\nactive: Rob\n"
    text += 'Rob controls creature "Striker" 2/2 with first strike\n'
    text += 'Rob controls creature "Bear" 2/2\n'
    text += '"Striker" attacks Alex\n"Bear" attacks Carissa\n'
    found = outcome(text)
    assert found["life"] == {"Rob": 20, "Alex": 18, "Carissa": 18}
    assert {"802.5", "510.4"} <= set(found["rules"])


def test_810_8c_a_two_headed_giant_team_takes_each_steps_damage_on_its_shared_total():
    text = "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\n"
    text += "team North: Ann, Ben\nteam South: Cat, Dan\nlife: South 3\n"
    text += 'Ann controls creature "Swiftblade" 2/2 with double strike\n'
    text += 'Cat controls creature "Leech" 1/4 with lifelink\n'
    text += '"Swiftblade" attacks Cat\n"Leech" blocks "Swiftblade"\n'
    found = outcome(text)
    # South gains 1 from the Leech's lifelink in the regular step: 3 + 1 = 4; nobody loses
    assert found["team_life"]["South"] == 4
    assert found["destroyed"] == ["Leech"]  # 2 + 2 damage on toughness 4
    assert found["lost"] == []


def test_810_8c_a_two_headed_giant_team_at_0_between_the_steps_loses_together():
    text = "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\n"
    text += "team North: Ann, Ben\nteam South: Cat, Dan\nlife: South 2\n"
    text += 'Ann controls creature "Swiftblade" 2/2 with double strike\n'
    text += '"Swiftblade" attacks Cat\n'
    found = outcome(text)
    # the team lost at 0 and left the game (800.4a): the second step assigns Cat nothing (800.4e)
    assert found["team_life"]["South"] == 0
    assert sorted(found["lost"]) == ["Cat", "Dan"]
    assert {"810.8c", "800.4a", "800.4e"} <= set(found["rules"])
