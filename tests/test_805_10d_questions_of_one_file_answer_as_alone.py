"""805.10d: under shared team turns a team declares one block, and `ask
blocks for P` shows P's part of each legal declaration. The questions of one
file share a grounding, each question's `asked/1` an external switched on for
its own solve (mtgkb.engine.session.SharedGroundings); a batch's chunk does
the same for its files' counting forms (mtgkb.engine.scenarios). Declared
through clingo's backend before the ground(), those externals were not
externals to gringo, which dropped instances of the rules that read them:
with `ask blocks for Kim` and `ask blocks for Alex` in one file, Kim's
answer lost every part that Alex's creatures complete. They are declared in
program parts now (mtgkb.engine.programs.external_parts); each answer is the
one its question gets alone."""

from __future__ import annotations

import random

import clingo
import pytest
from helpers import random_cases
from helpers.counting_forms import TEAMS, random_team_combat
from hypothesis import given
from hypothesis import strategies as st

from mtgkb.engine.programs import external_parts
from mtgkb.questions.answers import Limits
from mtgkb.running.batch import COMBINE_FROM, answer_files, answer_path
from mtgkb.running.runner import answer_text

#: One attacker with menace (702.111b) against Alex's B1 and Kim's K1: the
#: team blocks it with both or with neither.
MENACE = TEAMS + (
    'Rob controls creature "A1" 2/2 with menace\n'
    'Alex controls creature "B1" 2/2\n'
    'Kim controls creature "K1" 2/2\n'
    '"A1" attacks Alex\n'
)


def _answers(text: str) -> list[dict]:
    return answer_text(text, "team.mtg", Limits()).output["answers"]


@pytest.mark.parametrize("first, second", [("Kim", "Alex"), ("Alex", "Kim")])
def test_805_10d_each_players_part_with_both_asked_in_one_file(first, second):
    """702.111b: the attacker is blocked by none or by two or more creatures,
    and the team has two, one each. The team's legal declarations: no
    block, and B1 and K1 both blocking. So each player's parts are "no
    block" and its own creature blocking: two each, in whichever order the
    questions come (the first asked lost its second part before)."""
    answers = _answers(MENACE + f"ask blocks for {first}\nask blocks for {second}\n")
    own = {"Alex": "B1", "Kim": "K1"}
    other = {"Alex": "Kim", "Kim": "Alex"}
    for player, answer in zip((first, second), answers, strict=True):
        assert answer["defender"] == player
        assert (answer["count"], answer["complete"]) == (2, True)
        assert answer["assignments"] == [{}, {own[player]: "A1"}]
        # each part listed is completed by the teammate's blocks, not shown
        assert answer["teammates"] == [other[player]]
        assert {"805.10d", "702.111b"} <= set(answer["rules"])


def test_805_10d_the_team_s_whole_block_and_a_free_for_all_name_no_teammates():
    """`ask blocks` lists the team's whole declarations (805.10d), and a
    player of a free-for-all declares alone (509.1a): neither answer names
    teammates whose blocks are not shown."""
    (team,) = _answers(MENACE + "ask blocks\n")
    assert team["count"] == 2 and {"B1": "A1", "K1": "A1"} in team["assignments"]
    assert "teammates" not in team
    alone = (
        "game: free-for-all\noption: attack-multiple-players\nplayers: Rob, Alex, Kim\n"
        'active: Rob\nRob controls creature "A1" 2/2\nAlex controls creature "B1" 2/2\n'
        '"A1" attacks Alex\nask blocks for Alex\n'
    )
    (answer,) = _answers(alone)
    assert answer["count"] == 2 and "teammates" not in answer


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "Kim's part of each legal declaration of the team; Alex's blocks"),
        ("it", "la parte di Kim di ogni dichiarazione legale della squadra; i blocchi di"),
    ],
)
def test_805_10d_the_text_says_whose_blocks_are_not_shown(tmp_path, capsys, lang, said):
    """The text output says, above the listing, that each declaration is
    Kim's part of the team's and that Alex's blocks are not shown
    (805.10d), in English and in Italian."""
    from mtgkb.cli import main

    path = tmp_path / "team.mtg"
    path.write_text(MENACE + "ask blocks for Kim\n", encoding="utf-8")
    assert main(["run", "--lang", lang, str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert said in out and "(805.10d)" in out


def test_805_10d_a_chunks_counts_with_both_asked_are_each_files_alone(tmp_path):
    """The same file, each question limited to one declaration listed (so
    the count is read from the counting forms a batch's chunk solves with
    both questions' atoms free externals), answered in a batch of
    COMBINE_FROM files as alone: 2 for Kim and 2 for Alex."""
    text = MENACE + "ask blocks for Kim limit 1\nask blocks for Alex limit 1\n"
    paths = []
    for i in range(COMBINE_FROM):
        path = tmp_path / f"f{i}.mtg"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    limits = Limits()
    alone = answer_path(paths[0], limits).output
    assert [(a["defender"], a["count"]) for a in alone["answers"]] == [("Kim", 2), ("Alex", 2)]
    together = [r.output for r in answer_files(paths, limits, jobs=1)]
    assert [t["answers"] for t in together] == [alone["answers"]] * COMBINE_FROM


def test_external_parts_keep_a_users_string_as_data():
    """The externals' arguments are the parts' parameters, never program
    text: a name with quotes, parentheses and full stops is one atom, an
    external, false until assigned; a predicate name that gringo would not
    read as it is is refused."""
    odd = clingo.Function("asked", [clingo.String('K"). #external x. a(')])
    plain = clingo.Function("asked", [clingo.Function("blocks")])
    ctl = clingo.Control()
    ctl.add("base", [], "seen(X) :- asked(X).")
    ctl.ground([("base", []), *external_parts(ctl, [odd, plain])])
    atoms = {str(a.symbol): a.is_external for a in ctl.symbolic_atoms}
    assert atoms[str(odd)] and atoms[str(plain)]
    assert "x" not in atoms
    ctl.assign_external(odd, True)
    with ctl.solve(yield_=True) as handle:
        (model,) = list(handle)
        assert {str(s) for s in model.symbols(atoms=True)} == {
            str(odd),
            str(clingo.Function("seen", odd.arguments)),
        }
    with pytest.raises(ValueError):
        external_parts(clingo.Control(), [clingo.Function("Asked", [])])


# two hundred random team combats in the slow tier, five in the fast one
@random_cases(200, 5)
@given(st.integers(0, 10**9))
def test_805_10d_answers_of_one_file_are_each_questions_alone(seed):
    """Each defender's part, and the whole team's block, asked together in
    one file: each answer (listing, count, rules) is the one the question
    gets in a file of its own."""
    text = random_team_combat(random.Random(seed))
    questions = ["ask blocks for Alex limit 3", "ask blocks for Kim limit 3", "ask blocks limit 3"]
    together = _answers(text + "\n".join(questions) + "\n")
    alone = [_answers(text + q + "\n")[0] for q in questions]
    assert together == alone, text
