"""Batch runs give the answers of one process: `--jobs` (a local process pool)
and Dask (a LocalCluster started here) on the same corpus; and the speed-ups
of mtgkb.engine.solve (slicing, shared groundings, counting in clasp) change no
answer."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
from helpers import CONFORMANCE, ROOT, canonical_answers, examples, scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgkb.engine.state import Engine, Options
from mtgkb.questions.answers import Limits
from mtgkb.running.batch import answer_files, answer_in_pool, answer_on_dask, answer_path
from mtgkb.running.runner import answer_text

sys.path.insert(0, str(ROOT))
from bench.generate import combat, enumeration  # noqa: E402

# The slow tier (batches in worker processes and on Dask):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

QUESTIONS = ("legal", "outcome", "defending", "blocks limit 3", "block order", "damage order")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[str]:
    """Shared conformance cases, the examples, generated combats, a count
    past --max-models, a syntax error and a missing file."""
    folder = tmp_path_factory.mktemp("corpus")
    paths = sorted(str(p) for p in CONFORMANCE.glob("*.mtg")) if CONFORMANCE.is_dir() else []
    paths += sorted(str(p) for p in (ROOT / "examples").glob("*.mtg"))
    for seed in range(10):
        path = folder / f"combat_{seed}.mtg"
        path.write_text(combat(seed, players=3 + seed % 3, creatures=4, questions=QUESTIONS))
        paths.append(str(path))
    (folder / "enumeration.mtg").write_text(enumeration(blockers=4, attackers=3))
    (folder / "broken.mtg").write_text("players: Ann, Ben\nAnn controls creature\n")
    paths += [str(folder / "enumeration.mtg"), str(folder / "broken.mtg")]
    paths.append(str(folder / "missing.mtg"))
    return paths


LIMITS = Limits(max_models=50)


@pytest.fixture(scope="module")
def single(corpus) -> list[dict]:
    return [answer_path(path, LIMITS).output for path in corpus]


def _statuses(results) -> list[int]:
    return [r.status for r in results]


def test_a_batch_in_one_process_gives_the_answers_of_each_file(corpus, single):
    # questions with one answer per scenario are solved for a chunk at once
    results = list(answer_files(corpus, LIMITS))
    assert [r.output for r in results] == single
    assert _statuses(results) == [answer_path(p, LIMITS).status for p in corpus]


def test_jobs_give_the_answers_of_one_process(corpus, single):
    results = list(answer_in_pool(corpus, LIMITS, jobs=2))
    assert [r.output for r in results] == single
    assert _statuses(results) == [answer_path(p, LIMITS).status for p in corpus]
    assert {2} <= set(_statuses(results))  # the broken and the missing file


def test_jobs_with_a_timeout_give_the_same_answers(corpus, single):
    limits = Limits(max_models=50, timeout=3600)  # a time-out: its own path, never reached
    results = list(answer_in_pool(corpus, limits, jobs=2))
    assert [r.output for r in results] == single


def test_dask_gives_the_answers_of_one_process(corpus, single):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        results = list(answer_on_dask(corpus, LIMITS, cluster.scheduler_address))
    # each answer names the rule base of the worker that gave it: here, this checkout's
    assert {r.output.pop("rule_base")["path"] for r in results} == {str(ROOT)}
    assert [r.output for r in results] == single


def _engine(**off) -> Engine:
    """An engine with these options switched (the others from the environment)."""
    return Engine(Options.from_env().but(**off))


@pytest.mark.parametrize("option", ["slicing", "share", "fast_count"])
def test_each_speed_up_keeps_every_answer(corpus, single, option):
    engine = _engine(**{option: False})
    readable = [p for p in corpus if Path(p).exists()]
    slow = [answer_path(p, LIMITS, engine).output for p in readable]
    fast = [single[corpus.index(p)] for p in readable]
    assert [canonical_answers(o) for o in slow] == [canonical_answers(o) for o in fast]


def test_counting_in_clasp_counts_what_python_counts():
    text = enumeration(blockers=4, attackers=2)  # 3^4 = 81 declarations

    def ask(max_models: int, engine: Engine) -> dict:
        return answer_text(text, "x", Limits(max_models=max_models), engine=engine).output[
            "answers"
        ][0]

    fast, capped = ask(1000, _engine()), ask(50, _engine())
    by_enumeration = _engine(count_parts=False)
    counted, stopped = ask(1000, by_enumeration), ask(50, by_enumeration)
    slow = ask(1000, _engine(count_parts=False, fast_count=False))
    assert fast["count"] == counted["count"] == slow["count"] == 81
    assert fast["complete"] and counted["complete"] and slow["complete"]
    # counted by parts, the cap bounds only the listing and the count stays exact;
    # by enumeration alone it is a lower bound
    assert (capped["count"], capped["complete"]) == (81, True)
    assert (stopped["count"], stopped["complete"]) == (50, False)
    assert len(fast["assignments"]) == 5


@settings(
    max_examples=examples(3),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(scenario(), min_size=20, max_size=20))
def test_a_batch_of_scenarios_from_the_grammar_answers_as_each_alone(texts):
    # every variant, event and question the grammar offers, solved chunk-wise
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i, text in enumerate(texts):
            path = Path(folder) / f"s{i}.mtg"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        alone = [answer_path(p, LIMITS) for p in paths]
        together = list(answer_files(paths, LIMITS))
    assert [r.output for r in together] == [r.output for r in alone]
    assert _statuses(together) == _statuses(alone)


def test_a_chunk_too_small_to_pay_for_the_rewrite_is_answered_file_by_file(
    corpus, single, monkeypatch
):
    # solving a chunk's scenarios at once first rewrites the rule base for it
    # (COMBINE_FROM, measured); fewer files than that are answered one by one,
    # with the same answers
    from mtgkb.engine import scenarios
    from mtgkb.running import batch

    calls = []
    original = scenarios.solve_many
    monkeypatch.setattr(
        scenarios, "solve_many", lambda *a, **k: calls.append(1) or original(*a, **k)
    )
    few = [p for p in corpus if Path(p).exists()][: batch.COMBINE_FROM - 1]
    engine = Engine()
    assert [r.output for r in batch.answer_files(few, LIMITS, engine=engine)] == [
        single[corpus.index(p)] for p in few
    ]
    assert calls == []
    enough = [p for p in corpus if Path(p).exists()][: batch.COMBINE_FROM]
    assert [r.output for r in batch.answer_files(enough, LIMITS, engine=engine)] == [
        single[corpus.index(p)] for p in enough
    ]
    assert calls  # the chunk's scenarios solved at once


BAD_TABLES = [
    # 810.1: a two-headed-giant game is played by exactly two teams
    "game: two-headed-giant\nplayers: A, B, C, D, E, F\n"
    "team X: A, B\nteam Y: C, D\nteam Z: E, F\nask legal\n",
    # 806.2b: one attack option
    "game: free-for-all\noption: attack-left\noption: attack-right\nplayers: A, B, C\nask legal\n",
    # a name the table does not know, found with the faults of one statement
    'players: A, B\nA controls creature "X" 1/1\n"X" attacks C\nask legal\n',
    "ask legal\n",  # no players
    "players: Ann, Ben\nAnn controls creature\n",  # not the language
]


def test_a_chunks_tables_are_checked_in_one_grounding_with_each_ones_errors(tmp_path, monkeypatch):
    # a batch solves the input checks (rules/100_input_checks.lp) of a
    # chunk's tables at once; each file gets the error, or the answers, it
    # gets alone
    from mtgkb.language import checks
    from mtgkb.running import batch

    paths = []
    texts = BAD_TABLES + [combat(seed, questions=("legal", "outcome")) for seed in range(12)]
    for i, text in enumerate(texts):
        path = tmp_path / f"f{i:02}.mtg"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    assert len(paths) >= batch.COMBINE_FROM
    alone = [answer_path(p, LIMITS) for p in paths]
    alone_calls = []
    original = checks.input_errors
    monkeypatch.setattr(
        checks, "input_errors", lambda *a, **k: alone_calls.append(1) or original(*a, **k)
    )
    together = list(answer_files(paths, LIMITS, engine=Engine()))
    assert [r.output for r in together] == [r.output for r in alone]
    assert _statuses(together) == _statuses(alone)
    assert alone_calls == []  # no table was checked alone
    errors = [r.output.get("error", "") for r in together[: len(BAD_TABLES)]]
    assert "(810.1)" in errors[0] and "(806.2b)" in errors[1]
    assert all(r.status == 2 for r in together[: len(BAD_TABLES)])
