"""903.3, 903.10a, 704.6c, 104.3j: combat damage from a commander adds up per
commander; 21 or more from one of them loses a Commander game."""

from helpers.player_answers import ask, rules

COMMANDER = "game: commander\nplayers: Ann, Ben, Cat\nactive: Ann\n"
ATRAXA = 'Ann controls creature "Atraxa" 4/4 with commander\n'


def test_903_10a_903_3_combat_damage_adds_to_the_given_total():
    text = COMMANDER + ATRAXA + 'commander damage: Ben 10 from "Atraxa"\n'
    text += "Ann chooses Ben as defending player\n"
    text += '"Atraxa" attacks Ben\ncombat damage\n'
    out = ask(text, "outcome")
    assert out["commander_damage"] == {"Ben": {"Atraxa": 14}}
    assert out["life"]["Ben"] == 36 and out["lost"] == []
    assert {"903.10a", "903.3"} <= rules(out)


def test_704_6c_903_10a_104_3j_twenty_one_from_one_commander_loses():
    text = COMMANDER + ATRAXA + 'commander damage: Ben 17 from "Atraxa"\n'
    text += 'Ann chooses Ben as defending player\n"Atraxa" attacks Ben\ncombat damage\n'
    out = ask(text, "outcome")
    assert out["commander_damage"]["Ben"]["Atraxa"] == 21
    assert out["lost"] == ["Ben"]
    assert {"704.6c", "903.10a", "104.3j"} <= rules(out)


def test_903_10a_damage_from_two_commanders_does_not_add_up():
    text = (
        COMMANDER
        + 'commander damage: Ben 20 from "Atraxa"\ncommander damage: Ben 20 from "Edgar"\n'
    )
    out = ask(text, "outcome")
    assert out["commander_damage"] == {"Ben": {"Atraxa": 20, "Edgar": 20}}
    assert out["lost"] == [] and "704.6c" not in rules(out)


def test_903_10a_noncombat_damage_from_a_commander_does_not_count():
    text = (
        COMMANDER
        + ATRAXA
        + 'commander damage: Ben 18 from "Atraxa"\n"Atraxa" deals 5 damage to Ben\n'
    )
    out = ask(text, "outcome")
    assert out["commander_damage"]["Ben"]["Atraxa"] == 18
    assert out["life"]["Ben"] == 35 and out["lost"] == []


def test_704_6c_brawl_does_not_use_commander_damage_losses():
    # 903.12h: Brawl games leave out the state-based action of 704.6c.
    text = "game: brawl\nplayers: Ann, Ben\n" + 'commander damage: Ben 25 from "Atraxa"\n'
    out = ask(text, "outcome")
    assert out["commander_damage"]["Ben"]["Atraxa"] == 25 and out["lost"] == []


def test_903_10a_a_creature_without_commander_counts_nothing():
    text = COMMANDER + 'Ann controls creature "Bear" 2/2\n'
    text += 'Ann chooses Ben as defending player\n"Bear" attacks Ben\ncombat damage\n'
    assert "commander_damage" not in ask(text, "outcome")


def test_903_10a_double_strike_counts_both_steps():
    text = COMMANDER + 'Ann controls creature "Atraxa" 4/4 with commander, double strike\n'
    text += 'commander damage: Ben 13 from "Atraxa"\n'
    text += 'Ann chooses Ben as defending player\n"Atraxa" attacks Ben\ncombat damage\n'
    out = ask(text, "outcome")
    assert out["commander_damage"]["Ben"]["Atraxa"] == 21
    assert out["lost"] == ["Ben"] and {"704.6c", "702.4b"} <= rules(out)
