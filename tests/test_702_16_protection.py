"""702.16a, 702.16e, 702.16f: protection from a color (blocking and damage)."""

from helpers.combat_answers import answers, legal, outcome

TWO = "players: Rob, Alex\nactive: Rob\n"
KNIGHT = TWO + 'Rob controls creature "Knight" 2/2 with protection from black\n'
KNIGHT += 'Alex controls creature "Rats" 1/1 with color black\n'
KNIGHT += 'Alex controls creature "Bear" 2/2 with color green\n"Knight" attacks Alex\n'


def test_702_16f_a_creature_of_that_color_cant_block():
    found = legal(KNIGHT + '"Rats" blocks "Knight"\n')
    assert found["legal"] is False
    assert [v["rule"] for v in found["violations"]] == ["702.16f"]
    assert found["violations"][0]["objects"] == ["Rats", "Knight"]
    assert "509.1b" in found["rules"]


def test_702_16f_a_creature_of_another_color_may_block():
    assert legal(KNIGHT + '"Bear" blocks "Knight"\n')["legal"] is True


def test_702_16f_ask_blocks_leaves_out_blocks_by_that_color():
    found = answers(KNIGHT + "ask blocks\n")["blocks"]
    assert found["count"] == 2
    assert {"Rats": "Knight"} not in found["assignments"]
    assert "702.16f" in found["rules"]


def test_702_16e_combat_damage_from_a_source_of_that_color_is_prevented():
    text = KNIGHT + '"Rats" blocks "Knight"\n'
    found = outcome(text)
    assert found["destroyed"] == ["Rats"]  # the Knight's damage is dealt, the Rats' is not
    assert "702.16e" in found["rules"]


def test_702_16e_a_multicolored_source_is_prevented_by_any_of_its_colors():
    text = TWO + 'Rob controls creature "Knight" 2/2 with protection from red\n'
    text += 'Alex controls creature "Gruul" 3/3 with color red, color green\n'
    text += '"Knight" attacks Alex\n"Gruul" blocks "Knight"\n'
    assert outcome(text)["destroyed"] == []


def test_702_16e_a_damage_event_from_a_declared_object_of_that_color_is_prevented():
    text = TWO + 'Rob controls creature "Knight" 2/2 with protection from red\n'
    text += 'Alex controls creature "Goblin" 1/1 with color red\n'
    text += '"Goblin" deals 2 damage to "Knight"\nask outcome\n'
    found = answers(text)["outcome"]
    assert "destroyed" not in found or found["destroyed"] == []
    assert "702.16e" in found["rules"]


def test_702_16e_protection_does_not_stop_a_source_of_another_color():
    text = TWO + 'Rob controls creature "Knight" 2/2 with protection from red\n'
    text += 'Alex controls creature "Elf" 1/1 with color green\n'
    text += '"Elf" deals 2 damage to "Knight"\nask outcome\n'
    found = answers(text)["outcome"]
    assert found["destroyed"] == ["Knight"]
    assert "704.5g" in found["rules"]
