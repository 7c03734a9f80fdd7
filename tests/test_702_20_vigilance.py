"""702.20b, 508.1f: attacking taps a creature unless it has vigilance."""

from helpers import ask, attack, creature, only_model
from helpers import combat_table as table

SHOW = "#show taps_to_attack/1. #show untapped_attacker/1. #show because/2.\n"


def test_702_20b_508_1f_a_vigilant_attacker_stays_untapped_and_others_tap():
    facts = table(["Ann", "Ben"]) + creature("Ann", "Knight", 2, 2, "vigilance")
    facts += creature("Ann", "Bear", 2, 2) + attack("Knight", "Ben") + attack("Bear", "Ben")
    model = only_model("damage_order", facts + SHOW + ask("damage_order"))
    assert 'untapped_attacker("Knight")' in model
    assert 'taps_to_attack("Bear")' in model
    assert 'taps_to_attack("Knight")' not in model
    assert 'because(untapped_attacker("Knight"),rule("702.20b"))' in model
    assert 'because(taps_to_attack("Bear"),rule("508.1f"))' in model
