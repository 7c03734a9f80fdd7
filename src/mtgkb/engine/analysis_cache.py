"""The slicing analysis cached on disk, keyed by the rule base's digest.

The cache holds no program text: statements are byte offsets into the rule
base. It is read only from a folder of this user's that no one else may
write to, and checked whole before use; anything amiss and the analysis is
worked out again, quietly.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from itertools import chain
from operator import itemgetter
from pathlib import Path

import clingo

from mtgkb.engine.analysis import ANALYSIS_VERSION, UNKNOWN
from mtgkb.rulebase.disk_cache import load_checked, store_checked

# (Where the cache lives is an engine option: mtgkb.engine.state.Options.cache_dir;
# the file's format, mtgkb.rulebase.disk_cache.)

_STATEMENT_KEYS = frozenset(
    (
        "span",
        "root",
        "heads",
        "needs",
        "fwd_heads",
        "fwd_needs",
        "other_needs",
        "fixed_heads",
        "fixed_needs",
        "defines_constant",
        "restricts_shown",
    )
)
# whitespace and comments between statements (atomic and possessive: no
# backtracking, linear in the gap)
_GAP = re.compile(rb"(?>\s+|%\*.*?\*%|%[^\n]*+)*+", re.DOTALL)


def load_analysis(
    path: Path, key: str, source: bytes, query_texts: Mapping[str, str]
) -> dict | None:
    """The cached analysis at `path` if it is sound for this rule base (its
    text `source` and its queries' texts), else None."""
    return load_checked(path, lambda data: _sound(data, key, source, query_texts))


def _are_named(patterns: set) -> bool:
    """Every one of `patterns` a (name, arity, _) triple: how every pattern
    but the unknown atom begins. (Each field checked over all of them at
    once: a few passes in C, not a Python call for each pattern.)"""
    return (
        set(map(type, patterns)) <= {tuple}
        and set(map(len, patterns)) <= {3}
        and set(map(type, map(itemgetter(0), patterns))) <= {str}
        and set(map(type, map(itemgetter(1), patterns))) <= {int}
    )


def _are_patterns(patterns: set) -> bool:
    """Every one of `patterns` a (name, arity, first) pattern, `first` a
    text or None, or the unknown atom."""
    named = patterns - {UNKNOWN}
    return _are_named(named) and set(map(type, map(itemgetter(2), named))) <= {str, type(None)}


def _are_fixed(patterns: set) -> bool:
    """Every one of `patterns` a (name, arity, ((position, value, shape), ...))
    pattern or the unknown atom: the patterns checked, then each distinct
    (position, value, shape) of them all once."""
    named = patterns - {UNKNOWN}
    if not _are_named(named):
        return False
    fixed = list(map(itemgetter(2), named))
    if not set(map(type, fixed)) <= {tuple}:
        return False
    arguments = set(chain.from_iterable(fixed))
    return (
        set(map(type, arguments)) <= {tuple}
        and set(map(len, arguments)) <= {3}
        and set(map(type, map(itemgetter(0), arguments))) <= {int}
        and set(map(type, map(itemgetter(1), arguments))) <= {str}
        and set(map(type, map(itemgetter(2), arguments))) <= {str}
    )


def sound_statements(statements, source: bytes) -> bool:
    """Every statement well formed, and their offsets the statements of `source`:
    in order, each ending with a full stop, only blanks and comments between."""
    if type(statements) is not list or not _sound_descriptions(statements, _STATEMENT_KEYS):
        return False
    return sound_spans([st["span"] for st in statements], source)


def sound_spans(spans: list, source: bytes) -> bool:
    """Every span a (start, end) pair of byte offsets, and together the
    statements of `source`: in order, each ending with a full stop, only
    blanks and comments between (a span given again, for several statements
    of one, as a #minimize's elements)."""
    at = 0
    last = None
    gap = _GAP.fullmatch
    for span in spans:
        if type(span) is not tuple or len(span) != 2:
            return False
        start, end = span
        if type(start) is not int or type(end) is not int:
            return False
        if span == last:
            continue  # several statements of one (a #minimize's elements)
        if not at <= start <= end <= len(source) or not gap(source, at, start):
            return False
        if end > start and source[end - 1] != 46:  # a full stop ends each statement
            return False
        at, last = end, span
    return bool(gap(source, at, len(source)))


#: The fields of a description by their type: flags, and lists of patterns
#: (`heads`, `needs`), of fixed patterns and of names.
_FLAGS = ("root", "restricts_shown", "defines_constant")
_PATTERNS = ("heads", "needs")
_FIXED = ("fixed_heads",)
_FIXED_READ = ("fixed_needs",)
_NAMES = ("fwd_heads", "fwd_needs", "other_needs")
_LISTS = _PATTERNS + _FIXED + _FIXED_READ + _NAMES


def _sound_descriptions(statements: list, keys: frozenset) -> bool:
    """Every description a dict of exactly `keys`, each field of its type and
    every pattern well formed (spans are checked by the caller). The fields
    are read once, as columns; each check then runs over a column at once,
    and over each distinct pattern and name once."""
    if not set(map(type, statements)) <= {dict} or not set(map(len, statements)) <= {len(keys)}:
        return False
    # (a description of as many keys that lacks one of `keys` has another:
    # reading the missing one raises KeyError, which the reader catches)
    fields = tuple(keys)
    rows = map(itemgetter(*fields), statements)
    columns = dict(zip(fields, zip(*rows, strict=True), strict=True)) if statements else {}

    def values(names: tuple[str, ...]):
        return chain.from_iterable(columns.get(name, ()) for name in names)

    if not set(map(type, values(_FLAGS))) <= {bool} or not set(map(type, values(_LISTS))) <= {list}:
        return False
    # (a list inside a list is unhashable: TypeError, which the reader catches)
    patterns = set(chain.from_iterable(values(_PATTERNS)))
    names = set(chain.from_iterable(values(_NAMES)))
    fixed_read = set(chain.from_iterable(values(_FIXED_READ)))
    fixed = set(chain.from_iterable(values(_FIXED))) | fixed_read
    if not _are_patterns(patterns) or not set(map(type, names)) <= {str}:
        return False
    return UNKNOWN not in fixed_read and _are_fixed(fixed)


def _sound(data, key: str, source: bytes, query_texts: Mapping[str, str]) -> bool:
    if type(data) is not dict or data.keys() != {
        "key",
        "base",
        "queries",
        "guardable",
        "definitions",
    }:
        return False
    if data["key"] != key or not sound_statements(data["base"], source):
        return False
    names = set(query_texts)
    queries = data["queries"]
    if type(queries) is not dict or queries.keys() != names:
        return False
    if not sound_said(data["guardable"], data["definitions"], names):
        return False
    return all(sound_statements(queries[q], query_texts[q].encode("utf-8")) for q in names)


def sound_said(guardable, definitions, names: set[str]) -> bool:
    """What the analysis says of each of the queries `names`, of its types:
    whether it can be guarded (a truth value), and the digests of the rules
    defining each predicate in it (a text -> a list of texts)."""
    if type(guardable) is not dict or guardable.keys() != names:
        return False
    if not set(map(type, guardable.values())) <= {bool}:
        return False
    if type(definitions) is not dict or definitions.keys() != names:
        return False
    if not set(map(type, definitions.values())) <= {dict}:
        return False
    named = [item for found in definitions.values() for item in found.items()]
    if not set(map(type, (name for name, _ in named))) <= {str}:
        return False
    if not set(map(type, (digests for _, digests in named))) <= {list}:
        return False
    return set(map(type, (d for _, digests in named for d in digests))) <= {str}


def _shared(data):
    """`data` with equal strings and tuples made one object, which marshal then
    writes once (a smaller file, and faster to read and check)."""
    seen: dict = {}

    def one(value):
        if type(value) is dict:
            return {one(k): one(v) for k, v in value.items()}
        if type(value) is list:
            return [one(v) for v in value]
        if type(value) is tuple:
            value = tuple(one(v) for v in value)
        if type(value) in (str, tuple):
            return seen.setdefault(value, value)
        return value

    return one(data)


def store_analysis(folder: Path, name: str, data: dict) -> None:
    """Write the analysis atomically into a folder of this user's (made 0700);
    a cache that cannot be written is no error."""
    store_checked(folder, name, _shared(data), "analysis-*")


# --------------------------------------------------------------------------
# Statements described before, by their text


_DESCRIPTION_KEYS = _STATEMENT_KEYS - {"span"}
_HEX = re.compile(r"[0-9a-f]+")
#: How many descriptions the memo keeps beyond those the last analyses used.
MEMO_SPARE = 4000


class StatementMemo:
    """The descriptions of statements (mtgkb.engine.analysis.analyse's
    `memo`) kept on disk across runs, by a digest of the statement's own
    text: after an edit of the rule base, only the statements edited are
    described again (the rest of the analysis is then a parse of the text,
    about 30 ms, where describing every statement takes about a second).
    The file holds digests (BLAKE2b, 128 bits) and descriptions (names,
    arities, values read from the program), no program text: what is
    grounded is always read from the rule base's files, at the offsets the
    analysis of that very text found. Read only from a folder of this
    user's that no one else may write to, and checked whole before use
    (every field's type and pattern); anything amiss and the memo starts
    empty."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.name = f"statements-{ANALYSIS_VERSION}-{clingo.__version__}.marshal"
        self.known: dict[str, dict] = {}
        if folder is not None:
            found = load_checked(folder / self.name, _sound_memo)
            if found is not None:
                self.known = found
        self.used: dict[str, dict] = {}
        self.added = 0

    def recording(self) -> dict:
        """The memo for `analyse(text, memo)`: reads and fills this one."""
        return _Recording(self)

    def store(self) -> None:
        """Write the descriptions used (and, up to MEMO_SPARE more, the others
        known) when any was added; a memo that cannot be written is no error."""
        if self.folder is None or not self.added:
            return
        spare = [k for k in self.known if k not in self.used][-MEMO_SPARE:]
        data = {k: self.known[k] for k in spare}
        data.update(self.used)
        store_checked(self.folder, self.name, data, "statements-*")
        self.added = 0


def statement_key(text: str) -> str:
    """What the memo keys a statement's description by: a digest of its text."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class _Recording(dict):
    """A memo for one `analyse` call: reads and fills a StatementMemo's."""

    def __init__(self, memo: StatementMemo):
        super().__init__()
        self.memo = memo

    def get(self, key, default=None):
        digest = statement_key(key)
        found = self.memo.known.get(digest)
        if found is not None:
            self.memo.used[digest] = found
            return found
        return default

    def __setitem__(self, key, value) -> None:
        digest = statement_key(key)
        self.memo.known[digest] = self.memo.used[digest] = value
        self.memo.added += 1


def _sound_memo(data) -> bool:
    if type(data) is not dict:
        return False
    if not all(type(k) is str and len(k) == 32 and _HEX.fullmatch(k) for k in data):
        return False
    return _sound_descriptions(list(data.values()), _DESCRIPTION_KEYS)
