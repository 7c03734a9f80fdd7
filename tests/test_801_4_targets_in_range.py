"""801.4, 801.6, 801.2d, 809.3a: with a limited range of influence, a player's
spells and abilities target only players and objects within that range, and a
player activates no ability of an object outside it."""

from helpers.answering import run
from helpers.player_answers import answers, ask, broken, rules

# Five players round a table; with range 1, Rob reaches Alex and Eve (one seat
# away each way) and not Carissa or Dana (two seats away, 801.2).
FIVE = """game: free-for-all
option: attack-multiple-players
option: range-of-influence 1
players: Rob, Alex, Carissa, Dana, Eve
active: Rob
Carissa controls creature "Grizzly Bears" 2/2
Eve controls creature "Llanowar Elves" 1/1
"""


def test_801_4_a_spell_cant_target_a_player_two_seats_away():
    out = ask(FIVE + 'Rob casts instant "Shock" targeting Carissa\n', "legal")
    assert out["legal"] is False and broken(out) == {"801.4"}
    assert out["violations"][0]["objects"] == ["Shock", "Carissa"]
    assert {"801.2", "115.1"} <= rules(out)


def test_801_4_a_neighbour_is_a_legal_target():
    out = ask(FIVE + 'Rob casts instant "Shock" targeting Eve\n', "legal")
    assert out["legal"] is True and "801.4" in rules(out)


def test_801_4_ask_can_target_a_player_out_of_range_answers_no():
    first, second, third = answers(
        FIVE + "ask can Rob target Carissa\nask can Rob target Alex\nask can Rob target Rob\n"
    )
    assert first["can"] is False and first["forbidden_by"] and "801.4" in first["forbidden_by"]
    assert second["can"] is True and "801.4" in rules(second)
    # 801.2b: a player is always within their own range.
    assert third["can"] is True


def test_801_2d_an_object_is_as_far_as_its_controller():
    out = ask(FIVE, 'can Rob target "Grizzly Bears"')
    assert out["can"] is False and "801.4" in out["forbidden_by"]
    assert "801.2d" in rules(out)
    assert ask(FIVE, 'can Rob target "Llanowar Elves"')["can"] is True


def test_801_2d_a_battle_is_in_range_when_its_protector_is():
    text = FIVE + 'Carissa controls battle "Invasion of Tarkir" defense 5 protected by Alex\n'
    out = ask(text + 'Rob casts instant "Shock" targeting "Invasion of Tarkir"\n', "legal")
    assert out["legal"] is True


def test_801_4_without_a_limited_range_every_player_may_be_targeted():
    text = FIVE.replace("option: range-of-influence 1\n", "")
    assert ask(text + 'Rob casts instant "Shock" targeting Carissa\n', "legal")["legal"] is True


def test_801_4_an_ability_targets_within_range_too():
    text = FIVE + 'Rob controls creature "Prodigal Sorcerer" 1/1\n'
    out = ask(text + 'Rob activates "Prodigal Sorcerer" targeting Dana\n', "legal")
    assert broken(out) == {"801.4"}


def test_801_6_no_ability_of_an_object_out_of_range_is_activated():
    out = ask(FIVE + 'Rob activates "Grizzly Bears"\n', "legal")
    assert "801.6" in broken(out)
    assert any(v["objects"] == ["Grizzly Bears", "Rob"] for v in out["violations"])
    near = ask(FIVE + 'Rob activates "Llanowar Elves"\n', "legal")
    assert "801.6" not in broken(near)


def test_809_3a_a_general_cant_target_the_other_emperor():
    # 809.3a: generals have range 1; the emperors sit in the middle of their teams,
    # three seats apart round a table of six.
    text = """game: emperor
players: Ann, Ben, Cat, Dan, Eve, Fay
team East: Ann, Ben, Cat
team West: Dan, Eve, Fay
emperor: Ben
emperor: Eve
active: Ann
"""
    out = ask(text + 'Ann casts instant "Shock" targeting Eve\n', "legal")
    assert broken(out) == {"801.4"}
    why = ask(text + 'Ann casts instant "Shock" targeting Eve\n', "explain legal")
    assert {"801.4", "809.3a"} <= set(why["rules"])
    assert ask(text + 'Ann casts instant "Shock" targeting Fay\n', "legal")["legal"] is True
    # the emperor reaches two seats: Ben to Dan is two seats
    assert ask(text + 'priority: Ben\nBen casts instant "Shock" targeting Dan\n', "legal")["legal"]


def test_801_4_the_message_is_in_english_and_italian():
    text = FIVE + 'Rob casts instant "Shock" targeting Carissa\nask legal\n'
    english = run(text)["answers"][0]["violations"][0]["message"]
    italian = run(text, lang="it")["answers"][0]["violations"][0]["message"]
    assert "outside its controller's range of influence" in english
    assert "fuori dal raggio d'influenza" in italian
