"""Unit tests that travel with the rule base: small programs and the atoms their
models must or must not hold, one TOML file per rule file, run with clintest.

A rule base folder may hold `tests/units/*.toml`. Each file tests one rule
file (`file = "rules/102_players.lp"`) with `[[test]]` tables:

    [[test]]
    name = "two players are each other's opponents"
    rule = "102.2"                       # the CR rule the test checks
    program = 'player("A"). player("B").'
    also = ["rules/101_apnap.lp"]        # other files it needs (optional)
    must = ['opponent("A","B")']         # atoms every model holds
    must_not = ['opponent("A","A")']     # atoms no model holds
    models = "all"                       # "all" (default), "some", or "none"

The program is grounded with the rule file, the files of kb/ and the files
named in `also` (the rules of a part `#program NAME(P).` once for each of
its values: mtgkb.rulebase.parts). With `models = "all"` every model must hold the `must`
atoms and none of the `must_not` ones; with "some", at least one model
must; with "none" the program must have no model (a constraint that
forbids it). `mtgkb test` runs them, and `mtgkb audit` reports the failures
as lint, so a copy of the rule base is checked with its own tests.

Nothing here is a game rule: the tests are the author's, the rules are the
rule base's.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import clingo
from clintest.assertion import And, Contains, Not, True_
from clintest.quantifier import All, Any, Exact
from clintest.solver import Clingo
from clintest.test import Assert

from mtgkb.audit.sources import Base, finding
from mtgkb.rulebase import parts
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.index import RuleIndex

UNITS_FOLDER = Path("tests") / "units"
MODES = ("all", "some", "none")


@dataclass
class UnitResult:
    file: str  # the TOML file, relative to the rule base
    name: str
    rule: str | None
    tests: str | None  # the rule file it tests
    ok: bool
    message: str = ""

    def as_dict(self) -> dict:
        item = {"file": self.file, "name": self.name, "ok": self.ok}
        if self.rule:
            item["rule"] = self.rule
        if self.tests:
            item["tests"] = self.tests
        if self.message:
            item["message"] = self.message
        return item


def unit_files(base: Base) -> list[Path]:
    folder = base.root / UNITS_FOLDER
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def _strings(value, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} must be a list of strings")
    return value


def _assertion(must: list[str], must_not: list[str]):
    parts = [Contains(clingo.parse_term(a)) for a in must]
    parts += [Not(Contains(clingo.parse_term(a))) for a in must_not]
    return And(*parts) if parts else True_()


#: A string, a block comment or a line comment of ASP text, whichever comes first.
_NOT_CODE = re.compile(r'"(?:[^"\\\n]|\\.)*"|%\*.*?\*%|%[^\n]*', re.S)
#: A name as ASP text writes one (predicates, constants, functions).
_NAME = re.compile(r"(?<![A-Za-z0-9_'])_*[a-z][A-Za-z0-9_']*")
#: Facts only: `name.` or `name(...)` statements, with no `:`, `;`, `{`, `#`,
#: `|`, `~` anywhere, nor `.` inside (the strings and comments taken out first).
#: (Each statement an atomic group, its arguments never past its `.`: linear.)
_FACTS = re.compile(r"(?>\s*_*[a-z][A-Za-z0-9_']*\s*(?:\([^:;{}#|~.]*\))?\s*\.)*+\s*")
#: The name that begins each statement of a facts-only text.
_STATEMENT_NAME = re.compile(r"(?:^|\.)\s*(_*[a-z][A-Za-z0-9_']*)")


def asp_code(text: str) -> str:
    """ASP text with its comments taken out and each string emptied."""
    return _NOT_CODE.sub(lambda m: '""' if m.group(0).startswith('"') else " ", text)


@lru_cache(maxsize=64)
def _kb_file(path: str, stamp: tuple[int, int]) -> tuple[frozenset[str] | None, frozenset[str]]:
    """(the predicate names of a kb file made of facts only, None for any other
    file; the names its code names)."""
    code = asp_code(Path(path).read_text(encoding="utf-8"))
    names = frozenset(_NAME.findall(code))
    if "not" in names or not _FACTS.fullmatch(code):
        return None, names
    return frozenset(_STATEMENT_NAME.findall(code)), names


def kb_files_read(base: Base, program: str, files: list[Path], atoms: list[str]) -> list[Path]:
    """The files of kb/ a unit test's program is grounded with: every file
    but those made of facts only whose predicates nothing else names (the
    program, its files, the other kb files kept, the atoms the test looks
    for). A fact that nothing reads changes no other atom and no number of
    models, and the test looks for none of them: the outcome is the same,
    without grounding the rule index and the texts for every test."""
    read = set(_NAME.findall(asp_code(program))) | set(_NAME.findall(" ".join(atoms)))
    for path in files:
        read |= set(_NAME.findall(asp_code(path.read_text(encoding="utf-8"))))
    kept, data = [], []
    for path in base.files(base.kb):
        stat = path.stat()
        facts, names = _kb_file(str(path), (stat.st_mtime_ns, stat.st_size))
        if facts is None:
            kept.append(path)
            read |= names
        else:
            data.append((path, facts))
    grown = True
    while grown:  # (facts read no file, so one pass over the kept ones is enough)
        grown = False
        for path, facts in list(data):
            if facts & read:
                kept.append(path)
                data.remove((path, facts))
                grown = True
    return sorted(kept)


def run_unit(
    base: Base, test: dict, rule_file: str | None, cache: UnitCache | None = None
) -> tuple[bool, str]:
    """(passed, what went wrong) of one `[[test]]` table; `cache`: the
    outcomes of the runs before, by what they depend on (UnitCache)."""
    program = test.get("program", "")
    if not isinstance(program, str):
        raise ValueError("program must be a string")
    mode = test.get("models", "all")
    if mode not in MODES:
        raise ValueError(f"models must be one of {', '.join(MODES)}, not {mode!r}")
    must = _strings(test.get("must"), "must")
    must_not = _strings(test.get("must_not"), "must_not")
    also = _strings(test.get("also"), "also")
    files = [base.root / f for f in ([rule_file] if rule_file else []) + also]
    missing = [str(f.relative_to(base.root)) for f in files if not f.is_file()]
    if missing:
        return False, "no such file: " + ", ".join(missing)
    files += kb_files_read(base, program, files, [*must, *must_not])
    try:
        assertion = _assertion(must, must_not)
    except (RuntimeError, ValueError) as err:
        raise ValueError(f"an atom of must/must_not is not a term: {err}") from err
    key = cache.key(test, files) if cache is not None else None
    if key is not None and key in cache.known:
        return cache.take(key)
    outcome = _solved(program, files, mode, must, must_not, assertion)
    if key is not None:
        cache.put(key, outcome)
    return outcome


def _solved(program: str, files: list[Path], mode: str, must, must_not, assertion):
    """(passed, what went wrong) of a unit test's program solved with clintest."""
    quantifier = {"all": All, "some": Any}.get(mode)
    test_ = Assert(Exact(0), True_()) if quantifier is None else Assert(quantifier(), assertion)
    # clintest loads the files itself: their parts' instances go with the program
    program += "".join(parts.instances_of(f, f.read_text(encoding="utf-8")) for f in files)
    solver = Clingo(["0", "--warn=none"], program, [str(f) for f in files])
    try:
        solver.solve(test_)
    except RuntimeError as err:
        return False, f"clingo: {err}"
    outcome = test_.outcome()
    if outcome.current_value():
        return True, ""
    if mode == "none":
        return False, "the program has a model, and the test says it has none"
    said = "every model" if mode == "all" else "some model"
    wanted = ", ".join([*must, *(f"not {a}" for a in must_not)]) or "a model"
    return False, f"{said} should hold: {wanted}"


class UnitCache:
    """The outcomes of unit tests run before, kept on disk by a digest
    (BLAKE2b) of everything one depends on: the versions of clingo and
    clintest, the test's table, and the name and contents of each file it
    is grounded with (its rule file, `also`, the kb/ files it reads). A save
    that edits one rule file runs again only the tests that load it. The
    file holds digests and outcomes (passed or not, and the message), never
    program text; read only from a folder of this user's that no one else
    may write to, checked whole, and ignored when anything is amiss."""

    VERSION = 1

    def __init__(self, folder: Path | None):
        import clintest

        self.folder = folder
        versions = f"{self.VERSION} {clingo.__version__} {getattr(clintest, '__version__', '')}"
        self.versions = versions
        self.name = f"units-{self.VERSION}-{clingo.__version__}.marshal"
        self.known: dict[str, tuple[bool, str]] = {}
        if folder is not None:
            from mtgkb.rulebase.disk_cache import load_checked

            found = load_checked(folder / self.name, _sound_outcomes)
            if found is not None:
                self.known = found
        self.used: dict[str, tuple[bool, str]] = {}
        self.added = 0
        self._digests: dict[tuple, bytes] = {}

    def key(self, test: dict, files: list[Path]) -> str | None:
        """The digest of what the test's outcome depends on (None: a file unreadable)."""
        import hashlib
        import json

        found = hashlib.blake2b(digest_size=16)
        found.update(self.versions.encode())
        try:
            found.update(json.dumps(test, sort_keys=True, default=str).encode())
            for path in files:
                stat = path.stat()
                mark = (str(path), stat.st_mtime_ns, stat.st_size)
                if mark not in self._digests:
                    data = path.read_bytes()
                    self._digests[mark] = hashlib.blake2b(data, digest_size=16).digest()
                found.update(path.name.encode() + b"\0" + self._digests[mark])
        except (OSError, TypeError, ValueError):
            return None
        return found.hexdigest()

    def take(self, key: str) -> tuple[bool, str]:
        self.used[key] = self.known[key]
        return self.known[key]

    def put(self, key: str, outcome: tuple[bool, str]) -> None:
        self.known[key] = self.used[key] = (bool(outcome[0]), str(outcome[1]))
        self.added += 1

    def store(self) -> None:
        """Keep the outcomes of the tests run now (those of older rule bases
        are dropped); a cache that cannot be written is no error."""
        if self.folder is None or not self.added and len(self.used) == len(self.known):
            return
        from mtgkb.rulebase.disk_cache import store_checked

        store_checked(self.folder, self.name, self.used, "units-*")
        self.added = 0


def _sound_outcomes(data) -> bool:
    return type(data) is dict and all(
        type(k) is str
        and len(k) == 32
        and type(v) is tuple
        and len(v) == 2
        and type(v[0]) is bool
        and type(v[1]) is str
        for k, v in data.items()
    )


def run_units(base: Base, files: Iterable[Path] | None = None) -> list[UnitResult]:
    """Every unit test of the rule base (or of the TOML `files` given); the
    outcomes of unchanged tests read from the cache (UnitCache)."""
    from mtgkb.engine.state import Options

    cache = UnitCache(Options.from_env().cache_dir)
    try:
        return _run_units(base, files, cache)
    finally:
        cache.store()


def _run_units(base: Base, files, cache: UnitCache) -> list[UnitResult]:
    out: list[UnitResult] = []
    for path in unit_files(base) if files is None else files:
        shown = str(path.relative_to(base.root)) if path.is_relative_to(base.root) else str(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
            out.append(UnitResult(shown, "(the file)", None, None, False, f"unreadable: {err}"))
            continue
        rule_file = data.get("file")
        tests = data.get("test", [])
        if not isinstance(tests, list) or not tests:
            out.append(UnitResult(shown, "(the file)", None, rule_file, False, "no [[test]] table"))
            continue
        for k, test in enumerate(tests, start=1):
            name = str(test.get("name", f"test {k}")) if isinstance(test, dict) else f"test {k}"
            rule = test.get("rule") if isinstance(test, dict) else None
            try:
                if not isinstance(test, dict):
                    raise ValueError("a [[test]] must be a table")
                ok, message = run_unit(base, test, rule_file, cache)
            except ValueError as err:
                ok, message = False, f"malformed test: {err}"
            out.append(UnitResult(shown, name, rule, rule_file, ok, message))
    return out


def unit_findings(
    base: Base, results: list[UnitResult], index: RuleIndex | None
) -> tuple[list[dict], list[dict]]:
    """(lint: failed tests and tests naming no rule of the index; warnings: rule
    files with no unit test, when the rule base has unit tests at all)."""
    lint = []
    for r in results:
        where = f"{r.file}: {r.name}"
        if not r.ok:
            lint.append(finding("unit-test-failed", r.message, where, r.rule))
        if r.rule and index is not None and r.rule not in index:
            text = f"the unit test names {r.rule}, which is not in the rule index"
            lint.append(finding("unknown-number", text, where, r.rule))
    warnings = []
    if results:
        tested = {r.tests for r in results if r.tests}
        for path in base.files(base.rules):
            name = f"rules/{path.name}"
            if name not in tested:
                text = f"{name} has no unit test in {UNITS_FOLDER}/"
                warnings.append(finding("no-unit-test", text, name))
    return lint, warnings


# --------------------------------------------------------------------------
# The rules a unit test checks besides the one it names


DERIVES = "_mtgkb_unit_derives"


def checked_rules(
    base: Base, scans, numbers: Iterable[str], results: list[UnitResult]
) -> dict[str, list[str]]:
    """Of the CR `numbers`, those a passing unit test (of `results`) checks without naming
    them: a statement tagged with one of them (in a rule file the test
    loads) derived an atom the test asserts (`must`) in a model of the
    test's program. Each such number -> the tests (`FILE: NAME`).

    A unit test names one rule (`rule`), often the rule of a whole section
    ("115.1") where the statement deriving what it asserts is tagged with a
    subrule ("115.1a"): what the test checks is what it asserts, and the
    rule whose statement derived it. A statement that fired without
    deriving an asserted atom is not checked by the test. Only the tests
    that load such a statement and assert an atom of its predicate are
    grounded again, with a copy of each candidate statement that derives
    `_mtgkb_unit_derives(K, Head)` from the same body."""
    import clingo.ast as cast

    wanted = set(numbers)
    by_file: dict[Path, list] = {}
    for scan in scans:
        for st in scan.statements:
            if st.ast is None or not st.encodes or not wanted & set(st.tags or ()):
                continue
            head = st.ast.head
            if (
                head.ast_type != cast.ASTType.Literal
                or head.sign != cast.Sign.NoSign
                or head.atom.ast_type != cast.ASTType.SymbolicAtom
                or head.atom.symbol.ast_type != cast.ASTType.Function
            ):
                continue
            by_file.setdefault(Path(scan.path).resolve(), []).append(st)
    found: dict[str, list[str]] = {}
    passed = {(r.file, r.name) for r in results if r.ok}
    if not by_file or not passed:
        return found
    for path in unit_files(base):
        shown = str(path.relative_to(base.root)) if path.is_relative_to(base.root) else str(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        rule_file = data.get("file")
        tests = data.get("test", [])
        for k, test in enumerate(tests if isinstance(tests, list) else [], start=1):
            if not isinstance(test, dict):
                continue
            name = str(test.get("name", f"test {k}"))
            if (shown, name) not in passed:
                continue
            for number in _derived_by(base, test, rule_file, by_file, wanted):
                found.setdefault(number, []).append(f"{shown}: {name}")
    return found


def _derived_by(base: Base, test: dict, rule_file, by_file: dict, wanted: set[str]) -> set[str]:
    """The `wanted` numbers whose statements derive an atom the test asserts."""
    import clingo.ast as cast

    try:
        program = test.get("program", "")
        must = _strings(test.get("must"), "must")
        also = _strings(test.get("also"), "also")
        if not isinstance(program, str) or not must or test.get("models", "all") == "none":
            return set()
        asserted = {clingo.parse_term(a) for a in must}
    except (RuntimeError, ValueError):
        return set()
    shapes = {(a.name, len(a.arguments)) for a in asserted if a.type == clingo.SymbolType.Function}
    files = [base.root / f for f in ([rule_file] if isinstance(rule_file, str) else []) + also]
    candidates = [
        st
        for f in files
        for st in by_file.get(f.resolve(), ())
        if (st.ast.head.atom.symbol.name, len(st.ast.head.atom.symbol.arguments)) in shapes
    ]
    if not candidates or not all(f.is_file() for f in files):
        return set()
    files += kb_files_read(base, program, files, [*must, *_strings(test.get("must_not"), "")])
    ctl = new_control(["0"])
    tags: dict[int, tuple[str, ...]] = {}
    try:
        for f in files:
            ctl.load(str(f))
        ctl.add("base", [], program)
        with cast.ProgramBuilder(ctl) as builder:
            for k, st in enumerate(candidates):
                loc = st.ast.location
                number = cast.SymbolicTerm(loc, clingo.Number(k))
                term = cast.Function(loc, DERIVES, [number, st.ast.head.atom.symbol], 0)
                literal = cast.Literal(loc, cast.Sign.NoSign, cast.SymbolicAtom(term))
                builder.add(cast.Rule(loc, literal, list(st.ast.body)))
                tags[k] = tuple(st.tags or ())
        ctl.ground([("base", [])])
        seen: set[int] = set()

        def take(model: clingo.Model) -> None:
            for atom in model.symbols(atoms=True):
                if atom.name == DERIVES and atom.arguments[1] in asserted:
                    seen.add(atom.arguments[0].number)

        if not ctl.solve(on_model=take).satisfiable:
            return set()
    except RuntimeError:
        return set()
    return {n for k in seen for n in tags[k] if n in wanted}
