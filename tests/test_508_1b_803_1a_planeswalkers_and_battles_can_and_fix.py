"""506.2, 508.1b, 803.1a, 802.3: with attack left, Ann may attack Ben (her
left neighbour), the planeswalkers Ben controls and the battles Ben protects
(whoever controls them), and no planeswalker of Cat's nor battle Cat
protects. `ask can` says so for each, and `ask fix` of an attack on Cat's
planeswalker finds the closest legal declarations: drop the attack, or point
it at Ben, his planeswalker or the battle he protects (4 of them, one change
each). The interaction matrix's tests of loyalty and defense counters
(a planeswalker, a battle) with `ask can` and `ask fix`."""

from __future__ import annotations

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()

TABLE = (
    "players: Ann, Ben, Cat\noption: attack-left\nphase: declare-attackers\n"
    'Ann controls creature "Hill Giant" 3/3\n'
    'Ben controls planeswalker "Jace Beleren" loyalty 3\n'
    'Cat controls planeswalker "Liliana" loyalty 3\n'
    'Cat controls battle "Invasion of Tarkir" defense 4 protected by Ben\n'
    'Ben controls battle "Invasion of Zendikar" defense 4 protected by Cat\n'
)


def answers(text: str, status: int = 0) -> list[dict]:
    result = answer_text(text, "walkers.mtg", Limits(), engine=ENGINE)
    assert result.status == status, result.error
    return result.output["answers"]


def test_508_1b_803_1a_what_the_giant_can_attack():
    asks = "".join(
        f'ask can "Hill Giant" attack "{x}"\n'
        for x in ("Jace Beleren", "Invasion of Tarkir", "Liliana", "Invasion of Zendikar")
    )
    jace, tarkir, liliana, zendikar = answers(TABLE + asks)
    assert jace["can"] is True and tarkir["can"] is True
    assert liliana["can"] is False and zendikar["can"] is False
    assert "803.1a" in liliana["forbidden_by"] and "803.1a" in zendikar["forbidden_by"]


def test_803_1a_the_fix_of_an_attack_on_a_planeswalker_of_cats():
    (fix,) = answers(TABLE + '"Hill Giant" attacks "Liliana"\nask fix\n')
    assert fix["legal"] is False and fix["count"] == 4
    closest = [
        [{"remove": "Hill Giant attacks Liliana"}],
        *(
            [{"change": "Hill Giant attacks Liliana", "to": f"Hill Giant attacks {x}"}]
            for x in ("Ben", "Jace Beleren", "Invasion of Tarkir")
        ),
    ]
    assert fix["changes"] in closest
    assert "803.1a" in fix["rules"]
