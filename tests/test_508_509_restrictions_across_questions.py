"""Each restriction and requirement on attacking and blocking (508.1a-d,
509.1a-c and the keyword abilities that make them) seen from every question
it decides: `ask legal` names the rule, `ask outcome` flags the illegal play
(spec, section 11), `ask fix` mends it, `ask can` refuses the play, and the
listings (`ask attacks`, `ask blocks`, `ask attack targets`) leave it out.
The expectations come from the CR rule of each ability; these are the
interaction matrix's tests of those pairs (tests/interaction_matrix.toml)."""

from __future__ import annotations

import pytest

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()

ATTACK = """players: Ann, Ben
active: Ann
phase: declare-attackers
Ann controls creature "Hill Giant" 3/3
Ann controls creature "X" 2/2 with {ability}
{declared}
ask legal
ask outcome
ask fix
ask can "X" attack Ben
ask attack targets for "X"
ask attacks
"""

BLOCK = """players: Ann, Ben
active: Ann
phase: declare-blockers
Ann controls creature "A" 2/2{attacker}
Ben controls creature "B" 2/2{blocker}
Ben controls creature "Grizzly Bears" 2/2
{setup}
"A" attacks Ben
{declared}
ask legal
ask outcome
ask fix
ask can "B" block "A"
ask blocks for Ben
"""


def answers(text: str) -> dict[str, dict]:
    result = answer_text(text, "case.mtg", Limits(), engine=ENGINE)
    assert result.status in (0, 1), result.error
    out = {}
    for answer in result.output["answers"]:
        out.setdefault(answer["ask"], answer)
    return out


def rules_of(answer: dict) -> set[str]:
    found = set(answer.get("rules", []))
    for v in answer.get("violations", []):
        found.add(v["rule"])
    return found


def illegal_everywhere(found: dict, rule: str) -> None:
    """The play breaks `rule`: legal says so, outcome flags it, fix mends it, can refuses."""
    assert found["legal"]["legal"] is False
    assert rule in {v["rule"] for v in found["legal"]["violations"]}
    assert found["outcome"].get("illegal_play") is True
    assert rule in rules_of(found["outcome"])
    assert found["fix"]["legal"] is False and found["fix"]["changes"]
    assert found["fix"]["count"] >= 1


# --------------------------------------------------------------------------
# 508.1a-c: a creature that may not attack


@pytest.mark.parametrize(
    ("ability", "rule"),
    [
        ("defender", "702.3b"),  # 702.3b: a creature with defender can't attack
        ("can't attack", "508.1c"),  # 508.1c: a restriction on attacking
        ("tapped", "508.1a"),  # 508.1a: only untapped creatures attack
        ("summoning-sick", "508.1a"),  # 508.1a, 302.6: continuous control since the turn began
        ("can't attack Ben", "508.1c"),  # 508.1c: a restriction naming the player
    ],
)
def test_508_1_a_creature_that_cant_attack_in_every_question(ability, rule):
    found = answers(ATTACK.format(ability=ability, declared='"X" attacks Ben'))
    illegal_everywhere(found, rule)
    assert found["can"]["can"] is False
    assert "Ben" not in found["attack-targets"]["targets"]
    assert all(a.get("X") != "Ben" for a in found["attacks"]["assignments"])
    # 508.1a: the Hill Giant may still attack or not: two declarations
    assert found["attacks"]["count"] == 2


def test_702_10_haste_lifts_summoning_sickness_in_every_question():
    # 702.10b: a creature with haste can attack though summoning sick (508.1a, 302.6)
    found = answers(ATTACK.format(ability="summoning-sick, haste", declared='"X" attacks Ben'))
    assert found["legal"]["legal"] is True
    assert "illegal_play" not in found["outcome"]
    assert found["fix"]["legal"] is True
    assert found["can"]["can"] is True
    assert found["attack-targets"]["targets"] == ["Ben"]
    assert found["attacks"]["count"] == 4  # 508.1a: each of two creatures attacks or not


def test_508_1c_cant_attack_alone_in_every_question():
    # 508.1c: X may attack only with another creature
    found = answers(ATTACK.format(ability="can't attack alone", declared='"X" attacks Ben'))
    illegal_everywhere(found, "508.1c")
    assert found["can"]["can"] is True  # the Hill Giant may join it
    assert found["attack-targets"]["targets"] == ["Ben"]
    attacks = found["attacks"]["assignments"]
    assert all("Hill Giant" in a for a in attacks if "X" in a)
    assert found["attacks"]["count"] == 3  # none, the Giant alone, both


def test_508_1d_attacks_each_combat_if_able_in_every_question():
    # 508.1d: the requirement is obeyed as far as possible: X must attack
    found = answers(
        ATTACK.format(ability="attacks each combat if able", declared='"Hill Giant" attacks Ben')
    )
    illegal_everywhere(found, "508.1d")
    assert found["can"]["can"] is True
    assert found["attack-targets"]["targets"] == ["Ben"]
    assert all(a.get("X") == "Ben" for a in found["attacks"]["assignments"])
    assert found["attacks"]["count"] == 2  # X alone, or X with the Giant


# --------------------------------------------------------------------------
# 509.1a-c: a creature that may not block, or an attacker it may not block


@pytest.mark.parametrize(
    ("attacker", "blocker", "setup", "rule"),
    [
        (" with flying", "", "", "702.9b"),  # 702.9b: only flying or reach blocks a flyer
        (" with shadow", "", "", "702.28b"),  # 702.28b: only shadow blocks shadow
        # 702.14c: landwalk, the defending player controls a land of that type
        (" with mountainwalk", "", 'Ben controls land "Mountain" with type mountain', "702.14c"),
        ("", " with can't block", "", "509.1b"),  # 509.1b: a restriction on blocking
        ("", " with tapped", "", "509.1a"),  # 509.1a: only untapped creatures block
    ],
)
def test_509_1_a_block_that_cant_be_made_in_every_question(attacker, blocker, setup, rule):
    text = BLOCK.format(attacker=attacker, blocker=blocker, setup=setup, declared='"B" blocks "A"')
    found = answers(text)
    illegal_everywhere(found, rule)
    assert found["can"]["can"] is False
    assert all(a.get("B") != "A" for a in found["blocks"]["assignments"])


def test_702_111b_menace_in_every_question():
    # 702.111b: a creature with menace can't be blocked except by two or more creatures
    text = BLOCK.format(attacker=" with menace", blocker="", setup="", declared='"B" blocks "A"')
    found = answers(text)
    illegal_everywhere(found, "702.111b")
    assert found["can"]["can"] is True  # the Grizzly Bears may join the block
    blocks = found["blocks"]["assignments"]
    assert blocks == [{}, {"B": "A", "Grizzly Bears": "A"}]


def test_509_1b_cant_block_alone_in_every_question():
    text = BLOCK.format(
        attacker="", blocker=" with can't block alone", setup="", declared='"B" blocks "A"'
    )
    found = answers(text)
    illegal_everywhere(found, "509.1b")
    assert found["can"]["can"] is True  # the Grizzly Bears may block with it
    blocks = found["blocks"]["assignments"]
    assert all("Grizzly Bears" in a for a in blocks if "B" in a)


def test_509_1c_blocks_each_combat_if_able_in_every_question():
    # 509.1c: the requirement is obeyed as far as possible: B must block
    text = BLOCK.format(
        attacker="", blocker=" with blocks each combat if able", setup="", declared=""
    )
    found = answers(text)
    illegal_everywhere(found, "509.1c")
    assert found["can"]["can"] is True
    assert all(a.get("B") == "A" for a in found["blocks"]["assignments"])


def test_702_17b_reach_blocks_a_flyer_in_every_question():
    # 702.17b: a creature with reach can block a creature with flying (702.9b)
    text = BLOCK.format(
        attacker=" with flying", blocker=" with reach", setup="", declared='"B" blocks "A"'
    )
    found = answers(text)
    assert found["legal"]["legal"] is True
    assert "illegal_play" not in found["outcome"]
    assert found["fix"]["legal"] is True
    assert found["can"]["can"] is True
    # 702.9b: only B may block the flyer: no block, or B
    assert found["blocks"]["assignments"] == [{}, {"B": "A"}]


def test_702_111b_outcome_flags_the_very_violations_legal_names_each_its_own():
    # spec section 11: `ask outcome` judges the declared play with `ask legal`'s
    # model (one solve), and lists the violations `ask legal` names, where each
    # was written (here 702.111b, menace, on the block's line); each answer
    # holds its own copies (the file's session reads them once)
    text = BLOCK.format(attacker=" with menace", blocker="", setup="", declared='"B" blocks "A"')
    result = answer_text(text, "case.mtg", Limits(), engine=ENGINE)
    legal, outcome = (a for a in result.output["answers"] if a["ask"] in ("legal", "outcome"))
    assert outcome["violations"] == legal["violations"]
    assert [v["rule"] for v in legal["violations"]] == ["702.111b"]
    assert legal["violations"][0]["line"] == text.splitlines().index('"B" blocks "A"') + 1
    assert outcome["violations"][0] is not legal["violations"][0]
    assert outcome["violations"][0]["objects"] is not legal["violations"][0]["objects"]
