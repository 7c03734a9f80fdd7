"""903.2 (outside the excerpt; 506.2a, 802.2): a multiplayer Commander game is a
free-for-all game with the attack multiple players option unless the table
chooses otherwise; Brawl uses Commander's rules (903.12a)."""

from helpers.player_answers import answers, ask

COMMANDER = """game: commander
players: Rob, Alex, Carissa
active: Rob
Rob controls creature "Ghoulcaller" 2/2
Rob controls creature "Ogre" 3/3
"""


def test_903_2_every_opponent_defends_in_a_multiplayer_commander_game():
    out = ask(COMMANDER, "defending players")
    assert set(out["players"]) == {"Alex", "Carissa"} and "802.2" in out["rules"]


def test_903_2_802_2_attacks_on_two_opponents_are_legal():
    text = COMMANDER + '"Ghoulcaller" attacks Alex\n"Ogre" attacks Carissa\n'
    assert ask(text, "legal")["legal"] is True


def test_903_2_brawl_follows_commander():
    out = ask(COMMANDER.replace("commander", "brawl"), "defending players")
    assert set(out["players"]) == {"Alex", "Carissa"}


def test_903_2_an_explicit_attack_option_replaces_the_default():
    text = COMMANDER.replace("active: Rob", "option: attack-left\nactive: Rob")
    out = answers(text + "ask defending players\n")[0]
    assert out["players"] == ["Alex"] and "803.1a" in out["rules"]


def test_903_2_a_two_player_commander_game_has_one_defender():
    text = "game: commander\nplayers: Rob, Alex\n"
    assert ask(text, "defending players")["players"] == ["Alex"]


def test_506_2a_a_written_choice_of_defending_player_keeps_the_choice():
    # A table that chooses one defending player plays without the option (506.2a).
    text = COMMANDER + "Rob chooses Alex as defending player\n"
    out = ask(text, "defending players")
    assert out["players"] == ["Alex"] and "506.2a" in out["rules"]
