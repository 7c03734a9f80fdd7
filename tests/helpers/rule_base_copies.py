"""Helpers of the tests that run `mtgkb` as a command on a copy of this
checkout's rule base: the command in a subprocess (`mtgkb`), the copy
(`copy_base`), and the house rule that makes a rule base contradict itself
(103.4: a second starting life total for every player)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from mtgkb.rulebase import location as paths

from . import ROOT

CONTRADICTING_HOUSE = (
    "% 103.4: house rule: every player also starts with 30 life\n"
    "starting_life(P,30) :- player(P).\n"
)


def mtgkb(*args, cwd=None, env=None, stdin=None):
    """`python -m mtgkb ARGS`: its exit status, standard output and standard error."""
    full = dict(os.environ)
    full.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-m", "mtgkb", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full,
        input=stdin,
    )
    return proc.returncode, proc.stdout, proc.stderr


def copy_base(tmp_path, name="base"):
    """A copy of this checkout's rule base (rules/, kb/, queries/)."""
    target = tmp_path / name
    for folder in paths.FOLDERS:
        shutil.copytree(ROOT / folder, target / folder)
    return target
