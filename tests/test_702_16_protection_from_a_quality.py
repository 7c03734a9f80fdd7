"""702.16a, 702.16b, 702.16e, 702.16f, 702.11b (spec section 13): protection from
creatures, from everything, from two colors, and hexproof from a color, each as
the CR says for targets, blocks and damage; several colors of one spell."""

import pytest
from helpers.answering import run
from helpers.player_answers import ask, broken, rules

from mtgkb.language.errors import ScenarioError

TWO = "players: Rob, Alex\nactive: Rob\n"


# ---- several colors of one spell (spec section 2, 702.16b)


def test_702_16b_a_spell_of_two_colors_written_as_a_comma_list():
    text = TWO + 'Rob casts instant "Lightning Helix" targeting Alex with color red, color white\n'
    assert ask(text, "legal")["legal"] is True
    # protection from either color stops it
    for color in ("red", "white"):
        out = ask(
            text + f"Alex has protection from {color}\n",
            "legal",
        )
        assert out["legal"] is False and broken(out) == {"702.16b"}


def test_702_16b_with_lists_before_the_targets_take_commas_and_and():
    text = TWO + (
        'Alex controls creature "Knight" 2/2 with protection from white\n'
        'Rob casts instant "Helix" with flash, color red and color white targeting "Knight"\n'
    )
    out = ask(text, "legal")
    assert broken(out) == {"702.16b"}
    assert out["violations"][0]["objects"][:2] == ["Helix", "Knight"]
    assert "protection from white" in out["violations"][0]["message"]


def test_a_color_named_twice_is_an_input_error():
    text = TWO + 'Rob casts instant "Helix" targeting Alex with color red, color red\nask legal\n'
    with pytest.raises(ScenarioError, match="named twice"):
        run(text)


# ---- protection from red and from white (702.16a, several qualities)

KNIGHT = TWO + 'Alex controls creature "Knight" 2/2 with protection from red and from white\n'


def test_702_16f_protection_from_red_and_from_white_stops_both_colors_blocking():
    text = KNIGHT.replace("active: Rob", "active: Alex") + (
        'Rob controls creature "Goblin" 1/1 with color red\n'
        'Rob controls creature "Squire" 1/2 with color white\n'
        'Rob controls creature "Bear" 2/2 with color green\n'
        '"Knight" attacks Rob\n'
    )
    for blocker in ("Goblin", "Squire"):
        out = ask(text + f'"{blocker}" blocks "Knight"\n', "legal")
        assert broken(out) == {"702.16f"} and "509.1b" in rules(out)
    assert ask(text + '"Bear" blocks "Knight"\n', "legal")["legal"] is True


def test_702_16e_damage_from_either_color_is_prevented():
    text = KNIGHT + (
        'Rob controls creature "Goblin" 1/1 with color red\n'
        'Rob controls creature "Squire" 1/2 with color white\n'
        '"Goblin" deals 3 damage to "Knight"\n"Squire" deals 3 damage to "Knight"\n'
    )
    out = ask(text, "outcome")
    assert out.get("destroyed", []) == []


# ---- protection from creatures


ANGEL = TWO + 'Alex controls creature "Angel" 2/2 with protection from creatures\n'


def test_702_16f_no_creature_blocks_an_attacker_with_protection_from_creatures():
    text = ANGEL.replace("active: Rob", "active: Alex") + (
        'Rob controls creature "Bear" 2/2\n"Angel" attacks Rob\n"Bear" blocks "Angel"\n'
    )
    out = ask(text, "legal")
    assert broken(out) == {"702.16f"}
    assert out["violations"][0]["objects"] == ["Bear", "Angel"]


def test_702_16b_an_ability_of_a_creature_cant_target_it_but_a_spell_can():
    text = ANGEL + 'Rob controls creature "Prodigal Sorcerer" 1/1\n'
    out = ask(text + 'Rob activates "Prodigal Sorcerer" targeting "Angel"\n', "legal")
    assert broken(out) == {"702.16b"} and "702.16a" in rules(out)
    assert ask(text + 'Rob casts instant "Shock" targeting "Angel"\n', "legal")["legal"] is True
    assert ask(text, 'can Rob target "Angel"')["can"] is True


def test_702_16e_combat_damage_from_a_creature_is_prevented():
    text = ANGEL + (
        'Rob controls creature "Ogre" 3/3\n"Ogre" attacks Alex\n"Angel" blocks "Ogre"\n'
        "combat damage\n"
    )
    out = ask(text, "outcome")
    # the 2/2 Angel takes none of the 3/3 Ogre's damage; its own 2 don't kill the Ogre
    assert out["destroyed"] == [] and "702.16e" in rules(out)
    assert ask(text.replace("with protection from creatures", ""), "outcome")["destroyed"] == [
        "Angel"
    ]


def test_702_16e_damage_from_a_spell_is_not_prevented_by_protection_from_creatures():
    out = ask(ANGEL + '"Lightning Bolt" deals 3 damage to "Angel"\n', "outcome")
    assert out["destroyed"] == ["Angel"]


# ---- protection from everything


PROGENITUS = TWO + 'Alex controls creature "Progenitus" 10/10 with protection from everything\n'


def test_702_16b_nothing_targets_a_permanent_with_protection_from_everything():
    out = ask(PROGENITUS + 'Rob casts instant "Doom Blade" targeting "Progenitus"\n', "legal")
    assert broken(out) == {"702.16b"}
    # not even its controller's own spell
    text = PROGENITUS + 'priority: Alex\nAlex casts instant "Giant Growth" targeting "Progenitus"\n'
    assert broken(ask(text, "legal")) == {"702.16b"}
    assert ask(PROGENITUS, 'can Alex target "Progenitus"')["can"] is False


def test_702_16e_all_damage_to_a_player_with_protection_from_everything_is_prevented():
    text = (
        TWO
        + "Alex has protection from everything\n"
        + ('"Lightning Bolt" deals 3 damage to Alex\n')
    )
    assert ask(text, "outcome")["life"]["Alex"] == 20
    out = ask(text + 'Rob casts instant "Shock" targeting Alex\n', "legal")
    assert broken(out) == {"702.16b"}


def test_702_16f_no_creature_blocks_an_attacker_with_protection_from_everything():
    text = PROGENITUS.replace("active: Rob", "active: Alex") + (
        'Rob controls creature "Wall" 0/8\n"Progenitus" attacks Rob\n"Wall" blocks "Progenitus"\n'
    )
    out = ask(text, "legal")
    assert broken(out) == {"702.16f"}
    out = ask(text.replace('"Wall" blocks "Progenitus"\n', ""), "blocks")
    assert out["count"] == 1 and out["assignments"] == [{}]


# ---- hexproof from a color (702.11b; 702.11d of the full CR)

HEXPROOF = TWO + 'Alex controls creature "Knight" 2/2 with hexproof from black\n'
DOOM_BLADE = 'Rob casts instant "Doom Blade" with color black targeting "Knight"\n'


def test_702_11b_hexproof_from_black_stops_an_opponents_black_spell_only():
    out = ask(HEXPROOF + DOOM_BLADE, "legal")
    assert broken(out) == {"702.11b"}
    assert "hexproof from black" in out["violations"][0]["message"]
    text = HEXPROOF + 'Rob casts instant "Shock" with color red targeting "Knight"\n'
    assert ask(text, "legal")["legal"] is True


def test_702_11b_hexproof_from_a_color_does_not_stop_the_controller():
    text = (
        HEXPROOF
        + 'priority: Alex\nAlex casts instant "Dark Ritual" with color black targeting "Knight"\n'
    )
    assert ask(text, "legal")["legal"] is True


def test_702_16_the_messages_are_in_english_and_italian():
    text = PROGENITUS + 'Rob casts instant "Doom Blade" targeting "Progenitus"\nask legal\n'
    english = run(text)["answers"][0]["violations"][0]["message"]
    italian = run(text, lang="it")["answers"][0]["violations"][0]["message"]
    assert "protection from everything" in english and "protezione da tutto" in italian
    text = HEXPROOF + DOOM_BLADE + "ask legal\n"
    italian = run(text, lang="it")["answers"][0]["violations"][0]["message"]
    assert "anti-malocchio" in italian
