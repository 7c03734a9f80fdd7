"""The slices of a process's first groundings remembered on disk
(mtgkb.engine.slice_memo): a file sliced before is answered without reading
the analysis, with the very statements the analysis keeps, so with the same
answers and the same rules behind them; a damaged or planted file of slices
is not used; no user's name is written.

The same holds of the input checks' slices (mtgkb.language.checks).

The answers checked: 509.1a's block declarations (c06's shape: each
blocker blocks one attacker or none, 702.9b: a flyer only by a creature
with flying or reach), 104.3b / 119.3 (a player at 0 life loses) and
810.1's input error (a two-headed-giant game has exactly two teams)."""

from __future__ import annotations

import shutil

import pytest
from helpers import ZERO_LIFE

from mtgkb.engine import slice_memo
from mtgkb.engine.slice_memo import SliceMemo
from mtgkb.engine.state import Engine, Options
from mtgkb.language import checks
from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text
from mtgkb.rulebase.disk_cache import store_checked
from mtgkb.running.runner import answer_text

BLOCKS = """players: Alex, Zqxjvbe
active: Alex
Alex controls creature "Serra Angel" 4/4 with flying
Alex controls creature "Runeclaw Bear" 2/2
Zqxjvbe controls creature "Giant Spider" 2/4 with reach
Zqxjvbe controls creature "Grizzly Bears" 2/2
"Serra Angel" attacks Zqxjvbe
"Runeclaw Bear" attacks Zqxjvbe
ask blocks for Zqxjvbe
"""
# the same shape, other creatures' names: sliced alike (the defender's name
# is read: it stands in the question, `asked(blocks("Zqxjvbe"))`)
RENAMED = BLOCKS.replace("Giant Spider", "Tall Spider").replace("Serra Angel", "Angel")


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    """A cache folder whose analysis is worked out once for this module."""
    cache = tmp_path_factory.mktemp("analysed")
    Engine(Options(cache_dir=cache)).prepare()
    return cache


@pytest.fixture()
def folder(analysed, tmp_path):
    """A cache folder of this test's own, with the analysis and no slices."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    for found in analysed.iterdir():
        if not found.name.startswith("slices-"):
            shutil.copy(found, cache / found.name)
    return cache


def _run(text: str, folder, memo: bool = True) -> tuple[dict, Engine]:
    """A fresh engine's answer to `text` (as a cold run's) and the engine."""
    engine = Engine(Options(cache_dir=folder, slice_memo=memo))
    output = answer_text(text, "memo.mtg", engine=engine).output
    return output, engine


def _stored(folder) -> SliceMemo:
    engine = Engine(Options(cache_dir=folder))
    base = engine.rule_base()
    return SliceMemo(folder, base._key(), base.source())


def test_a_file_sliced_before_is_answered_without_the_analysis(folder):
    plain, _ = _run(BLOCKS, folder, memo=False)
    first, engine = _run(BLOCKS, folder)  # (not remembered yet: sliced by the analysis)
    assert engine.rule_base()._analysis is not None
    again, engine = _run(BLOCKS, folder)
    assert engine.rule_base()._analysis is None  # the slice was remembered
    # 509.1a: Serra Angel (flying) can be blocked by Giant Spider (reach) alone
    # (702.9b); each of the two blockers blocks one attacker or none: 3 x 2 = 6
    answer = again["answers"][0]
    assert answer["count"] == 6 and answer["complete"] is True
    assert {"Grizzly Bears": "Serra Angel"} not in answer["assignments"]
    assert "509.1a" in answer["rules"] and "702.9b" in answer["rules"]
    assert again == first == plain


def test_files_alike_in_what_slicing_reads_share_one_slice(folder):
    _run(BLOCKS, folder)
    before = dict(_stored(folder).slices)
    renamed, engine = _run(RENAMED, folder)
    assert engine.rule_base()._analysis is None
    assert _stored(folder).slices == before
    assert renamed == _run(RENAMED, folder, memo=False)[0]


def test_other_questions_are_remembered_apart_and_answered_the_same(folder):
    plain, _ = _run(ZERO_LIFE, folder, memo=False)
    _run(BLOCKS, folder)
    _run(ZERO_LIFE, folder)
    assert len(_stored(folder).slices) == 2
    again, _ = _run(ZERO_LIFE, folder)
    # 104.3b, 119.3: Ben, at 0 life after the Hill Giant's 3 damage, loses
    assert again == plain
    assert {"104.3b", "119.3"} <= set(again["answers"][0]["rules"])
    assert len(_stored(folder).slices) == 2


def test_no_name_of_a_user_is_written(folder):
    _run(BLOCKS, folder)
    memo = _stored(folder)
    data = memo.path.read_bytes()
    for name in ("Zqxjvbe", "Serra Angel", "Giant Spider"):
        assert name.encode() not in data
    # each answer under a digest of what it answers
    assert all(len(digest) == 32 for digest in memo.slices)


def _planted(folder, change) -> SliceMemo:
    """The slices file written again (a sound digest) with one field changed."""
    memo = _stored(folder)
    assert memo.spans, "remembered by an earlier run"
    data = {
        "key": memo.key,
        "queries": sorted(memo.queries),
        "positions": dict(memo.positions),
        "spans": list(memo.spans),
        "slices": dict(memo.slices),
        "guardable": dict(memo.guardable),
        "definitions": dict(memo.definitions),
    }
    change(data)
    store_checked(folder, memo.path.name, data, "slices-*")
    return _stored(folder)


def _first_slice(data) -> tuple[str, bytes]:
    return next(iter(data["slices"].items()))


def _past_the_last(data) -> bytes:
    """The first slice with the bit after the last statement's set (in a byte
    more when the statements fill their last byte)."""
    bits = bytearray(_first_slice(data)[1])
    size = len(data["spans"])
    if size % 8 == 0:
        bits.append(0)
    bits[size // 8] |= 1 << (size % 8)
    return bytes(bits)


@pytest.mark.parametrize(
    "change",
    [
        # a statement past the last: a byte more, or a bit past the last statement
        lambda d: d["slices"].update({_first_slice(d)[0]: _first_slice(d)[1] + b"\x01"}),
        lambda d: d["slices"].update({_first_slice(d)[0]: _past_the_last(d)}),
        # a byte fewer; numbers, not bits (a tuple, a list)
        lambda d: d["slices"].update({_first_slice(d)[0]: _first_slice(d)[1][:-1]}),
        lambda d: d["slices"].update({_first_slice(d)[0]: (0, 1, 4)}),
        lambda d: d["slices"].update({_first_slice(d)[0]: [0, 1, 4]}),
        # an offset moved into a statement: the text read would be another
        lambda d: d["spans"].__setitem__(3, (d["spans"][3][0] + 1, d["spans"][3][1])),
        # offsets past the text, or missing
        lambda d: d["spans"].append((10**9, 10**9 + 1)),
        lambda d: d.update(spans=[]),
        # another rule base's file; a field more
        lambda d: d.update(key="0" * 20),
        lambda d: d.update(program="lost(ann)."),
        # a position that is no number
        lambda d: d["positions"].update(has=("1",)),
        # what is said of the queries: a query missing, a flag that is no
        # truth value, a digest that is no text
        lambda d: d["guardable"].pop("blocks"),
        lambda d: d["guardable"].update(blocks=1),
        lambda d: d["definitions"].update(blocks={"can_block": [7]}),
    ],
)
def test_a_damaged_file_of_slices_is_not_used(folder, change):
    _run(BLOCKS, folder)
    memo = _planted(folder, change)
    assert not memo.spans and not memo.slices
    answers, engine = _run(BLOCKS, folder)
    assert engine.rule_base()._analysis is not None  # sliced by the analysis again
    assert answers == _run(BLOCKS, folder, memo=False)[0]


def test_a_slice_planted_under_a_files_digest_is_what_is_grounded(folder):
    """(What the check cannot tell: a sound list of statements that is not the
    slice. This is why the file is read only from a folder of this user's
    that no one else may write to, as every cache of mtgkb.)"""
    _run(BLOCKS, folder)
    size = (len(_stored(folder).spans) + 7) // 8
    only_the_first = bytes([1]) + bytes(size - 1)  # (statement 0 alone)
    memo = _planted(folder, lambda d: d["slices"].update({k: only_the_first for k in d["slices"]}))
    assert memo.spans and set(memo.slices.values()) == {only_the_first}


def test_only_the_newest_slices_are_kept(folder, monkeypatch):
    _run(BLOCKS, folder)
    blocks = dict(_stored(folder).slices)
    assert len(blocks) == 1
    monkeypatch.setattr(slice_memo, "MOST_SLICES", 1)
    _run(ZERO_LIFE, folder)
    newest = _stored(folder).slices
    assert len(newest) == 1 and newest.keys() != blocks.keys()
    # BLOCKS's slice is gone: worked out by the analysis again, and kept
    assert _run(BLOCKS, folder)[1].rule_base()._analysis is not None
    assert _stored(folder).slices == blocks


def test_a_process_past_its_first_groundings_slices_by_the_analysis(folder):
    engine = Engine(Options(cache_dir=folder))
    for _ in range(4):
        answer_text(BLOCKS, "memo.mtg", engine=engine)
    base = engine.rule_base()
    assert base.controls >= 4
    assert base.slice_memo() is None  # (the analysis, read once, serves the rest)


def test_without_a_cache_folder_nothing_is_remembered():
    engine = Engine(Options(cache_dir=None))
    assert engine.rule_base().slice_memo() is None


THIRD_TEAM = (
    "game: two-headed-giant\nplayers: A, B, C, D, E, F\nteam X: A, B\nteam Y: C, D\nteam Z: E, F\n"
)


@pytest.fixture()
def checks_folder(tmp_path, monkeypatch):
    """A cache folder of this test's own for the input checks (read from the
    environment), and a count of the checks' program read whole."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(cache))
    monkeypatch.setenv("MTGKB_CACHE", "1")
    read: list[int] = []
    original = checks._program
    monkeypatch.setattr(checks, "_program", lambda: read.append(1) or original())
    yield read
    checks._slices_of.cache_clear()
    checks._program_of.cache_clear()


def _checked(text: str) -> tuple[int, int, str] | None:
    """The first input error of `text` (line, column, message), as a new
    process finds it, or None."""
    checks._slices_of.cache_clear()
    try:
        parse_text(text, "t.mtg")
    except ScenarioError as err:
        return err.line, err.column, err.message
    return None


def test_a_table_checked_before_is_checked_without_the_checks_analysis(checks_folder):
    assert _checked(BLOCKS) is None and checks_folder  # worked out, and remembered
    checks_folder.clear()
    assert _checked(BLOCKS) is None and not checks_folder  # remembered: not read
    # 810.1: a two-headed-giant game has exactly two teams (said at the third's line)
    said = "a two-headed-giant game is played by exactly two teams (810.1); team Z makes 3"
    expected = (5, 1, said)
    assert _checked(THIRD_TEAM) == expected
    assert _checked(THIRD_TEAM) == expected  # (its slice remembered; its text read)
    assert len(list(checks._slices().path.parent.glob("slices-checks-*"))) == 1
    assert len(checks._slices().slices) == 2


def test_slices_remembered_by_another_version_of_the_slicing_code_are_not_read(folder, monkeypatch):
    _run(BLOCKS, folder)
    assert _run(BLOCKS, folder)[1].rule_base()._analysis is None
    slice_memo.code_digest.cache_clear()
    monkeypatch.setattr(slice_memo, "DECIDING", ("analysis.py", "slice_memo.py"))
    try:
        assert _run(BLOCKS, folder)[1].rule_base()._analysis is not None
    finally:
        slice_memo.code_digest.cache_clear()


def test_a_process_checks_its_later_tables_by_the_checks_program(checks_folder):
    """Only a process's first table is looked up and remembered: the later
    ones are given the checks' statements parsed and kept (a server's, a
    batch's), and write nothing."""
    checks._slices_of.cache_clear()
    parse_text(BLOCKS, "t.mtg")
    memo = checks._slices()
    written = memo.path.read_bytes()
    with pytest.raises(ScenarioError):  # 810.1 (another shape: not remembered)
        parse_text(THIRD_TEAM, "t.mtg")
    assert memo.asked == 2 and not memo.answers()
    assert memo.path.read_bytes() == written and len(memo.slices) == 1
