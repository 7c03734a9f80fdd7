"""Where rules are encoded: the `% N` tags of the rule base's ASP files,
located with `clingo.ast` (a rule cited only by `because/2` or `rests_on/2`,
hand-written or generated from a `cite` tag, is `cited_at`, not `encoded_at`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.rulebase import citations, parts
from mtgkb.rulebase.index import RULE_TYPE_NAMES, normalize
from mtgkb.rulebase.location import current as current_rule_base
from mtgkb.rulebase.location import data_dir, program_files
from mtgkb.rulebase.location import file_stamp as stamp
from mtgkb.rulebase.tags import (
    parse_tag,
    tag_cites,
)

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
    #: the values of its part it was read for (mtgkb.rulebase.parts); None: a base statement
    instance: tuple[clingo.Symbol, ...] | None = None
    #: for an instance: which statement of its file's parts it is read from (1, 2, ...)
    template: int = field(default=0, repr=False, compare=False)

    @property
    def is_rule(self) -> bool:
        return self.kind in RULE_TYPE_NAMES

    @cached_property
    def is_citation(self) -> bool:
        """A rule that only says which CR rule or conclusion another conclusion
        rests on (`because/2`, `rests_on/2`): it cites its rule, it does not
        encode it. (Read once: the audit asks it of every statement several
        times, and each read of the syntax tree is calls into clingo.)"""
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
    #: each statement of a part read for values, as written (its instances
    #: are in `statements`), with the part's name: what a layout keeps of it
    templates: list[tuple[Statement, str]] = field(default_factory=list, repr=False)


def _comment_text(comment: cast.AST, lines: list[bytes] | None, place: tuple) -> str | None:
    """The text of a line comment (None for a block comment), read from the
    file's `lines` at its `place` (line, column, end line, end column: clingo
    counts columns in bytes, from 1) where they hold it, else from clingo
    (each read of a syntax tree is several calls into clingo)."""
    line, column, end_line, end_column = place
    if lines is not None and line == end_line and 0 < line <= len(lines):
        found = lines[line - 1][column - 1 : end_column - 1]
        if found.startswith(b"%*"):
            return None  # a block comment
        if found.startswith(b"%") and b"\r" not in found and len(found) == end_column - column:
            try:
                return found.decode("utf-8")
            except UnicodeDecodeError:
                pass
    if comment.comment_type != 0:  # a block comment
        return None
    return comment.value


def scan_file(path: Path) -> FileScan:
    """Every statement of an ASP file with the tag line it sits under, and
    the citations its `cite` tags ask for (`generated`, at the marked rule's line).
    A statement of a part `#program NAME(P).` is there once for each value
    the part is read for (`instance`, at its own line: mtgkb.rulebase.parts).

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
    try:
        source: bytes | None = Path(path).read_bytes()  # (its comments are read from it)
    except OSError:
        source = None
    return _scan_items(path, items, errors, source=source)


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
    return _scan_items(path, items, errors, text, text.encode("utf-8"))


def _scan_items(
    path: Path,
    items: list[cast.AST],
    errors: list[str],
    text: str | None = None,
    source: bytes | None = None,
) -> FileScan:
    # Each item's place is read from clingo once (a location is built anew,
    # through several calls, at every read of it); a comment's text from
    # `source` (the file's bytes) where it holds it.
    placed = []
    directives: list[tuple[int, str, tuple[str, ...]]] = []  # (line, part, parameters)
    for item in items:
        kind = item.ast_type
        if kind == cast.ASTType.Program:
            line = item.location.begin.line
            if line > 1 or item.name != "base" or item.location.end.column > 1:
                directives.append((line, item.name, tuple(p.name for p in item.parameters)))
            continue
        location = item.location
        begin, end = location.begin, location.end
        placed.append((begin.line, begin.column, end.line, kind, item, end.column))
    placed.sort(key=lambda p: (p[0], p[1]))
    comment = cast.ASTType.Comment
    tags: list[TagLine] = []
    tag_at: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    cite_at: set[int] = set()
    lines = source.split(b"\n") if source is not None else None
    for k, (line, column, end_line, kind, item, end_column) in enumerate(placed):
        if kind != comment:
            continue
        first_on_line = k == 0 or placed[k - 1][2] < line
        if not first_on_line:
            continue
        value = _comment_text(item, lines, (line, column, end_line, end_column))
        parsed = parse_tag(value) if value is not None else None  # (a block comment: no tag)
        if parsed is not None:
            tag_at[k] = parsed
            cites = tag_cites(value)
            if cites:
                cite_at.add(k)
            tags.append(TagLine(path, line, parsed[0], parsed[1], cites))
    directives.sort()
    values: parts.Values = ()
    instances: dict[int, list[list[cast.AST]]] = {}
    if any(d[2] for d in directives):
        values = parts.values_for(path)
        for _, name, params in {(0, n, p) for _, n, p in directives if p}:
            if not parts.part_rows(values, name):
                errors.append(f"{path}: {parts.unread(name, params)}")
        text = Path(path).read_text(encoding="utf-8") if text is None else text
        instances = parts.instance_nodes(text, values, str(path))
    statements = []
    templates: list[tuple[Statement, str]] = []
    # The tag of a statement: the nearest tag above it in its block. The items
    # are in order of their first lines, so a blank line lies between two
    # neighbours exactly when the first ends more than one line above the
    # next; one pass keeps the last tag of the block it is in (walking up
    # from each statement instead was quadratic in a long untagged block).
    last_tag: int | None = None
    for k, (line, _, end_line, kind, item, _) in enumerate(placed):
        if k > 0 and placed[k - 1][2] < line - 1:
            last_tag = None  # a blank line: a new block
        if k in tag_at:
            last_tag = k
        if kind == comment:
            continue
        found = last_tag
        made = Statement(
            file=path,
            line=line,
            end_line=end_line,
            kind=kind.name,
            tags=tag_at[found][0] if found is not None else None,
            tag_line=placed[found][0] if found is not None else None,
            ast=item,
            cite=found in cite_at,
        )
        part = next((d for d in reversed(directives) if d[0] <= line), None)
        if part is None or not part[2]:
            statements.append(made)
            continue
        rows = parts.part_rows(values, part[1])
        nodes = instances[line].pop(0) if instances.get(line) else []
        templates.append((made, part[1]))
        for row, node in zip(rows, nodes, strict=True):
            statements.append(replace(made, ast=node, instance=row, template=len(templates)))
    return FileScan(path, statements + _generated(statements, errors), tags, errors, templates)


def _generated(statements: list[Statement], errors: list[str]) -> list[Statement]:
    """The citations the `cite` tags ask for (mtgkb.rulebase.citations), each
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


# --------------------------------------------------------------------------
# A file's layout kept on disk: its scan without its syntax trees
# --------------------------------------------------------------------------

#: Bump when what a layout holds changes.
LAYOUT_VERSION = 4
#: The items of a parse that are no statement of the file.
_NOT_STATEMENTS = (cast.ASTType.Program, cast.ASTType.Comment)
#: A statement's kind as a layout keeps it: its number among clingo's kinds
#: (a layout is kept for one version of clingo).
_KIND_NUMBER = {kind.name: number for number, kind in enumerate(cast.ASTType)}
_KIND_NAME = list(_KIND_NUMBER)


class _LaidOut(Statement):
    """A statement read from its file's layout: its syntax tree parsed when
    first asked for (`_FileTrees`: the whole file's, unless `prepare` asked
    for some of them at once)."""

    _ast: cast.AST | None = None
    _trees: _FileTrees | None = None

    @property
    def ast(self) -> cast.AST | None:
        if self._ast is None and self._trees is not None:
            self._trees.parse()
        return self._ast

    @ast.setter
    def ast(self, value: cast.AST | None) -> None:
        self._ast = value


class _FileTrees:
    """The syntax trees of the statements of a file read from its layout,
    parsed when first asked for: the whole file, or (`prepare`) only the
    lines of the statements a reader takes, the others left blank. Most of
    reading a rule file is clingo's parse, and `ask explain` takes about
    half of the rule base's statements (the others cannot fire on the
    scenario's facts: mtgkb.questions.explain.trace.idle_statements)."""

    def __init__(self, path: Path, text: str, count: int, rows: list[tuple[_LaidOut, int]]):
        """`rows`: each statement and its place among the items of the whole
        file's parse (`count` of them), in order."""
        self.path, self.text, self.count, self.rows = path, text, count, rows
        #: a file with parts (`#program`) or scripts is parsed whole: a line
        #: of it is read in the context of the lines above it
        self.by_lines = "#program" not in text and "#script" not in text and "%*" not in text
        self._on_line: dict[int, list[int]] | None = None

    def parse(self) -> None:
        """Every statement's tree not read yet, from a parse of the whole file
        (where the layout's count of items does not hold it, each statement
        takes the statement of the parse in its order). (A layout is kept only
        for a file clingo parsed without a word.)"""
        items = _parsed_items(self.text) or []
        if len(items) == self.count:
            nodes = [items[index] for _, index in self.rows]
        else:
            nodes = [node for node in items if node.ast_type not in _NOT_STATEMENTS]
            if len(nodes) != len(self.rows):
                raise RuntimeError(f"{self.path}: its layout kept on disk does not hold it")
        for (st, _), node in zip(self.rows, nodes, strict=True):
            if st._ast is None:
                st._ast = node

    def prepare(self, statements: Iterable[Statement]) -> None:
        """Read the trees of these statements (of this file, read from its
        layout), and of those that share a line with them, in one parse."""
        mine = {id(st) for st, _ in self.rows}
        wanted = {id(st) for st in statements if id(st) in mine and st._ast is None}
        if not wanted:
            return
        if not self.by_lines or 10 * len(wanted) > 9 * len(self.rows):
            self.parse()
            return
        if self._on_line is None:
            self._on_line = {}
            for k, (st, _) in enumerate(self.rows):
                for line in range(st.line, st.end_line + 1):
                    self._on_line.setdefault(line, []).append(k)
        taken = {k for k, (st, _) in enumerate(self.rows) if id(st) in wanted}
        todo = list(taken)
        lines: set[int] = set()
        while todo:  # (a statement sharing a line with one taken is read too)
            st = self.rows[todo.pop()][0]
            for line in range(st.line, st.end_line + 1):
                if line not in lines:
                    lines.add(line)
                    more = [k for k in self._on_line[line] if k not in taken]
                    taken.update(more)
                    todo += more
        text = self.text.split("\n")
        kept = "\n".join(t if i in lines else "" for i, t in enumerate(text, start=1))
        items = _parsed_items(kept)
        nodes = [node for node in items or () if node.ast_type not in _NOT_STATEMENTS]
        if items is None or len(nodes) != len(taken):
            self.parse()  # (the lines do not read alone as they do in the file)
            return
        for k, node in zip(sorted(taken, key=lambda k: self.rows[k][1]), nodes, strict=True):
            st = self.rows[k][0]
            if st._ast is None:
                st._ast = node


def prepare_trees(statements: Iterable[Statement]) -> None:
    """Read the syntax trees of these statements of scanned files at once,
    one parse a file of only their lines, before a reader takes each of
    them (`Statement.ast`): otherwise the first read of one parses its
    whole file."""
    by_file: dict[int, tuple[_FileTrees, list[Statement]]] = {}
    for st in statements:
        trees = getattr(st, "_trees", None)
        if trees is not None and st._ast is None:
            by_file.setdefault(id(trees), (trees, []))[1].append(st)
    for trees, taken in by_file.values():
        trees.prepare(taken)


def _layout(scan: FileScan, items: list[cast.AST]) -> tuple | None:
    """What a scan says of its file besides the syntax trees (plain data:
    lines, tags, each statement's place among `items`, the items clingo
    parsed the text into, and for a statement of a part read for values,
    the part's name, its kind), or None for a scan with errors."""
    if scan.errors:
        return None
    order = {id(item): k for k, item in enumerate(items)}
    statements = []
    last = 0  # (a part's statement once, not once per instance)
    for st in scan.statements:
        if st.generated or (st.template and st.template == last):
            continue
        part = None
        if st.template:
            last = st.template
            st, part = scan.templates[st.template - 1]
        index = order[id(st.ast)]
        kind = _KIND_NUMBER[st.kind]
        row = (st.line, st.end_line, st.tags, st.tag_line, st.cite, index, part, kind)
        statements.append(row)
    tags = [(t.line, t.numbers, t.malformed, t.cite) for t in scan.tags]
    return (LAYOUT_VERSION, len(items), statements, tags)


def _sound_layout(data) -> bool:
    """Whether a layout read from disk is one (every value of its shape)."""
    version, count, statements, tags = data
    if version != LAYOUT_VERSION or type(count) is not int or count < 0:
        return False
    if type(statements) is not list or type(tags) is not list:
        return False
    numbers = set()  # (the tags' numbers: each checked once)
    for line, end_line, tagged, tag_line, cite, index, part, kind in statements:
        if type(line) is not int or type(end_line) is not int or type(cite) is not bool:
            return False
        if type(kind) is not int or not 0 <= kind < len(_KIND_NAME):
            return False
        if line < 1 or end_line < line:
            return False
        if tag_line is not None and type(tag_line) is not int:
            return False
        if type(index) is not int or not 0 <= index < count:
            return False
        if part is not None and type(part) is not str:
            return False
        if tagged is not None:
            if type(tagged) is not tuple:
                return False
            numbers.update(tagged)
    for line, found, malformed, cite in tags:
        if type(line) is not int or type(cite) is not bool:
            return False
        if type(found) is not tuple or type(malformed) is not tuple:
            return False
        numbers.update(found + malformed)
    return all(type(n) is str for n in numbers)


def _laid_out(
    path: Path, text: str, layout: tuple, items: list[cast.AST] | None
) -> FileScan | None:
    """The scan of `text` from its layout and the `items` of its parse (None:
    not parsed, each syntax tree parsed when first asked for: `_FileTrees`),
    or None when the parse does not hold the layout (another count of items,
    a part's statement without its instances) or it cannot be read so (a
    part read for no values, citations that cannot be generated): the file
    is then scanned whole. A part's statements are read for the values its
    rule base gives now (mtgkb.rulebase.parts). The citations of its `cite`
    tags are generated again from the text (mtgkb.rulebase.citations.generated,
    the very ones the rule base reads): a layout holds no program text."""
    _, count, rows, tag_rows = layout
    values = parts.values_for(path) if any(row[6] for row in rows) else ()
    if items is None and values:
        items = _parsed_items(text)  # (a part's instances are read from the parse)
    if items is not None and count != len(items):
        return None
    instances = parts.instance_nodes(text, values, str(path)) if values else {}
    on_line: dict[int, int] = {}  # a line's part statements so far
    statements: list[Statement] = []
    lazy: list[tuple[_LaidOut, int]] = []
    for line, end_line, tagged, tag_line, cite, index, part, kind in rows:
        written = (path, line, end_line, _KIND_NAME[kind], tagged, tag_line)
        if part is None:
            if items is None:
                statements.append(_LaidOut(*written, None, cite))
                lazy.append((statements[-1], index))
            else:
                statements.append(_LaidOut(*written, items[index], cite))
            continue
        read_for = parts.part_rows(values, part)
        which = on_line[line] = on_line.get(line, -1) + 1
        found = instances.get(line, [])
        if not read_for or which >= len(found) or len(found[which]) != len(read_for):
            return None
        statements += [
            _LaidOut(*written, node, cite, instance=row)
            for row, node in zip(read_for, found[which], strict=True)
        ]
    if lazy:
        trees = _FileTrees(path, text, count, lazy)
        for st, _ in lazy:
            st._trees = trees
    try:
        made = citations.generated(str(path), parts.read(path, text) if values else text)
    except citations.CitationError:
        return None
    marked = {st.line: st for st in statements if st.cite}
    if any(g.line not in marked for g in made):
        return None
    cited: list[cast.AST] = []
    if made:  # (most files cite nothing: no parse)
        cast.parse_string("\n".join(g.text for g in made), cited.append, logger=lambda c, m: None)
        cited = [node for node in cited if node.ast_type == cast.ASTType.Rule]
    if len(cited) != len(made):
        return None
    for g, node in zip(made, cited, strict=True):
        rule = marked[g.line]
        statements.append(
            Statement(
                path,
                rule.line,
                rule.end_line,
                "Rule",
                (g.number,),
                rule.tag_line,
                node,
                generated=True,
            )
        )
    tags = [
        TagLine(path, line, found, malformed, cite) for line, found, malformed, cite in tag_rows
    ]
    return FileScan(path, statements, tags, [])


def _parsed_items(text: str) -> list[cast.AST] | None:
    """The items clingo parses a file's text into; None when it says anything."""
    items: list[cast.AST] = []
    said: list[str] = []
    try:
        cast.parse_string(text, items.append, logger=lambda code, message: said.append(message))
    except RuntimeError:
        said.append("cannot be parsed")
    return None if said else items


def _layout_cache(data: bytes) -> tuple[Path, str] | None:
    """Where the layout of a file of these bytes is kept (None: no caching)."""
    import os

    from mtgkb.rulebase.disk_cache import cache_dir, content_digest

    folder = cache_dir(os.environ)
    if folder is None:
        return None
    return folder, f"layout{LAYOUT_VERSION}-{clingo.__version__}-{content_digest(data)}.bin"


def _scan_with_layout(path: Path) -> FileScan:
    """`scan_file`, from the layout kept on disk for the file's bytes when
    there is one and the file's parse holds it (a whole scan reads every
    statement's place from clingo, most of its time; the parse itself is
    the same); else scanned whole, and its layout kept."""
    from mtgkb.rulebase.disk_cache import load_checked, store_checked

    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return scan_file(path)
    where = _layout_cache(data)
    if where is None:
        return scan_file(path)
    folder, name = where
    layout = load_checked(folder / name, _sound_layout)
    if layout is not None:
        # (a layout is kept only for a file of these very bytes that clingo,
        # this version of it, parsed without a word: its trees parse alike)
        found = _laid_out(path, text, layout, None)
        if found is not None:
            return found
    items = _parsed_items(text)
    if items is None:
        return scan_file(path)  # (its errors, said with the file's name)
    scan = _scan_items(path, items, [], text, data)
    made = _layout(scan, items)
    if made is not None:
        store_checked(folder, name, made, "layout*.bin", keep=512)
    return scan


@lru_cache(maxsize=128)
def _scan_cached(path: str, stamp: tuple) -> FileScan:
    return _scan_with_layout(Path(path))


def forget_scans() -> None:
    """Forget the scans kept in this process (`scan_kept`): the next reads
    them again, from their layouts on disk where they are kept."""
    _scan_cached.cache_clear()


def scan_folder(folder: Path) -> list[FileScan]:
    """Every `*.lp` file of a folder, scanned (cached while the files are unchanged)."""
    return [scan_kept(f) for f in program_files(Path(folder))]


def scan_kept(path: Path) -> FileScan:
    """`scan_file`, kept while the file is unchanged (shared with `scan_folder`)."""
    return _scan_cached(str(path), stamp([path]))


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
                place = label(st.file, st.line)
                for num in st.tags:
                    if st.instance is None or place not in found.get(num, ()):
                        found.setdefault(num, []).append(place)  # (a part's rule: once)
    return found


def cited_at(number: str, root: Path | None = None) -> list[str]:
    """Where rules only cite a CR number (`because/2`, `rests_on/2` under its tag)."""
    return encoded_map(root, cited=True).get(normalize(number), [])


def encoded_at(number: str, root: Path | None = None) -> list[str]:
    """Where the ASP rules under a `% N` tag sit: `rules/FILE.lp:LINE`."""
    return encoded_map(root).get(normalize(number), [])
