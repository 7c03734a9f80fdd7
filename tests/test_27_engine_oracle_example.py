"""Issue 27, item 8: examples/engine/perft.py, the engine developer's
"perft" of combat. Its move generator counts the declarations by plain
combinatorics of 508.1a (each of A vanilla creatures stays home or attacks
the opponent or one of K planeswalkers: (K + 2)^A) and 509.1a (each of B
vanilla creatures blocks one attacking creature or none: (attackers + 1)^B),
and calls a play illegal exactly when a creature blocks one that does not
attack (509.1a). These tests run the client as a user would, with a small
seed and size, and check that it reports agreement with mtgkb, and that it
does report a disagreement when its expectations are wrong."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from helpers import ROOT

PERFT = ROOT / "examples" / "engine" / "perft.py"


def _load_perft():
    spec = importlib.util.spec_from_file_location("perft_example", PERFT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_27_508_1a_509_1a_perft_agrees_with_mtgkb():
    out = subprocess.run(
        [sys.executable, str(PERFT), "--seed", "11", "--positions", "12", "--size", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "12 positions" in out.stdout
    assert out.stdout.strip().endswith("verdicts: agree")


def test_27_509_1a_perft_expects_the_combinatorial_counts():
    """The client's own expectations, on the positions of seed 11: the
    block count is (attackers + 1)^blockers, the attack count (K + 2)^A,
    and some plays are illegal (so the verdicts are checked both ways)."""
    import random

    perft = _load_perft()
    rng = random.Random(11)
    cases = [perft.position(rng, 3) for _ in range(12)]
    for text, expected in cases:
        ann = text.count("Ann controls creature")
        ben = text.count("Ben controls creature")
        walkers = text.count("Ben controls planeswalker")
        attackers = text.count('" attacks ')
        assert expected["attacks"] == (walkers + 2) ** ann
        assert expected["blocks"] == (attackers + 1) ** ben
    assert {expected["legal"] for _, expected in cases} == {True, False}


def test_27_perft_reports_a_wrong_move_generator(monkeypatch, capsys):
    """A move generator that miscounts the blocks by one is caught."""
    perft = _load_perft()
    right = perft.position

    def off_by_one(rng, size):
        text, expected = right(rng, size)
        return text, {**expected, "blocks": expected["blocks"] + 1}

    monkeypatch.setattr(perft, "position", off_by_one)
    assert perft.main(["--seed", "11", "--positions", "3", "--size", "2"]) == 1
    out = capsys.readouterr().out
    assert "blocks: mtgkb" in out
    assert "DISAGREE on 3 figure(s)" in out


@pytest.mark.slow
def test_27_perft_agrees_over_http():
    """The same client against `mtgkb serve` on 127.0.0.1 (a few positions)."""
    pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")
    from helpers.serving import free_port, start_server, stop_server, wait_for

    port = free_port()
    server = start_server(port, "--workers", "1")
    try:
        wait_for(f"http://127.0.0.1:{port}/health", 60)
        url = f"http://127.0.0.1:{port}"
        perft = _load_perft()
        assert perft.main(["--seed", "5", "--positions", "6", "--size", "3", "--url", url]) == 0
    finally:
        stop_server(server)
