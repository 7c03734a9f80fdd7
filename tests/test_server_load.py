"""`mtgkb serve` bounded under load (issue 27, item 6), on 127.0.0.1 only,
with a bounded number of clients: requests beyond the workers and the queue
are refused at once (503, Retry-After) without their body being read; the
time a request waits for a worker counts in its time-out; /v1/rules and
/health answer while the workers are busy and the queue is full; idle and
half-sent connections (slowloris) are closed; --workers defaults to the CPU
count."""

from __future__ import annotations

import http.client
import json
import os
import socket
import threading
import time

import pytest
from helpers import much_work

pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")

from helpers.serving import free_port, start_server, stop_server, wait_for  # noqa: E402

# the server's tests start servers and clients: the slow tier (.ci/run)
pytestmark = pytest.mark.slow

MENACE = much_work()  # far more work than any time-out here


def _health(port: int) -> dict:
    return json.loads(wait_for(f"http://127.0.0.1:{port}/health", 60))


def _until(port: int, test, seconds: float = 120.0) -> dict:
    """/health, asked again until `test(health)` holds (at most `seconds`)."""
    end = time.monotonic() + seconds
    while True:
        health = _health(port)
        if test(health):
            return health
        assert time.monotonic() < end, f"never reached: {health}"
        time.sleep(0.05)


def _post(port: int, payload: dict, answers: list, timeout: float = 300) -> None:
    """POST /v1/run (in a thread): appends (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(
            "POST", "/v1/run", json.dumps(payload), {"content-type": "application/json"}
        )
        response = connection.getresponse()
        answers.append((response.status, dict(response.headers), json.loads(response.read())))
    except OSError as err:
        answers.append((None, {}, {"error": str(err)}))
    finally:
        connection.close()


def _in_thread(*args) -> threading.Thread:
    thread = threading.Thread(target=_post, args=args, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def busy_server():
    """A server of one worker and a queue of one."""
    port = free_port()
    process = start_server(port, "--workers", "1", "--queue", "1")
    try:
        _health(port)
        yield port
    finally:
        stop_server(process)


def test_beyond_the_queue_a_request_is_refused_at_once_without_its_body_read(busy_server):
    port = busy_server
    first, second = [], []
    _in_thread(port, {"scenario": MENACE, "timeout": 60}, first)
    _until(port, lambda h: h["admission"]["admitted"] == 1 and h["pool"]["busy"] == 1)
    _in_thread(port, {"scenario": MENACE, "timeout": 60}, second)
    _until(port, lambda h: h["admission"]["admitted"] == 2)
    # a third request announces a 1 MB body and sends none of it
    with socket.create_connection(("127.0.0.1", port), timeout=60) as raw:
        raw.sendall(
            b"POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n"
        )
        refused = http.client.HTTPResponse(raw)
        refused.begin()
        body = json.loads(refused.read())
    assert refused.status == 503 and refused.headers["retry-after"] == "1"
    assert body["error"] == "busy"
    # the rule lookups and the health check answer while the worker and the queue are full
    for number in ("802.4a", "702.19b", "510.1"):
        body = json.loads(wait_for(f"http://127.0.0.1:{port}/v1/rules/{number}", 60))
        assert body["id"] == number
    health = _health(port)
    assert health["admission"]["admitted"] == 2 and health["admission"]["refused"] == 1
    assert not first and not second  # both still at work or waiting


def test_time_spent_waiting_for_a_worker_counts_in_the_time_out(busy_server):
    port = busy_server
    first, second = [], []
    one = _in_thread(port, {"scenario": MENACE, "timeout": 3}, first)
    _until(port, lambda h: h["pool"]["busy"] == 1)
    two = _in_thread(port, {"scenario": MENACE, "timeout": 3}, second)
    one.join(300)
    two.join(300)
    (status, _, body), (later_status, _, later) = first[0], second[0]
    assert status == 503 and "for a worker" not in body["message"], body
    assert later_status == 503 and later["error"] == "timeout"
    assert "of 3 s" in later["message"] and "for a worker" in later["message"]


def test_many_waiting_requests_leave_rule_lookups_answered():
    """More scenario requests waiting than anyio has threads (40): the wait
    is on the event loop, and a rule lookup still gets a thread (it waited
    for the requests before them: 65 s with 45 of 10 s each)."""
    port = free_port()
    process = start_server(port, "--workers", "1", "--queue", "60")
    answers: list = []
    try:
        _health(port)
        for _ in range(45):
            _in_thread(port, {"scenario": MENACE, "timeout": 60}, answers)
        _until(port, lambda h: h["admission"]["admitted"] == 45)
        body = json.loads(wait_for(f"http://127.0.0.1:{port}/v1/rules/509.1a", 60))
        assert body["id"] == "509.1a"
        assert _health(port)["admission"]["admitted"] == 45  # answered while they all wait
        assert answers == []
    finally:
        stop_server(process)


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes `sock` (after its answer, 408 or 503) within 60 s."""
    sock.settimeout(60)
    try:
        while sock.recv(65536):
            pass
        return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_idle_and_half_sent_connections_are_closed():
    port = free_port()
    process = start_server(port, "--workers", "1", "--idle-timeout", "1")
    sockets: list[socket.socket] = []
    try:
        _health(port)
        for i in range(30):
            sock = socket.create_connection(("127.0.0.1", port), timeout=60)
            sockets.append(sock)
            if i % 3 == 1:  # half the headers
                sock.sendall(b"POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
            elif i % 3 == 2:  # the headers and part of the body
                sock.sendall(
                    b"POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: text/plain\r\nContent-Length: 1000\r\n\r\nplayers: "
                )
        trickled = socket.create_connection(("127.0.0.1", port), timeout=60)
        sockets.append(trickled)
        assert _health(port)["status"] == "ok"  # answered while they hang
        # a header a byte at a time: the deadline does not move
        sent, end = 0, time.monotonic() + 60
        request = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100000
        try:
            while time.monotonic() < end:
                trickled.sendall(request[sent : sent + 1])
                sent += 1
                time.sleep(0.05)
            pytest.fail("a connection sending its header a byte at a time was kept open")
        except OSError:
            pass
        for i, sock in enumerate(sockets[:-1]):
            assert _closed_by_server(sock), f"connection {i} is still open"
        assert _health(port)["status"] == "ok"
    finally:
        for sock in sockets:
            sock.close()
        stop_server(process)


def test_workers_default_to_the_cpu_count():
    port = free_port()
    process = start_server(port)
    try:
        assert _health(port)["pool"]["workers"] == len(os.sched_getaffinity(0))
    finally:
        stop_server(process)
