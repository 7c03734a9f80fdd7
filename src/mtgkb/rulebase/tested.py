"""Which tests and examples exercise a CR rule: test functions named after
it (of the fast tier: a test marked `slow` does not count), and the rules
the examples' expected answers cite."""

from __future__ import annotations

import ast as pyast
import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from mtgkb.rulebase.encoded import default_root
from mtgkb.rulebase.index import normalize
from mtgkb.rulebase.location import file_stamp as stamp

# --------------------------------------------------------------------------
# Which tests and examples exercise a rule
# --------------------------------------------------------------------------


def _marked_slow(node) -> bool:
    """A test (or class) decorated `@pytest.mark.slow`, or a module whose
    `pytestmark` holds it: the slow tier, which the README's test command
    leaves out (pyproject.toml), so it counts for no rule's coverage."""
    if isinstance(node, pyast.Module):
        marks = [
            st.value
            for st in node.body
            if isinstance(st, pyast.Assign)
            and any(isinstance(t, pyast.Name) and t.id == "pytestmark" for t in st.targets)
        ]
    else:
        marks = getattr(node, "decorator_list", [])
    return any("mark.slow" in pyast.unparse(mark) for mark in marks)


def _test_functions(path: Path) -> list[str]:
    """The fast tier's test functions of one test file."""
    try:
        tree = pyast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, OSError):
        return []
    found = []

    def visit(node, prefix):
        if _marked_slow(node):
            return
        for child in getattr(node, "body", []):
            if isinstance(child, pyast.FunctionDef | pyast.AsyncFunctionDef):
                if child.name.startswith("test_") and not _marked_slow(child):
                    found.append(prefix + child.name)
            elif isinstance(child, pyast.ClassDef):
                visit(child, f"{prefix}{child.name}::")

    visit(tree, "")
    return found


def _number_tokens(number: str) -> list[str]:
    return number.replace(".", "_").split("_")


def names_rule(name: str, number: str) -> bool:
    """A test name names a rule when its `_`-separated words hold the number's parts."""
    words = name.lower().split("_")
    want = _number_tokens(number)
    n = len(want)
    return any(words[i : i + n] == want for i in range(len(words) - n + 1))


def _expected_citations(path: Path) -> set[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    cited: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("cites", "cites_any", "rules") and isinstance(item, list):
                    cited.update(normalize(str(x)) for x in item)
                elif key == "rule" and isinstance(item, str):
                    cited.add(normalize(item))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(data)
    return cited


def example_folders(root: Path) -> list[tuple[Path, str]]:
    """`examples/` and the shared conformance cases beside the checkout, where present."""
    folders = [
        (root / "examples", "examples"),
        (root.parent / "shared" / "conformance", "../shared/conformance"),
    ]
    return [(f, name) for f, name in folders if f.is_dir()]


@lru_cache(maxsize=8)
def _tests_cached(root: str, stamp: tuple) -> tuple[list[str], dict[str, set[str]]]:
    base = Path(root)
    tests = []
    for f in sorted((base / "tests").glob("*.py")):
        tests += [f"tests/{f.name}::{name}" for name in _test_functions(f)]
    examples: dict[str, set[str]] = {}
    for folder, name in example_folders(base):
        for exp in sorted(folder.glob("*.expected.json")):
            case = exp.name[: -len(".expected.json")] + ".mtg"
            examples[f"{name}/{case}"] = _expected_citations(exp)
    return tests, examples


def _test_sources(root: Path) -> tuple[list[str], dict[str, set[str]]]:
    files = sorted((root / "tests").glob("*.py"))
    for folder, _ in example_folders(root):
        files += sorted(folder.glob("*.expected.json"))
    return _tests_cached(str(root), stamp(files))


def tested_map(root: Path | None = None, numbers: Iterable[str] = ()) -> dict[str, list[str]]:
    """Each number -> the tests naming it and the examples whose expected answer cites it."""
    root = Path(root) if root is not None else default_root()
    tests, examples = _test_sources(root)
    out: dict[str, list[str]] = {}
    for num in numbers:
        found = [t for t in tests if names_rule(t.rsplit("::", 1)[-1], num)]
        found += [case for case, cited in examples.items() if num in cited]
        out[num] = found
    return out


def tested_by(number: str, root: Path | None = None) -> list[str]:
    """Tests whose name holds the number (`test_802_4a_...`) and examples citing it."""
    num = normalize(number)
    return tested_map(root, [num])[num]
