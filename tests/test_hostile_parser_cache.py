"""No pickle from a shared folder (issue 15, item 3).

Lark's `cache=True` unpickled `$TMPDIR/.lark_cache_<user>_<hash>_<py>.tmp`, a
predictable name in a world-writable folder: another local user who planted
it ran code as the mtgkb user. The parser is now built ahead of time: its
LALR tables ship in the package as JSON (mtgkb/language/grammar_tables.json, made by
`python -m mtgkb.language.grammar_build`), and nothing is read from or written to any
cache folder."""

import json
import os
import subprocess
import sys
from pathlib import Path

import lark
import pytest
from helpers import CONFORMANCE, ROOT

from mtgkb.language import grammar_build, parser
from mtgkb.language.grammar_build import (
    GRAMMAR,
    TABLES,
    build_from_grammar,
    grammar_digest,
    load_tables,
)

# The slow tier (processes with a damaged parser cache):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

# A planted cache: Lark checks the first line (the hash), then unpickles.
PLANT = r"""
import os, pickle, sys, tempfile
from lark import Lark
from mtgkb.language.grammar_build import GRAMMAR, OPTIONS
text = GRAMMAR.read_text(encoding="utf-8")
Lark(text, cache=True, **OPTIONS)  # the file the old mtgkb.language.parser.grammar() kept
folder = tempfile.gettempdir()
(name,) = [n for n in os.listdir(folder) if n.startswith(".lark_cache_")]
path = os.path.join(folder, name)
with open(path, "rb") as f:
    first = f.readline()


class Payload:
    def __reduce__(self):
        return (open, (sys.argv[1], "w"))


with open(path, "wb") as f:
    f.write(first)
    pickle.dump(Payload(), f)
print(path)
"""


def env_with_tmpdir(folder: Path) -> dict:
    env = dict(os.environ)
    env["TMPDIR"] = str(folder)
    return env


def test_the_shipped_tables_are_those_of_the_grammar():
    shipped = json.loads(TABLES.read_text(encoding="utf-8"))
    assert shipped["grammar_sha256"] == grammar_digest(GRAMMAR.read_text(encoding="utf-8")), (
        "grammar.lark changed: run `python -m mtgkb.language.grammar_build`"
        " and commit grammar_tables.json"
    )
    assert shipped["lark_version"] == lark.__version__, "rebuild the tables for this Lark"


def test_the_parser_comes_from_the_shipped_tables(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the parser was built, not loaded")

    monkeypatch.setattr(grammar_build, "build_from_grammar", refuse)
    parser.grammar.cache_clear()
    try:
        loaded = parser.grammar()
        assert loaded.options.parser == "lalr" and loaded.options.lexer == "contextual"
        assert loaded.options.cache is False
    finally:
        parser.grammar.cache_clear()


def scenario_files() -> list[Path]:
    found = sorted((ROOT / "examples").glob("*.mtg"))
    if CONFORMANCE.is_dir():
        found += sorted(CONFORMANCE.glob("*.mtg"))
    return found


def test_the_loaded_parser_reads_every_file_as_the_built_one():
    text = GRAMMAR.read_text(encoding="utf-8")
    loaded, built = load_tables(text), build_from_grammar(text)
    assert loaded is not None
    files = scenario_files()
    assert files
    for path in files:
        source = path.read_text(encoding="utf-8") + "\n"
        try:
            expected = built.parse(source)
        except lark.exceptions.UnexpectedInput as err:
            with pytest.raises(type(err)):
                loaded.parse(source)
            continue
        assert loaded.parse(source) == expected, path


def test_tables_of_another_grammar_are_not_used(tmp_path):
    text = GRAMMAR.read_text(encoding="utf-8")
    assert load_tables(text + "\n// edited\n") is None
    broken = tmp_path / "tables.json"
    for damaged in ("", "[]", "{}", '{"grammar_sha256": 5}', TABLES.read_text()[:5000]):
        broken.write_text(damaged)
        assert load_tables(text, broken) is None


def test_a_planted_lark_cache_is_never_read(tmp_path):
    marker = tmp_path / "payload-ran"
    planted = subprocess.run(
        [sys.executable, "-c", PLANT, str(marker)],
        env=env_with_tmpdir(tmp_path),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert planted.returncode == 0, planted.stderr
    # the plant is real: Lark's own cache loading runs it
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "from lark import Lark; from mtgkb.language.grammar_build import GRAMMAR, OPTIONS\n"
            "try:\n    Lark(GRAMMAR.read_text(encoding='utf-8'), cache=True, **OPTIONS)\n"
            "except Exception:\n    pass\n",
        ],
        env=env_with_tmpdir(tmp_path),
        capture_output=True,
        cwd=ROOT,
    )
    assert marker.exists(), check.stderr
    marker.unlink()
    before = sorted(p.name for p in tmp_path.iterdir())
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mtgkb",
            "run",
            "--timeout",
            "30",
            "examples/02_multiplayer_combat.mtg",
        ],
        env=env_with_tmpdir(tmp_path),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists(), "mtgkb unpickled the planted cache"
    # and mtgkb left nothing of its own in the shared folder
    assert sorted(p.name for p in tmp_path.iterdir()) == before
