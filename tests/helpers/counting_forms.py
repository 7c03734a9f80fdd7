"""Shared by the tests of counts read from derived forms (stack orders, APNAP
orders, damage assignments, a player's part of a team's blocks): plain
enumeration to hold them to, random tables and combats to draw, and a watch
on how a count was made."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from mtgkb.engine import classes, counting, first_declarations, solve
from mtgkb.engine.state import Engine, Options
from mtgkb.language.facts import scenario_facts
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text, parse_or_fail

#: Counting by enumeration only: the class counter and the parts switched off.
PLAIN = Engine(Options.from_env().but(count_parts=False, fast_count=False, count_classes=False))

NAMES = ["Ann", "Ben", "Cat", "Dan"]
#: Things a player may be made to choose at once (101.4c).
THINGS = [
    "a creature",
    "a land",
    "an artifact",
    "an enchantment",
    "a planeswalker",
    "a spell",
    "a card",
    "a token",
    "a battle",
    "a permanent",
    "an instant",
    "a sorcery",
    "a mode",
    "a color",
    "a number",
    "a type",
]


#: Ann's three attackers against Ben's three creatures, no ability (509.1a
#: alone): each of Ben's creatures blocks one of the attackers or none.
THREE_ON_THREE = """players: Ann, Ben
active: Ann
Ann controls creature "A1" 2/2
Ann controls creature "A2" 2/2
Ann controls creature "A3" 2/2
Ben controls creature "B1" 2/2
Ben controls creature "B2" 2/2
Ben controls creature "B3" 2/2
"A1" attacks Ben
"A2" attacks Ben
"A3" attacks Ben
"""


def only_answer(text: str, *, max_models: int = 100000, engine: Engine | None = None) -> dict:
    """The answer of a file that asks one question (`max_models` listed at
    most), by `engine` (a fresh one when not given)."""
    output = answer_text(text, "one.mtg", Limits(max_models=max_models), engine=engine).output
    (answer,) = output["answers"]
    return answer


def assert_counted_as_enumerated(query: str, text: str, engine: Engine) -> None:
    """The count of `query`'s models on the scenario `text` (one listed),
    exact and the number clasp's plain enumeration finds."""
    facts = scenario_facts(parse_or_fail(text, f"{query}.mtg"))
    counted = solve.solve(query, facts, max_models=1, engine=engine)
    plain = solve.solve(query, facts, max_models=0, engine=PLAIN)
    assert plain.complete
    assert (counted.count, counted.complete) == (plain.count, True), text


def random_table(rng: random.Random, two_headed_giant: float) -> tuple[list[str], list[str]]:
    """A random table's lines and its players: Two-Headed Giant (shared team
    turns, 805.7) at odds `two_headed_giant`, else two to four players."""
    if rng.random() < two_headed_giant:
        lines = [
            "game: two-headed-giant",
            f"players: {', '.join(NAMES)}",
            "team North: Ann, Ben",
            "team South: Cat, Dan",
            f"active: {rng.choice(NAMES)}",
        ]
        return lines, NAMES
    players = NAMES[: rng.randint(2, 4)]
    return [f"players: {', '.join(players)}", f"active: {rng.choice(players)}"], players


@contextmanager
def counted_from_forms(patch: pytest.MonkeyPatch, *, recorded: bool = True) -> Iterator[list[int]]:
    """The counts mtgkb.engine.classes reads from derived forms meanwhile, in
    order (those of a listing read from the forms too,
    mtgkb.engine.first_declarations); with `recorded` false, recording the
    ground program (counting by its parts) fails the test."""

    counts: list[int] = []
    read = classes.count_space
    walk = first_declarations.first_declarations

    def reading_forms(symbols, space, end=None):
        counts.append(read(symbols, space, end))
        return counts[-1]

    def walking_forms(*args, **kwargs):
        found = walk(*args, **kwargs)
        if found is not None:
            counts.append(found[0])
        return found

    def no_recorder(*args, **kwargs):
        raise AssertionError("the ground program was recorded")

    patch.setattr(classes, "count_space", reading_forms)
    patch.setattr(first_declarations, "first_declarations", walking_forms)
    if not recorded:
        patch.setattr(counting.GroundRecorder, "__init__", no_recorder)
    yield counts


def random_stack(seed: int) -> str:
    """`ask stack` on a random table: up to three triggers a player, six in all
    (at most 6! orders to enumerate)."""
    rng = random.Random(seed)
    lines, players = random_table(rng, two_headed_giant=0.35)
    n = 0
    for player in players:
        for _ in range(rng.randint(0, min(3, 6 - n))):  # at most 6! orders to enumerate
            n += 1
            lines.append(f'trigger "T{n}" controlled by {player}')
    return "\n".join([*lines, "ask stack"]) + "\n"


def random_order(seed: int) -> str:
    """`ask order` on a random table: each player draws, sacrifices or chooses
    two to five things (two alike at times), with a player controlled by
    another (722) and lines that make a player choose again (101.4d) at times."""
    rng = random.Random(seed)
    lines, players = random_table(rng, two_headed_giant=0.4)
    if rng.random() < 0.15:
        controller, controlled = rng.sample(players, 2)
        lines.append(f"{controller} controls player {controlled}")
    kind = rng.randrange(3)
    if kind == 0:
        lines.append("each player draws a card")
    elif kind == 1:
        lines.append("each player sacrifices a creature")
    else:
        things = rng.sample(THINGS[:6], rng.randint(2, 4))
        if rng.random() < 0.15:
            things.append(things[0])  # (two things alike)
        sep = " then " if rng.random() < 0.3 else " and "
        lines.append("each player chooses " + sep.join(things))
    for _ in range(rng.choice((0, 0, 0, 1, 2))):
        x, y = rng.sample(players, 2)
        lines.append(f"{x}'s choice makes {y} choose")
    return "\n".join([*lines, "ask order"]) + "\n"


#: What the attackers and the blockers of the random combats may have: every
#: restriction and requirement the counter of declarations reads (508.1,
#: 509.1, 702.111b, 702.22), and the per-pair faults.
ATTACKER_ABILITIES = (
    "menace",
    "can't be blocked except by 2 or more creatures",
    "can't be blocked except by 3 or more creatures",
    "must be blocked if able",
    "can't be blocked",
    "flying",
    "can't attack alone",
    "attacks each combat if able",
    "defender",
    "summoning-sick",
    "haste",
    "banding",
)
BLOCKER_ABILITIES = (
    "can block an additional creature",
    "can block any number of creatures",
    "blocks each combat if able",
    "can't block alone",
    "reach",
    "flying",
    "tapped",
    "can't block",
    "menace",
)


def random_combat(rng: random.Random) -> tuple[str, list[str]]:
    """A random small combat: two or three players, the first attacking with
    the creatures it declares (up to four, each with up to two of
    ATTACKER_ABILITIES; the defenders' with BLOCKER_ABILITIES), bands of
    them at times, and the questions that count its declarations (one
    listed)."""
    players = ["Rob", "Alex", "Kim"][: rng.choice((2, 2, 3))]
    active, defenders = players[0], players[1:]
    lines = [
        "game: two-player" if len(players) == 2 else "game: free-for-all",
        *(["option: attack-multiple-players"] if len(players) > 2 else []),
        f"players: {', '.join(players)}",
        f"active: {active}",
    ]
    if rng.random() < 0.3:
        lines.append(f"rule: no more than {rng.randint(1, 2)} creatures can attack")
    attackers = rng.randint(1, 4)
    for i in range(attackers):
        abilities = sorted(set(rng.sample(ATTACKER_ABILITIES, rng.choice((0, 1, 1, 2)))))
        with_ = f" with {', '.join(abilities)}" if abilities else ""
        lines.append(f'{active} controls creature "A{i}" 2/2{with_}')
    budget = 5 if len(players) == 2 else 3
    for p in defenders:
        for i in range(rng.randint(0, budget)):
            abilities = sorted(set(rng.sample(BLOCKER_ABILITIES, rng.choice((0, 1, 1, 2)))))
            with_ = f" with {', '.join(abilities)}" if abilities else ""
            lines.append(f'{p} controls creature "D{p}{i}" 2/2{with_}')
    declared: dict[str, list[str]] = {}
    for i in range(attackers):
        if rng.random() < 0.85:
            target = rng.choice(defenders)
            declared.setdefault(target, []).append(f"A{i}")
            lines.append(f'"A{i}" attacks {target}')
    # 702.22: a band of two attackers of the same player, one with banding
    for names in declared.values():
        banding = [n for n in names if _text_of(lines, n, "banding")]
        if banding and len(names) > 1 and rng.random() < 0.7:
            other = next(n for n in names if n != banding[0])
            lines.append(f'band "{banding[0]}", "{other}"')
    questions = ["ask blocks limit 1", "ask attacks limit 1"]
    questions += [f"ask blocks for {p} limit 1" for p in defenders]
    return "\n".join(lines) + "\n", questions


def _text_of(lines: list[str], name: str, ability: str) -> str:
    """The line that makes creature `name`, when it has `ability` (else "")."""
    made = next((line for line in lines if f'creature "{name}" ' in line), "")
    return made if ability in made else ""


#: Two-Headed Giant under shared team turns: Rob and Ann attack Alex and Kim's
#: team, which declares one block (805.10d).
TEAMS = (
    "game: two-headed-giant\nplayers: Rob, Ann, Alex, Kim\nteam T1: Rob, Ann\n"
    "team T2: Alex, Kim\nactive: Rob\noption: shared-team-turns\n"
)


def random_team_combat(rng: random.Random) -> str:
    """The lines of a random combat of TEAMS (without its questions): up to
    two creatures of Rob and of Ann, most of them attacking Alex or Kim, up
    to three of Alex and of Kim, each with up to two of the abilities."""
    lines = [TEAMS.rstrip("\n")]
    n = 0
    for player in ("Rob", "Ann"):
        for _ in range(rng.randint(0, 2)):
            abilities = sorted(set(rng.sample(ATTACKER_ABILITIES, rng.choice((0, 1, 1, 2)))))
            with_ = f" with {', '.join(abilities)}" if abilities else ""
            lines.append(f'{player} controls creature "A{n}" 2/2{with_}')
            if rng.random() < 0.85:
                lines.append(f'"A{n}" attacks {rng.choice(("Alex", "Kim"))}')
            n += 1
    for player in ("Alex", "Kim"):
        for i in range(rng.randint(0, 3)):
            abilities = sorted(set(rng.sample(BLOCKER_ABILITIES, rng.choice((0, 1, 1, 2)))))
            with_ = f" with {', '.join(abilities)}" if abilities else ""
            lines.append(f'{player} controls creature "D{player}{i}" 2/2{with_}')
    return "\n".join(lines) + "\n"
