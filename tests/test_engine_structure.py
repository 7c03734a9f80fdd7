"""The package's structure, read from its source with `ast` (issue 9, item 5):
one module makes clingo Controls, and no state lives at module level.

- Only mtgkb/rulebase/control.py calls `clingo.Control`: how clingo is set up
  is decided in one place.
- No `global` statement: state is held by an object that is passed down
  (mtgkb.engine.Engine, mtgkb.engine.Session), not by the module.
- No module-level dict, list or set (or a call that makes one) that a
  function mutates: constants (tuples, frozensets, MappingProxyType) are
  fine, and so is a table filled in while the module is imported.
"""

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "mtgkb"
CONTROL_MODULE = "rulebase/control.py"

# Calls that make a mutable container, by their last name (`collections.deque`).
MAKERS = frozenset(
    {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"}
)
# Methods that change a dict, list, set or deque in place.
MUTATORS = frozenset(
    {
        "append",
        "appendleft",
        "add",
        "clear",
        "discard",
        "extend",
        "extendleft",
        "insert",
        "pop",
        "popitem",
        "popleft",
        "remove",
        "reverse",
        "setdefault",
        "sort",
        "update",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
    }
)
CONTAINER_NODES = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


@cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for all the checks (none changes it)."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _makes_container(value: ast.AST | None) -> bool:
    if isinstance(value, CONTAINER_NODES):
        return True
    return isinstance(value, ast.Call) and _called_name(value) in MAKERS


def _top_level(tree: ast.Module):
    """The module's own statements, including those inside top-level if/try/with."""
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for name in ("body", "orelse", "finalbody"):
                todo.extend(getattr(node, name, []))
            for handler in getattr(node, "handlers", []):
                todo.extend(handler.body)


def module_containers(tree: ast.Module) -> dict[str, int]:
    """Module-level names bound to a mutable container: name -> line."""
    found: dict[str, int] = {}
    for node in _top_level(tree):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        else:
            continue
        if not _makes_container(value):
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                found[target.id] = node.lineno
    return found


def _locals(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """The names a function binds itself (parameters, assignments, loops)."""
    args = function.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
    return names


def _mutated_name(node: ast.AST) -> ast.Name | None:
    """The plain name a statement or call changes in place, if any."""
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                return target.value
            if isinstance(node, ast.AugAssign) and isinstance(target, ast.Name):
                return target  # `NAME += [...]` changes a list in place
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in MUTATORS and isinstance(node.func.value, ast.Name):
            return node.func.value
    return None


def mutations(tree: ast.Module, containers: dict[str, int]):
    """(name, line) of each change, inside a function, of a module-level container."""
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        own = _locals(function)
        for node in ast.walk(function):
            name = _mutated_name(node)
            if name is None or name.id not in containers:
                continue
            if name.id in own and not isinstance(node, ast.AugAssign):
                continue  # a local of the same name
            yield name.id, node.lineno


def control_calls(tree: ast.Module):
    """Lines that call `clingo.Control` (or a `Control` imported from clingo)."""
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "clingo":
            imported |= {a.asname or a.name for a in node.names if a.name == "Control"}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "Control"
            and isinstance(func.value, ast.Name)
            and func.value.id == "clingo"
        ) or (isinstance(func, ast.Name) and func.id in imported):
            yield node.lineno


def test_the_package_is_found():
    found = {relative(p) for p in modules()}
    assert CONTROL_MODULE in found
    assert "engine/solve.py" in found


def test_only_rulebase_control_makes_a_clingo_control():
    offenders = [
        f"src/mtgkb/{relative(path)}:{line}: calls clingo.Control; "
        f"make it with mtgkb.rulebase.control.new_control"
        for path in modules()
        if relative(path) != CONTROL_MODULE
        for line in control_calls(parsed(path))
    ]
    assert not offenders, "\n".join(offenders)
    assert list(control_calls(parsed(PACKAGE / CONTROL_MODULE))), "control.py makes the Control"


def test_no_global_statement():
    offenders = [
        f"src/mtgkb/{relative(path)}:{node.lineno}: `global {', '.join(node.names)}`: "
        "hold the state in an object that is passed down (mtgkb.engine.Engine or Session)"
        for path in modules()
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.Global)
    ]
    assert not offenders, "\n".join(offenders)


def test_no_module_level_container_is_mutated_by_a_function():
    offenders = []
    for path in modules():
        tree = parsed(path)
        containers = module_containers(tree)
        for name, line in mutations(tree, containers):
            offenders.append(
                f"src/mtgkb/{relative(path)}:{line}: a function changes `{name}`, "
                f"a module-level container (bound at line {containers[name]}); "
                "make it a constant (tuple, frozenset, MappingProxyType) or hold it in an object"
            )
    assert not offenders, "\n".join(offenders)


# --- the checks catch what they are meant to catch ------------------------


@pytest.mark.parametrize(
    "source, line",
    [
        ("CACHE = {}\ndef f(k):\n    CACHE[k] = 1\n", 3),
        ("SEEN = set()\ndef f(k):\n    SEEN.add(k)\n", 3),
        (
            "from collections import defaultdict\nD = defaultdict(list)\ndef f():\n    D.clear()\n",
            4,
        ),
        ("L: list = []\ndef f():\n    L.append(1)\n", 3),
        ("L = []\ndef f():\n    del L[0]\n", 3),
        ("L = []\nclass C:\n    def m(self):\n        L.extend([1])\n", 4),
    ],
)
def test_a_mutated_module_container_is_found(source, line):
    tree = ast.parse(source)
    assert [found for _, found in mutations(tree, module_containers(tree))] == [line]


@pytest.mark.parametrize(
    "source",
    [
        "TABLE = {}\nTABLE['a'] = 1\n",  # filled while imported
        "T = {}\ndef f():\n    T = {}\n    T['a'] = 1\n",  # a local of the same name
        "T = frozenset()\ndef f():\n    return T | {1}\n",
        "T = {}\ndef f():\n    return dict(T)\n",
    ],
)
def test_constants_and_locals_are_not_flagged(source):
    tree = ast.parse(source)
    assert list(mutations(tree, module_containers(tree))) == []


def test_a_control_call_is_found():
    tree = ast.parse("import clingo\nctl = clingo.Control(['-n0'])\n")
    assert list(control_calls(tree)) == [2]
    tree = ast.parse("from clingo import Control as C\nctl = C()\n")
    assert list(control_calls(tree)) == [2]


# --- the objects that hold the state ----------------------------------------


def test_options_are_read_from_the_environment_when_an_engine_is_made():
    from mtgkb.engine.state import Options

    off = Options.from_env({"MTGKB_SLICING": "0", "MTGKB_COMBINE": "off", "MTGKB_CACHE": "no"})
    assert (off.slicing, off.combine, off.share, off.cache_dir) == (False, False, True, None)
    assert off.but(slicing=True).slicing is True and off.slicing is False
    with pytest.raises(TypeError, match="no such engine option"):
        off.but(slicng=True)


def test_one_engine_reads_the_rule_base_once_for_many_files(tmp_path):
    from helpers import ILLEGAL_BLOCK_PLAY

    from mtgkb.engine.state import Engine
    from mtgkb.questions.answers import Limits
    from mtgkb.running.batch import answer_files

    examples = sorted(str(p) for p in (PACKAGE.parents[1] / "examples").glob("0[12]_*.mtg"))
    illegal = tmp_path / "illegal.mtg"
    illegal.write_text(ILLEGAL_BLOCK_PLAY + "ask legal\n", encoding="utf-8")
    engine = Engine()
    base = engine.rule_base()
    results = list(answer_files([*examples, str(illegal)], Limits(), engine=engine))
    assert [r.status for r in results] == [0, 0, 1]  # 802.4a forbids the declared block
    assert results[2].output["answers"][0]["rules"] == ["802.4a", "802.4b"]
    assert engine.rule_base() is base and base.controls >= 3
    assert base._analysis is not None  # analysed once, kept


def test_each_file_and_chunk_has_its_own_session():
    from mtgkb.engine.session import Session
    from mtgkb.engine.state import Engine

    engine = Engine()
    one, other = Session(engine), Session(engine)
    one.ahead["key"] = []
    assert other.ahead == {} and one.engine is other.engine
    one.end_file()
    assert one.groundings is None
