"""docs/contributing.md's recipe for a new keyword ability works, and touches
what it says and nothing else: in a temporary copy of the checkout, a
throwaway evasion ability ("glimmer": no creature with power 2 or less can
block it, under a made-up rule 702.999b) is added by the recipe's four steps
(its vocabulary entry, its rule file, its message, its tests). Then, with
the copy's rule base, a scenario that uses it is answered: the block by a 2/2
is illegal under 702.999b (cited with 509.1b, as every evasion ability of
the vocabulary is) with the message written, only the 3/3 may block; the new
test file passes; and no other file of the copy changed (the grammar and its
tables were neither edited nor rebuilt)."""

import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest
from helpers import ROOT

# The slow tier (the recipes followed in a copy of the checkout):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

SCENARIO = """players: Ann, Ben
Ann controls creature "Wisp" 1/1 with glimmer
Ben controls creature "Bear" 2/2
Ben controls creature "Ogre" 3/3
"Wisp" attacks Ben
"Bear" blocks "Wisp"
ask legal
ask blocks
"""

# The recipe's four steps, as docs/contributing.md writes them (702.NNN = 702.999).
VOCABULARY = 'ability_word("glimmer", glimmer, simple).\nevasion(glimmer, "702.999b").\n'
RULE_FILE = """\
%%% rules/702_999_glimmer.lp: 702.999, glimmer (a throwaway of tests/test_contributing.py).
%%% Input: has/2, power/2. Adds pair_fault/4 (509).

%%% 702.999b: glimmer

% 702.999b: a creature with power 2 or less can't block a creature with glimmer.
pair_fault(B,C,"702.999b",glimmer_block(B,C)) :-
    block_pair(B,C), has(C,glimmer), power(B,P), P <= 2.
"""
MESSAGES = (
    'message(glimmer_block, "{1} can\'t block {2}: {2} has glimmer").\n'
    'message_it(glimmer_block, "{1} non può bloccare {2}: {2} ha glimmer").\n'
)
TEST_FILE = '''"""702.999b (throwaway): glimmer."""

from mtgkb import run

BASE = "players: Ann, Ben\\nAnn controls creature \\"Wisp\\" 1/1 with glimmer\\n"
ATTACK = '"Wisp" attacks Ben\\n'
ASK = "ask legal\\n"


def test_702_999b_a_creature_with_power_2_or_less_cannot_block_glimmer():
    text = BASE + 'Ben controls creature "Bear" 2/2\\n' + ATTACK + '"Bear" blocks "Wisp"\\n' + ASK
    (legal,) = run(text)["answers"]
    assert legal["legal"] is False
    assert [v["rule"] for v in legal["violations"]] == ["702.999b"]


def test_702_999b_a_bigger_creature_may_block_it():
    text = BASE + 'Ben controls creature "Ogre" 3/3\\n' + ATTACK + '"Ogre" blocks "Wisp"\\n' + ASK
    (legal,) = run(text)["answers"]
    assert legal["legal"] is True and legal["violations"] == []
'''

IGNORED = ("__pycache__", ".pytest_cache")


def _files(root):
    """Every file of the copy and a digest of its contents."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not any(part in IGNORED for part in path.parts):
            out[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _env(root):
    return dict(
        os.environ, PYTHONPATH=str(root / "src"), MTGKB_CACHE="0", MTGKB_RULE_BASE=str(root)
    )


def _answer(root, tmp_path):
    scenario = tmp_path / "glimmer.mtg"
    scenario.write_text(SCENARIO, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", "--json", "--rule-base", str(root), str(scenario)],
        capture_output=True,
        text=True,
        env=_env(root),
        cwd=tmp_path,
    )


def _copy(tmp_path):
    root = tmp_path / "checkout"
    ignore = shutil.ignore_patterns(*IGNORED)
    for folder in ("src", "rules", "kb", "queries", "docs"):
        shutil.copytree(ROOT / folder, root / folder, ignore=ignore)
    (root / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "conftest.py", root / "tests" / "conftest.py")
    shutil.copytree(ROOT / "tests" / "helpers", root / "tests" / "helpers", ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def test_the_recipe_for_a_new_keyword_ability_touches_four_files_and_makes_it_answerable(tmp_path):
    root = _copy(tmp_path)
    before = _answer(root, tmp_path)
    assert before.returncode == 2, before.stderr  # not in the vocabulary yet
    assert ":2:39: error: unknown ability 'glimmer'" in before.stderr
    files = _files(root)

    # 1. its vocabulary entry
    with open(root / "kb" / "vocabulary.lp", "a", encoding="utf-8") as vocabulary:
        vocabulary.write("\n%%% glimmer (tests/test_contributing.py)\n" + VOCABULARY)
    # 2. its rule file
    (root / "rules" / "702_999_glimmer.lp").write_text(RULE_FILE, encoding="utf-8")
    # 3. its message and the Italian twin
    with open(root / "kb" / "messages.lp", "a", encoding="utf-8") as messages:
        messages.write("\n" + MESSAGES)
    # 4. its tests
    (root / "tests" / "test_702_999_glimmer.py").write_text(TEST_FILE, encoding="utf-8")

    after = _answer(root, tmp_path)
    assert after.returncode == 1, after.stderr  # an illegal play
    legal, blocks = json.loads(after.stdout)["answers"]
    assert legal["legal"] is False
    assert legal["violations"] == [
        {
            "rule": "702.999b",
            "kind": "glimmer_block",  # the kind of its message (issue 27)
            "message": "Bear can't block Wisp: Wisp has glimmer",
            "objects": ["Bear", "Wisp"],
            "line": 6,  # the declaration of the block
            "column": 1,
        }
    ]
    assert {"702.999b", "509.1b"} <= set(legal["rules"])  # 509.1b: evasion/2 of the vocabulary
    assert blocks["assignments"] == [{}, {"Ogre": "Wisp"}]

    tests = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-v",
            "-p",
            "no:cacheprovider",
            "tests/test_702_999_glimmer.py",
        ],
        capture_output=True,
        text=True,
        env=_env(root),
        cwd=root,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout, tests.stdout

    # nothing else changed: not the grammar, not its tables, not Python, not the docs
    changed = {name for name, digest in _files(root).items() if files.get(name) != digest}
    assert changed == {
        "kb/vocabulary.lp",
        "rules/702_999_glimmer.lp",
        "kb/messages.lp",
        "tests/test_702_999_glimmer.py",
    }
    assert set(files) - set(_files(root)) == set()
