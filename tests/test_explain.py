"""`ask explain`: derivation trees citing the CR, and for an illegal play the
smallest set of rules that together forbid it (a minimal unsatisfiable core
over CR-number switches)."""

import io
import json

import clingo
import pytest
from helpers import CONFORMANCE, ILLEGAL_BLOCK_PLAY, needs_shared
from helpers.answering import engine, run
from rich.console import Console

from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.output.text import print_result
from mtgkb.questions import answers, explain
from mtgkb.questions.answers import Limits
from mtgkb.questions.explain import tree
from mtgkb.rulebase.index import load_index


@pytest.fixture
def wired(monkeypatch):
    """The explain answer registered as the lead will register it."""
    monkeypatch.setitem(answers.ANSWERS, "explain", explain.answer_explain)


def explained(text: str) -> dict:
    """The explain answer of a scenario text (`ask explain` added when missing)."""
    if "ask explain" not in text:
        text += "\nask explain\n"
    scenario = parse_text(text, "<test>")
    question = next(q for q in scenario.questions if q.kind == "explain")
    return explain.answer_explain(question, scenario, scenario_facts(scenario), Limits())


def nodes(items):
    for item in items:
        yield item
        yield from nodes(item.get("because", []))


def find(answer: dict, atom_start: str) -> list[dict]:
    return [n for n in nodes(answer["tree"]) if n.get("atom", "").startswith(atom_start)]


def question(answer: dict, kind: str) -> dict:
    return next(item for item in answer["tree"] if item.get("question") == kind)


# conformance c05, inline: Alex's creature blocks a creature attacking Carissa
C05 = ILLEGAL_BLOCK_PLAY + "ask legal\n"


def _assert_c05(answer: dict) -> None:
    (violation,) = find(answer, "violation(")
    assert violation["rule"] == "802.4a"
    assert violation["forbidden_by"] == {
        "rules": ["802.4a"],
        "objects": ["Grizzly Bears", "Hill Giant"],
    }
    assert "802.4a" in answer["rules"]
    # the facts it rests on are leaves
    facts = {n["conclusion"] for n in violation["because"] if n.get("fact")}
    assert {"Grizzly Bears blocks Hill Giant", "Hill Giant attacks Carissa"} <= facts


def test_802_4a_explain_block_of_another_players_attacker_forbidden_by_802_4a():
    _assert_c05(explained(C05))


@needs_shared
def test_802_4a_explain_conformance_c05_names_802_4a_and_both_creatures(wired):
    text = (CONFORMANCE / "c05_block_other_players_attacker.mtg").read_text(encoding="utf-8")
    out = run(text + "\nask explain\n", "c05")
    answer = next(a for a in out["answers"] if a["ask"] == "explain")
    _assert_c05(answer)
    assert json.loads(json.dumps(answer)) == answer  # plain JSON


def test_802_1_802_2_explain_defending_players_rest_on_the_option_and_the_opponents():
    answer = explained(
        "option: attack-multiple-players\nplayers: Rob, Alex, Carissa\nask defending players\n"
    )
    tree = question(answer, "defending")["because"]
    assert [n["atom"] for n in tree] == ['defending("Alex")', 'defending("Carissa")']
    assert all(n["rule"] == "802.2" and n["says"] for n in tree)
    (mode,) = find(answer, "combat_mode(multiple)")[:1]
    assert mode["rule"] == "802.2"
    (option,) = mode["because"]
    assert option["atom"] == "uses_option(attack_multiple_players)" and option["rule"] == "802.1"
    assert option["because"][0]["atom"] == "option(attack_multiple_players)"
    assert option["because"][0]["fact"]
    assert any(n["atom"] == 'opponent("Rob","Alex")' for n in nodes(tree))
    assert "forbidden" not in answer  # nothing declared, nothing forbidden


def test_506_2_explain_two_player_defending_player_is_the_nonactive_player():
    answer = explained("players: Ann, Ben\nask defending players\n")
    (node,) = question(answer, "defending")["because"]
    assert node["atom"] == 'defending("Ben")' and node["rule"] == "506.2"
    assert any(n["atom"] == 'nonactive("Ben")' and n["rule"] == "102.1" for n in nodes([node]))


def test_119_3_120_3a_explain_outcome_life_total_from_its_steps():
    answer = explained(
        'players: Ann, Ben\n"Shock" deals 2 damage to Ann\nAnn gains 5 life\nask outcome\n'
    )
    roots = question(answer, "outcome")["because"]
    ann = next(n for n in roots if n["atom"] == 'life("Ann",23)')
    assert ann["rule"] == "119.3"
    below = list(nodes([ann]))
    damage = next(n for n in below if n["atom"].startswith('life_change(1,"Ann",-2,damage'))
    assert {damage["rule"], *damage.get("also", [])} >= {"119.2", "120.3a"}
    gain = next(n for n in below if n["atom"] == 'life_change(2,"Ann",5,gain)')
    assert gain["rule"] == "119.3"
    start = next(n for n in below if n["atom"] == 'starting_life("Ann",20)')
    assert "103.4" in {start["rule"], *start.get("also", [])}
    assert any(n.get("fact") and n["atom"].startswith("event(1,damage(") for n in below)


def test_704_5a_explain_a_player_at_zero_life_loses():
    answer = explained('players: Ann, Ben\n"Bolt" deals 20 damage to Ben\nask outcome\n')
    (lost,) = find(answer, 'lost("Ben")')
    assert "704.5a" in {lost["rule"], *lost.get("also", [])}
    assert any(n["atom"] == 'life("Ben",0)' for n in lost["because"])


def test_119_3_explain_folds_steps_that_leave_a_life_total_unchanged():
    events = "\n".join("Ann gains 1 life" for _ in range(6))
    answer = explained(f"players: Ann, Ben\n{events}\nask outcome\n")
    (ben,) = [n for n in question(answer, "outcome")["because"] if n["atom"] == 'life("Ben",20)']
    (step,) = ben["because"]
    # after event 6, back to after event 1: nothing changed; then the start
    assert step["atom"] == 'life_at("Ben",6,20)' and step["folded"] == 5
    assert step["because"][0]["atom"] == 'life_at("Ben",0,20)'


def test_101_4_explain_apnap_order_places():
    answer = explained(
        "players: Rob, Alex, Carissa\nactive: Alex\neach player sacrifices a creature\nask order\n"
    )
    places = question(answer, "order")["because"]
    assert [n["atom"] for n in places] == [
        'order(1,"Alex")',
        'order(2,"Carissa")',
        'order(3,"Rob")',
    ]
    assert all(n["rule"] == "101.4" for n in places)


def test_702_14c_802_2a_explain_landwalk_block_is_forbidden_by_both_rules_together():
    answer = explained(
        """option: attack-multiple-players
players: Rob, Alex, Carissa
Rob controls creature "Runeclaw Bear" 2/2
Rob controls creature "Goblin Mountaineer" 1/1 with mountainwalk
Carissa controls land "Mountain" with type mountain
Carissa controls creature "Grizzly Bears" 2/2
"Runeclaw Bear" attacks Alex
"Goblin Mountaineer" attacks Carissa
"Grizzly Bears" blocks "Goblin Mountaineer"
ask legal
"""
    )
    (violation,) = find(answer, "violation(")
    assert violation["forbidden_by"]["rules"] == ["702.14c", "802.2a"]
    assert violation["forbidden_by"]["objects"] == ["Grizzly Bears", "Goblin Mountaineer"]


def test_508_1a_803_1_explain_the_smallest_set_not_every_rule_that_fires():
    # one play breaks two rules (tapped, and attacking a player who doesn't defend):
    # one of them alone forbids it
    answer = explained(
        """option: attack-left
players: Rob, Alex, Carissa
Rob controls creature "Tapped Bear" 2/2 with tapped
"Tapped Bear" attacks Carissa
ask legal
"""
    )
    violations = find(answer, "violation(")
    assert {v["rule"] for v in violations} == {"508.1a", "803.1a"}
    (play,) = answer["forbidden"]
    assert len(play["rules"]) == 1 and play["rules"][0] in {"508.1a", "803.1a"}
    assert play["objects"] == ["Tapped Bear", "Carissa"]
    assert len(play["violations"]) == 2
    (left,) = find(answer, "uses_option(attack_left)")[:1]
    assert left["rule"] == "803.1"
    carriers = [v for v in violations if "forbidden_by" in v]
    assert len(carriers) == 1 and carriers[0]["rule"] == play["rules"][0]


def test_508_1d_explain_an_unmet_requirement_is_forbidden_by_508_1d():
    answer = explained(
        """players: Rob, Alex
Rob controls creature "Berserker" 2/2 with attacks each combat if able
Rob controls creature "Bear" 2/2
"Bear" attacks Alex
ask legal
"""
    )
    (violation,) = find(answer, "violation(")
    assert violation["forbidden_by"] == {"rules": ["508.1d"], "objects": ["Berserker"]}


def test_119_4_explain_an_unaffordable_payment_without_ask_legal():
    answer = explained("players: Ann, Ben\nAnn pays 30 life\nask outcome\n")
    judged = question(answer, "legal")  # no `ask legal`: the payment is judged all the same
    (violation,) = judged["because"]
    assert violation["rule"] == "119.4"
    assert violation["forbidden_by"] == {"rules": ["119.4"], "objects": ["Ann"]}
    assert answer["forbidden"][0]["rules"] == ["119.4"]


def test_509_1a_explain_legal_blocks_show_why_each_declaration_is_legal():
    answer = explained(
        """players: Ann, Ben
Ann controls creature "Bear" 2/2
Ben controls creature "Wall" 0/4
"Bear" attacks Ben
"Wall" blocks "Bear"
ask legal
"""
    )
    roots = question(answer, "legal")["because"]
    assert {n["atom"] for n in roots} == {
        'can_attack_target("Bear","Ben")',
        'can_block("Wall","Bear")',
        "explain_nothing_broken",  # and no rule forbids them
    }
    block = next(n for n in roots if n["atom"].startswith("can_block"))
    assert block["rule"] == "509.1a"
    assert "forbidden" not in answer


def test_508_1c_explain_attacks_lists_targets_and_restrictions():
    answer = explained(
        """option: attack-multiple-players
players: Ann, Ben, Cat
rule: no more than 2 creatures can attack
Ann controls creature "Rogue" 2/1 with can't attack Ben
Ann controls creature "Sleeper" 2/2 with tapped
ask attacks
"""
    )
    roots = question(answer, "attacks")["because"]
    atoms = {n["atom"] for n in roots}
    assert 'can_attack_target("Rogue","Cat")' in atoms
    assert 'can_attack_target("Rogue","Ben")' not in atoms
    limits = {n["conclusion"]: n["rule"] for n in roots if n["atom"].startswith("explain_limit")}
    assert limits["no more than 2 creatures can attack"] == "508.1c"
    assert limits["ruled out: Sleeper is tapped, so it can't attack"] == "508.1a"
    assert limits["ruled out: Rogue can't attack Ben"] == "508.1c"


@needs_shared
def test_508_1c_explain_conformance_c28_after_ask_attacks_exits_0(wired):
    path = CONFORMANCE / "c28_restrictions.mtg"
    from mtgkb.running.runner import answer_text

    result = answer_text(path.read_text(encoding="utf-8"), path.name, engine=engine())
    assert result.status == 0
    kinds = [a["ask"] for a in result.output["answers"]]
    assert kinds == ["attacks", "explain"]
    answer = result.output["answers"][1]
    assert answer["tree"][0]["question"] == "attacks" and answer["tree"][0]["because"]
    assert "508.1c" in answer["rules"]


def test_explain_nodes_each_cite_a_rule_of_the_index():
    index = load_index()
    texts = [
        C05,
        "option: attack-multiple-players\nplayers: Rob, Alex, Carissa\nask defending players\n",
        'players: Ann, Ben\n"Bolt" deals 3 damage to Ann\nask outcome\nask can Ann pay 5 life\n',
        "players: Rob, Alex, Carissa\neach player sacrifices a creature\n"
        "ask order\nask knowledge\n",
    ]
    for text in texts:
        answer = explained(text)
        cited = set()
        for node in nodes(answer["tree"]):
            if "question" in node:
                continue
            if not node.get("fact"):
                assert node.get("rule"), node
            for number in [node.get("rule"), *node.get("also", [])]:
                if number:
                    assert number in index, number
                    cited.add(number)
            cited |= set(node.get("forbidden_by", {}).get("rules", []))
        assert cited == set(answer["rules"])


def test_explain_is_bounded_and_says_when_cut(monkeypatch):
    monkeypatch.setattr(tree, "MAX_NODES", 6)
    answer = explained(C05 + "ask defending players\n")
    assert answer["truncated"] is True
    assert sum(1 for n in nodes(answer["tree"]) if "question" not in n) <= 6


def test_explain_guards_cycles_in_the_graph():
    a, b = clingo.Function("a"), clingo.Function("b")
    rule = clingo.Function("rule", [clingo.String("101.4")])
    model = [
        a,
        b,
        clingo.Function("because", [a, rule]),
        clingo.Function("because", [b, rule]),
        clingo.Function("rests_on", [a, b]),
        clingo.Function("rests_on", [b, a]),
    ]
    program = explain.Traced([], {}, {})
    graph = explain.Graph.of(program, model, [])
    builder = explain.Builder()
    (top,) = builder.tree(graph, [a])
    (child,) = top["because"]
    assert child["atom"] == "b" and child["because"][0].get("repeated")


def test_explain_names_stay_data():
    name = 'Bob \\"the\\" Bear'
    answer = explained(
        f"""players: Ann, Ben
Ann controls creature "{name}" 2/2
"{name}" attacks Ann
ask legal
"""
    )
    (violation,) = [v for v in find(answer, "violation(") if "forbidden_by" in v]
    assert violation["forbidden_by"]["objects"][0] == 'Bob "the" Bear'


def test_explain_with_no_other_question_is_an_empty_tree():
    answer = explained("players: Ann, Ben\nask explain\n")
    assert answer == {"ask": "explain", "tree": [], "truncated": False, "rules": []}


def test_802_4a_explain_text_shows_the_rules_that_forbid_the_play(wired):
    out = run(C05 + "ask explain\n", "c05")
    console = Console(file=io.StringIO(), width=200)
    print_result(console, out)
    text = console.file.getvalue()
    assert "forbidden by 802.4a (the play of Grizzly Bears, Hill Giant)" in text
    assert "802.4a: A defender blocks only" in text


def test_802_4a_explain_a_large_table_stays_fast():
    # six players with six creatures each: the legal query's #maximize is empty
    # here, so explaining must not enumerate the hypothetical declarations
    players = [f"P{i}" for i in range(1, 7)]
    lines = ["option: attack-multiple-players", "players: " + ", ".join(players)]
    lines += [f'{p} controls creature "{p} c{i}" 2/2' for p in players for i in range(6)]
    lines += [f'"P1 c{i}" attacks P{2 + i % 5}' for i in range(6)]
    lines += ['"P3 c0" blocks "P1 c0"', "ask legal", "ask blocks for P2 limit 3"]
    answer = explained("\n".join(lines) + "\n")
    (play,) = answer["forbidden"]
    assert play == {
        "rules": ["802.4a"],
        "objects": ["P3 c0", "P1 c0"],
        "violations": [
            "illegal: P3 c0 can't block P1 c0: P1 c0 attacks neither the controller of P3 c0 "
            "nor a planeswalker or battle of theirs"
        ],
    }
