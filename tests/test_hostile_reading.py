"""Input is read with its bounds (issue 15, item 7): never more than the size
limit plus one byte (so /dev/zero is refused, not read until the kernel
kills the process), and with `--timeout` within the time-out, standard input
too: a FIFO no one writes to, or a pipe that never ends, gives exit 3 in
time instead of waiting forever."""

import os
import subprocess
import sys
import threading
import time

import pytest
from helpers import ROOT

from mtgkb.language.parser import MAX_BYTES, ReadTimeout, read_source

# The slow tier (processes reading endless files and pipes):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

GOOD = b"players: Ann, Ben\nAnn loses 3 life\nask outcome\n"


def mtgkb_run(*args: str, **options) -> subprocess.CompletedProcess:
    options.setdefault("capture_output", True)
    return subprocess.run([sys.executable, "-m", "mtgkb", "run", *args], cwd=ROOT, **options)


def test_an_endless_file_is_read_only_to_the_limit():
    data = read_source("/dev/zero")
    assert len(data) == MAX_BYTES + 1


@pytest.mark.parametrize("timeout", [[], ["--timeout", "5"]])
def test_dev_zero_is_refused_as_too_large(timeout):
    done = mtgkb_run(*timeout, "/dev/zero")  # read only to the limit: bounded work
    assert done.returncode == 2
    assert done.stderr.startswith(b"/dev/zero:1:1: error: the file is larger than 1024 KiB")


def test_dev_zero_on_standard_input_is_refused_too():
    with open("/dev/zero", "rb") as zero:
        done = mtgkb_run("--timeout", "5", "-", stdin=zero)
    assert done.returncode == 2
    assert done.stderr.startswith(b"<stdin>:1:1: error: the file is larger than 1024 KiB")


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.mtg"
    os.mkfifo(path)
    return path


def test_a_fifo_without_writer_stops_at_the_time_out(fifo):
    done = mtgkb_run("--timeout", "1", str(fifo), str(ROOT / "examples/03_illegal_block.mtg"))
    assert done.returncode == 3
    assert b"the time-out stopped reading" in done.stderr
    # the next file is still answered
    assert b"examples/03_illegal_block.mtg" in done.stdout


def test_a_fifo_whose_writer_comes_in_time_is_answered(fifo):
    def write() -> None:
        time.sleep(0.5)
        with open(fifo, "wb") as pipe:
            pipe.write(GOOD)

    writer = threading.Thread(target=write)
    writer.start()
    done = mtgkb_run("--timeout", "20", "--json", str(fifo))
    writer.join()
    assert done.returncode == 0, done.stderr
    assert b'"Ann": 17' in done.stdout


def test_read_source_gives_up_on_a_silent_fifo(fifo):
    with pytest.raises(ReadTimeout):
        read_source(fifo, timeout=0.5)


def test_standard_input_that_never_ends_stops_at_the_time_out():
    proc = subprocess.Popen(
        [sys.executable, "-m", "mtgkb", "run", "--timeout", "1", "-"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdin.write(b"players: Ann, Ben\n")
    proc.stdin.flush()  # and never closed
    try:
        rc = proc.wait(timeout=20)
        err = proc.stderr.read()
    finally:
        proc.stdin.close()
        proc.kill()
    assert rc == 3
    assert b"<stdin>: error: the time-out stopped reading" in err
