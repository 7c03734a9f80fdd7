# ruff: noqa: E501 (the recipes write whole lines of other files: TOML rows, a test module)
"""docs/contributing.md's recipes work, and touch what they say and nothing
else. In a temporary copy of the checkout:

- a throwaway evasion ability ("glimmer": no creature with power 2 or less
  can block it, under a made-up rule 702.999b) is added by the recipe for a
  keyword ability (its vocabulary entry, its rule file, its message, its
  tests, its rows of the interaction matrix): the block by a 2/2 is illegal
  under 702.999b (cited with 509.1b, as every evasion ability of the
  vocabulary is) with the message written, only the 3/3 may block;
- a throwaway kind of question, `ask teammates for P` (102.3), is added by
  the recipe for a kind of question (its words in the grammar and the
  tables rebuilt, its registry entry, its query, its answering function,
  its documentation, its tests and its rows of the matrix): a Two-Headed
  Giant player's teammate is answered with 102.3;
- each recipe's own test file passes, and no file outside the recipe's list
  changed; and with both recipes followed, the whole fast tier of the copy
  passes (the recipes are complete: no other test of the project had to be
  edited)."""

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


def test_702_999b_ask_can_fix_and_outcome_see_the_illegal_block():
    table = BASE + 'Ben controls creature "Bear" 2/2\\n' + ATTACK
    (can,) = run(table + 'ask can "Bear" block "Wisp"\\n')["answers"]
    assert can["can"] is False and "702.999b" in can["forbidden_by"]
    declared = table + '"Bear" blocks "Wisp"\\ncombat damage\\nask fix\\nask outcome\\n'
    fix, outcome = run(declared)["answers"]
    assert [edit["op"] for edit in fix["edits"]] == ["remove"]  # the block goes
    assert outcome["illegal_play"] is True and "702.999b" in outcome["rules"]
'''

# The keyword's rows of the interaction matrix (tests/interaction_matrix.toml):
# 702.999b is a restriction on blocking, so it can change what is legal and
# which blocks exist, and nothing about who may attack, choose, pay or act.
KEYWORD_MATRIX_ROWS = """
# --- glimmer (a throwaway of tests/test_contributing.py) ---------------------

[[tested]]
features = ["ability:glimmer"]
questions = ["legal", "blocks"]
test = "tests/test_702_999_glimmer.py::test_702_999b_a_creature_with_power_2_or_less_cannot_block_glimmer"
rule = "702.999b"

[[tested]]
features = ["ability:glimmer"]
questions = ["can", "fix", "outcome"]
test = "tests/test_702_999_glimmer.py::test_702_999b_ask_can_fix_and_outcome_see_the_illegal_block"
rule = "702.999b"

[[independent]]
features = ["ability:glimmer"]
questions = ["defending", "attack_targets", "attacks", "order", "knowledge", "stack", "pay", "actions", "block_order", "damage_order", "assignments"]
reason = "702.999b, 509.1b: a restriction on blocking changes no attack, choice, payment, priority, APNAP order or division of damage"
"""
KEYWORD_INDEX = (
    'cr_rule("702.999b"). cr_section("702.999b","702"). cr_edition("702.999b","2026-04-17").\n'
    'paraphrase("702.999b",en,"Glimmer (a throwaway): creatures with power 2 or less '
    "can't block it.\").\n"
    'paraphrase("702.999b",it,"Luccichio (di prova): le creature con forza 2 o meno '
    'non possono bloccarla.").\n'
)

#: What the keyword recipe writes: and nothing else.
KEYWORD_FILES = {
    "kb/vocabulary.lp",
    "rules/702_999_glimmer.lp",
    "kb/messages.lp",
    "kb/rule_index.lp",
    "tests/test_702_999_glimmer.py",
    "tests/interaction_matrix.toml",
    "docs/language.md",
    "docs/predicates.md",
}


def follow_the_keyword_recipe(root):
    """docs/contributing.md, "A new keyword ability", step by step."""
    # 1. its vocabulary entry
    _append(root / "kb/vocabulary.lp", "\n%%% glimmer (tests/test_contributing.py)\n" + VOCABULARY)
    # 2. its rule file, and the paraphrase of the rule it tags
    (root / "rules/702_999_glimmer.lp").write_text(RULE_FILE, encoding="utf-8")
    _append(
        root / "kb/rule_index.lp", "\n%%% glimmer (tests/test_contributing.py)\n" + KEYWORD_INDEX
    )
    # 3. its message and the Italian twin
    _append(root / "kb/messages.lp", "\n" + MESSAGES)
    # 4. its tests
    (root / "tests/test_702_999_glimmer.py").write_text(TEST_FILE, encoding="utf-8")
    # 5. its rows of the interaction matrix
    _append(root / "tests/interaction_matrix.toml", KEYWORD_MATRIX_ROWS)
    # 6. its documentation: an example in docs/language.md, its name in docs/predicates.md
    _add(
        root / "docs/language.md",
        'Rob controls creature "Wisp" 1/1 with glimmer\n',
        after='Rob controls creature "Serra Angel" 4/4 with flying\n',
    )
    _add(root / "docs/predicates.md", ", `glimmer`", after="`trample_over_planeswalkers`")


# --- the recipe for a kind of question: `ask teammates for P` (102.3) --------

QUESTION_SCENARIO = """game: two-headed-giant
players: Ann, Ben, Cat, Dan
team North: Ann, Ben
team South: Cat, Dan
active: Ann
ask teammates for Ann
ask teammates for Dan
"""

QUERY_FILE = """\
%%% teammates.lp: the teammates of the asked player (102.3), a throwaway of
%%% tests/test_contributing.py. Shows teammate(P,Q) and cites(rule(R)).

% 102.3: the asked player's teammates.
#show teammate(P,Q) : asked(teammates(P)), teammate(P,Q).
% 102.3: the rules that made them teammates.
#show cites(rule(R)) : asked(teammates(P)), teammate(P,Q), because(teammate(P,Q),rule(R)).
"""

ANSWERING_FUNCTION = '''

def answer_teammates(question, scenario, facts, limits: Limits, session=None) -> Answer:
    """ask teammates for P (a throwaway of tests/test_contributing.py)."""
    model = solve_single("teammates", scenario, facts, limits, session)
    player = question["player"]
    mates = _by_seat(scenario, {q for p, q in values(model, "teammate", 2) if p == player})
    answer = {"ask": "teammates", "player": player, "players": mates}
    return with_rules(answer, cited_rules(model))
'''

REGISTRY_ENTRY = """    Entry(
        "teammates",
        "teammates",
        "teammates",
        f"{_ANSWERS}:answer_teammates",
        "defending",  # read alike: a list of players
        single_model=True,
        asked=(("player", "player"),),
        explained_by="teammates",
        needs_parameters=True,
        fields=(
            ("player", "str", "the player asked about"),
            ("players", "list[str]", "the player's teammates, in seating order"),
        ),
    ),
"""

QUESTION_TEST_FILE = (
    '"""102.3 (a throwaway of tests/test_contributing.py): ask teammates."""\n'
    "\n"
    "import pytest\n"
    "\n"
    "from mtgkb import run\n"
    "\n"
    "# (the table, Ann's teammates by 102.3: the teams the variant's table has)\n"
    "TABLES = [\n"
    '    ("game: two-player\\nplayers: Ann, Ben", []),\n'
    '    ("game: free-for-all\\noption: attack-multiple-players\\nplayers: Ann, Ben, Cat", []),\n'
    '    ("game: free-for-all\\noption: attack-left\\nplayers: Ann, Ben, Cat", []),\n'
    '    ("game: free-for-all\\noption: attack-right\\nplayers: Ann, Ben, Cat", []),\n'
    '    ("game: free-for-all\\noption: attack-multiple-players\\noption: range-of-influence 1\\nplayers: Ann, Ben, Cat, Dan", []),\n'
    '    ("game: grand-melee\\nplayers: Ann, Ben, Cat, Dan", []),\n'
    '    ("game: team-vs-team\\nplayers: Ann, Ben, Cat, Dan\\nteam Red: Ann, Ben\\nteam Blue: Cat, Dan", ["Ben"]),\n'
    '    ("game: team-vs-team\\noption: shared-team-turns\\nplayers: Ann, Ben, Cat, Dan\\n"\n'
    '     "team Red: Ann, Ben\\nteam Blue: Cat, Dan", ["Ben"]),\n'
    '    ("game: two-headed-giant\\nplayers: Ann, Ben, Cat, Dan\\nteam Red: Ann, Ben\\nteam Blue: Cat, Dan", ["Ben"]),\n'
    '    ("game: emperor\\nplayers: Ann, Ben, Cat, Dan, Eve, Fay\\n"\n'
    '     "team Red: Ann, Ben, Cat\\nteam Blue: Dan, Eve, Fay\\nemperor: Ben\\nemperor: Eve", ["Ben", "Cat"]),\n'
    '    ("game: commander\\nplayers: Ann, Ben", []),\n'
    '    ("game: brawl\\nplayers: Ann, Ben", []),\n'
    '    ("game: archenemy\\nplayers: Ann, Ben, Cat\\narchenemy: Ben", ["Cat"]),  # 904: a team against Ben\n'
    '    ("game: vanguard\\nplayers: Ann, Ben\\nvanguard: Ann -3\\nvanguard: Ben +2", []),\n'
    "]\n"
    "\n"
    "\n"
    '@pytest.mark.parametrize(("table", "mates"), TABLES)\n'
    "def test_102_3_the_members_of_one_team_are_teammates(table, mates):\n"
    '    (answer,) = run(table + "\\nask teammates for Ann\\n")["answers"]\n'
    '    assert answer["players"] == mates\n'
    '    assert ("102.3" in answer["rules"]) == bool(mates)\n'
)

QUESTION_MATRIX_ROWS = """
# --- ask teammates (a throwaway of tests/test_contributing.py) ----------------

[scenario.teammates]
text = '''
game: free-for-all
option: attack-left
players: Ann, Ben, Cat
active: Ann
ask teammates for Ann
'''

[[tested]]
features = ["variant:*", "option:*"]
questions = ["teammates"]
test = "tests/test_102_3_teammates.py::test_102_3_the_members_of_one_team_are_teammates"
rule = "102.3"

[[independent]]
features = ["ability:*", "color:*", "player:*", "counter:*"]
questions = ["teammates"]
reason = "102.3: who is on a team is set by the game's teams; no object's ability, color or counter, nor a player's ability, changes it"
"""

#: What the question recipe writes: and nothing else.
QUESTION_FILES = {
    "src/mtgkb/language/grammar.lark",
    "src/mtgkb/language/grammar_tables.json",
    "src/mtgkb/rulebase/registry.py",
    "src/mtgkb/questions/answers.py",
    "queries/teammates.lp",
    "docs/language.md",
    "docs/predicates.md",
    "tests/test_102_3_teammates.py",
    "tests/test_question_registry.py",
    "tests/interaction_matrix.toml",
}


def follow_the_question_recipe(root):
    """docs/contributing.md, "A new kind of question", step by step."""
    grammar = root / "src/mtgkb/language/grammar.lark"
    # 1. its words in the grammar, and the grammar's tables rebuilt
    _add(
        grammar,
        "         | TEAMMATES FOR NAME                  -> q_teammates\n",
        after="-> q_assignments\n",
    )
    _add(grammar, 'TEAMMATES: "teammates"i\n', after='ASSIGNMENTS: "assignments"i\n')
    built = _python(root, "-m", "mtgkb.language.grammar_build")
    assert built.returncode == 0, built.stderr
    # 2. its registry entry, the last of ENTRIES
    _add(root / "src/mtgkb/rulebase/registry.py", REGISTRY_ENTRY, before=")\n\nBY_KIND")
    # 3. its query
    (root / "queries/teammates.lp").write_text(QUERY_FILE, encoding="utf-8")
    # 4. its answering function (its text form: "defending"'s, a list of players)
    _add(root / "src/mtgkb/questions/answers.py", ANSWERING_FUNCTION, before="\n\n# Each kind's")
    # 5. its documentation: an example and a row in docs/language.md, its query in docs/predicates.md
    language = root / "docs/language.md"
    _add(
        language,
        "ask teammates for Alex\n",
        after='ask actions for Alex\nask assignments for "Colossal Dreadmaw"\n',
    )
    _add(
        language,
        "| `ask teammates for P` | the players on P's team (102.3) |\n",
        after="among its recipients (section 10) |\n",
    )
    _add(
        root / "docs/predicates.md",
        "| `teammates.lp` | `teammate(P,Q)`: Q is on the asked player P's team |\n",
        after="for each asked payment that is possible |\n",
    )
    # 6. its tests (and its line in the registry test's scenario of every kind),
    # and its rows of the interaction matrix
    (root / "tests/test_102_3_teammates.py").write_text(QUESTION_TEST_FILE, encoding="utf-8")
    _add(
        root / "tests/test_question_registry.py",
        "ask teammates for Ann\n",
        after='ask assignments for "Bear"\n',
    )
    _append(root / "tests/interaction_matrix.toml", QUESTION_MATRIX_ROWS)


# --- the copy and the runs ---------------------------------------------------

IGNORED = ("__pycache__", ".pytest_cache", ".venv", ".git", ".ruff_cache")
#: The checkout: what a clone holds (its tests, examples and bench included).
CHECKOUT = ("src", "rules", "kb", "queries", "docs", "tests", "examples", "bench", ".ci")


def _append(path, text):
    with open(path, "a", encoding="utf-8") as out:
        out.write(text)


def _add(path, text, after=None, before=None):
    """Insert `text` right after `after` (or right before `before`), which the
    file holds once."""
    content = path.read_text(encoding="utf-8")
    anchor = after if after is not None else before
    assert content.count(anchor) == 1, f"{path}: the recipe's place is gone: {anchor!r}"
    new = anchor + text if after is not None else text + anchor
    path.write_text(content.replace(anchor, new), encoding="utf-8")


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


def _python(root, *args, cwd=None):
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=_env(root), cwd=cwd or root
    )


def _answer(root, tmp_path, text, name):
    scenario = tmp_path / name
    scenario.write_text(text, encoding="utf-8")
    return _python(root, "-m", "mtgkb", "run", "--json", "--rule-base", str(root), str(scenario))


def _copy(tmp_path):
    root = tmp_path / "checkout"
    ignore = shutil.ignore_patterns(*IGNORED)
    for folder in CHECKOUT:
        shutil.copytree(ROOT / folder, root / folder, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, root / name)
    return root


def _changed(root, files):
    now = _files(root)
    assert set(files) - set(now) == set(), "the recipe deleted files"
    return {name for name, digest in now.items() if files.get(name) != digest}


def test_the_recipe_for_a_new_keyword_ability_makes_it_answerable_and_touches_its_files(tmp_path):
    root = _copy(tmp_path)
    before = _answer(root, tmp_path, SCENARIO, "glimmer.mtg")
    assert before.returncode == 2, before.stderr  # not in the vocabulary yet
    assert ":2:39: error: unknown ability 'glimmer'" in before.stderr
    files = _files(root)

    follow_the_keyword_recipe(root)

    after = _answer(root, tmp_path, SCENARIO, "glimmer.mtg")
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

    tests = _python(
        root, "-m", "pytest", "-p", "no:cacheprovider", "-n0", "-v", "tests/test_702_999_glimmer.py"
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "3 passed" in tests.stdout, tests.stdout
    # nothing else changed: not the grammar, not its tables, not Python
    assert _changed(root, files) == KEYWORD_FILES


def test_the_recipe_for_a_new_kind_of_question_makes_it_answerable_and_touches_its_files(tmp_path):
    root = _copy(tmp_path)
    before = _answer(root, tmp_path, QUESTION_SCENARIO, "teammates.mtg")
    assert before.returncode == 2, before.stderr  # not a question yet
    files = _files(root)

    follow_the_question_recipe(root)

    after = _answer(root, tmp_path, QUESTION_SCENARIO, "teammates.mtg")
    assert after.returncode == 0, after.stderr
    ann, dan = json.loads(after.stdout)["answers"]
    # 102.3: the members of one team are teammates (810.1: a Two-Headed Giant team)
    assert (ann["ask"], ann["players"], dan["players"]) == ("teammates", ["Ben"], ["Cat"])
    assert "102.3" in ann["rules"]

    tests = _python(
        root, "-m", "pytest", "-p", "no:cacheprovider", "-n0", "-v", "tests/test_102_3_teammates.py"
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "14 passed" in tests.stdout, tests.stdout
    assert _changed(root, files) == QUESTION_FILES


def test_with_both_recipes_followed_the_whole_fast_tier_passes(tmp_path):
    """The recipes are complete: after them, no other test of the project
    fails (the matrix, the docs' checks, the registry's, the audit's)."""
    root = _copy(tmp_path)
    follow_the_keyword_recipe(root)
    follow_the_question_recipe(root)
    # as the README's command runs it: with the analysis cache (keyed by the rule
    # base's digest, so the copy's own), which the recipe runs above leave off
    fast = {**_env(root), "MTGKB_CACHE_DIR": str(tmp_path / "cache")}
    fast.pop("MTGKB_CACHE")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", "not slow"],
        capture_output=True,
        text=True,
        env=fast,
        cwd=root,
    )
    tail = "\n".join((run.stdout + run.stderr).splitlines()[-40:])
    assert run.returncode == 0, tail
    assert " passed" in run.stdout and " failed" not in run.stdout, tail
