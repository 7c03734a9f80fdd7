"""702.19b, 702.19c, 702.2c: `ask fix` on a declared combat damage
assignment of a trampler. Lethal damage to the blockers comes first (702.19b),
counting damage already marked on them and their toughness after counters
(702.19b; 122.1: a -1/-1 counter lowers toughness), 1 being lethal from a
source with deathtouch (702.2c); with trample over planeswalkers the excess
beyond lethal to the planeswalker goes on to its controller (702.19c). A legal
assignment needs no fix; an illegal one is not mended by any change of attacks
and blocks (`ask fix` changes only those, spec section 10), so it stays under
`remaining` with its rule. The interaction matrix's tests of these features
with `ask fix`."""

from __future__ import annotations

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()


def fix_of(giant: str, bears: str, assignment: str) -> dict:
    text = (
        "players: Ann, Ben\nphase: combat-damage\n"
        f'Ann controls creature "Hill Giant" 3/3 with {giant}\n'
        f'Ben controls creature "Grizzly Bears" 2/2{bears}\n'
        '"Hill Giant" attacks Ben\n"Grizzly Bears" blocks "Hill Giant"\n'
        f'"Hill Giant" assigns {assignment}\nask fix\n'
    )
    result = answer_text(text, "fix.mtg", Limits(), engine=ENGINE)
    assert result.status == 0, result.error
    (fix,) = result.output["answers"]
    return fix


ONE_THEN_TWO = '1 damage to "Grizzly Bears", 2 damage to Ben'


def test_702_19b_trample_past_a_blocker_not_dealt_lethal_damage_stays_unfixed():
    # Grizzly Bears (toughness 2) needs 2 before any damage goes on to Ben
    fix = fix_of("trample", "", ONE_THEN_TWO)
    assert fix["legal"] is False and fix["changes"] == []
    assert [v["rule"] for v in fix["remaining"]] == ["702.19b"]
    assert "702.19b" in fix["rules"]


def test_702_2c_with_deathtouch_one_damage_is_lethal_so_nothing_to_fix():
    fix = fix_of("trample, deathtouch", "", ONE_THEN_TWO)
    assert fix["legal"] is True and fix["changes"] == [] and not fix.get("remaining")


def test_702_19b_damage_already_marked_counts_toward_lethal():
    # 1 damage marked on the 2/2: 1 more is lethal
    fix = fix_of("trample", " with damage 1", ONE_THEN_TWO)
    assert fix["legal"] is True and fix["changes"] == [] and not fix.get("remaining")


def test_702_19b_122_1_a_minus_counter_lowers_the_lethal_damage():
    # a -1/-1 counter makes the Bears 1/1: 1 is lethal
    fix = fix_of("trample", " with counters -1/-1 1", ONE_THEN_TWO)
    assert fix["legal"] is True and fix["changes"] == [] and not fix.get("remaining")


def dreadmaw_at_jace(ability: str) -> dict:
    text = (
        "players: Ann, Ben\nphase: combat-damage\n"
        f'Ann controls creature "Colossal Dreadmaw" 6/6 with {ability}\n'
        'Ben controls creature "Grizzly Bears" 2/2\n'
        'Ben controls planeswalker "Jace Beleren" loyalty 3\n'
        '"Colossal Dreadmaw" attacks "Jace Beleren"\n"Grizzly Bears" blocks "Colossal Dreadmaw"\n'
        '"Colossal Dreadmaw" assigns 2 damage to "Grizzly Bears", 3 damage to "Jace Beleren", '
        "1 damage to Ben\nask fix\n"
    )
    result = answer_text(text, "fix.mtg", Limits(), engine=ENGINE)
    assert result.status == 0, result.error
    (fix,) = result.output["answers"]
    return fix


def test_702_19c_trample_over_planeswalkers_sends_the_rest_to_the_controller():
    # lethal to the blocker (2) and to Jace (loyalty 3), the last 1 to Ben
    fix = dreadmaw_at_jace("trample over planeswalkers")
    assert fix["legal"] is True and fix["changes"] == [] and not fix.get("remaining")


def test_702_19b_510_1c_plain_trample_stops_at_the_planeswalker():
    # without 702.19c, a creature attacking Jace can't assign damage to Ben
    fix = dreadmaw_at_jace("trample")
    assert fix["legal"] is False and fix["changes"] == []
    assert [v["rule"] for v in fix["remaining"]] == ["510.1c"]
