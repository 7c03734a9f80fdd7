"""`mtgkb serve` (issue 11, item 4): the HTTP API on FastAPI, the --stdio
mode, and one real server on 127.0.0.1."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import urllib.request
from pathlib import Path

import pytest
from helpers import much_work, patient_settings

pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")
if importlib.util.find_spec("httpx2") is None and importlib.util.find_spec("httpx") is None:
    # starlette's test client speaks httpx2 (starlette >= 1.10) or httpx
    pytest.skip("the API tests need httpx2 (or httpx)", allow_module_level=True)

from fastapi.testclient import TestClient  # noqa: E402
from helpers.serving import MTGKB, free_port, start_server, stop_server, wait_for  # noqa: E402

from mtgkb.questions.answers import Limits  # noqa: E402
from mtgkb.running import pool
from mtgkb.running.runner import answer_now  # noqa: E402
from mtgkb.serve import app as server  # noqa: E402
from mtgkb.serve.app import as_printed  # noqa: E402

# The slow tier (`mtgkb serve` processes and the server under load):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
LOCAL = "http://127.0.0.1:8765"  # the Host the server answers (mtgkb.serve.guard)
EXAMPLES = ROOT / "examples"

ILLEGAL_BLOCK = (
    (EXAMPLES / "03_illegal_block.mtg")
    .read_text(encoding="utf-8")
    .replace("ask explain", "ask legal")
)


@pytest.fixture(scope="module")
def client():
    app = server.create_app(patient_settings(workers=1))
    with TestClient(app, base_url=LOCAL) as test_client:
        yield test_client


def _cli_json(path: Path) -> dict:
    """What `mtgkb run --json` prints for one file."""
    out = subprocess.run([str(MTGKB), "run", "--json", str(path)], capture_output=True, text=True)
    return json.loads(out.stdout)


def test_802_4a_run_answers_exactly_what_mtgkb_run_json_prints(client, tmp_path):
    path = tmp_path / "illegal.mtg"
    path.write_text(ILLEGAL_BLOCK, encoding="utf-8")
    response = client.post(
        "/v1/run",
        json={"scenario": ILLEGAL_BLOCK, "name": str(path)},
    )
    assert response.status_code == 200
    assert response.headers["x-mtgkb-exit"] == "1"  # an illegal play: exit 1, still HTTP 200
    assert response.json() == _cli_json(path)
    (legal,) = response.json()["answers"]
    assert legal["legal"] is False and "802.4a" in legal["rules"]


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.mtg")))
def test_run_takes_text_plain_and_answers_as_the_cli(client, example):
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    response = client.post(
        "/v1/run", content=text.encode("utf-8"), headers={"content-type": "text/plain"}
    )
    assert response.status_code == 200
    assert response.json() == as_printed(answer_now(text, "<request>", Limits()).output)
    assert all("rules" in answer for answer in response.json()["answers"])


def test_an_unreadable_scenario_is_422_with_its_line_and_column(client):
    text = 'players: Ann, Ben\nCarl controls creature "Bear" 2/2\nask legal\n'
    response = client.post("/v1/run", json={"scenario": text, "name": "bad.mtg"})
    assert response.status_code == 422
    body = response.json()
    assert (body["line"], body["column"]) == (2, 1)
    assert body["error"].startswith("bad.mtg:2:1: error: ")
    assert body["error"].endswith('Carl controls creature "Bear" 2/2\n^')
    assert "Carl" in body["message"]
    # the same message mtgkb run prints on standard error
    out = subprocess.run([str(MTGKB), "run", "-"], input=text, capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip().split("\n", 1)[1] == body["error"].split("\n", 1)[1]


def test_a_scenario_too_large_is_413(client):
    big = "# " + "x" * (1 << 20) + "\nplayers: Ann, Ben\n"
    response = client.post("/v1/run", content=big, headers={"content-type": "text/plain"})
    assert response.status_code == 413
    assert response.json()["limit"] == 1 << 20
    response = client.post("/v1/run", json={"scenario": big})
    assert response.status_code == 413


def test_a_time_out_is_503(client):
    response = client.post(
        "/v1/run", json={"scenario": much_work(), "timeout": 0.5, "max_models": 10**9}
    )
    assert response.status_code == 503
    assert response.json()["error"] == "timeout"
    assert "0.5 s" in response.json()["message"]
    # and the server answers the next request
    again = client.post("/v1/run", json={"scenario": ILLEGAL_BLOCK})
    assert again.status_code == 200 and "802.4a" in again.json()["answers"][0]["rules"]


def big_combat(n: int) -> str:
    lines = ["players: Ann, Ben", "active: Ann", "phase: declare-blockers"]
    lines += [f'Ann controls creature "A{j}" 2/2 with lifelink' for j in range(n)]
    # a requirement (509.1c): every pair of blocker and attacker is judged, for the best block
    lines += [f'Ben controls creature "B{j}" 2/2 with blocks each combat if able' for j in range(n)]
    lines += [f'"A{j}" attacks Ben' for j in range(n)]
    lines += [f'"B{j}" blocks "A{j}"' for j in range(n)]
    lines += ["combat damage", "ask legal", "ask outcome"]
    return "\n".join(lines) + "\n"


def test_the_memory_bound_is_503():
    # in a fresh server process: a worker forked from this test process would
    # find much of its memory already mapped, and a small bound would not bite
    lines = [
        json.dumps({"id": 1, "scenario": big_combat(1000), "timeout": 60}),  # the most allowed
        json.dumps({"id": 2, "scenario": "players: Ann, Ben\nask defending players\n"}),
    ]
    out = subprocess.run(
        [str(MTGKB), "serve", "--stdio", "--memory", "24"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
    )
    first, second = [json.loads(line) for line in out.stdout.splitlines()]
    assert (first["status"], first["exit"]) == (503, 3)
    assert "memory bound (24 MiB)" in first["body"]["message"]
    assert second["status"] == 200  # a fresh worker, with its own bound
    assert second["body"]["answers"][0]["rules"] == ["506.2"]


@pytest.mark.parametrize(
    "payload, word",
    [
        ({"scenario": 5}, "scenario"),
        ({"scenario": "players: Ann, Ben\n", "timeout": "soon"}, "timeout"),
        ({"scenario": "players: Ann, Ben\n", "timeout": 0}, "timeout"),
        ({"scenario": "players: Ann, Ben\n", "timeout": 1e308}, "timeout"),
        ({"scenario": "players: Ann, Ben\n", "max_models": -1}, "max_models"),
        ({"scenario": "players: Ann, Ben\n", "lang": "fr"}, "lang"),
        ({"scenario": "players: Ann, Ben\n", "colour": "blue"}, "colour"),
        (["players: Ann, Ben\n"], "JSON object"),
    ],
)
def test_a_request_that_is_not_one_is_400(client, payload, word):
    response = client.post("/v1/run", json=payload)
    assert response.status_code == 400
    assert word in response.json()["message"]


def test_a_body_that_is_not_json_is_400_and_other_media_415(client):
    response = client.post("/v1/run", content=b"{", headers={"content-type": "application/json"})
    assert response.status_code == 400
    response = client.post("/v1/run", content=b"x", headers={"content-type": "image/png"})
    assert response.status_code == 415


def test_lang_is_accepted_and_max_models_bounds_the_listing(client):
    text = (EXAMPLES / "02_multiplayer_combat.mtg").read_text(encoding="utf-8")
    response = client.post("/v1/run", json={"scenario": text, "lang": "it", "max_models": 2})
    assert response.status_code == 200
    blocks = next(a for a in response.json()["answers"] if a["ask"] == "blocks")
    assert len(blocks["assignments"]) <= 2 and "509.1a" in blocks["rules"]


def test_health(client):
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["pool"]["workers"] == 1


def test_802_4a_rules_entry_says_paraphrase_encoded_at_and_tested_by(client):
    body = client.get("/v1/rules/802.4a").json()
    assert body["id"] == "802.4a"
    assert body["paraphrase"]
    assert any(place.startswith("rules/") for place in body["encoded_at"])
    assert any("802_4a" in test for test in body["tested_by"])
    italian = client.get("/v1/rules/802.4a", params={"lang": "it"}).json()
    assert italian["lang"] == "it" and italian["paraphrase"] != body["paraphrase"]
    assert client.get("/v1/rules/999.9").status_code == 404
    assert client.get("/v1/rules/802.4a", params={"lang": "fr"}).status_code == 400


def test_802_4a_facts_give_players_in_seating_order_and_the_declarations(client):
    text = (EXAMPLES / "02_multiplayer_combat.mtg").read_text(encoding="utf-8")
    body = client.post("/v1/facts", json={"scenario": text}).json()
    scenario = body["scenario"]
    assert [p["name"] for p in scenario["players"]] == ["Rob", "Alex", "Carissa", "Dana"]
    assert [p["seat"] for p in scenario["players"]] == [1, 2, 3, 4]
    assert {"attacker": "Serra Angel", "target": "Alex", "line": 16} in scenario["attacks"]
    assert {"blocker": "Giant Spider", "attacker": "Serra Angel", "line": 19} in scenario["blocks"]
    assert 'declared_block("Giant Spider","Serra Angel").' in body["facts"]
    plain = client.post("/v1/facts", json={"scenario": ILLEGAL_BLOCK}).json()["scenario"]
    assert plain["game"] is None and plain["active"] == "Rob"  # as written: no `game:` line
    assert [p["name"] for p in plain["players"]] == ["Rob", "Alex", "Carissa"]
    bad = client.post("/v1/facts", json={"scenario": "players: Ann\nfoo\n"})
    assert bad.status_code == 422 and bad.json()["line"] == 2


def test_examples_are_served(client):
    listed = client.get("/v1/examples").json()
    names = [e["name"] for e in listed]
    assert names == sorted(p.stem for p in EXAMPLES.glob("*.mtg"))
    one = client.get("/v1/examples/03_illegal_block")
    assert one.text == (EXAMPLES / "03_illegal_block.mtg").read_text(encoding="utf-8")
    assert client.get("/v1/examples/..%2Fpyproject").status_code == 404


def test_openapi_describes_requests_and_answers(client):
    document = client.get("/openapi.json").json()
    run = document["paths"]["/v1/run"]["post"]
    content = run["requestBody"]["content"]
    assert set(content) == {"text/plain", "application/json"}
    assert set(content["application/json"]["schema"]["properties"]) >= {
        "scenario",
        "timeout",
        "max_models",
        "lang",
    }
    assert {"200", "400", "413", "422", "503"} <= set(run["responses"])
    answer = run["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(answer["required"]) == {"file", "answers", "schema_version", "cr_edition"}
    assert "/v1/rules/{number}" in document["paths"] and "/health" in document["paths"]
    assert "/v1/facts" in document["paths"]


def test_the_page_is_served_without_any_network(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for src in re.findall(r'(?:src|href)="([^"]+)"', page.text):
        if src.startswith("/") and not src.startswith("//"):
            assert client.get(src).status_code == 200, src
    for path in (server.STATIC).iterdir():
        text = path.read_text(encoding="utf-8")
        urls = re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"')]*", text)
        assert all(u == "http://www.w3.org/2000/svg" for u in urls), (path.name, urls)
    assert client.get("/docs").status_code == 404  # FastAPI's docs would load a CDN


def test_workers_are_recycled_in_the_server():
    workers = pool.Pool(1, max_tasks=2)
    app = server.create_app(server.Settings(), pool=workers)
    with TestClient(app, base_url=LOCAL) as test_client:
        for _ in range(5):
            assert test_client.post("/v1/run", json={"scenario": ILLEGAL_BLOCK}).status_code == 200
        assert test_client.get("/health").json()["pool"]["recycled"] >= 2
    workers.close()


def test_stdio_one_answer_per_request_line():
    lines = [
        json.dumps({"id": 1, "scenario": ILLEGAL_BLOCK}),
        json.dumps({"id": "two", "scenario": "players: Ann\nfoo\n"}),
        "not json",
        json.dumps({"scenario": much_work(), "timeout": 0.5, "max_models": 10**9}),
    ]
    out = subprocess.run(
        [str(MTGKB), "serve", "--stdio"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [1, "two", None, None]
    assert [a["status"] for a in answers] == [200, 422, 400, 503]
    assert [a["exit"] for a in answers] == [1, 2, 2, 3]
    assert answers[0]["body"] == as_printed(answer_now(ILLEGAL_BLOCK, "<request>", Limits()).output)
    assert "802.4a" in answers[0]["body"]["answers"][0]["rules"]
    assert answers[1]["body"]["line"] == 2


def test_802_4a_the_real_server_listens_on_127_0_0_1_and_answers():
    port = free_port()
    process = start_server(port, "--workers", "2")
    try:
        health = json.loads(wait_for(f"http://127.0.0.1:{port}/health", 60))
        assert health["status"] == "ok" and health["pool"]["workers"] == 2
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/run",
            data=ILLEGAL_BLOCK.encode("utf-8"),
            headers={"content-type": "text/plain"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            body = json.loads(response.read())
            assert response.status == 200 and response.headers["X-Mtgkb-Exit"] == "1"
        assert body == as_printed(answer_now(ILLEGAL_BLOCK, "<request>", Limits()).output)
        assert "802.4a" in body["answers"][0]["rules"]
        assert b"<title>mtgkb" in wait_for(f"http://127.0.0.1:{port}/", 10)
    finally:
        stop_server(process)
    assert process.returncode is not None


def test_serve_refuses_bad_options():
    bad = (["--workers", "0"], ["--port", "70000"], ["--timeout", "nan"], ["--gather", "0"])
    for args in bad:
        out = subprocess.run([str(MTGKB), "serve", *args], capture_output=True, text=True)
        assert out.returncode == 2 and "error" in out.stderr


def test_the_server_stays_small_over_requests_with_fresh_names():
    def fresh(i: int) -> str:
        lines = ["players: Ann, Ben", "active: Ann", "phase: declare-attackers"]
        lines += [f'Ann controls creature "Fresh {i} n{j}" 2/2' for j in range(50)]
        lines += [f'"Fresh {i} n{j}" attacks Ben' for j in range(50)]
        return "\n".join(lines + ["ask legal"]) + "\n"

    workers = pool.Pool(1, max_growth=2 << 20)
    app = server.create_app(server.Settings(), pool=workers)
    with TestClient(app, base_url=LOCAL) as test_client:
        assert test_client.post("/v1/run", json={"scenario": fresh(-1)}).status_code == 200
        before = pool.resident()
        for i in range(40):
            response = test_client.post("/v1/run", json={"scenario": fresh(i)})
            assert response.status_code == 200 and response.json()["answers"][0]["legal"]
        grown = pool.resident() - before
        stats = test_client.get("/health").json()["pool"]
    workers.close()
    assert grown < 16 << 20, f"the server's process grew by {grown >> 20} MB"
    assert stats["recycled"] >= 1  # the worker grew past 2 MB and was replaced
