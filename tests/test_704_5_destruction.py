"""704.5g, 704.5h, 702.2b, 702.12b, 120.3e: creatures destroyed by combat damage."""

from helpers.combat_answers import answers, outcome

TWO = "players: Rob, Alex\nactive: Rob\n"


def test_704_5g_120_3e_lethal_damage_marked_destroys_the_creature():
    text = TWO + 'Rob controls creature "Ogre" 3/3\nAlex controls creature "Wall" 0/3\n'
    text += '"Ogre" attacks Alex\n"Wall" blocks "Ogre"\n'
    found = outcome(text)
    assert found["destroyed"] == ["Wall"]
    assert {"704.5g", "120.3e"} <= set(found["rules"])


def test_704_5g_less_than_lethal_damage_does_not():
    text = TWO + 'Rob controls creature "Ogre" 3/3\nAlex controls creature "Wall" 0/4\n'
    text += '"Ogre" attacks Alex\n"Wall" blocks "Ogre"\n'
    found = outcome(text)
    assert found["destroyed"] == []
    assert "704.5g" not in found["rules"]


def test_704_5h_702_2b_any_damage_from_deathtouch_destroys():
    text = TWO + 'Rob controls creature "Colossus" 9/9\n'
    text += 'Alex controls creature "Rats" 1/1 with deathtouch\n'
    text += '"Colossus" attacks Alex\n"Rats" blocks "Colossus"\n'
    found = outcome(text)
    assert sorted(found["destroyed"]) == ["Colossus", "Rats"]
    assert {"704.5h", "702.2b"} <= set(found["rules"])


def test_702_12a_702_12b_an_indestructible_creature_survives_lethal_and_deathtouch_damage():
    text = TWO + 'Rob controls creature "Guardian" 1/1 with indestructible\n'
    text += 'Alex controls creature "Rats" 1/1 with deathtouch\nAlex controls creature "Ogre" 3/3\n'
    text += '"Guardian" attacks Alex\n"Rats" blocks "Guardian"\n"Ogre" blocks "Guardian"\n'
    found = outcome(text)
    assert "Guardian" not in found["destroyed"]
    assert sorted(found["destroyed"]) == ["Rats"]
    assert {"702.12a", "702.12b"} <= set(found["rules"])


def test_702_12b_an_indestructible_blocker_keeps_blocking_in_the_second_step():
    text = TWO + 'Rob controls creature "Striker" 2/2 with first strike\n'
    text += 'Alex controls creature "Guardian" 2/1 with indestructible\n'
    text += '"Striker" attacks Alex\n"Guardian" blocks "Striker"\n'
    found = outcome(text)
    # the Guardian survives the first step and deals its damage in the second
    assert found["destroyed"] == ["Striker"]


def test_704_5g_outcome_without_combat_has_no_destroyed_list():
    found = answers(TWO + "Alex loses 2 life\nask outcome\n")["outcome"]
    assert "destroyed" not in found
    assert found["life"]["Alex"] == 18
