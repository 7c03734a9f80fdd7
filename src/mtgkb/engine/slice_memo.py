"""The rule base's slices (and the input checks') remembered on disk, so
that a cold run whose groundings were sliced before reads no analysis.

Which statements of the rule base a grounding keeps (`Analysis.needed`
after `Analysis.live`: backward, forward, backward slicing) is a function of
the analysis, the grounding's queries and what forward slicing reads of its
facts (`fact_sources`: each fact's name, and its values at the positions
some body literal fixes; rarely a user's name). Files alike in those get the
same statements, whatever else they hold: the files of a batch ask it 290
times for 21 distinct answers (`DescribedProgram.live`). A cold `mtgkb run`
worked it out from the whole analysis, read from its cache and checked
(about a fifth of the run); now the first groundings of a process
(RULE_BASE_PARSE_AFTER: those given the statements as text) look the answer
up here first, and only a new one reads the analysis, and is then
remembered.

The file, keyed by the analysis's own key (its rule base's and queries'
texts, ANALYSIS_VERSION, clingo's version) and by a digest of the code that
slices (DECIDING: another version of it reads none of it), holds what the
look-up needs: the queries' names, the fixed positions, each statement's
byte offsets (checked against the statements of the text, as the
analysis's are), what the analysis says of each query (whether it can be
guarded, its definitions: what grouping a file's questions reads), and the
answers, each under a BLAKE2b digest of what it answers (no name of a
user's is written), each a set of statement numbers as bits.
It is read only from a folder of this user's that no one else may write to,
and checked whole before use; anything amiss and it is as if empty. Its
program text is always read from the rule base, never from the file.
(`MTGKB_SLICE_MEMO=0` switches it off, for comparison.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path

import clingo

from mtgkb.engine.analysis import (
    DescribedProgram,
    FactReadings,
    fact_sources,
    statements_text,
)
from mtgkb.engine.analysis_cache import sound_said, sound_spans
from mtgkb.rulebase.disk_cache import content_digest, load_checked, store_checked

#: How many answers a file keeps (the newest); each is a bit a statement
#: (about 210 bytes for the rule base).
MOST_SLICES = 200
_FIELDS = frozenset({"key", "queries", "positions", "spans", "slices", "guardable", "definitions"})


class SliceMemo:
    """The slices of one rule base (by its analysis key `key`; `source`: its
    text, as bytes) remembered in `folder`."""

    def __init__(self, folder: Path, key: str, source: bytes, first: int | None = None):
        """`first`: how many look-ups of this process it answers, and
        remembers the slices of (None: all), those of the groundings given
        the statements as text."""
        code = code_digest()
        self.path = folder / f"slices-{key}-{code}.marshal"
        self.key = key
        self.source = source
        self.first = first if code else 0  # (nothing looked up, nor remembered)
        self.asked = 0  # look-ups so far
        self.queries: frozenset[str] = frozenset()
        self.positions: dict[str, tuple[int, ...]] = {}
        self.spans: list[tuple[int, int]] = []
        self.slices: dict[str, bytes] = {}
        # what the analysis says of each query (Analysis.guardable, .definitions)
        self.guardable: dict[str, bool] = {}
        self.definitions: dict[str, dict[str, list[str]]] = {}
        found = load_checked(self.path, self._sound) if code else None
        if found is not None:
            self.queries = frozenset(found["queries"])
            self.positions = found["positions"]
            self.spans = found["spans"]
            self.slices = found["slices"]
            self.guardable = found["guardable"]
            self.definitions = found["definitions"]

    def looked_up(
        self,
        queries: Sequence[str],
        atoms: Sequence[clingo.Symbol],
        readings: dict | FactReadings | None = None,
    ) -> list[int] | None:
        """The statements a grounding of `queries` on the facts `atoms` keeps,
        as remembered; None when not remembered. (`readings`: as for
        `fact_sources`.)"""
        self.asked += 1
        if not self.answers() or not self.spans or not self.queries.issuperset(queries):
            return None
        found = self.slices.get(self._digest(queries, atoms, readings))
        return None if found is None else _numbers(found)

    def answers(self) -> bool:
        """Whether it answers this process's look-ups still (`first`), and
        remembers what they did not find."""
        return self.first is None or self.asked <= self.first

    def remember(
        self,
        queries: Sequence[str],
        atoms: Sequence[clingo.Symbol],
        readings: dict | FactReadings | None,
        kept: list[int],
        program: DescribedProgram,
        said: Mapping[str, tuple[bool, dict[str, list[str]]]],
    ) -> None:
        """Remember `kept` (what `program` sliced for `queries` on `atoms`) and
        write the file; one that cannot be written is no error. `said`: what
        the analysis says of each query (whether it can be guarded, the
        digests of the rules defining each predicate in it)."""
        if not self.answers():
            return
        if not self.spans:
            self.queries = frozenset(said)
            self.positions = program.fixed_positions()
            self.spans = [st["span"] for st in program.statements]
            self.guardable = {q: guardable for q, (guardable, _) in said.items()}
            self.definitions = {q: defined for q, (_, defined) in said.items()}
        digest = self._digest(queries, atoms, readings)
        self.slices.pop(digest, None)
        self.slices[digest] = _bits(kept, len(self.spans))
        while len(self.slices) > MOST_SLICES:
            del self.slices[next(iter(self.slices))]
        data = {
            "key": self.key,
            "queries": sorted(self.queries),
            "positions": self.positions,
            "spans": self.spans,
            "slices": self.slices,
            "guardable": self.guardable,
            "definitions": self.definitions,
        }
        store_checked(self.path.parent, self.path.name, data, "slices-*")

    def program(self, kept: Iterable[int]) -> str:
        """The text of the statements `kept` (ascending), as
        `DescribedProgram.program` makes it: read from the rule base's text."""
        return statements_text(self.source, (self.spans[i] for i in kept))

    def _digest(
        self,
        queries: Sequence[str],
        atoms: Sequence[clingo.Symbol],
        readings: dict | FactReadings | None,
    ) -> str:
        """What a slice answers, as a digest: the queries, and the facts as
        forward slicing reads them, in one order."""
        read = fact_sources(atoms, self.positions, readings)
        what = (tuple(queries), sorted((name, sorted(values)) for name, values in read.items()))
        return hashlib.blake2b(repr(what).encode("utf-8"), digest_size=16).hexdigest()

    def _sound(self, data) -> bool:
        """Every field of the file what it should be, its offsets the
        statements of the text."""
        if type(data) is not dict or data.keys() != _FIELDS or data["key"] != self.key:
            return False
        queries, positions, spans, slices = (
            data["queries"],
            data["positions"],
            data["spans"],
            data["slices"],
        )
        if type(queries) is not list or not set(map(type, queries)) <= {str}:
            return False
        if type(positions) is not dict or not set(map(type, positions)) <= {str}:
            return False
        read = list(positions.values())
        if not set(map(type, read)) <= {tuple}:
            return False
        numbers = [i for p in read for i in p]
        if not set(map(type, numbers)) <= {int} or any(i < 0 for i in numbers):
            return False
        if type(spans) is not list or not spans or not sound_spans(spans, self.source):
            return False
        if type(slices) is not dict or not set(map(type, slices)) <= {str}:
            return False
        if not all(len(d) == 32 and d.isalnum() for d in slices):
            return False
        # (each slice a set of statements: its bits, none past the last statement)
        size, spare = (len(spans) + 7) // 8, -len(spans) % 8
        if not set(map(type, slices.values())) <= {bytes}:
            return False
        if not set(map(len, slices.values())) <= {size}:
            return False
        if any(kept[-1] >> (8 - spare) for kept in slices.values()):
            return False
        return sound_said(data["guardable"], data["definitions"], set(queries))


#: The engine's modules whose code decides a slice (beside this one).
DECIDING = ("analysis.py", "slice_memo.py", "solve.py")


@cache
def code_digest() -> str:
    """A digest of the code that decides a slice (DECIDING): a slice
    remembered by another version of it is not read. ("" when that code
    cannot be read: then nothing is remembered.)"""
    try:
        data = b"".join(Path(__file__).with_name(name).read_bytes() for name in DECIDING)
    except OSError:
        return ""
    return content_digest(data)


def _bits(kept: Iterable[int], size: int) -> bytes:
    """The statements `kept` (of `size`) as a set of bits: statement i is bit
    i % 8 of byte i // 8 (a slice checked in one look at its length, where a
    list of numbers is checked number by number)."""
    bits = bytearray((size + 7) // 8)
    for i in kept:
        bits[i >> 3] |= 1 << (i & 7)
    return bytes(bits)


def _numbers(bits: bytes) -> list[int]:
    """The statements of a set of bits (`_bits`), ascending."""
    out = []
    for byte_at, byte in enumerate(bits):
        while byte:
            low = byte & -byte
            out.append(byte_at * 8 + low.bit_length() - 1)
            byte ^= low
    return out
