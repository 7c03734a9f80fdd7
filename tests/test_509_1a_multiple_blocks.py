"""509.1a, 510.1d: blockers of several attackers (spec section 13): "can
block an additional creature" (two attackers), "can block any number of
creatures", the declaration `"B" blocks "C", "D"` and the blocker's damage.

509.1a: each chosen creature blocks one attacker, unless an effect lets it
block more; naming more attackers than it may block is an illegal
declaration (exit 1), not an input error. 510.1d: a creature blocking two or
more attackers divides its combat damage among them as its controller
chooses.
"""

from __future__ import annotations

from math import comb

from helpers.answering import engine

from mtgkb.running.runner import answer_text

TABLE = "players: Rob, Alex\nactive: Rob\n"
THREE_ATTACKERS = (
    TABLE
    + 'Rob controls creature "Grizzly Bears" 2/2\n'
    + 'Rob controls creature "Hill Giant" 3/3\n'
    + 'Rob controls creature "Elite Vanguard" 2/1\n'
    + '"Grizzly Bears" attacks Alex\n"Hill Giant" attacks Alex\n"Elite Vanguard" attacks Alex\n'
)
ADDITIONAL = 'Alex controls creature "Palace Guard" 1/4 with can block an additional creature\n'
ANY_NUMBER = ADDITIONAL.replace("an additional creature", "any number of creatures")


def _result(text: str):
    return answer_text(text, "x.mtg", engine=engine())


def _answers(text: str) -> dict:
    return {a["ask"]: a for a in _result(text).output["answers"]}


def test_509_1a_an_additional_creature_lets_it_block_two():
    text = THREE_ATTACKERS + ADDITIONAL + '"Palace Guard" blocks "Grizzly Bears", "Hill Giant"\n'
    assert _answers(text + "ask legal\n")["legal"]["legal"] is True
    assert _result(text + "ask legal\n").status == 0


def test_509_1a_blocking_three_with_one_additional_is_illegal_not_bad_input():
    text = (
        THREE_ATTACKERS
        + ADDITIONAL
        + '"Palace Guard" blocks "Grizzly Bears", "Hill Giant", "Elite Vanguard"\nask legal\n'
    )
    result = _result(text)
    assert result.status == 1
    legal = _answers(text)["legal"]
    assert legal["legal"] is False
    assert [v["rule"] for v in legal["violations"]] == ["509.1a"]
    assert legal["violations"][0]["objects"] == ["Palace Guard"]


def test_509_1a_without_the_ability_a_creature_blocks_one_attacker():
    plain = ADDITIONAL.replace(" with can block an additional creature", "")
    text = THREE_ATTACKERS + plain + '"Palace Guard" blocks "Grizzly Bears", "Hill Giant"\n'
    legal = _answers(text + "ask legal\n")["legal"]
    assert [v["rule"] for v in legal["violations"]] == ["509.1a"]


def test_509_1a_any_number_of_creatures_lets_it_block_all_three():
    text = (
        THREE_ATTACKERS
        + ANY_NUMBER
        + '"Palace Guard" blocks "Grizzly Bears", "Hill Giant", "Elite Vanguard"\nask legal\n'
    )
    assert _answers(text)["legal"]["legal"] is True


def test_509_1a_blocks_are_counted_by_the_attackers_each_may_block():
    # up to two of three attackers: 1 + 3 + 3; any number: every subset, 2^3
    additional = _answers(THREE_ATTACKERS + ADDITIONAL + "ask blocks for Alex\n")["blocks"]
    assert (additional["count"], additional["complete"]) == (1 + 3 + comb(3, 2), True)
    anyn = _answers(THREE_ATTACKERS + ANY_NUMBER + "ask blocks for Alex limit 8\n")["blocks"]
    assert (anyn["count"], anyn["complete"]) == (2**3, True)
    listed = {str(sorted(a.items())) for a in anyn["assignments"]}
    assert len(listed) == 8
    every = {"Palace Guard": ["Elite Vanguard", "Grizzly Bears", "Hill Giant"]}
    assert every in anyn["assignments"]


def test_509_1a_restrictions_still_apply_to_each_attacker():
    # 702.9b: a flyer among the attackers can't be blocked by it
    flyer = THREE_ATTACKERS.replace('"Hill Giant" 3/3', '"Hill Giant" 3/3 with flying')
    blocks = _answers(flyer + ANY_NUMBER + "ask blocks for Alex\n")["blocks"]
    assert blocks["count"] == 2**2
    text = flyer + ANY_NUMBER + '"Palace Guard" blocks "Grizzly Bears", "Hill Giant"\nask legal\n'
    assert [v["rule"] for v in _answers(text)["legal"]["violations"]] == ["702.9b"]


def test_509_1a_ask_can_judges_a_block_of_several():
    ok = _answers(
        THREE_ATTACKERS
        + ADDITIONAL
        + 'ask can "Palace Guard" block "Grizzly Bears", "Hill Giant"\n'
    )
    assert ok["can"]["can"] is True
    three = 'ask can "Palace Guard" block "Grizzly Bears", "Hill Giant", "Elite Vanguard"\n'
    no = _answers(THREE_ATTACKERS + ADDITIONAL + three)["can"]
    assert no["can"] is False
    assert no["forbidden_by"] == ["509.1a"]


def test_509_1a_ask_fix_drops_one_block_too_many():
    text = (
        THREE_ATTACKERS
        + ADDITIONAL
        + '"Palace Guard" blocks "Grizzly Bears", "Hill Giant", "Elite Vanguard"\nask fix\n'
    )
    fix = _answers(text)["fix"]
    assert fix["count"] == 3  # any one of the three blocks may go
    assert len(fix["changes"]) == 1 and "remove" in fix["changes"][0]


def test_509_1a_an_attacker_named_twice_is_bad_input():
    text = THREE_ATTACKERS + ADDITIONAL + '"Palace Guard" blocks "Grizzly Bears", "Grizzly Bears"\n'
    assert _result(text).status == 2


HUNDRED = (
    TABLE
    + 'Rob controls creature "Grizzly Bears" 2/2\n'
    + 'Rob controls creature "Hill Giant" 3/3\n'
    + 'Alex controls creature "Hundred-Handed One" 3/5 with can block an additional creature\n'
    + '"Grizzly Bears" attacks Alex\n"Hill Giant" attacks Alex\n'
    + '"Hundred-Handed One" blocks "Grizzly Bears", "Hill Giant"\n'
)


def test_510_1d_a_blocker_of_two_divides_its_damage_as_declared():
    text = (
        HUNDRED
        + '"Hundred-Handed One" assigns 1 damage to "Grizzly Bears", 2 damage to "Hill Giant"\n'
        + "combat damage\nask legal\nask outcome\n"
    )
    answers = _answers(text)
    assert answers["legal"]["legal"] is True
    # it is dealt 2 + 3 = 5 damage, lethal; it deals 1 and 2, lethal to neither
    assert answers["outcome"]["destroyed"] == ["Hundred-Handed One"]


def test_510_1d_by_default_it_gives_lethal_damage_in_the_order_written():
    # 2 to Grizzly Bears (lethal), the remaining 1 to Hill Giant
    answers = _answers(HUNDRED + "combat damage\nask outcome\n")
    assert sorted(answers["outcome"]["destroyed"]) == ["Grizzly Bears", "Hundred-Handed One"]


def test_510_1d_every_division_of_its_damage_is_a_legal_assignment():
    asked = _answers(HUNDRED + 'ask assignments for "Hundred-Handed One"\n')["assignments"]
    # power 3 divided between two attackers in any way: 0+3, 1+2, 2+1, 3+0
    assert (asked["count"], asked["complete"]) == (4, True)
    assert "510.1d" in asked["rules"]


def test_509_1a_ask_explain_blocks_says_how_many_it_may_block():
    text = THREE_ATTACKERS + ADDITIONAL + "ask blocks for Alex\nask explain blocks\n"
    explain = _answers(text)["explain"]
    assert "Palace Guard may block up to 2 attackers" in str(explain["tree"])
    assert "509.1a" in explain["rules"]
