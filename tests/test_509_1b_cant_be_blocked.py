"""509.1b, 702.111b: "can't be blocked" and "can't be blocked except by N or
more creatures" (spec section 13), restrictions on the defending player's
declaration of blockers.

509.1b: a declaration that disobeys a restriction is illegal; an evasion
ability is one such restriction. "Can't be blocked" forbids every block of the
creature; "can't be blocked except by N or more creatures" forbids a block of
it by fewer than N creatures, and 702.111b says menace is that restriction
with N = 2.
"""

from __future__ import annotations

from math import comb

from helpers.answering import engine

from mtgkb.running.runner import answer_text

TABLE = "players: Rob, Alex\nactive: Rob\n"


def _answers(text: str) -> dict:
    result = answer_text(text, "x.mtg", engine=engine())
    return {a["ask"]: a for a in result.output["answers"]}


def _status(text: str) -> int:
    return answer_text(text, "x.mtg", engine=engine()).status


PHANTOM = (
    TABLE
    + 'Rob controls creature "Phantom Warrior" 2/2 with can\'t be blocked\n'
    + 'Rob controls creature "Grizzly Bears" 2/2\n'
    + 'Alex controls creature "Wall of Stone" 0/8 with defender\n'
    + '"Phantom Warrior" attacks Alex\n'
    + '"Grizzly Bears" attacks Alex\n'
)


def test_509_1b_a_block_of_a_creature_that_cant_be_blocked_is_illegal():
    text = PHANTOM + '"Wall of Stone" blocks "Phantom Warrior"\nask legal\n'
    legal = _answers(text)["legal"]
    assert legal["legal"] is False
    assert [v["rule"] for v in legal["violations"]] == ["509.1b"]
    assert set(legal["violations"][0]["objects"]) == {"Wall of Stone", "Phantom Warrior"}
    assert _status(text) == 1


def test_509_1b_the_wall_may_block_only_the_other_attacker():
    # conformance c32: the wall blocks the bears or nothing (two declarations)
    blocks = _answers(PHANTOM + "ask blocks for Alex\n")["blocks"]
    assert (blocks["count"], blocks["complete"]) == (2, True)
    assert sorted(map(str, blocks["assignments"])) == sorted(
        map(str, [{}, {"Wall of Stone": "Grizzly Bears"}])
    )
    assert "509.1b" in blocks["rules"]


def test_509_1b_ask_can_names_the_restriction():
    can = _answers(PHANTOM + 'ask can "Wall of Stone" block "Phantom Warrior"\n')["can"]
    assert can["can"] is False
    assert can["forbidden_by"] == ["509.1b"]


OGRE = (
    TABLE
    + 'Rob controls creature "Ogre" 5/5 with can\'t be blocked except by 3 or more creatures\n'
    + '"Ogre" attacks Alex\n'
)


def _defenders(n: int, ability: str = "") -> str:
    extra = f" with {ability}" if ability else ""
    return "".join(f'Alex controls creature "Soldier {i}" 1/1{extra}\n' for i in range(1, n + 1))


def test_509_1b_two_blockers_are_too_few_and_three_are_enough():
    two = OGRE + _defenders(3) + '"Soldier 1" blocks "Ogre"\n"Soldier 2" blocks "Ogre"\nask legal\n'
    legal = _answers(two)["legal"]
    assert legal["legal"] is False
    assert [v["rule"] for v in legal["violations"]] == ["509.1b"]
    assert "3 or more" in legal["violations"][0]["message"]
    three = two.replace("ask legal\n", '"Soldier 3" blocks "Ogre"\nask legal\n')
    assert _answers(three)["legal"]["legal"] is True


def test_509_1b_blocks_of_it_are_counted_exactly():
    # with four untapped creatures: no block, or any three or four of them
    blocks = _answers(OGRE + _defenders(4) + "ask blocks for Alex\n")["blocks"]
    assert blocks["count"] == 1 + comb(4, 3) + comb(4, 4)
    assert blocks["complete"] is True
    assert "509.1b" in blocks["rules"]


def test_702_111b_menace_is_the_restriction_with_two():
    # 702.111b: menace is "can't be blocked except by two or more creatures"
    menace = (
        TABLE + 'Rob controls creature "Heelcutter" 3/2 with menace\n"Heelcutter" attacks Alex\n'
    )
    two = menace.replace("with menace", "with can't be blocked except by 2 or more creatures")
    for n in (1, 2, 3, 4):
        asked = _defenders(n) + "ask blocks for Alex\n"
        counted = _answers(menace + asked)["blocks"]["count"]
        assert counted == _answers(two + asked)["blocks"]["count"]
        assert counted == 2**n - n  # every set of blockers but the single ones


def test_509_1b_only_the_blockers_of_one_defending_player_count():
    # 802.4b: each defending player's blocks are judged on their own
    text = (
        "players: Rob, Alex, Carissa\nactive: Rob\n"
        'Rob controls creature "Ogre" 5/5 with can\'t be blocked except by 2 or more creatures\n'
        'Alex controls creature "Guard" 1/1\n'
        'Carissa controls creature "Sentry" 1/1\n'
        '"Ogre" attacks Alex\n"Guard" blocks "Ogre"\nask legal\n'
    )
    legal = _answers(text)["legal"]
    assert legal["legal"] is False
    assert "509.1b" in [v["rule"] for v in legal["violations"]]


def test_509_1b_the_number_must_be_followed_by_its_words():
    bad = TABLE + 'Rob controls creature "Ogre" 5/5 with can\'t be blocked except by 3 or more\n'
    result = answer_text(bad, "x.mtg", engine=engine())
    assert result.status == 2
    wrong = bad.replace("or more\n", "or fewer creatures\n")
    assert answer_text(wrong, "x.mtg", engine=engine()).status == 2
    word = bad.replace("by 3 or more\n", "by three or more creatures\n")
    assert answer_text(word, "x.mtg", engine=engine()).status == 2


def test_509_1b_ask_explain_blocks_names_the_restriction():
    text = OGRE + _defenders(3) + "ask blocks for Alex\nask explain blocks\n"
    explain = _answers(text)["explain"]
    assert "509.1b" in explain["rules"]
    assert "Ogre can't be blocked except by 3 or more creatures" in str(explain["tree"])
