"""The rule index (kb/rule_index.lp) is read with clingo once, then from the
user's cache of its facts (issue 11, item 3: start fast): the same index,
and a cache that is not sound is read again from the file."""

import pytest
from helpers import counted_calls

from mtgkb.rulebase import index
from mtgkb.rulebase.disk_cache import store_checked


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(folder))
    monkeypatch.delenv("MTGKB_CACHE", raising=False)
    index._load.cache_clear()
    yield folder
    index._load.cache_clear()


def _fresh() -> index.RuleIndex:
    index._load.cache_clear()
    return index.load_index()


def _not_read_with_clingo(text):
    raise AssertionError("the index was read with clingo")


def test_the_cached_index_is_the_one_read_with_clingo(cache, monkeypatch):
    read = _fresh()
    (cached,) = cache.glob("rule-index-*.marshal")
    monkeypatch.setattr(index, "_read_facts", _not_read_with_clingo)
    again = _fresh()
    assert again == read
    # 119.3 (life totals change with damage) as the index says it, and an older number
    entry = index.lookup("119.3", index=again).entry
    assert entry.id == "119.3" and entry.text("en")
    assert index.lookup("118.3", edition="2019-06-12", index=again).entry.id == "119.3"
    assert cached.exists()


@pytest.mark.parametrize(
    "poison",
    [
        ["not", "a", "dict"],
        {"cr_rule": [["119.3", 7]]},  # a number where a string goes
        {"cr_rule": "119.3"},
        {3: [["119.3"]]},
    ],
)
def test_a_cache_that_is_not_sound_is_read_again(cache, monkeypatch, poison):
    read = _fresh()
    (cached,) = cache.glob("rule-index-*.marshal")
    store_checked(cache, cached.name, poison, "rule-index-*")
    calls = counted_calls(monkeypatch, index, "_read_facts")
    assert _fresh() == read and len(calls) == 1


def test_no_cache_with_mtgkb_cache_0(tmp_path, monkeypatch):
    monkeypatch.setenv("MTGKB_CACHE", "0")
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(tmp_path / "cache"))
    try:
        assert "119.3" in _fresh()
    finally:
        index._load.cache_clear()
    assert not (tmp_path / "cache").exists()
