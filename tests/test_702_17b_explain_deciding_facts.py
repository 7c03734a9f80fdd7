"""`ask explain` names the facts and rules a conclusion rests on, pruned to
what decided it (issue 28): the rule a conclusion cites comes with the facts
that made it that rule's (the body of its `because/2` rule), and a legal
declared play is explained by the rules that allowed it and by no rule
forbidding it."""

from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions import explain
from mtgkb.questions.answers import Limits


def explained(text: str, lang: str = "en") -> dict:
    scenario = parse_text(text + "ask explain legal\n", "<test>")
    question = next(q for q in scenario.questions if q.kind == "explain")
    return explain.answer_explain(question, scenario, scenario_facts(scenario), Limits(lang=lang))


def nodes(items):
    for item in items:
        yield item
        yield from nodes(item.get("because", []))


def node(answer: dict, atom: str) -> dict:
    (found,) = [n for n in nodes(answer["tree"]) if n.get("atom") == atom]
    return found


def said_under(item: dict) -> set[str]:
    return {n["conclusion"] for n in nodes(item.get("because", []))}


FLYER = """players: Alex, Rob
active: Alex
Alex controls creature "Serra Angel" 4/4 with flying
Alex controls creature "Grizzly Bears" 2/2
Rob controls creature "Giant Spider" 2/4 with reach
"""


def test_702_17b_a_reach_creature_blocking_a_flyer_is_explained_by_its_reach():
    # CR 702.9b: a creature with flying can be blocked only by creatures with
    # flying or reach; 702.17b: a creature with reach can block it.
    answer = explained(FLYER + '"Serra Angel" attacks Rob\n"Giant Spider" blocks "Serra Angel"\n')
    block = node(answer, 'can_block("Giant Spider","Serra Angel")')
    assert block["rule"] == "509.1a"
    assert {"702.9b", "702.17b"} <= set(block["also"])
    facts = {n["conclusion"] for n in block["because"] if n.get("fact")}
    assert {"Giant Spider has reach", "Serra Angel has flying"} <= facts
    assert "Giant Spider blocks Serra Angel" in facts


def test_702_17b_reach_is_left_out_where_it_decided_nothing():
    # the same block of a creature without flying: 509.1a alone decides it
    answer = explained(
        FLYER + '"Grizzly Bears" attacks Rob\n"Giant Spider" blocks "Grizzly Bears"\n'
    )
    block = node(answer, 'can_block("Giant Spider","Grizzly Bears")')
    assert not {"702.9b", "702.17b"} & set(block.get("also", []))
    assert "Giant Spider has reach" not in said_under(block)
    assert "702.17b" not in answer["rules"]


CAST = """players: Alex, Rob
active: Alex
phase: main
Alex casts sorcery "Divination"
"""


def test_117_1a_307_1_a_legal_sorcery_is_explained_by_the_rules_that_allow_it():
    # CR 307.1 and 117.1a: a sorcery is cast by the player with priority in a
    # main phase of their own turn while the stack is empty.
    answer = explained(CAST)
    (item,) = answer["tree"]
    assert item["because"], "a legal cast is explained, not an empty tree"
    top = {n["conclusion"] for n in item["because"]}
    assert "no rule forbids anything the file declares or pays" in top
    play = node(answer, 'may_play("Alex",sorcery)')
    assert play["rule"] == "307.1" and "117.1a" in play["also"]
    under = said_under(play)
    assert {
        "Alex may act now (priority)",
        "it is Alex's own turn",
        "the game is in a main phase",
        "the stack is empty",
        "declared play 1 is Alex's (cast)",
    } <= under
    assert {"307.1", "117.1a", "117.1"} <= set(answer["rules"])


def test_117_1a_an_illegal_sorcery_is_not_said_allowed():
    # CR 307.1: not in the upkeep; the violation explains it, no "allowed" node
    answer = explained(CAST.replace("phase: main", "phase: upkeep"))
    atoms = {n.get("atom", "") for n in nodes(answer["tree"])}
    assert any(a.startswith('violation(rule("307.1")') for a in atoms)
    assert not any(a.startswith("may_play(") or a == "explain_nothing_broken" for a in atoms)


def test_117_1a_the_legal_cast_is_explained_in_italian_too():
    answer = explained(CAST, "it")
    play = node(answer, 'may_play("Alex",sorcery)')
    assert play["conclusion"] == "Alex può ora fare una giocata del tipo stregoneria"
    assert "la pila è vuota" in said_under(play)


def test_117_1a_ask_can_cast_a_sorcery_is_explained_by_its_timing():
    # CR 307.1: yes in one's own main phase with an empty stack; the reasons shown
    text = CAST.replace('Alex casts sorcery "Divination"\n', "")
    scenario = parse_text(text + 'ask can Alex cast sorcery "Divination"\nask explain can\n', "t")
    question = next(q for q in scenario.questions if q.kind == "explain")
    answer = explain.answer_explain(question, scenario, scenario_facts(scenario), Limits())
    play = node(answer, 'may_play("Alex",sorcery)')
    assert play["rule"] == "307.1"
    assert {"the stack is empty", "the game is in a main phase"} <= said_under(play)
