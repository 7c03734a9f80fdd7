"""The slicing analysis cached on disk (mtgkb.engine.solve) holds no program text and
cannot change an answer: a damaged, malformed or planted cache file is
ignored and worked out again, quietly (issue 15, item 4: appending
`lost("Ann").` to the old JSON cache made the conformance case c18 say Ann lost).

The answers checked are 104.3b and 119.3 (a player at 0 life loses) and
509.1a's (block declarations)."""

from __future__ import annotations

import marshal
import os

import pytest
from helpers import ZERO_LIFE

from mtgkb.engine import rule_base
from mtgkb.engine.state import Engine
from mtgkb.rulebase import disk_cache
from mtgkb.running.runner import answer_text

# slow tier: caches of the slicing analysis, edited and damaged on purpose
pytestmark = pytest.mark.slow

BLOCKS = """players: Ann, Ben
active: Ann
Ann controls creature "Hill Giant" 3/3
Ann controls creature "Serra Angel" 4/4 with flying
Ben controls creature "Grizzly Bears" 2/2
"Hill Giant" attacks Ben
"Serra Angel" attacks Ben
ask blocks for Ben
"""


def _fresh(monkeypatch, folder) -> None:
    """The next engine reads the rule base and its analysis again, with `folder`."""
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(folder))
    monkeypatch.setenv("MTGKB_CACHE", "1")
    # (the analysis read every time: with the slices remembered, a file run
    # before reads none; their own file's damage is tests/test_slice_memo.py's)
    monkeypatch.setenv("MTGKB_SLICE_MEMO", "0")


def _answers() -> list[dict]:
    """The answers of a fresh engine (its options read from the environment now)."""
    engine = Engine()
    return [
        answer_text(t, "cache.mtg", engine=engine).output["answers"][0] for t in (ZERO_LIFE, BLOCKS)
    ]


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    _fresh(monkeypatch, cache)
    return cache


@pytest.fixture(scope="module")
def expected():
    """The answers with no cache at all."""
    with pytest.MonkeyPatch.context() as m:
        m.setenv("MTGKB_CACHE", "0")
        found = _answers()
    assert found[0]["lost"] == ["Ben"] and "104.3b" in found[0]["rules"]
    assert found[1]["count"] == 2 and "509.1a" in found[1]["rules"]
    return found


def _cache_file(folder):
    files = sorted(folder.glob("analysis-*"))
    assert len(files) == 1, files
    return files[0]


def test_the_cache_holds_no_program_text(folder, expected):
    assert _answers() == expected
    data = _cache_file(folder).read_bytes()
    base = Engine().rule_base()
    # not one statement of the rule base (as clingo would read it) is in the file
    for line in base.text.splitlines():
        line = line.strip()
        if line.endswith(".") and ":-" in line and len(line) > 20:
            assert line.encode() not in data
    # and it is read back: the second run does not work it out again
    _fresh(pytest.MonkeyPatch(), folder)
    calls = []
    original = rule_base.analyse
    rule_base.analyse = lambda text: calls.append(1) or original(text)
    try:
        assert _answers() == expected
    finally:
        rule_base.analyse = original
    assert calls == []


def _valid_payload(folder) -> dict:
    blob = _cache_file(folder).read_bytes()
    return marshal.loads(blob[len(disk_cache.CACHE_MAGIC) + 8 :])


def _write(path, payload: bytes) -> None:
    path.write_bytes(disk_cache.CACHE_MAGIC + disk_cache.payload_digest(payload) + payload)


def _poisons(folder) -> dict[str, bytes | dict]:
    good = _cache_file(folder).read_bytes()
    data = _valid_payload(folder)
    dropped = dict(
        data, base=[dict(st, root=False, heads=[("never", 0, None)]) for st in data["base"]]
    )
    shifted = dict(
        data, base=[dict(st, span=(st["span"][0] + 1, st["span"][1])) for st in data["base"]]
    )
    swapped = dict(data, base=list(reversed(data["base"])))
    return {
        "empty list": b"[]",
        "empty object": b"{}",
        "base 5": b'{"base":5}',
        "truncated": good[: len(good) // 2],
        "program text appended": good + b'\nlost("Ann").\n',
        "one byte changed": good[:-10] + bytes([good[-10] ^ 1]) + good[-9:],
        "marshal [] with its digest": marshal.dumps([]),
        "marshal {'base': 5} with its digest": marshal.dumps({"base": 5}),
        "spans off by one, with their digest": marshal.dumps(shifted),
        "statements reordered, with their digest": marshal.dumps(swapped),
        "no head matches, with its digest (planted: read only from a private folder)": dropped,
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind",
    [
        "empty list",
        "empty object",
        "base 5",
        "truncated",
        "program text appended",
        "one byte changed",
        "marshal [] with its digest",
        "marshal {'base': 5} with its digest",
        "spans off by one, with their digest",
        "statements reordered, with their digest",
    ],
)
def test_a_damaged_cache_is_worked_out_again(folder, expected, monkeypatch, kind):
    assert _answers() == expected
    path = _cache_file(folder)
    good = path.read_bytes()
    poison = _poisons(folder)[kind]
    if kind.endswith("with its digest") or kind.endswith("with their digest"):
        _write(path, poison)
    else:
        path.write_bytes(poison)
    _fresh(monkeypatch, folder)
    assert _answers() == expected
    # not used, but worked out and written again
    assert path.read_bytes() == good


@pytest.mark.slow
def test_a_cache_in_a_folder_others_may_write_is_not_read(folder, expected, monkeypatch):
    assert _answers() == expected
    path = _cache_file(folder)
    data = _poisons(folder)[
        "no head matches, with its digest (planted: read only from a private folder)"
    ]
    _write(path, marshal.dumps(data))
    os.chmod(folder, 0o777)
    try:
        _fresh(monkeypatch, folder)
        assert _answers() == expected
    finally:
        os.chmod(folder, 0o700)


@pytest.mark.slow
def test_the_old_json_cache_is_not_read(folder, expected, monkeypatch):
    assert _answers() == expected
    base = Engine().rule_base()
    (folder / f"analysis-{base._key()}.json").write_text('{"base": [{"text": "lost(\\"Ann\\")."}]}')
    _cache_file_marshal = next(folder.glob("analysis-*.marshal"))
    _cache_file_marshal.unlink()
    _fresh(monkeypatch, folder)
    assert _answers() == expected


def test_the_statement_memo_holds_no_program_text_and_answers_stay_the_same(folder, expected):
    # the analysis worked out again from the memo alone (its own file deleted)
    # gives the same answers: 104.3b and 119.3 (Ben at 0 life loses), 509.1a
    assert _answers() == expected
    memo = sorted(folder.glob("statements-*"))
    assert len(memo) == 1
    data = memo[0].read_bytes()
    for line in Engine().rule_base().text.splitlines():
        line = line.strip()
        if line.endswith(".") and ":-" in line and len(line) > 20:
            assert line.encode() not in data
    _cache_file(folder).unlink()
    _fresh(pytest.MonkeyPatch(), folder)
    assert _answers() == expected


def test_after_an_edit_only_the_statements_edited_are_described_again(tmp_path):
    from mtgkb.engine import analysis
    from mtgkb.engine.analysis_cache import StatementMemo

    text = Engine().rule_base().text
    folder = tmp_path / "memo"
    first = StatementMemo(folder)
    assert analysis.analyse(text, first.recording()) == analysis.analyse(text)
    assert first.added > 1000  # every statement described once
    first.store()
    edited = text + "\nlost(P) :- player(P), edited_here(P).\n"
    again = StatementMemo(folder)
    found = analysis.analyse(edited, again.recording())
    assert again.added == 1  # the one statement added
    assert found == analysis.analyse(edited)


def test_a_damaged_statement_memo_is_ignored(tmp_path):
    from mtgkb.engine.analysis_cache import StatementMemo, statement_key

    folder = tmp_path / "memo"
    memo = StatementMemo(folder)
    memo.recording()["p(1)."] = {"root": True}  # a description of the wrong shape
    memo.store()
    assert StatementMemo(folder).known == {}
    name = StatementMemo(folder).name
    _write(folder / name, marshal.dumps({'lost("Ann").': {}}))  # program text as a key
    assert StatementMemo(folder).known == {}
    assert len(statement_key("p(1).")) == 32
