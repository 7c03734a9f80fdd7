"""`mtgkb serve` under hostile input and by default safe (issue 27, items 5
and 7): the review's reproducers. `--stdio` answers every line (deep JSON, a
time-out of 400 digits, bytes that are not UTF-8, a line longer than any
request) and goes on; HTTP answers them 400, not 500. Every response has the
security headers; the server answers only its own Host names, no page of
another origin unless --allow-origin names it, and asks for its --token
(required off loopback); the printed URL opens the page; a port in use is
exit 2. Every server here listens on 127.0.0.1."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import socket
import subprocess
import urllib.request

import pytest
from helpers import ILLEGAL_BLOCK_PLAY

pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")
if importlib.util.find_spec("httpx2") is None and importlib.util.find_spec("httpx") is None:
    pytest.skip("the API tests need httpx2 (or httpx)", allow_module_level=True)

from fastapi.testclient import TestClient  # noqa: E402
from helpers.serving import MTGKB, stop_server  # noqa: E402

from mtgkb.serve import app as server  # noqa: E402

# the server's tests start servers and clients: the slow tier (.ci/run)
pytestmark = pytest.mark.slow

ILLEGAL_BLOCK = ILLEGAL_BLOCK_PLAY + "ask legal\n"
LOCAL = "http://127.0.0.1:8765"
STATIC = server.STATIC
UTF8 = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "PYTHONIOENCODING": ""}


@pytest.fixture(scope="module")
def client():
    app = server.create_app(server.Settings(workers=1))
    with TestClient(app, base_url=LOCAL) as test_client:
        yield test_client


# --------------------------------------------------------------------------
# item 5: no request crashes the server


VALID = json.dumps({"id": "after", "scenario": ILLEGAL_BLOCK}).encode()
HOSTILE = [
    b"[" * 100000,
    json.dumps({"id": "digits", "scenario": ILLEGAL_BLOCK, "timeout": int("9" * 400)}).encode(),
    b'{"scenario": "players: Ann\xff\xfe"}',
    json.dumps({"id": "models", "scenario": ILLEGAL_BLOCK, "max_models": int("9" * 400)}).encode(),
]


def test_802_4a_stdio_answers_every_hostile_line_and_goes_on():
    lines = []
    for hostile in HOSTILE:
        lines += [hostile, VALID]
    out = subprocess.run(
        [str(MTGKB), "serve", "--stdio", "--workers", "1"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        env=UTF8,
    )
    assert out.returncode == 0, out.stderr.decode(errors="replace")
    assert b"Traceback" not in out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a["status"] for a in answers] == [400, 200] * len(HOSTILE)
    assert [a.get("id") for a in answers[1::2]] == ["after"] * len(HOSTILE)
    for answer in answers[1::2]:  # 802.4a: the Grizzly Bears cannot block the Hill Giant
        assert answer["exit"] == 1 and "802.4a" in answer["body"]["answers"][0]["rules"]
    messages = [a["body"]["message"] for a in answers[::2]]
    assert "too deep" in messages[0]
    assert '"timeout" is out of range' in messages[1]
    assert "not UTF-8" in messages[2]
    assert "max_models" in messages[3]


class Recording(io.BytesIO):
    """A stdin that remembers the most it was asked to read at once."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.largest = 0

    def readline(self, size: int | None = -1) -> bytes:
        assert size is not None and size > 0, "a line is read whole"
        self.largest = max(self.largest, size)
        return super().readline(size)


def test_a_stdio_line_longer_than_any_request_is_413_and_never_held_whole():
    settings = server.Settings(workers=1, max_bytes=1000)
    limit = server.stdio_line_bytes(settings)
    long_line = json.dumps({"scenario": "x" * (100 * limit)}).encode()
    stdin = Recording(long_line + b"\n" + VALID + b"\n")
    stdout = io.StringIO()
    assert server.serve_stdio(settings, stdin=stdin, stdout=stdout) == 0
    first, second = (json.loads(line) for line in stdout.getvalue().splitlines())
    assert first["status"] == 413 and first["exit"] == 2
    assert f"at most {limit} bytes" in first["body"]["message"]
    assert second["id"] == "after" and second["status"] == 200
    # the long line was read a bounded piece at a time, never whole
    assert stdin.largest <= max(limit + 1, 1 << 16) < len(long_line)


def test_http_answers_deep_json_and_huge_numbers_400_not_500(client):
    deep = client.post(
        "/v1/run", content="[" * 100000, headers={"content-type": "application/json"}
    )
    assert deep.status_code == 400 and "too deep" in deep.json()["message"]
    digits = client.post("/v1/run", json={"scenario": ILLEGAL_BLOCK, "timeout": int("9" * 400)})
    assert digits.status_code == 400 and "out of range" in digits.json()["message"]
    facts = client.post("/v1/facts", json={"scenario": ILLEGAL_BLOCK, "timeout": int("9" * 400)})
    assert facts.status_code == 400
    bad = client.post(
        "/v1/run", content=b'{"scenario": "\xff"}', headers={"content-type": "application/json"}
    )
    assert bad.status_code == 400 and "not UTF-8" in bad.json()["message"]
    assert client.post("/v1/run", json={"scenario": ILLEGAL_BLOCK}).status_code == 200


# --------------------------------------------------------------------------
# item 7: safe by default


def _has_security_headers(response) -> None:
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "*" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"


def test_every_response_has_the_security_headers(client):
    responses = [
        client.get("/"),
        client.get("/static/app.js"),
        client.get("/health"),
        client.get("/v1/rules/802.4a"),
        client.get("/v1/rules/9999.9z"),
        client.get("/no/such/page"),
        client.post("/v1/run", json={"scenario": ILLEGAL_BLOCK}),
        client.post("/v1/run", json={"colour": "blue"}),
        client.get("/health", headers={"host": "rebound.example"}),
    ]
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 404, 404, 200, 400, 421]
    for response in responses:
        _has_security_headers(response)


def test_the_page_needs_nothing_the_policy_blocks():
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    # the page's scripts: app.js (api(), the words), answers.js, table.js, builder.js
    script = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.glob("*.js")))
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "an inline script"
    assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", page), "an inline style or handler"
    assert not re.search(r"(src|href)=\"(https?:)?//", page), "a resource of another origin"
    assert not re.search(r"\beval\(|new Function|setAttribute\(\"style\"|\.innerHTML", script)
    assert not re.search(r"\bfetch\(\"?https?:", script)
    # every request goes through api(), which sends the token a guarded server asks for
    assert script.count("fetch(") == 1 and "function api(" in script


def test_a_host_name_not_the_server_s_is_refused_against_dns_rebinding(client):
    for host in ("rebound.example", "rebound.example:8765", "127.0.0.1.rebound.example"):
        response = client.post("/v1/run", json={"scenario": ILLEGAL_BLOCK}, headers={"host": host})
        assert response.status_code == 421, host
    for host in ("127.0.0.1:8765", "localhost:8765", "[::1]:8765", "localhost"):
        assert client.get("/health", headers={"host": host}).status_code == 200, host
    named = server.Settings(workers=1, allowed_hosts=("mtgkb.internal",))
    with TestClient(server.create_app(named), base_url="http://mtgkb.internal") as internal:
        assert internal.get("/health").status_code == 200
        assert internal.get("/health", headers={"host": "rebound.example"}).status_code == 421


def test_a_cross_origin_post_is_not_answered_unless_allowed(client):
    foreign = {"origin": "http://attacker.example", "content-type": "text/plain"}
    refused = client.post("/v1/run", content=ILLEGAL_BLOCK, headers=foreign)
    assert refused.status_code == 403 and "access-control-allow-origin" not in refused.headers
    no_origin = {"sec-fetch-site": "cross-site", "content-type": "text/plain"}
    assert client.post("/v1/run", content=ILLEGAL_BLOCK, headers=no_origin).status_code == 403
    same = {"origin": LOCAL, "content-type": "text/plain"}
    assert client.post("/v1/run", content=ILLEGAL_BLOCK, headers=same).status_code == 200

    settings = server.Settings(workers=1, allowed_origins=("http://engine.example",))
    with TestClient(server.create_app(settings), base_url=LOCAL) as allowed:
        headers = {"origin": "http://engine.example", "content-type": "text/plain"}
        answered = allowed.post("/v1/run", content=ILLEGAL_BLOCK, headers=headers)
        assert answered.status_code == 200
        assert answered.headers["access-control-allow-origin"] == "http://engine.example"
        preflight = allowed.options(
            "/v1/run",
            headers={
                "origin": "http://engine.example",
                "access-control-request-method": "POST",
            },
        )
        assert preflight.status_code == 204
        assert "POST" in preflight.headers["access-control-allow-methods"]
        assert allowed.post("/v1/run", content=ILLEGAL_BLOCK, headers=foreign).status_code == 403


def test_with_a_token_every_request_but_the_page_must_carry_it():
    settings = server.Settings(workers=1, token="s3cret-token")
    with TestClient(server.create_app(settings), base_url=LOCAL) as guarded:
        assert guarded.get("/").status_code == 200
        assert guarded.get("/static/app.js").status_code == 200
        for path in ("/health", "/v1/rules/802.4a", "/v1/examples", "/openapi.json"):
            response = guarded.get(path)
            assert response.status_code == 401, path
            assert response.headers["www-authenticate"].startswith("Bearer")
        wrong = {"authorization": "Bearer s3cret-tokem"}
        assert (
            guarded.post("/v1/run", json={"scenario": ILLEGAL_BLOCK}, headers=wrong).status_code
            == 401
        )
        right = {"authorization": "Bearer s3cret-token"}
        response = guarded.post("/v1/run", json={"scenario": ILLEGAL_BLOCK}, headers=right)
        assert response.status_code == 200
        assert response.json()["answers"][0]["legal"] is False


def test_a_host_other_machines_reach_needs_a_token_and_is_warned_of():
    # refused before anything listens: no address but 127.0.0.1 is ever bound here
    for host in ("0.0.0.0", "::", "192.0.2.1"):
        out = subprocess.run(
            [str(MTGKB), "serve", "--host", host, "--port", "0"],
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "MTGKB_SERVE_TOKEN"},
        )
        assert out.returncode == 2, host
        assert "--token" in out.stderr and "other machines" in out.stderr


def test_printed_urls_open_the_page_for_every_address():
    from mtgkb.serve.listening import page_urls

    assert page_urls("0.0.0.0", 8765) == ["http://127.0.0.1:8765/"]
    assert page_urls("::", 8765)[0] == "http://[::1]:8765/"
    assert page_urls("::1", 80) == ["http://[::1]:80/"]
    assert page_urls("127.0.0.1", 4242) == ["http://127.0.0.1:4242/"]


def _start(*args: str) -> tuple[subprocess.Popen, str]:
    """`mtgkb serve ARGS` and the first URL it prints."""
    process = subprocess.Popen(
        [str(MTGKB), "serve", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in process.stderr:
        found = re.search(r"the page is at (\S+)", line)
        if found:
            return process, found.group(1)
    process.wait(60)
    raise AssertionError(f"no URL printed (exit {process.returncode})")


def test_port_0_prints_the_port_the_server_listens_on():
    process, url = _start("--port", "0", "--workers", "1")
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url) and not url.endswith(":0/")
        with urllib.request.urlopen(url) as response:
            assert b"<title>mtgkb" in response.read()
    finally:
        stop_server(process)


def test_a_port_in_use_is_a_usage_error():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        out = subprocess.run(
            [str(MTGKB), "serve", "--port", str(port), "--workers", "1"],
            capture_output=True,
            text=True,
        )
    assert out.returncode == 2
    assert "already in use" in out.stderr and "Traceback" not in out.stderr


def test_the_token_is_printed_in_the_page_address():
    process, url = _start("--port", "0", "--workers", "1", "--token", "tok en")
    try:
        assert url.endswith("/#token=tok%20en")
    finally:
        stop_server(process)
