"""The bench's `orders` part (issue 26): its scenarios are what its rows say,
and their counts are the CR's: 603.3b, each player's triggers in any order
(16! x 3!); 510.1a, 702.19b, a trampler's power divided among its blockers
and the player, the player only once each blocker has lethal damage;
805.10d, a player's part of a team's blocks."""

from __future__ import annotations

import math
import sys

from helpers import ROOT

sys.path.insert(0, str(ROOT))

from bench.suite import (  # noqa: E402
    PARTS,
    choices_text,
    open_choice_text,
    stack_text,
    team_blocks_text,
    trampler_text,
)
from mtgkb.questions.answers import Limits  # noqa: E402
from mtgkb.running.runner import answer_text  # noqa: E402


def _answer(text: str) -> dict:
    (answer,) = answer_text(text, "bench.mtg", Limits(max_models=5)).output["answers"]
    return answer


def test_603_3b_the_stack_row_counts_sixteen_and_three_triggers():
    answer = _answer(stack_text({"Ann": 16, "Ben": 3}))
    assert (answer["count"], answer["complete"]) == (math.factorial(16) * math.factorial(3), True)
    assert "603.3b" in answer["rules"]


def test_702_19b_the_assignments_row_counts_the_trampler_s_divisions():
    # nothing to Alex: 60 among 8, C(67,7); some to Alex once each has 3: C(43,8)
    answer = _answer(trampler_text(60, 8, 3))
    assert (answer["count"], answer["complete"]) == (math.comb(67, 7) + math.comb(43, 8), True)
    assert "702.19b" in answer["rules"]


def test_the_orders_part_is_registered():
    assert "orders" in PARTS


def test_101_4c_the_order_row_counts_sixteen_things():
    answer = _answer(choices_text(16))
    assert (answer["count"], answer["complete"]) == (math.factorial(16), True)
    assert "101.4c" in answer["rules"]


def test_506_2a_the_attacks_row_counts_each_opponent_s_attacks_once():
    # each of three opponents: every nonempty subset of 20 attacks it; no attack once
    answer = _answer(open_choice_text(20))
    assert (answer["count"], answer["complete"]) == (3 * (2**20 - 1) + 1, True)
    assert "506.2a" in answer["rules"]


def test_805_10d_the_team_row_counts_a_players_part_of_the_teams_blocks():
    # 702.111b: an attacker Alex blocks with one creature needs one of Kim's
    # three beside it: of 6^8 parts, those with five such attackers (P(8,5))
    # and with four (C(5,4) P(8,4) (2^4 - 4)) are not shown
    answer = _answer(team_blocks_text(5, 8, 3))
    expected = 6**8 - math.perm(8, 5) - math.comb(5, 4) * math.perm(8, 4) * (2**4 - 4)
    assert (answer["count"], answer["complete"]) == (expected, True)
    assert {"805.10d", "702.111b"} <= set(answer["rules"])
