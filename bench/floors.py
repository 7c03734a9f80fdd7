"""What this design pays before mtgkb's own work: the floors under four of
issue 11's targets, measured in the same run as the targets and against the
same floor (`python -c "import clingo, lark"`).

- parser: Lark loading the shipped tables and parsing the c06 file once, in
  a fresh process. The cold target (<= 1.3) allows everything above the
  floor: the parser's first parse, mtgkb's modules, the rule base and the
  answer.
- grounding: gringo's `ground()` of the rule base statements that a server
  request's questions ground (its own statements, sliced for its facts),
  with no scenario facts: what gringo asks for each statement when it
  derives next to nothing (the rule base's own facts; adding the statements
  is not counted); and the
  same statements as a program part of one kept Control, grounded again
  (what reusing a Control across requests would pay). The server's target
  is 10 ms.
- game: Lark parsing the 8 x 50 game once in a fresh process, and gringo
  grounding its legal + outcome with its facts: with mtgkb's modules, the
  checks, the solves and the answer still to come, against the game target
  (<= 3).
- observer: the count of 2 x 100 creatures' block declarations grounded
  without an observer, and what a Python observer of its ground rules costs
  when it does nothing at all. Counting by parts reads the ground program
  through such an observer (one that only counts them is measured), and
  the count target (<= 3) includes the start-up.

Each figure is the best of several runs. They are floors of this design
(clingo through its Python API, Lark as the parser, a rule base of about
1,200 statements that cite their rules), not of every possible design.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from . import generate

ROOT = Path(__file__).resolve().parent.parent

#: A fresh process: Lark loads the shipped parser tables and parses one file.
PARSER_SCRIPT = (
    "import sys, clingo, lark\n"
    "from mtgkb.language.grammar_build import GRAMMAR, load_tables\n"
    "parser = load_tables(GRAMMAR.read_text(encoding='utf-8'))\n"
    "if parser is None:\n"
    "    sys.exit('the shipped parser tables are stale')\n"
    "with open(sys.argv[1], encoding='utf-8') as f:\n"
    "    parser.parse(f.read() + '\\n', start='start')\n"
)


def _groundings(text: str, engine) -> list:
    """The groundings a file's questions are solved in, as a request makes
    them: its queries grouped (mtgkb.engine.solve.group_queries), each group
    grounded with the file's facts and every question's asked/1 switchable."""
    from mtgkb.engine.solve import Grounding, group_queries
    from mtgkb.language.facts import asked_facts, fixed_facts, scenario_facts
    from mtgkb.language.parser import parse_text
    from mtgkb.questions.answers import QUERY_OF

    scenario = parse_text(text)
    facts = scenario_facts(scenario)
    queries = [QUERY_OF.get(q.kind, q.kind) for q in scenario.questions]
    fixed, asked = fixed_facts(facts), list(asked_facts(facts))
    return [
        Grounding(group, fixed, switchable=asked, engine=engine)
        for group in group_queries(queries, engine=engine)
    ]


def switched_on(grounding) -> list:
    """The guards of a grounding of several queries, each query switched on
    (mtgkb.engine.sharing.guard_of); none for a grounding of one, whose
    statements are not guarded."""
    from mtgkb.engine.sharing import guard_of

    return [guard_of(q) for q in grounding.queries] if len(grounding.queries) > 1 else []


def plain_control(grounding, facts=(), observer=None):
    """A fresh Control given `grounding`'s statements and `facts` (and
    `observer` registered), not grounded: the program as plain clingo
    grounds it. The queries of a grounding of several are switched on,
    their guards facts (switched_on: without them each
    query's own statements ground to nothing; 4p x 8c legal + outcome:
    2,057 atoms against 2,645 with them, the 8 x 50 game's 27,618 against
    30,187)."""
    import clingo

    from mtgkb.engine.programs import add_facts, quiet

    ctl = clingo.Control(logger=quiet)
    if observer is not None:
        ctl.register_observer(observer)
    grounding.add_program(ctl)
    add_facts(ctl, [*facts, *switched_on(grounding)])
    return ctl


def _ground_again(grounding, facts=(), observer=None) -> tuple[float, int]:
    """Seconds that `ground()` takes on `grounding`'s statements, added
    again to a fresh Control (plain_control: with `facts`, and `observer`
    registered; adding them is not timed), and the ground rules the
    observer counted (0 without one)."""
    ctl = plain_control(grounding, facts, observer)
    start = time.perf_counter()
    ctl.ground([("base", [])])
    seconds = time.perf_counter() - start
    del ctl
    return seconds, getattr(observer, "rules", 0)


def _ground_as_part(engine, grounding, times: int = 5) -> float:
    """The best seconds of `ground()` of `grounding`'s statements as one
    program part of a kept Control, grounded again (after a first time not
    counted) with a new parameter each time: what reusing a Control across
    requests would pay per request. The queries of a grounding of several
    switched on, as in plain_control."""
    import clingo

    from mtgkb.engine.programs import quiet

    base = engine.rule_base()
    text = base.text if grounding.kept is None else base.analysis().program(grounding.kept)
    guards = "".join(f"{guard}.\n" for guard in switched_on(grounding))
    ctl = clingo.Control(logger=quiet)
    ctl.add("request", ["k"], text + "\n" + grounding.query_text + "\n" + guards)
    ctl.ground([("request", [clingo.Number(0)])])
    best = float("inf")
    for k in range(1, times + 1):
        start = time.perf_counter()
        ctl.ground([("request", [clingo.Number(k)])])
        best = min(best, time.perf_counter() - start)
    del ctl
    return best


class _TallyObserver:
    """A clingo observer that is told every ground rule and only counts them."""

    def __init__(self) -> None:
        self.rules = 0

    def rule(self, choice, head, body) -> None:
        self.rules += 1

    def weight_rule(self, choice, head, lower_bound, body) -> None:
        self.rules += 1


def in_fresh_process(ctx, module_args: list[str], what: str):
    """What `python -m MODULE ARGS...` prints as JSON, run in a fresh process
    from the checkout with the bench's environment (a floor measured apart
    from the bench's own imports); `what` names it if it fails."""
    measured = subprocess.run(
        [sys.executable, "-m", *module_args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ctx.env,
    )
    if measured.returncode != 0:
        raise RuntimeError(f"{what} did not run: {measured.stderr.strip()}")
    return json.loads(measured.stdout)


def _against(value: float, bound: float, what: str) -> str:
    """How a floor stands against the target `bound` of `what`."""
    if value > bound:
        return f"above the {what} target (<= {bound:g}) by itself"
    return f"{bound - value:.2f} left under the {what} target (<= {bound:g})"


def measure_groundings(repeat: int) -> dict:
    """The grounding floors, in seconds (best of `repeat`), measured in this
    process: a request's groundings bare, fresh and as a kept Control's part
    grounded again; the 2 x 100 count's grounding without an observer and
    with one that only counts its ground rules; the 8 x 50 game's groundings
    with its facts."""
    from mtgkb.engine.state import Engine
    from mtgkb.language.facts import scenario_facts
    from mtgkb.language.parser import parse_text

    from .suite import batch_texts, game_text

    engine = Engine()
    (request,) = batch_texts(1)  # the batch's and the server's first scenario
    groundings = _groundings(request, engine)
    out = {
        "request_statements": sum(
            len(g.kept) if g.kept is not None else len(engine.rule_base().analysis().statements)
            for g in groundings
        ),
        "request": min(sum(_ground_again(g)[0] for g in groundings) for _ in range(repeat)),
        "request_again": sum(_ground_as_part(engine, g, repeat) for g in groundings),
    }
    del groundings
    count = generate.scale(creatures=100, players=2, questions=("blocks for Ben limit 5",))
    facts = scenario_facts(parse_text(count))
    (blocks,) = _groundings(count, engine)
    out["count"] = min(_ground_again(blocks, facts)[0] for _ in range(repeat))
    observed, out["count_rules"] = min(
        _ground_again(blocks, facts, _TallyObserver()) for _ in range(repeat)
    )
    out["count_observer"] = observed - out["count"]
    del blocks
    game = game_text()
    facts = scenario_facts(parse_text(game))
    out["game"] = min(
        sum(_ground_again(g, facts)[0] for g in _groundings(game, engine)) for _ in range(repeat)
    )
    return out


def bench_floors(ctx, cold_file, game_file, targets: dict) -> None:
    """The floors, as rows of the report; `targets` are issue 11's (figure
    -> (comparison, bound)). The groundings are measured in a fresh process
    (`python -m bench.floors`): a process that has grounded and freed many
    Controls, as the suite's has by now, grounds more slowly."""
    repeat = max(3, ctx.repeat // 2)
    parse = [sys.executable, "-c", PARSER_SCRIPT, str(cold_file)]
    check = subprocess.run(parse, capture_output=True, text=True)
    if check.returncode != 0:
        raise RuntimeError(f"the parser's floor did not run: {check.stderr.strip()}")
    parser = ctx.versus_floor(parse, repeat).ratio()
    ctx.report.add(
        "floors",
        "Lark: shipped tables loaded, c06 parsed once, fresh process / floor",
        parser,
        _against(parser, targets["cold"][1], "cold"),
    )
    game = [sys.executable, "-c", PARSER_SCRIPT, str(game_file)]
    game_parse = ctx.versus_floor(game, repeat).ratio()
    got, floor = ctx.beside_floor(
        lambda: in_fresh_process(
            ctx, ["bench.floors", str(max(5, ctx.repeat))], "the grounding floors"
        )
    )
    statements, bare, again = got["request_statements"], got["request"], got["request_again"]
    ctx.report.add(
        "floors",
        f"gringo: ground() of a request's {statements} statements, no facts / floor",
        bare / floor,
        f"= {bare * 1000:.1f} ms; the server's target is 10 ms",
    )
    ctx.report.add(
        "floors",
        "  the same, a program part grounded again in one kept Control / floor",
        again / floor,
        f"= {again * 1000:.1f} ms",
    )
    plain, observer, rules = got["count"], got["count_observer"], got["count_rules"]
    ctx.report.add(
        "floors", "gringo: the 2 x 100 count's grounding, no observer / floor", plain / floor, ""
    )
    ctx.report.add(
        "floors",
        f"  a Python observer of its {rules} ground rules, only counting / floor",
        observer / floor,
        "with the start-up (1) and the grounding: "
        + _against(1 + (plain + observer) / floor, targets["count"][1], "count"),
    )
    game_ground = got["game"] / floor
    ctx.report.add(
        "floors", "Lark: the 8 x 50 game parsed once, fresh process / floor", game_parse, ""
    )
    ctx.report.add(
        "floors",
        "  gringo: its legal + outcome groundings, with its facts / floor",
        game_ground,
        "with the parse: " + _against(game_parse + game_ground, targets["game"][1], "game"),
    )
    ctx.report.data["floors"] = {
        "parser": parser,
        "request_statements": statements,
        "request_grounding_ms": bare * 1000,
        "request_regrounding_ms": again * 1000,
        "count_grounding": plain / floor,
        "count_observer": observer / floor,
        "count_ground_rules": rules,
        "game_parser": game_parse,
        "game_grounding": game_ground,
    }


if __name__ == "__main__":
    print(json.dumps(measure_groundings(int(sys.argv[1]) if len(sys.argv) > 1 else 5)))
