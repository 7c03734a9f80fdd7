"""Helpers of the server tests: a real `mtgkb serve` on a free port of 127.0.0.1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

MTGKB = Path(sys.executable).with_name("mtgkb")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url: str, seconds: float) -> bytes:
    """The body at `url`, asked again until it answers or `seconds` pass."""
    end = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read()
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.2)


def start_server(port: int, *extra: str) -> subprocess.Popen:
    """`mtgkb serve` on 127.0.0.1:`port` (stopped by `stop_server`)."""
    return subprocess.Popen(
        [str(MTGKB), "serve", "--port", str(port), *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(15)
