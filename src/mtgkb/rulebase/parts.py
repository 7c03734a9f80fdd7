"""Parts of a rule file written once and read once for each value of a
parameter: clingo's `#program NAME(P).`

    #program combat_step(st).
    % 510.1c: in a step, S's blockers that are still there.
    step_link(st,S,R) :- strikes(st,S), damage_link(S,R,_), present(st,R).
    #program base.

The rules of such a part (up to the next `#program` line) are read once for
each value `v` that the rule base writes for `NAME/1` in the head of a
statement beginning a line (`combat_step(first) :- first_strike_step.`,
`combat_step(regular).`), with the constant `st` read as `v`, into the base
part: here `step_link(first,S,R) :- strikes(first,S), ...` and
`step_link(regular,S,R) :- ...`. The values are those of the rule files of
the file's own folder and of the rules/ folder of the rule base in use (for
the whole rule base read at once, `citations.program_texts`: of its files).

Why: a rule with a variable step in its head (`step_link(St,S,R)`) stands
for every step's atoms at once, and the grounder groups rules by the shape
of their atoms: where the regular step reads the first step's outcome (the
creatures destroyed, the damage marked, the counters put), it would see the
regular step depend on itself through negation and #sum, and no damage
amount would be a fact. A rule per constant step is stratified (the
grounder tells `step_link(first,..)` from `step_link(regular,..)`), and the
part keeps one home for the rules of both steps. (A part grounded with
clingo's own parameters does not help: the grounder reads a part's
parameter as a variable of its rules. Grounding the first step in an
earlier call of multi-shot grounding would, but every statement the first
step reads would then go in the first call and every one that reads its
outcome in a later one, the queries' and explain's traced program too, at
each place a program is grounded; the constants give the grounder that
order in one call.)

Two forms of one reading (tests/test_parts.py checks that they agree):

- `instantiated(text, values)`: the file's text with each statement of a
  part replaced, on its own first line, by its instances one after the
  other (the lines it took kept as blank lines) and the `#program` lines
  blanked: every other statement stays at its place. Text, not clingo's
  AST: this runs whenever the rule base is read (the engine's rule base, the
  input checks, `mtgkb program`).
- `instance_nodes(text, ...)`: the same instances parsed, by the line of
  their statement, for the readers of clingo's AST
  (mtgkb.rulebase.encoded.scan_file: explain's traced program, the switches
  of minimal cores, the audit).

`instances_text` is the instances alone, for a reader that loads the file
itself (its part is then never grounded) and the copy for plain clingo.
Nothing here is a game rule: the values and the rules are the rule base's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import clingo

from mtgkb.rulebase.location import data_dir, program_files
from mtgkb.rulebase.location import file_stamp as stamp

if TYPE_CHECKING:
    import clingo.ast as cast

#: A `#program` line: its part's name and parameters (none: a part of its own,
#: such as `base`).
DIRECTIVE = re.compile(
    r"^[ \t]*#program[ \t]+([a-z_][A-Za-z0-9_']*)[ \t]*(?:\(([^)]*)\))?[ \t]*\.[^\n]*", re.M
)
#: A name as ASP writes a constant, a predicate or a parameter.
_NAME = r"[a-z_][A-Za-z0-9_']*"

#: Each part's name -> the value tuples it is read for, in the order written.
Values = tuple[tuple[str, tuple[tuple[clingo.Symbol, ...], ...]], ...]


class PartError(ValueError):
    """A part whose rules no value makes read (no head gives its name a value)."""


def unread(name: str, params: Sequence[str]) -> str:
    """What is wrong with a part that no value makes read."""
    return f"`#program {name}({','.join(params)}).`: no head gives {name} a value"


def declared(text: str) -> dict[str, tuple[str, ...]]:
    """The parts with parameters a text declares: name -> parameter names."""
    if "#program" not in text:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for match in DIRECTIVE.finditer(text):
        params = tuple(p.strip() for p in (match.group(2) or "").split(",") if p.strip())
        if params:
            out[match.group(1)] = params
    return out


def _heads(text: str, name: str, arity: int) -> list[tuple[clingo.Symbol, ...]]:
    """The values `name(v1,...)` takes in the heads of the statements that
    begin a line of `text` (facts and rules), each of plain values."""
    found: list[tuple[clingo.Symbol, ...]] = []
    pattern = re.compile(rf"^[ \t]*{re.escape(name)}\(([^()%;:]*)\)[ \t]*(?:\.|:-)", re.M)
    for match in pattern.finditer(text):
        try:
            term = clingo.parse_term(f"{name}({match.group(1)})")
        except RuntimeError:
            continue
        if len(term.arguments) == arity and all(_plain(a) for a in term.arguments):
            found.append(tuple(term.arguments))
    return found


def _plain(symbol: clingo.Symbol) -> bool:
    """A value with no variable: a number, a string, a constant or a function of them."""
    if symbol.type == clingo.SymbolType.Function:
        return all(_plain(a) for a in symbol.arguments)
    return symbol.type in (clingo.SymbolType.Number, clingo.SymbolType.String)


def values_in(texts: Iterable[str], parts: dict[str, int] | None = None) -> Values:
    """The values of every part the texts declare (or of the `parts` given:
    name -> number of parameters), given by the heads the texts write."""
    texts = list(texts)
    if parts is None:
        parts = {}
        for text in texts:
            for name, params in declared(text).items():
                parts.setdefault(name, len(params))
    out = []
    for name, arity in sorted(parts.items()):
        rows: list[tuple[clingo.Symbol, ...]] = []
        for text in texts:
            if f"{name}(" in text:
                rows += [r for r in _heads(text, name, arity) if r not in rows]
        out.append((name, tuple(rows)))
    return tuple(out)


@lru_cache(maxsize=16)
def _values_of(files: tuple) -> Values:
    """The values of every part declared in the files (their stamps)."""
    texts = []
    for path, *_ in files:
        try:
            texts.append(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    return values_in(texts)


def values_for(path: Path | str) -> Values:
    """The values the parts of the file at `path` are read for: those of the
    rule files of its folder and of the rule base's rules/ folder."""
    folder = Path(path).parent
    files = program_files(folder)
    if folder.name != "rules":  # (a file of the user's, say)
        try:
            files += program_files(data_dir("rules"))
        except OSError:  # (no rule base in use: the file's folder alone)
            pass
    if Path(path) not in files:
        files.append(Path(path))
    return _values_of(stamp(files))


def read(path: Path | str, text: str) -> str:
    """The text of the file at `path` with its parts read once for each of
    their values (`instantiated`); the text itself when it has no part (the
    values are then not looked up)."""
    return instantiated(text, values_for(path)) if declared(text) else text


def instances_of(path: Path | str, text: str) -> str:
    """`instances_text` of the file at `path` ("" when it has no part)."""
    return instances_text(text, values_for(path)) if declared(text) else ""


def _rows(values: Values, name: str) -> tuple[tuple[clingo.Symbol, ...], ...]:
    return next((rows for n, rows in values if n == name), ())


def _regions(text: str) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """The parts with parameters of a text: (the offset where its rules
    begin, where they end, its name, its parameters)."""
    out = []
    matches = list(DIRECTIVE.finditer(text))
    for k, match in enumerate(matches):
        params = tuple(p.strip() for p in (match.group(2) or "").split(",") if p.strip())
        if params:
            end = matches[k + 1].start() if k + 1 < len(matches) else len(text)
            out.append((match.end(), end, match.group(1), params))
    return out


#: What the text reader steps over or stops at: a string, a comment, a statement's end.
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|%\*.*?\*%|%[^\n]*|(?<!\.)\.(?!\.)', re.S)


@lru_cache(maxsize=16)
def _parameters(params: tuple[str, ...]) -> re.Pattern:
    """A string, or one of the parameters written as a constant (not a
    function's name, nor part of a longer name)."""
    names = "|".join(re.escape(p) for p in params)
    return re.compile(rf'"(?:[^"\\\n]|\\.)*"|(?<![A-Za-z0-9_\'#])(?:{names})(?![A-Za-z0-9_\'(])')


def _substituted(code: str, params: Sequence[str], row: Sequence[clingo.Symbol]) -> str:
    """A statement's code (no comments, strings kept) with each parameter,
    written as a constant, replaced by its value."""
    pattern = _parameters(tuple(params))
    if len(row) == 1 and '"' not in code:  # (one parameter, no string: the common case)
        return pattern.sub(str(row[0]).replace("\\", "\\\\"), code)
    names = dict(zip(params, (str(v) for v in row), strict=True))
    return pattern.sub(lambda m: names.get(m.group(0), m.group(0)), code)


def statements(region: str) -> list[tuple[int, int, str]]:
    """The statements of a part's text: (start, end) offsets and the code
    (comments inside it left out, each run of spaces and line breaks outside
    its strings one space)."""
    out: list[tuple[int, int, str]] = []
    start: int | None = None
    code: list[str] = []
    at = 0
    for token in _TOKEN.finditer(region):
        piece, found = region[at : token.start()], token.group(0)
        if start is None and (piece.strip() or found[0] != "%"):
            start = at + len(piece) - len(piece.lstrip())
        if start is not None:
            code.append(" ".join(piece.split()) + (" " if piece[-1:].isspace() else ""))
            if found[0] != "%":
                code.append(found)
        at = token.end()
        if found == ".":
            out.append((start, at, "".join(code).strip()))
            start, code = None, []
    return out


def instantiated(text: str, values: Values) -> str:
    """The text with each part's statements replaced by their instances, in
    place (see the module's docstring). Raises PartError for a part no value
    makes read."""
    regions = _regions(text)
    if not regions:
        return text
    out, at = [], 0
    for begin, end, name, params in regions:
        rows = _rows(values, name)
        if not rows:
            raise PartError(unread(name, params))
        region = text[begin:end]
        pieces, here = [], 0
        for start, stop, code in statements(region):
            pieces.append(region[here:start])
            made = " ".join(_substituted(code, params, row) for row in rows)
            pieces.append(made + "\n" * region.count("\n", start, stop))
            here = stop
        pieces.append(region[here:])
        out.append(text[at:begin])
        out.append("".join(pieces))
        at = end
    out.append(text[at:])
    result = "".join(out)
    # the `#program` lines: blank (the text is all one base part)
    return DIRECTIVE.sub(lambda m: " " * len(m.group(0)), result)


def instances_text(text: str, values: Values) -> str:
    """The instances of the parts' statements alone, one statement a line, as
    a base part ("" when the text has no part)."""
    lines = []
    for begin, end, name, params in _regions(text):
        rows = _rows(values, name)
        for _, _, code in statements(text[begin:end]):
            lines += [_substituted(code, params, row) for row in rows]
    return "#program base.\n" + "\n".join(lines) + "\n" if lines else ""


def instance_nodes(text: str, values: Values, filename: str) -> dict[int, list[list[cast.AST]]]:
    """For the readers of clingo's AST: the instances of the parts' statements,
    parsed (once for the file, from the text `instantiated` writes: the two
    readers read the same rules), by the line each statement begins at (a
    list per statement of that line, in order; each with its instances in
    the order of the values), located in `filename`."""
    # (clingo's syntax tree only here: a run answered from the cached analysis
    # reads no rule as a tree, and importing it took 2 ms of each cold run)
    import clingo.ast as cast

    regions = _regions(text)
    if not regions:
        return {}
    lines = [""] * (text.count("\n") + 1)
    counts: dict[int, list[int]] = {}
    for begin, end, name, params in regions:
        rows = _rows(values, name)
        region = text[begin:end]
        for start, _, code in statements(region):
            line = text.count("\n", 0, begin + start)
            made = [_substituted(code, params, row) for row in rows]
            lines[line] += " " + " ".join(made)
            counts.setdefault(line + 1, []).append(len(made))
    nodes: dict[int, list[cast.AST]] = {}

    def take(node: cast.AST) -> None:
        if node.ast_type in (cast.ASTType.Comment, cast.ASTType.Program):
            return
        location = node.location
        begin, end = location.begin, location.end
        node.location = cast.Location(
            cast.Position(filename, begin.line, begin.column),
            cast.Position(filename, end.line, end.column),
        )
        nodes.setdefault(begin.line, []).append(node)

    cast.parse_string("\n".join(lines), take, logger=lambda _code, _message: None)
    out: dict[int, list[list[cast.AST]]] = {}
    for line, sizes in counts.items():
        found, at = nodes.get(line, []), 0
        for size in sizes:
            out.setdefault(line, []).append(found[at : at + size])
            at += size
    return out


def part_rows(values: Values, name: str) -> tuple[tuple[clingo.Symbol, ...], ...]:
    """The value rows of the part `name` (empty: it is read for none)."""
    return _rows(values, name)


__all__ = [
    "DIRECTIVE",
    "PartError",
    "Values",
    "declared",
    "instance_nodes",
    "instances_of",
    "instances_text",
    "instantiated",
    "part_rows",
    "read",
    "statements",
    "unread",
    "values_for",
    "values_in",
]
