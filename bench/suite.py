"""The benchmarks of issues 6 and 11: every figure is a ratio against a
baseline measured in the same run (no bare times), so that the numbers mean
the same on a fast and on a slow machine.

- floor: `python -c "import clingo, lark"`, what any tool built like this pays;
- cold: `mtgkb run` on a c06-like file (the block declarations of one
  defender), and on a 3-player combat with three questions / the floor;
- batch: 200 generated 4-player x 8-creature combats asking `legal`,
  `blocks for <first defender> limit 5` and `outcome` in one `mtgkb run`:
  the marginal cost per scenario / the floor (and every count exact);
- game: 8 players x 50 creatures, everything attacking and blocking, legal +
  outcome / the floor, and its peak memory;
- count: the exact count of the block declarations of 2 players x 100
  creatures / the floor;
- explain: `ask explain` (with legal and outcome) on 8 players x 25
  creatures / the floor, and 8 x 50 / 8 x 25;
- growth: fitted exponents of time, ground atoms and peak memory in the
  creatures per player (at 8 players) and in the players (at 25 creatures);
- enumeration: the 6^6 block declarations: mtgkb / clingo's own enumeration;
- floors: what this design pays before mtgkb's own work, under the cold,
  server, count and game targets (bench/floors.py).

Each part is a function registered with `@part(name)`; another figure (`ask
fix`, the server's latency) is one more such function, with its target in
TARGETS. Times are the best of several runs, taken in turn (floor, subject,
floor, ...), which is what survives a busy machine best, each divided by the
floor's best in the same turns (Versus): the machine's speed moves within a
session, and the session's fastest floor would make a figure measured while
it was slow read higher.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from . import generate
from .targets import verdict

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
COLD_FILE = HERE / "data" / "cold_c06_blocks.mtg"
COMBAT_FILE = HERE / "data" / "cold_3p_combat.mtg"

# figure -> (comparison, bound): the targets of issue 11
TARGETS = {
    "cold": ("<=", 1.3),
    "batch": ("<=", 0.05),
    "game": ("<=", 3.0),
    "count": ("<=", 3.0),
    "explain": ("<=", 10.0),
    "explain_growth": ("<=", 2.5),
    "enumeration": (">=", 0.5),
    # issue 24: the audit on every save, in floors of about 75 ms (3 s, 10 s, 60 s)
    "audit_lint": ("<=", 40.0),
    "audit_quick": ("<=", 133.0),
    "audit_full": ("<=", 800.0),
}

FLOOR = [sys.executable, "-c", "import clingo, lark"]
T = TypeVar("T")
SPEEDUP_FLAGS = (
    "MTGKB_SLICING",
    "MTGKB_SLICE_MEMO",
    "MTGKB_SHARE",
    "MTGKB_FAST_COUNT",
    "MTGKB_COMBINE",
    "MTGKB_COUNT_PARTS",
)


@dataclass
class Run:
    seconds: float
    peak_kb: int
    status: int
    cpu: float = 0.0  # user + sys of the command and the children it waited for


@dataclass
class Report:
    """Ratios and notes, in the order they are printed."""

    rows: list[tuple[str, str, float | str, str]] = field(default_factory=list)
    data: dict = field(default_factory=dict)

    def add(self, group: str, what: str, value: float | str, target: str = "") -> None:
        self.rows.append((group, what, value, target))


def mtgkb_command() -> list[str]:
    """The installed `mtgkb` script beside this Python, else (or with
    MTGKB_BENCH_MODULE=1, to measure the mtgkb on PYTHONPATH) `python -m mtgkb`."""
    script = Path(sys.executable).parent / "mtgkb"
    if script.exists() and os.environ.get("MTGKB_BENCH_MODULE") != "1":
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
    return Run(seconds, usage.ru_maxrss, proc.returncode, usage.ru_utime + usage.ru_stime)


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


def best_in_turn(
    commands: dict[str, list[str]],
    repeat: int,
    env: dict,
    own_env: dict[str, dict[str, str]] | None = None,
) -> dict[str, list[Run]]:
    """Each command `repeat` times, in turn; the runs of each. `own_env`: the
    variables some commands run with besides `env` (by name)."""
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    envs = {name: {**env, **(own_env or {}).get(name, {})} for name in commands}
    for _ in range(repeat):
        for name, cmd in commands.items():
            runs[name].append(measure(cmd, envs[name]))
    return runs


def best(runs: list[Run]) -> float:
    return min(r.seconds for r in runs)


def best_cpu(runs: list[Run]) -> float:
    """The least CPU time (user + sys) of the runs: what a loaded machine's
    waiting does not count."""
    return min(r.cpu for r in runs)


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
    """The speed-ups of the in-process parts: engines read them from the
    environment when made (an mtgkb before mtgkb.engine.state, from its flags)."""
    for flag in SPEEDUP_FLAGS:
        if speedups:
            os.environ.pop(flag, None)
        else:
            os.environ[flag] = "0"
    from mtgkb.engine import solve

    if hasattr(solve, "SLICING"):
        from mtgkb.running import batch

        solve.SLICING = solve.SHARE = solve.FAST_COUNT = batch.COMBINE = speedups
        if hasattr(solve, "COUNT_PARTS"):
            solve.COUNT_PARTS = speedups


@dataclass(frozen=True)
class Versus:
    """Runs of commands taken in turn with the floor's (floor, a, b, floor,
    a, b, ...): a figure is a ratio to the floor of its own turns, the
    machine's speed while it ran, not to the session's fastest floor. (The
    machine's speed moves by up to 2x within a session: against the
    session's fastest floor, a figure measured while it was slow reads that
    much higher.)"""

    runs: dict[str, list[Run]]  # each command's runs, the floor's under "floor"

    @property
    def floor(self) -> float:
        """The floor's best run in these turns, in seconds."""
        return best(self.runs["floor"])

    def ratio(self, name: str = "it") -> float:
        """The best run of command `name` / the floor's best in the same turns."""
        return best(self.runs[name]) / self.floor


@dataclass
class Context:
    """What every part is given: where to report, how often to repeat, the
    environment of the commands and the floor's runs so far."""

    report: Report
    repeat: int
    env: dict
    floor_runs: list[Run]
    batch: int = 200
    jobs: int = 2
    quick: bool = False
    tmp: Path = field(default_factory=lambda: Path(tempfile.gettempdir()))
    #: the floor's best in each series of turns (Versus.floor), in order
    turn_floors: list[float] = field(default_factory=list)

    def floor(self) -> float:
        """The session's fastest floor so far (a figure is a ratio to the
        floor of its own turns: Versus, beside_floor, floor_now)."""
        return best(self.floor_runs)

    def file(self, name: str, text: str) -> Path:
        path = self.tmp / name
        path.write_text(text, encoding="utf-8")
        return path

    def in_turn(
        self,
        commands: dict[str, list[str]],
        repeat: int | None = None,
        own_env: dict[str, dict[str, str]] | None = None,
    ) -> Versus:
        """Each of `commands` run `repeat` times, in turn with the floor; the
        floor's runs join the session's. (`own_env`: as for `best_in_turn`.)"""
        runs = best_in_turn({"floor": FLOOR, **commands}, repeat or self.repeat, self.env, own_env)
        self.floor_runs.extend(runs["floor"])
        self.turn_floor(runs["floor"])
        return Versus(runs)

    def versus_floor(self, cmd: list[str], repeat: int | None = None) -> Versus:
        """`cmd` run in turn with the floor (its runs under "it")."""
        return self.in_turn({"it": cmd}, repeat)

    def floor_now(self, repeat: int = 3, *, turn: bool = True) -> list[Run]:
        """`repeat` runs of the floor now, for a part that measures in process
        what follows (they join the session's; `turn`: their best is one of
        `turn_floors`)."""
        runs = [measure(FLOOR, self.env) for _ in range(repeat)]
        self.floor_runs.extend(runs)
        if turn:
            self.turn_floor(runs)
        return runs

    def beside_floor(self, work: Callable[[], T], repeat: int = 3) -> tuple[T, float]:
        """`work()` (seconds measured in process, not by runs of a command)
        between two series of `repeat` runs of the floor: its result and the
        floor's best of those runs, the machine's speed about then."""
        runs = self.floor_now(repeat, turn=False)
        result = work()
        runs += self.floor_now(repeat, turn=False)
        return result, self.turn_floor(runs)

    def turn_floor(self, runs: list[Run]) -> float:
        """The floor's best of `runs`, one series of turns (kept in `turn_floors`)."""
        self.turn_floors.append(best(runs))
        return self.turn_floors[-1]


PARTS: dict[str, Callable[[Context], None]] = {}


def part(name: str) -> Callable:
    """Register a benchmark part (run in registration order)."""

    def register(function: Callable[[Context], None]) -> Callable[[Context], None]:
        PARTS[name] = function
        return function

    return register


def _output(cmd: list[str], env: dict) -> dict | list:
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return json.loads(out.stdout)


# ---------------------------------------------------------------------------


@part("cold")
def bench_cold(ctx: Context) -> None:
    cmd = mtgkb_command() + ["run", str(COLD_FILE), "--json"]
    measure(cmd, ctx.env)  # the first run of a rule base builds its analysis cache
    ratio = ctx.versus_floor(cmd).ratio()
    ctx.report.add(
        "cold", "mtgkb run, c06-like blocks file / floor", ratio, verdict(TARGETS, "cold", ratio)
    )
    other = ctx.versus_floor(mtgkb_command() + ["run", str(COMBAT_FILE), "--json"]).ratio()
    ctx.report.add("cold", "  3-player combat, legal + blocks + outcome / floor", other)
    ctx.report.data["cold"] = {"ratio": ratio, "combat_ratio": other}


@part("audit")
def bench_audit(ctx: Context) -> None:
    """The rules author's audit of the checkout's rule base: `--lint` (the text
    checks alone), `--quick` and, without --quick, the whole audit; each / floor
    (the two long ones once: they take seconds to minutes)."""
    base = mtgkb_command() + ["audit", "--json", "--rule-base", str(ROOT)]
    data: dict[str, float] = {}
    modes = [("lint", ["--lint"], None), ("quick", ["--quick"], 1)]
    if not ctx.quick:
        modes.append(("full", [], 1))
    for name, options, repeat in modes:
        versus = ctx.versus_floor(base + options, repeat=repeat)
        wall = versus.ratio()
        cpu = best_cpu(versus.runs["it"]) / best_cpu(versus.runs["floor"])
        shown = "mtgkb audit " + (" ".join(options) or "(whole)")
        ctx.report.add(
            "audit", f"{shown} / floor, wall", wall, verdict(TARGETS, f"audit_{name}", wall)
        )
        ctx.report.add("audit", f"{shown} / floor, CPU (user + sys)", cpu)
        data[name], data[f"{name}_cpu"] = wall, cpu
    ctx.report.data["audit"] = data


def batch_texts(n: int) -> list[str]:
    """The batch's scenarios: 4 players x 8 creatures, three questions."""
    defender = generate.player_names(4)[1]
    questions = ("legal", f"blocks for {defender} limit 5", "outcome")
    return [generate.combat(seed, players=4, creatures=8, questions=questions) for seed in range(n)]


@part("batch")
def bench_batch(ctx: Context) -> None:
    n = ctx.batch
    texts = batch_texts(n)
    paths = [str(ctx.file(f"combat_{i:05d}.mtg", text)) for i, text in enumerate(texts)]
    base = mtgkb_command() + ["run", "--jsonl"]
    warm_up(ctx.env)
    # "all": as a user runs it (its --jobs the default: a worker per CPU past
    # one chunk); "single": in one worker, what a scenario costs one CPU
    commands = {"one": base + paths[:1], "all": base + paths}
    commands["single"] = base + ["--jobs", "1"] + paths
    if ctx.jobs > 1:
        commands["jobs"] = base + ["--jobs", str(ctx.jobs)] + paths
    versus = ctx.in_turn(commands, max(2, ctx.repeat // 3))
    runs, floor = versus.runs, versus.floor
    one, all_ = best(runs["one"]), best(runs["all"])
    marginal = (all_ - one) / (n - 1)
    ratio = marginal / floor
    out = subprocess.run(base + paths, capture_output=True, text=True, env=ctx.env).stdout
    counts = [
        a.get("complete", True)
        for line in out.splitlines()
        if line.strip()
        for a in json.loads(line).get("answers", [])
        if a.get("ask") == "blocks"
    ]
    exact = sum(1 for c in counts if c)
    ctx.report.add(
        "batch",
        f"marginal cost per scenario ({n} x 4p x 8c, 3 questions) / floor",
        ratio,
        verdict(TARGETS, "batch", ratio),
    )
    ctx.report.add("batch", f"  block counts exact: {exact} of {len(counts)}", "")
    data = {"n": n, "ratio": ratio, "exact_counts": exact, "counts": len(counts)}
    single = (best(runs["single"]) - one) / (n - 1) / floor
    ctx.report.add("batch", "  with --jobs 1 (one worker), per scenario / floor", single)
    data["single_ratio"] = single
    if ctx.jobs > 1:
        jobs_marginal = (best(runs["jobs"]) - one) / (n - 1)
        ctx.report.add(
            "batch", f"  with --jobs {ctx.jobs}, per scenario / floor", jobs_marginal / floor
        )
        data["jobs_ratio"] = jobs_marginal / floor
    ctx.report.data["batch"] = data


def _peak_vs_floor(ctx: Context, cmd: list[str]) -> tuple[int, float]:
    peak = min(peak_memory(cmd, ctx.env) for _ in range(2))
    floor = min(peak_memory(FLOOR, ctx.env) for _ in range(2))
    return peak, peak / floor


def game_text() -> str:
    """The game: 8 players x 50 creatures, every creature in combat, legal + outcome."""
    return generate.scale(creatures=50, players=8)


@part("game")
def bench_game(ctx: Context) -> None:
    path = ctx.file("game_8x50.mtg", game_text())
    cmd = mtgkb_command() + ["run", str(path), "--json"]
    warm_up(ctx.env)
    ratio = ctx.versus_floor(cmd, max(3, ctx.repeat // 2)).ratio()
    peak, vs = _peak_vs_floor(ctx, cmd)
    ctx.report.add(
        "game",
        "8 players x 50 creatures, legal + outcome / floor",
        ratio,
        verdict(TARGETS, "game", ratio),
    )
    ctx.report.add("game", f"  peak memory {peak / 1024:.0f} MB / floor's", vs)
    ctx.report.data["game"] = {"ratio": ratio, "peak_mb": peak / 1024, "peak_vs_floor": vs}


@part("count")
def bench_count(ctx: Context) -> None:
    text = generate.scale(creatures=100, players=2, questions=("blocks for Ben limit 5",))
    path = ctx.file("count_2x100.mtg", text)
    cmd = mtgkb_command() + ["run", str(path), "--json"]
    warm_up(ctx.env)
    ratio = ctx.versus_floor(cmd, max(3, ctx.repeat // 2)).ratio()
    answer = _output(cmd, ctx.env)["answers"][0]
    exact = answer.get("complete") is True
    ctx.report.add(
        "count",
        "exact count of 2 players x 100 creatures' block declarations / floor",
        ratio,
        verdict(TARGETS, "count", ratio) + ("" if exact else " (count NOT exact)"),
    )
    digits = len(str(answer.get("count", 0)))
    ctx.report.add("count", f"  count: {digits} digits, complete: {answer.get('complete')}", "")
    ctx.report.data["count"] = {"ratio": ratio, "complete": exact, "digits": digits}


def stack_text(triggers: dict[str, int]) -> str:
    """`ask stack` with each player's number of waiting triggers (603.3b:
    each player's in any order, 16! x 3! for {"Ann": 16, "Ben": 3})."""
    lines = [f"players: {', '.join(triggers)}", f"active: {next(iter(triggers))}"]
    for player, k in triggers.items():
        lines += [f'trigger "{player[0]}{i}" controlled by {player}' for i in range(1, k + 1)]
    return "\n".join([*lines, "ask stack"]) + "\n"


#: Things a player may be made to choose at once (101.4c).
THINGS = (
    "creature land artifact enchantment planeswalker spell card token battle permanent"
    " instant sorcery mode color number type"
).split()


def choices_text(things: int) -> str:
    """`ask order` where each player chooses `things` things at once (101.4c:
    in any order they pick, things! orders)."""
    chosen = " and ".join(f"an {t}" if t[0] in "aeiou" else f"a {t}" for t in THINGS[:things])
    return f"players: Ann, Ben\nactive: Ann\neach player chooses {chosen}\nask order\n"


def open_choice_text(creatures: int) -> str:
    """`ask attacks` where the attacking player has yet to choose one of three
    opponents (506.2a: no attack option, a vanguard game): 3 (2^n - 1) + 1."""
    lines = ["game: vanguard", "players: Rob, Alex, Kim, Lee", "active: Rob"]
    lines += [f'Rob controls creature "A{i}" 2/2' for i in range(creatures)]
    return "\n".join([*lines, "ask attacks limit 5"]) + "\n"


def team_blocks_text(attackers: int, own: int, teammate: int) -> str:
    """`ask blocks for Alex` under shared team turns (805.10d: Alex's part of
    the team's declarations, Kim's creatures completing them), against
    `attackers` creatures with menace (702.111b)."""
    lines = [
        "game: two-headed-giant",
        "players: Rob, Ann, Alex, Kim",
        "team T1: Rob, Ann",
        "team T2: Alex, Kim",
        "active: Rob",
        "option: shared-team-turns",
    ]
    for i in range(attackers):
        lines += [f'Rob controls creature "M{i}" 2/2 with menace', f'"M{i}" attacks Alex']
    lines += [f'Alex controls creature "B{i}" 2/2' for i in range(own)]
    lines += [f'Kim controls creature "K{i}" 2/2' for i in range(teammate)]
    return "\n".join([*lines, "ask blocks for Alex limit 5"]) + "\n"


def trampler_text(power: int, blockers: int, toughness: int) -> str:
    """`ask assignments` for a trampler blocked by `blockers` creatures
    (510.1a, 702.19b)."""
    lines = ["players: Rob, Alex", "active: Rob"]
    lines += [f'Rob controls creature "Big" {power}/{power} with trample', '"Big" attacks Alex']
    for i in range(blockers):
        lines += [f'Alex controls creature "B{i}" 1/{toughness}', f'"B{i}" blocks "Big"']
    return "\n".join([*lines, 'ask assignments for "Big"']) + "\n"


@part("orders")
def bench_orders(ctx: Context) -> None:
    """The exact counts of orders and damage assignments (issue 26), read
    from derived forms: `ask stack` with 16 + 3 triggers (100 orders listed),
    `ask assignments` for a 60/60 trampler blocked by eight 1/3s (100
    listed), `ask order` with 16 things chosen at once (100 listed), `ask
    attacks` with the defending player yet to be chosen among three (506.2a,
    20 creatures, 5 listed), `ask blocks for` a player of a team under shared
    team turns (805.10d: 5 attackers with menace, 8 + 3 blockers, 5 listed);
    each / floor, and whether the count is exact."""
    warm_up(ctx.env)
    cases = [
        ("stack", "ask stack, 16 + 3 triggers", stack_text({"Ann": 16, "Ben": 3}), 100),
        ("assignments", "ask assignments, 60/60 trampler, 8 blockers", trampler_text(60, 8, 3), 0),
        ("order", "ask order, 16 things chosen at once", choices_text(16), 100),
        ("attacks", "ask attacks, 506.2a open choice, 20 creatures", open_choice_text(20), 0),
        ("team", "ask blocks for P, 805.10d team, 5 menace vs 8 + 3", team_blocks_text(5, 8, 3), 0),
    ]
    found = {}
    for name, label, text, cap in cases:
        path = ctx.file(f"orders_{name}.mtg", text)
        cmd = mtgkb_command() + ["run", str(path), "--json"]
        cmd += ["--max-models", str(cap)] if cap else []
        ratio = ctx.versus_floor(cmd, max(3, ctx.repeat // 2)).ratio()
        answer = _output(cmd, ctx.env)["answers"][0]
        exact = answer.get("complete") is True
        ctx.report.add("orders", f"{label} / floor", ratio, "exact" if exact else "NOT exact")
        found[name] = {"ratio": ratio, "complete": exact, "count": answer.get("count")}
    ctx.report.data["orders"] = found


def explain_text(creatures: int, players: int = 8) -> str:
    return generate.scale(
        creatures=creatures, players=players, questions=("legal", "outcome", "explain")
    )


@part("explain")
def bench_explain(ctx: Context) -> None:
    warm_up(ctx.env)
    ratios = {}
    for n in (25, 50):
        path = ctx.file(f"explain_8x{n}.mtg", explain_text(n))
        cmd = mtgkb_command() + ["run", str(path), "--json"]
        ratios[n] = ctx.versus_floor(cmd, max(1, ctx.repeat // 3)).ratio()
    ratio = ratios[25]
    # (each against the floor of its own turns: the machine's speed may move between them)
    growth = ratios[50] / ratios[25]
    ctx.report.add(
        "explain",
        "8 players x 25 creatures, legal + outcome + explain / floor",
        ratio,
        verdict(TARGETS, "explain", ratio),
    )
    ctx.report.add(
        "explain", "  8 x 50 / 8 x 25", growth, verdict(TARGETS, "explain_growth", growth)
    )
    ctx.report.data["explain"] = {"ratio": ratio, "growth": growth}


def _in_process(text: str) -> float:
    from mtgkb.running.runner import answer_text

    start = time.perf_counter()
    answer_text(text, "scale")
    return time.perf_counter() - start


def _atoms_per_query(text: str) -> dict[str, int]:
    """Ground atoms of each question's grounding, to see which grows how."""
    from mtgkb.engine.solve import Grounding
    from mtgkb.language.facts import scenario_facts
    from mtgkb.language.parser import parse_text
    from mtgkb.questions.answers import QUERY_OF, facts_for

    scenario = parse_text(text)
    facts = scenario_facts(scenario)
    out = {}
    for question in scenario.questions:
        query = QUERY_OF.get(question.kind, question.kind)
        ground = Grounding([query], facts_for(question, facts))
        out[question.kind] = len(ground.ctl.symbolic_atoms)
        del ground
    return out


def fitted_exponent(xs: list[float], ys: list[float]) -> float:
    """The slope of log y against log x (least squares): y ~ x^slope."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-12)) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    den = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / den if den else 0.0


@part("growth")
def bench_growth(ctx: Context) -> None:
    series = {
        "creatures (8 players)": [
            (n, generate.scale(creatures=n, players=8))
            for n in ((10, 25, 50) if ctx.quick else (10, 25, 50, 100))
        ],
        "players (25 creatures)": [(p, generate.scale(creatures=25, players=p)) for p in (2, 4, 8)],
    }
    data = {}
    for name, points in series.items():
        xs, times, peaks = [], [], []
        atoms: dict[str, list[int]] = {}
        for x, text in points:
            xs.append(x)
            times.append(min(_in_process(text) for _ in range(1 if ctx.quick else 2)))
            path = ctx.file(f"growth_{x}.mtg", text)
            peaks.append(
                min(
                    peak_memory(mtgkb_command() + ["run", str(path), "--json"], ctx.env)
                    for _ in range(1)
                )
            )
            for query, count in _atoms_per_query(text).items():
                atoms.setdefault(query, []).append(count)
        row = {
            "x": xs,
            "time": fitted_exponent(xs, times),
            "peak_memory": fitted_exponent(xs, peaks),
            "atoms": {q: fitted_exponent(xs, a) for q, a in atoms.items()},
        }
        ctx.report.add("growth", f"in {name} {xs}: time ~ x^", row["time"])
        ctx.report.add("growth", "  peak memory ~ x^", row["peak_memory"])
        for query, exponent in row["atoms"].items():
            ctx.report.add("growth", f"  ground atoms of '{query}' ~ x^", exponent)
        data[name] = row
    ctx.report.data["growth"] = data


@part("enumeration")
def bench_enumeration(ctx: Context) -> None:
    import clingo

    from mtgkb.language.facts import facts_text, scenario_facts
    from mtgkb.language.parser import parse_text
    from mtgkb.rulebase.location import query_file, rule_files
    from mtgkb.running.runner import answer_text

    repeat = max(3, ctx.repeat // 2)
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
    theirs = []
    for _ in range(repeat):
        start = time.perf_counter()
        ctl = clingo.Control(["--project=show", "--models=0"], logger=lambda c, m: None)
        ctl.add("base", [], program)
        ctl.add("base", [], facts)
        ctl.ground([("base", [])])
        ctl.configuration.solve.opt_mode = "optN"
        ctl.solve()
        theirs.append(time.perf_counter() - start)
    ratio = min(theirs) / min(ours)  # models/s ours / models/s theirs
    ctx.report.add(
        "enumeration",
        "6^6 block declarations counted: mtgkb models/s / clingo's enumeration",
        ratio,
        verdict(TARGETS, "enumeration", ratio),
    )
    ctx.report.data["enumeration"] = {"ratio": ratio}


# ---------------------------------------------------------------------------


def _fresh_names(i: int, creatures: int = 50) -> str:
    """A 2-player combat of `creatures` attackers whose names no other call used."""
    lines = ["players: Ann, Ben", "active: Ann", "phase: declare-attackers"]
    lines += [f'Ann controls creature "Fresh {i} n{j}" 2/2' for j in range(creatures)]
    lines += [f'"Fresh {i} n{j}" attacks Ben' for j in range(creatures)]
    lines.append("ask legal")
    return "\n".join(lines) + "\n"


def bench_pool(report: Report, repeat: int, floor_runs: list[Run], calls: int = 100) -> None:
    """What answering `mtgkb.run` in a recycled worker (mtgkb.running.pool) costs per
    call, against answering in the calling process, and what it saves: the
    caller's growth over calls with fresh names."""
    import mtgkb
    from mtgkb.running import pool

    text = COMBAT_FILE.read_text(encoding="utf-8")
    floor = best(floor_runs)
    saved = os.environ.get("MTGKB_POOL")
    held: dict = {}  # MTGKB_POOL setting -> the mtgkb.Answerer held for it

    def runner(setting: str):
        """`run(text, name)` as a long-lived caller does it: through an
        mtgkb.Answerer held across calls (an mtgkb before it: mtgkb.run)."""
        os.environ["MTGKB_POOL"] = setting
        if not hasattr(mtgkb, "Answerer"):
            return mtgkb.run
        if setting not in held:
            held[setting] = mtgkb.Answerer()
        return held[setting].run

    def per_call(setting: str) -> float:
        run = runner(setting)
        start = time.perf_counter()
        for _ in range(calls):
            run(text, "pool.mtg")
        return (time.perf_counter() - start) / calls

    def growth(setting: str, count: int) -> float:
        run = runner(setting)
        run(_fresh_names(-1), "warm")
        before = pool.resident()
        for i in range(count):
            run(_fresh_names(i + (0 if setting == "1" else 10**6)), "fresh")
        return (pool.resident() - before) / 2**20

    try:
        per_call("1"), per_call("0")  # warm both ways
        pooled, local = [], []
        for _ in range(repeat):
            pooled.append(per_call("1"))
            local.append(per_call("0"))
        workers = held["1"].pool if "1" in held else pool.default_pool()
        recycle = []
        for _ in range(repeat):
            start = time.perf_counter()
            fresh = workers._start()
            recycle.append(time.perf_counter() - start)
            fresh.close()
        grown_pooled = growth("1", 200)
        grown_local = growth("0", 200)
    finally:
        for answerer in held.values():
            answerer.close()
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
    # (held across calls, as a long-lived caller does: an mtgkb.Answerer where there is one)
    answerer = mtgkb.Answerer() if hasattr(mtgkb, "Answerer") else None
    run = answerer.run if answerer is not None else mtgkb.run
    try:
        run(bodies[0])
        local = []
        for body in bodies[: min(n, 40)]:
            start = time.perf_counter()
            run(body)
            local.append(time.perf_counter() - start)
    finally:
        if answerer is not None:
            answerer.close()
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


def bench_run_many(report: Report, floor_runs: list[Run], n: int = 200) -> None:
    """The Python API on many scenarios, warm (the batch scenario, 4 players x
    8 creatures; legal, blocks for one defender limit 5, outcome):
    `mtgkb.run_many` with an `mtgkb.Answerer` of one worker and of two (which
    answers TOGETHER scenarios at a time as one chunk), and the same
    Answerer's `run` called once a scenario, each a scenario / the floor."""
    import mtgkb

    if not hasattr(mtgkb, "run_many"):
        report.add("run_many", "needs an mtgkb with run_many: skipped", "-")
        return
    floor = best(floor_runs)
    defender = generate.player_names(4)[1]
    questions = ("legal", f"blocks for {defender} limit 5", "outcome")
    texts = [generate.combat(seed, questions=questions) for seed in range(n + 16)]
    warm, measured = texts[:16], texts[16:]

    def per_scenario(answer) -> float:
        start = time.perf_counter()
        outcomes = answer(measured)
        seconds = (time.perf_counter() - start) / len(measured)
        if sum(1 for o in outcomes if getattr(o, "ok", True)) != len(measured):
            raise RuntimeError("a scenario of the run_many bench was not answered")
        return seconds

    figures = {}
    for workers in (1, 2):
        with mtgkb.Answerer(workers=workers) as answerer:
            list(mtgkb.run_many(warm, answerer=answerer))  # its groundings and chunks made
            figures[f"run_many_{workers}"] = per_scenario(
                lambda ts, a=answerer: list(mtgkb.run_many(ts, answerer=a))
            )
            if workers == 1:
                figures["run_one_by_one"] = per_scenario(
                    lambda ts, a=answerer: [a.run(t) for t in ts]
                )
    report.add(
        "run_many",
        "mtgkb.Answerer.run, one call a scenario, 1 worker: a scenario / floor",
        figures["run_one_by_one"] / floor,
    )
    for workers in (1, 2):
        report.add(
            "run_many",
            f"mtgkb.run_many, {workers} worker(s): a scenario / floor",
            figures[f"run_many_{workers}"] / floor,
        )
    report.data["run_many"] = {k: v / floor for k, v in figures.items()}


@part("run_many")
def _run_many_part(ctx: Context) -> None:
    bench_run_many(ctx.report, ctx.floor_now(), 50 if ctx.quick else ctx.batch)


@part("pool")
def _pool_part(ctx: Context) -> None:
    bench_pool(ctx.report, max(3, ctx.repeat // 2), ctx.floor_now())


@part("server")
def _server_part(ctx: Context) -> None:
    bench_server(ctx.report, ctx.floor_now(), ctx.batch)


@part("fix")
def bench_fix(ctx: Context) -> None:
    """`ask fix` on the 8-player x 50-creature game (every creature attacking
    or blocking; the generator's flying attackers make 49 blocks illegal):
    / the floor, and / `ask legal` on the same file (what judging the play
    costs alone)."""
    texts = {q: generate.scale(creatures=50, players=8, questions=(q,)) for q in ("fix", "legal")}
    cmds = {
        q: mtgkb_command() + ["run", str(ctx.file(f"fix_8x50_{q}.mtg", text)), "--json"]
        for q, text in texts.items()
    }
    warm_up(ctx.env)
    answer = _output(cmds["fix"], ctx.env)["answers"][0]
    versus = ctx.in_turn(cmds, max(3, ctx.repeat // 2))
    runs, ratio = versus.runs, versus.ratio("fix")
    versus_legal = best(runs["fix"]) / best(runs["legal"])
    ctx.report.add("fix", "ask fix, 8 players x 50 creatures / floor", ratio)
    ctx.report.add("fix", "  / ask legal on the same file", versus_legal)
    shown = f"{answer['count']}{'' if answer.get('complete', True) else '+'}"
    changes = len(answer["changes"])
    ctx.report.add("fix", f"  {changes} changes; equally close declarations counted", shown)
    ctx.report.data["fix"] = {
        "ratio": ratio,
        "vs_legal": versus_legal,
        "changes": changes,
        "count": answer["count"],
        "complete": answer.get("complete", True),
    }


@part("floors")
def _floors_part(ctx: Context) -> None:
    from .floors import bench_floors

    bench_floors(ctx, COLD_FILE, ctx.file("floors_game_8x50.mtg", game_text()), TARGETS)


@part("server_load")
def _server_load_part(ctx: Context) -> None:
    from .server_load import bench_server_load

    bench_server_load(ctx, mtgkb_command())


def compile_package() -> None:
    """Write the package's byte code, as an installation does (this run may
    have PYTHONDONTWRITEBYTECODE set, which would make every start compile)."""
    import compileall

    import mtgkb

    compileall.compile_dir(str(Path(mtgkb.__file__).parent), quiet=1)


def run_suite(
    only: set[str] | list[str],
    repeat: int = 7,
    batch: int = 200,
    jobs: int = 2,
    speedups: bool = True,
    quick: bool = False,
    progress: Callable[[Report, int], None] | None = None,
) -> Report:
    """Run the parts named in `only`; `progress(report, first_new_row)` after each."""
    report = Report()
    env = _env(speedups)
    _set_flags(speedups)
    os.environ.update({k: v for k, v in env.items() if k in SPEEDUP_FLAGS})
    report.data["speedups"] = speedups
    floor_runs = [measure(FLOOR, env) for _ in range(repeat)]
    with tempfile.TemporaryDirectory(prefix="mtgkb-bench-") as tmp:
        ctx = Context(
            report, repeat, env, floor_runs, batch=batch, jobs=jobs, quick=quick, tmp=Path(tmp)
        )
        for name, function in PARTS.items():
            if name in only:
                first = len(report.rows)
                function(ctx)
                if progress is not None:
                    progress(report, first)
        turns = ctx.turn_floors
    report.data["floor_seconds"] = best(floor_runs)
    report.data["turn_floor_seconds"] = turns
    if turns:
        report.add(
            "floor",
            f"the floor: {best(floor_runs) * 1000:.0f} ms at the session's fastest; the best of"
            f" each figure's own turns {min(turns) * 1000:.0f}-{max(turns) * 1000:.0f} ms",
            "",
        )
    return report


def print_rows(report: Report, first: int = 0, out=sys.stdout) -> None:
    """The rows from `first` on, as they come (a long run shows its parts early)."""
    for name, what, value, target in report.rows[first:]:
        shown = f"{value:8.2f}" if isinstance(value, float) else f"{value:>8}"
        line = f"  [{name}] {what:<70} {shown}"
        print(f"{line}   {target}" if target else line, file=out, flush=True)


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
        "(floor = python -c 'import clingo, lark'), taken in turn with it",
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


# issue 26's figures (bench/issue26.py registers its part here)
from . import issue26  # noqa: E402,F401
