"""509.1a, 704.5g, 510.1a: a creature that "can block any number of
creatures" may block each attacker; `ask can` allows it to block both, `ask
fix` finds the declaration legal, and in `ask outcome` the blocker is dealt
the damage of every creature it blocks (3 + 2 on a 1/4: destroyed, 704.5g)
while the player it protects takes none (510.1a: a blocked creature deals
its damage to its blockers). The interaction matrix's tests of the ability
with `ask can`, `ask fix` and `ask outcome`."""

from __future__ import annotations

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()

GUARD = (
    "players: Ann, Ben\nphase: declare-blockers\n"
    'Ann controls creature "Hill Giant" 3/3\nAnn controls creature "Runeclaw Bear" 2/2\n'
    'Ben controls creature "Palace Guard" 1/4{ability}\n'
    '"Hill Giant" attacks Ben\n"Runeclaw Bear" attacks Ben\n'
)
ANY = " with can block any number of creatures"


def answers(text: str, status: int = 0) -> list[dict]:
    result = answer_text(text, "guard.mtg", Limits(), engine=ENGINE)
    assert result.status == status, result.error
    return result.output["answers"]


def test_509_1a_it_can_block_both_attackers():
    ask = 'ask can "Palace Guard" block "Hill Giant", "Runeclaw Bear"\n'
    (can,) = answers(GUARD.format(ability=ANY) + ask)
    assert can["can"] is True and "509.1a" in can["rules"]
    # without the ability, a creature blocks one attacker
    (cannot,) = answers(GUARD.format(ability="") + ask)
    assert cannot["can"] is False and cannot["forbidden_by"] == ["509.1a"]


def test_509_1a_a_block_of_both_attackers_needs_no_fix():
    text = (
        GUARD.format(ability=ANY) + '"Palace Guard" blocks "Hill Giant", "Runeclaw Bear"\nask fix\n'
    )
    (fix,) = answers(text)
    assert fix["legal"] is True and fix["changes"] == []


def test_509_1a_704_5g_the_outcome_of_blocking_both():
    text = (
        GUARD.format(ability=ANY)
        + '"Palace Guard" blocks "Hill Giant", "Runeclaw Bear"\ncombat damage\nask outcome\n'
    )
    (outcome,) = answers(text)
    assert outcome["life"] == {"Ann": 20, "Ben": 20}
    assert outcome["destroyed"] == ["Palace Guard"]
    assert "704.5g" in outcome["rules"]
