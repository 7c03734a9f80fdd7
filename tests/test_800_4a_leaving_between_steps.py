"""800.4a, 800.4e (issue 29 item 4, spec section 13 "Losing between the steps"):
a player who has lost after the first-strike damage step has left the game.
In the second step no combat damage is assigned to them (800.4e), and the
objects they owned have left with them (800.4a): they deal and take no damage
and their lifelink gains nothing. In a team game the team's own rules say who
loses with whom (810.8a, 810.8c, 809.5b)."""

from helpers.answering import run

THREE = "players: Rob, Alex, Carissa\nactive: Rob\n"


def outcome(text: str) -> dict:
    answers = run(text + "combat damage\nask outcome\n")["answers"]
    return next(a for a in answers if a["ask"] == "outcome")


def test_800_4e_no_damage_is_assigned_to_a_player_who_left():
    text = THREE + "life: Alex 2\n"
    text += 'Rob controls creature "Boros Swiftblade" 2/2 with double strike, lifelink\n'
    text += '"Boros Swiftblade" attacks Alex\n'
    found = outcome(text)
    # the first step takes Alex to 0: Alex lost and left; the second step assigns Alex
    # nothing, so Alex stays at 0 and the lifelinker gains only the first step's 2
    assert found["life"]["Alex"] == 0
    assert found["life"]["Rob"] == 22
    assert found["lost"] == ["Alex"]
    assert {"704.5a", "510.4", "800.4a", "800.4e"} <= set(found["rules"])


def test_800_4a_the_objects_of_a_player_who_left_deal_no_damage_in_the_second_step():
    text = THREE + "life: Alex 2\n"
    text += 'Rob controls creature "Striker" 2/2 with first strike\n'
    text += 'Rob controls creature "Grizzly Bears" 2/2\n'
    text += 'Alex controls creature "Ogre" 3/3 with lifelink\n'
    text += '"Striker" attacks Alex\n"Grizzly Bears" attacks Alex\n"Ogre" blocks "Grizzly Bears"\n'
    found = outcome(text)
    # the Ogre left with Alex: it neither kills the Bears nor gains Alex life
    assert found["destroyed"] == []
    assert found["life"]["Alex"] == 0
    assert found["lost"] == ["Alex"]
    assert "800.4a" in found["rules"]


def test_800_4_a_player_who_lost_leaves_and_the_others_fight_on_in_the_second_step():
    text = THREE + "life: Alex 2\noption: attack-multiple-players\n"
    text += 'Rob controls creature "Striker" 2/2 with first strike\n'
    text += 'Rob controls creature "Grizzly Bears" 2/2 with lifelink\n'
    text += '"Striker" attacks Alex\n"Grizzly Bears" attacks Carissa\n'
    found = outcome(text)
    assert found["life"] == {"Rob": 22, "Alex": 0, "Carissa": 18}
    assert found["lost"] == ["Alex"]


def test_809_5b_an_emperors_team_leaves_with_its_emperor():
    text = "game: emperor\nplayers: A1, E1, A2, B1, E2, B2\n"
    text += "team North: A1, E1, A2\nteam South: B1, E2, B2\nemperor: E1\nemperor: E2\n"
    text += "active: A2\nlife: E2 2\n"
    text += 'A2 controls creature "Striker" 2/2 with first strike\n'
    text += 'A2 controls creature "Grizzly Bears" 2/2\nB1 controls creature "Ogre" 3/3\n'
    text += '"Striker" attacks E2\n"Grizzly Bears" attacks B1\n"Ogre" blocks "Grizzly Bears"\n'
    found = outcome(text)
    # E2 is at 0 after the first step: the team lost with its emperor (809.5b), and
    # B1's Ogre left the game with B1 before the second step
    assert set(found["lost"]) == {"B1", "E2", "B2"}
    assert found["destroyed"] == []
    assert {"809.5b", "800.4a"} <= set(found["rules"])


def test_704_5a_a_player_who_survives_the_first_step_still_takes_the_second():
    text = THREE + "life: Alex 3\n"
    text += 'Rob controls creature "Boros Swiftblade" 2/2 with double strike\n'
    text += '"Boros Swiftblade" attacks Alex\n'
    found = outcome(text)
    assert found["life"]["Alex"] == -1
    assert found["lost"] == ["Alex"]
    assert "800.4e" not in found["rules"]


def test_704_5c_800_4e_a_player_poisoned_out_in_the_first_step_gets_no_more_counters():
    text = THREE + "poison: Alex 8\n"
    text += 'Rob controls creature "Blightsteel" 2/2 with double strike, infect\n'
    text += '"Blightsteel" attacks Alex\n'
    found = outcome(text)
    # 8 + 2 = 10 after the first step: Alex lost (704.5c) and left; the second step's
    # 2 infect damage is assigned to nobody
    assert found["poison"]["Alex"] == 10
    assert found["lost"] == ["Alex"]
    assert {"704.5c", "800.4a"} <= set(found["rules"])


# Each `combat damage` line deals the declared combat's damage again. Who left between
# the two steps (510.4, 800.4a) is modelled at the first such line; where a player may
# leave between the steps of one and another one follows, the answers say 800.4a is
# not modelled rather than answer as if that player were still in the game.

STRIKE_TWICE = (
    THREE
    + "life: Alex 3\n"
    + 'Rob controls creature "Striker" 1/1 with first strike\n'
    + 'Rob controls creature "Grizzly Bears" 2/2\n'
    + '"Striker" attacks Alex\n"Grizzly Bears" attacks Alex\n'
    + "combat damage\ncombat damage\n"
)


def test_800_4a_leaving_at_a_second_combat_damage_event_is_an_answer_that_says_not_modelled():
    # the first event takes Alex 3 -> 2 -> 0 (alive between its steps); the second's first
    # step takes Alex below 0, so Alex loses between its steps (704.5a, 510.4). Before,
    # reading that leaving into the combat's damage took the first event's Bears damage
    # away too, and the rule base had no answer set at all (exit 4).
    answers = run(STRIKE_TWICE + "ask legal\nask outcome\n")["answers"]
    legal, found = answers
    assert legal["legal"] is True
    assert found["lost"] == ["Alex"]
    assert {"510.4", "704.5a"} <= set(found["rules"])
    assert legal["unmodelled"] == found["unmodelled"] == ["800.4a"]


def test_800_4a_a_player_who_left_in_the_first_event_and_takes_part_in_the_next_is_not_modelled():
    text = THREE + "life: Alex 2\n"
    text += 'Rob controls creature "Boros Swiftblade" 2/2 with double strike\n'
    text += '"Boros Swiftblade" attacks Alex\n'
    found = outcome(text)
    # one event: Alex leaves between its steps, which the rule base models (800.4e)
    assert found["lost"] == ["Alex"]
    assert "800.4e" in found["rules"]
    assert "unmodelled" not in found
    # a second event would deal damage to Alex, who has left the game (800.4a)
    again = outcome(text + "combat damage\n")
    assert again["lost"] == ["Alex"]
    assert again["unmodelled"] == ["800.4a"]


def test_two_combat_damage_events_without_a_first_striker_have_one_step_each_and_are_modelled():
    # no first or double striker: no check between steps (510.4), nothing to flag
    text = THREE + "life: Alex 3\n"
    text += 'Rob controls creature "Grizzly Bears" 2/2\n"Grizzly Bears" attacks Alex\n'
    found = outcome(text + "combat damage\n")
    assert found["life"]["Alex"] == 3 - 2 - 2
    assert found["lost"] == ["Alex"]
    assert "unmodelled" not in found
