"""A listing lists only the declarations that obey the most requirements
(509.1c), even when atoms it does not show add to what is obeyed (805.10d: a
teammate's blocks, not shown in `ask blocks for P`).

The listing finds the optimum first, then lists the models within it
(mtgkb.engine.listing.first_models). clasp, projecting on the shown atoms,
optimises only over the shown parts it meets first ("Optimization may depend
on enumeration order"). Its optimum was then short of the best, and the
listing held a part that obeys fewer requirements: a confidently wrong
listing. The optimum is now found with projection off."""

from __future__ import annotations

import clingo

from mtgkb.engine.listing import Canonical, first_models
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

#: Two-Headed Giant under shared team turns: the team of Alex and Kim blocks
#: as one (805.10d). Each of their three creatures blocks each combat if able,
#: and A0 must be blocked if able (509.1c). So the team's best blocks have all
#: three blocking and A0 blocked: Alex's DAlex0 blocks in every one of them.
TEAM = """game: two-headed-giant
players: Rob, Ann, Alex, Kim
team T1: Rob, Ann
team T2: Alex, Kim
active: Rob
option: shared-team-turns
Rob controls creature "A0" 2/2 with must be blocked if able
"A0" attacks Alex
Rob controls creature "A1" 2/2 with can't be blocked except by 2 or more creatures, summoning-sick
"A1" attacks Alex
Ann controls creature "A2" 2/2 with can't attack alone
"A2" attacks Alex
Alex controls creature "DAlex0" 2/2 with blocks each combat if able
Kim controls creature "DKim0" 2/2 with blocks each combat if able
Kim controls creature "DKim1" 2/2 with blocks each combat if able, can block an additional creature
ask blocks for Alex limit 1
ask blocks for Kim limit 1
ask blocks for Alex
"""


def test_509_1c_805_10d_a_players_part_obeys_the_teams_most_requirements():
    alex_first, kim_first, alex = answer_text(TEAM, "team.mtg", Limits()).output["answers"]
    # DAlex0 blocks one of the three attackers, never none
    assert alex["assignments"] == [{"DAlex0": "A0"}, {"DAlex0": "A1"}, {"DAlex0": "A2"}]
    assert (alex["count"], alex["complete"]) == (3, True)
    assert alex_first["assignments"] == [{"DAlex0": "A0"}]
    # Kim's creatures both block (the first in file order: each its first target)
    assert kim_first["assignments"] == [{"DKim0": "A0", "DKim1": "A0"}]
    assert {"509.1c", "805.10d"} <= set(alex["rules"]) and kim_first["teammates"] == ["Alex"]


#: h(1..6) not shown add to the points; s is shown, and s forbids h(6): the
#: most points (6) are had only without s.
HIDDEN_POINTS = """
{ h(1..6) }.
{ s }.
:- s, h(6).
#show s/0.
#maximize { 1,X : h(X) }.
"""


def test_the_optimum_of_a_listing_counts_the_atoms_it_does_not_show():
    ctl = clingo.Control(["--project=show", "--warn=none"])
    ctl.add("base", [], HIDDEN_POINTS)
    ctl.ground([("base", [])])
    canonical = Canonical({("s", 0): lambda atom: (0,)})
    listed = first_models(ctl, canonical, 5)
    # the only projection of a best model: s absent (with s, 5 points at most)
    assert [[str(atom) for atom in model] for model in listed] == [[]]
