"""506.2a, 801.3, 809.3c, 802.2: who defends when an attack is declared at
an opponent out of reach. In Emperor a general may attack only the opponent
seated next to her (809.3c), so that opponent is the defending player
(506.2a: the choice is dictated) even when another attack of the same
declaration aims at an opponent out of reach: only that attack is illegal,
and `ask fix` drops only it. With attack multiple players and a limited range
of influence, the defending players named are the opponents in range (801.3
with 802.2, the spec's section 11), and an attack on one out of range breaks
801.3, not 802.2."""

from __future__ import annotations

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()

EMPEROR = (
    "game: emperor\nplayers: Ann, Ben, Cat, Dan, Eve, Fay\n"
    "team Red: Ann, Ben, Cat\nteam Blue: Dan, Eve, Fay\nemperor: Ben\nemperor: Eve\n"
    "active: Ann\nphase: declare-attackers\n"
    'Ann controls creature "Hill Giant" 3/3\nAnn controls creature "Runeclaw Bear" 2/2\n'
    '"Hill Giant" attacks Fay\n"Runeclaw Bear" attacks Dan\n'
)
RANGE = (
    "game: free-for-all\noption: attack-multiple-players\noption: range-of-influence 1\n"
    "players: Ann, Ben, Cat, Dan, Eve\nactive: Ann\nphase: declare-attackers\n"
    'Ann controls creature "Hill Giant" 3/3\n'
)


def answers(text: str, status: int) -> list[dict]:
    result = answer_text(text, "reach.mtg", Limits(), engine=ENGINE)
    assert result.status == status, result.error
    return result.output["answers"]


def test_809_3c_506_2a_an_attack_out_of_reach_leaves_the_dictated_defender():
    legal, defending, fix = answers(EMPEROR + "ask legal\nask defending players\nask fix\n", 1)
    # Ann (a general, seat 1) sits next to Ben and Fay; Fay is her only adjacent opponent
    assert {tuple(v["objects"]) for v in legal["violations"]} == {("Runeclaw Bear", "Dan")}
    assert "809.3c" in legal["rules"]
    assert defending["players"] == ["Fay"] and "506.2a" in defending["rules"]
    # one change: drop the attack on Dan, or point it at Fay (2 closest declarations)
    assert fix["count"] == 2
    assert fix["changes"] in (
        [{"remove": "Runeclaw Bear attacks Dan"}],
        [{"change": "Runeclaw Bear attacks Dan", "to": "Runeclaw Bear attacks Fay"}],
    )


def test_801_3_802_2_the_defending_players_are_the_opponents_in_range():
    (defending,) = answers(RANGE + "ask defending players\n", 0)
    # range 1 from seat 1 of 5: Ben (seat 2) and Eve (seat 5)
    assert defending["players"] == ["Ben", "Eve"]
    assert "801.3" in defending["rules"] and "802.2" in defending["rules"]


def test_801_3_an_attack_out_of_range_breaks_801_3_only():
    (legal,) = answers(RANGE + '"Hill Giant" attacks Cat\nask legal\n', 1)
    assert [(v["rule"], v["objects"]) for v in legal["violations"]] == [
        ("801.3", ["Hill Giant", "Cat"])
    ]
