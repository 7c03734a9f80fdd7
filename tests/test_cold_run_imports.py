"""A cold `mtgkb run` of one question answered from the cached analysis
imports only what it uses: clingo's syntax tree (`clingo.ast`; measured
about 5 ms of a cold run of c06) is for rule files read as trees (explain's
traced program, the audit, a cache made afresh, the guarded queries of
several questions grounded together), not for such a run (issue 26, the
cold figure)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

#: One question (`ask blocks`, as c06): its query grounded alone, not guarded.
SCENARIO = """players: Ann, Ben
active: Ann
Ann controls creature "Hill Giant" 3/3
Ben controls creature "Grizzly Bears" 2/2
"Hill Giant" attacks Ben
ask blocks for Ben
"""

#: Runs `mtgkb run` in this process, then prints whether clingo.ast was imported.
RUN = (
    "import sys\n"
    "from mtgkb.cli import main\n"
    "try:\n"
    "    main(['run', '--json', sys.argv[1]])\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('clingo.ast' in sys.modules, file=sys.stderr)\n"
)


def _imported_tree(cache: Path, scenario: Path) -> bool:
    env = {**os.environ, "MTGKB_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(scenario)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    (answer,) = json.loads(done.stdout)["answers"]
    # (the run answered: no block, or the Bears block the Giant; 509.1a)
    assert (answer["count"], answer["complete"]) == (2, True)
    assert "509.1a" in answer["rules"]
    return done.stderr.strip().splitlines()[-1] == "True"


def test_a_run_from_the_cached_analysis_imports_no_syntax_tree(tmp_path):
    scenario = tmp_path / "blocks.mtg"
    scenario.write_text(SCENARIO)
    cache = tmp_path / "cache"
    _imported_tree(cache, scenario)  # (the first run makes the cache)
    assert any(cache.iterdir()), "the first run cached nothing"
    assert not _imported_tree(cache, scenario)


def test_a_run_that_kept_syntax_trees_ends_without_a_traceback(tmp_path):
    # 3 files answered one by one in this process: from the second on, the
    # input checks' statements are given to clingo as trees, kept by a cache
    # of mtgkb.language.checks. clingo.ast, imported then, is cleared before
    # that module as Python ends: the trees are released at exit first
    # (mtgkb.engine.programs.release_trees_at_exit)
    scenario = tmp_path / "blocks.mtg"
    scenario.write_text(SCENARIO)
    done = subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", "--jsonl", *[str(scenario)] * 3],
        env={**os.environ, "MTGKB_CACHE_DIR": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line)["answers"][0] for line in done.stdout.splitlines()]
    assert [(a["count"], "509.1a" in a["rules"]) for a in answers] == [(2, True)] * 3
    assert done.stderr == ""
