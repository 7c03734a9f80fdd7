"""The command line (spec sections 6 and 7): exit statuses, --json and
--jsonl for several files, standard input, --max-models, --timeout, --jobs,
the facts reloaded by plain clingo, and --help of every subcommand."""

from __future__ import annotations

import gc
import json
import re
import subprocess
import sys

import pytest
from helpers import ROOT, much_work

from mtgkb import cli

sys.path.insert(0, str(ROOT))
from bench.generate import astronomical, enumeration  # noqa: E402

LEGAL = """players: Ann, Ben
Ann controls creature "Bear" 2/2
Ben controls creature "Wall" 0/4
"Bear" attacks Ben
"Wall" blocks "Bear"
ask legal
"""
ILLEGAL = """players: Rob, Alex, Carissa
Rob controls creature "Runeclaw Bear" 2/2
Rob controls creature "Hill Giant" 3/3
Alex controls creature "Grizzly Bears" 2/2
"Runeclaw Bear" attacks Alex
"Hill Giant" attacks Carissa
"Grizzly Bears" blocks "Hill Giant"
ask legal
"""
BROKEN = 'players: Ann, Ben\nAnn controls creature "Bear 2/2\nask legal\n'


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, text in (("legal", LEGAL), ("illegal", ILLEGAL), ("broken", BROKEN)):
        path = tmp_path / f"{name}.mtg"
        path.write_text(text, encoding="utf-8")
        out[name] = str(path)
    out["enumeration"] = str(tmp_path / "enumeration.mtg")
    (tmp_path / "enumeration.mtg").write_text(enumeration(6, 5), encoding="utf-8")
    out["astronomical"] = str(tmp_path / "astronomical.mtg")
    (tmp_path / "astronomical.mtg").write_text(astronomical(), encoding="utf-8")
    return out


def mtgkb(*args: str, stdin: str | None = None, timeout: float = 60):
    """`mtgkb ARGS` in a fresh process: (exit status, stdout, stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mtgkb", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert "Traceback" not in proc.stderr + proc.stdout
    return proc.returncode, proc.stdout, proc.stderr


def run_here(capsys, *args: str) -> tuple[int, str, str]:
    """`mtgkb ARGS` in this process (faster): (exit status, stdout, stderr)."""
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_exit_0_when_every_play_is_legal(files, capsys):
    status, out, _ = run_here(capsys, "run", files["legal"], "--json")
    assert status == 0
    assert json.loads(out)["answers"][0]["legal"] is True


def test_exit_1_when_a_play_is_illegal_802_4a(files, capsys):
    status, out, _ = run_here(capsys, "run", files["illegal"], "--json")
    assert status == 1
    (violation,) = json.loads(out)["answers"][0]["violations"]
    assert violation["rule"] == "802.4a"


def test_exit_2_names_file_line_and_column_without_traceback(files):
    status, out, err = mtgkb("run", files["broken"], "--json")
    assert status == 2 and out == ""
    assert re.search(re.escape(files["broken"]) + r":2:\d+: error: ", err)
    assert "^" in err


def test_exit_2_for_a_file_that_cannot_be_read(tmp_path, capsys):
    missing = str(tmp_path / "nowhere.mtg")
    status, _, err = run_here(capsys, "run", missing)
    assert status == 2 and f"{missing}:1:1: error: cannot read" in err


def test_exit_3_when_the_timeout_stops_an_astronomical_enumeration(tmp_path):
    # far more work than the time-out: only the time-out can stop the count
    path = tmp_path / "much_work.mtg"
    path.write_text(much_work())
    status, out, err = mtgkb(
        "run", str(path), "--timeout", "1", "--max-models", "1000000000", "--json"
    )
    assert status == 3
    assert "time-out" in err


def test_21_to_the_20_block_declarations_are_counted_within_a_second(files):
    # 509.1a: each of 20 blockers blocks one of 20 attackers or none, each alone
    status, out, err = mtgkb("run", files["astronomical"], "--timeout", "20", "--json")
    assert status == 0, err
    blocks = json.loads(out)["answers"][0]
    assert (blocks["count"], blocks["complete"]) == (21**20, True)


def test_several_files_give_a_json_array_and_the_highest_status(files, capsys):
    paths = [files["legal"], files["illegal"], files["broken"]]
    status, out, _ = run_here(capsys, "run", *paths, "--json")
    assert status == 2
    outputs = json.loads(out)
    assert [o["file"] for o in outputs] == paths
    assert "error" in outputs[2] and outputs[1]["answers"][0]["legal"] is False


def test_jsonl_prints_one_object_per_file(files, capsys):
    paths = [files["illegal"], files["legal"]]
    status, out, _ = run_here(capsys, "run", *paths, "--jsonl")
    lines = out.splitlines()
    assert status == 1 and len(lines) == 2
    assert [json.loads(line)["file"] for line in lines] == paths


def test_dash_reads_standard_input():
    status, out, _ = mtgkb("run", "-", "--json", stdin=ILLEGAL)
    assert status == 1
    output = json.loads(out)
    assert output["file"] == "<stdin>" and output["answers"][0]["legal"] is False


def test_max_models_bounds_the_listing_and_the_count_stays_exact(files, capsys):
    status, out, _ = run_here(capsys, "run", files["enumeration"], "--max-models", "3", "--json")
    (answer,) = json.loads(out)["answers"]
    assert status == 0  # reaching the cap is no error
    assert (answer["count"], answer["complete"]) == (6**6, True)
    assert len(answer["assignments"]) == 3
    status, out, _ = run_here(capsys, "run", files["enumeration"], "--json")
    (answer,) = json.loads(out)["answers"]
    assert (answer["count"], answer["complete"]) == (6**6, True)
    assert len(answer["assignments"]) == 5  # the file's limit


def test_jobs_print_what_one_process_prints(files):
    paths = [files[k] for k in ("legal", "illegal", "broken", "enumeration")] * 3
    one = mtgkb("run", *paths, "--jsonl")
    two = mtgkb("run", "--jobs", "2", *paths, "--jsonl")
    assert one == two and one[0] == 2


def test_a_run_that_names_no_jobs_uses_a_worker_per_cpu_past_one_chunk(monkeypatch):
    from mtgkb.running import batch, pool

    monkeypatch.setattr(pool, "usable_cpus", lambda: 4)
    # too few files for two workers to combine COMBINE_FROM each: one
    # process (this one, or one worker past a chunk), as before
    assert batch.default_jobs(1) == batch.default_jobs(2 * batch.COMBINE_FROM - 1) == 1
    # else a worker per CPU, each with COMBINE_FROM files or more
    assert batch.default_jobs(2 * batch.COMBINE_FROM) == 2
    assert batch.default_jobs(3 * batch.COMBINE_FROM + 1) == 3
    assert batch.default_jobs(10 * batch.CHUNK) == 4
    # and at most DEFAULT_JOBS_MOST, however many CPUs
    monkeypatch.setattr(pool, "usable_cpus", lambda: 64)
    assert batch.default_jobs(1000 * batch.CHUNK) == batch.DEFAULT_JOBS_MOST
    monkeypatch.setattr(pool, "usable_cpus", lambda: 1)
    assert batch.default_jobs(10 * batch.CHUNK) == 1
    monkeypatch.setenv("MTGKB_POOL", "0")
    monkeypatch.setattr(pool, "usable_cpus", lambda: 4)
    assert batch.default_jobs(10 * batch.CHUNK) == 1


def test_a_pool_s_tasks_are_large_enough_to_be_answered_together():
    from mtgkb.running.batch import CHUNK, COMBINE_FROM, pool_chunk_size

    # two tasks a worker where each still has COMBINE_FROM files or more
    assert pool_chunk_size(200, 2) == CHUNK
    assert pool_chunk_size(64, 2) == 16 >= COMBINE_FROM
    # else one task a worker, not tasks whose files would be answered alone
    assert pool_chunk_size(50, 2) == 25
    assert pool_chunk_size(40, 2) == 20
    # too few files for a combined task a worker: a task for each worker
    # (three large files on --jobs 3 answered at once)
    assert pool_chunk_size(3, 3) == 1
    assert pool_chunk_size(20, 2) == 5
    assert pool_chunk_size(1, 2) == 1


def test_text_output_for_people(files, capsys):
    status, out, _ = run_here(capsys, "run", files["illegal"])
    assert status == 1 and "802.4a" in out


def _plain_clingo_violations(facts: str) -> set[str]:
    """The violation/2 atoms of the optimal model plain clingo prints."""
    programs = sorted(str(p) for p in (ROOT / "rules").glob("*.lp"))
    programs += sorted(str(p) for p in (ROOT / "kb").glob("*.lp"))
    programs.append(str(ROOT / "queries" / "legal.lp"))
    proc = subprocess.run(
        [sys.executable, "-m", "clingo", *programs, "-", "--outf=2", "--opt-mode=optN"],
        input=facts,
        capture_output=True,
        text=True,
    )
    result = json.loads(proc.stdout)
    assert result["Result"] in ("SATISFIABLE", "OPTIMUM FOUND"), proc.stderr
    witnesses = result["Call"][0]["Witnesses"]
    return {atom for atom in witnesses[-1]["Value"] if atom.startswith("violation(")}


@pytest.mark.parametrize("name", ["legal", "illegal"])
def test_facts_reloaded_by_plain_clingo_give_the_same_legal_answer(files, capsys, name):
    status, facts, _ = run_here(capsys, "facts", files[name])
    assert status == 0
    violations = _plain_clingo_violations(facts)
    _, out, _ = run_here(capsys, "run", files[name], "--json")
    answer = json.loads(out)["answers"][0]
    assert answer["legal"] is (not violations)
    assert {re.match(r'violation\(rule\("([^"]+)"\)', v).group(1) for v in violations} == {
        v["rule"] for v in answer["violations"]
    }


@pytest.mark.parametrize("command", [[], ["run"], ["facts"], ["rules"], ["audit"]])
def test_help_of_every_subcommand(command, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main([*command, "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: mtgkb")
    if command == ["run"]:
        for option in ("--json", "--jsonl", "--timeout", "--max-models", "--jobs", "--scheduler"):
            assert option in out


def test_a_command_s_parser_made_alone_is_the_one_made_with_all_the_others():
    # main() makes only the parser of the command its arguments name first
    every = cli.build_parser()._subparsers._group_actions[0].choices
    assert set(every) == set(cli.COMMANDS)
    for name in cli.COMMANDS:
        alone = cli.build_parser(name)._subparsers._group_actions[0].choices
        assert list(alone) == [name]
        assert alone[name].format_help() == every[name].format_help()
    assert list(cli.build_parser("no-such-command")._subparsers._group_actions[0].choices) == list(
        every
    )


def test_a_run_in_this_process_leaves_the_cycle_collector_as_it_was_802_4a(files, capsys):
    # `run` makes Python's collector wait during the run (a cost, not an
    # answer): a longer-lived process that calls main() gets its settings back
    before = gc.get_threshold()
    status, out, _ = run_here(capsys, "run", files["illegal"], "--json")
    assert status == 1
    (violation,) = json.loads(out)["answers"][0]["violations"]
    assert violation["rule"] == "802.4a"
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_603_3b_text_output_says_how_many_orders_a_cut_listing_leaves_out(tmp_path, capsys):
    # 603.3b: Ann's five triggers in any order, 5! = 120; five listed, 115 left out
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'trigger "T{i}" controlled by Ann' for i in range(1, 6)]
    path = tmp_path / "stack.mtg"
    path.write_text("\n".join([*lines, "ask stack"]) + "\n", encoding="utf-8")
    status, out, _ = run_here(capsys, "run", str(path), "--max-models", "5")
    assert status == 0 and "115 more not listed" in out and "603.3b" in out
    # 101.4c: four things chosen at once in any order (4!), one order of the players
    path.write_text(
        "players: Ann, Ben\nactive: Ann\n"
        "each player chooses a creature and a land and an artifact and a card\nask order\n",
        encoding="utf-8",
    )
    status, out, _ = run_here(capsys, "run", str(path), "--max-models", "3", "--lang", "it")
    assert status == 0 and "24 ordini in tutto" in out
