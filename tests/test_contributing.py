"""docs/contributing.md's recipe for a new keyword ability works: in a copy of
the checkout, a throwaway ability ("glimmer": no creature with power 2 or less
can block it, under a made-up rule 702.999b) is added by its steps 1-5, and a
scenario that uses it is answered: the block by a 2/2 is illegal under
702.999b with the message written, and only the 3/3 may block."""

import json
import os
import re
import shutil
import subprocess
import sys

from helpers import ROOT

SCENARIO = """players: Ann, Ben
Ann controls creature "Wisp" 1/1 with glimmer
Ben controls creature "Bear" 2/2
Ben controls creature "Ogre" 3/3
"Wisp" attacks Ben
"Bear" blocks "Wisp"
ask legal
ask blocks
"""


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name}: the recipe's anchor {old!r} is gone"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _answer(root, tmp_path):
    scenario = tmp_path / "glimmer.mtg"
    scenario.write_text(SCENARIO, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(root / "src"), MTGKB_CACHE="0", MTGKB_RULE_BASE=str(root))
    proc = subprocess.run(
        [sys.executable, "-m", "mtgkb", "run", "--json", str(scenario)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path,
    )
    return proc


def _copy(tmp_path):
    root = tmp_path / "checkout"
    for folder in ("src", "rules", "kb", "queries"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_recipe_for_a_new_keyword_ability_makes_it_answerable(tmp_path):
    root = _copy(tmp_path)
    before = _answer(root, tmp_path)
    assert before.returncode == 2 and "glimmer" in before.stderr  # not in the language yet

    # 1. the grammar: a terminal and an alternative of `ability`
    grammar = root / "src" / "mtgkb" / "language" / "grammar.lark"
    _edit(grammar, '\nHASTE: "haste"i\n', '\nGLIMMER: "glimmer"i\nHASTE: "haste"i\n')
    reach = re.search(r"\n( +)\| REACH +-> reach\n", grammar.read_text(encoding="utf-8"))
    _edit(grammar, reach.group(0), reach.group(0) + f"{reach.group(1)}| GLIMMER -> glimmer\n")
    # 2. the parser's simple abilities: it becomes has(O,glimmer)
    _edit(
        root / "src" / "mtgkb" / "language" / "parser.py",
        '    "flying",\n',
        '    "flying",\n    "glimmer",\n',
    )
    # 3. the corpus of the audit and the fuzz tests
    _edit(
        root / "src" / "mtgkb" / "audit" / "corpus.py",
        '    "flying",\n',
        '    "flying",\n    "glimmer",\n',
    )
    # 4. the rule, under its number
    (root / "rules" / "702_999_glimmer.lp").write_text(
        "%%% rules/702_999_glimmer.lp: a throwaway ability of tests/test_contributing.py.\n"
        "%%% Input: has/2, power/2. Derived: pair_fault/4 (509).\n\n"
        "% 702.999b: a creature with power 2 or less can't block a creature with glimmer.\n"
        'pair_fault(B,C,"702.999b",glimmer_block(B,C)) :-\n'
        "    block_pair(B,C), has(C,glimmer), power(B,P), P <= 2.\n",
        encoding="utf-8",
    )
    # 5. its message and the Italian twin
    with open(root / "kb" / "messages.lp", "a", encoding="utf-8") as messages:
        messages.write(
            '\nmessage(glimmer_block, "{1} can\'t block {2}: {2} has glimmer").\n'
            'message_it(glimmer_block, "{1} non può bloccare {2}: {2} ha glimmer").\n'
        )

    after = _answer(root, tmp_path)
    assert after.returncode == 1, after.stderr  # illegal play
    legal, blocks = json.loads(after.stdout)["answers"]
    assert legal["legal"] is False
    assert legal["violations"] == [
        {
            "rule": "702.999b",
            "message": "Bear can't block Wisp: Wisp has glimmer",
            "objects": ["Bear", "Wisp"],
        }
    ]
    assert "702.999b" in legal["rules"]
    assert blocks["assignments"] == [{}, {"Ogre": "Wisp"}]
