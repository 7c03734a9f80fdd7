"""`mtgkb serve` under load (issue 27's third "done when", issue 26's server
figures), on 127.0.0.1 only, with a bounded number of requests:

- latency and throughput: for 1 and 2 workers, 1, 8 and 50 concurrent
  clients, each on its own kept-alive connection, POST /v1/run with the
  batch scenario (4 players x 8 creatures; `ask legal`, `ask blocks for`
  the first defender `limit 5`, `ask outcome`): the median (p50) and 99th
  percentile latency (ms and / floor, queue time included) and the
  throughput in scenarios per floor (scenarios per second x the floor's
  seconds). The server is started with a queue that holds every client
  (`--queue 64`) and a time-out of 60 s, which the queue time of 50
  clients stays under: each 503 (busy, or the time-out) is counted and
  reported.
- issue 26's two figures, from that grid: one client, 1 worker: the median
  latency (target <= 20 ms); 2 workers, 8 clients: scenarios per floor
  (target >= 6), and where that cell's time goes: the CPU time of the
  workers and of the server process a request (from /proc), how many
  requests were answered together on average (GET /health), and how busy
  that kept the 2 CPUs. Beside them, the same scenarios answered warm in this
  process (mtgkb.Answerer with MTGKB_POOL=0): what the server cannot go
  below without faster answers; the floors of ten of these scenarios
  answered alone (in a fresh process: Lark parsing each, gringo grounding
  and clasp solving its groundings, bench.issue26.grounding_seconds and
  request_seconds) with the server's lightest HTTP round trip (GET
  /health), against the median's target; gringo's part alone caps 2
  workers at 2 / it scenarios per floor; and, for the requests a worker answers
  together (mtgkb.serve.gathering), gringo grounding as one chunk as many
  of them as a worker takes under 8 clients (its share, 8 / 2 = 4: SHARE),
  clasp solving it and Lark parsing them (bench.issue26.chunk_seconds), a
  scenario: the cap of 2 workers answering every request gathered so; and
  what a worker's chunk costs it, warm, in this process (chunk_costs:
  answer_together on chunks of 2 and 8), split into the chunk's own part
  (its groundings readying their statements, however few it answers) and
  each scenario's: the share of a request the chunk's own part takes at 4
  a chunk, and the cap of 2 workers were it nothing. The
  workers are warmed up first, for gathered requests too (more clients
  than workers: their engines' chunk programs made).
- memory: the resident memory (RSS) of the server process, and of the
  server with its workers, over 10,000 requests (2 workers, 2 clients,
  small scenarios with fresh names each, so that clingo's symbols grow and
  workers are recycled): first, last and highest, sampled every 1,000.

`python -m bench --only server_load` (with `--quick`: fewer requests per
cell and 2,000 for the memory).
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import threading
import time
from pathlib import Path

from . import generate
from .targets import verdict

CLIENTS = (1, 8, 50)
WORKERS = (1, 2)
QUEUE = 64  # holds every client: a cell measures answers, not refusals
#: the requests a worker answers together in the cell of issue 26's
#: throughput (8 clients, 2 workers: mtgkb.serve.gathering's share)
SHARE = 8 // 2
TIMEOUT = 60  # seconds: 50 clients' queue time stays under it
MEMORY_REQUESTS = 10_000
SAMPLE_EVERY = 1_000

#: issue 26's figures: (comparison, bound)
TARGETS = {
    "median_ms_1_client": ("<=", 20.0),
    "per_floor_2_workers_8_clients": (">=", 6.0),
}


def below_target(cap: float, said: str = " (below the target)") -> str:
    """What the report adds to a cap on the throughput (scenarios per floor)
    that is below its target: `said`, else nothing."""
    return said if cap < TARGETS["per_floor_2_workers_8_clients"][1] else ""


def batch_bodies(n: int) -> list[bytes]:
    """The batch benchmark's scenarios (bench/suite.py's batch_texts), as bodies."""
    defender = generate.player_names(4)[1]
    questions = ("legal", f"blocks for {defender} limit 5", "outcome")
    return [generate.combat(seed, questions=questions).encode() for seed in range(n)]


def fresh_body(i: int) -> bytes:
    """A small combat whose names no other request used (the memory run)."""
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'Ann controls creature "Fresh {i} a{j}" 2/2' for j in range(3)]
    lines += [f'Ben controls creature "Fresh {i} b{j}" 1/3' for j in range(2)]
    lines += [f'"Fresh {i} a{j}" attacks Ben' for j in range(3)]
    lines += [f'"Fresh {i} b0" blocks "Fresh {i} a0"', "ask legal"]
    return ("\n".join(lines) + "\n").encode()


# --------------------------------------------------------------------------
# the server and its memory


def resident_kb(pid: int) -> int:
    """Resident memory of one process, in KB (0 when it has gone)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError, IndexError):
        return 0


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) one process has used so far, in seconds
    (0 when it has gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes `pid` forked (its workers), from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`mtgkb serve` on a free port of 127.0.0.1, started and stopped."""

    def __init__(self, command: list[str], workers: int, env: dict) -> None:
        self.port = free_port()
        cmd = command + ["serve", "--port", str(self.port), "--workers", str(workers)]
        cmd += ["--queue", str(QUEUE), "--timeout", str(TIMEOUT)]
        self.process = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        end = time.monotonic() + 60
        while True:
            try:
                post_all(self.port, [b"players: Ann, Ben\nask legal\n"])
                return
            except OSError:
                if time.monotonic() > end or self.process.poll() is not None:
                    self.stop()
                    raise
                time.sleep(0.2)

    def rss_kb(self) -> tuple[int, int]:
        """(the server process's RSS, the server's with its workers'), in KB."""
        own = resident_kb(self.process.pid)
        return own, own + sum(resident_kb(c) for c in children(self.process.pid))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def gathering(port: int) -> dict:
    """The server's counts of requests answered together (GET /health's
    "gathering": chunks of two or more, and the requests in them)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        _, status, answer = timed_request(connection, "GET", "/health")
    finally:
        connection.close()
    if status != 200:
        raise RuntimeError("the server did not answer GET /health with 200")
    return json.loads(answer)["gathering"]


def post_all(port: int, bodies: list[bytes], refused: list | None = None) -> list[float]:
    """POST each body to /v1/run over one kept-alive connection; the latencies.
    A 503 (busy, or the time-out) is counted in `refused` by its "error";
    any other status but 200 is a fault."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    latencies = []
    try:
        for body in bodies:
            seconds, status, answer = timed_request(
                connection, "POST", "/v1/run", body, {"content-type": "text/plain"}
            )
            latencies.append(seconds)
            if status == 503 and refused is not None:
                refused.append(json.loads(answer).get("error", "?"))
                connection.close()  # a refused request's connection is closed
            elif status != 200:
                raise RuntimeError(f"the server answered {status}")
    finally:
        connection.close()
    return latencies


def timed_request(connection, method: str, path: str, body=None, headers=None):
    """(seconds, HTTP status, body read) of one request over `connection`."""
    start = time.perf_counter()
    connection.request(method, path, body, headers or {})
    response = connection.getresponse()
    answer = response.read()
    return time.perf_counter() - start, response.status, answer


def load(port: int, bodies: list[bytes], clients: int) -> tuple[list[float], float, list]:
    """`bodies` sent by `clients` concurrent clients (each its share, in
    turn): every latency, the wall time, and the errors of the 503s."""
    shares = [bodies[i::clients] for i in range(clients)]
    results: list[list[float]] = [[] for _ in range(clients)]
    refused: list = []
    errors: list = []

    def client(i: int) -> None:
        try:
            results[i] = post_all(port, shares[i], refused)
        except Exception as err:  # noqa: BLE001 - reported after the join
            errors.append(err)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    if errors:
        raise errors[0]
    return [t for r in results for t in r], wall, refused


def refusals(errors: list) -> str:
    """`503: 3 timeout, 1 busy`, or nothing."""
    if not errors:
        return ""
    kinds = {kind: errors.count(kind) for kind in sorted(set(errors))}
    return "503: " + ", ".join(f"{n} {kind}" for kind, n in kinds.items())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


# --------------------------------------------------------------------------
# the part


def in_process_median(bodies: list[bytes]) -> float:
    """The median time of the same scenarios answered warm in this process."""
    import mtgkb

    saved = os.environ.get("MTGKB_POOL")
    os.environ["MTGKB_POOL"] = "0"
    answerer = mtgkb.Answerer()
    try:
        for body in bodies[:10]:
            answerer.run(body)
        times = []
        for body in bodies:
            start = time.perf_counter()
            answerer.run(body)
            times.append(time.perf_counter() - start)
    finally:
        answerer.close()
        if saved is None:
            os.environ.pop("MTGKB_POOL", None)
        else:
            os.environ["MTGKB_POOL"] = saved
    return statistics.median(times)


def chunk_costs(bodies: list[bytes], sizes: tuple[int, int] = (2, 2 * SHARE)) -> dict:
    """What a worker's chunk of gathered requests costs it, warm, in this
    process (mtgkb.running.batch.answer_together, as a worker answers them):
    for each of `sizes`, `bodies` answered in chunks of that size, twice,
    each size in turn; the CPU seconds of a chunk on average, the least of
    the two passes ("least"), split (fixed_and_marginal) into what a chunk
    costs however few it answers (its groundings' own work: gringo readying
    the rule base's statements, the input checks, the rules not modelled)
    and what each scenario in it adds."""
    from mtgkb.engine.state import Engine
    from mtgkb.questions.answers import Limits
    from mtgkb.running.batch import answer_together

    small, large = sizes
    items = [(f"chunk_{i:03d}", body, None) for i, body in enumerate(bodies)]
    engine, limits = Engine(), Limits()
    answer_together(items[:large], limits, engine)  # (the engine's chunk programs made)
    least: dict[int, float] = {}
    for _ in range(2):
        for size in sizes:
            chunks = [items[i : i + size] for i in range(0, len(items) - size + 1, size)]
            start = time.process_time()
            for chunk in chunks:
                answer_together(chunk, limits, engine)
            spent = (time.process_time() - start) / len(chunks)
            least[size] = min(least.get(size, spent), spent)
    fixed, each = fixed_and_marginal(small, least[small], large, least[large])
    least_of = [least[small], least[large]]
    return {"sizes": list(sizes), "least": least_of, "fixed": fixed, "each": each}


def fixed_and_marginal(small: int, small_cost: float, large: int, large_cost: float):
    """(what a chunk costs however few it holds, what each scenario adds),
    from what a chunk of `small` and one of `large` scenarios cost: the line
    through the two."""
    each = (large_cost - small_cost) / (large - small)
    return small_cost - small * each, each


def chunk_cost_note(costs: dict, floor: float, share: int = SHARE) -> str:
    """The report's line for chunk_costs: a chunk's fixed part, a scenario's,
    the fixed part's share of a request at `share` a chunk, and the cap of
    2 workers were the fixed part nothing (a scenario's part alone, on 2
    CPUs), in scenarios per floor (`floor`: its seconds)."""
    fixed, each = costs["fixed"], costs["each"]
    request = fixed / share + each
    cap = 2 / (each / floor)
    small, large = costs["sizes"]
    return (
        f"a worker's chunk, warm, in one process (chunks of {small} and {large}):"
        f" {fixed * 1000:.1f} ms a chunk + {each * 1000:.1f} ms a scenario; at {share}"
        f" a chunk, the chunk's own part is {fixed / share / request * 100:.0f}% of a"
        f" request's {request * 1000:.1f} ms; were it nothing, at most {cap:.1f} scenarios"
        " per floor" + below_target(cap)
    )


def request_floors(ctx, bodies: list[bytes]) -> dict[str, float]:
    """What plain clingo and Lark cost each of `bodies` answered alone, as a
    warm server answers a lone request, in seconds, on average (best of 2,
    in a fresh process): `ground`, gringo grounding its groundings, their
    counting forms included (bench.issue26.grounding_seconds); `solve`,
    clasp solving them for the models the questions ask for, and `parse`,
    Lark parsing it (bench.issue26.request_seconds). `ground` alone caps a
    worker's scenarios per second below 1 / it."""
    from .floors import in_fresh_process

    paths = [str(ctx.file(f"server_floor_{i:02d}.mtg", b.decode())) for i, b in enumerate(bodies)]
    found = in_fresh_process(ctx, ["bench.issue26", "2", *paths], "the server's grounding floor")
    return {
        "ground": sum(f["ground"] + f["forms"] for f in found.values()) / len(found),
        "solve": sum(f["solve"] for f in found.values()) / len(found),
        "parse": sum(f["parse"] for f in found.values()) / len(found),
    }


def round_trip(port: int, times: int = 50) -> float:
    """The median seconds of the server's lightest request (GET /health) over
    one kept-alive connection: what HTTP costs a request, in the server and
    in this client, before any answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        timed = [timed_request(connection, "GET", "/health") for _ in range(times)]
    finally:
        connection.close()
    if any(status != 200 for _, status, _ in timed):
        raise RuntimeError("the server did not answer GET /health with 200")
    return statistics.median(seconds for seconds, _, _ in timed)


def chunk_floor(ctx, bodies: list[bytes]) -> float:
    """gringo's grounding of `bodies` as one chunk (as a worker answers the
    requests gathered for it, mtgkb.serve.gathering), clasp's solving of it
    and Lark's parse, a scenario, in seconds (bench.issue26.chunk_seconds,
    in a fresh process): what a gathered request costs at least."""
    from .floors import in_fresh_process
    from .issue26 import chunk_total

    paths = [str(ctx.file(f"server_chunk_{i:02d}.mtg", b.decode())) for i, b in enumerate(bodies)]
    found = in_fresh_process(ctx, ["bench.issue26", "--chunk", "2", *paths], "the chunk floor")
    return chunk_total(found)


def bench_server_load(ctx, command: list[str]) -> None:
    """The grid of latencies and throughputs, issue 26's figures, and the
    memory over 10,000 requests (see the module's docstring)."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        ctx.report.add("server_load", "needs mtgkb[serve]: skipped", "-")
        return
    report = ctx.report
    per_cell = 60 if ctx.quick else 200
    bodies = batch_bodies(max(per_cell, 4 * max(CLIENTS)))
    data: dict = {"floor_ms": ctx.floor() * 1000, "cells": {}}
    for workers in WORKERS:
        server = Server(command, workers, ctx.env)
        try:
            # warm every worker, for requests gathered too (mtgkb.serve.gathering:
            # its engine's chunk programs, made when it first answers a chunk):
            # more clients than workers, so that requests wait and are gathered
            load(server.port, bodies[:40], max(2, workers))
            load(server.port, bodies[:48], 4 * workers)
            if workers == 1:
                data["round_trip_ms"] = round_trip(server.port) * 1000
            for clients in CLIENTS:
                sent = bodies[: max(per_cell, 4 * clients)]
                # (each cell against the floor of about then: Context.beside_floor)
                (latencies, wall, refused, use), floor = ctx.beside_floor(
                    lambda s=server, b=sent, c=clients: load_cell(s, b, c), 2
                )
                if (workers, clients) == (2, 8):
                    data["cpu_2x8"] = {**use, "floor": floor}
                p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
                per_floor = len(sent) / wall * floor
                report.add(
                    "server_load",
                    f"{workers} worker(s), {clients:2d} client(s): p50 {p50 * 1000:.0f} ms, "
                    f"p99 {p99 * 1000:.0f} ms, {len(sent) / wall:.1f}/s; scenarios per floor",
                    per_floor,
                    refusals(refused),
                )
                data["cells"][f"{workers}x{clients}"] = {
                    "requests": len(sent),
                    "p50_ms": p50 * 1000,
                    "p99_ms": p99 * 1000,
                    "p50_per_floor": p50 / floor,
                    "p99_per_floor": p99 / floor,
                    "per_second": len(sent) / wall,
                    "per_floor": per_floor,
                    "refused": len(refused),
                    "floor_ms": floor * 1000,
                }
        finally:
            server.stop()
    one = data["cells"]["1x1"]["p50_ms"]
    report.add(
        "server_load",
        "issue 26: median latency, warm, one client, 1 worker (ms)",
        one,
        verdict(TARGETS, "median_ms_1_client", one),
    )
    local = in_process_median(bodies[:40]) * 1000
    report.add("server_load", "  the same scenarios answered in-process, warm: median (ms)", local)
    throughput = data["cells"]["2x8"]["per_floor"]
    report.add(
        "server_load",
        "issue 26: 2 workers, 8 clients: scenarios per floor",
        throughput,
        verdict(TARGETS, "per_floor_2_workers_8_clients", throughput),
    )
    use = data["cpu_2x8"]
    workers_floor = use["workers_ms"] / 1000 / use["floor"]
    report.add(
        "server_load",
        f"  where its time goes: the workers' CPU {use['workers_ms']:.1f} ms a request"
        f" ({workers_floor:.2f} floor), the server's {use['server_ms']:.1f} ms;"
        f" {use['together']:.1f} requests answered together on average"
        f" ({use['alone']} alone); the 2 CPUs {use['busy'] * 100:.0f}% busy: at this CPU"
        f" a request, at most {2 / workers_floor:.1f} scenarios per floor",
        "",
    )
    alone, floor = ctx.beside_floor(lambda: request_floors(ctx, bodies[:10]))
    grounding = alone["ground"]
    trip = data["round_trip_ms"]
    lone = (alone["parse"] + grounding + alone["solve"]) * 1000 + trip
    bound = TARGETS["median_ms_1_client"][1]
    report.add(
        "server_load",
        "  floors of one of these answered alone: Lark parse"
        f" {alone['parse'] * 1000:.1f} + gringo {grounding * 1000:.1f} (counting forms"
        f" included) + clasp {alone['solve'] * 1000:.1f} + HTTP round trip (GET /health)"
        f" {trip:.1f} = {lone:.1f} ms"
        + (
            " (above the median target by themselves)"
            if lone > bound
            else f" ({bound - lone:.1f} ms of the median target left for mtgkb's own work)"
        ),
        "",
    )
    cap = 2 / (grounding / floor)
    report.add(
        "server_load",
        f"  floor: 2 workers, each grounding every scenario alone: at most {cap:.2f}"
        " scenarios per floor" + below_target(cap, " (below the target by itself)"),
        "",
    )
    chunked, floor = ctx.beside_floor(lambda: chunk_floor(ctx, bodies[:SHARE]))
    chunk_cap = 2 / (chunked / floor)
    report.add(
        "server_load",
        f"  floor: 2 workers, each answering its requests gathered {SHARE} at a time"
        " (8 clients' share of a worker; gringo"
        f" grounding them as one chunk + clasp + Lark, {chunked * 1000:.1f} ms a scenario): at most"
        f" {chunk_cap:.1f} scenarios per floor" + below_target(chunk_cap),
        "",
    )
    costs, floor = ctx.beside_floor(lambda: chunk_costs(bodies[: 8 * SHARE]))
    report.add("server_load", "  " + chunk_cost_note(costs, floor), "")
    data.update(
        chunk_costs={**costs, "floor": floor},
        chunk_floor_ms=chunked * 1000,
        chunk_cap_2_workers=chunk_cap,
        median_ms_1_client=one,
        in_process_median_ms=local,
        per_floor_2x8=throughput,
        grounding_floor_ms=grounding * 1000,
        lone_request_floors_ms={
            "parse": alone["parse"] * 1000,
            "ground": grounding * 1000,
            "solve": alone["solve"] * 1000,
            "round_trip": trip,
            "sum": lone,
        },
        grounding_cap_2_workers=cap,
    )
    data["memory"] = memory_run(ctx, command, 2_000 if ctx.quick else MEMORY_REQUESTS)
    ctx.report.data["server_load"] = data


def load_cell(server: Server, sent: list[bytes], clients: int) -> tuple:
    """One cell of the grid: `sent` posted by `clients` clients; the
    latencies, the wall time, the refusals and what the requests cost the
    server and its workers (cpu_use)."""
    before = server_cpu(server), gathering(server.port)
    latencies, wall, refused = load(server.port, sent, clients)
    return latencies, wall, refused, cpu_use(server, before, len(sent), wall)


def server_cpu(server: Server) -> dict[int, float]:
    """The CPU seconds the server process and each of its workers have used."""
    pids = [server.process.pid, *children(server.process.pid)]
    return {pid: cpu_seconds(pid) for pid in pids}


def cpu_use(server: Server, before: tuple, requests: int, wall: float) -> dict:
    """What `requests` answered in `wall` seconds cost the server process and
    its workers in CPU time (ms a request; a worker recycled meanwhile is
    left out), how many were answered together on average (the server's
    chunks: mtgkb.serve.gathering) and how busy they kept 2 CPUs."""
    cpu, gathered = before
    after, now = server_cpu(server), gathering(server.port)
    spent = {pid: after[pid] - cpu[pid] for pid in after if pid in cpu}
    own = spent.pop(server.process.pid, 0.0)
    chunks = now["groups"] - gathered["groups"]
    together = now["gathered"] - gathered["gathered"]
    return {
        "server_ms": own / requests * 1000,
        "workers_ms": sum(spent.values()) / requests * 1000,
        "together": together / chunks if chunks else 1.0,
        "alone": requests - together,
        "busy": (own + sum(spent.values())) / wall / 2,
    }


def memory_run(ctx, command: list[str], requests: int) -> dict:
    """The server's RSS over `requests` small requests with fresh names (2
    workers, 2 clients), sampled every SAMPLE_EVERY."""
    server = Server(command, 2, ctx.env)
    samples = []
    try:
        load(server.port, [fresh_body(-i - 1) for i in range(40)], 2)  # warm
        samples.append(server.rss_kb())
        for first in range(0, requests, SAMPLE_EVERY):
            batch = [fresh_body(i) for i in range(first, min(requests, first + SAMPLE_EVERY))]
            load(server.port, batch, 2)
            samples.append(server.rss_kb())
    finally:
        server.stop()
    own = [s[0] / 1024 for s in samples]
    whole = [s[1] / 1024 for s in samples]
    ctx.report.add(
        "server_load",
        f"memory over {requests:,} requests, server process: first / last / highest MB",
        f"{own[0]:.0f} / {own[-1]:.0f} / {max(own):.0f}",
    )
    ctx.report.add(
        "server_load",
        "  server with its 2 workers: first / last / highest MB",
        f"{whole[0]:.0f} / {whole[-1]:.0f} / {max(whole):.0f}",
    )
    return {"requests": requests, "server_mb": own, "with_workers_mb": whole}
