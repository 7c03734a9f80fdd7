"""506.2a, 115.1, 801.4 (spec sections 10, 12): `ask fix` finds the closest legal
play, making a choice the file left open (the defending player) and pointing an
illegal target at a legal one, and says so."""

from helpers.answering import run
from helpers.player_answers import ask

from mtgkb.rulebase import words

# Three players and no attack option: the attacking player chooses one opponent
# (506.2a), and the file names none.
CHOOSE = """game: vanguard
players: Rob, Alex, Carissa
active: Rob
Rob controls creature "Ghoul" 2/2
Rob controls creature "Ogre" 3/3
"Ghoul" attacks Alex
"Ogre" attacks Carissa
"""


def test_506_2a_fix_chooses_one_defending_player_and_changes_one_attack():
    out = ask(CHOOSE, "fix")
    assert out["legal"] is False and len(out["changes"]) == 1
    (choice,) = out["choices"]
    defender = "Alex" if "Alex" in choice else "Carissa"
    assert choice == f"Rob chooses {defender} as defending player"
    # the attack on the other opponent goes, or turns on the chosen one
    other = {"Alex": "Ghoul attacks Alex", "Carissa": "Ogre attacks Carissa"}
    off = "Carissa" if defender == "Alex" else "Alex"
    assert other[off] in str(out["changes"][0])
    # choose Alex or Carissa; then remove the other attack or point it at the chosen one
    assert out["count"] == 4
    assert "506.2a" in out["rules"] and "remaining" not in out


def test_506_2a_a_written_choice_is_not_remade():
    out = ask(CHOOSE + "Rob chooses Alex as defending player\n", "fix")
    assert "choices" not in out
    assert out["changes"] in (
        [{"remove": "Ogre attacks Carissa"}],
        [{"change": "Ogre attacks Carissa", "to": "Ogre attacks Alex"}],
    )


def test_115_1_702_11c_fix_points_a_spell_at_a_legal_target():
    text = "players: Rob, Alex\nAlex has hexproof\n" + 'Rob casts instant "Shock" targeting Alex\n'
    out = ask(text, "fix")
    assert out["changes"] == [
        {
            "change": "Rob casts instant Shock targeting Alex",
            "to": "Rob casts instant Shock targeting Rob",
        }
    ]
    assert out["count"] == 1 and "remaining" not in out and "115.1" in out["rules"]


def test_801_4_fix_points_an_out_of_range_target_within_range():
    text = """game: free-for-all
option: attack-multiple-players
option: range-of-influence 1
players: Rob, Alex, Carissa, Dana, Eve
active: Rob
Rob casts instant "Shock" targeting Carissa
"""
    out = ask(text, "fix")
    assert len(out["changes"]) == 1 and out["changes"][0]["change"].endswith("targeting Carissa")
    assert out["changes"][0]["to"].split()[-1] in {"Rob", "Alex", "Eve"}
    # 801.2b, 801.4: Rob, Alex and Eve are within Rob's range of 1
    assert out["count"] == 3 and "remaining" not in out


def test_115_1_an_object_target_moves_to_an_object_of_its_card_type():
    text = """players: Rob, Alex
Alex controls creature "Troll" 2/2 with shroud
Alex controls creature "Bear" 2/2
Alex controls land "Forest"
Rob casts instant "Shock" targeting "Troll"
"""
    out = ask(text, "fix")
    assert out["changes"] == [
        {
            "change": "Rob casts instant Shock targeting Troll",
            "to": "Rob casts instant Shock targeting Bear",
        }
    ]


def test_115_1_with_no_legal_target_the_play_stays_illegal_and_says_so():
    text = "players: Rob, Alex\nRob has shroud\nAlex has shroud\n"
    out = ask(text + 'Rob casts instant "Shock" targeting Alex\n', "fix")
    assert out["changes"] == [] and [v["rule"] for v in out["remaining"]] == ["702.18a"]


def test_506_2a_the_choice_is_shown_in_english_and_italian():
    english = run(CHOOSE + "ask fix\n")
    italian = run(CHOOSE + "ask fix\n", lang="it")
    assert english["answers"][0]["choices"] == italian["answers"][0]["choices"]
    assert "left open by the file" in words.text("label", "fix_choice", "en")
    assert "lasciato aperto dal file" in words.text("label", "fix_choice", "it")


def test_506_2a_no_choice_is_made_where_no_attack_needs_it():
    text = "game: vanguard\nplayers: Rob, Alex, Carissa\nAlex has hexproof\n"
    out = ask(text + 'Rob casts instant "Shock" targeting Alex\n', "fix")
    assert "choices" not in out
    # Rob himself or Carissa: two legal targets
    assert out["count"] == 2 and len(out["changes"]) == 1
