"""Issue 29, the interaction matrix: pairs of a feature and a kind of question
that were pending, each checked against the rule that decides it.

- 702.16f: a creature with protection from a color can't be blocked by
  creatures of that color (`ask can`, `ask fix`, for each of the five colors).
- 115.1, 601.2c with 702.11, 702.16b, 702.18a: a spell needs legal targets;
  `ask fix` points it at a legal one (issue 29 item 8).
- 702.16b, 702.11d: what a colorless spell may target (`ask can P target X`).
- 702.16e: damage to a creature with protection from everything is prevented.
- 509.1b: a block of a creature that can't be blocked is illegal, and `ask
  outcome` says the play it applies is illegal (spec section 11).
- 509.1c, 510.1c: a required block happens and deals its damage.
- 702.19b, 120.6, 122.1a: lethal damage counts the damage already marked and
  the counters, for `ask legal` on a declared assignment and `ask assignments`.
- 702.19c: trample over planeswalkers lets an assignment go past the loyalty.
"""

import pytest
from helpers.answering import run

# slow tier: the interaction matrix's protection and target pairs, each question by each colour
pytestmark = pytest.mark.slow

COLORS = ["white", "blue", "black", "red", "green"]
TWO = "players: Ann, Ben\nactive: Ann\nphase: declare-blockers\n"


BLOCK_RESTRICTIONS = [
    ("protection from creatures", "702.16f"),
    ("protection from everything", "702.16f"),
    ("can't be blocked", "509.1b"),
    ("can't be blocked except by 3 or more creatures", "509.1b"),
]


def ask(text: str, kind: str) -> dict:
    return next(a for a in run(text)["answers"] if a["ask"] == kind)


def other(color: str) -> str:
    return COLORS[(COLORS.index(color) + 1) % len(COLORS)]


@pytest.mark.parametrize("color", COLORS)
def test_702_16f_ask_can_no_creature_of_the_protected_color_blocks(color):
    text = TWO + f'Ann controls creature "Knight" 2/2 with protection from {color}\n'
    text += f'Ben controls creature "Bears" 2/2 with color {color}\n'
    text += f'Ben controls creature "Elf" 1/1 with color {other(color)}\n"Knight" attacks Ben\n'
    stopped = ask(text + 'ask can "Bears" block "Knight"\n', "can")
    assert stopped["can"] is False and "702.16f" in stopped["forbidden_by"]
    # a creature of another color may block it
    assert ask(text + 'ask can "Elf" block "Knight"\n', "can")["can"] is True


@pytest.mark.parametrize("color", COLORS)
def test_702_16f_ask_fix_removes_the_block_by_the_protected_color(color):
    text = TWO + f'Ann controls creature "Knight" 2/2 with protection from {color}\n'
    text += f'Ben controls creature "Bears" 2/2 with color {color}\n'
    text += '"Knight" attacks Ben\n"Bears" blocks "Knight"\nask fix\n'
    found = ask(text, "fix")
    # the block is illegal (702.16f); the only block Ben may make is none
    assert found["legal"] is False
    assert found["changes"] == [{"remove": "Bears blocks Knight"}] and found["count"] == 1
    assert "702.16f" in found["rules"]


TARGETED = [
    ("creature", "hexproof", "702.11b"),
    ("creature", "shroud", "702.18a"),
    ("creature", "protection from red", "702.16b"),
    ("creature", "hexproof from red", "702.11b"),
    ("creature", "protection from everything", "702.16b"),
    ("player", "hexproof", "702.11c"),
    ("player", "shroud", "702.18a"),
    ("player", "protection from red", "702.16b"),
    ("player", "protection from everything", "702.16b"),
]


@pytest.mark.parametrize(("holder", "ability", "rule"), TARGETED)
def test_115_1_ask_fix_points_a_red_spell_away_from_a_target_it_cant_have(holder, ability, rule):
    text = "players: Ann, Ben\nactive: Ann\n"
    if holder == "creature":
        text += f'Ben controls creature "Bears" 2/2 with {ability}\n'
        text += 'Ann controls creature "Elf" 1/1\n'
        target, legal_one = '"Bears"', "Elf"
    else:
        text += f"Ben has {ability}\n"
        target, legal_one = "Ben", "Ann"
    text += f'Ann casts instant "Shock" with color red targeting {target}\nask legal\nask fix\n'
    answers = run(text)["answers"]
    legal = next(a for a in answers if a["ask"] == "legal")
    assert legal["legal"] is False and rule in [v["rule"] for v in legal["violations"]]
    fix = next(a for a in answers if a["ask"] == "fix")
    # 115.1: the spell needs a legal target; the one left is the closest legal play
    (change,) = fix["changes"]
    assert change["to"].endswith(f"targeting {legal_one}")
    assert fix["count"] == 1 and "115.1" in fix["rules"]


def test_702_16b_702_11d_what_a_colorless_spell_may_target():
    text = "players: Ann, Ben\nactive: Ann\n"
    text += 'Ben controls creature "Wall" 0/4 with protection from everything\n'
    text += 'Ben controls creature "Drake" 2/2 with hexproof from red\n'
    wall = ask(text + 'ask can Ann target "Wall"\n', "can")
    assert wall["can"] is False and "702.16b" in wall["forbidden_by"]
    # hexproof from red stops only red spells and abilities (702.11d)
    assert ask(text + 'ask can Ann target "Drake"\n', "can")["can"] is True
    player = "players: Ann, Ben\nBen has protection from everything\nask can Ann target Ben\n"
    player = ask(player, "can")
    assert player["can"] is False and "702.16b" in player["forbidden_by"]


def test_702_16b_a_spell_at_a_player_with_protection_from_everything_is_illegal():
    text = "players: Ann, Ben\nactive: Ann\nBen has protection from everything\n"
    text += 'Ann casts instant "Shock" targeting Ben\nask legal\n'
    found = ask(text, "legal")
    assert found["legal"] is False and [v["rule"] for v in found["violations"]] == ["702.16b"]


def test_702_16e_combat_damage_to_a_creature_with_protection_from_everything_is_prevented():
    text = TWO + 'Ann controls creature "Hill Giant" 3/3\n'
    text += 'Ben controls creature "Wall" 2/2 with protection from everything\n'
    text += '"Hill Giant" attacks Ben\n"Wall" blocks "Hill Giant"\ncombat damage\nask outcome\n'
    found = ask(text, "outcome")
    # protection from everything doesn't stop it from blocking (702.16f names being
    # blocked); the 3 damage to it is prevented, its 2 to the Giant are dealt
    assert found["destroyed"] == [] and found["life"] == {"Ann": 20, "Ben": 20}
    assert "702.16e" in found["rules"]


@pytest.mark.parametrize(
    "ability", ["can't be blocked", "can't be blocked except by 3 or more creatures"]
)
def test_509_1b_ask_outcome_says_the_block_it_applies_is_illegal(ability):
    text = TWO + f'Ann controls creature "Rogue" 2/2 with {ability}\n'
    text += 'Ben controls creature "Bears" 2/2\n"Rogue" attacks Ben\n"Bears" blocks "Rogue"\n'
    found = ask(text + "combat damage\nask outcome\n", "outcome")
    assert found["illegal_play"] is True
    assert "509.1b" in [v["rule"] for v in found["violations"]]


def test_509_1c_510_1c_a_required_block_deals_its_damage():
    text = TWO + 'Ann controls creature "Lure Bear" 2/2 with must be blocked if able\n'
    text += 'Ben controls creature "Bears" 2/2\n'
    text += '"Lure Bear" attacks Ben\n"Bears" blocks "Lure Bear"\n'
    found = ask(text + "combat damage\nask outcome\n", "outcome")
    # the block obeys the requirement; each deals 2 to the other (510.1c, 510.1d)
    assert "illegal_play" not in found
    assert sorted(found["destroyed"]) == ["Bears", "Lure Bear"]
    assert found["life"] == {"Ann": 20, "Ben": 20}
    assert {"120.3e", "704.5g"} <= set(found["rules"])


TRAMPLE = TWO + 'Ann controls creature "Wurm" 4/4 with trample\n'
TRAMPLE += '"Wurm" attacks Ben\n"Bears" blocks "Wurm"\n'


@pytest.mark.parametrize(
    ("bears", "legal"),
    [
        ('Ben controls creature "Bears" 2/2\n', False),
        ('Ben controls creature "Bears" 2/2 with damage 1\n', True),
        ('Ben controls creature "Bears" 2/2 with counters -1/-1 1\n', True),
    ],
)
def test_702_19b_120_6_122_1a_lethal_damage_counts_damage_and_counters_for_legal(bears, legal):
    # 1 damage is lethal to a 2/2 with 1 damage marked (120.6) or with a -1/-1 counter
    # (122.1a): only then may the rest trample over to Ben (702.19b)
    text = TRAMPLE + bears + '"Wurm" assigns 1 damage to "Bears", 3 damage to Ben\nask legal\n'
    found = ask(text, "legal")
    assert found["legal"] is legal
    if not legal:
        assert "702.19b" in [v["rule"] for v in found["violations"]]


def test_702_19b_122_1a_a_counter_raises_the_lethal_damage_of_the_assignments():
    text = TRAMPLE + 'Ben controls creature "Bears" 2/2 with counters +1/+1 1\n'
    found = ask(text + 'ask assignments for "Wurm"\n', "assignments")
    # a 3/3 now: lethal is 3, so the Wurm may give Ben 1 at most (702.19b)
    assert found["count"] == 2
    assert sorted(map(sorted, (a.items() for a in found["assignments"]))) == sorted(
        [sorted({"Bears": 3, "Ben": 1}.items()), sorted({"Bears": 4}.items())]
    )


@pytest.mark.parametrize(
    ("ability", "jace", "ben", "legal"),
    [
        ("trample", 3, 1, False),
        ("trample over planeswalkers", 3, 1, True),
        ("trample over planeswalkers", 2, 2, False),
    ],
)
def test_702_19c_an_assignment_past_the_planeswalker_needs_trample_over_planeswalkers(
    ability, jace, ben, legal
):
    # blocked (702.19b is about a blocked trampler): lethal to the Bears, the loyalty
    # to Jace, and only with trample over planeswalkers the rest to Ben (702.19c);
    # before Jace has its loyalty, nothing goes on to Ben
    text = TWO + f'Ann controls creature "Wurm" 6/6 with {ability}\n'
    text += 'Ben controls planeswalker "Jace Beleren" loyalty 3\n'
    text += 'Ben controls creature "Bears" 2/2\n'
    text += '"Wurm" attacks "Jace Beleren"\n"Bears" blocks "Wurm"\n'
    text += f'"Wurm" assigns 2 damage to "Bears", {jace} damage to "Jace Beleren", '
    text += f"{ben} damage to Ben\n"
    found = ask(text + "ask legal\n", "legal")
    assert found["legal"] is legal
    if ability == "trample over planeswalkers" and not legal:
        assert "702.19c" in [v["rule"] for v in found["violations"]]


@pytest.mark.parametrize(("ability", "rule"), BLOCK_RESTRICTIONS)
def test_509_1b_702_16f_ask_can_and_ask_fix_with_a_restriction_on_being_blocked(ability, rule):
    text = TWO + f'Ann controls creature "Rogue" 2/2 with {ability}\n'
    text += 'Ben controls creature "Bears" 2/2\n"Rogue" attacks Ben\n'
    # one blocker alone may never block it (three are needed, or none may)
    found = ask(text + 'ask can "Bears" block "Rogue"\n', "can")
    assert found["can"] is False and rule in found["forbidden_by"]
    fixed = ask(text + '"Bears" blocks "Rogue"\nask fix\n', "fix")
    assert fixed["legal"] is False and fixed["count"] == 1
    assert fixed["changes"] == [{"remove": "Bears blocks Rogue"}] and rule in fixed["rules"]
