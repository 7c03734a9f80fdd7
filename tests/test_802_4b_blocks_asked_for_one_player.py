"""802.4b: in a multiplayer game each defending player declares the blocks of
their own creatures. `ask blocks for P` lists P's declarations, so the
possible blocks of the other defending players' creatures are not in
question: the grounding judges only the pairs of P's creatures (and, under
shared team turns, 805.10d, those of P's teammates, who declare one combined
block). `ask blocks` for every defending player judges them all."""

from helpers.combat_answers import answers

from mtgkb.engine.solve import Grounding
from mtgkb.engine.state import Engine
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text

GAME = """game: free-for-all
option: attack-multiple-players
players: Rob, Alex, Carissa
active: Rob
phase: declare-blockers
Rob controls creature "Serra Angel" 4/4 with flying
Rob controls creature "Runeclaw Bear" 2/2
Rob controls creature "Ox" 2/4
Alex controls creature "Giant Spider" 2/4 with reach
Alex controls creature "Grizzly Bears" 2/2
Carissa controls creature "Hill Giant" 3/3
"Serra Angel" attacks Alex
"Runeclaw Bear" attacks Alex
"Ox" attacks Carissa
"""

TWO_HEADED = """game: two-headed-giant
players: Rob, Sam, Alex, Beth
team North: Rob, Sam
team South: Alex, Beth
active: Rob
phase: declare-blockers
Rob controls creature "Ox" 2/4
Alex controls creature "Grizzly Bears" 2/2
Beth controls creature "Hill Giant" 3/3
"Ox" attacks Alex
"""


def _judged_pairs(text: str, question: str) -> set[tuple[str, str]]:
    """The (blocker, attacker) pairs the `blocks` grounding of `text` judges."""
    facts = scenario_facts(parse_text(text + question + "\n", "x"))
    grounding = Grounding(["blocks"], facts, engine=Engine())
    atoms = grounding.ctl.symbolic_atoms.by_signature("block_pair", 2)
    return {tuple(arg.string for arg in atom.symbol.arguments) for atom in atoms}


def test_802_4b_blocks_for_one_player_are_their_creatures_declarations():
    blocks = answers(GAME + "ask blocks for Alex\n")["blocks"]
    # 802.4a: Alex's creatures block only what attacks Alex; 702.9b: the Bears
    # can't block the flying Angel, the Spider (reach) may; 509.1a: one attacker
    # each. Spider: none, Angel or Bear (3) x Bears: none or Bear (2) = 6.
    assert blocks["count"] == 6 and blocks["complete"] is True
    assert {"509.1a", "702.9b", "802.4a"} <= set(blocks["rules"])
    assert all("Hill Giant" not in declaration for declaration in blocks["assignments"])


def test_802_4b_only_the_asked_players_pairs_are_judged():
    pairs = _judged_pairs(GAME, "ask blocks for Alex")
    assert ("Giant Spider", "Serra Angel") in pairs
    assert ("Grizzly Bears", "Runeclaw Bear") in pairs
    assert not {pair for pair in pairs if pair[0] == "Hill Giant"}


def test_802_4b_every_defending_players_pairs_when_all_blocks_are_asked():
    pairs = _judged_pairs(GAME, "ask blocks")
    assert ("Hill Giant", "Ox") in pairs and ("Giant Spider", "Runeclaw Bear") in pairs
    # each defending player's own choices multiply: 6 for Alex x 2 for Carissa
    assert answers(GAME + "ask blocks\n")["blocks"]["count"] == 12


def test_805_10d_a_teammates_pairs_are_judged_with_the_asked_players():
    # the defending team declares one combined block: Beth's Hill Giant takes part
    pairs = _judged_pairs(TWO_HEADED, "ask blocks for Alex")
    assert {("Grizzly Bears", "Ox"), ("Hill Giant", "Ox")} <= pairs
    # and the combined declarations: each of the two may block the Ox or not (4),
    # Alex's part of each shown, equal parts one answer: none, or the Bears
    blocks = answers(TWO_HEADED + "ask blocks for Alex\n")["blocks"]
    assert blocks["count"] == 2 and {"805.10d"} <= set(blocks["rules"])
