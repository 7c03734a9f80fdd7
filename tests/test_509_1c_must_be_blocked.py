"""509.1c: "must be blocked if able" (spec section 13), a requirement on the
defending player: if any of their untapped creatures can block the attacker,
at least one must, and the player chooses which. A declaration of blockers
is legal only if it obeys as many requirements as a declaration can without
breaking a restriction, counting these with "blocks each combat if able".
"""

from __future__ import annotations

from helpers.answering import engine

from mtgkb.running.runner import answer_text

TABLE = "players: Rob, Alex\nactive: Rob\n"
LURE = (
    TABLE
    + 'Rob controls creature "Goblin Bait" 1/1 with must be blocked if able\n'
    + 'Rob controls creature "Hill Giant" 3/3\n'
    + '"Goblin Bait" attacks Alex\n'
    + '"Hill Giant" attacks Alex\n'
)
TWO_BLOCKERS = 'Alex controls creature "Wall" 0/4\nAlex controls creature "Bear" 2/2\n'


def _answers(text: str) -> dict:
    return {a["ask"]: a for a in answer_text(text, "x.mtg", engine=engine()).output["answers"]}


def test_509_1c_leaving_it_unblocked_while_a_creature_could_block_is_illegal():
    text = LURE + TWO_BLOCKERS + '"Wall" blocks "Hill Giant"\nask legal\n'
    legal = _answers(text)["legal"]
    assert legal["legal"] is False
    assert [v["rule"] for v in legal["violations"]] == ["509.1c"]
    assert legal["violations"][0]["objects"] == ["Goblin Bait"]
    assert answer_text(text, "x.mtg", engine=engine()).status == 1


def test_509_1c_the_defending_player_chooses_which_creature_blocks_it():
    for blocker in ("Wall", "Bear"):
        text = LURE + TWO_BLOCKERS + f'"{blocker}" blocks "Goblin Bait"\nask legal\n'
        assert _answers(text)["legal"]["legal"] is True


def test_509_1c_legal_declarations_are_those_that_block_it():
    # Wall and Bear each block Goblin Bait, Hill Giant or nothing (9 ways);
    # the requirement keeps those where one of them blocks Goblin Bait: 5
    blocks = _answers(LURE + TWO_BLOCKERS + "ask blocks for Alex\n")["blocks"]
    assert (blocks["count"], blocks["complete"]) == (5, True)
    assert all("Goblin Bait" in a.values() for a in blocks["assignments"])
    assert "509.1c" in blocks["rules"]


def test_509_1c_with_no_untapped_creature_able_to_block_nothing_is_required():
    tapped = 'Alex controls creature "Tired Bear" 2/2 with tapped\n'
    text = LURE + tapped + "ask legal\nask blocks for Alex\n"
    answers = _answers(text + "phase: declare-blockers\n")
    assert answers["legal"]["legal"] is True
    assert answers["blocks"]["count"] == 1  # no block at all


def test_509_1c_a_restriction_can_make_the_requirement_impossible():
    # "can't be blocked except by 2 or more" with one creature: no legal block of
    # it exists, so leaving it unblocked obeys as many requirements as possible
    text = (
        TABLE
        + 'Rob controls creature "Brute" 4/4 with must be blocked if able, menace\n'
        + '"Brute" attacks Alex\n'
        + 'Alex controls creature "Bear" 2/2\n'
        + "phase: declare-blockers\nask legal\nask blocks for Alex\n"
    )
    answers = _answers(text)
    assert answers["legal"]["legal"] is True
    assert answers["blocks"]["count"] == 1


def test_509_1c_the_cr_example_with_menace_and_a_creature_that_blocks_if_able():
    # 509.1c's example: one creature "blocks if able", another has no ability,
    # and a creature with menace attacks: both must block it
    text = (
        TABLE
        + 'Rob controls creature "Menace" 2/2 with menace\n"Menace" attacks Alex\n'
        + 'Alex controls creature "Eager" 1/1 with blocks each combat if able\n'
        + 'Alex controls creature "Plain" 1/1\n'
    )
    blocks = _answers(text + "ask blocks for Alex\n")["blocks"]
    assert blocks["count"] == 1
    assert blocks["assignments"] == [{"Eager": "Menace", "Plain": "Menace"}]
    only_first = text + '"Eager" blocks "Menace"\nask legal\n'
    assert "702.111b" in [v["rule"] for v in _answers(only_first)["legal"]["violations"]]
    neither = text + "phase: declare-blockers\nask legal\n"
    assert [v["rule"] for v in _answers(neither)["legal"]["violations"]] == ["509.1c"]


def test_509_1c_requirements_add_up_across_both_forms():
    # Sentry "blocks each combat if able"; Goblin Bait must be blocked if able.
    # Sentry blocking Goblin Bait obeys both; blocking Hill Giant obeys one only.
    text = LURE + 'Alex controls creature "Sentry" 1/4 with blocks each combat if able\n'
    wrong = text + '"Sentry" blocks "Hill Giant"\nask legal\n'
    legal = _answers(wrong)["legal"]
    assert legal["legal"] is False
    assert [v["rule"] for v in legal["violations"]] == ["509.1c"]
    blocks = _answers(text + "ask blocks for Alex\n")["blocks"]
    assert blocks["assignments"] == [{"Sentry": "Goblin Bait"}]


def test_509_1c_ask_fix_proposes_the_closest_block_that_obeys_it():
    text = LURE + TWO_BLOCKERS + '"Wall" blocks "Hill Giant"\nask fix\n'
    fix = _answers(text)["fix"]
    assert fix["legal"] is False
    # one change: point Wall at Goblin Bait, or add Bear blocking it
    assert fix["count"] == 2
    assert len(fix["changes"]) == 1
    assert fix["changes"][0] in (
        {"change": "Wall blocks Hill Giant", "to": "Wall blocks Goblin Bait"},
        {"add": "Bear blocks Goblin Bait"},
    )
    assert "509.1c" in fix["rules"]


def test_509_1c_ask_can_judges_a_block_among_the_legal_declarations():
    text = LURE + 'Alex controls creature "Bear" 2/2\n'
    yes = _answers(text + 'ask can "Bear" block "Goblin Bait"\n')["can"]
    assert yes["can"] is True
    # with Bear the only creature, blocking Hill Giant leaves Goblin Bait unblocked
    no = _answers(text + 'ask can "Bear" block "Hill Giant"\n')["can"]
    assert no["can"] is False
    assert no["forbidden_by"] == ["509.1c"]


def test_509_1c_ask_explain_cites_the_requirement():
    text = LURE + TWO_BLOCKERS + "phase: declare-blockers\nask explain legal\n"
    explain = _answers(text)["explain"]
    assert "509.1c" in explain["rules"]


def test_509_1c_ask_explain_blocks_names_the_requirement_of_the_attacker():
    explain = _answers(LURE + TWO_BLOCKERS + "ask blocks for Alex\nask explain blocks\n")["explain"]
    assert "509.1c" in explain["rules"]
    assert "Goblin Bait must be blocked if able" in str(explain["tree"])


def test_509_1c_805_10d_a_teammate_of_the_attacked_player_may_obey_it():
    # 805.10d: the defending team blocks as one, so the requirement binds the team
    text = (
        "game: two-headed-giant\nplayers: Rob, Ria, Alex, Ann\n"
        "team Giants: Rob, Ria\nteam Others: Alex, Ann\nactive: Rob\n"
        'Rob controls creature "Bait" 1/1 with must be blocked if able\n'
        'Alex controls creature "Wall" 0/4 with tapped\n'
        'Ann controls creature "Bear" 2/2\n'
        '"Bait" attacks Alex\nphase: declare-blockers\nask legal\nask blocks\n'
    )
    answers = _answers(text)
    assert [v["rule"] for v in answers["legal"]["violations"]] == ["509.1c"]
    assert answers["blocks"]["assignments"] == [{"Bear": "Bait"}]
    assert {"509.1c", "805.10d"} <= set(answers["blocks"]["rules"])
    blocked = text.replace("phase: declare-blockers\n", '"Bear" blocks "Bait"\n')
    assert _answers(blocked)["legal"]["legal"] is True
