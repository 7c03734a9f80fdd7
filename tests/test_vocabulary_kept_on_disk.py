"""The vocabulary of the scenario language (kb/vocabulary.lp) is read with
clingo once, then from the user's cache of it (issue 26: every cold run
parses with it): the same vocabulary, a cache that is not sound is read
again from the file, and an edited file is read again."""

from __future__ import annotations

import shutil

import pytest
from helpers import counted_calls

from mtgkb.rulebase import vocabulary
from mtgkb.rulebase.disk_cache import store_checked
from mtgkb.rulebase.location import data_dir


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(folder))
    monkeypatch.delenv("MTGKB_CACHE", raising=False)
    vocabulary._read.cache_clear()
    yield folder
    vocabulary._read.cache_clear()


def _fresh(path=None) -> vocabulary.Vocabulary:
    vocabulary._read.cache_clear()
    return vocabulary._read(vocabulary.stamp([path or data_dir("kb") / vocabulary.FILE]))


def _not_read_with_clingo(files):
    raise AssertionError("the vocabulary was read with clingo")


def test_the_kept_vocabulary_is_the_one_read_with_clingo(cache, monkeypatch):
    read = _fresh()
    (kept,) = cache.glob("vocabulary*.bin")
    monkeypatch.setattr(vocabulary, "_read_file", _not_read_with_clingo)
    again = _fresh()
    assert again == read
    # 702.9 flying and 702.111 menace are keyword abilities a `with` list names
    names = {a.name for a in again.simple().values()}
    assert {"flying", "menace"} <= names
    assert ("flying", "702.9b") in again.evasion
    assert kept.exists()


@pytest.mark.parametrize(
    "poison",
    [
        ["not", "a", "tuple"],
        (),  # too few fields
        ((("flying", "flying", "no such shape"),), *[()] * 11),
        ((("flying", "flying"),), *[()] * 11),  # an ability without its shape
        ((), (7,), *[()] * 10),  # a number where a word goes
        ((), (), (("flying",),), *[()] * 9),  # a pair of one
    ],
)
def test_a_kept_vocabulary_that_is_not_sound_is_read_again(cache, monkeypatch, poison):
    read = _fresh()
    (kept,) = cache.glob("vocabulary*.bin")
    store_checked(cache, kept.name, poison, "vocabulary*.bin")
    calls = counted_calls(monkeypatch, vocabulary, "_read_file")
    assert _fresh() == read
    assert len(calls) == 1


def test_an_edited_vocabulary_is_read_again(cache, tmp_path):
    path = tmp_path / vocabulary.FILE
    shutil.copy(data_dir("kb") / vocabulary.FILE, path)
    first = _fresh(path)
    path.write_text(
        path.read_text(encoding="utf-8") + '\nability_word("test only word", flying, simple).\n',
        encoding="utf-8",
    )
    again = _fresh(path)
    assert "test only word" in again.simple() and "test only word" not in first.simple()
    assert len(list(cache.glob("vocabulary*.bin"))) == 2  # one a content
