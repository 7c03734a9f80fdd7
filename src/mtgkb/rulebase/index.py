"""The rule index: every CR rule the project encodes or relies on.

`kb/rule_index.lp` holds the facts (number, section, titles, our own one-line
paraphrases in English and Italian, the CR edition followed, older numbers);
this module reads them with clingo and looks a number up. Where each rule is
encoded is mtgkb.rulebase.encoded, which tests exercise it
mtgkb.rulebase.tested, the official CR text files mtgkb.rulebase.cr_text,
and `mtgkb rules` mtgkb.rulebase.command.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import clingo
import clingo.ast as cast

from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.disk_cache import cache_dir, content_digest, load_checked, store_checked
from mtgkb.rulebase.location import data_dir

# (the edition followed and the numbers' order live in mtgkb.rulebase.numbering)
from mtgkb.rulebase.numbering import EDITION, normalize, section_of, sort_key

LANGS = ("en", "it")

#: Statements that are rules of the program and need a tag (directives such as
#: `#defined`, `#const`, `#program`, `#external` and comments do not).
RULE_TYPES = frozenset(
    {
        cast.ASTType.Rule,
        cast.ASTType.ShowTerm,
        cast.ASTType.ShowSignature,
        cast.ASTType.Minimize,
        cast.ASTType.Heuristic,
        cast.ASTType.Edge,
        cast.ASTType.ProjectAtom,
    }
)


RULE_TYPE_NAMES = frozenset(t.name for t in RULE_TYPES)


# --------------------------------------------------------------------------
# The index
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleEntry:
    """One rule of the index."""

    id: str
    section: str
    paraphrase: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    edition: str = EDITION
    # (older number, last edition it had that number in, first edition with today's)
    older: tuple[tuple[str, str, str], ...] = ()
    same_as: tuple[str, ...] = ()  # rules that state the same thing
    relied_on: bool = False  # cited but intentionally not encoded
    digest: str | None = None  # fingerprint of the rule's text in its edition

    def text(self, lang: str = "en") -> str:
        return self.paraphrase.get(lang) or self.paraphrase.get("en", "")


@dataclass
class RuleIndex:
    entries: dict[str, RuleEntry]
    titles: dict[str, str]  # section or heading number -> title
    # older number -> [(last edition with that meaning, first edition without, today's number)]
    aliases: dict[str, list[tuple[str, str, str]]]

    def __contains__(self, number: str) -> bool:
        return normalize(number) in self.entries

    def __iter__(self):
        return iter(self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)

    def titles_for(self, number: str) -> list[tuple[str, str]]:
        """The titled ancestors of a rule: `702` Keyword Abilities, `702.9` Flying."""
        found = []
        parts = number.split(".")
        sect = parts[0]
        if sect in self.titles:
            found.append((sect, self.titles[sect]))
        if len(parts) > 1:
            digits = re.match(r"\d+", parts[1])
            heading = f"{sect}.{digits.group(0)}" if digits else sect
            if heading != number and heading in self.titles:
                found.append((heading, self.titles[heading]))
        return found


#: An official CR file names the date it takes effect, which may fall a few days
#: after the date the rule index names its edition by (the 2019 June edition:
#: published on the 12th, effective on the 14th). Editions are weeks apart, so
#: a file dated up to this many days after an edition of the index is that one.
EDITION_DAYS = 7


def index_editions(index: RuleIndex) -> set[str]:
    """The edition dates the index names: its rules' editions and the bounds of
    their older numbers."""
    dates = {e.edition for e in index if e.edition}
    for entry in index:
        for _old, upto, since in entry.older:
            dates |= {upto, since}
    return dates


def index_edition(date: str | None, index: RuleIndex | None) -> str | None:
    """The index's name of the edition a CR file dated `date` is: the date
    itself, or an index edition up to EDITION_DAYS days before it."""
    if date is None or index is None:
        return date
    import datetime as dt

    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        return date
    known = sorted(index_editions(index), reverse=True)
    for other in known:
        try:
            gap = (day - dt.date.fromisoformat(other)).days
        except ValueError:
            continue
        if 0 <= gap <= EDITION_DAYS:
            return other
    return date


def index_file() -> Path:
    return data_dir("kb") / "rule_index.lp"


def _strings(args: Iterable[clingo.Symbol]) -> list[str]:
    out = []
    for arg in args:
        if arg.type == clingo.SymbolType.String:
            out.append(arg.string)
        elif arg.type == clingo.SymbolType.Function:
            out.append(arg.name)
        else:
            out.append(str(arg))
    return out


def _read_facts(text: str) -> list[clingo.Symbol]:
    """Ground the index alone; its facts are all it has."""
    messages: list[str] = []
    ctl = new_control(["--warn=none"], lambda code, msg: messages.append(msg))
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    return [atom.symbol for atom in ctl.symbolic_atoms if atom.is_fact]


#: Bump when what `_facts_by_name` keeps changes.
INDEX_CACHE_VERSION = 1


def _facts_by_name(path: Path) -> dict[str, list[list[str]]]:
    """The index's facts by predicate name, each as its arguments' strings:
    read with clingo (about 30 ms: some 1,500 facts read through its API),
    or from the user's cache of them, keyed by the file's digest and checked
    whole (mtgkb.rulebase.disk_cache.load_checked: text only, never code)."""
    data = path.read_bytes()
    name = f"rule-index-{INDEX_CACHE_VERSION}-{content_digest(data)}-{clingo.__version__}.marshal"
    folder = cache_dir(os.environ)
    if folder is not None:
        found = load_checked(folder / name, _sound_facts)
        if found is not None:
            return found
    by: dict[str, list[list[str]]] = {}
    for sym in _read_facts(data.decode("utf-8")):  # (the bytes the cache is keyed by)
        by.setdefault(sym.name, []).append(_strings(sym.arguments))
    if folder is not None:
        store_checked(folder, name, by, "rule-index-*")
    return by


def _sound_facts(data) -> bool:
    return type(data) is dict and all(
        type(name) is str
        and type(facts) is list
        and all(type(f) is list and all(type(a) is str for a in f) for f in facts)
        for name, facts in data.items()
    )


@lru_cache(maxsize=8)
def _load(path: str, stamp: tuple[int, int]) -> RuleIndex:
    by = _facts_by_name(Path(path))
    ids = sorted({a[0] for a in by.get("cr_rule", [])}, key=sort_key)
    section = {a[0]: a[1] for a in by.get("cr_section", [])}
    edition = {a[0]: a[1] for a in by.get("cr_edition", [])}
    digest = {a[0]: a[1] for a in by.get("cr_digest", [])}
    relied = {a[0] for a in by.get("cr_relied_on", [])}
    para: dict[str, dict[str, str]] = {}
    for num, lang, text in by.get("paraphrase", []):
        para.setdefault(num, {})[lang] = text
    older: dict[str, list[tuple[str, str, str]]] = {}
    aliases: dict[str, list[tuple[str, str, str]]] = {}
    for old, upto, since, new in by.get("older_number", []):
        older.setdefault(new, []).append((old, upto, since))
        aliases.setdefault(old, []).append((upto, since, new))
    same: dict[str, set[str]] = {}
    for a, b in by.get("cr_same_as", []):
        same.setdefault(a, set()).add(b)
        same.setdefault(b, set()).add(a)
    entries = {
        n: RuleEntry(
            id=n,
            section=section.get(n, section_of(n)),
            paraphrase=para.get(n, {}),
            edition=edition.get(n, EDITION),
            older=tuple(sorted(older.get(n, []))),
            same_as=tuple(sorted(same.get(n, set()), key=sort_key)),
            relied_on=n in relied,
            digest=digest.get(n),
        )
        for n in ids
    }
    for old in aliases:
        aliases[old].sort(reverse=True)  # newest edition first
    titles = {a[0]: a[1] for a in by.get("cr_title", [])}
    return RuleIndex(entries, titles, aliases)


def load_index(path: Path | None = None) -> RuleIndex:
    """The rule index in `kb/rule_index.lp` (or `path`), read with clingo."""
    path = Path(path) if path is not None else index_file()
    stat = path.stat()
    return _load(str(path.resolve()), (stat.st_mtime_ns, stat.st_size))


# --------------------------------------------------------------------------
# Looking a number up
# --------------------------------------------------------------------------


class Lookup(NamedTuple):
    """A rule of the index and, where an older number was resolved, a note;
    `meanings`: when a number names different rules in different editions,
    each rule and the editions it holds for (newest first)."""

    entry: RuleEntry
    note: str | None
    meanings: tuple[tuple[RuleEntry, str], ...] = ()


_NOTES = {
    "en": {
        "alias": "{old} (up to {upto}) is {new} (from {since} on)",
        "both": "{old} means {new} ({title_new}) in editions up to {upto}, "
        "and {old} ({title_old}) from {since} on",
        "upto": "editions up to {upto}",
        "since": "editions from {since} on",
    },
    "it": {
        "alias": "{old} (fino al {upto}) è {new} (dal {since} in poi)",
        "both": "{old} indica {new} ({title_new}) nelle edizioni fino al {upto}, "
        "e {old} ({title_old}) dal {since} in poi",
        "upto": "edizioni fino al {upto}",
        "since": "edizioni dal {since} in poi",
    },
}


def _split_edition(number: str) -> tuple[str, str | None]:
    """`118.4a@2019-06-12` or `118.4a (2019-06-12)` -> number and edition."""
    match = re.fullmatch(
        r"\s*([0-9.a-zA-Z]+?)\s*(?:@\s*|\(\s*)(\d{4}-\d{2}-\d{2})\s*\)?\s*", number
    )
    if match:
        return normalize(match.group(1)), match.group(2)
    return normalize(number), None


def title_of(index: RuleIndex, number: str) -> str:
    titles = index.titles_for(number)
    return titles[0][1].lower() if titles else section_of(number)


def lookup(
    number: str, lang: str = "en", *, edition: str | None = None, index: RuleIndex | None = None
) -> Lookup:
    """The index entry for a CR number, today's or an older one.

    `number` may name an edition (`118.4a@2019-06-12`): the rule the number
    meant in that edition. Otherwise a number that is both one of today's and
    an older one of another rule (118.3) gives today's rule, with a note and
    both `meanings`; an older number only gives the rule it became.
    Raises KeyError for a number the index does not know.
    """
    index = index if index is not None else load_index()
    notes = _NOTES.get(lang, _NOTES["en"])
    num, named = _split_edition(number)
    edition = edition or named
    aliases = index.aliases.get(num, [])
    if edition is not None:
        for upto, since, new in aliases:
            if edition <= upto:
                note = notes["alias"].format(old=num, upto=upto, since=since, new=new)
                return Lookup(index.entries[new], note)
        if num in index.entries and all(edition >= since for _, since, _ in aliases):
            return Lookup(index.entries[num], None)
        raise KeyError(f"{num} is not a known number of the {edition} edition")
    if num in index.entries:
        if not aliases:
            return Lookup(index.entries[num], None)
        upto, since, new = aliases[0]
        note = notes["both"].format(
            old=num,
            new=new,
            upto=upto,
            since=since,
            title_new=title_of(index, new),
            title_old=title_of(index, num),
        )
        meanings = [(index.entries[num], notes["since"].format(since=since))]
        meanings += [(index.entries[n], notes["upto"].format(upto=u)) for u, _, n in aliases]
        return Lookup(index.entries[num], note, tuple(meanings))
    if aliases:
        upto, since, new = aliases[0]
        note = notes["alias"].format(old=num, upto=upto, since=since, new=new)
        return Lookup(index.entries[new], note)
    raise KeyError(f"{num} is not in the rule index")
