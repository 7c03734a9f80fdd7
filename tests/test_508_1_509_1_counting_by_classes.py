"""508.1, 509.1: declarations of attackers and blockers are counted exactly
from the generic forms the rules derive (queries/attack_classes.lp,
queries/block_classes.lp; mtgkb.engine.classes), by classes and exact
combinatorics, never from the ground program.

The property tests compare that count with plain clingo enumeration of the
same question by the rule base itself (every model of queries/blocks.lp or
queries/attacks.lp, one by one) on random small games of two or three
players using every restriction and requirement the counter reads: menace
(702.111b), "can't be blocked except by N or more creatures" (509.1b), "can
block an additional creature" and "any number" (509.1a), "can't block
alone" (509.1b), "blocks each combat if able" and "must be blocked if able"
(509.1c), "can't attack alone" and "no more than N creatures can attack"
(508.1c), "attacks each combat if able" (508.1d), bands of attackers
(702.22: they change no declaration's legality), and the per-pair faults
(flying, reach, can't be blocked, can't block, tapped, defender, 802.4a).
"""

from __future__ import annotations

import random
from math import comb, perm

import clingo
from helpers import random_cases
from helpers.counting_forms import (
    PLAIN,
    TEAMS,
    counted_from_forms,
    random_combat,
    random_team_combat,
)
from hypothesis import given
from hypothesis import strategies as st

from mtgkb.engine.classes import count_space
from mtgkb.engine.solve import Grounding
from mtgkb.engine.state import Engine
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits, facts_for
from mtgkb.rulebase.registry import COUNTED_BY
from mtgkb.running.runner import answer_text

CLASSES = Engine()


def _plain_counts(text: str, questions: list[str]) -> list[int]:
    """Every model of each question, enumerated by clingo with the rule base."""
    answers = answer_text(
        text + "\n".join(questions) + "\n", "plain.mtg", Limits(max_models=0), engine=PLAIN
    ).output["answers"]
    assert all(a["complete"] for a in answers)
    return [a["count"] for a in answers]


def _class_counts(text: str, questions: list[str]) -> list[int]:
    """Each question counted by mtgkb.engine.classes from its derived forms."""
    scenario = parse_text(text + "\n".join(questions) + "\n", "classes.mtg")
    facts = scenario_facts(scenario)
    counts = []
    for question in scenario.questions:
        query = question.kind
        counting = COUNTED_BY[query]
        result = Grounding([counting], facts_for(question, facts), engine=CLASSES).solve(
            counting, max_models=1
        )
        counts.append(count_space(result.models[0], query))
    return counts


def _compare(seed: int) -> None:
    text, questions = random_combat(random.Random(seed))
    assert _class_counts(text, questions) == _plain_counts(text, questions), text


# a thousand random games in the slow tier (MTGKB_EXAMPLES=all), ten in the fast one
@random_cases(1000, 10)
@given(st.integers(0, 10**9))
def test_508_1_509_1_class_counts_equal_plain_enumeration(seed):
    _compare(seed)


# --- by hand, from the CR --------------------------------------------------


def _answer(text: str, engine: Engine = CLASSES) -> dict:
    return answer_text(text, "hand.mtg", Limits(max_models=100000), engine=engine).output[
        "answers"
    ][0]


def test_702_111b_two_menace_attackers_and_three_blockers():
    """Two attackers with menace, three vanilla blockers that may block
    either. 702.111b: each attacker is blocked by no creature or by two or
    more. Count by the number of blockers of each attacker (a, b), the
    others not blocking: (0,0): 1; (2,0) or (0,2): C(3,2) = 3 each; (3,0) or
    (0,3): 1 each; (2,... ) both blocked needs 4 blockers: impossible. Total
    1 + 3 + 3 + 1 + 1 = 9."""
    text = (
        "players: Rob, Alex\nactive: Rob\n"
        'Rob controls creature "M1" 2/2 with menace\n'
        'Rob controls creature "M2" 2/2 with menace\n'
        'Alex controls creature "B1" 2/2\nAlex controls creature "B2" 2/2\n'
        'Alex controls creature "B3" 2/2\n'
        '"M1" attacks Alex\n"M2" attacks Alex\nask blocks for Alex limit 2\n'
    )
    answer = _answer(text)
    assert (answer["count"], answer["complete"]) == (9, True)
    assert "702.111b" in answer["rules"]


def test_509_1c_must_be_blocked_counts_only_the_best():
    """509.1c: "must be blocked if able" on one of two attackers, two vanilla
    blockers. Declarations that block it obey one requirement, the others
    none, so only those count: each blocker blocks the first attacker, the
    second or nothing (3 x 3 = 9 declarations), minus those where neither
    blocks the first (2 x 2 = 4): 5."""
    text = (
        "players: Rob, Alex\nactive: Rob\n"
        'Rob controls creature "A1" 2/2 with must be blocked if able\n'
        'Rob controls creature "A2" 2/2\n'
        'Alex controls creature "B1" 2/2\nAlex controls creature "B2" 2/2\n'
        '"A1" attacks Alex\n"A2" attacks Alex\nask blocks for Alex limit 1\n'
    )
    answer = _answer(text)
    assert (answer["count"], answer["complete"]) == (5, True)
    assert "509.1c" in answer["rules"]


def test_509_1b_cant_block_alone_and_three_or_more():
    """509.1b: an attacker that can't be blocked except by 3 or more
    creatures, a plain attacker, and three blockers, one of which can't
    block alone. Without "alone": the big attacker takes 0 or all 3
    blockers; if 0, each blocker blocks the plain attacker or not: 2^3 = 8;
    if 3: 1; total 9. "Alone" removes the declarations where that blocker is
    the only one blocking: just it blocking the plain attacker (1): 8."""
    text = (
        "players: Rob, Alex\nactive: Rob\n"
        'Rob controls creature "Big" 2/2 with can\'t be blocked except by 3 or more creatures\n'
        'Rob controls creature "A" 2/2\n'
        'Alex controls creature "B1" 2/2 with can\'t block alone\n'
        'Alex controls creature "B2" 2/2\nAlex controls creature "B3" 2/2\n'
        '"Big" attacks Alex\n"A" attacks Alex\nask blocks for Alex limit 1\n'
    )
    answer = _answer(text)
    assert (answer["count"], answer["complete"]) == (8, True)
    assert "509.1b" in answer["rules"]


def test_508_1c_no_more_than_two_attackers_of_four():
    """508.1c: four creatures, each may attack the one opponent, and "no
    more than 2 creatures can attack": C(4,0) + C(4,1) + C(4,2) = 11."""
    text = (
        "players: Rob, Alex\nactive: Rob\nrule: no more than 2 creatures can attack\n"
        + "".join(f'Rob controls creature "A{i}" 2/2\n' for i in range(4))
        + "ask attacks limit 1\n"
    )
    answer = _answer(text)
    assert (answer["count"], answer["complete"]) == (11, True)
    assert "508.1c" in answer["rules"]


def test_509_1_large_menace_combat_is_exact_without_the_ground_program():
    """Twenty blockers and ten attackers, half with menace: counted from the
    forms (a menace attacker takes 0 or 2+ of the 20 blockers); the count is
    exact and far beyond any enumeration. Cross-checked here by the same
    inclusion-exclusion written by hand: each blocker picks one of the 10
    attackers or none; for menace attackers the number of takers must not be
    1. Sum over the set S of menace attackers forced to exactly 1 taker:
    (-1)^|S| C(5,|S|) * 20!/(20-|S|)! * (11-|S|)^(20-|S|)."""
    lines = ["players: Rob, Alex", "active: Rob"]
    for i in range(10):
        lines.append(f'Rob controls creature "A{i}" 2/2' + (" with menace" if i < 5 else ""))
        lines.append(f'"A{i}" attacks Alex')
    lines += [f'Alex controls creature "B{i}" 2/2' for i in range(20)]
    answer = _answer("\n".join(lines) + "\nask blocks for Alex limit 1\n")
    expected = sum((-1) ** s * comb(5, s) * perm(20, s) * (11 - s) ** (20 - s) for s in range(6))
    assert (answer["count"], answer["complete"]) == (expected, True)


def test_805_10d_a_teammates_requirement_decides_which_parts_are_shown(monkeypatch):
    """805.10d: under shared team turns the team declares one block, and `ask
    blocks for Alex` shows Alex's part of each (Kim's picks are hidden:
    decl_hidden). One attacker with menace (702.111b), Alex's B1 and B2, and
    Kim's K1, which "blocks each combat if able" (509.1c). K1 can block only
    beside another blocker, so the team's declarations that obey the most
    requirements have K1 with B1, B2 or both on the attacker; Alex's parts
    of them: B1, B2, both: 3. The part with no block is not one (with it, K1
    blocks alone or not at all). Counted from the forms, the ground program
    never recorded, and equal to plain enumeration."""
    text = TEAMS + (
        'Rob controls creature "A1" 2/2 with menace\n'
        'Alex controls creature "B1" 2/2\nAlex controls creature "B2" 2/2\n'
        'Kim controls creature "K1" 2/2 with blocks each combat if able\n'
        '"A1" attacks Alex\n'
    )
    with counted_from_forms(monkeypatch, recorded=False) as counts:
        counted = _answer(text + "ask blocks for Alex limit 1\n")
    assert counts == [3]
    assert (counted["count"], counted["complete"]) == (3, True)
    assert {"805.10d", "509.1c", "702.111b"} <= set(counted["rules"])
    listed = _answer(text + "ask blocks for Alex limit 5\n", PLAIN)["assignments"]
    assert sorted(map(sorted, map(dict.items, listed))) == [
        [("B1", "A1")],
        [("B1", "A1"), ("B2", "A1")],
        [("B2", "A1")],
    ]


def test_805_10d_a_players_part_counted_exactly_past_any_enumeration(monkeypatch):
    """805.10d, 702.111b: five attackers with menace, Alex's eight creatures
    and Kim's three, each blocking one attacker or none. Alex's part is
    shown when Kim can complete it: each attacker Alex blocks with exactly
    one creature needs one of Kim's three beside it, so at most three such
    attackers. Of Alex's 6^8 = 1,679,616 parts, those with five such
    attackers are P(8,5) = 6,720 (the other three block nothing), with
    exactly four C(5,4) P(8,4) (2^4 - 4) = 100,800 (the fifth attacker gets
    none or two or more of the other four): 1,679,616 - 107,520 =
    1,572,096. Counted by the ground program's parts this was a lower bound
    of 100,000."""
    lines = [f'Rob controls creature "M{i}" 2/2 with menace\n"M{i}" attacks Alex' for i in range(5)]
    lines += [f'Alex controls creature "B{i}" 2/2' for i in range(8)]
    lines += [f'Kim controls creature "K{i}" 2/2' for i in range(3)]
    text = TEAMS + "\n".join(lines) + "\nask blocks for Alex limit 1\n"
    with counted_from_forms(monkeypatch, recorded=False) as counts:
        answer = _answer(text)
    expected = 6**8 - perm(8, 5) - comb(5, 4) * perm(8, 4) * (2**4 - 4)
    assert counts == [expected] == [1_572_096]
    assert (answer["count"], answer["complete"]) == (expected, True)
    assert {"805.10d", "702.111b"} <= set(answer["rules"])


# five hundred random team games in the slow tier, ten in the fast one
@random_cases(500, 10)
@given(st.integers(0, 10**9))
def test_805_10d_shown_parts_counted_as_plain_enumeration_projects_them(seed):
    """805.10d: each defender's part of the team's best declarations, counted
    from the forms with the teammate's picks hidden, is what clasp's
    enumeration of blocks.lp finds, equal parts once."""
    text = random_team_combat(random.Random(seed))
    questions = ["ask blocks for Alex limit 1", "ask blocks for Kim limit 1", "ask blocks limit 1"]
    assert _class_counts(text, questions) == _plain_counts(text, questions), text


# --- the forms cover every restriction on the group ---------------------------

#: Each kind of restriction on the whole group of attackers or blockers the rule
#: base derives (a `block_group_fault` or `attack_group_fault`), and the form of
#: queries/block_classes.lp or queries/attack_classes.lp that counts it. A new
#: restriction on the group needs its form there (and in mtgkb.engine.classes if
#: it is a new shape), then its line here.
GROUP_FAULTS_COUNTED = {
    "menace_single_blocker": "decl_min_takers",  # 702.111b
    "too_few_blockers": "decl_min_takers",  # 509.1b
    "blocks_alone": "decl_not_alone",  # 509.1b
    "blocks_several": "decl_capacity",  # 509.1a (a written declaration only)
    "blocks_too_many": "decl_capacity",  # 509.1a (a written declaration only)
    "attacks_alone": "decl_not_alone",  # 508.1c
    "too_many_attackers": "decl_max_choosers",  # 508.1c
}


def test_508_1c_509_1b_every_group_restriction_has_its_counting_form():
    import re

    from tests.helpers import ROOT

    heads = re.compile(r'^(?:block|attack)_group_fault\(\w+,"[^"]+",(\w+)\(', re.MULTILINE)
    kinds = set()
    for path in sorted((ROOT / "rules").glob("*.lp")):
        kinds |= set(heads.findall(path.read_text(encoding="utf-8")))
    assert kinds == set(GROUP_FAULTS_COUNTED)
    forms = (ROOT / "queries" / "block_classes.lp").read_text(encoding="utf-8")
    forms += (ROOT / "queries" / "attack_classes.lp").read_text(encoding="utf-8")
    for form in GROUP_FAULTS_COUNTED.values():
        assert f"\n{form}(" in forms


def test_509_1b_two_except_by_restrictions_both_hold():
    """509.1b: every restriction must be obeyed, so an attacker that "can't
    be blocked except by 2 or more" and "except by 3 or more" creatures
    needs three. Two plain blockers and that attacker beside a plain one:
    the big attacker can't be blocked by two alone, so each blocker blocks
    the plain attacker or nothing: 2 x 2 = 4 (found by the property test
    above: the rule base counted 5, two blockers meeting the first
    restriction hiding the second)."""
    text = (
        "players: Rob, Alex\nactive: Rob\n"
        'Rob controls creature "Big" 2/2 with can\'t be blocked except by 2 or more creatures, '
        "can't be blocked except by 3 or more creatures\n"
        'Rob controls creature "A" 2/2\n'
        'Alex controls creature "B1" 2/2\nAlex controls creature "B2" 2/2\n'
        '"Big" attacks Alex\n"A" attacks Alex\n'
    )
    for engine in (CLASSES, PLAIN):
        answer = _answer(text + "ask blocks for Alex limit 1\n", engine)
        assert (answer["count"], answer["complete"]) == (4, True)
    legal = _answer(text + '"B1" blocks "Big"\n"B2" blocks "Big"\nask legal\n')
    assert legal["legal"] is False
    assert [v["rule"] for v in legal["violations"]] == ["509.1b"]


def test_506_2a_an_open_defending_choice_is_counted_by_branches():
    """506.2a: in a vanguard game with no attack option the attacking player
    chooses one opponent; while that choice is open, attacks.lp considers
    each one without showing it, so the forms give each target its
    opponent's branch (decl_branch). Two creatures and two opponents: each
    creature attacks the chosen opponent or not, and the declarations of the
    two choices are counted once each: 2 x 2 with Alex, 2 x 2 with Kim, the
    empty one shared: 4 + 4 - 1 = 7."""
    text = (
        "game: vanguard\nplayers: Rob, Alex, Kim\nactive: Rob\n"
        'Rob controls creature "A1" 2/2\nRob controls creature "A2" 2/2\n'
        "ask attacks limit 1\n"
    )
    scenario = parse_text(text, "open.mtg")
    facts = facts_for(scenario.questions[0], scenario_facts(scenario))
    derived = Grounding(["attack_classes"], facts, engine=CLASSES).solve(
        "attack_classes", max_models=1
    )
    assert count_space(derived.models[0], "attacks") == 7
    answer = _answer(text)
    assert (answer["count"], answer["complete"]) == (7, True)


def test_509_1a_forms_read_alike_from_one_text_or_each_symbol():
    """509.1a: the forms are read from the text of all of them at once, or
    from each one's own text when some symbol has a term inside an argument
    (which that text is not read in): the same space either way, names with
    commas, parentheses and quotes kept whole."""
    from mtgkb.engine.classes import read_space

    texts = [
        'decl_chooser(blocks,"B, (1)","P1")',
        'decl_option(blocks,"B, (1)","A \\"x\\"")',
        'decl_option(blocks,"B, (1)","A2")',
        'decl_capacity(blocks,"B, (1)",2)',
        'decl_min_takers(blocks,"A2","P1",2)',
        'decl_chooser(attacks,"C","P0")',
        '"decl_open(blocks)"',
    ]
    flat = [clingo.parse_term(t) for t in texts]
    space = read_space(flat, "blocks")
    # a term inside an argument (read from the one text still), and deeper
    # (each symbol's own text): a form inside another symbol is no form
    for other in (
        "other(f(1))",
        'cites(rule("509.1a"))',
        'other(decl_option(blocks,"B, (1)","Z"))',
        'o(p(decl_option(blocks,"B, (1)","Z")))',
    ):
        nested = [*flat, clingo.parse_term(other)]
        assert vars(space) == vars(read_space(nested, "blocks")), other
    assert space.options == {'"B, (1)"': ['"A \\"x\\""', '"A2"']}
    assert (space.capacity, space.min_takers) == ({'"B, (1)"': 2}, {('"A2"', '"P1"'): 2})
    assert space.unsupported == []


# --- 506.2a: the defending player yet to be chosen -------------------------------


def _open_choice_game(rng: random.Random) -> str:
    """A random game of three or four players with no attack option (506.2a:
    the attacking player chooses one opponent), the opponents' planeswalkers
    among the targets, creatures that can't attack one of them, and the group
    restrictions and requirements on attacking."""
    players = ["Rob", "Alex", "Kim", "Lee"][: rng.choice((3, 4))]
    lines = ["game: vanguard", f"players: {', '.join(players)}", "active: Rob"]
    if rng.random() < 0.25:
        lines.append(f"rule: no more than {rng.randint(1, 2)} creatures can attack")
    for p in players[1:]:
        if rng.random() < 0.3:
            lines.append(f'{p} controls planeswalker "W{p}" loyalty 3')
    abilities = [
        "attacks each combat if able",
        "can't attack alone",
        "summoning-sick",
        *(f"can't attack {p}" for p in players[1:]),
    ]
    for i in range(rng.randint(1, 4)):
        chosen = sorted(set(rng.sample(abilities, rng.choice((0, 1, 1, 2)))))
        with_ = f" with {', '.join(chosen)}" if chosen else ""
        lines.append(f'Rob controls creature "A{i}" 2/2{with_}')
    return "\n".join(lines) + "\n"


@random_cases(500, 10)
@given(st.integers(0, 10**9))
def test_506_2a_attack_counts_with_an_open_choice_equal_plain_enumeration(seed):
    text = _open_choice_game(random.Random(seed))
    questions = ["ask attacks limit 1"]
    assert _class_counts(text, questions) == _plain_counts(text, questions), text


def test_506_2a_each_opponent_s_attacks_are_counted_once_each():
    """506.2a: with no attack option the attacking player chooses one of
    three opponents and attacks only that one. Twenty creatures: for each
    opponent, every nonempty subset of them attacks it (2^20 - 1), and no
    attack at all is one declaration whichever is chosen: 3 (2^20 - 1) + 1,
    counted exactly from the forms (the ground program's one part, tied by
    the choice, was enumerated up to 100,000)."""
    lines = ["game: vanguard", "players: Rob, Alex, Kim, Lee", "active: Rob"]
    lines += [f'Rob controls creature "A{i}" 2/2' for i in range(20)]
    answer = _answer("\n".join(lines) + "\nask attacks limit 1\n")
    assert (answer["count"], answer["complete"]) == (3 * (2**20 - 1) + 1, True)
    assert "506.2a" in answer["rules"]
    # 508.1d: one creature must attack if able: only the declarations where it
    # does count, 2^19 of each opponent, and never no attack
    lines[3] = 'Rob controls creature "A0" 2/2 with attacks each combat if able'
    answer = _answer("\n".join(lines) + "\nask attacks limit 1\n")
    assert (answer["count"], answer["complete"]) == (3 * 2**19, True)
