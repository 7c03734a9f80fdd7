"""Issue 26: the server answers the requests that wait for a worker together
(micro-batching, mtgkb.serve.gathering): one worker task grounds their
questions as one chunk, and each request gets what it gets alone."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
import time
from pathlib import Path

import pytest
from helpers import patient_settings

from mtgkb.serve.gathering import Gathering

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
LOCAL = "http://127.0.0.1:8765"  # the Host the server answers (mtgkb.serve.guard)

# --- the gathering itself (no server, no worker) -----------------------------


def _gathered(keys: list[str], leader_key: str, most: int) -> tuple[list[int], list[str]]:
    """The places (in arrival order) of the waiting requests of `keys` that a
    request of `leader_key` takes along, and the keys left waiting."""

    async def scene():
        gathering = Gathering(most)
        waiting = [gathering.join(i, key) for i, key in enumerate(keys)]
        leader = gathering.join("leader", leader_key)
        gathering.leave(leader)
        taken = gathering.take(leader)
        assert all(entry.taken for entry in taken)
        assert not any(entry.taken for entry in waiting if entry not in taken)
        return [entry.job for entry in taken], [entry.key for entry in gathering.waiting]

    return asyncio.run(scene())


def test_a_request_takes_along_the_waiting_ones_it_shares_its_bounds_with_oldest_first():
    taken, left = _gathered(["en", "it", "en", "en", "it"], "en", most=8)
    assert taken == [0, 2, 3]
    assert left == ["it", "it"]


def test_at_most_most_requests_are_answered_together():
    taken, left = _gathered(["en"] * 10, "en", most=4)
    assert taken == [0, 1, 2]  # with the leader, 4
    assert left == ["en"] * 7
    assert _gathered(["en"] * 3, "en", most=1) == ([], ["en"] * 3)  # --gather 1: alone


def test_each_request_taken_along_gets_its_own_answer_or_the_error():
    async def scene():
        gathering = Gathering(8)
        first, second = gathering.join("a", 1), gathering.join("b", 1)
        leader = gathering.join("c", 1)
        gathering.leave(leader)
        taken = gathering.take(leader)
        gathering.done(taken, ["answer a", "answer b"], None)
        answers = [await first.answer, await second.answer]
        failed = gathering.join("d", 1)
        gathering.take(gathering.join("e", 1))  # (a leader still waiting does not take itself)
        gathering.done([failed], None, RuntimeError("the chunk failed"))
        with pytest.raises(RuntimeError, match="the chunk failed"):
            await failed.answer
        return answers, gathering.stats()

    answers, stats = asyncio.run(scene())
    assert answers == ["answer a", "answer b"]
    assert stats["groups"] == 2 and stats["gathered"] == 3 + 2


def test_a_worker_takes_at_most_its_share_of_the_requests_in_the_server():
    # 8 clients and 2 workers: 4 a worker, so that the other's chunk is as
    # large; a lone request alone; never past --gather
    gathering = Gathering(8)
    assert [gathering.share(n, 2) for n in (0, 1, 2, 5, 8, 50)] == [1, 1, 1, 3, 4, 8]
    assert gathering.share(3, 1) == 3 and Gathering(2).share(8, 1) == 2

    async def scene():
        waiting = [gathering.join(i, "en") for i in range(6)]
        leader = gathering.join("leader", "en")
        gathering.leave(leader)
        return [entry.job for entry in gathering.take(leader, 4)], len(waiting)

    assert asyncio.run(scene()) == ([0, 1, 2], 6)  # (with the leader, 4)


def test_the_last_free_worker_waits_for_its_share_a_step_at_a_time(monkeypatch):
    from mtgkb.serve import gathering as module

    steps = []

    async def scene():
        gathering = Gathering(8)
        gathering.join("first", "en")

        async def a_request_arrives(seconds):
            steps.append(seconds)
            gathering.join(len(steps), "en")

        monkeypatch.setattr(module.asyncio, "sleep", a_request_arrives)
        # its share is 4: it waits until 3 others wait with it, one step each
        await gathering.linger(4, seconds=60, step=0.001)
        arrived = len(gathering.waiting)
        # a share of one (a lone client) is never held
        await gathering.linger(1, seconds=60)
        return arrived

    assert asyncio.run(scene()) == 3
    assert steps == [0.001, 0.001]


def test_the_wait_ends_at_its_bound_when_no_request_comes():
    async def scene():
        gathering = Gathering(8)
        await gathering.linger(4, seconds=0.003, step=0.001)
        return gathering.waiting

    assert asyncio.run(scene()) == []


def test_a_gathering_needs_room_for_one_request():
    with pytest.raises(ValueError):
        Gathering(0)


# --- a chunk answers each request as alone (no worker, no server) ------------


def test_26_requests_answered_as_a_chunk_get_what_each_gets_alone():
    """What a worker does with gathered requests (batch.answer_together):
    the examples as text and as JSON states, with input errors among them
    and in both languages, three at a time, answered exactly as each alone
    (status, JSON and message); 802.2 decides the defenders of the
    multiplayer combat, 509.1a its blocks."""
    import json

    from mtgkb.engine.state import Engine
    from mtgkb.language.json_state import text_to_state
    from mtgkb.questions.answers import Limits
    from mtgkb.running.batch import answer_together
    from mtgkb.running.runner import answer_text

    files = sorted(EXAMPLES.glob("*.mtg"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    items = [(f.name, t, None) for f, t in zip(files, texts, strict=True)]
    items += [
        (f"{f.stem}.json", json.dumps(text_to_state(t)), None)
        for f, t in zip(files, texts, strict=True)
    ]
    items[4:4] = [("bad.mtg", BAD, None), ("bad.json", '{"players": [1]}', None)]
    illegal = texts[2].replace("ask explain", "ask legal")  # 03_illegal_block
    items.insert(9, ("illegal.mtg", illegal, None))
    engine = Engine()
    for lang, some in (("it", items[:6]), ("en", items)):  # (Italian: the first six)
        limits = Limits(lang=lang)
        alone = [answer_text(text, name, limits, engine=engine) for name, text, _ in some]
        together = []
        for k in range(0, len(some), 3):
            together += answer_together(some[k : k + 3], limits, engine)
        assert [(r.status, r.output, r.error) for r in together] == [
            (r.status, r.output, r.error) for r in alone
        ]
    assert {r.status for r in together} == {0, 1, 2}
    combat = together[1].output["answers"]
    assert "802.2" in next(a for a in combat if a["ask"] == "defending")["rules"]
    assert "509.1a" in next(a for a in combat if a["ask"] == "blocks")["rules"]
    (legal,) = together[9].output["answers"]  # a creature attacking Carissa blocked by Alex
    assert legal["legal"] is False and "802.4a" in legal["rules"]


# --- a chunk stopped by its time-out (run_group, no worker, no server) --------


class _Clock:
    """time.monotonic for mtgkb.serve.app, moved on by the fake pool only."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class _ChunkStoppedPool:
    """A pool that stops every chunk at its time-out (the clock moved past
    it) and answers a request alone in this process, as a worker does."""

    def __init__(self, clock: _Clock) -> None:
        from mtgkb.engine.state import Engine

        self.engine, self.clock, self.tasks = Engine(), clock, []

    def call(self, function, *args, timeout=None, memory=None, with_engine=False):
        from mtgkb.running.deadline import DeadlineExceeded

        self.tasks.append((function.__name__, timeout))
        if function.__name__ == "answer_group_in_worker":
            self.clock.now += timeout + 0.5
            raise DeadlineExceeded("stopped")
        return function(*args, engine=self.engine)


def test_26_a_chunk_stopped_at_the_least_time_left_answers_that_one_timed_out_the_rest_alone(
    monkeypatch,
):
    """Three requests gathered; the chunk is bounded by the least time one of
    them has left (3 s of its 5), and stopped there: that request gets the
    time-out answer of work stopped (503), not of a wait for a worker, and
    the two others are answered alone in the time they have left, as alone
    (802.2: the defenders of a free-for-all with the attack multiple players
    option are every opponent of the attacker)."""
    from mtgkb.questions.answers import Limits
    from mtgkb.running.pool import answer_in_worker
    from mtgkb.running.runner import EXIT_TIMEOUT
    from mtgkb.serve import app as server

    clock = _Clock()
    monkeypatch.setattr(server, "time", clock)
    pool = _ChunkStoppedPool(clock)
    text = (EXAMPLES / "02_multiplayer_combat.mtg").read_text(encoding="utf-8")
    jobs = [
        (server.Job(text, "a.mtg", Limits(timeout=60), {"lang": "en"}), 1.0),
        (server.Job(text, "b.mtg", Limits(timeout=5), {"lang": "en"}), 2.0),
        (server.Job(text, "c.mtg", Limits(timeout=60), {"lang": "en"}), 0.0),
    ]
    got = server.run_group(pool, jobs)
    assert pool.tasks[0] == ("answer_group_in_worker", 3.0)
    assert [name for name, _ in pool.tasks[1:]] == ["answer_in_worker"] * 2
    status, exit_status, body = got[1]
    assert (status, exit_status, body["error"]) == (503, EXIT_TIMEOUT, "timeout")
    assert (
        "the time-out of 5 s stopped the work (2 s of it waiting for a worker)" in body["message"]
    )
    for name, (status, exit_status, body) in zip(("a.mtg", "c.mtg"), got[::2], strict=True):
        alone = answer_in_worker(text, name, Limits(timeout=60), {"lang": "en"}, pool.engine)
        assert (status, exit_status) == (200, 0)  # each defender blocks what attacks it: legal
        assert body == server.as_printed(alone.output, pool.engine)
        legal = next(a for a in body["answers"] if a["ask"] == "legal")
        assert legal["legal"] is True
        defending = next(a for a in body["answers"] if a["ask"] == "defending")
        assert defending["players"] == ["Alex", "Carissa", "Dana"] and "802.2" in defending["rules"]


# --- a server whose one worker is held busy -----------------------------------

needs_server = pytest.mark.skipif(
    importlib.util.find_spec("fastapi") is None
    or (importlib.util.find_spec("httpx2") is None and importlib.util.find_spec("httpx") is None)
    or not hasattr(os, "fork"),
    reason="the server needs mtgkb[serve] and httpx, its workers fork",
)

BAD = 'players: Ann, Ben\nCarl controls creature "Bear" 2/2\nask legal\n'


def _held_pool():
    """A pool of one worker whose first task waits until the test lets it
    go, and that records the tasks it is given (their function and how many
    scenarios each answers)."""
    from mtgkb.running.pool import Pool

    class HeldPool(Pool):
        def __init__(self) -> None:
            super().__init__(1)
            self.gate = threading.Event()
            self.tasks: list[tuple[str, int]] = []

        def call(self, function, *args, **kwargs):
            together = function.__name__ == "answer_group_in_worker"
            self.tasks.append((function.__name__, len(args[0]) if together else 1))
            if len(self.tasks) == 1:
                self.gate.wait(600)  # (a bound against a hang, not a time measured)
            return super().call(function, *args, **kwargs)

    return HeldPool()


def _until(condition, what: str) -> None:
    for _ in range(6000):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"never: {what}")


def _answered_while_held(requests: list[dict], **settings) -> tuple[list, list, dict]:
    """Post `requests` to a server of one held worker, after a first request
    that holds it: each waits for it (they arrive in order). Their
    responses (status, exit, body), the pool's tasks after the first, and
    the gathering's stats."""
    from fastapi.testclient import TestClient

    from mtgkb.serve import app as server

    pool = _held_pool()
    app = server.create_app(patient_settings(workers=1, **settings), pool=pool)
    first = {"scenario": (EXAMPLES / "01_apnap_sacrifice.mtg").read_text(encoding="utf-8")}
    responses: list = [None] * len(requests)
    with TestClient(app, base_url=LOCAL) as client:

        def post(i: int, payload: dict) -> None:
            response = client.post("/v1/run", json=payload)
            if i >= 0:
                responses[i] = (response.status_code, response.headers["x-mtgkb-exit"], response)

        def waiting() -> int:
            return client.get("/health").json()["gathering"]["waiting"]

        threads = [threading.Thread(target=post, args=(-1, first))]
        threads[0].start()
        _until(lambda: pool.tasks, "the first request reached the worker")
        for i, payload in enumerate(requests):
            threads.append(threading.Thread(target=post, args=(i, payload)))
            threads[-1].start()
            _until(lambda i=i: waiting() == i + 1, f"request {i} waits")
        pool.gate.set()
        for thread in threads:
            thread.join()
        stats = client.get("/health").json()["gathering"]
    bodies = [(status, code, response.json()) for status, code, response in responses]
    return bodies, pool.tasks[1:], stats


def _alone(payload: dict) -> tuple[int, str, dict]:
    """The response to `payload` answered alone (--gather 1), no other request near."""
    from fastapi.testclient import TestClient

    from mtgkb.serve import app as server

    app = server.create_app(patient_settings(workers=1, gather=1))
    with TestClient(app, base_url=LOCAL) as client:
        response = client.post("/v1/run", json=payload)
    return response.status_code, response.headers["x-mtgkb-exit"], response.json()


@pytest.mark.slow
@needs_server
def test_26_509_1a_requests_waiting_for_a_worker_are_answered_as_one_chunk_as_each_alone():
    """Three combats and a scenario naming a player the table lacks wait for
    the one worker: they are answered in one task of four (the chunk), and
    the bad one again alone for its error's line and column (an input error
    is an answer of its own, 422). Every response is the one the request
    gets alone: 509.1a decides the blocks listed; under the attack multiple
    players option every opponent of the attacker defends (802.2)."""
    names = ["02_multiplayer_combat", "03_illegal_block", "07_first_strike_trample"]
    requests = [
        {"scenario": (EXAMPLES / f"{n}.mtg").read_text(encoding="utf-8"), "name": n} for n in names
    ]
    requests.insert(2, {"scenario": BAD, "name": "bad.mtg"})
    got, tasks, stats = _answered_while_held(requests)
    assert tasks == [("answer_group_in_worker", 4), ("answer_in_worker", 1)]
    assert stats["groups"] == 1 and stats["gathered"] == 4
    for payload, response in zip(requests, got, strict=True):
        assert response == _alone(payload)
    status, _, body = got[2]
    assert status == 422 and (body["line"], body["column"]) == (2, 1)
    blocks = next(a for a in got[0][2]["answers"] if a["ask"] == "blocks")
    assert "509.1a" in blocks["rules"]
    defending = next(a for a in got[0][2]["answers"] if a["ask"] == "defending")
    assert sorted(defending["players"]) == ["Alex", "Carissa", "Dana"]
    assert "802.2" in defending["rules"]


@pytest.mark.slow
@needs_server
def test_26_requests_in_different_languages_are_not_answered_together():
    text = (EXAMPLES / "05_poison_two_headed_giant.mtg").read_text(encoding="utf-8")
    requests = [{"scenario": text, "lang": lang} for lang in ("en", "it", "en", "it")]
    got, tasks, stats = _answered_while_held(requests)
    assert sorted(tasks) == [("answer_group_in_worker", 2)] * 2
    assert stats["groups"] == 2 and stats["gathered"] == 4
    for payload, response in zip(requests, got, strict=True):
        assert response == _alone(payload)
    outcome_en = next(a for a in got[0][2]["answers"] if a["ask"] == "outcome")
    outcome_it = next(a for a in got[1][2]["answers"] if a["ask"] == "outcome")
    assert outcome_en["rules"] == outcome_it["rules"]  # the same rules, said in two languages


@pytest.mark.slow
@needs_server
def test_26_gather_1_answers_each_waiting_request_alone():
    text = (EXAMPLES / "05_poison_two_headed_giant.mtg").read_text(encoding="utf-8")
    got, tasks, stats = _answered_while_held([{"scenario": text}] * 3, gather=1)
    assert tasks == [("answer_in_worker", 1)] * 3
    assert stats["groups"] == 0
    assert all(response == got[0] for response in got)


@pytest.mark.slow
@needs_server
def test_26_a_batch_is_answered_in_chunks_as_each_item_alone():
    """POST /v1/batch: its items wait for the worker together (up to
    `--gather` a worker at a time), so one task answers them as a chunk;
    each item's answer is its answer alone (802.2 decides the defenders)."""
    from fastapi.testclient import TestClient

    from mtgkb.serve import app as server

    names = ["02_multiplayer_combat", "05_poison_two_headed_giant", "07_first_strike_trample"]
    texts = [(EXAMPLES / f"{n}.mtg").read_text(encoding="utf-8") for n in names] * 2
    for gather, tasks in ((8, [("answer_group_in_worker", 6)]), (1, [("answer_in_worker", 1)] * 6)):
        pool = _held_pool()
        pool.gate.set()  # (nothing is held: the items wait for the one worker)
        app = server.create_app(patient_settings(workers=1, gather=gather), pool=pool)
        with TestClient(app, base_url=LOCAL) as client:
            lines = client.post("/v1/batch", json=[{"scenario": t} for t in texts]).json()
        assert pool.tasks == tasks
        for text, line in zip(texts, lines, strict=True):
            assert (line["status"], str(line["exit"]), line["body"]) == _alone({"scenario": text})
        defending = next(a for a in lines[0]["body"]["answers"] if a["ask"] == "defending")
        assert "802.2" in defending["rules"]
