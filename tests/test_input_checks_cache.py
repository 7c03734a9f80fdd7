"""The input checks' slicing analysis is cached on disk like the rule base's
(issue 11, item 3: it cost about 40 ms of every cold run), and the cache
cannot change an answer: it holds byte offsets into the checks' own text,
never program text, is read only from a private folder, and anything amiss
(damaged, planted, offsets that are not the statements) is worked out again.

The answer checked is 810.1's: a two-headed-giant game has exactly two teams
(the error is said at the third team's line)."""

from __future__ import annotations

import marshal
import os

import pytest

from mtgkb.language import checks
from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text
from mtgkb.rulebase import disk_cache

# slow tier: the input checks' cache, edited and damaged on purpose
pytestmark = pytest.mark.slow

THIRD_TEAM = (
    "game: two-headed-giant\nplayers: A, B, C, D, E, F\nteam X: A, B\nteam Y: C, D\nteam Z: E, F\n"
)
EXPECTED = (5, 1, "a two-headed-giant game is played by exactly two teams (810.1); team Z makes 3")


def _error() -> tuple[int, int, str]:
    checks._program_of.cache_clear()  # the next parse reads the checks again
    with pytest.raises(ScenarioError) as caught:
        parse_text(THIRD_TEAM, "t.mtg")
    return caught.value.line, caught.value.column, caught.value.message


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(cache))
    monkeypatch.setenv("MTGKB_CACHE", "1")
    yield cache
    checks._program_of.cache_clear()


def _cache_file(folder):
    files = sorted(folder.glob("input-checks-*"))
    assert len(files) == 1, files
    return files[0]


def _counting(monkeypatch) -> list:
    calls: list = []
    original = checks._statements
    monkeypatch.setattr(checks, "_statements", lambda s: calls.append(1) or original(s))
    return calls


def test_the_checks_cache_is_written_read_back_and_holds_no_program_text(folder, monkeypatch):
    assert _error() == EXPECTED
    data = _cache_file(folder).read_bytes()
    source = checks._program().source
    for line in source.decode().splitlines():
        line = line.strip()
        if line.endswith(".") and ":-" in line and len(line) > 20:
            assert line.encode() not in data
    calls = _counting(monkeypatch)
    assert _error() == EXPECTED
    assert calls == []  # read back, not worked out again


def _payload(folder) -> list:
    blob = _cache_file(folder).read_bytes()
    return marshal.loads(blob[len(disk_cache.CACHE_MAGIC) + 8 :])


def _with(data: list, change) -> list:
    """The statements with `change(statement)` (a dict of new values, or
    None) applied to each."""
    out = []
    for st in data:
        new = change(st)
        out.append(st if new is None else {**st, **new})
    return out


def _as_text(st: dict) -> dict:
    """What makes a statement look like a message's text, never grounded."""
    return {
        "heads": [("input_message", 2, None)],
        "fixed_heads": [("input_message", 2, ())],
        "needs": [],
        "fixed_needs": [],
    }


def _is_rule(st: dict) -> bool:
    return bool(st["heads"]) and st["heads"][0][0] not in checks.TEXTS


def _first_statement(data: list) -> dict:
    """The first statement with a text (not the empty `#program base.`)."""
    return next(st for st in data if st["span"][0] < st["span"][1])


def _poisons(folder) -> dict[str, list | bytes]:
    good = _cache_file(folder).read_bytes()
    data = _payload(folder)
    return {
        "truncated": good[: len(good) // 2],
        "one byte changed": good[:-10] + bytes([good[-10] ^ 1]) + good[-9:],
        "spans off by one": _with(data, lambda st: {"span": (st["span"][0] + 1, st["span"][1])}),
        "statements reordered": list(reversed(data)),
        "a statement left out": [st for st in data if st is not _first_statement(data)],
        "a list": [list(st.values()) for st in data],
        "an unknown key": _with(data, lambda st: {"role": "code"}),
        # planted in the private folder itself: every check a text, none would fire
        "the rules said to be texts": _with(
            data, lambda st: _as_text(st) if _is_rule(st) else None
        ),
        "the constraints said to be texts": _with(
            data, lambda st: None if st["heads"] or st["span"][0] == st["span"][1] else _as_text(st)
        ),
        "a head not the statement's": _with(
            data,
            lambda st: (
                {"heads": [("seats", 1, None)], "fixed_heads": [("seats", 1, ())]}
                if _is_rule(st)
                else None
            ),
        ),
        "the heads left out": _with(
            data, lambda st: {"heads": [], "fixed_heads": []} if _is_rule(st) else None
        ),
    }


@pytest.mark.parametrize(
    "kind",
    [
        "truncated",
        "one byte changed",
        "spans off by one",
        "statements reordered",
        "a statement left out",
        "a list",
        "an unknown key",
        "the rules said to be texts",
        "the constraints said to be texts",
        "a head not the statement's",
        "the heads left out",
    ],
)
def test_a_damaged_checks_cache_is_worked_out_again(folder, monkeypatch, kind):
    assert _error() == EXPECTED
    path = _cache_file(folder)
    good = path.read_bytes()
    poison = _poisons(folder)[kind]
    if isinstance(poison, bytes):
        path.write_bytes(poison)
    else:
        payload = marshal.dumps(poison)
        digest = disk_cache.payload_digest(payload)
        path.write_bytes(disk_cache.CACHE_MAGIC + digest + payload)
    calls = _counting(monkeypatch)
    assert _error() == EXPECTED
    assert calls == [1]  # worked out again ...
    assert path.read_bytes() == good  # ... and written again


def test_a_checks_cache_in_a_folder_others_may_write_is_not_read(folder, monkeypatch):
    assert _error() == EXPECTED
    # planted: every rule made a text, so that no check would fire
    data = _with(_payload(folder), lambda st: _as_text(st) if _is_rule(st) else None)
    payload = marshal.dumps(data)
    path = _cache_file(folder)
    path.write_bytes(disk_cache.CACHE_MAGIC + disk_cache.payload_digest(payload) + payload)
    os.chmod(folder, 0o777)
    try:
        calls = _counting(monkeypatch)
        assert _error() == EXPECTED
        assert calls == [1]
    finally:
        os.chmod(folder, 0o700)
