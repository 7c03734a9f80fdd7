"""The words of the answers (kb/messages.lp, kb/texts.lp) are read with
clingo once, then from the user's cache of them (issue 26: `ask explain`'s
cold run): the same tables, a cache that is not sound is read again from
the files, and an edit of a word file reads them again."""

from __future__ import annotations

import shutil

import pytest
from helpers import counted_calls

from mtgkb.rulebase import words
from mtgkb.rulebase.disk_cache import store_checked
from mtgkb.rulebase.location import data_dir


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(folder))
    monkeypatch.delenv("MTGKB_CACHE", raising=False)
    words._tables.cache_clear()
    yield folder
    words._tables.cache_clear()


def _fresh(stamp: tuple | None = None) -> dict:
    """The tables read afresh: the rule base's, or those of the word files
    stamped `stamp` (no file added)."""
    words._tables.cache_clear()
    return words._tables(words._stamp() if stamp is None else (stamp, ()))


def _not_read_with_clingo(*stamps):
    raise AssertionError("the words were read with clingo")


def test_the_kept_tables_are_the_ones_read_with_clingo(cache, monkeypatch):
    read = _fresh()
    (kept,) = cache.glob("words*.bin")
    monkeypatch.setattr(words, "_read_tables", _not_read_with_clingo)
    again = _fresh()
    assert again == read
    # 702.9b's message (a flyer blocked by a creature without flying or
    # reach) in both languages, as kb/messages.lp writes them
    assert "flying" in again[("en", "message")]["blocks_flyer"]
    assert again[("it", "message")]["blocks_flyer"] != again[("en", "message")]["blocks_flyer"]
    assert kept.exists()


@pytest.mark.parametrize(
    "poison",
    [
        ["not", "a", "dict"],
        {("en", "message"): {"blocks_flyer": 7}},  # a number where a text goes
        {("en",): {"blocks_flyer": "x"}},
        {"en": {"blocks_flyer": "x"}},
        {("en", "message"): ["blocks_flyer", "x"]},
    ],
)
def test_kept_tables_that_are_not_sound_are_read_again(cache, monkeypatch, poison):
    read = _fresh()
    (kept,) = cache.glob("words*.bin")
    store_checked(cache, kept.name, poison, "words*.bin")
    calls = counted_calls(monkeypatch, words, "_read_tables")
    assert _fresh() == read
    assert len(calls) == 1


def test_an_edited_word_file_is_read_again(cache, tmp_path):
    kb = tmp_path / "kb"
    kb.mkdir()
    for name in words.FILES:
        shutil.copy(data_dir("kb") / name, kb / name)
    stamp = words.stamp(kb / name for name in words.FILES)
    first = _fresh(stamp)
    texts = kb / "texts.lp"
    texts.write_text(
        texts.read_text(encoding="utf-8") + '\ntext(word, test_only_key, "edited").\n',
        encoding="utf-8",
    )
    again = _fresh(words.stamp(kb / name for name in words.FILES))
    assert again[("en", "word")]["test_only_key"] == "edited"
    assert "test_only_key" not in first[("en", "word")]
    assert len(list(cache.glob("words*.bin"))) == 2  # one a content


def test_tables_read_from_a_file_changed_meanwhile_are_not_kept(cache, tmp_path, monkeypatch):
    # the cache is keyed by the bytes read before the tables are read with
    # clingo, which reads the files again: an edit in between keeps nothing
    kb = tmp_path / "kb"
    kb.mkdir()
    for name in words.FILES:
        shutil.copy(data_dir("kb") / name, kb / name)
    texts = kb / "texts.lp"
    real = words._read_tables

    def edited_meanwhile(*stamps):
        texts.write_text(
            texts.read_text(encoding="utf-8") + '\ntext(word, test_only_key, "edited").\n',
            encoding="utf-8",
        )
        return real(*stamps)

    monkeypatch.setattr(words, "_read_tables", edited_meanwhile)
    read = _fresh(words.stamp(kb / name for name in words.FILES))
    assert read[("en", "word")]["test_only_key"] == "edited"
    assert list(cache.glob("words*.bin")) == []
