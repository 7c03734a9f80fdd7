"""Shared by the tests of counts read from derived forms (stack orders, APNAP
orders, damage assignments): plain enumeration to hold them to, random
tables to draw, and a watch on how a count was made."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from mtgkb.engine import classes, counting
from mtgkb.engine.state import Engine, Options

#: Counting by enumeration only: the class counter and the parts switched off.
PLAIN = Engine(Options.from_env().but(count_parts=False, fast_count=False, count_classes=False))

NAMES = ["Ann", "Ben", "Cat", "Dan"]


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
    order; with `recorded` false, recording the ground program (counting by
    its parts) fails the test."""

    counts: list[int] = []
    read = classes.count_space

    def reading_forms(symbols, space, end=None):
        counts.append(read(symbols, space, end))
        return counts[-1]

    def no_recorder(*args, **kwargs):
        raise AssertionError("the ground program was recorded")

    patch.setattr(classes, "count_space", reading_forms)
    if not recorded:
        patch.setattr(counting.GroundRecorder, "__init__", no_recorder)
    yield counts
