"""The packages of src/mtgkb run one way (docs/contributing.md, "The order of
the packages"), read from the source with `ast`:

- a module imports only from its own package and from the packages below
  it in LAYERS, whether the import is at the top of the module, inside a
  function or under `if TYPE_CHECKING:`;
- no import cycle between packages;
- no private name (`_x`, not a dunder like `__version__`) of one module is
  imported by another, nor read from it as `module._x`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import ROOT, find_cycle

# slow tier: the import graph of the whole package (order, cycles, private names)
pytestmark = pytest.mark.slow

SOURCE = ROOT / "src"

#: From the bottom up: each package may import those before it, never one
#: after. `mtgkb` is the package's own `__init__` (`mtgkb.run`,
#: `mtgkb.Answerer`), on top with the command line.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("rulebase",),
    ("engine",),
    ("language",),
    ("questions",),
    ("output",),
    ("running",),
    ("audit",),
    ("serve",),
    ("cli", "__main__", "mtgkb"),
)
RANK = {package: rank for rank, names in enumerate(LAYERS) for package in names}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, `mtgkb.engine.solve`
    line: int
    target: str  # the module imported from, `mtgkb.rulebase.control`
    name: str | None  # the name imported from it (None: the module itself)

    def where(self) -> str:
        return f"src/{self.module.replace('.', '/')}.py:{self.line}"


def modules(source: Path = SOURCE) -> dict[str, tuple[Path, bool]]:
    """Every module of the package: its dotted name, its file, whether it is
    a package's `__init__`."""
    found = {}
    for path in sorted(source.rglob("*.py")):
        parts = list(path.relative_to(source).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, package)
    return found


def package_of(module: str) -> str:
    """`mtgkb.engine.solve` -> `engine`; `mtgkb.cli` -> `cli`; `mtgkb` -> `mtgkb`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imports(module: str, tree: ast.Module, package: bool, known) -> list[Import]:
    """The imports of mtgkb in one module's tree, wherever they are."""
    here = module if package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mtgkb":
                    found.append(Import(module, node.lineno, alias.name, None))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if base.split(".")[0] != "mtgkb":
                continue
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.append(Import(module, node.lineno, f"{base}.{alias.name}", None))
                else:
                    found.append(Import(module, node.lineno, base, alias.name))
    return found


def private_reads(module: str, tree: ast.Module, found: list[Import]) -> list[Import]:
    """`alias._x` where `alias` names a module of mtgkb imported here."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("mtgkb.") and alias.asname:
                    aliases[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                target = next(
                    (i.target for i in found if i.line == node.lineno and i.name is None), None
                )
                if target and target.endswith("." + alias.name):
                    aliases[alias.asname or alias.name] = target
    return [
        Import(module, node.lineno, aliases[node.value.id], node.attr)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in aliases
        and is_private(node.attr)
    ]


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def scan(source: Path = SOURCE) -> tuple[list[Import], list[Import]]:
    """Every import of mtgkb in the package, and every read of a private name
    of another module."""
    known = modules(source)
    everything, private = [], []
    for module, (path, package) in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = imports(module, tree, package, known)
        everything += found
        private += [i for i in found if i.name and is_private(i.name) and i.target != module]
        private += private_reads(module, tree, found)
    return everything, private


def against_the_order(found: list[Import]) -> list[str]:
    out = []
    for i in found:
        low, high = package_of(i.target), package_of(i.module)
        if i.name and i.target == "mtgkb" and i.name.startswith("__"):
            continue  # `mtgkb.__version__`: data of the distribution, not code
        if RANK[low] > RANK[high]:
            out.append(f"{i.where()}: {package_of(i.module)} imports {i.target} ({low}), above it")
    return out


def package_cycle(found: list[Import]) -> list[str] | None:
    """One cycle between packages as a path a -> ... -> a, or None."""
    graph: dict[str, set[str]] = {}
    for i in found:
        a, b = package_of(i.module), package_of(i.target)
        if a != b and not (i.target == "mtgkb" and (i.name or "").startswith("__")):
            graph.setdefault(a, set()).add(b)
    return find_cycle(graph)


# --- the package as it is -----------------------------------------------------


def test_every_package_has_its_place_in_the_order():
    packages = {package_of(m) for m in modules()}
    assert packages == set(RANK), "add the package to LAYERS and to docs/contributing.md"


def test_no_import_runs_against_the_order_of_the_packages():
    found, _ = scan()
    wrong = against_the_order(found)
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle_between_packages():
    found, _ = scan()
    cycle = package_cycle(found)
    assert cycle is None, "cycle between packages: " + " -> ".join(cycle or [])


def test_no_module_imports_a_private_name_of_another():
    _, private = scan()
    wrong = [f"{i.where()}: {i.target}.{i.name} is private to its module" for i in private]
    assert not wrong, "\n".join(wrong)


def test_the_order_is_the_one_docs_contributing_shows():
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    table = text.split("## The order of the packages", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "`" in line]
    shown = [
        tuple(sorted(name.strip().strip("`") for name in row.split("|")[2].split(",")))
        for row in rows
    ]
    assert shown == [tuple(sorted(names)) for names in reversed(LAYERS)]


# --- the checks themselves, on a package made for them -------------------------


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "mtgkb" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_the_checks_find_an_upward_import_a_cycle_and_a_private_name(tmp_path):
    source = _write(
        tmp_path,
        {
            "__init__.py": "",
            "rulebase/__init__.py": "",
            "rulebase/location.py": (
                "def f():\n"
                "    from mtgkb.engine.solve import solve\n"  # upward, inside a function
                "    from ..engine import state\n"  # upward, relative
                "    return state._options\n"  # a private name read as module._x
            ),
            "engine/__init__.py": "",
            "engine/solve.py": "from mtgkb.rulebase.location import _hidden, f\nsolve = f\n",
            "engine/state.py": "_options = 1\n",
        },
    )
    found, private = scan(source)
    wrong = against_the_order(found)
    assert [w.split(": ")[0].rsplit("/", 1)[1] for w in wrong] == ["location.py:2", "location.py:3"]
    assert package_cycle(found) == ["engine", "rulebase", "engine"]
    assert {(i.target, i.name) for i in private} == {
        ("mtgkb.rulebase.location", "_hidden"),
        ("mtgkb.engine.state", "_options"),
    }


def test_the_checks_pass_imports_that_run_down_the_order(tmp_path):
    source = _write(
        tmp_path,
        {
            "__init__.py": "__version__ = '1'\n",
            "rulebase/__init__.py": "",
            "rulebase/location.py": "from .tags import TAG\n",
            "rulebase/tags.py": "TAG = 1\n",
            "engine/__init__.py": "",
            "engine/solve.py": (
                "from mtgkb.rulebase import location\nfrom mtgkb import __version__\n"
            ),
        },
    )
    found, private = scan(source)
    assert against_the_order(found) == [] and package_cycle(found) is None and private == []
