"""The questions of one file share groundings (mtgkb.engine.session: each
question's `asked/1` an external switched on for its own solve, several
queries in one grounding, counting forms grounded on top of a listing's).
Sharing is for speed only: every answer is the one the question gets in a
grounding of its own (`MTGKB_SHARE=0`). Held to that on random combats of
two or three players and of Two-Headed Giant under shared team turns
(805.10d), each file asking for the play's legality (508.1, 509.1), its
outcome (510), every defender's blocks and each one's own (509.1a, 802.4),
the attacks (508.1), a creature's attack targets (506.2, 802.1) and
whether a creature can block an attacker. (A sharing bug of this kind, the
externals of a file's questions declared where gringo did not read them,
gave a defender's part of the team's blocks without the parts a teammate
completes: tests/test_805_10d_questions_of_one_file_answer_as_alone.py.)"""

from __future__ import annotations

import random
import re

from helpers import random_cases
from helpers.counting_forms import random_combat, random_team_combat
from hypothesis import given
from hypothesis import strategies as st

from mtgkb.engine.state import Engine, Options
from mtgkb.questions.answers import Limits
from mtgkb.running.batch import COMBINE_FROM, answer_files, answer_path
from mtgkb.running.runner import answer_text

#: Each question in a grounding of its own.
ALONE = Engine(Options.from_env().but(share=False))
SHARED = Engine()


def _combat(rng: random.Random) -> str:
    """A random combat, some of its blocks declared, and its questions in a
    random order."""
    if rng.random() < 0.5:
        text = random_team_combat(rng)
        defenders = ["Alex", "Kim"]
    else:
        text, counted = random_combat(rng)
        defenders = [q.split()[3] for q in counted if " for " in q]
    creatures = re.findall(r'controls creature "(\w+)"', text)
    attackers = re.findall(r'"(A\d+)" attacks', text)
    blockers = [name for name in creatures if name.startswith("D")]
    lines = [
        f'"{b}" blocks "{rng.choice(attackers)}"'
        for b in blockers
        if attackers and rng.random() < 0.4
    ]
    questions = ["ask legal", "ask outcome", "ask blocks limit 3", "ask attacks limit 3"]
    questions += [f"ask blocks for {d} limit 3" for d in defenders]
    if creatures:
        questions.append(f'ask attack targets for "{creatures[0]}"')
    if blockers and attackers:
        questions.append(f'ask can "{blockers[0]}" block "{attackers[0]}"')
    rng.shuffle(questions)
    return text + "\n".join([*lines, "combat damage", *questions]) + "\n"


# three hundred random files in the slow tier, five in the fast one
@random_cases(300, 5)
@given(st.integers(0, 10**9))
def test_a_files_questions_answered_together_as_each_alone(seed):
    text = _combat(random.Random(seed))
    shared = answer_text(text, "file.mtg", Limits(), engine=SHARED)
    alone = answer_text(text, "file.mtg", Limits(), engine=ALONE)
    assert shared.output == alone.output, text
    assert len(shared.output["answers"]) >= 6


# (each example a batch of COMBINE_FROM files: eight batches in the slow tier,
# one in the fast one)
@random_cases(8, 1)
@given(seed=st.integers(0, 10**9))
def test_a_batchs_files_answered_in_one_chunk_as_each_alone(seed, tmp_path_factory):
    """A batch answers its files' single-model questions and counting forms
    in one grounding of the chunk, each file's facts one scenario
    (mtgkb.engine.scenarios): each file's answers are still those of its
    questions each in a grounding of its own."""
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("batch")
    paths = []
    for i in range(COMBINE_FROM):
        path = folder / f"f{i}.mtg"
        path.write_text(_combat(rng), encoding="utf-8")
        paths.append(str(path))
    together = [r.output for r in answer_files(paths, Limits(), jobs=1)]
    alone = [answer_path(p, Limits(), engine=ALONE).output for p in paths]
    assert together == alone
