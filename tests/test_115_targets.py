"""115.1, 601.2c, 702.11b-c, 702.18a, 702.16b: who may be the target of a
declared spell or ability. Declarations are judged, never resolved."""

from helpers.player_answers import GIANTS, answers, ask, broken, rules

TWO = "players: Ann, Ben\n"


def test_115_1_601_2c_a_legal_target_is_legal_and_cited():
    out = ask(TWO + 'Ann casts instant "Shock" targeting Ben\n', "legal")
    assert out["legal"] is True
    assert {"115.1", "601.2c", "117.1a", "304.1"} <= rules(out)


def test_115_1a_601_2c_a_cast_changes_no_life_total():
    out = answers(TWO + 'Ann casts instant "Shock" targeting Ben\nask outcome\n')[0]
    assert out["life"] == {"Ann": 20, "Ben": 20}


def test_702_11c_hexproof_stops_an_opponents_spell():
    out = ask(TWO + "Ben has hexproof\n" + 'Ann casts instant "Shock" targeting Ben\n', "legal")
    assert out["legal"] is False and broken(out) == {"702.11c"}
    assert {"601.2c", "115.1"} <= rules(out)
    assert out["violations"][0]["objects"] == ["Shock", "Ben"]


def test_702_11c_hexproof_lets_the_player_target_themself():
    out = ask(
        TWO + "Ann has hexproof\n" + 'Ann casts instant "Healing Salve" targeting Ann\n', "legal"
    )
    assert out["legal"] is True and "702.11c" in rules(out)


def test_702_11c_a_teammate_may_target_a_hexproof_player_in_two_headed_giant():
    text = GIANTS + "Ben has hexproof\n" + 'Ann casts instant "Giant Growth" targeting Ben\n'
    assert ask(text, "legal")["legal"] is True
    text = (
        GIANTS + "priority: Cat\nBen has hexproof\n" + 'Cat casts instant "Shock" targeting Ben\n'
    )
    assert broken(ask(text, "legal")) == {"702.11c"}


def test_702_11b_hexproof_permanent_stops_only_opponents():
    text = TWO + 'Ben controls creature "Slippery Bogle" 1/1 with hexproof\n'
    out = ask(text + 'Ann casts instant "Shock" targeting "Slippery Bogle"\n', "legal")
    assert broken(out) == {"702.11b"}
    out = ask(
        text + 'priority: Ben\nBen casts instant "Giant Growth" targeting "Slippery Bogle"\n',
        "legal",
    )
    assert out["legal"] is True


def test_702_18a_shroud_stops_everyone_even_the_holder():
    out = ask(
        TWO + "Ann has shroud\n" + 'Ann casts instant "Healing Salve" targeting Ann\n', "legal"
    )
    assert broken(out) == {"702.18a"}
    text = TWO + 'Ann controls creature "Troll" 2/2 with shroud\n'
    out = ask(text + 'Ann casts instant "Giant Growth" targeting "Troll"\n', "legal")
    assert broken(out) == {"702.18a"}


def test_702_16b_protection_from_a_color_stops_spells_of_that_color():
    text = TWO + "Ben has protection from red\n"
    out = ask(text + 'Ann casts instant "Shock" with color red targeting Ben\n', "legal")
    assert broken(out) == {"702.16b"}
    out = ask(text + 'Ann casts instant "Chill" with color blue targeting Ben\n', "legal")
    assert out["legal"] is True and "702.16b" in rules(out)
    out = ask(text + 'Ann casts instant "Shock" targeting Ben\n', "legal")
    assert out["legal"] is True


def test_702_16b_a_multicolored_spell_with_the_color_is_stopped():
    text = TWO + "Ben has protection from green\n"
    out = ask(
        text + 'Ann casts instant "Boros Charm" with color red with color green targeting Ben\n',
        "legal",
    )
    assert broken(out) == {"702.16b"}


def test_115_1c_an_activated_ability_targets_too():
    text = TWO + "Ben has shroud\n"
    out = ask(text + 'Ann activates "Prodigal Sorcerer" targeting Ben\n', "legal")
    assert broken(out) == {"702.18a"} and {"115.1c", "117.1b"} <= rules(out)


def test_115_1_several_targets_each_judged():
    text = TWO + "Ben has hexproof\n" + 'Ann controls creature "Bear" 2/2\n'
    out = ask(text + 'Ann casts sorcery "Arc" targeting Ben, "Bear"\n', "legal")
    assert broken(out) == {"702.11c"}


def test_702_16b_an_object_with_protection_and_a_colored_ability_source():
    # Object colors and protection come from the combat rules' abilities (702.16).
    text = TWO + (
        'Ben controls creature "Knight" 2/2 with protection from black\n'
        'Ann controls creature "Vampire" 2/2 with color black\n'
    )
    out = ask(text + 'Ann activates "Vampire" targeting "Knight"\n', "legal")
    assert broken(out) == {"702.16b"} and "115.1c" in rules(out)
    out = ask(text + 'Ann casts instant "Shock" with color red targeting "Knight"\n', "legal")
    assert out["legal"] is True


def test_115_1_a_spell_on_the_stack_may_be_targeted():
    text = TWO + 'priority: Ben\nstack: "Lightning Bolt" controlled by Ann\n'
    out = ask(text + 'Ben casts instant "Counterspell" targeting "Lightning Bolt"\n', "legal")
    assert out["legal"] is True
