"""The first declarations of `ask blocks` are read from the model of its
counting query (mtgkb.engine.first_declarations), with no grounding of
blocks.lp's own: solved ahead in a batch's chunk, or on its own for a file
answered alone. They must be the very declarations that blocks.lp's own
grounding lists (the engine's `forms_listing` off: the oracle): the same
ones, in the canonical order, with the same count and the same rules cited
(509.1a-c, 702.111b, 805.10d), each declaration's creatures in file order."""

from __future__ import annotations

import json
import random

import pytest
from helpers import random_cases
from helpers.counting_forms import THREE_ON_THREE, random_combat, random_team_combat
from hypothesis import given
from hypothesis import strategies as st

from mtgkb.engine import first_declarations as module
from mtgkb.engine.state import Engine, Options
from mtgkb.questions.answers import Limits
from mtgkb.running.batch import answer_together
from mtgkb.running.runner import EXIT_TIMEOUT, answer_now, answer_text


@pytest.fixture
def read_from_forms(monkeypatch):
    """How many listings the batch read from the forms (not None)."""
    read = []
    original = module.first_declarations

    def watched(*args, **kwargs):
        found = original(*args, **kwargs)
        read.append(found is not None)
        return found

    monkeypatch.setattr(module, "first_declarations", watched)
    return read


def _in_a_batch(texts: list[str]) -> list[dict]:
    """The answers of each text, the files answered together as a batch (or
    the server's gathered requests) answer them (a question two files or more
    ask is solved ahead for them all: so at least two)."""
    items = [(f"f{i}.mtg", text, None) for i, text in enumerate(texts)]
    results = answer_together(items, Limits(), Engine())
    return [r.output["answers"] for r in results]


#: blocks.lp's own grounding lists (the oracle of the listing read from the forms)
GROUNDING = Options.from_env().but(forms_listing=False)


def _alone(text: str, options: Options = GROUNDING) -> list[dict]:
    """The answers of `text` answered alone, listed from blocks.lp's own
    grounding unless `options` say otherwise."""
    engine = Engine(options)
    return answer_text(text, "alone.mtg", Limits(), engine=engine).output["answers"]


#: Ann's A1 has menace (702.111b: blocked by none or two or more creatures);
#: Ben's B1 and B2 may each block one attacker or none (509.1a).
MENACE = """players: Ann, Ben
active: Ann
Ann controls creature "A1" 2/2 with menace
Ann controls creature "A2" 2/2
Ben controls creature "B1" 2/2
Ben controls creature "B2" 2/2
"A1" attacks Ben
"A2" attacks Ben
ask blocks for Ben limit 3
ask blocks for Ben
"""


def test_702_111b_a_menace_attacker_listed_from_the_forms_by_hand(read_from_forms):
    # B1 chooses slowest, each creature's "no block" first, then its targets
    # in file order; A1 blocked by B1 alone or by B2 alone breaks 702.111b.
    expected = [
        {},
        {"B2": "A2"},
        {"B1": "A1", "B2": "A1"},
        {"B1": "A2"},
        {"B1": "A2", "B2": "A2"},
    ]
    (limited, every) = _in_a_batch([MENACE, MENACE])[0]
    assert read_from_forms == [True] * 4  # (no grounding of blocks.lp's own)
    assert (every["count"], every["complete"]) == (5, True)
    assert every["assignments"] == expected
    # (each declaration's creatures in file order, whichever search found it)
    assert [list(a) for a in every["assignments"]] == [list(a) for a in expected]
    assert limited["count"] == 5 and limited["assignments"] == expected[:3]
    assert {"509.1a", "702.111b"} <= set(every["rules"])
    assert every == _alone(MENACE)[1]


def test_702_111b_a_file_alone_lists_from_the_forms_too(read_from_forms):
    # alone, the counting query is solved on its own and walked: the same
    # five declarations as blocks.lp's grounding, with no grounding of its own
    limited, every = _alone(MENACE, Options.from_env())
    assert read_from_forms == [True, True]
    assert [limited, every] == _alone(MENACE)
    assert every["count"] == 5 and {"509.1a", "702.111b"} <= set(every["rules"])


def test_805_10d_a_teammates_part_listed_from_the_forms(read_from_forms):
    # Two-Headed Giant under shared team turns: Kim's K1 blocks the menace
    # attacker only beside Alex's B1 (805.10d, 702.111b), so Kim's part is
    # "no block" or "K1 blocks A0", and Alex is named as the teammate.
    text = (
        "game: two-headed-giant\nplayers: Rob, Ann, Alex, Kim\nteam T1: Rob, Ann\n"
        "team T2: Alex, Kim\nactive: Rob\noption: shared-team-turns\n"
        'Rob controls creature "A0" 2/2 with menace\n'
        'Alex controls creature "B1" 2/2\nKim controls creature "K1" 2/2\n'
        '"A0" attacks Kim\nask blocks for Kim\nask blocks for Alex\n'
    )
    kim, alex = _in_a_batch([text, text])[0]
    assert all(read_from_forms) and read_from_forms
    assert kim["assignments"] == [{}, {"K1": "A0"}] and kim["teammates"] == ["Alex"]
    assert alex["assignments"] == [{}, {"B1": "A0"}] and alex["teammates"] == ["Kim"]
    assert "805.10d" in kim["rules"] and "702.111b" in kim["rules"]
    assert [kim, alex] == _alone(text)


@random_cases(300, 15)
@given(st.integers(0, 10**9), st.sampled_from((1, 2, 5, 20)))
def test_509_1_random_combats_list_as_alone(seed, limit):
    """Random combats with every restriction and requirement the forms
    describe (menace, "can't be blocked except by N or more", "can't block
    alone", "blocks each combat if able", "must be blocked if able", several
    blocks, bands, teams): the listing read from the forms, in a batch and
    alone, is the one blocks.lp's own grounding gives."""
    rng = random.Random(seed)
    texts = []
    for _ in range(3):
        text, questions = random_combat(rng)
        asked = [q.replace("limit 1", f"limit {limit}") for q in questions if "blocks" in q]
        texts.append(text + "\n".join(asked) + "\n")
    team = random_team_combat(rng)
    texts.append(team + f"ask blocks for Alex limit {limit}\nask blocks for Kim limit {limit}\n")
    # (as text: the same declarations, and each one's creatures in the same order)
    oracle = json.dumps([_alone(text) for text in texts])
    assert json.dumps(_in_a_batch(texts)) == oracle
    assert json.dumps([_alone(text, Options.from_env()) for text in texts]) == oracle


def test_the_walk_is_bounded_then_the_grounding_lists(read_from_forms, monkeypatch):
    # past the walk's bound of counts the batch lists from blocks.lp's own
    # grounding, and says the same
    monkeypatch.setattr(module, "WORK", 2)
    (limited, every) = _in_a_batch([MENACE, MENACE])[0]
    # (each file's first question tried; its grounding then took the model)
    assert read_from_forms and not any(read_from_forms)
    assert every == _alone(MENACE)[1] and every["count"] == 5


def test_a_walk_past_its_time_out_is_a_time_out_answer(monkeypatch):
    # the walk's counts check the time-out as every count does: past it, the
    # file's answer is the time-out's (exit 3), never a traceback or a
    # listing cut short
    seen = []
    original = module.first_declarations

    def late(model, space, predicate, canonical, listed, end=None):
        seen.append(end)
        return original(model, space, predicate, canonical, listed, end=0.0)

    monkeypatch.setattr(module, "first_declarations", late)
    # (answered in this process, as a worker does: clingo stops itself)
    result = answer_now(MENACE, "late.mtg", Limits(timeout=60), Engine())
    assert seen and seen[0] is not None  # (the question's time-out reached the walk)
    assert result.status == EXIT_TIMEOUT and result.output["error"] == "timeout"


#: No restriction (509.1a alone): Ben's three creatures each block one of
#: Ann's three attackers or none, 4^3 = 64 declarations, all of them legal.
FREE = THREE_ON_THREE + "ask blocks for Ben limit 20\n"


def test_509_1a_picks_no_restriction_names_cost_one_count_a_creature(monkeypatch):
    # A block no restriction names (no menace, no requirement) is as good as
    # another: which attacker a creature blocks changes neither whether the
    # declaration is legal nor the requirements it obeys. So the walk counts
    # once for each creature's node it visits, not once for each declaration.
    # The first 20: B1 blocks nothing, then B2's 4 picks under it, each with
    # B3's 4 (16), then B1 blocks A1 with B2 none and B3's 4 (4): B1's node,
    # 2 of B2's, 5 of B3's, and the count of the first declaration: 9 at
    # most (one count a declaration, as before, made 20).
    counts = []
    original = module.best_of

    def counted(space, end=None):
        counts.append(space)
        return original(space, end)

    monkeypatch.setattr(module, "best_of", counted)
    (answer,) = _alone(FREE, Options.from_env())
    assert (answer["count"], answer["complete"]) == (64, True)
    assert answer == _alone(FREE)[0]  # (blocks.lp's own grounding lists the same 20)
    assert answer["assignments"][:4] == [{}, {"B3": "A1"}, {"B3": "A2"}, {"B3": "A3"}]
    assert "509.1a" in answer["rules"]
    walked = len(counts) - 1  # (the first: the count of the whole space)
    assert 1 <= walked <= 1 + 1 + 2 + 5
