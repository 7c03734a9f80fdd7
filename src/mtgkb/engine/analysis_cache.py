"""The slicing analysis cached on disk, keyed by the rule base's digest.

The cache holds no program text: statements are byte offsets into the rule
base. It is read only from a folder of this user's that no one else may
write to, and checked whole before use; anything amiss and the analysis is
worked out again, quietly.
"""

from __future__ import annotations

import os
import re
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from mtgkb.engine.analysis import ANALYSIS_VERSION, UNKNOWN

if TYPE_CHECKING:
    from mtgkb.engine.rule_base import _RuleBase

# (Where the cache lives is an engine option: mtgkb.engine.state.Options.cache_dir.)

# --------------------------------------------------------------------------
# The analysis cache on disk: MAGIC, a digest of the payload, the payload
# (marshal: plain lists, tuples, dicts, strings, numbers; read in about a
# millisecond, against 3-7 ms for JSON). marshal is not meant for data from
# others: a cache is read only from a folder of this user's that no one else
# may write to, when its digest matches, and every value is then checked.

CACHE_MAGIC = b"mtgkb-analysis\x00" + bytes([ANALYSIS_VERSION])
MAX_CACHE_BYTES = 64 << 20  # a larger file is not read
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


def _private_folder(folder: Path) -> bool:
    """Whether `folder` is this user's and no one else may write to it."""
    try:
        info = folder.stat()
    except OSError:
        return False
    if not hasattr(os, "getuid"):
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def _load_analysis(path: Path, key: str, source: bytes, base: _RuleBase) -> dict | None:
    """The cached analysis at `path` if it is sound for this rule base, else None."""
    return load_checked(path, lambda data: _sound(data, key, source, base))


def load_checked(path: Path, sound) -> object | None:
    """The data cached at `path` (by `store_checked`) if the file is this
    user's, in a folder no one else may write to, whole (its digest), and
    `sound(data)` says every value is what it should be; else None."""
    import marshal

    if not _private_folder(path.parent):
        return None
    try:
        with open(path, "rb") as cached:
            info = os.fstat(cached.fileno())
            if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
                return None
            if info.st_size > MAX_CACHE_BYTES:
                return None
            # read(n) would first allocate n bytes: under a request's memory
            # bound (a server worker) that alone could exceed it
            blob = cached.read(info.st_size + 1)
    except OSError:
        return None
    head = len(CACHE_MAGIC)
    if len(blob) < head + 8 or blob[:head] != CACHE_MAGIC:
        return None
    payload = blob[head + 8 :]
    if blob[head : head + 8] != _payload_digest(payload):
        return None
    try:
        data = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    try:
        if sound(data):
            return data
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, UnicodeError):
        pass
    return None


def _payload_digest(payload: bytes) -> bytes:
    return (zlib.crc32(payload) & 0xFFFFFFFF).to_bytes(4, "big") + (
        zlib.adler32(payload) & 0xFFFFFFFF
    ).to_bytes(4, "big")


def _is_atom_pattern(p, last) -> bool:
    """The unknown atom, or a (name, arity, X) pattern whose X `last(X)` accepts."""
    if p == UNKNOWN:
        return True
    return (
        type(p) is tuple and len(p) == 3 and type(p[0]) is str and type(p[1]) is int and last(p[2])
    )


def _is_pattern(p) -> bool:
    """A [name, arity, first] pattern (or the unknown atom)."""
    return _is_atom_pattern(p, lambda first: first is None or type(first) is str)


def _is_fixed(p) -> bool:
    """A [name, arity, ((position, value, shape), ...)] pattern (or the unknown atom)."""
    return _is_atom_pattern(p, _is_fixed_arguments)


def _is_fixed_arguments(fixed) -> bool:
    return type(fixed) is tuple and all(
        type(f) is tuple
        and len(f) == 3
        and type(f[0]) is int
        and type(f[1]) is str
        and type(f[2]) is str
        for f in fixed
    )


def _sound_statements(statements, source: bytes) -> bool:
    """Every statement well formed, and their offsets the statements of `source`:
    in order, each ending with a full stop, only blanks and comments between."""
    if type(statements) is not list:
        return False
    at = 0
    last = None
    gap = _GAP.fullmatch
    patterns: set = set()
    names: set = set()
    fixed: set = set()
    fixed_read: set = set()
    for st in statements:
        if type(st) is not dict or st.keys() != _STATEMENT_KEYS:
            return False
        span = st["span"]
        if type(span) is not tuple or len(span) != 2:
            return False
        start, end = span
        if type(start) is not int or type(end) is not int:
            return False
        if type(st["root"]) is not bool or type(st["restricts_shown"]) is not bool:
            return False
        if type(st["defines_constant"]) is not bool:
            return False
        fixed_heads, fixed_needs = st["fixed_heads"], st["fixed_needs"]
        if type(fixed_heads) is not list or type(fixed_needs) is not list:
            return False
        fixed.update(fixed_heads)  # (checked once each, below)
        fixed_read.update(fixed_needs)
        heads, needs = st["heads"], st["needs"]
        fwd_heads, fwd_needs, other_needs = st["fwd_heads"], st["fwd_needs"], st["other_needs"]
        if not (
            type(heads) is list
            and type(needs) is list
            and type(fwd_heads) is list
            and type(fwd_needs) is list
            and type(other_needs) is list
        ):
            return False
        patterns.update(heads)  # (a list inside is unhashable: TypeError, caught)
        patterns.update(needs)
        names.update(fwd_heads)
        names.update(fwd_needs)
        names.update(other_needs)
        if span == last:
            continue  # several statements of one (a #minimize's elements)
        if not at <= start <= end <= len(source) or not gap(source, at, start):
            return False
        if end > start and source[end - 1] != 46:  # a full stop ends each statement
            return False
        at, last = end, span
    if not all(_is_pattern(p) for p in patterns) or not all(type(n) is str for n in names):
        return False
    if UNKNOWN in fixed_read or not all(_is_fixed(p) for p in fixed | fixed_read):
        return False
    return bool(gap(source, at, len(source)))


def _sound(data, key: str, source: bytes, base: _RuleBase) -> bool:
    if type(data) is not dict or data.keys() != {
        "key",
        "base",
        "queries",
        "guardable",
        "definitions",
    }:
        return False
    if data["key"] != key or not _sound_statements(data["base"], source):
        return False
    names = set(base.query_texts)
    queries, guardable, definitions = data["queries"], data["guardable"], data["definitions"]
    if type(queries) is not dict or queries.keys() != names:
        return False
    if type(guardable) is not dict or guardable.keys() != names:
        return False
    if type(definitions) is not dict or definitions.keys() != names:
        return False
    for q in names:
        if not _sound_statements(queries[q], base.query_texts[q].encode("utf-8")):
            return False
        if type(guardable[q]) is not bool or type(definitions[q]) is not dict:
            return False
        for pred, digests in definitions[q].items():
            if type(pred) is not str or type(digests) is not list:
                return False
            if not all(type(d) is str for d in digests):
                return False
    return True


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


def _store_analysis(folder: Path, name: str, data: dict) -> None:
    """Write the analysis atomically into a folder of this user's (made 0700);
    a cache that cannot be written is no error."""
    store_checked(folder, name, _shared(data), "analysis-*")


def store_checked(folder: Path, name: str, data, family: str) -> None:
    """Write `data` (marshal) atomically as `folder/name`, in a folder of this
    user's (made 0700), keeping the 8 newest files of its `family` (a glob);
    a cache that cannot be written is no error."""
    import marshal

    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private_folder(folder):
            return
        payload = marshal.dumps(data)
        temporary = folder / f".{name}.{os.getpid()}.tmp"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(CACHE_MAGIC + _payload_digest(payload) + payload)
        os.replace(temporary, folder / name)
    except (OSError, ValueError):
        return
    _prune(folder, family, keep=8)


def _prune(folder: Path, pattern: str, keep: int) -> None:
    """Delete all but the `keep` newest cache files (each edit of the rules makes one)."""
    try:
        files = sorted(folder.glob(pattern), key=lambda f: f.stat().st_mtime, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
