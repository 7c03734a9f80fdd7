"""The rule base and the queries as read from disk, with their slicing
analysis (from the disk cache or worked out once per process).
"""

from __future__ import annotations

import atexit
import time
import zlib
from pathlib import Path

import clingo

from mtgkb.engine.analysis import (
    ANALYSIS_VERSION,
    _analyse,
    _Analysis,
    _digest,
    _negative_cycles,
)
from mtgkb.engine.analysis_cache import _cache_dir, _load_analysis, _store_analysis
from mtgkb.engine.citations import program_text
from mtgkb.engine.programs import stamp as file_stamp
from mtgkb.engine.sharing import _definitions, _guard
from mtgkb.rulebase.location import current, data_dir, query_file, rule_files
from mtgkb.running import deadline as _deadline


class _RuleBase:
    """The rule base and the queries, as read from disk at one moment."""

    def __init__(self, stamp: tuple, files: list[Path], query_files: list[Path]):
        self.stamp = stamp
        self.text = "\n".join(program_text(f) for f in files)  # with the generated citations
        self.query_texts = {f.stem: f.read_text(encoding="utf-8") for f in query_files}
        self.controls = 0  # how many Controls this process built from it
        self.where = None  # the rule base (mtgkb.rulebase.location) it was read for
        self._analysis: _Analysis | None = None
        self._guarded: dict[str, str | None] = {}

    def query_text(self, name: str) -> str:
        if name not in self.query_texts:  # a query file added since
            self.query_texts[name] = query_file(name).read_text(encoding="utf-8")
        return self.query_texts[name]

    def _key(self) -> str:
        """A digest of everything the analysis depends on."""
        parts = [f"{ANALYSIS_VERSION} {clingo.__version__}", self.text]
        parts += [f"%%query {q}\n{self.query_texts[q]}" for q in sorted(self.query_texts)]
        data = "\n".join(parts).encode("utf-8")
        return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"

    def analysis(self) -> _Analysis:
        """What slicing and sharing need to know of each statement: from the
        disk cache, or worked out (about 0.2 s) and cached.

        The cache holds no program text: statements are byte offsets into
        this rule base, and the file is keyed by the rule base's digest. It
        is read only from a folder of this user's that no one else may write
        to, and checked whole (its digest, every field's type, every offset
        against the statements of the text); anything amiss and it is
        worked out again, quietly."""
        if self._analysis is not None:
            return self._analysis
        key = self._key()
        source = self.text.encode("utf-8")
        folder = _cache_dir()
        name = f"analysis-{key}.marshal"
        data = _load_analysis(folder / name, key, source, self) if folder else None
        if data is None:
            data = {
                "key": key,
                "base": _analyse(self.text),
                "queries": {q: _analyse(t) for q, t in self.query_texts.items()},
                "guardable": {q: _guard(t, q) is not None for q, t in self.query_texts.items()},
                "definitions": {
                    q: {k: sorted(_digest(r) for r in v) for k, v in _definitions(t).items()}
                    for q, t in self.query_texts.items()
                },
            }
            _negative_cycles(data["base"])
            if folder is not None:
                _store_analysis(folder, name, data)
        self._analysis = _Analysis(data, source)
        return self._analysis

    def guarded(self, name: str) -> str | None:
        """The query's statements, each made conditional on `_mtgkb_query(name)`,
        as text (made from the query file, once per process); None when some
        statement cannot be guarded."""
        analysis = self.analysis()
        if not analysis.guardable.get(name):
            return None
        if name not in self._guarded:
            self._guarded[name] = _guard(self.query_text(name), name)
        return self._guarded[name]

    def definitions(self, name: str) -> dict[str, list[str]]:
        """Predicate name -> digests of the rules defining it in the query."""
        return self.analysis().definitions.get(name, {})


_BASE: _RuleBase | None = None


@atexit.register
def _release() -> None:
    """Drop parsed statements while clingo can still free them (at exit its
    module may go first, and its AST destructor would fail noisily)."""
    global _BASE
    _BASE = None


_CHECKED = 0.0
RECHECK_SECONDS = 1.0  # how often a long batch looks for edited rule files


def rule_base() -> _RuleBase:
    """The rule base of this process, read again when a file of it changed."""
    global _BASE, _CHECKED
    now = time.monotonic()
    where = current()  # another rule base made the one in use is read at once
    if _BASE is not None and now - _CHECKED < RECHECK_SECONDS and _BASE.where == where:
        return _BASE
    files = rule_files()
    queries = sorted(data_dir("queries").glob("*.lp"))
    stamp = file_stamp(files + queries)
    if _BASE is None or _BASE.stamp != stamp:
        _BASE = _RuleBase(stamp, files, queries)
    _BASE.where = where
    _CHECKED = now
    return _BASE


def prepare() -> None:
    """Read and analyse the rule base now (before forking workers that inherit it)."""
    rule_base().analysis()


# A child forked to answer under a time-out inherits the rule base read here.
_deadline.before_fork(prepare)
