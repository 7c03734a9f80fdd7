"""702.16e: damage that would be dealt by a source with the quality a player
has protection from is prevented (702.16b-e apply to a player with
protection as to a permanent); damage from other sources is dealt as usual
(120.3a: damage to a player is life loss). The interaction matrix's test of
a player's protection with `ask outcome`."""

from __future__ import annotations

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

SCENARIO = """players: Ann, Ben
Ben has protection from red
Ann controls creature "Flame Sprite" 1/1 with color red
Ann controls creature "Runeclaw Bear" 2/2
"Flame Sprite" deals 1 damage to Ben
"Runeclaw Bear" deals 2 damage to Ben
ask outcome
"""


def test_702_16e_damage_from_a_red_source_to_a_player_with_protection_is_prevented():
    result = answer_text(SCENARIO, "p.mtg", Limits(), engine=Engine())
    assert result.status == 0, result.error
    (outcome,) = result.output["answers"]
    # the red sprite's 1 is prevented; the colorless bear's 2 is life loss
    assert outcome["life"] == {"Ann": 20, "Ben": 18}
    assert "702.16e" in outcome["rules"]
    assert "120.3a" in outcome["rules"]
