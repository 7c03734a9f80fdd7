"""The rule base and the queries as read from disk, with their slicing
analysis (from the disk cache or worked out once per rule base). An engine
(mtgkb.engine.state.Engine) holds one and reads it again when a file changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import clingo

from mtgkb.engine.analysis import (
    ANALYSIS_VERSION,
    RULE_BASE_PARSE_AFTER,
    Analysis,
    analyse,
    negative_cycles,
    statement_digest,
)
from mtgkb.engine.analysis_cache import StatementMemo, load_analysis, store_analysis
from mtgkb.engine.sharing import guarded_query, query_definitions
from mtgkb.engine.slice_memo import SliceMemo
from mtgkb.rulebase.citations import program_texts
from mtgkb.rulebase.disk_cache import content_digest
from mtgkb.rulebase.grounding import check_grounds

#: an external function's call (`@name(`; a priority `@2`, `@P` is none)
_CALL = re.compile(r"@\s*[a-z_]")


def calls_functions_in(text: str) -> bool:
    """Whether the program `text` may call an external function (`@f(...)`:
    a `#script`'s), which a ground() given a context (mtgkb.engine.solve's
    FactRules) would look for in the context."""
    return _CALL.search(text) is not None


class LoadedRuleBase:
    """The rule base and the queries, as read from disk at one moment."""

    def __init__(
        self,
        stamp: tuple,
        files: list[Path],
        query_files: list[Path],
        queries: Path,
        cache_dir: Path | None = None,
        slice_memo: bool = True,
    ):
        """The `files` and `query_files` as they read now (`stamp` names
        them); `queries` is the folder of the query files, `cache_dir` where
        the analysis is cached (None: it is not), and, with `slice_memo`,
        the slices of the first groundings (mtgkb.engine.slice_memo)."""
        self.stamp = stamp
        self.queries = queries
        self.cache_dir = cache_dir
        self._remembers_slices = slice_memo and cache_dir is not None
        self._slices: SliceMemo | None = None
        self._source: bytes | None = None
        self._analysis_key: str | None = None
        texts = program_texts(files)  # with the generated citations, the parts read
        self.text = "\n".join(texts)
        self.files = list(files)
        #: each file's (start, end) byte offsets in `text` (its statements' spans fall inside)
        self.file_spans: list[tuple[int, int]] = []
        start = 0
        for text in texts:
            end = start + len(text.encode("utf-8"))
            self.file_spans.append((start, end))
            start = end + 1
        self.query_texts = {f.stem: f.read_text(encoding="utf-8") for f in query_files}
        self.query_files = list(query_files)
        self.controls = 0  # how many Controls this process built from it
        self._analysis: Analysis | None = None
        self._guarded: dict[str, str | None] = {}
        self._stacked: dict[tuple[str, str], str | None] = {}
        self._calls: bool | None = None

    def calls_functions(self, queries: Iterable[str]) -> bool:
        """Whether the rule base or these queries may call an external
        function (`@f(...)`: a `#script`'s), which a ground() given a
        context would look for in the context."""
        if self._calls is None:
            self._calls = calls_functions_in(self.text)
        return self._calls or any(calls_functions_in(self.query_text(q)) for q in queries)

    def query_text(self, name: str) -> str:
        if name not in self.query_texts:  # a query file added since
            path = self.queries / f"{name}.lp"
            self.query_texts[name] = path.read_text(encoding="utf-8")
        return self.query_texts[name]

    def _key(self) -> str:
        """A digest of everything the analysis depends on (worked out once)."""
        if self._analysis_key is None:
            parts = [f"{ANALYSIS_VERSION} {clingo.__version__}", self.text]
            parts += [f"%%query {q}\n{self.query_texts[q]}" for q in sorted(self.query_texts)]
            data = "\n".join(parts).encode("utf-8")
            self._analysis_key = content_digest(data)
        return self._analysis_key

    def source(self) -> bytes:
        """The rule base's text as UTF-8: what statements' offsets count."""
        if self._source is None:
            self._source = self.text.encode("utf-8")
        return self._source

    def slice_memo(self) -> SliceMemo | None:
        """The slices remembered on disk (mtgkb.engine.slice_memo), for this
        process's first groundings (RULE_BASE_PARSE_AFTER, those given the
        statements as text); None for the others, or when slices are not
        remembered (no cache folder, MTGKB_SLICE_MEMO=0)."""
        if not self._remembers_slices or self.controls >= RULE_BASE_PARSE_AFTER:
            return None
        return self._slice_file()

    def _slice_file(self) -> SliceMemo:
        """The slices remembered, read from disk once (when remembered)."""
        if self._slices is None:
            self._slices = SliceMemo(self.cache_dir, self._key(), self.source())
        return self._slices

    def add_statements(self, ctl: clingo.Control, kept: list[int], also: str) -> None:
        """Give `ctl` the rule base's statements `kept` and the program text
        `also` (Analysis.add), from the remembered slices' offsets while the
        analysis has not been read (the statements then go as text, as the
        analysis gives them to a process's first groundings)."""
        memo = self._slices
        if self._analysis is None and memo is not None and memo.spans:
            ctl.add("base", [], memo.program(kept))
            if also:
                ctl.add("base", [], also)
            return
        self.analysis().add(ctl, kept, also)

    def analysis(self) -> Analysis:
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
        source = self.source()
        folder = self.cache_dir
        name = f"analysis-{key}.marshal"
        data = load_analysis(folder / name, key, source, self.query_texts) if folder else None
        if data is None:
            # a program clingo cannot ground (an unsafe variable, even in a
            # statement slicing would leave out) is bad input: said once, here
            check_grounds([*self.files, *self.query_files])
            memo = StatementMemo(folder)  # the statements described before, by their text
            data = {
                "key": key,
                "base": analyse(self.text, memo.recording()),
                "queries": {q: analyse(t, memo.recording()) for q, t in self.query_texts.items()},
                "guardable": {
                    q: guarded_query(t, q) is not None for q, t in self.query_texts.items()
                },
                "definitions": {
                    q: {
                        k: sorted(statement_digest(r) for r in v)
                        for k, v in query_definitions(t).items()
                    }
                    for q, t in self.query_texts.items()
                },
            }
            negative_cycles(data["base"])
            memo.store()
            if folder is not None:
                store_analysis(folder, name, data)
        self._analysis = Analysis(data, source)
        return self._analysis

    def guarded(self, name: str) -> str | None:
        """The query's statements, each made conditional on `_mtgkb_query(name)`,
        as text (made from the query file, once per process); None when some
        statement cannot be guarded."""
        if not self.guardable(name):
            return None
        if name not in self._guarded:
            self._guarded[name] = guarded_query(self.query_text(name), name)
        return self._guarded[name]

    def stacked(
        self,
        lower: str,
        lower_kept: list[int] | None,
        upper: str,
        upper_kept: list[int] | None,
        given: set[str],
    ) -> str | None:
        """The text to ground on top of a grounding of query `lower` (with the
        rule base statements `lower_kept`, None: all, and atoms of the names
        `given`) so that query `upper`'s models (with `upper_kept`) can be
        read from it: `upper`'s own statements (Analysis.stacked), their
        constraints and shows made conditional on `_mtgkb_query(upper)`
        (mtgkb.engine.sharing.guarded_query). None when that cannot be shown."""
        analysis = self.analysis()
        if lower not in analysis.queries or upper not in analysis.queries:
            return None
        added = analysis.stacked(
            (lower, self.query_text(lower), lower_kept),
            (upper, self.query_text(upper), upper_kept),
            given,
        )
        if added is None:
            return None
        text = "\n".join(added)
        if (upper, text) not in self._stacked:  # (made once per process)
            guarded = guarded_query(text, upper, heads=False)
            # (its statements go to a part of their own: not `base`, which
            # clingo writes first in every text and which would take them back)
            self._stacked[upper, text] = (
                None
                if guarded is None
                else "\n".join(line for line in guarded.split("\n") if line != "#program base.")
            )
        return self._stacked[upper, text]

    def guardable(self, name: str) -> bool:
        """Whether `guarded(name)` is a text (not None), without making it:
        the analysis knows it of each query (and the slices remembered, what
        it knew)."""
        remembered = self._remembered()
        if remembered is not None:
            return bool(remembered.guardable.get(name))
        return bool(self.analysis().guardable.get(name))

    def definitions(self, name: str) -> dict[str, list[str]]:
        """Predicate name -> digests of the rules defining it in the query."""
        remembered = self._remembered()
        if remembered is not None:
            return remembered.definitions.get(name, {})
        return self.analysis().definitions.get(name, {})

    def _remembered(self) -> SliceMemo | None:
        """The slices remembered on disk, while the analysis is not read, if
        any were (they hold what the analysis says of each query)."""
        if self._analysis is not None or not self._remembers_slices:
            return None
        remembered = self._slice_file()
        return remembered if remembered.spans else None
