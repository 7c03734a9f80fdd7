"""`mtgkb audit`: the rule base checks itself.

- coverage: each rule of the index, where it is encoded and what tests it;
- lint: untagged ASP rules, tags naming rules outside the index, indexed
  rules encoded nowhere, undefined atoms (clingo's logger), and, as warnings,
  derived predicates nobody reads and encoded rules no test names;
- consistency: over a corpus of scenarios (fact texts), one starting and one
  final life total per player or team; a contradiction is reported with the
  minimal set of CR rules responsible (an unsatisfiable core over one
  activation atom per CR number, shrunk by deletion);
- editions: with `--cr FILE`, cited numbers missing from that edition and
  rules whose text changed since the edition they were encoded from.

Nothing here is a game rule: the checks are questions asked of the rules.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import clingo
import clingo.ast as cast

from .cores import Budget, active, add_statements, minimal_rules, solve_assuming, switch_rules
from .paths import data_dir
from .ruleindex import (
    EDITION,
    FileScan,
    RuleIndex,
    example_folders,
    label,
    load_index,
    read_cr,
    scan_folder,
    sort_key,
    tested_map,
)

#: The explanation graph is read by the renderer, not by other rules.
PUBLIC_GRAPH = {"because", "rests_on", "violation", "cites"}

#: The checks run on each scenario of the corpus. `_audit_conflict(K)` names
#: what went wrong. To find the rules responsible, the conflicts seen are then
#: forbidden (a constraint each) and the rules are switched off and on.
CHECK_PROGRAM = """
#defined starting_life/2. #defined life/2. #defined team_life/2. #defined on_team/2.
#defined player/1.
_audit_conflict(two_starting_life(X,N,M)) :- starting_life(X,N), starting_life(X,M), N < M.
_audit_conflict(two_life(X,N,M)) :- life(X,N), life(X,M), N < M.
_audit_conflict(two_team_life(X,N,M)) :- team_life(X,N), team_life(X,M), N < M.
_audit_has_start(P) :- starting_life(P,_).
_audit_has_start(P) :- on_team(P,T), starting_life(T,_).
_audit_conflict(no_starting_life(P)) :- player(P), not _audit_has_start(P), _audit_starts.
"""
#: Added when the rule base derives starting_life/2 at all.
CHECK_STARTS = "_audit_starts.\n"
#: Added when the outcome query is part of the program: every player has a final life.
CHECK_OUTCOME = """
_audit_has_life(P) :- life(P,_).
_audit_conflict(no_life(P)) :- player(P), not _audit_has_life(P).
"""

CONFLICT_MESSAGES = {
    "two_starting_life": "{0} has two starting life totals, {1} and {2}",
    "two_life": "{0} ends with two life totals, {1} and {2}",
    "two_team_life": "team {0} ends with two life totals, {1} and {2}",
    "no_starting_life": "{0} has no starting life total",
    "no_life": "{0} has no final life total",
}


# --------------------------------------------------------------------------
# Where the rule base is
# --------------------------------------------------------------------------


@dataclass
class Base:
    root: Path
    rules: Path
    kb: Path
    queries: Path | None

    @classmethod
    def at(cls, root: Path | None) -> Base:
        if root is None:
            rules = data_dir("rules")
            try:
                queries: Path | None = data_dir("queries")
            except FileNotFoundError:
                queries = None
            return cls(rules.parent, rules, data_dir("kb"), queries)
        root = Path(root)
        queries = root / "queries"
        return cls(root, root / "rules", root / "kb", queries if queries.is_dir() else None)

    def files(self, folder: Path | None) -> list[Path]:
        return sorted(folder.glob("*.lp")) if folder is not None and folder.is_dir() else []

    def query_files(self) -> list[Path]:
        return self.files(self.queries)


def _lint(kind: str, message: str, where: str | None = None, rule: str | None = None) -> dict:
    item = {"kind": kind, "message": message}
    if where:
        item["where"] = where
    if rule:
        item["rule"] = rule
    return item


# --------------------------------------------------------------------------
# Predicates: what each program derives and reads (clingo.ast)
# --------------------------------------------------------------------------


def _collect(node, found: set[tuple[str, int]]) -> None:
    """Every predicate signature in atom position below `node`."""
    if node is None:
        return
    if not isinstance(node, cast.AST):
        try:
            for item in node:
                _collect(item, found)
        except TypeError:
            pass
        return
    if node.ast_type == cast.ASTType.SymbolicAtom:
        term = node.symbol
        if term.ast_type == cast.ASTType.Function and term.name:
            found.add((term.name, len(term.arguments)))
        elif term.ast_type == cast.ASTType.SymbolicTerm:
            sym = term.symbol
            if sym.type == clingo.SymbolType.Function and sym.name:
                found.add((sym.name, len(sym.arguments)))
        elif term.ast_type == cast.ASTType.Pool:
            for arg in term.arguments:
                if arg.ast_type == cast.ASTType.Function and arg.name:
                    found.add((arg.name, len(arg.arguments)))
        return
    for key in node.child_keys:
        _collect(getattr(node, key), found)


def _head_and_body(stmt: cast.AST) -> tuple[set, set]:
    heads: set[tuple[str, int]] = set()
    uses: set[tuple[str, int]] = set()
    kind = stmt.ast_type
    if kind == cast.ASTType.Rule:

        def head_part(node):
            t = node.ast_type
            if t == cast.ASTType.Literal:
                _collect(node, heads)
            elif t == cast.ASTType.ConditionalLiteral:
                head_part(node.literal)
                _collect(node.condition, uses)
            elif t in (cast.ASTType.Disjunction, cast.ASTType.Aggregate):
                for element in node.elements:
                    head_part(element)
            elif t == cast.ASTType.HeadAggregate:
                for element in node.elements:
                    head_part(element.condition)
            else:
                _collect(node, uses)

        head_part(stmt.head)
        _collect(stmt.body, uses)
    elif kind == cast.ASTType.ShowSignature:
        uses.add((stmt.name, stmt.arity))
    else:
        _collect(stmt, uses)
    return heads, uses


def _documented_names(root: Path) -> set[str]:
    """Predicate names the public schema documents (docs/predicates.md, in a checkout)."""
    doc = root / "docs" / "predicates.md"
    if not doc.is_file():
        return set()
    text = doc.read_text(encoding="utf-8")
    return set(re.findall(r"`([a-z_][A-Za-z0-9_]*)(?:\(|`)", text))


# --------------------------------------------------------------------------
# Lint
# --------------------------------------------------------------------------


_LOG_LINE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):\d+(?:-\d+(?::\d+)?)?: "
    r"(?P<level>info|warning|error): (?P<text>.*)$",
    re.S,
)


def _where(path_text: str, line: str) -> str:
    path = Path(path_text)
    return label(path, int(line)) if path.suffix == ".lp" else f"{path_text}:{line}"


def _keep(messages: list):
    return lambda code, msg: messages.append((code, msg))


def _logger_lint(base: Base) -> list[dict]:
    """Ground the rule base with each query (or alone) and keep clingo's complaints."""
    programs = [[q] for q in base.query_files()] or [[]]
    seen: set[tuple[str, str]] = set()
    found: list[dict] = []
    for extra in programs:
        messages: list[tuple[clingo.MessageCode, str]] = []
        ctl = clingo.Control(["--warn=all"], logger=_keep(messages))
        try:
            for path in base.files(base.rules) + base.files(base.kb) + extra:
                ctl.load(str(path))
            ctl.ground([("base", [])])
        except RuntimeError:
            pass  # the messages say why
        for code, msg in messages:
            match = _LOG_LINE.match(msg.strip())
            if match:
                where = _where(match.group("file"), match.group("line"))
                text = " ".join(match.group("text").split())
            else:
                where, text = None, " ".join(msg.split())
            if code == clingo.MessageCode.AtomUndefined:
                kind = "undefined"
            elif match and match.group("level") == "error":
                kind = "syntax"
            else:
                kind = "clingo"
            key = (where or "", text)
            if key not in seen:
                seen.add(key)
                found.append(_lint(kind, text, where))
    return found


@dataclass
class Scans:
    rules: list[FileScan]
    others: list[FileScan]  # kb/ and queries/: their tags must name indexed rules too

    def all(self) -> list[FileScan]:
        return self.rules + self.others


def _scan(base: Base) -> Scans:
    kb = (
        [s for s in scan_folder(base.kb) if s.path.name != "rule_index.lp"]
        if base.kb.is_dir()
        else []
    )
    queries = scan_folder(base.queries) if base.queries is not None else []
    return Scans(scan_folder(base.rules) if base.rules.is_dir() else [], kb + queries)


def tag_sites(scans: Scans) -> dict[str, list[str]]:
    """Every number named by a `% N` tag line -> where the tag lines are."""
    sites: dict[str, list[str]] = {}
    for scan in scans.all():
        for tag in scan.tags:
            for num in tag.numbers:
                sites.setdefault(num, []).append(label(tag.file, tag.line))
    return sites


def encoded_sites(scans: Scans) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for scan in scans.rules:
        for st in scan.statements:
            if st.is_rule and st.tags:
                for num in st.tags:
                    found.setdefault(num, []).append(label(st.file, st.line))
    return found


def _tag_lint(scans: Scans, index: RuleIndex | None) -> list[dict]:
    found = []
    for scan in scans.all():
        for err in scan.errors:
            found.append(_lint("syntax", err, label(scan.path)))
        for tag in scan.tags:
            where = label(tag.file, tag.line)
            for bad in tag.malformed:
                found.append(_lint("malformed-tag", f"tag item {bad!r} is not a CR number", where))
            if index is not None:
                for num in tag.numbers:
                    if num not in index.entries:
                        found.append(
                            _lint(
                                "unknown-tag",
                                f"the tag names {num}, which is not in the rule index",
                                where,
                                num,
                            )
                        )
    for scan in scans.rules:
        for st in scan.statements:
            if st.is_rule and st.tags is None:
                found.append(
                    _lint(
                        "untagged",
                        "an ASP rule with no `% N: ...` tag line above it",
                        label(st.file, st.line),
                    )
                )
    return found


def _unused(base: Base, scans: Scans) -> list[dict]:
    heads: dict[tuple[str, int], str] = {}
    uses: set[tuple[str, int]] = set()
    for in_rules, group in ((True, scans.rules), (False, scans.others)):
        for scan in group:
            for st in scan.statements:
                if st.ast is None:
                    continue
                h, u = _head_and_body(st.ast)
                uses |= u
                if in_rules:
                    for sig in h:
                        heads.setdefault(sig, label(st.file, st.line))
    exempt = PUBLIC_GRAPH | _documented_names(base.root)
    out = []
    for (name, arity), where in sorted(heads.items()):
        if (name, arity) in uses or name in exempt or name.startswith("_"):
            continue
        out.append(
            _lint("unused", f"{name}/{arity} is derived but no program reads or shows it", where)
        )
    return out


# --------------------------------------------------------------------------
# Consistency: contradictions and the minimal set of rules behind them
# --------------------------------------------------------------------------


@dataclass
class Prepared:
    """The rule base with one activation atom per CR number, parsed once."""

    statements: list[cast.AST]
    extra: str
    numbers: list[str]
    sites: dict[str, list[str]]
    others: list[Path]
    derives_starting_life: bool
    has_outcome: bool


def prepare(base: Base, query: str | None = "outcome") -> Prepared:
    """Give each tagged rule of `rules/` a body atom `_on(K)`, true when one of its
    CR numbers is active (`_active(rule("N"))`, a free choice assumed true)."""
    scans = scan_folder(base.rules) if base.rules.is_dir() else []
    derives_start = any(
        ("starting_life", 2) in _head_and_body(st.ast)[0]
        for scan in scans
        for st in scan.statements
        if st.ast is not None and st.kind == "Rule"
    )
    switches = switch_rules(scans)
    others = base.files(base.kb)
    query_path = base.queries / f"{query}.lp" if base.queries is not None and query else None
    has_outcome = query_path is not None and query_path.is_file()
    if has_outcome:
        others.append(query_path)
    return Prepared(
        switches.statements,
        switches.extra,
        switches.numbers,
        switches.sites,
        others,
        derives_start,
        has_outcome,
    )


def _conflict_message(sym: clingo.Symbol) -> str:
    args = [a.string if a.type == clingo.SymbolType.String else str(a) for a in sym.arguments]
    template = CONFLICT_MESSAGES.get(sym.name)
    return template.format(*args) if template else str(sym)


def check_scenario(prepared: Prepared, name: str, facts: str, timeout: float = 10.0) -> list[dict]:
    """The conflicts one scenario shows, each with the CR rules responsible."""
    ctl = clingo.Control(["--models=20"], logger=lambda code, msg: None)
    add_statements(ctl, prepared.statements)
    program = prepared.extra + CHECK_PROGRAM
    if prepared.derives_starting_life:
        program += CHECK_STARTS
    if prepared.has_outcome:
        program += CHECK_OUTCOME
    for path in prepared.others:
        ctl.load(str(path))
    ctl.add("base", [], program)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    atoms = ctl.symbolic_atoms
    present = [n for n in prepared.numbers if atoms[active(n)] is not None]
    for n in present:
        ctl.assign_external(active(n), None)  # free: each solve's assumptions decide
    all_on = [atoms[active(n)].literal for n in present]
    try:
        sat, conflicts, _ = solve_assuming(ctl, all_on, timeout, watch="_audit_conflict")
    except Budget:
        return [{"rules": [], "scenario": name, "message": f"no answer within {timeout:g} s"}]
    if sat and not conflicts:
        return []
    if sat:
        found = sorted(_conflict_message(c) for c in conflicts)
        message = "; ".join(found[:4]) + (f"; and {len(found) - 4} more" if len(found) > 4 else "")
        # forbid exactly the conflicts seen: switching rules off may cause others
        # (a missing life total), which are not the ones to explain
        ctl.add("audit_watch", [], "".join(f":- _audit_conflict({c}).\n" for c in conflicts))
        ctl.ground([("audit_watch", [])])
    else:
        message = "the rules admit no answer for this scenario"
    try:
        rules = minimal_rules(ctl, present, timeout)
    except Budget:
        rules = None
        message += f" (the responsible rules were not found within {timeout:g} s)"
    if rules is None:
        rules = []
    at = [site for n in rules for site in prepared.sites.get(n, [])]
    return [{"rules": rules, "scenario": name, "message": message, "at": at}]


def consistency(
    corpus: Iterable[tuple[str, str]], root: Path | None = None, *, timeout: float = 10.0
) -> list[dict]:
    """Conflicts over a corpus of (name, facts text) scenarios.

    Each conflict is `{"rules": [...], "scenario": name, "message": ...}`
    (plus `"at"`: the encodings of those rules). The lead's scenario runner
    can feed the examples and conformance cases here as their facts.
    """
    prepared = prepare(Base.at(root))
    conflicts: list[dict] = []
    for name, facts in corpus:
        conflicts += check_scenario(prepared, name, facts, timeout)
    return conflicts


def file_corpus(root: Path) -> list[tuple[str, str]]:
    """The scenario files of `examples/` and of the shared conformance cases beside
    the checkout, as facts; files the parser refuses (exit 2 cases) are left out."""
    from .errors import ScenarioError
    from .facts import facts_text, scenario_facts
    from .parser import parse_file

    out = []
    for folder, name in example_folders(Path(root)):
        for path in sorted(folder.glob("*.mtg")):
            try:
                scenario = parse_file(path)
            except (ScenarioError, OSError):
                continue
            out.append((f"{name}/{path.name}", facts_text(scenario_facts(scenario))))
    return out


def _table_facts(game: str, n: int, *, options=(), teams=None, extra=()) -> str:
    players = [f"P{i}" for i in range(1, n + 1)]
    lines = [f"game({game}).", "phase(main).", "asked(outcome)."]
    lines += [f'player("{p}"). seat("{p}",{i}).' for i, p in enumerate(players, 1)]
    lines += ['active("P1").', 'starting("P1").']
    lines += [f"option({o})." for o in options]
    for t, members in enumerate(teams or [], 1):
        lines += [f'team("T{t}","{m}").' for m in members]
    lines += list(extra)
    lines += ['event(1,damage("Bolt","P2",3)).', 'event(2,gain_life("P1",2)).']
    return "\n".join(lines) + "\n"


def generated_corpus() -> list[tuple[str, str]]:
    """Tables of 2-6 players across the variants and options of the language."""
    out: list[tuple[str, str]] = []

    def add(name, *args, **kw):
        out.append((name, _table_facts(*args, **kw)))

    def seated(n, size):
        return [[f"P{i}" for i in range(k + 1, k + size + 1)] for k in range(0, n, size)]

    add("two-player", "two_player", 2)
    for n in range(3, 7):
        for opt in ("attack_multiple_players", "attack_left", "attack_right"):
            add(f"free-for-all {n} players, {opt}", "free_for_all", n, options=[opt])
    add(
        "free-for-all 5 players, range 2",
        "free_for_all",
        5,
        options=["attack_multiple_players", "range_of_influence(2)"],
    )
    for n in (4, 6):
        add(f"grand melee {n} players", "grand_melee", n)
    add("team vs team 2x2", "team_vs_team", 4, teams=seated(4, 2))
    add("team vs team 3x2", "team_vs_team", 6, teams=seated(6, 2))
    add("team vs team 2x3", "team_vs_team", 6, teams=seated(6, 3))
    add("two-headed giant 2x2", "two_headed_giant", 4, teams=seated(4, 2))
    add("two-headed giant 2x3", "two_headed_giant", 6, teams=seated(6, 3))
    add("emperor 2x3", "emperor", 6, teams=seated(6, 3), extra=['emperor("P2").', 'emperor("P5").'])
    for n in range(2, 7):
        add(f"commander {n} players", "commander", n)
        add(f"brawl {n} players", "brawl", n)
    for n in range(3, 7):
        add(f"archenemy {n} players", "archenemy", n, extra=['archenemy("P1").'])
    for n in range(2, 5):
        mods = [-3, 0, 2, 5]
        add(
            f"vanguard {n} players",
            "vanguard",
            n,
            extra=[f'vanguard("P{i}",{mods[i - 1]}).' for i in range(1, n + 1)],
        )
    return out


# --------------------------------------------------------------------------
# Editions
# --------------------------------------------------------------------------


def _editions(
    cr_file: Path, index: RuleIndex | None, scans: Scans
) -> tuple[dict, list[dict], list[dict]]:
    cr = read_cr(cr_file)
    if not cr.digests:
        raise ValueError(
            f"{cr_file}: no rule numbers found; is it a Comprehensive Rules text file?"
        )
    cited = tag_sites(scans)
    if index is not None:
        for entry in index:
            cited.setdefault(entry.id, []).append("kb/rule_index.lp")
    missing = sorted((n for n in cited if n not in cr.digests), key=sort_key)
    changed, differs = [], []
    if index is not None:
        for entry in index:
            if entry.digest and entry.id in cr.digests and cr.digests[entry.id] != entry.digest:
                changed.append(entry.id)
            if cr.edition and entry.edition != cr.edition:
                differs.append(entry.id)
    lint = [
        _lint(
            "not-in-edition",
            f"{n} is cited but is not a rule of {cr_file.name} ({cr.edition or 'edition unknown'})",
            cited[n][0],
            n,
        )
        for n in missing
    ]
    lint += [
        _lint(
            "text-changed",
            f"the text of {n} in {cr_file.name} ({cr.edition or 'edition unknown'}) differs from "
            f"the {index.entries[n].edition} text it was encoded from: review the encoding",
            "kb/rule_index.lp",
            n,
        )
        for n in changed
    ]
    warnings = []
    if differs:
        warnings.append(
            _lint(
                "edition-differs",
                f"{len(differs)} rules of the index follow another edition than "
                f"{cr_file.name} ({cr.edition})",
            )
        )
    section = {
        "file": str(cr_file),
        "edition": cr.edition,
        "checked": len(cited),
        "missing": missing,
        "changed": changed,
        "edition_differs": differs,
    }
    return section, lint, warnings


# --------------------------------------------------------------------------
# The audit
# --------------------------------------------------------------------------


def audit(
    root: Path | None = None,
    cr_file: Path | None = None,
    corpus: Iterable[tuple[str, str]] | None = None,
    *,
    timeout: float = 10.0,
) -> dict:
    """Audit the rule base of a checkout (`root`) or of this installation (None).

    `corpus`: (name, facts text) scenarios for the consistency check; by
    default the scenario files beside the rule base (`file_corpus`) and the
    generated tables of `generated_corpus()`.
    """
    base = Base.at(root)
    lint: list[dict] = []
    warnings: list[dict] = []
    index_path = base.kb / "rule_index.lp"
    index: RuleIndex | None = None
    if index_path.is_file():
        index = load_index(index_path)
    else:
        lint.append(_lint("no-index", "kb/rule_index.lp is missing", "kb/rule_index.lp"))
    scans = _scan(base)
    encoded = encoded_sites(scans)
    entries = list(index) if index is not None else []
    has_tests = (base.root / "tests").is_dir()
    tested = tested_map(base.root, [e.id for e in entries])

    coverage = []
    for entry in entries:
        row = {
            "id": entry.id,
            "encoded_at": encoded.get(entry.id, []),
            "tested_by": tested[entry.id],
        }
        if entry.relied_on:
            row["relied_on"] = True
        coverage.append(row)
        if entry.relied_on:
            continue
        if not row["encoded_at"]:
            lint.append(
                _lint(
                    "not-encoded",
                    f"{entry.id} is in the index but no ASP rule is tagged with it",
                    "kb/rule_index.lp",
                    entry.id,
                )
            )
        elif has_tests and not row["tested_by"]:
            warnings.append(
                _lint(
                    "untested",
                    f"{entry.id} is encoded but no test or example names it",
                    None,
                    entry.id,
                )
            )
    lint += _tag_lint(scans, index)
    lint += _logger_lint(base)
    warnings += _unused(base, scans)

    scenarios = list(corpus) if corpus is not None else file_corpus(base.root) + generated_corpus()
    conflicts = consistency(scenarios, base.root if root is not None else None, timeout=timeout)

    report: dict = {"rules": coverage, "lint": lint, "warnings": warnings, "conflicts": conflicts}
    if cr_file is not None:
        section, more_lint, more_warnings = _editions(Path(cr_file), index, scans)
        report["editions"] = section
        lint += more_lint
        warnings += more_warnings
    report["summary"] = {
        "root": str(base.root),
        "edition": EDITION,
        "rules": len(coverage),
        "relied_on": sum(1 for r in coverage if r.get("relied_on")),
        "encoded": sum(1 for r in coverage if r["encoded_at"]),
        "tested": sum(1 for r in coverage if r["tested_by"]),
        "lint": len(lint),
        "warnings": len(warnings),
        "scenarios": len(scenarios),
        "conflicts": len(conflicts),
        "ok": not lint and not conflicts,
    }
    return report


# --------------------------------------------------------------------------
# Renderers and the command
# --------------------------------------------------------------------------


def to_json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1)


def _grouped(items: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for item in items:
        groups.setdefault(item["kind"], []).append(item)
    return groups


def _item_line(item: dict) -> str:
    where = f"{item['where']}: " if item.get("where") else ""
    return f"{where}{item['message']}"


def to_text(report: dict) -> str:
    s = report["summary"]
    out = [
        f"mtgkb audit of {s['root']} (CR {s['edition']})",
        f"  rules in the index: {s['rules']} ({s['relied_on']} relied on, not encoded)",
        f"  encoded: {s['encoded']}, tested: {s['tested']}",
        f"  scenarios checked: {s['scenarios']}",
        f"  lint: {s['lint']}, warnings: {s['warnings']}, conflicts: {s['conflicts']}",
    ]
    for title, items in (("lint", report["lint"]), ("warnings", report["warnings"])):
        for kind, group in _grouped(items).items():
            out.append(f"\n{title}: {kind} ({len(group)})")
            out += [f"  {_item_line(i)}" for i in group]
    if report["conflicts"]:
        out.append(f"\nconflicts ({len(report['conflicts'])})")
        for c in report["conflicts"]:
            rules = ", ".join(c["rules"]) or "(rules not found)"
            out.append(f"  [{c['scenario']}] {c['message']}")
            out.append(f"    rules responsible: {rules}")
    if "editions" in report:
        e = report["editions"]
        out.append(f"\neditions: {e['file']} ({e['edition'] or 'edition unknown'})")
        out.append(
            f"  cited numbers checked: {e['checked']}; missing: {', '.join(e['missing']) or 'none'}"
        )
        out.append(f"  text changed since encoded: {', '.join(e['changed']) or 'none'}")
    out.append("\nresult: " + ("clean" if s["ok"] else "problems found (exit 1)"))
    return "\n".join(out)


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(report: dict) -> str:
    s = report["summary"]
    out = [
        "# mtgkb audit",
        "",
        f"Rule base: `{s['root']}`, Comprehensive Rules effective {s['edition']}.",
        "",
        "| | |",
        "|---|---|",
        f"| rules in the index | {s['rules']} ({s['relied_on']} relied on) |",
        f"| encoded | {s['encoded']} |",
        f"| tested | {s['tested']} |",
        f"| scenarios checked | {s['scenarios']} |",
        f"| lint | {s['lint']} |",
        f"| warnings | {s['warnings']} |",
        f"| conflicts | {s['conflicts']} |",
        "",
        "**Result: " + ("clean.**" if s["ok"] else "problems found.**"),
    ]
    for title, items in (("Lint", report["lint"]), ("Warnings", report["warnings"])):
        if not items:
            continue
        out += ["", f"## {title}", "", "| kind | where | message |", "|---|---|---|"]
        out += [
            f"| {i['kind']} | {_md_cell(i.get('where', ''))} | {_md_cell(i['message'])} |"
            for i in items
        ]
    out += ["", "## Conflicts", ""]
    if report["conflicts"]:
        out += ["| scenario | message | rules responsible |", "|---|---|---|"]
        out += [
            f"| {_md_cell(c['scenario'])} | {_md_cell(c['message'])} | {', '.join(c['rules'])} |"
            for c in report["conflicts"]
        ]
    else:
        out.append("None: no scenario makes the rules contradict themselves.")
    if "editions" in report:
        e = report["editions"]
        out += [
            "",
            "## Editions",
            "",
            f"Checked against `{e['file']}` ({e['edition'] or 'edition unknown'}): "
            f"{e['checked']} cited numbers.",
            "",
            f"- missing from that edition: {', '.join(e['missing']) or 'none'}",
            f"- text changed since encoded: {', '.join(e['changed']) or 'none'}",
        ]
    out += ["", "## Coverage", "", "| rule | encoded at | tested by |", "|---|---|---|"]
    for r in report["rules"]:
        enc = (
            "relied on"
            if r.get("relied_on") and not r["encoded_at"]
            else "<br>".join(r["encoded_at"])
        )
        tests = _md_cell("<br>".join(r["tested_by"])) or "—"
        out.append(f"| {r['id']} | {_md_cell(enc) or '—'} | {tests} |")
    return "\n".join(out) + "\n"


def audit_command(args: argparse.Namespace) -> int:
    """`mtgkb audit [--json | --markdown] [--cr FILE]`: exit 1 on lint or conflicts."""
    cr = getattr(args, "cr", None)
    if cr is not None and not Path(cr).is_file():
        print(f"mtgkb audit: {cr}: no such file", file=sys.stderr)
        return 2
    try:
        report = audit(None, Path(cr) if cr is not None else None)
    except ValueError as err:
        print(f"mtgkb audit: {err}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(to_json(report))
    elif getattr(args, "markdown", False):
        print(to_markdown(report), end="")
    else:
        print(to_text(report))
    return 0 if report["summary"]["ok"] else 1


__all__ = [
    "audit",
    "audit_command",
    "check_scenario",
    "consistency",
    "file_corpus",
    "generated_corpus",
    "minimal_rules",
    "prepare",
    "to_json",
    "to_markdown",
    "to_text",
]
