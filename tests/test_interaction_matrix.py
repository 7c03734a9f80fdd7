"""The interaction matrix (tests/interaction_matrix.toml): every pair of a
setup feature (each variant, option, keyword ability, player ability, color
and counter kind of the rule base's vocabulary) and a kind of question (the
question registry) is covered by a test named after its deciding rule, by a
`not_modelled` declaration, or by an entry saying, with its CR reason, that
the feature cannot change that question's answer; those entries are checked
here by adding the feature to the question's scenario and finding the
answer unchanged.

The pairs are made from the vocabulary and the registry, so a feature or a
kind of question added later is a pair with no row until its rows are
written (docs/contributing.md, "The interaction matrix"). The independence
check is bounded: one scenario per kind of question with all its independent
features added at once, and a fixed-seed sample of single pairs.
"""

from __future__ import annotations

import ast
import fnmatch
import random
import tomllib
from functools import cache

import pytest
from helpers import ROOT

from mtgkb.audit.not_modelled import declarations
from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.rulebase import registry
from mtgkb.rulebase.vocabulary import vocabulary
from mtgkb.running.runner import answer_text

MATRIX = ROOT / "tests" / "interaction_matrix.toml"
CATEGORIES = ("tested", "not_modelled", "independent")
#: How many single independent pairs are checked besides the grouped ones.
SAMPLE = 24


@cache
def matrix() -> dict:
    with MATRIX.open("rb") as source:
        return tomllib.load(source)


def features() -> list[str]:
    """Every setup feature, from the rule base's vocabulary (and the language's colors
    and counter kinds)."""
    words = vocabulary()
    out = [f"variant:{v}" for v in words.games]
    out += [f"option:{o}" for o in words.options]
    out += [f"ability:{a}" for a in words.names()]
    out += [f"player:{p}" for p in words.player_abilities]
    out += [f"color:{c}" for c in vocabulary().colors]
    out += [f"counter:{k}" for k in matrix()["counters"]]
    return out


def kinds() -> list[str]:
    return [entry.kind for entry in registry.ENTRIES]


def _matches_feature(row: dict, feature: str) -> bool:
    return any(fnmatch.fnmatchcase(feature, p) for p in row["features"])


def _matches_kind(row: dict, kind: str) -> bool:
    return any(fnmatch.fnmatchcase(kind, q) for q in row["questions"])


def _matches(row: dict, feature: str, kind: str) -> bool:
    return _matches_feature(row, feature) and _matches_kind(row, kind)


@cache
def coverage() -> dict[tuple[str, str], list[tuple[str, dict]]]:
    """The rows covering each pair of a feature and a kind, with their category,
    in the matrix's order: each row's patterns are matched against the features
    and the kinds once (matching every pair against every row took two seconds
    of each test process's collection)."""
    table: dict[tuple[str, str], list[tuple[str, dict]]] = {}
    for category in CATEGORIES:
        for row in matrix().get(category, []):
            its_features = [f for f in features() if _matches_feature(row, f)]
            its_kinds = [k for k in kinds() if _matches_kind(row, k)]
            for feature in its_features:
                for kind in its_kinds:
                    table.setdefault((feature, kind), []).append((category, row))
    return table


def covering(feature: str, kind: str) -> list[tuple[str, dict]]:
    """The rows covering one pair of `pairs()`, with their category."""
    return coverage().get((feature, kind), [])


def pairs() -> list[tuple[str, str]]:
    return [(f, k) for f in features() for k in kinds()]


#: The kind of question whose answer only derives the others (queries/explain.lp):
#: a feature's pair with it is covered when its pairs with every other kind are.
DERIVED = "explain"


def covered(feature: str, kind: str) -> bool:
    if covering(feature, kind):
        return True
    if kind == DERIVED:
        return all(covered(feature, k) for k in kinds() if k != DERIVED)
    return False


def test_every_pair_is_covered():
    assert len(features()) >= 50 and len(kinds()) >= 15  # made from the rule base, not a list
    missing = [f"{f} x {k}" for f, k in pairs() if not covered(f, k)]
    assert not missing, f"{len(missing)} pairs have no row:\n" + "\n".join(missing)


def test_every_row_is_of_a_category_and_covers_some_pair():
    # no other category: a pair with no row fails test_every_pair_is_covered
    assert set(matrix()) <= {*CATEGORIES, "counters", "scenario"}, sorted(matrix())
    every = pairs()
    for category in CATEGORIES:
        for row in matrix().get(category, []):
            assert any(_matches(row, f, k) for f, k in every), (category, row)


# --------------------------------------------------------------------------
# tested: the test exists, and names the deciding rule


@cache
def _functions(path: str) -> dict[str, str]:
    source = (ROOT / path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    return {
        node.name: source
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


@pytest.mark.parametrize("row", matrix().get("tested", []), ids=lambda r: r["test"])
def test_a_tested_row_names_a_test_that_asserts_its_rule(row):
    path, _, name = row["test"].partition("::")
    functions = _functions(path)
    assert name in functions, f"{row['test']}: no such test"
    # the deciding rule is named where the test is (its module asserts it)
    assert row["rule"] in functions[name], f"{row['test']}: {row['rule']} is not named there"


# --------------------------------------------------------------------------
# not_modelled: declared in the rule base, for that kind of question


@pytest.mark.parametrize("row", matrix().get("not_modelled", []), ids=lambda r: r["rule"])
def test_a_not_modelled_row_is_declared_for_its_questions(row):
    found = [d for d in declarations([ROOT / "kb" / "not_modelled.lp"]) if d["rule"] == row["rule"]]
    assert found, f"kb/not_modelled.lp does not declare {row['rule']}"
    narrowed = set(found[0]["answers"])
    for kind in kinds():
        if any(fnmatch.fnmatchcase(kind, q) for q in row["questions"]) and narrowed:
            assert kind in narrowed, f"{row['rule']} is not declared for {kind}"


# --------------------------------------------------------------------------
# independent: the feature added, the answer unchanged


def _written(feature: str) -> str:
    """How a file writes the feature on an object (`with ...`) or a player."""
    category, _, name = feature.partition(":")
    words = vocabulary()
    if category == "color":
        return f"color {name}"
    if category == "player":
        if name == "protection":
            return "protection from red"
        phrases = [a.phrase for a in words.abilities if a.name == name and a.shape == "simple"]
        return phrases[0] if phrases else name
    shaped = [a for a in words.abilities if a.name == name]
    first = shaped[0]
    simple = [a.phrase for a in shaped if a.shape == "simple"]
    if simple:
        return simple[0]
    if first.shape == "player":
        return f"{first.phrase} Cat"
    if first.shape == "number":
        after = " ".join(words.words_after(name))
        return f"{first.phrase} 2 {after}".rstrip()
    if first.shape == "color":
        return f"{first.phrase} red"
    if first.shape == "counter":
        return f"{first.phrase} +1/+1 1"
    if first.shape == "type":
        return f"{first.phrase} mountain"
    if first.shape == "types":
        return f"{first.phrase} snow forest"
    return f"mountain{first.phrase}"  # a suffix


def with_feature(text: str, feature: str) -> str:
    """The scenario with the feature added: an ability or a color on Ann's first
    creature (Cat's new creature where Ann has none), Ben's player ability, Cat's
    counters, or the table's variant (its `game:` line)."""
    category = feature.partition(":")[0]
    lines = text.strip().splitlines()
    after = next(k for k, line in enumerate(lines) if line.startswith("active:")) + 1
    if category in ("ability", "color"):
        written = _written(feature)
        for k, line in enumerate(lines):
            if line.startswith(('Ann controls creature "', 'Cat controls creature "Bystander"')):
                lines[k] = line + (", " if " with " in line else " with ") + written
                break
        else:
            lines.insert(after, f'Cat controls creature "Bystander" 1/1 with {written}')
    elif category == "player":
        lines.insert(after, f"Ben has {_written(feature)}")
    elif category == "counter":
        lines.insert(after, matrix()["counters"][feature.partition(":")[2]])
    elif category == "variant":
        # the same table (Ann, Ben, Cat, attack-left) played as that variant
        game = feature.partition(":")[2].replace("_", "-")
        lines = [f"game: {game}" if line.startswith("game:") else line for line in lines]
    else:
        raise AssertionError(f"{feature}: the independence check adds objects' features only")
    return "\n".join(lines) + "\n"


@cache
def _engine() -> Engine:
    return Engine()


def answers_of(text: str) -> list[dict]:
    result = answer_text(text, "matrix.mtg", Limits(), engine=_engine())
    assert result.status in (0, 1), result.error
    return [{k: v for k, v in a.items() if k != "rules"} for a in result.output["answers"]]


def independent(kind: str) -> list[str]:
    return [f for f in features() if any(c == "independent" for c, _ in covering(f, kind))]


@pytest.mark.parametrize("kind", kinds())
def test_independent_features_together_leave_the_answer_unchanged(kind):
    found = independent(kind)
    if not found:
        pytest.skip(f"no feature is declared independent of {kind}")
    text = matrix()["scenario"][kind]["text"]
    before = answers_of(text)
    assert before and before[-1].get("supported", True)
    grouped = text
    for feature in found:
        grouped = with_feature(grouped, feature)
    assert answers_of(grouped) == before, grouped


def _sample() -> list[tuple[str, str]]:
    every = [(f, k) for k in kinds() for f in independent(k)]
    return sorted(random.Random(29).sample(every, min(SAMPLE, len(every))))


@pytest.mark.parametrize(("feature", "kind"), _sample())
def test_an_independent_feature_alone_leaves_the_answer_unchanged(feature, kind):
    text = matrix()["scenario"][kind]["text"]
    assert answers_of(with_feature(text, feature)) == answers_of(text)
