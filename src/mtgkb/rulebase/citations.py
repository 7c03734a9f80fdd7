"""Citations generated from the tags, so the rule base need not write them twice.

A rule whose tag carries the word `cite` after its numbers

    % 101.4 cite: a unit's place is that of its earliest member in APNAP order.
    unit_rank(U,R) :- apnap_unit(_,U), R = #min{ K,P : apnap_unit(P,U), apnap_rank(P,K) }, R < #sup.

gets, for each number of its tag, the citation

    because(unit_rank(U,R), rule("101.4")) :- unit_rank(U,R).

added to the rule base when it is read: every atom of the rule's head shape
is cited to the tag's numbers, whichever rule derived it. The head shape is
the head with each computed argument (`N+1`, `-N`, `1..T`, `a;b`) made a
variable of its own: `life_change(I,P,-N,pay)` cites every
`life_change(I,P,D,pay)`. So a rule author sees from the file alone what is
cited: the marked rule's conclusions, under the numbers of its tag.

Write the citation by hand instead (under its own `% N:` tag) when it must
say more than that: when it cites a number the rule's tag does not hold, only
some of the tag's numbers, or only the atoms some other condition picks out
(`because(lost(P), rule("104.3a")) :- conceded(P).`). A hand-written
citation that the marker would produce is a mistake (`hand_written` finds
them; tests/test_citations.py fails on one).

Only a rule with one atom as its head may be marked (not a constraint, a
choice or a disjunction); a marked rule of another shape is an error of its
file, reported where the rule base's files are scanned.

`program_text(path)` (`program_texts(paths)` for several files, read once)
is the one way a rule file is read as program text: its text, its parts
read once for each value in place (mtgkb.rulebase.parts) and, after it under
a `%%% Generated citations` banner, its generated citations (the engine's
rule base, hence the slicing analysis and the key of its cache; the input
checks; `mtgkb program`, which prints the program for plain clingo).
`load(ctl, path)` is the same for a reader that loads the file itself, so
that clingo's messages name its lines.
`mtgkb.rulebase.encoded.scan_file` adds the same citations (parsed, at the
marked rule's line) to the statements that explain's traced twins, the
switches of minimal cores and the audit read; the rule index counts them as
`cited_at` the marked rule (which is `encoded_at` there itself). Nothing here
is a game rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import clingo

from mtgkb.rulebase import parts
from mtgkb.rulebase.control import quiet
from mtgkb.rulebase.location import program_files
from mtgkb.rulebase.records import record
from mtgkb.rulebase.symbol_texts import split_outside
from mtgkb.rulebase.tags import MARK, parse_tag, split_mark, tag_cites

if TYPE_CHECKING:
    import clingo.ast as cast

#: The heads of citations.
CITING = frozenset({("because", 2), ("rests_on", 2)})


class CitationError(ValueError):
    """A rule marked `cite` whose head is not one atom."""


#: A term kept as it is in a head shape: a variable, a constant, a number, a string.
_PLAIN = re.compile(r'-?\d+|[A-Za-z_][A-Za-z0-9_\']*|#(?:sup|inf)|"(?:[^"\\]|\\.)*"', re.S)
#: A function term (or a parenthesised tuple or expression): its name and arguments.
_CALL = re.compile(r"([a-z_][A-Za-z0-9_']*)?\((.*)\)", re.S)


def _arguments(inner: str) -> tuple[list[str], bool] | None:
    """The top-level arguments of a term's parentheses, and whether they are
    pooled (`;`); None when the parentheses close before the end."""
    parts, depth, start, pooled, quoted, escaped = [], 0, 0, False, False, False
    for i, ch in enumerate(inner):
        if quoted:
            escaped, quoted = (not escaped and ch == "\\"), quoted and (escaped or ch != '"')
            continue
        if ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and ch in ",;":
            pooled = pooled or ch == ";"
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return parts, pooled


def _shape_text(term: str, fresh: list[int]) -> str:
    """A term's text (as clingo prints it, which puts every operation in
    parentheses but a unary minus), each computed argument a fresh variable
    `_C1`, `_C2`, ... Text, not AST nodes: this runs whenever the rule base
    is read, and clingo's AST is slow to walk from Python."""
    if _PLAIN.fullmatch(term):
        return term
    call = _CALL.fullmatch(term)
    split = _arguments(call.group(2)) if call else None
    if split is not None and not split[1]:
        name, args = call.group(1) or "", split[0]
        if name:
            return f"{name}({','.join(_shape_text(x, fresh) for x in args)})"
        if len(args) > 1:  # a tuple: `(a,b)`, `(a,)`
            return "(" + ",".join(_shape_text(x, fresh) if x else "" for x in args) + ")"
        if args[0]:  # `(t)` is the term t (clingo prints no such brackets)
            return _shape_text(args[0], fresh)
    fresh[0] += 1  # an operation, an interval, a pool
    return f"_C{fresh[0]}"


def head_shape(rule: cast.AST) -> str:
    """The text of the rule's one head atom, each computed argument a variable.
    Raises CitationError for a head that is not one positive atom."""
    # (imported here: a run answered from the cached analysis reads no tree)
    import clingo.ast as cast

    head = rule.head
    if (
        rule.ast_type != cast.ASTType.Rule
        or head.ast_type != cast.ASTType.Literal
        or head.sign != cast.Sign.NoSign
        or head.atom.ast_type != cast.ASTType.SymbolicAtom
    ):
        raise CitationError(_ONE_ATOM)
    return _atom_shape(str(head))


_ONE_ATOM = "a `cite` tag needs a rule with one atom as its head"
#: An atom's text: its name and, if any, what its brackets hold.
_ATOM = re.compile(r"([a-z_][A-Za-z0-9_']*)(?:\((.*)\))?", re.S)


def _atom_shape(text: str) -> str:
    """The shape of an atom's text as clingo prints it (`head_shape`)."""
    atom = _ATOM.fullmatch(text)
    inner = None if atom is None or atom.group(2) is None else _arguments(atom.group(2))
    if atom is None or (atom.group(2) is not None and (inner is None or inner[1])):
        raise CitationError(_ONE_ATOM)
    if atom.group(1) in {n for n, _ in CITING} and atom.group(2) is not None:
        raise CitationError("a citation cannot be marked `cite`: it cites already")
    return _shape_text(text, [0])


_NOT = re.compile(r"not(?![A-Za-z0-9_'])")
#: What clingo prints otherwise than written, outside strings: no blanks,
#: `#supremum` as `#sup` (`#infimum`, `#inf`), `007` as `7`.
_PRINTED = re.compile(
    r'("(?:[^"\\]|\\.)*")|\s+|#(sup|inf)(?:remum|imum)\b|(?<![A-Za-z0-9_\'])0+(?=\d)', re.S
)


def statement_head_shape(code: str) -> str:
    """`head_shape` of a statement's code (`Head :- Body.` or `Head.`, as
    mtgkb.rulebase.parts reads statements: no comments), read from its text
    without parsing it: the head is what comes before the first `:-` outside
    strings and brackets, read as clingo would print it. Raises
    CitationError for a statement that is not a rule with one positive atom
    as its head (a constraint, a choice, a disjunction, a directive)."""
    if not code.endswith("."):
        raise CitationError(_ONE_ATOM)
    head = split_outside(code[:-1], ":-")[0].strip()
    if _NOT.match(head):
        raise CitationError(_ONE_ATOM)
    printed = _PRINTED.sub(lambda m: m.group(1) or (f"#{m.group(2)}" if m.group(2) else ""), head)
    return _atom_shape(printed)


def citation(shape: str, number: str) -> str:
    """`because(Shape, rule("N")) :- Shape.`"""
    return f'because({shape},rule("{number}")) :- {shape}.'  # (a number needs no escape)


def citations_of(rule: cast.AST, numbers: Sequence[str]) -> list[str]:
    """The citations (as text) a rule marked `cite` under these numbers gets."""
    shape = head_shape(rule)
    return [citation(shape, n) for n in numbers]


def parsed(text: str) -> cast.AST:
    """One generated citation as a statement."""
    import clingo.ast as cast

    out: list[cast.AST] = []
    cast.parse_string(text, out.append, logger=quiet)
    return next(n for n in out if n.ast_type == cast.ASTType.Rule)


@record(frozen=True)
class Generated:
    """One generated citation: the marked rule's line, the number cited, the statement."""

    line: int
    number: str
    text: str

    @property
    def cited(self) -> str:
        """The head shape it cites (`apnap_rank(P,K)`): what names it in the
        generated text, which so stays the same when lines move."""
        return self.text.rsplit(":- ", 1)[1].rstrip(".")


#: A line that may be a marked tag (checked with the tag's own grammar below).
_MARKED_LINE = re.compile(r"^[ \t]*%(?![%*])[^\n:]*\s" + MARK + r"\s*:", re.M)
#: A line that ends a tag's block: blank, or another tag (`% N...`, `% no rule`).
_ENDS_BLOCK = re.compile(r"^[ \t]*(?:$|%(?![%*])\s*(?:\d{3}|no rule\b))")


def generate(text: str, path: Path | str = "<string>") -> list[Generated]:
    """The citations the `cite` tags of one file's text ask for, in file order
    (each once). Raises CitationError (naming the line) for a marked rule that
    cannot be cited so.

    Fast, for reading the rule base, which does it on every start: only the
    lines under a marked tag are read (the statements a tag covers are those
    below it up to the next tag or blank line), as text, with no parse
    (`statement_head_shape`); `mtgkb.rulebase.encoded.scan_file` finds the
    same ones from the syntax trees of the whole file (tests/test_citations.py
    checks that they agree). A statement of a block that does not parse is
    clingo's to report, when it reads the rule base, unless its head is
    what cannot be read."""
    if MARK not in text:
        return []
    lines = text.split("\n")
    blocks: list[tuple[int, int, tuple[str, ...]]] = []  # (first line, last line, numbers), 1-based
    for i, line in enumerate(lines):
        if MARK not in line or not _MARKED_LINE.match(line):
            continue
        comment = line.strip()
        parsed = parse_tag(comment)
        if parsed is None or not tag_cites(comment):
            continue
        end = i + 1
        while end < len(lines) and not _ENDS_BLOCK.match(lines[end]):
            end += 1
        blocks.append((i + 2, end, parsed[0]))
    out: list[Generated] = []
    seen: set[str] = set()
    for first, end, numbers in blocks:
        block = "\n".join(lines[first - 1 : end])
        found = parts.statements(block)
        if _COMMENTS.sub("", block[found[-1][1] if found else 0 :]).strip():
            raise CitationError(f"{path}:{first}: cannot be parsed")
        for start, _, code in found:
            if code.startswith("#program"):
                continue
            line = first + block.count("\n", 0, start)
            try:
                shape = statement_head_shape(code)
            except CitationError as err:
                raise CitationError(f"{path}:{line}: {err}") from None
            for number in numbers:
                made_text = citation(shape, number)
                renamed = _renamed(made_text)
                if renamed not in seen:
                    seen.add(renamed)
                    out.append(Generated(line, number, made_text))
    return out


#: Comments, which a block of a tag may end with.
_COMMENTS = re.compile(r"%\*.*?\*%|%[^\n]*", re.S)


def generated_text(path: Path | str, text: str | None = None) -> str:
    """The generated citations of one rule file as program text ("" when none):
    those of its parts' instances (mtgkb.rulebase.parts) for a marked rule of a
    part."""
    path = Path(path)
    text = path.read_text(encoding="utf-8") if text is None else text
    return _generated_text(str(path), parts.read(path, text))


@lru_cache(maxsize=128)
def generated(path: str, text: str) -> tuple[Generated, ...]:
    """`generate`, kept per file text: a rule base read again after one file
    changed generates only that file's citations again, and the scans of
    the files (mtgkb.rulebase.encoded) read the very ones the rule base did."""
    return tuple(generate(text, path))


def _generated_text(path: str, text: str) -> str:
    made = generated(path, text)
    lines = [f"% {g.number}: generated from a `cite` tag: {g.cited}.\n{g.text}" for g in made]
    return "%%% Generated citations\n\n" + "\n".join(lines) + "\n" if lines else ""


def program_text(path: Path | str) -> str:
    """A rule file as solved: its text, each statement of a part read once for
    each of the part's values in its place (mtgkb.rulebase.parts), and then
    its generated citations. The one way the readers of the rule base read a
    file as program text."""
    path = Path(path)
    return _as_solved(path, parts.read(path, path.read_text(encoding="utf-8")))


def _as_solved(path: Path, text: str) -> str:
    """A file's text (its parts read) followed by its generated citations."""
    more = _generated_text(str(path), text)
    return text.rstrip("\n") + "\n\n" + more if more else text


def program_texts(paths: Iterable[Path | str]) -> list[str]:
    """`program_text` of each file, the values of their parts (if any) read
    from these files' texts, read once: the readers of a whole rule base."""
    paths = [Path(p) for p in paths]
    raw = [p.read_text(encoding="utf-8") for p in paths]
    declared = [parts.declared(text) for text in raw]
    names = {name: len(params) for found in declared for name, params in found.items()}
    values = parts.values_in(raw, names) if names else ()
    out = []
    for path, text, found in zip(paths, raw, declared, strict=True):
        out.append(_as_solved(path, parts.instantiated(text, values) if found else text))
    return out


def plain_clingo_copy(root: Path) -> str:
    """The text of `rules/generated_citations.lp` for the rule base in `root`:
    the citations every file of its rules/ and kb/ generates, and the rules of
    its parts once for each value (mtgkb.rulebase.parts: plain clingo grounds
    only the base part), written out so that `clingo rules/*.lp kb/*.lp
    queries/Q.lp facts.lp` answers as mtgkb does. (mtgkb reads no such file:
    it generates them itself.)"""
    parts_ = [
        "%%% Generated: the citations of the `cite` tags of this rule base, and the\n"
        "%%% rules of its `#program NAME(P).` parts once for each value, for plain\n"
        "%%% clingo. mtgkb does not read this file (it generates them as it reads\n"
        "%%% the rule base). Write it again after changing a tag or a part:\n"
        "%%%     mtgkb program --citations > rules/generated_citations.lp\n"
    ]
    for folder in ("rules", "kb"):
        for path in program_files(root / folder):
            text = path.read_text(encoding="utf-8")
            made = parts.instances_of(path, text)
            if made:
                body = made.split("\n", 1)[1]  # less the `#program base.`
                parts_.append(f"%%% {folder}/{path.name}: its parts' rules\n\n{body.rstrip()}\n")
            made = generated_text(path, text)
            if made:
                body = made.split("\n\n", 1)[1]  # less the banner
                parts_.append(f"%%% {folder}/{path.name}\n\n{body.rstrip()}\n")
    return "\n".join(parts_)


def load(ctl: clingo.Control, path: Path | str) -> None:
    """`ctl.load(path)`, the instances of its parts (which clingo alone never
    grounds: mtgkb.rulebase.parts) and its generated citations: for the
    readers that want clingo's messages to name the file's own lines."""
    ctl.load(str(path))
    text = Path(path).read_text(encoding="utf-8")
    more = parts.instances_of(path, text) + generated_text(path, text)
    if more:
        ctl.add("base", [], more)


def same(text: str) -> str:
    """What two generated citations share when they cite the same atoms: the
    text with the variables renamed in order."""
    return _renamed(text)


def _renamed(term: str) -> str:
    """A term's text with its variables named in order of appearance."""
    names: dict[str, str] = {}

    def rename(match: re.Match) -> str:
        return names.setdefault(match.group(0), f"V{len(names)}")

    # variables (not `_`, not inside strings: the CR numbers hold none)
    return re.sub(r"(?<![A-Za-z0-9_'\"])_?[A-Z][A-Za-z0-9_']*", rename, term)


def hand_written(statements: Iterable) -> list:
    """The hand-written citations of one file's scanned statements that a
    `cite` marker would produce: `because(H, rule("N")) :- H.` where a rule
    of the same file has H as its head shape and N in its tag, and every
    statement under that tag line is a rule whose citations, under every
    number of the tag, are so written. Each should be the marker instead."""
    statements = [st for st in statements if not st.generated]
    plain: dict[tuple[str, str], list] = {}  # (shape, number) -> hand citations
    for st in statements:
        if not st.is_citation:
            continue
        term = st.ast.head.atom.symbol
        if term.name != "because" or len(st.ast.body) != 1:
            continue
        shape, cited = term.arguments
        if str(st.ast.body[0]) != str(shape):
            continue
        match = re.fullmatch(r'rule\("([^"]+)"\)', str(cited))
        if match:
            plain.setdefault((_renamed(str(shape)), match.group(1)), []).append(st)

    def written(st) -> list | None:
        """The hand citations the marker would make of `st`, if all are written."""
        if st.kind != "Rule" or not st.tags or st.is_citation:
            return None
        try:
            shape = _renamed(head_shape(st.ast))
        except CitationError:
            return None
        if not all((shape, n) in plain for n in st.tags):
            return None
        return [c for n in st.tags for c in plain[(shape, n)]]

    under: dict[int, list] = {}
    for st in statements:
        if st.tag_line is not None:
            under.setdefault(st.tag_line, []).append(st)
    found: list = []
    for group in under.values():
        made = [written(st) for st in group]
        if any(m is not None for m in made) and all(m is not None for m in made):
            found += [c for m in made for c in m if c not in found]
    return found


__all__ = [
    "MARK",
    "CitationError",
    "Generated",
    "citations_of",
    "generate",
    "generated_text",
    "hand_written",
    "head_shape",
    "load",
    "parsed",
    "program_text",
    "program_texts",
    "same",
    "split_mark",
    "statement_head_shape",
]
