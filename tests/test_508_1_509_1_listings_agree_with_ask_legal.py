"""The declarations `ask attacks` and `ask blocks` list are exactly those `ask
legal` finds legal (508.1, 509.1: a declaration is legal when it breaks no
restriction and obeys as many requirements as it can). Random combats of 2-4
players (restrictions and requirements on attacking and blocking, evasion,
landwalk, banding, a global "no more than N creatures can attack", a
planeswalker to attack): every listed declaration, written into the file, is
legal; and a random declaration written into the file is legal exactly when
the complete listing holds it.

Two questions answered by different groundings and queries (the listing's
choice over every declaration, the judge of one declared play) must agree:
where they do not, one of them is wrong."""

import json

import pytest
from helpers import examples
from helpers.answering import engine
from helpers.random_games import creature
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

pytestmark = pytest.mark.slow

LIMITS = Limits(max_models=500, timeout=60)
PLAYERS = ["Rob", "Alex", "Carissa", "Dana"]
ATTACKING = [
    "defender",
    "can't attack",
    "attacks each combat if able",
    "can't attack alone",
    "haste",
    "summoning-sick",
    "tapped",
    "can't attack Alex",
    "banding",
    "vigilance",
]
#: what an attacker may have that matters to its blockers (none keeps it from attacking)
ATTACKER = ["flying", "menace", "mountainwalk", "shadow", "protection from red", "color red"]
BLOCKING = [
    "flying",
    "reach",
    "menace",
    "can't block",
    "mountainwalk",
    "tapped",
    "can't block alone",
    "blocks each combat if able",
    "shadow",
    "protection from red",
    "color red",
    "banding",
]


def answers(text: str) -> list[dict]:
    result = answer_text(text, "combat.mtg", LIMITS, engine=engine())
    assert result.status in (0, 1), (result.status, result.error, text)
    return result.output["answers"]


def table(draw, phase: str, options: list[str]) -> tuple[str, list[str]]:
    players = PLAYERS[: draw(st.integers(2, 4))]
    text = f"players: {', '.join(players)}\nactive: Rob\n"
    if len(players) > 2:
        text += f"option: {draw(st.sampled_from(options))}\n"
    return text + f"phase: {phase}\n", players


@st.composite
def attack_tables(draw) -> tuple[str, list[str], list[str]]:
    text, players = table(draw, "declare-attackers", ["attack-multiple-players", "attack-left"])
    if draw(st.booleans()):
        count = draw(st.integers(1, 2))
        text += f"rule: no more than {count} creature{'s' if count > 1 else ''} can attack\n"
    names = [f"A{i}" for i in range(draw(st.integers(1, 3)))]
    text += "".join(creature(draw, "Rob", name, ATTACKING, least_power=1) for name in names)
    targets = players[1:]
    if draw(st.booleans()):
        text += f'{draw(st.sampled_from(targets))} controls planeswalker "Jace" loyalty 3\n'
        targets = [*targets, '"Jace"']
    return text, names, targets


@st.composite
def block_tables(draw) -> tuple[str, list[str], list[str]]:
    # (any opponent may be attacked: the declared attacks are legal, only blocks are judged)
    text, players = table(draw, "declare-blockers", ["attack-multiple-players"])
    if draw(st.booleans()):
        owner = draw(st.sampled_from(players[1:]))
        text += f'{owner} controls land "Mountain" with type mountain\n'
    attackers = [f"A{i}" for i in range(draw(st.integers(1, 3)))]
    text += "".join(creature(draw, "Rob", name, ATTACKER, least_power=1) for name in attackers)
    blockers = [f"B{j}" for j in range(draw(st.integers(1, 4)))]
    for name in blockers:
        text += creature(draw, draw(st.sampled_from(players[1:])), name, BLOCKING, least_power=1)
    text += "".join(f'"{a}" attacks {draw(st.sampled_from(players[1:]))}\n' for a in attackers)
    return text, blockers, [f'"{a}"' for a in attackers]


def declared(assignment: dict, verb: str) -> str:
    """The declaration of an answer's assignment as lines of the file."""
    return "".join(
        f'"{who}" {verb} {target if target in PLAYERS else json.dumps(target)}\n'
        for who, target in assignment.items()
    )


def agree(table_: tuple[str, list[str], list[str]], data, verb: str) -> None:
    """`ask attacks` (verb "attacks") or `ask blocks` ("blocks") on the file
    `table_` holds, against `ask legal` of each listed declaration and of one
    drawn from its creatures and their possible targets."""
    text, who, targets = table_
    (listing,) = answers(text + f"ask {verb} limit 100\n")
    for assignment in listing["assignments"][:20]:
        (legal,) = answers(text + declared(assignment, verb) + "ask legal\n")
        assert legal["legal"] is True, (text, assignment, legal)
    if listing["complete"] and listing["count"] <= len(listing["assignments"]):
        listed = [json.dumps(a, sort_keys=True) for a in listing["assignments"]]
        chosen = data.draw(st.lists(st.sampled_from(who), unique=True))
        drawn = {name: data.draw(st.sampled_from(targets)).strip('"') for name in chosen}
        (legal,) = answers(text + declared(drawn, verb) + "ask legal\n")
        assert legal["legal"] is (json.dumps(drawn, sort_keys=True) in listed), (text, drawn)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attack_tables(), st.data())
def test_508_1_every_listed_attack_is_legal_and_every_legal_one_is_listed(table_, data):
    agree(table_, data, "attacks")


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(block_tables(), st.data())
def test_509_1_every_listed_block_is_legal_and_every_legal_one_is_listed(table_, data):
    agree(table_, data, "blocks")
