"""Spec sections 10 and 12, `ask explain Q`: only the answers of question kind
Q are explained, `rules` being every rule its tree cites; plain `ask explain`
keeps its meaning; a conclusion met again points at the node that explains it."""

from helpers import ILLEGAL_BLOCK_PLAY
from helpers.answering import run

EXAMPLE_03 = ILLEGAL_BLOCK_PLAY


def nodes(items):
    for item in items:
        yield item
        yield from nodes(item.get("because", []))


def cited(tree) -> set[str]:
    out = set()
    for node in nodes(tree):
        if node.get("rule"):
            out.add(node["rule"])
        out.update(node.get("also", []))
        out.update(node.get("forbidden_by", {}).get("rules", []))
    return out


def explain(text: str) -> dict:
    return [a for a in run(text)["answers"] if a["ask"] == "explain"][0]


def test_802_4a_ask_explain_legal_explains_only_the_legal_question():
    out = explain(EXAMPLE_03 + "ask legal\nask outcome\nask explain legal\n")
    assert out["question"] == "legal"
    assert [item["question"] for item in out["tree"]] == ["legal"]
    assert cited(out["tree"]) == set(out["rules"])
    assert "802.4a" in out["rules"]
    # the outcome's life rules are not part of it
    assert "119.3" not in out["rules"]


def test_802_4a_ask_explain_legal_judges_the_play_without_an_ask_legal():
    out = explain(EXAMPLE_03 + "ask explain legal\n")
    (item,) = out["tree"]
    assert item["question"] == "legal"
    assert any(n.get("forbidden_by", {}).get("rules") == ["802.4a"] for n in nodes(out["tree"]))


def test_119_3_ask_explain_outcome_explains_the_outcome_alone():
    out = explain(EXAMPLE_03 + "ask legal\nask outcome\nask explain outcome\n")
    assert [item["question"] for item in out["tree"]] == ["outcome"]
    assert "119.3" in out["rules"] and "802.4a" not in out["rules"]


def test_802_2_plain_ask_explain_keeps_its_meaning():
    out = explain(EXAMPLE_03 + "ask legal\nask defending players\nask explain\n")
    assert "question" not in out
    assert [item["question"] for item in out["tree"]] == ["legal", "defending"]


def test_802_4a_ask_explain_can_explains_the_hypothesis():
    out = explain(EXAMPLE_03 + 'ask can "Grizzly Bears" block "Hill Giant"\nask explain can\n')
    (item,) = out["tree"]
    assert item["question"] == "can"
    assert any(n.get("forbidden_by", {}).get("rules") == ["802.4a"] for n in nodes(out["tree"]))


def test_802_2_a_repeated_conclusion_points_at_the_node_that_explains_it():
    out = explain(EXAMPLE_03 + "ask explain legal\n")
    every = list(nodes(out["tree"]))
    ids = {n["id"]: n for n in every if "id" in n}
    repeats = [n for n in every if n.get("repeated")]
    assert repeats
    for node in repeats:
        first = ids[node["see"]]
        assert first["atom"] == node["atom"] and "because" in first
        assert "because" not in node  # the repeated subtree is folded
