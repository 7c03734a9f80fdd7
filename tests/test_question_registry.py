"""The one registry of questions (mtgkb.rulebase.registry): every kind the
grammar can write has an entry, and each entry's query, answering function
and text form exist; the rest of mtgkb reads its tables from it; and the
package imports no module that imports it back (no import cycle, counting
the imports made inside functions)."""

import ast
import io
import re
import subprocess
import sys

import pytest
from helpers import ROOT, find_cycle
from helpers.answering import engine
from rich.console import Console

from mtgkb.engine.session import Session
from mtgkb.language import model, parser
from mtgkb.language.facts import question_symbol, scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.output.text import TEXT_FORMS, print_result
from mtgkb.questions import answers
from mtgkb.questions.answers import Limits
from mtgkb.questions.explain import tables as explain
from mtgkb.rulebase import registry
from mtgkb.rulebase.location import query_file

SRC = ROOT / "src"
GRAMMAR = SRC / "mtgkb" / "language" / "grammar.lark"
ENTRIES = [pytest.param(e, id=e.kind) for e in registry.ENTRIES]


def grammar_kinds() -> set[str]:
    """The kinds the grammar's `ask` alternatives produce (`-> q_KIND`)."""
    return set(re.findall(r"->\s*q_(\w+)", GRAMMAR.read_text(encoding="utf-8")))


# --- every kind has one entry, and the entry's parts exist -------------------


def test_every_kind_the_grammar_writes_has_an_entry_and_no_entry_is_unwritten():
    written = grammar_kinds()
    assert {"legal", "attack_targets", "explain"} <= written  # the scan reads the grammar
    assert written - set(registry.KINDS) == set(), "kinds of the grammar without an entry"
    # the entries the grammar does not write are the ones the parser makes of another
    assert {e.kind for e in registry.ENTRIES if e.grammar} == written
    assert [e.kind for e in registry.ENTRIES if not e.grammar] == ["pay"]


def test_ask_can_pay_life_is_the_pay_entry():
    scenario = parse_text("players: Ann, Ben\nask can Ann pay 3 life\n", "<t>")
    (question,) = scenario.questions
    assert registry.get(question.kind) is registry.BY_KIND["pay"]


@pytest.mark.parametrize("entry", ENTRIES)
def test_each_entry_has_its_query_file(entry):
    assert query_file(entry.query).exists(), f"{entry.kind}: no queries/{entry.query}.lp"
    if entry.explained_by is not None:
        assert query_file(entry.explained_by).exists()


@pytest.mark.parametrize("entry", ENTRIES)
def test_each_entry_has_an_answering_function_and_a_text_form(entry):
    function = entry.answerer()
    assert callable(function)
    assert f"{function.__module__}:{function.__name__}" == entry.answer
    assert entry.text in TEXT_FORMS, f"{entry.kind}: no text form {entry.text!r}"


def test_every_text_form_is_some_entry_s():
    assert set(TEXT_FORMS) == {e.text for e in registry.ENTRIES}


def test_an_unknown_answering_function_is_an_error_not_a_silent_none():
    broken = registry.Entry("x", "x", "legal", "mtgkb.questions.answers:no_such", "legal")
    with pytest.raises(AttributeError):
        broken.answerer()


# --- the JSON name --------------------------------------------------------------


@pytest.mark.parametrize("entry", ENTRIES)
def test_the_json_name_round_trips(entry):
    assert registry.by_ask(registry.ask_name(entry.kind)) is entry
    assert registry.get(entry.kind) is entry


def test_json_names_and_kinds_are_unique():
    assert len(registry.BY_ASK) == len(registry.BY_KIND) == len(registry.ENTRIES)


# One question of every kind, each answered through the registry's dispatch.
EVERY_KIND = """players: Ann, Ben
Ann controls creature "Bear" 2/2
Ben controls creature "Wall" 0/4
"Bear" attacks Ben
"Wall" blocks "Bear"
ask legal
ask defending
ask attack targets for "Bear"
ask attacks
ask blocks
ask order
ask block order
ask damage order
ask knowledge
ask stack
ask outcome
ask can Ann pay 3 life
ask can "Wall" block "Bear"
ask fix
ask actions for Ann
ask assignments for "Bear"
ask explain legal
"""


def test_every_kind_is_answered_under_its_json_name_and_printed():
    scenario = parse_text(EVERY_KIND, "<every kind>")
    assert sorted(q.kind for q in scenario.questions) == sorted(registry.KINDS)
    facts = scenario_facts(scenario)
    session = Session(engine())  # one file's session, as the runner gives its questions
    given = [answers.answer(q, scenario, facts, Limits(), session) for q in scenario.questions]
    assert [a.get("supported", True) for a in given] == [True] * len(given)
    asks = [a["ask"] for a in given]
    assert asks[:3] == ["legal", "defending", "attack-targets"]
    assert [registry.by_ask(a).kind for a in asks] == [q.kind for q in scenario.questions]
    out = io.StringIO()
    print_result(Console(file=out, width=200), {"file": "<every kind>", "answers": given})
    printed = out.getvalue()
    for answer in given:  # each under its own title, at the top of the tree
        assert f"── ask {answer['ask'].replace('-', ' ')}" in printed
    assert "ask attack targets for Bear: Ben" in printed  # its text form, not just its title


def test_a_kind_without_an_entry_is_not_supported_under_its_own_name():
    question = model.Question(kind="no_such_kind")
    answer = answers.answer(question, None, [], Limits())
    assert answer["ask"] == "no_such_kind" and answer["supported"] is False


# --- the rest reads the registry -----------------------------------------------


def test_the_tables_elsewhere_are_the_registry_s():
    assert model.QUESTION_KINDS == registry.KINDS
    assert parser.EXPLAINED_KINDS is registry.EXPLAIN_WORDS
    assert answers.QUERY_OF is registry.QUERY_OF
    assert answers.SINGLE_MODEL_QUERIES is registry.SINGLE_MODEL_QUERIES
    assert set(answers.ANSWERS) == set(registry.KINDS)
    assert explain.QUERY_OF is registry.EXPLAINED_BY
    assert explain.NEEDS_PARAMETERS is registry.NEEDS_PARAMETERS
    from mtgkb.audit import checker
    from mtgkb.engine import solve

    assert solve.COUNTED_QUERIES is registry.COUNTED_QUERIES
    assert checker.ORDER_QUERIES is registry.ORDER_QUERIES


def test_fix_is_explained_by_the_declared_play_and_explain_by_nothing():
    assert registry.EXPLAINED_BY["fix"] == "legal"
    assert "explain" not in registry.EXPLAINED_BY


@pytest.mark.parametrize(
    "words,kind",
    [(w, e.kind) for e in registry.ENTRIES if e.explained_by for w in e.explain_words],
)
def test_ask_explain_names_each_explained_kind_by_its_words(words, kind):
    scenario = parse_text(f"players: Ann, Ben\nask explain {words}\n", "<t>")
    assert scenario.questions[0]["only"] == kind


@pytest.mark.parametrize(
    "line,symbol",
    [
        ("ask legal", "legal"),
        ("ask blocks", "blocks"),
        ("ask blocks for Ben", 'blocks("Ben")'),
        ('ask attack targets for "Bear"', 'attack_targets("Bear")'),
        ('ask assignments for "Bear"', 'assignments("Bear")'),
        ("ask can Ann pay 3 life", 'pay("Ann",3)'),
        ("ask actions for Ann", 'actions("Ann")'),
    ],
)
def test_the_asked_term_has_the_parameters_the_entry_names(line, symbol):
    text = f'players: Ann, Ben\nAnn controls creature "Bear" 2/2\n"Bear" attacks Ben\n{line}\n'
    (question,) = parse_text(text, "<t>").questions
    assert str(question_symbol(question)) == symbol


# --- no import cycle ------------------------------------------------------------


def _modules() -> dict[str, tuple]:
    out = {}
    for path in (SRC / "mtgkb").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, package)
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of imports under `if TYPE_CHECKING:` (never run)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return skip


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, at the top or inside a
    function (an `import` anywhere in its text, but under TYPE_CHECKING)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        here = name if package else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = alias.name
                    while target and target not in modules:
                        target = target.rpartition(".")[0]
                    if target:
                        found.add(target)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                for alias in node.names:
                    if f"{base}.{alias.name}" in modules:
                        found.add(f"{base}.{alias.name}")
                    elif base in modules:
                        found.add(base)
        found.discard(name)
        graph[name] = found
    return graph


@pytest.mark.slow  # the import graph of the whole package
def test_the_cycle_finder_names_a_cycle_it_is_given():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.slow  # the import graph of the whole package
def test_the_import_scan_sees_imports_inside_functions():
    graph = import_graph()
    # mtgkb.run imports its API module only when called
    assert "mtgkb.running.api" in graph["mtgkb"]
    assert "mtgkb.rulebase.registry" in graph["mtgkb.questions.answers"]


@pytest.mark.slow  # the import graph of the whole package
def test_the_package_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.slow  # the import graph of the whole package
def test_the_registry_imports_nothing_of_mtgkb_but_the_records_module():
    # (its Entry is a record: mtgkb.rulebase.records, which imports nothing of
    # mtgkb, so no cycle can pass through it; a plain dataclass compiled six
    # methods on every start)
    assert import_graph()["mtgkb.rulebase.registry"] == {"mtgkb.rulebase.records"}
    assert import_graph()["mtgkb.rulebase.records"] == set()
    code = (
        "import sys, mtgkb.rulebase.registry as r; [e.kind for e in r.ENTRIES]; "
        "print(sorted(m for m in sys.modules if m.startswith('mtgkb')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # (the package's own __init__ holds the collector off with
    # mtgkb.rulebase.collector, which imports nothing of mtgkb either)
    assert import_graph()["mtgkb.rulebase.collector"] == set()
    assert out.stdout.strip() == (
        "['mtgkb', 'mtgkb.rulebase', 'mtgkb.rulebase.collector', 'mtgkb.rulebase.records',"
        " 'mtgkb.rulebase.registry']"
    )
