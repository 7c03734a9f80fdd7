"""What the judges' page reads beside the answers (issue 28, items 5-6):
each object's abilities as its line writes them (the table shows them), and
the vocabulary of the rule base (`GET /v1/vocabulary`, the builder's lists).
"""

from __future__ import annotations

import importlib.util

import pytest

from mtgkb.language.parser import parse_text
from mtgkb.rulebase.vocabulary import vocabulary
from mtgkb.serve.page_data import vocabulary_view, written_abilities

TEXT = (
    "players: Ann, Ben\nactive: Ann\n"
    'Ann controls creature "Bear, the Brave" 2/2 with counters +1/+1 1, '
    "protection from red and flying  # a comment\n"
    'Ben controls creature "Spider" 2/4 with reach\n'
    'Ben controls creature "Rats" 1/1\n'
)


def test_702_abilities_are_given_as_the_line_writes_them():
    scenario = parse_text(TEXT, "page.mtg")
    bear, spider, rats = scenario.objects
    assert written_abilities(TEXT, bear) == ["counters +1/+1 1", "protection from red", "flying"]
    assert written_abilities(TEXT, spider) == ["reach"]
    assert written_abilities(TEXT, rats) == []


def test_the_vocabulary_lists_every_ability_game_and_option_of_the_rule_base():
    view = vocabulary_view()
    words = vocabulary()
    assert {"flying", "reach", "first strike", "trample"} <= set(view["abilities"])
    assert set(view["abilities"]) | set(view["ability_examples"]) == set(words.written())
    assert "toxic 2" in view["ability_examples"] and "toxic 2" not in view["abilities"]
    assert "free-for-all" in view["games"] and "two-headed-giant" in view["games"]
    assert "attack-multiple-players" in view["options"]
    assert view["object_kinds"] == ["creature", "planeswalker", "battle", "land"]


@pytest.mark.slow
def test_the_server_gives_the_vocabulary_and_the_written_abilities():
    pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")
    if importlib.util.find_spec("httpx2") is None and importlib.util.find_spec("httpx") is None:
        pytest.skip("the API tests need httpx2 (or httpx)")
    from fastapi.testclient import TestClient

    from mtgkb.serve import app as server

    app = server.create_app(server.Settings(workers=1))
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        assert client.get("/v1/vocabulary").json() == vocabulary_view()
        body = client.post("/v1/facts", json={"scenario": TEXT}).json()
        bear = body["scenario"]["objects"][0]
        assert bear["abilities"] == ["counters-given", "protection", "flying"]
        assert bear["written"] == ["counters +1/+1 1", "protection from red", "flying"]
