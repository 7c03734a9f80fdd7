"""A reader that leaves early (`mtgkb run ... | head -1`) changes nothing but
what it does not read (issue 15, item 14): in every output mode the exit
status is the one the run earns, and the later files' error messages still
reach standard error. (Text mode used to exit 1 and lose them, the JSON
modes exited 0.)"""

import os
import subprocess
import sys

import pytest
from helpers import ROOT

# The slow tier (processes writing into closed pipes):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

LEGAL = str(ROOT / "examples" / "01_apnap_sacrifice.mtg")
ILLEGAL_BLOCK = """\
players: Rob, Alex
Rob controls creature "Giant" 3/3
Alex controls creature "Wall" 0/4 with defender
Alex controls creature "Bear" 2/2 with can't block
"Giant" attacks Alex
"Bear" blocks "Giant"
ask legal
"""


def run_with_closed_reader(args: list[str]) -> tuple[int, str]:
    """Run with a standard output whose reader is already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mtgkb", "run", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stderr


def run_read(args: list[str]) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return done.returncode, done.stderr


@pytest.fixture
def files(tmp_path):
    illegal = tmp_path / "illegal.mtg"
    illegal.write_text(ILLEGAL_BLOCK)
    missing = tmp_path / "missing.mtg"
    broken = tmp_path / "broken.mtg"
    broken.write_text("players: Ann, Ben\nCarl loses 3 life\n")
    return [LEGAL, str(illegal), str(missing), str(broken)]


@pytest.mark.parametrize("mode", [[], ["--json"], ["--jsonl"]], ids=["text", "json", "jsonl"])
def test_a_reader_that_leaves_changes_neither_status_nor_errors(files, mode):
    status, errors = run_with_closed_reader(mode + files)
    read_status, read_errors = run_read(mode + files)
    assert read_status == 2  # an unreadable file is the worst of the four
    assert status == read_status
    assert "missing.mtg:1:1: error: cannot read the file" in errors
    assert "broken.mtg:2:1: error: unknown player Carl" in errors
    assert errors == read_errors
    assert "Traceback" not in errors and "BrokenPipe" not in errors


@pytest.mark.parametrize("mode", [[], ["--json"], ["--jsonl"]], ids=["text", "json", "jsonl"])
def test_an_illegal_play_still_exits_1_after_the_reader_left(files, mode):
    status, errors = run_with_closed_reader(mode + files[:2])
    assert status == 1
    assert errors == ""


def test_head_minus_one_in_a_shell():
    files = " ".join([LEGAL, "/nonexistent/a.mtg", LEGAL, "/nonexistent/b.mtg"])
    for mode in ("", "--json", "--jsonl"):
        done = subprocess.run(
            [
                "sh",
                "-c",
                f"{sys.executable} -m mtgkb run {mode} {files} | head -1 >/dev/null",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert "/nonexistent/b.mtg:1:1: error" in done.stderr, mode
