"""The bench's figures are ratios to the floor of their own turns.

The machine a figure is measured on changes speed within a session (by up to
2x, bench/README.md): against the session's fastest floor, a figure measured
while the machine was slow would read that much higher. So each command is
run in turn with the floor (floor, command, floor, command, ...) and divided
by the floor's best in those same turns; what is timed in process is timed
between runs of the floor. These tests drive the bench's Context with a
scripted `measure` (no process is started, no time is asserted)."""

from __future__ import annotations

import sys

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT))

from bench import suite  # noqa: E402


class Machine:
    """A scripted `measure`: the floor and each command take the seconds set
    now (`speed` scales them all), and every call is logged."""

    def __init__(self, seconds: dict[str, float]) -> None:
        self.seconds, self.speed, self.calls = seconds, 1.0, []

    def measure(self, cmd, env=None, stdin=None) -> suite.Run:
        name = "floor" if cmd == suite.FLOOR else cmd[0]
        self.calls.append(name)
        taken = self.seconds[name] * self.speed
        return suite.Run(taken, 0, 0, taken)


def _context(monkeypatch, tmp_path, machine: Machine, session_floor: float) -> suite.Context:
    monkeypatch.setattr(suite, "measure", machine.measure)
    first = [suite.Run(session_floor, 0, 0, session_floor)]  # the session's first floor runs
    return suite.Context(suite.Report(), 3, {}, first, tmp=tmp_path)


def test_a_command_is_divided_by_the_floor_of_its_own_turns(monkeypatch, tmp_path):
    # the floor took 0.1 s at the session's start; the machine is twice as
    # slow now: the floor 0.2 s, the command 0.4 s. The command costs 2 floors.
    machine = Machine({"floor": 0.2, "mtgkb": 0.4})
    ctx = _context(monkeypatch, tmp_path, machine, session_floor=0.1)
    versus = ctx.versus_floor(["mtgkb"])
    assert versus.ratio() == 2.0
    assert versus.floor == 0.2 and ctx.turn_floors == [0.2]
    assert ctx.floor() == 0.1  # the session's fastest is kept, and reported beside
    # taken in turn: the floor before each run of the command
    assert machine.calls == ["floor", "mtgkb"] * 3


def test_several_commands_share_their_turns_with_the_floor(monkeypatch, tmp_path):
    machine = Machine({"floor": 0.1, "one": 0.2, "all": 1.0})
    ctx = _context(monkeypatch, tmp_path, machine, session_floor=0.1)
    versus = ctx.in_turn({"one": ["one"], "all": ["all"]}, repeat=2)
    assert machine.calls == ["floor", "one", "all"] * 2
    assert versus.ratio("one") == 2.0 and versus.ratio("all") == 10.0
    assert len(ctx.floor_runs) == 1 + 2  # the turns' floor runs join the session's


def test_work_timed_in_process_gets_the_floor_of_about_then(monkeypatch, tmp_path):
    machine = Machine({"floor": 0.1})
    ctx = _context(monkeypatch, tmp_path, machine, session_floor=0.05)

    def work() -> str:
        machine.speed = 3.0  # the machine slows down while the work runs
        return "done"

    result, floor = ctx.beside_floor(work, repeat=2)
    assert result == "done"
    # two runs of the floor before the work, two after; their best
    assert machine.calls == ["floor"] * 4
    assert floor == 0.1 and ctx.turn_floors == [0.1]


def test_the_report_shows_the_session_floor_beside_the_turns_floors(monkeypatch):
    machine = Machine({"floor": 0.1, "mtgkb": 0.3})
    monkeypatch.setattr(suite, "measure", machine.measure)

    def a_part(ctx: suite.Context) -> None:
        machine.speed = 1.5
        ctx.report.add("demo", "mtgkb / floor", ctx.versus_floor(["mtgkb"], 2).ratio())

    monkeypatch.setitem(suite.PARTS, "demo", a_part)
    report = suite.run_suite(["demo"], repeat=2)
    (_, _, ratio, _), (group, shown, _, _) = report.rows
    assert ratio == pytest.approx(3.0)  # 0.45 s / 0.15 s, not 0.45 s / 0.1 s
    assert group == "floor" and "100 ms at the session's fastest" in shown
    assert "150-150 ms" in shown
    assert report.data["turn_floor_seconds"] == pytest.approx([0.15])


def test_a_command_of_the_turns_may_run_with_variables_of_its_own(monkeypatch, tmp_path):
    """(issue 26's cold figure and the same run with MTGKB_SLICE_MEMO=0, in one
    series of turns: no `env` program put before the one command, which
    costs a process of its own.)"""
    seen: list[tuple[str, str | None]] = []
    machine = Machine({"floor": 0.1, "same": 0.2})

    def measure(cmd, env=None, stdin=None):
        seen.append((cmd[0] if cmd != suite.FLOOR else "floor", (env or {}).get("SWITCH")))
        return machine.measure(cmd, env, stdin)

    ctx = _context(monkeypatch, tmp_path, machine, session_floor=0.1)
    monkeypatch.setattr(suite, "measure", measure)
    ctx.env = {"KEPT": "1"}
    versus = ctx.in_turn({"it": ["same"], "off": ["same"]}, 2, own_env={"off": {"SWITCH": "0"}})
    assert seen == [("floor", None), ("same", None), ("same", "0")] * 2
    assert versus.ratio() == versus.ratio("off") == 2.0
