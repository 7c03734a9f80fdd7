"""The tests come in two tiers (pyproject.toml): the fast tier is the README's
test command, the slow tier (`pytest -m slow`) runs in .ci/run after it. The
fast tier alone covers every CR rule in scope: the audit's coverage
(mtgkb.rulebase.tested) counts only its tests and the examples."""

from __future__ import annotations

import ast
import tomllib

from helpers import ROOT

from mtgkb.rulebase import tested
from mtgkb.rulebase.index import load_index


def test_every_cr_rule_in_scope_is_tested_by_the_fast_tier():
    index = load_index()
    in_scope = [entry.id for entry in index if not entry.relied_on]
    covered = tested.tested_map(ROOT, in_scope)
    untested = [number for number in in_scope if not covered[number]]
    assert in_scope and not untested, f"no fast test or example names {untested}"


def test_the_readme_command_runs_the_fast_tier_only():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = config["tool"]["pytest"]["ini_options"]
    assert "-m 'not slow'" in pytest_options["addopts"]
    assert any(marker.startswith("slow:") for marker in pytest_options["markers"])
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'MTGKB_EXAMPLES=all .venv/bin/python -m pytest -m "slow or hypothesis"' in ci


def test_test_modules_import_shared_helpers_only_from_the_helpers_package():
    wrong = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            for name in names:
                if name.split(".")[0].startswith("test_") or name == "conftest":
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports {name}")
    assert not wrong, "import it from tests/helpers/ instead:\n" + "\n".join(wrong)


def test_a_test_marked_slow_counts_for_no_rule(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\n"
        "def test_101_4_fast(): pass\n"
        "@pytest.mark.slow\n"
        "def test_101_4a_slow(): pass\n"
        "@pytest.mark.slow\n"
        "class TestSlow:\n"
        "    def test_101_4b_in_a_slow_class(self): pass\n",
        encoding="utf-8",
    )
    (tmp_path / "tests" / "test_y.py").write_text(
        "import pytest\npytestmark = [pytest.mark.slow]\ndef test_101_4c_slow_module(): pass\n",
        encoding="utf-8",
    )
    found = tested.tested_map(tmp_path, ["101.4", "101.4a", "101.4b", "101.4c"])
    assert found == {
        "101.4": ["tests/test_x.py::test_101_4_fast"],
        "101.4a": [],
        "101.4b": [],
        "101.4c": [],
    }
