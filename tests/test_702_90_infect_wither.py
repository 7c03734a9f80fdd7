"""702.90c, 702.80a, 120.3d: damage from a source with infect or wither puts
-1/-1 counters on a creature instead of marking damage; 704.5f: a creature with
toughness 0 or less goes to the graveyard even if indestructible (702.12b covers
only destruction); 122.1a, 122.3, 704.5q, 120.6: counters and damage already on a
creature (`with counters -1/-1 2`, `with counters +1/+1 1`, `with damage 2`)."""

import subprocess
import sys

from helpers.answering import run

TWO = "players: Rob, Alex\nactive: Rob\n"


def answer(text: str, kind: str = "outcome") -> dict:
    return next(a for a in run(text)["answers"] if a["ask"] == kind)


def fight(attacker: str, blocker: str) -> str:
    """Rob's attacker blocked by Alex's blocker, then combat damage."""
    text = TWO + f'Rob controls creature "A" {attacker}\nAlex controls creature "B" {blocker}\n'
    return text + '"A" attacks Alex\n"B" blocks "A"\ncombat damage\nask outcome\n'


def test_704_5f_702_90c_an_indestructible_0_1_blocking_an_infect_attacker_dies():
    # issue 29 item 5: the -1/-1 counter leaves toughness 0; indestructible doesn't help
    found = answer(fight("1/1 with infect", "0/1 with indestructible"))
    assert found["destroyed"] == ["B"]
    assert {"704.5f", "702.90c", "120.3d"} <= set(found["rules"])


def test_702_12b_an_indestructible_creature_survives_lethal_damage_without_infect():
    found = answer(fight("1/1", "0/1 with indestructible"))
    assert found["destroyed"] == []


def test_702_90c_infect_damage_is_not_marked():
    # 2 -1/-1 counters on a 2/3: a 0/1 with no damage marked, so it lives
    found = answer(fight("2/2 with infect", "2/3"))
    assert found["destroyed"] == ["A"]  # the blocker's 2 damage is marked on the 2/2
    assert "702.90c" in found["rules"] or "120.3d" in found["rules"]


def test_702_80a_wither_counters_and_damage_already_marked_add_up_to_lethal():
    # wither puts 2 -1/-1 counters on a 2/3 with 1 damage marked: a 0/1 with 1 damage (704.5g)
    found = answer(fight("2/2 with wither", "2/3 with damage 1"))
    assert sorted(found["destroyed"]) == ["A", "B"]
    assert {"704.5g", "120.6"} <= set(found["rules"])


def test_120_6_damage_already_marked_counts_towards_lethal_damage():
    found = answer(fight("2/2", "3/3 with damage 1"))
    assert sorted(found["destroyed"]) == ["A", "B"]  # 1 + 2 damage on toughness 3
    assert "120.6" in found["rules"]
    found = answer(fight("2/2", "3/3"))
    assert found["destroyed"] == ["A"]


def test_122_1a_a_plus_one_counter_makes_a_1_1_trade_with_a_2_2():
    found = answer(fight("2/2", "1/1 with counters +1/+1 1"))
    assert sorted(found["destroyed"]) == ["A", "B"]
    found = answer(fight("2/2", "1/1"))
    assert found["destroyed"] == ["B"]


def test_122_1a_minus_one_counters_lower_power_and_toughness():
    found = answer(fight("3/3 with counters -1/-1 2", "1/1"))
    assert sorted(found["destroyed"]) == ["A", "B"]  # a 1/1 now


def test_122_3_704_5q_a_minus_one_counter_cancels_a_plus_one_counter():
    found = answer(fight("1/1 with infect", "2/2 with counters +1/+1 1"))
    # the 3/3 gets a -1/-1 counter: the pair cancels, a 2/2 with no counters is left
    assert found["destroyed"] == ["A"]
    assert {"704.5q", "122.3"} <= set(found["rules"])


def test_702_19b_120_6_lethal_damage_counts_damage_already_marked():
    text = TWO + 'Rob controls creature "A" 3/3 with trample\n'
    text += 'Alex controls creature "B" 0/3 with damage 1\n'
    text += '"A" attacks Alex\n"B" blocks "A"\ncombat damage\nask outcome\n'
    found = answer(text)
    assert found["life"]["Alex"] == 19  # 2 is lethal to the blocker, 1 tramples over
    assert found["destroyed"] == ["B"]


def test_702_90b_120_3d_infect_gives_poison_to_players_and_counters_to_creatures():
    text = TWO + 'Rob controls creature "Blight" 2/2 with infect, trample\n'
    text += 'Alex controls creature "B" 1/1\n"Blight" attacks Alex\n"B" blocks "Blight"\n'
    text += "combat damage\nask outcome\n"
    found = answer(text)
    assert found["poison"]["Alex"] == 1
    assert found["life"]["Alex"] == 20
    assert found["destroyed"] == ["B"]
    assert {"702.90b", "704.5f"} <= set(found["rules"])


def run_file(tmp_path, text: str) -> subprocess.CompletedProcess:
    path = tmp_path / "bad.mtg"
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", str(path)], capture_output=True, text=True
    )


def test_122_1_a_count_of_counters_is_a_number(tmp_path):
    done = run_file(tmp_path, TWO + 'Rob controls creature "K" 2/2 with counters -1/-1 x\n')
    assert done.returncode == 2
    assert "bad.mtg:3:51: error: unexpected 'x'" in done.stderr


def test_122_1_only_plus_one_and_minus_one_counters(tmp_path):
    done = run_file(tmp_path, TWO + 'Rob controls creature "K" 2/2 with counters +2/+2 1\n')
    assert done.returncode == 2
    assert "bad.mtg:3:45: error: unknown kind of counter '+2/+2'" in done.stderr
