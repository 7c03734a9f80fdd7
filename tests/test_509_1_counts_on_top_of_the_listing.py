"""509.1, 508.1: the exact count of a listing question (`ask blocks`,
`ask attacks`) reads the forms its counting query derives
(queries/block_classes.lp, attack_classes.lp). Where the listing's grounding
holds all their counting query needs (mtgkb.engine.analysis.Analysis.stacked),
the counting query's own statements are grounded on top of it
(mtgkb.engine.solve.Grounding.stacked_model), not in a grounding of their
own: the same counts and listings, with one grounding of the rule base
fewer."""

from __future__ import annotations

import random

import pytest
from helpers.counting_forms import PLAIN, random_combat
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgkb.engine import solve
from mtgkb.engine.solve import Grounding
from mtgkb.engine.state import Engine, Options
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits, facts_for
from mtgkb.running.runner import answer_text
from tests.helpers import ALL_EXAMPLES

# (`ask blocks` listed from blocks.lp's own grounding: a listing read from the
# forms, mtgkb.engine.first_declarations, has no grounding to stack them on)
LISTED = Options.from_env().but(forms_listing=False)
STACKED = Engine(LISTED)
ALONE = Engine(LISTED.but(share=False))  # each query grounded on its own

# 702.111b: two attackers with menace, three vanilla blockers that may block
# either; each attacker is blocked by none or by two or more. By the blockers
# of each attacker: none (1); two or three on one of them (2 x (3 + 1));
# both blocked would take four: 1 + 8 = 9 declarations.
MENACE = (
    "players: Rob, Alex\nactive: Rob\n"
    'Rob controls creature "M1" 2/2 with menace\n'
    'Rob controls creature "M2" 2/2 with menace\n'
    'Alex controls creature "B1" 2/2\nAlex controls creature "B2" 2/2\n'
    'Alex controls creature "B3" 2/2\n'
    '"M1" attacks Alex\n"M2" attacks Alex\n'
)


@pytest.fixture
def groundings(monkeypatch) -> list[tuple[str, ...]]:
    """The queries of every grounding made, in order."""
    made: list[tuple[str, ...]] = []
    original = Grounding.__init__

    def recording(self, queries, *args, **kwargs):
        made.append(tuple(queries))
        original(self, queries, *args, **kwargs)

    monkeypatch.setattr(solve.Grounding, "__init__", recording)
    return made


def _answers(text: str, engine: Engine = STACKED) -> list[dict]:
    limits = Limits(max_models=100000)
    return answer_text(text, "stacked.mtg", limits, engine=engine).output["answers"]


def test_702_111b_listed_from_the_forms_with_one_grounding(groundings):
    """By default `ask blocks` is listed from its counting forms: each
    question's one grounding is the counting query's (for Alex, then for
    every defender: their facts differ), none of blocks.lp, and the answers
    are those of the listing's own grounding."""
    text = MENACE + "ask blocks for Alex limit 2\nask blocks limit 1\n"
    read = _answers(text, Engine(Options.from_env()))
    assert groundings == [("block_classes",), ("block_classes",)]
    assert read == _answers(text)
    assert [a["count"] for a in read] == [9, 9] and "702.111b" in read[0]["rules"]


def test_702_111b_count_read_on_top_of_the_listing(groundings):
    """The listing stops at 1 of the 9 declarations, so the count needs the
    forms: they are read in the listing's grounding, none of their own."""
    answer = _answers(MENACE + "ask blocks for Alex limit 1\n")[0]
    assert (answer["count"], answer["complete"], len(answer["assignments"])) == (9, True, 1)
    assert "702.111b" in answer["rules"]
    assert ("blocks",) in groundings
    assert ("block_classes",) not in groundings


def test_702_111b_the_same_answer_as_a_counting_grounding_of_its_own(groundings):
    text = MENACE + "ask blocks for Alex limit 2\nask blocks limit 1\nask attacks limit 1\n"
    stacked = _answers(text)
    assert ("block_classes",) not in groundings
    alone = _answers(text, ALONE)
    assert ("block_classes",) in groundings  # (without sharing: their own)
    assert stacked == alone
    assert [a["count"] for a in stacked[:2]] == [9, 9]


def test_509_1_the_listing_grounding_shows_nothing_of_the_counting_statements():
    """After the forms are read on top, later solves of the listing's own
    grounding find the same declarations and show none of the forms
    (their statements are switched off)."""
    scenario = parse_text(MENACE + "ask blocks for Alex\n", "stacked.mtg")
    facts = facts_for(scenario.questions[0], scenario_facts(scenario))
    grounding = Grounding(["blocks"], facts, signatures=facts.signatures)
    before = grounding.solve("blocks", max_models=0)
    forms = grounding.stacked_model("block_classes")
    assert forms is not None
    assert {s.name for s in forms} >= {"decl_chooser", "decl_option", "decl_min_takers"}
    after = grounding.solve("blocks", max_models=0)
    assert before.count == after.count == 9
    texts = sorted(sorted(map(str, model)) for model in after.models)
    assert texts == sorted(sorted(map(str, model)) for model in before.models)
    assert not any(s.name.startswith("decl_") for model in after.models for s in model)


def test_508_1_attack_forms_are_not_read_on_top_of_the_attacks_listing():
    """queries/attacks.lp chooses which players an attack may consider
    defending (`considered_defending/2`, 506.2a: one opponent chosen), and
    the rule base's `can_attack_target/2`, which the counting forms read,
    follows that choice: on top of the listing the forms would follow one
    choice, where alone they follow none. Refused: the counting query is
    grounded on its own."""
    scenario = parse_text(MENACE + "ask attacks\n", "stacked.mtg")
    facts = facts_for(scenario.questions[0], scenario_facts(scenario))
    grounding = Grounding(["attacks"], facts, signatures=facts.signatures)
    assert grounding.stacked_model("attack_classes") is None


# the counts read on top, against plain enumeration by the rule base, on the
# random small games of the counting tests (every restriction and requirement
# the counter reads); listings of one declaration, so the count needs the forms
@settings(
    max_examples=300 if ALL_EXAMPLES else 10,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.integers(0, 10**9))
def test_508_1_509_1_counts_on_top_equal_plain_enumeration(seed):
    text, questions = random_combat(random.Random(seed))
    stacked = _answers(text + "\n".join(questions) + "\n")
    plain = answer_text(
        text + "\n".join(q.replace(" limit 1", "") for q in questions) + "\n",
        "plain.mtg",
        Limits(max_models=0),
        engine=PLAIN,
    ).output["answers"]
    assert [(a["count"], a["complete"]) for a in stacked] == [(a["count"], True) for a in plain], (
        text
    )


def test_509_1b_a_house_rule_that_reads_the_listing_s_choice_is_not_read_on_top(tmp_path):
    """A house rule (`--with`) under which an attacker blocked once needs
    three blockers (509.1b's "can't be blocked except by N or more", made to
    follow the declared blocks): the forms it changes would follow the
    listing's choice of blocks on top of its grounding, where on their own
    they follow none. Refused: the counting query is grounded on its own,
    as before."""
    from mtgkb.rulebase.location import resolve_rule_base

    house = tmp_path / "house.lp"
    house.write_text("% 509.1b: a house rule\nmin_blockers(C,3) :- blocks(_,C).\n", "utf-8")
    scenario = parse_text(MENACE + "ask blocks for Alex\n", "stacked.mtg")
    facts = facts_for(scenario.questions[0], scenario_facts(scenario))
    engines = (Engine(), Engine(location=resolve_rule_base(None, [house])))
    found = []
    for engine in engines:
        grounding = Grounding(["blocks"], facts, signatures=facts.signatures, engine=engine)
        found.append(grounding.stacked_model("block_classes"))
    assert found[0] is not None and found[1] is None
