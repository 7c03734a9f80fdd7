"""The rule index: every CR rule the project encodes or relies on.

`kb/rule_index.lp` holds the facts (number, section, titles, our own one-line
paraphrases in English and Italian, the CR edition followed, older numbers);
this module reads them with clingo, finds where each rule is encoded (the
`% N` tags of `rules/*.lp`, located with `clingo.ast`) and which tests and
examples exercise it, and renders `mtgkb rules [NUMBER] [--lang it] [--json]`.
"""

from __future__ import annotations

import argparse
import ast as pyast
import hashlib
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import clingo
import clingo.ast as cast

from mtgkb.engine import citations
from mtgkb.engine.control import new_control
from mtgkb.engine.programs import stamp
from mtgkb.rulebase.location import current as current_rule_base
from mtgkb.rulebase.location import data_dir, program_files
from mtgkb.rulebase.tags import (
    parse_tag,
    tag_cites,
)

#: The edition of the Comprehensive Rules the rule base follows.
EDITION = "2026-04-17"
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


def normalize(number: str) -> str:
    """`119.4a.` or ` 119.4A ` -> `119.4a`."""
    return number.strip().rstrip(".").lower()


def section_of(number: str) -> str:
    return number.split(".", 1)[0]


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


def _read_facts(path: Path) -> list[clingo.Symbol]:
    """Ground the index alone; its facts are all it has."""
    messages: list[str] = []
    ctl = new_control(["--warn=none"], lambda code, msg: messages.append(msg))
    ctl.load(str(path))
    ctl.ground([("base", [])])
    return [atom.symbol for atom in ctl.symbolic_atoms if atom.is_fact]


@lru_cache(maxsize=8)
def _load(path: str, stamp: tuple[int, int]) -> RuleIndex:
    facts = _read_facts(Path(path))
    by: dict[str, list[list[str]]] = {}
    for sym in facts:
        by.setdefault(sym.name, []).append(_strings(sym.arguments))
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


def sort_key(number: str) -> tuple:
    """Numeric order: 119.9 < 119.10, 119.1 < 119.1a."""
    sect, _, rest = number.partition(".")
    match = re.fullmatch(r"(\d*)([a-z]?)", rest)
    if not match:
        return (int(sect) if sect.isdigit() else 0, 0, rest)
    return (int(sect), int(match.group(1) or -1), match.group(2))


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


def _title(index: RuleIndex, number: str) -> str:
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
            title_new=_title(index, new),
            title_old=_title(index, num),
        )
        meanings = [(index.entries[num], notes["since"].format(since=since))]
        meanings += [(index.entries[n], notes["upto"].format(upto=u)) for u, _, n in aliases]
        return Lookup(index.entries[num], note, tuple(meanings))
    if aliases:
        upto, since, new = aliases[0]
        note = notes["alias"].format(old=num, upto=upto, since=since, new=new)
        return Lookup(index.entries[new], note)
    raise KeyError(f"{num} is not in the rule index")


# --------------------------------------------------------------------------
# Where rules are encoded: the `% N` tags of the ASP files
# --------------------------------------------------------------------------


@dataclass
class Statement:
    """One statement of an ASP file and the tag line it sits under."""

    file: Path
    line: int
    end_line: int
    kind: str
    tags: tuple[str, ...] | None  # None: no tag line above it
    tag_line: int | None
    ast: cast.AST | None = field(default=None, repr=False)
    cite: bool = False  # the tag asks for generated citations (`% N cite:`)
    generated: bool = False  # a citation generated from the `cite` tag of the rule at `line`

    @property
    def is_rule(self) -> bool:
        return self.kind in RULE_TYPE_NAMES

    @property
    def is_citation(self) -> bool:
        """A rule that only says which CR rule or conclusion another conclusion
        rests on (`because/2`, `rests_on/2`): it cites its rule, it does not
        encode it."""
        if self.kind != "Rule" or self.ast is None:
            return False
        head = self.ast.head
        if head.ast_type != cast.ASTType.Literal or head.atom.ast_type != cast.ASTType.SymbolicAtom:
            return False
        term = head.atom.symbol
        return term.ast_type == cast.ASTType.Function and (term.name, len(term.arguments)) in {
            ("because", 2),
            ("rests_on", 2),
        }

    @property
    def encodes(self) -> bool:
        """A rule that encodes the CR rules of its tag (not a citation, not `% no rule`)."""
        return self.is_rule and bool(self.tags) and not self.is_citation


@dataclass
class TagLine:
    file: Path
    line: int
    numbers: tuple[str, ...]
    malformed: tuple[str, ...]
    cite: bool = False  # `% N cite: ...`: the rule below gets generated citations


@dataclass
class FileScan:
    path: Path
    statements: list[Statement]
    tags: list[TagLine]
    errors: list[str]


def _tag_of(comment: cast.AST) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    if comment.comment_type != 0:  # a block comment is never a tag
        return None
    return parse_tag(comment.value)


def scan_file(path: Path) -> FileScan:
    """Every statement of an ASP file with the tag line it sits under, and
    the citations its `cite` tags ask for (`generated`, at the marked rule's line).

    A statement is tagged by the nearest tag comment above it in its block:
    walking up from the statement, only comment lines and other statements
    may come between; a blank line ends the block.
    """
    items: list[cast.AST] = []
    errors: list[str] = []

    def log(code, message):
        errors.append(message.strip())

    try:
        cast.parse_files([str(path)], items.append, logger=log)
    except RuntimeError:
        if not errors:
            errors.append(f"{path}: cannot be parsed")
        return FileScan(path, [], [], errors)
    return _scan_items(path, items, errors)


def scan_text(text: str, path: Path) -> FileScan:
    """`scan_file` of a file's text (`path` names it in the statements)."""
    items: list[cast.AST] = []
    errors: list[str] = []

    def log(code, message):
        errors.append(message.strip().replace("<string>", str(path), 1))

    try:
        cast.parse_string(text, items.append, logger=log)
    except RuntimeError:
        if not errors:
            errors.append(f"{path}: cannot be parsed")
        return FileScan(path, [], [], errors)
    return _scan_items(path, items, errors)


def _scan_items(path: Path, items: list[cast.AST], errors: list[str]) -> FileScan:
    items = [i for i in items if i.ast_type != cast.ASTType.Program]
    items.sort(key=lambda i: (i.location.begin.line, i.location.begin.column))
    tags: list[TagLine] = []
    tag_at: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    cite_at: set[int] = set()
    for k, item in enumerate(items):
        if item.ast_type != cast.ASTType.Comment:
            continue
        first_on_line = k == 0 or items[k - 1].location.end.line < item.location.begin.line
        parsed = _tag_of(item) if first_on_line else None
        if parsed is not None:
            tag_at[k] = parsed
            cites = tag_cites(item.value)
            if cites:
                cite_at.add(k)
            tags.append(TagLine(path, item.location.begin.line, parsed[0], parsed[1], cites))
    statements = []
    for k, item in enumerate(items):
        if item.ast_type == cast.ASTType.Comment:
            continue
        top = item.location.begin.line
        found: int | None = None
        j = k - 1
        while j >= 0:
            above = items[j]
            if above.location.end.line < top - 1:
                break  # a blank line
            if j in tag_at:
                found = j
                break
            top = min(top, above.location.begin.line)
            j -= 1
        statements.append(
            Statement(
                file=path,
                line=item.location.begin.line,
                end_line=item.location.end.line,
                kind=item.ast_type.name,
                tags=tag_at[found][0] if found is not None else None,
                tag_line=items[found].location.begin.line if found is not None else None,
                ast=item,
                cite=found in cite_at,
            )
        )
    return FileScan(path, statements + _generated(statements, errors), tags, errors)


def _generated(statements: list[Statement], errors: list[str]) -> list[Statement]:
    """The citations the `cite` tags ask for (mtgkb.engine.citations), each
    once, as statements at the marked rule's line."""
    out: list[Statement] = []
    seen: set[str] = set()
    for st in statements:
        if not st.cite:
            continue
        try:
            made = citations.citations_of(st.ast, st.tags or ())
        except citations.CitationError as err:
            errors.append(f"{st.file}:{st.line}: {err}")
            continue
        for number, text in zip(st.tags or (), made, strict=True):
            if citations.same(text) in seen:
                continue
            seen.add(citations.same(text))
            node = citations.parsed(text)
            out.append(
                Statement(
                    st.file,
                    st.line,
                    st.end_line,
                    "Rule",
                    (number,),
                    st.tag_line,
                    node,
                    generated=True,
                )
            )
    return out


@lru_cache(maxsize=64)
def _scan_cached(path: str, stamp: tuple) -> FileScan:
    return scan_file(Path(path))


def scan_folder(folder: Path) -> list[FileScan]:
    """Every `*.lp` file of a folder, scanned (cached while the files are unchanged)."""
    files = program_files(Path(folder))
    return [_scan_cached(str(f), stamp([f])) for f in files]


def default_root() -> Path:
    """The folder holding `rules/`, `kb/`, `queries/` (a checkout or the installed package)."""
    return data_dir("rules").parent


def label(path: Path, line: int | None = None) -> str:
    """`rules/102_players.lp:12`: the folder and file name, and the line (the
    whole path for a file of no rule base folder, such as a `--with` file)."""
    path = Path(path)
    inside = path.parent.name in ("rules", "kb", "queries") or not path.is_absolute()
    text = f"{path.parent.name}/{path.name}" if inside else str(path)
    return f"{text}:{line}" if line is not None else text


def encoded_map(root: Path | None = None, *, cited: bool = False) -> dict[str, list[str]]:
    """Each CR number tagged in `rules/*.lp` -> the `rules/FILE.lp:LINE` of the
    rules that encode it (with `cited`, of the rules that only cite it)."""
    folder = (Path(root) / "rules") if root is not None else data_dir("rules")
    scans = scan_folder(folder)
    if root is None:  # the user's added files are encodings too
        scans += [scan_file(p) for p in current_rule_base().extra]
    found: dict[str, list[str]] = {}
    for scan in scans:
        for st in scan.statements:
            if st.is_rule and st.tags and st.is_citation == cited:
                for num in st.tags:
                    found.setdefault(num, []).append(label(st.file, st.line))
    return found


def cited_at(number: str, root: Path | None = None) -> list[str]:
    """Where rules only cite a CR number (`because/2`, `rests_on/2` under its tag)."""
    return encoded_map(root, cited=True).get(normalize(number), [])


def encoded_at(number: str, root: Path | None = None) -> list[str]:
    """Where the ASP rules under a `% N` tag sit: `rules/FILE.lp:LINE`."""
    return encoded_map(root).get(normalize(number), [])


# --------------------------------------------------------------------------
# Which tests and examples exercise a rule
# --------------------------------------------------------------------------


def _test_functions(path: Path) -> list[str]:
    try:
        tree = pyast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, OSError):
        return []
    found = []

    def visit(node, prefix):
        for child in getattr(node, "body", []):
            if isinstance(child, pyast.FunctionDef | pyast.AsyncFunctionDef):
                if child.name.startswith("test_"):
                    found.append(prefix + child.name)
            elif isinstance(child, pyast.ClassDef):
                visit(child, f"{prefix}{child.name}::")

    visit(tree, "")
    return found


def _number_tokens(number: str) -> list[str]:
    return number.replace(".", "_").split("_")


def names_rule(name: str, number: str) -> bool:
    """A test name names a rule when its `_`-separated words hold the number's parts."""
    words = name.lower().split("_")
    want = _number_tokens(number)
    n = len(want)
    return any(words[i : i + n] == want for i in range(len(words) - n + 1))


def _expected_citations(path: Path) -> set[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    cited: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("cites", "cites_any", "rules") and isinstance(item, list):
                    cited.update(normalize(str(x)) for x in item)
                elif key == "rule" and isinstance(item, str):
                    cited.add(normalize(item))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(data)
    return cited


def example_folders(root: Path) -> list[tuple[Path, str]]:
    """`examples/` and the shared conformance cases beside the checkout, where present."""
    folders = [
        (root / "examples", "examples"),
        (root.parent / "shared" / "conformance", "../shared/conformance"),
    ]
    return [(f, name) for f, name in folders if f.is_dir()]


@lru_cache(maxsize=8)
def _tests_cached(root: str, stamp: tuple) -> tuple[list[str], dict[str, set[str]]]:
    base = Path(root)
    tests = []
    for f in sorted((base / "tests").glob("*.py")):
        tests += [f"tests/{f.name}::{name}" for name in _test_functions(f)]
    examples: dict[str, set[str]] = {}
    for folder, name in example_folders(base):
        for exp in sorted(folder.glob("*.expected.json")):
            case = exp.name[: -len(".expected.json")] + ".mtg"
            examples[f"{name}/{case}"] = _expected_citations(exp)
    return tests, examples


def _test_sources(root: Path) -> tuple[list[str], dict[str, set[str]]]:
    files = sorted((root / "tests").glob("*.py"))
    for folder, _ in example_folders(root):
        files += sorted(folder.glob("*.expected.json"))
    return _tests_cached(str(root), stamp(files))


def tested_map(root: Path | None = None, numbers: Iterable[str] = ()) -> dict[str, list[str]]:
    """Each number -> the tests naming it and the examples whose expected answer cites it."""
    root = Path(root) if root is not None else default_root()
    tests, examples = _test_sources(root)
    out: dict[str, list[str]] = {}
    for num in numbers:
        found = [t for t in tests if names_rule(t.rsplit("::", 1)[-1], num)]
        found += [case for case, cited in examples.items() if num in cited]
        out[num] = found
    return out


def tested_by(number: str, root: Path | None = None) -> list[str]:
    """Tests whose name holds the number (`test_802_4a_...`) and examples citing it."""
    num = normalize(number)
    return tested_map(root, [num])[num]


# --------------------------------------------------------------------------
# CR text files: numbers, edition date, text fingerprints
# --------------------------------------------------------------------------

_RULE_LINE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)\.?(?:\s+|$)(.*)$")
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july "
        "august september october november december".split()
    )
}


@dataclass
class CRText:
    """An official CR text file: its edition date and each rule's text fingerprint."""

    edition: str | None
    digests: dict[str, str]
    # each rule's text, whitespace made single: read from the user's file, never stored
    texts: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def numbers(self) -> set[str]:
        return set(self.digests)


def text_digest(text: str) -> str:
    """A fingerprint of a rule's text (quotes and spacing normalized), never the text."""
    text = (
        text.replace("\u2019", "'")
        .replace("\u2018", "'")
        .replace("\u201c", '"')
        .replace("\u201d", '"')
    )
    text = " ".join(text.split())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def read_cr(path: Path) -> CRText:
    """Rule numbers and text fingerprints of an official CR text file (examples left out)."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    edition = None
    date = re.search(r"effective\s+(?:as\s+of\s+)?([A-Z][a-z]+)\s+(\d{1,2}),\s+(\d{4})", text)
    if date and date.group(1).lower() in _MONTHS:
        month = _MONTHS[date.group(1).lower()]
        edition = f"{date.group(3)}-{month:02d}-{int(date.group(2)):02d}"
    blocks: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.split("\n"):
        match = _RULE_LINE.match(line)
        if match:
            current = match.group(1)
            blocks[current] = [match.group(2)]  # the body's text wins over a contents line
        elif line.strip() in ("Glossary", "Credits") and current is not None:
            current = None  # the rules are over: the glossary belongs to no rule
        elif current is not None and line.strip() and not line.strip().startswith("Example:"):
            blocks[current].append(line)
    texts = {n: " ".join(" ".join(lines).split()) for n, lines in blocks.items()}
    return CRText(edition, {n: text_digest(t) for n, t in texts.items()}, texts)


# --------------------------------------------------------------------------
# `mtgkb rules`
# --------------------------------------------------------------------------


def entry_dict(
    entry: RuleEntry,
    lang: str = "en",
    note: str | None = None,
    *,
    index: RuleIndex | None = None,
    encoded: list[str] | None = None,
    tested: list[str] | None = None,
    cited: list[str] | None = None,
) -> dict:
    """One entry as JSON: everything `mtgkb rules N --json` prints."""
    index = index if index is not None else load_index()
    out = {
        "id": entry.id,
        "section": entry.section,
        "titles": [{"id": n, "title": t} for n, t in index.titles_for(entry.id)],
        "paraphrase": entry.text(lang),
        "lang": lang if lang in entry.paraphrase else "en",
        "edition": entry.edition,
        "older_numbers": [
            {"id": old, "edition": upto, "editions": f"up to {upto}", "renumbered_in": since}
            for old, upto, since in entry.older
        ],
        "same_as": list(entry.same_as),
        "relied_on": entry.relied_on,
        "encoded_at": encoded if encoded is not None else encoded_at(entry.id),
        "cited_at": cited if cited is not None else cited_at(entry.id),
        "tested_by": tested if tested is not None else tested_by(entry.id),
    }
    if note:
        out["note"] = note
    return out


_LABELS = {
    "en": {
        "edition": "CR edition",
        "older": "older numbers",
        "same": "states the same as",
        "encoded": "encoded at",
        "cited": "cited (because/2, rests_on/2) at",
        "tested": "tested by",
        "relied": "relied on, not encoded",
        "none": "(none)",
        "note": "note",
        "upto": "up to",
        "meanings": "this number means",
        "no_tests": "(this rule base has no tests/ folder: see --rule-base)",
    },
    "it": {
        "edition": "edizione del CR",
        "older": "numeri precedenti",
        "same": "dice lo stesso di",
        "encoded": "codificata in",
        "cited": "citata (because/2, rests_on/2) in",
        "tested": "provata da",
        "relied": "citata ma non codificata",
        "none": "(nessuno)",
        "note": "nota",
        "upto": "fino al",
        "meanings": "questo numero indica",
        "no_tests": "(questa base di regole non ha la cartella tests/: vedi --rule-base)",
    },
}


def format_entry(
    entry: RuleEntry,
    lang: str = "en",
    note: str | None = None,
    *,
    index: RuleIndex | None = None,
    encoded: list[str] | None = None,
    tested: list[str] | None = None,
    cited: list[str] | None = None,
) -> str:
    """One entry as readable text: paraphrase, edition, older numbers, where encoded and tested."""
    data = entry_dict(entry, lang, note, index=index, encoded=encoded, tested=tested, cited=cited)
    words = _LABELS.get(lang, _LABELS["en"])
    titles = " / ".join(f"{t['id']} {t['title']}" for t in data["titles"])
    lines = [f"{entry.id}" + (f"  ({titles})" if titles else ""), f"  {data['paraphrase']}"]
    lines.append(f"  {words['edition']}: {entry.edition}")
    if entry.older:
        lines.append(
            f"  {words['older']}: "
            + ", ".join(f"{o} ({words['upto']} {u})" for o, u, _ in entry.older)
        )
    if entry.same_as:
        lines.append(f"  {words['same']}: " + ", ".join(entry.same_as))
    if entry.relied_on:
        lines.append(f"  {words['relied']}")
    for key, field_name in (
        ("encoded", "encoded_at"),
        ("cited", "cited_at"),
        ("tested", "tested_by"),
    ):
        values = data[field_name]
        if key == "cited" and not values:
            continue
        empty = words["none"]
        if key == "tested" and not (default_root() / "tests").is_dir():
            empty = words["no_tests"]
        lines.append(f"  {words[key]}:" + ("" if values else f" {empty}"))
        lines += [f"    {v}" for v in values]
    if note:
        lines.append(f"  {words['note']}: {note}")
    return "\n".join(lines)


def _table(entries: list[RuleEntry], index: RuleIndex, lang: str, encoded, tested) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"mtgkb rule index (CR {EDITION})", show_lines=False)
    table.add_column("rule", style="bold", no_wrap=True)
    table.add_column("section")
    table.add_column("paraphrase" if lang == "en" else "parafrasi")
    table.add_column("encoded", justify="right")
    table.add_column("tested", justify="right")
    for e in entries:
        sect = f"{e.section} {index.titles.get(e.section, '')}".strip()
        enc = str(len(encoded.get(e.id, []))) if not e.relied_on else "relied on"
        table.add_row(e.id, sect, e.text(lang), enc, str(len(tested.get(e.id, []))))
    Console(highlight=False).print(table)


def edition_number(entry: RuleEntry, edition: str | None) -> str:
    """The number `entry` has in the CR edition dated `edition` (its older
    number where an alias holds for that edition)."""
    if edition is not None:
        for old, upto, _ in entry.older:
            if edition <= upto:
                return old
    return entry.id


def edition_text(entry: RuleEntry, cr: CRText, lang: str = "en") -> dict:
    """That edition's text of the rule, beside our paraphrase (the text comes
    from the user's file and is only shown, never kept)."""
    number = edition_number(entry, cr.edition)
    return {
        "edition": cr.edition,
        "number": number,
        "text": cr.texts.get(number),
        "paraphrase": entry.text(lang),
    }


def _edition_lines(data: dict, source: str) -> list[str]:
    where = f"{source} ({data['edition'] or 'edition unknown'})"
    if data["text"] is None:
        return [f"  {data['number']} is not a rule of {where}"]
    return [
        f"  {data['number']} in {where}:",
        f"    {data['text']}",
        "  our paraphrase:",
        f"    {data['paraphrase']}",
    ]


def _base_line() -> str:
    from mtgkb.rulebase.words import rule_base_title

    return rule_base_title(current_rule_base())


def rules_command(args: argparse.Namespace) -> int:
    """`mtgkb rules [NUMBER] [--lang it] [--json] [--cr FILE]`: one entry, a
    section, or the whole index; with `--cr`, that edition's text beside ours."""
    lang = getattr(args, "lang", "en") or "en"
    as_json = bool(getattr(args, "json", False))
    number = getattr(args, "number", None)
    cr_file = getattr(args, "cr", None)
    cr = None
    if cr_file is not None:
        try:
            cr = read_cr(Path(cr_file))
        except OSError as err:
            print(f"mtgkb rules: {cr_file}: {err.strerror or err}", file=sys.stderr)
            return 2
    index = load_index()
    encoded = encoded_map()
    base = current_rule_base().describe()
    if number and re.fullmatch(r"\s*\d{3}\s*", number) and number.strip() not in index.aliases:
        entries = [e for e in index if e.section == number.strip()]
        if not entries:
            print(f"mtgkb rules: no rule of section {number.strip()} in the index", file=sys.stderr)
            return 1
    elif number:
        try:
            found = lookup(number, lang, index=index)
        except KeyError as err:
            print(f"mtgkb rules: {err.args[0]}", file=sys.stderr)
            return 1
        entry = found.entry
        enc = encoded.get(entry.id, [])
        tst = tested_by(entry.id)
        if as_json:
            data = entry_dict(entry, lang, found.note, index=index, encoded=enc, tested=tst)
            if found.meanings:
                data["meanings"] = [
                    {"id": e.id, "title": _title(index, e.id), "editions": when}
                    for e, when in found.meanings
                ]
            if cr is not None:
                data["cr_text"] = edition_text(entry, cr, lang)
            data["rule_base"] = base
            print(json.dumps(data, ensure_ascii=False, indent=1))
        else:
            words = _LABELS.get(lang, _LABELS["en"])
            print(_base_line())
            print(format_entry(entry, lang, found.note, index=index, encoded=enc, tested=tst))
            if found.meanings:
                print(f"  {words['meanings']}:")
                for e, when in found.meanings:
                    print(f"    {e.id} ({_title(index, e.id)}): {when}: {e.text(lang)}")
            if cr is not None:
                print("\n".join(_edition_lines(edition_text(entry, cr, lang), Path(cr_file).name)))
        return 0
    else:
        entries = list(index)
    tested = tested_map(None, [e.id for e in entries])
    if as_json:
        data = [
            entry_dict(e, lang, index=index, encoded=encoded.get(e.id, []), tested=tested[e.id])
            for e in entries
        ]
        for item, e in zip(data, entries, strict=True):
            if cr is not None:
                item["cr_text"] = edition_text(e, cr, lang)
            item["rule_base"] = base
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        print(_base_line())
        _table(entries, index, lang, encoded, tested)
        if cr is not None:
            for e in entries:
                print(e.id)
                print("\n".join(_edition_lines(edition_text(e, cr, lang), Path(cr_file).name)))
    return 0
