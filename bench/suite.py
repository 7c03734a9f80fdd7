"""The benchmarks of issue 6: every figure is a ratio against a baseline
measured in the same run (no bare times), so that the numbers mean the same
on a fast and on a slow machine.

- floor: `python -c "import clingo, lark"`, what any tool built like this pays;
- cold: `mtgkb run` on a 3-player combat file / the floor;
- batch: N generated 4-player combats in one `mtgkb run` call: the marginal
  cost per scenario / the floor, and / plain clingo grounding and solving
  the same facts with the same encodings (in-process, the program parsed
  once per scenario: the physical limit of this design);
- scale: 8 players, 50 creatures each, everything attacking and blocking:
  time / the floor, peak memory; growth from 10 to 50 to 200 creatures;
- enumeration: models per second counting the 6^6 block declarations /
  clingo's own enumeration of the same program.

Times are the best of several runs, taken in turn (floor, subject, floor,
...), which is what survives a busy machine best.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import generate

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
COLD_FILE = HERE / "data" / "cold_3p_combat.mtg"

TARGETS = {
    "cold": ("<=", 1.5),
    "batch": ("<=", 0.1),
    "scale": ("<=", 10.0),
    "enumeration": (">=", 0.5),
}

FLOOR = [sys.executable, "-c", "import clingo, lark"]
SPEEDUP_FLAGS = ("MTGKB_SLICING", "MTGKB_SHARE", "MTGKB_FAST_COUNT", "MTGKB_COMBINE")


@dataclass
class Run:
    seconds: float
    peak_kb: int
    status: int


@dataclass
class Report:
    """Ratios and notes, in the order they are printed."""

    rows: list[tuple[str, str, float | str, str]] = field(default_factory=list)
    data: dict = field(default_factory=dict)

    def add(self, group: str, what: str, value: float | str, target: str = "") -> None:
        self.rows.append((group, what, value, target))


def mtgkb_command() -> list[str]:
    """The installed `mtgkb` script beside this Python, else `python -m mtgkb`."""
    script = Path(sys.executable).parent / "mtgkb"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "mtgkb"]


def measure(cmd: list[str], env: dict | None = None, stdin: bytes | None = None) -> Run:
    """Wall time, peak resident memory and exit status of one command."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    if stdin is not None:
        proc.stdin.write(stdin)
        proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Run(seconds, usage.ru_maxrss, proc.returncode)


# A lean parent for memory figures: on Linux a child's peak resident memory
# (ru_maxrss) starts from its parent's at the fork, and this benchmark's
# process grows; a fresh `python -S` forking the command does not.
_PEAK = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    fd = os.open(os.devnull, os.O_RDWR)\n"
    "    for i in (0, 1, 2):\n"
    "        os.dup2(fd, i)\n"
    "    os.execvp(sys.argv[1], sys.argv[1:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "print(usage.ru_maxrss)\n"
)


def peak_memory(cmd: list[str], env: dict) -> int:
    """Peak resident memory of one run of `cmd`, in KB."""
    out = subprocess.run(
        [sys.executable, "-S", "-c", _PEAK, *cmd], capture_output=True, text=True, env=env
    )
    return int(out.stdout.strip() or 0)


def best_in_turn(commands: dict[str, list[str]], repeat: int, env: dict) -> dict[str, list[Run]]:
    """Each command `repeat` times, in turn; the runs of each."""
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, cmd in commands.items():
            runs[name].append(measure(cmd, env))
    return runs


def best(runs: list[Run]) -> float:
    return min(r.seconds for r in runs)


def warm_up(env: dict) -> None:
    """One small run, so that the rule base's analysis is on disk (it is
    rebuilt after every edit of rules/, kb/ or queries/)."""
    measure(mtgkb_command() + ["run", str(COLD_FILE), "--json"], env)


def _env(speedups: bool) -> dict:
    env = dict(os.environ)
    for flag in SPEEDUP_FLAGS:
        if speedups:
            env.pop(flag, None)
        else:
            env[flag] = "0"
    return env


def _set_flags(speedups: bool) -> None:
    from mtgkb import batch, solve

    solve.SLICING = solve.SHARE = solve.FAST_COUNT = batch.COMBINE = speedups


def _target(name: str, value: float) -> str:
    op, bound = TARGETS[name]
    ok = value <= bound if op == "<=" else value >= bound
    if ok:
        return f"target {op} {bound:g}: met"
    factor = value / bound if op == "<=" else bound / value
    return f"target {op} {bound:g}: missed by {factor:.1f}x"


# ---------------------------------------------------------------------------


def bench_cold(report: Report, repeat: int, env: dict, floor_runs: list[Run]) -> None:
    cmd = mtgkb_command() + ["run", str(COLD_FILE), "--json"]
    measure(cmd, env)  # the first run of a rule base builds its analysis cache
    runs = best_in_turn({"floor": FLOOR, "cold": cmd}, repeat, env)
    floor_runs.extend(runs["floor"])
    floor = best(floor_runs)
    ratio = best(runs["cold"]) / floor
    report.add(
        "cold", "mtgkb run, 3-player combat, 3 questions / floor", ratio, _target("cold", ratio)
    )
    median = statistics.median(r.seconds for r in runs["cold"]) / statistics.median(
        r.seconds for r in runs["floor"]
    )
    report.add("cold", "  same, medians", median)
    report.data["cold"] = {"ratio": ratio, "median_ratio": median}


def _plain_clingo_per_scenario(texts: list[str], repeat: int) -> float:
    """Seconds per scenario for clingo alone: for each question a Control that
    parses the rule base and the query, then grounds and solves the facts."""
    import clingo

    from mtgkb.facts import facts_text, scenario_facts
    from mtgkb.parser import parse_text
    from mtgkb.paths import query_file, rule_files

    rules = "\n".join(f.read_text(encoding="utf-8") for f in rule_files())
    work = []
    for text in texts:
        scenario = parse_text(text)
        facts = facts_text(scenario_facts(scenario))
        queries = [q.kind for q in scenario.questions]
        work.append((facts, [query_file(q).read_text(encoding="utf-8") for q in queries]))
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        for facts, queries in work:
            for query in queries:
                ctl = clingo.Control(["--project=show", "--models=1"], logger=lambda c, m: None)
                ctl.add("base", [], rules)
                ctl.add("base", [], query)
                ctl.add("base", [], facts)
                ctl.ground([("base", [])])
                ctl.configuration.solve.opt_mode = "optN"
                ctl.solve()
        timings.append((time.perf_counter() - start) / len(work))
    return min(timings)


def bench_batch(
    report: Report, n: int, repeat: int, env: dict, floor_runs: list[Run], jobs: int
) -> None:
    texts = [
        generate.combat(seed, players=4, creatures=8, questions=("legal",)) for seed in range(n)
    ]
    with tempfile.TemporaryDirectory(prefix="mtgkb-bench-") as tmp:
        paths = []
        for i, text in enumerate(texts):
            path = Path(tmp) / f"combat_{i:05d}.mtg"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        base = mtgkb_command() + ["run", "--jsonl"]
        warm_up(env)
        commands = {"floor": FLOOR, "one": base + paths[:1], "all": base + paths}
        if jobs > 1:
            commands["jobs"] = base + ["--jobs", str(jobs)] + paths
        runs = best_in_turn(commands, repeat, env)
    floor_runs.extend(runs["floor"])
    floor = best(floor_runs)
    one, all_ = best(runs["one"]), best(runs["all"])
    marginal = (all_ - one) / (n - 1)
    ratio = marginal / floor
    report.add(
        "batch",
        f"marginal cost per scenario ({n} 4-player combats) / floor",
        ratio,
        _target("batch", ratio),
    )
    clingo_each = _plain_clingo_per_scenario(texts[: min(n, 100)], max(1, repeat - 1))
    report.add(
        "batch", "  / plain clingo per scenario (its physical limit: 1.0)", marginal / clingo_each
    )
    report.add("batch", "  plain clingo per scenario / floor", clingo_each / floor)
    data = {
        "n": n,
        "ratio": ratio,
        "vs_clingo": marginal / clingo_each,
        "clingo_vs_floor": clingo_each / floor,
    }
    if jobs > 1:
        jobs_marginal = (best(runs["jobs"]) - one) / (n - 1)
        report.add("batch", f"  with --jobs {jobs}, per scenario / floor", jobs_marginal / floor)
        data["jobs"] = {"jobs": jobs, "ratio": jobs_marginal / floor}
    try:
        api = _batch_api_per_scenario(texts, max(1, repeat - 1))
    except ImportError:  # an mtgkb without the batch API
        api = None
    if api is not None:
        report.add(
            "batch", "  mtgkb.batch.answer_files in-process, per scenario / floor", api / floor
        )
        data["api_ratio"] = api / floor
    report.data["batch"] = data


def _batch_api_per_scenario(texts: list[str], repeat: int) -> float:
    """Seconds per scenario of the batch API in this process (the rule base
    read and analysed first): what `mtgkb run` costs once it routes several
    files through mtgkb.batch."""
    from mtgkb.answers import Limits
    from mtgkb.batch import answer_files

    with tempfile.TemporaryDirectory(prefix="mtgkb-bench-") as tmp:
        paths = []
        for i, text in enumerate(texts):
            path = Path(tmp) / f"combat_{i:05d}.mtg"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        list(answer_files(paths[:40], Limits()))  # warm: read, analyse, transform
        timings = []
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in answer_files(paths, Limits()):
                pass
            timings.append((time.perf_counter() - start) / len(paths))
    return min(timings)


def _in_process(text: str) -> float:
    from mtgkb.runner import answer_text

    start = time.perf_counter()
    answer_text(text, "scale")
    return time.perf_counter() - start


def _atoms_per_query(text: str) -> dict[str, int]:
    """Ground atoms of each question's grounding, to see which grows how."""
    from mtgkb.answers import facts_for
    from mtgkb.facts import scenario_facts
    from mtgkb.parser import parse_text
    from mtgkb.solve import Grounding

    scenario = parse_text(text)
    facts = scenario_facts(scenario)
    out = {}
    for question in scenario.questions:
        ground = Grounding([question.kind], facts_for(question, facts))
        out[question.kind] = len(ground.ctl.symbolic_atoms)
        del ground
    return out


def bench_scale(
    report: Report, repeat: int, env: dict, floor_runs: list[Run], sizes: tuple[int, ...]
) -> None:
    texts = {n: generate.scale(creatures=n, players=8) for n in sizes}
    warm_up(env)
    runs: dict[int, list[Run]] = {}
    memory: dict[int, int] = {}
    with tempfile.TemporaryDirectory(prefix="mtgkb-bench-") as tmp:
        for n, text in texts.items():
            path = Path(tmp) / f"scale_{n}.mtg"
            path.write_text(text, encoding="utf-8")
            times = repeat if n <= 50 else max(1, repeat // 3)
            cmd = mtgkb_command() + ["run", str(path), "--json"]
            both = best_in_turn({"floor": FLOOR, "scale": cmd}, times, env)
            floor_runs.extend(both["floor"])
            runs[n] = both["scale"]
            memory[n] = min(peak_memory(cmd, env) for _ in range(2))
        floor_kb = min(peak_memory(FLOOR, env) for _ in range(2))
    floor = best(floor_runs)
    main = 50 if 50 in runs else sizes[len(sizes) // 2]
    ratio = best(runs[main]) / floor
    peak_kb = memory[main]
    report.add(
        "scale",
        f"8 players x {main} creatures, legal + outcome / floor",
        ratio,
        _target("scale", ratio),
    )
    report.add("scale", f"  peak memory {peak_kb / 1024:.0f} MB / floor's", peak_kb / floor_kb)
    data = {
        "creatures": main,
        "ratio": ratio,
        "peak_mb": peak_kb / 1024,
        "peak_vs_floor": peak_kb / floor_kb,
        "growth": [],
    }
    # growth, in-process (without the start-up every run pays)
    inner = {n: min(_in_process(texts[n]) for _ in range(1 if n > 50 else 3)) for n in sizes}
    try:
        atoms = {n: _atoms_per_query(texts[n]) for n in sizes}
    except ImportError:  # an mtgkb without mtgkb.solve.Grounding
        atoms = {n: {} for n in sizes}
    for small, big in zip(sizes, sizes[1:], strict=False):
        k = big / small
        t = inner[big] / inner[small]
        exponent = math.log(t) / math.log(k)
        peak_big = memory[big] / memory[small]
        report.add(
            "scale",
            f"  {small} -> {big} creatures ({k:g}x objects): time x{t:.1f}, "
            f"memory x{peak_big:.1f}; time ~ n^",
            exponent,
        )
        growth = {
            "from": small,
            "to": big,
            "time": t,
            "exponent": exponent,
            "memory": peak_big,
            "atoms": {},
        }
        for query in atoms[small]:
            a = atoms[big][query] / atoms[small][query]
            growth["atoms"][query] = {"ratio": a, "exponent": math.log(a) / math.log(k)}
            report.add(
                "scale", f"    ground atoms of '{query}' x{a:.1f}; ~ n^", math.log(a) / math.log(k)
            )
        data["growth"].append(growth)
    report.data["scale"] = data


def bench_enumeration(report: Report, repeat: int) -> None:
    import clingo

    from mtgkb.facts import facts_text, scenario_facts
    from mtgkb.parser import parse_text
    from mtgkb.paths import query_file, rule_files
    from mtgkb.runner import answer_text

    text = generate.enumeration(blockers=6, attackers=5, limit=5)
    expected = 6**6
    ours = []
    for _ in range(repeat):
        start = time.perf_counter()
        output = answer_text(text, "enumeration").output
        ours.append(time.perf_counter() - start)
    count = output["answers"][0]["count"]
    if count != expected:
        raise AssertionError(f"counted {count} block declarations, not {expected}")
    program = "\n".join(f.read_text(encoding="utf-8") for f in rule_files())
    program += "\n" + query_file("blocks").read_text(encoding="utf-8")
    facts = facts_text(scenario_facts(parse_text(text)))
    theirs, theirs_solve = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        ctl = clingo.Control(["--project=show", "--models=0"], logger=lambda c, m: None)
        ctl.add("base", [], program)
        ctl.add("base", [], facts)
        ctl.ground([("base", [])])
        ctl.configuration.solve.opt_mode = "optN"
        grounded = time.perf_counter()
        ctl.solve()
        done = time.perf_counter()
        models = ctl.statistics["summary"]["models"]
        if max(models["enumerated"], models["optimal"]) != expected:
            raise AssertionError("clingo did not enumerate 6^6 declarations")
        theirs.append(done - start)
        theirs_solve.append(done - grounded)
    ratio = min(theirs) / min(ours)  # models/s ours / models/s theirs
    report.add(
        "enumeration",
        "6^6 block declarations: mtgkb models/s / clingo's",
        ratio,
        _target("enumeration", ratio),
    )
    report.add(
        "enumeration",
        "  / clingo's search alone (its grounding not counted)",
        min(theirs_solve) / min(ours),
    )
    report.data["enumeration"] = {"ratio": ratio, "vs_search": min(theirs_solve) / min(ours)}


# ---------------------------------------------------------------------------


def _fresh_names(i: int, creatures: int = 50) -> str:
    """A 2-player combat of `creatures` attackers whose names no other call used."""
    lines = ["players: Ann, Ben", "active: Ann", "phase: declare-attackers"]
    lines += [f'Ann controls creature "Fresh {i} n{j}" 2/2' for j in range(creatures)]
    lines += [f'"Fresh {i} n{j}" attacks Ben' for j in range(creatures)]
    lines.append("ask legal")
    return "\n".join(lines) + "\n"


def bench_pool(report: Report, repeat: int, floor_runs: list[Run], calls: int = 100) -> None:
    """What answering `mtgkb.run` in a recycled worker (mtgkb.pool) costs per
    call, against answering in the calling process, and what it saves: the
    caller's growth over calls with fresh names."""
    import mtgkb
    from mtgkb import pool

    text = COLD_FILE.read_text(encoding="utf-8")
    floor = best(floor_runs)
    saved = os.environ.get("MTGKB_POOL")

    def per_call(setting: str) -> float:
        os.environ["MTGKB_POOL"] = setting
        start = time.perf_counter()
        for _ in range(calls):
            mtgkb.run(text, "pool.mtg")
        return (time.perf_counter() - start) / calls

    def growth(setting: str, count: int) -> float:
        os.environ["MTGKB_POOL"] = setting
        mtgkb.run(_fresh_names(-1), "warm")
        before = pool.resident()
        for i in range(count):
            mtgkb.run(_fresh_names(i + (0 if setting == "1" else 10**6)), "fresh")
        return (pool.resident() - before) / 2**20

    try:
        per_call("1"), per_call("0")  # warm both ways
        pooled, local = [], []
        for _ in range(repeat):
            pooled.append(per_call("1"))
            local.append(per_call("0"))
        workers = pool.default_pool()
        recycle = []
        for _ in range(repeat):
            start = time.perf_counter()
            fresh = workers._start()
            recycle.append(time.perf_counter() - start)
            fresh.close()
        grown_pooled = growth("1", 200)
        grown_local = growth("0", 200)
    finally:
        if saved is None:
            os.environ.pop("MTGKB_POOL", None)
        else:
            os.environ["MTGKB_POOL"] = saved
    ratio = min(pooled) / min(local)
    overhead = (min(pooled) - min(local)) / floor
    report.add("pool", "mtgkb.run in a worker / in the caller, per call (3-player combat)", ratio)
    report.add("pool", "  the worker's cost per call / floor", overhead)
    report.add("pool", "  forking a fresh worker (recycling) / floor", min(recycle) / floor)
    report.add(
        "pool", "caller's growth over 200 calls, 50 fresh names each, MB: in workers", grown_pooled
    )
    report.add("pool", "  same, answered in the caller (MTGKB_POOL=0), MB", grown_local)
    report.data["pool"] = {
        "ratio": ratio,
        "overhead_per_floor": overhead,
        "recycle_per_floor": min(recycle) / floor,
        "growth_mb_pooled": grown_pooled,
        "growth_mb_in_caller": grown_local,
    }


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _post_all(port: int, bodies: list[bytes]) -> list[float]:
    """POST each body to /v1/run over one kept-alive connection; the latencies."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    latencies = []
    try:
        for body in bodies:
            start = time.perf_counter()
            connection.request("POST", "/v1/run", body, {"content-type": "text/plain"})
            response = connection.getresponse()
            response.read()
            latencies.append(time.perf_counter() - start)
            if response.status != 200:
                raise RuntimeError(f"the server answered {response.status}")
    finally:
        connection.close()
    return latencies


def bench_server(report: Report, floor_runs: list[Run], n: int = 200) -> None:
    """`mtgkb serve`, warm: the median and 99th-percentile latency of a batch
    scenario (4 players x 8 creatures; legal, blocks for one defender limit 5,
    outcome) over HTTP, against the floor and against mtgkb.run in-process,
    and the throughput with 1 and 2 workers (2 clients), each / the floor."""
    from concurrent.futures import ThreadPoolExecutor

    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        report.add("server", "needs mtgkb[serve]: skipped", "-")
        return
    import mtgkb

    floor = best(floor_runs)
    defender = generate.player_names(4)[1]
    questions = ("legal", f"blocks for {defender} limit 5", "outcome")
    bodies = [generate.combat(seed, questions=questions).encode() for seed in range(n)]
    # the same scenarios answered by mtgkb.run in this process, warm: what the server adds
    saved = os.environ.get("MTGKB_POOL")
    os.environ["MTGKB_POOL"] = "0"
    try:
        mtgkb.run(bodies[0])
        local = []
        for body in bodies[: min(n, 40)]:
            start = time.perf_counter()
            mtgkb.run(body)
            local.append(time.perf_counter() - start)
    finally:
        if saved is None:
            os.environ.pop("MTGKB_POOL", None)
        else:
            os.environ["MTGKB_POOL"] = saved
    for workers in (1, 2):
        port = _free_port()
        cmd = mtgkb_command() + ["serve", "--port", str(port), "--workers", str(workers)]
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            end = time.monotonic() + 60
            while True:
                try:
                    _post_all(port, bodies[:1])
                    break
                except OSError:
                    if time.monotonic() > end:
                        raise
                    time.sleep(0.2)
            _post_all(port, bodies[: min(n, 40)])  # warm every worker's groundings
            if workers == 1:
                latencies = sorted(_post_all(port, bodies))
                median = statistics.median(latencies)
                p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
                report.add("server", "median latency, batch scenario, warm / floor", median / floor)
                report.add("server", "  99th percentile / floor", p99 / floor)
                report.add(
                    "server",
                    "  median over HTTP / mtgkb.run in-process (first 40 scenarios)",
                    statistics.median(sorted(_post_all(port, bodies[: len(local)])))
                    / statistics.median(local),
                )
                report.data["server"] = {
                    "median_per_floor": median / floor,
                    "p99_per_floor": p99 / floor,
                }
            halves = [bodies[0::2], bodies[1::2]]
            start = time.perf_counter()
            with ThreadPoolExecutor(2) as clients:
                list(clients.map(_post_all, [port, port], halves))
            per_second = n / (time.perf_counter() - start)
            report.add(
                "server",
                f"throughput, {workers} worker(s), 2 clients: scenarios per floor",
                per_second * floor,
            )
            report.data.setdefault("server", {})[f"throughput_{workers}"] = per_second * floor
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def compile_package() -> None:
    """Write the package's byte code, as an installation does (this run may
    have PYTHONDONTWRITEBYTECODE set, which would make every start compile)."""
    import compileall

    import mtgkb

    compileall.compile_dir(str(Path(mtgkb.__file__).parent), quiet=1)


def run_suite(
    only: set[str],
    repeat: int = 7,
    batch: int = 200,
    jobs: int = 2,
    speedups: bool = True,
    sizes: tuple[int, ...] = (10, 50, 200),
) -> Report:
    report = Report()
    env = _env(speedups)
    _set_flags(speedups)
    os.environ.update({k: v for k, v in env.items() if k in SPEEDUP_FLAGS})
    report.data["speedups"] = speedups
    floor_runs = [measure(FLOOR, env) for _ in range(repeat)]
    if "cold" in only:
        bench_cold(report, repeat, env, floor_runs)
    if "batch" in only:
        bench_batch(report, batch, max(2, repeat // 3), env, floor_runs, jobs)
    if "scale" in only:
        bench_scale(report, max(3, repeat // 2), env, floor_runs, sizes)
    if "enumeration" in only:
        bench_enumeration(report, max(3, repeat // 2))
    if "pool" in only:
        bench_pool(report, max(3, repeat // 2), floor_runs)
    if "server" in only:
        bench_server(report, floor_runs, batch)
    return report


def print_report(report: Report, out=sys.stdout) -> None:
    import platform

    import clingo

    print(
        f"mtgkb benchmarks: {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"clingo {clingo.__version__}; speed-ups {'on' if report.data['speedups'] else 'off'}",
        file=out,
    )
    print(
        "every figure is a ratio against a baseline measured in this run "
        "(floor = python -c 'import clingo, lark')",
        file=out,
    )
    group = None
    for name, what, value, target in report.rows:
        if name != group:
            print(f"\n{name}", file=out)
            group = name
        shown = f"{value:8.2f}" if isinstance(value, float) else f"{value:>8}"
        line = f"  {what:<72} {shown}"
        print(f"{line}   {target}" if target else line, file=out)
