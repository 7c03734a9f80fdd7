"""The `mtgkb` command ends its process at once once main() has returned
(mtgkb.cli.console, EndAtOnce): the standard streams flushed, every other exit handler
run, Python's freeing of what is left skipped (issue 26, the cold figure).
What a user sees stays the same: the whole answer, and main()'s status."""

from __future__ import annotations

import json
import subprocess
import sys

#: Ben's 6 creatures, each free to block one of Ann's 3 attackers or none
#: (509.1a): 4^6 = 4,096 declarations.
MANY = """players: Ann, Ben
active: Ann
Ann controls creature "A1" 2/2
Ann controls creature "A2" 2/2
Ann controls creature "A3" 2/2
Ben controls creature "B1" 1/1
Ben controls creature "B2" 1/1
Ben controls creature "B3" 1/1
Ben controls creature "B4" 1/1
Ben controls creature "B5" 1/1
Ben controls creature "B6" 1/1
"A1" attacks Ben
"A2" attacks Ben
"A3" attacks Ben
ask blocks for Ben limit 1000
"""

#: A creature without flying or reach blocks a creature with flying (702.9b).
ILLEGAL = """players: Ann, Ben
active: Ann
Ann controls creature "Serra Angel" 4/4 with flying
Ben controls creature "Grizzly Bears" 2/2
"Serra Angel" attacks Ben
"Grizzly Bears" blocks "Serra Angel"
ask legal
"""


def _command(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """`python -m mtgkb ARGS` (the console entry, as the `mtgkb` script runs it)."""
    return subprocess.run(
        [sys.executable, "-m", "mtgkb", *args], capture_output=True, text=True, **kwargs
    )


def test_an_answer_larger_than_a_pipe_holds_arrives_whole(tmp_path):
    scenario = tmp_path / "many.mtg"
    scenario.write_text(MANY)
    done = _command("run", "--json", str(scenario))
    assert done.returncode == 0, done.stderr
    # (more than a pipe's 64 KiB: written by several flushes, the last at the end)
    assert len(done.stdout.encode()) > 65536
    (answer,) = json.loads(done.stdout)["answers"]
    assert (answer["count"], answer["complete"]) == (4**6, True)
    assert len(answer["assignments"]) == 1000
    assert "509.1a" in answer["rules"]


def test_the_status_is_mains_an_illegal_play_and_bad_input(tmp_path):
    illegal = tmp_path / "illegal.mtg"
    illegal.write_text(ILLEGAL)
    done = _command("run", "--json", str(illegal))
    assert done.returncode == 1, done.stderr
    (answer,) = json.loads(done.stdout)["answers"]
    assert answer["legal"] is False
    assert "702.9b" in json.dumps(answer)
    bad = tmp_path / "bad.mtg"
    bad.write_text("players: Ann, Ben\nactive: Ann\nAnn sings\n")
    done = _command("run", "--json", str(bad))
    assert done.returncode == 2
    assert f"{bad}:3:" in done.stderr and "error:" in done.stderr


#: main() replaced by one that registers an exit handler of its own (as a
#: pool or a library may) and returns 3.
HANDLER = """
import atexit, sys
from mtgkb import cli

def main():
    atexit.register(lambda: open(sys.argv[1], "w").write("ran"))
    print("answered")
    return 3

cli.main = main
cli.console()
"""


def test_the_other_exit_handlers_run_before_the_process_ends(tmp_path):
    mark = tmp_path / "mark"
    done = subprocess.run(
        [sys.executable, "-c", HANDLER, str(mark)], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (3, "answered\n", "")
    assert mark.read_text() == "ran"
