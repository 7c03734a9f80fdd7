"""`POST /v1/batch` (issue 27, item 3): many scenarios in one request, as a
JSON array (answered as a JSON array) or as NDJSON (streamed back as NDJSON),
in input order; an item that is not a request, cannot be read or runs out of
time gets its own error answer, and the batch is still answered (200)."""

from __future__ import annotations

import importlib.util
import json

import pytest
from helpers import ILLEGAL_BLOCK_PLAY, much_work, patient_settings

pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")
if importlib.util.find_spec("httpx2") is None and importlib.util.find_spec("httpx") is None:
    pytest.skip("the API tests need httpx2 (or httpx)", allow_module_level=True)

from fastapi.testclient import TestClient  # noqa: E402

from mtgkb.serve import app as server  # noqa: E402

# the server's tests start servers and clients: the slow tier (.ci/run)
pytestmark = pytest.mark.slow

ILLEGAL_BLOCK = ILLEGAL_BLOCK_PLAY + "ask legal\n"
# 802.4a: the Grizzly Bears may block the Runeclaw Bear, which attacks Alex
LEGAL_BLOCK = ILLEGAL_BLOCK.replace(
    '"Grizzly Bears" blocks "Hill Giant"', '"Grizzly Bears" blocks "Runeclaw Bear"'
)
MENACE = much_work()  # far more work than any time-out here


@pytest.fixture(scope="module")
def client():
    app = server.create_app(patient_settings(workers=2, max_batch=5))
    with TestClient(app, base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def _check_answers(lines: list[dict]) -> None:
    assert [line["index"] for line in lines] == [0, 1, 2, 3, 4]
    assert [line.get("id") for line in lines] == ["illegal", None, 3, None, "late"]
    assert [line["status"] for line in lines] == [200, 422, 200, 400, 503]
    assert [line["exit"] for line in lines] == [1, 2, 0, 2, 3]
    illegal, unreadable, legal, _, _ = (line["body"] for line in lines)
    assert illegal["answers"][0]["legal"] is False and "802.4a" in illegal["answers"][0]["rules"]
    assert unreadable["line"] == 2
    assert legal["answers"][0]["legal"] is True


ITEMS = [
    {"id": "illegal", "scenario": ILLEGAL_BLOCK},
    "players: Rob\nRob controls creature\n",
    {"id": 3, "scenario": LEGAL_BLOCK, "name": "legal.mtg"},
    {"scenario": ILLEGAL_BLOCK, "colour": "blue"},
    {"id": "late", "scenario": MENACE, "timeout": 0.5},
]


def test_802_4a_a_json_batch_is_answered_in_order_with_errors_in_their_place(client):
    response = client.post("/v1/batch", json=ITEMS)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    _check_answers(response.json())


def test_802_4a_an_ndjson_batch_is_streamed_back_as_ndjson_in_order(client):
    body = "\n".join(json.dumps(item) for item in ITEMS[:3]) + "\n[[[not json\n"
    body += json.dumps(ITEMS[4]) + "\n"
    with client.stream(
        "POST", "/v1/batch", content=body, headers={"content-type": "application/x-ndjson"}
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in response.iter_lines() if line]
    assert lines[3]["status"] == 400 and "line 4 is not JSON" in lines[3]["body"]["message"]
    lines[3]["body"] = {}
    _check_answers(lines)


def test_a_batch_that_is_none_is_400_and_a_batch_too_long_413(client):
    assert client.post("/v1/batch", json={"scenario": ILLEGAL_BLOCK}).status_code == 400
    assert (
        client.post(
            "/v1/batch", content="[" * 100000, headers={"content-type": "application/json"}
        ).status_code
        == 400
    )
    assert (
        client.post("/v1/batch", content="x", headers={"content-type": "text/plain"}).status_code
        == 400
    )
    assert client.post("/v1/batch", json=[ILLEGAL_BLOCK] * 6).status_code == 413
    assert client.get("/health").json()["admission"]["admitted"] == 0  # every place given back
