"""Lint: untagged ASP rules, tags naming rules outside the index, undefined
atoms and syntax errors (clingo's logger), kinds of violation without their
message; and, as warnings, derived predicates nobody reads.
"""

from __future__ import annotations

import re
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.audit.kinds import missing_texts
from mtgkb.audit.numbers import number_lint
from mtgkb.audit.sources import (
    PUBLIC_GRAPH,
    Base,
    Scans,
    collect_atoms,
    documented_names,
    finding,
    head_and_body,
)
from mtgkb.rulebase.citations import load as load_program
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.encoded import label
from mtgkb.rulebase.index import RuleIndex

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


def _ground_messages(paths: list[Path]) -> tuple[list[tuple[clingo.MessageCode, str]], bool]:
    """clingo's messages for one grounding of these files (each with its generated
    citations), and whether it went through without an error."""
    messages: list[tuple[clingo.MessageCode, str]] = []
    ctl = new_control(["--warn=all"], _keep(messages))
    try:
        for path in paths:
            load_program(ctl, path)  # with its generated citations
        ctl.ground([("base", [])])
    except RuntimeError:
        return messages, False  # the messages say why
    return messages, True


def _defined_and_read(scan) -> tuple[set, set]:
    """(the predicates a scanned file defines, as clingo counts them: heads,
    `#external` and `#defined`; the predicates it reads, `#show` included)."""
    defined: set[tuple[str, int]] = set()
    read: set[tuple[str, int]] = set()
    for st in scan.statements:
        if st.ast is None:
            continue
        heads, uses = head_and_body(st.ast)
        defined |= heads
        read |= uses
        kind = st.ast.ast_type
        if kind == cast.ASTType.External:
            collect_atoms(st.ast.atom, defined)
        elif kind == cast.ASTType.Defined:
            defined.add((st.ast.name, st.ast.arity))
    return defined, read


def masked_queries(base: Base, scans: Scans) -> list[Path] | None:
    """The query files whose own grounding could say "atom undefined" where
    the grounding of all queries together cannot: the rule base with that
    query reads a predicate neither defines, and another query defines it.
    None when a file's scan cannot tell (a syntax error)."""
    queries = {p.resolve(): p for p in base.query_files()}
    defined_base: set = set()
    read_base: set = set()
    by_query: dict[Path, tuple[set, set]] = {}
    for scan in scans.all():
        if scan.errors:
            return None
        found = _defined_and_read(scan)
        if scan.path.resolve() in queries:
            by_query[queries[scan.path.resolve()]] = found
        else:
            defined_base |= found[0]
            read_base |= found[1]
    if len(by_query) != len(queries):
        return None
    out = []
    for path, (defined, read) in by_query.items():
        others = set().union(*(d for q, (d, _) in by_query.items() if q != path))
        if ((read_base | read) - defined_base - defined) & others:
            out.append(path)
    return sorted(out)


def logger_lint(base: Base, scans: Scans | None = None) -> list[dict]:
    """Ground the rule base and keep clingo's complaints.

    Each query is its own program (the rule base with one query, as `mtgkb
    run` grounds it). They are grounded together, once, with the rule base:
    the statements and their messages are the same, but for an atom one
    query reads and only another defines, which the grounding of both does
    not call undefined; a query where that can happen (`masked_queries`,
    read from the scans' syntax trees) is grounded alone as well. When the
    grounding of all of them fails (a syntax error, an unsafe variable), or
    a scan cannot tell, each query is grounded alone with the rule base."""
    base_files = base.files(base.rules) + base.files(base.kb) + list(base.extra)
    queries = base.query_files()
    masked = masked_queries(base, scans) if scans is not None and queries else None
    runs: list[list[tuple[clingo.MessageCode, str]]] = []
    if masked is not None:
        messages, ok = _ground_messages(base_files + queries)
        if ok:
            runs.append(messages)
            runs += [_ground_messages(base_files + [q])[0] for q in masked]
    if not runs:
        runs = [_ground_messages(base_files + extra)[0] for extra in [[q] for q in queries] or [[]]]
    seen: set[tuple[str, str]] = set()
    found: list[dict] = []
    for messages in runs:
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
                found.append(finding(kind, text, where))
    return found


def tag_lint(scans: Scans, index: RuleIndex | None) -> list[dict]:
    """Syntax errors, malformed tags, tags naming no rule of the index, untagged rules."""
    found = []
    for scan in scans.all():
        for err in scan.errors:
            found.append(finding("syntax", err, label(scan.path)))
        for tag in scan.tags:
            where = label(tag.file, tag.line)
            for bad in tag.malformed:
                found.append(
                    finding("malformed-tag", f"tag item {bad!r} is not a CR number", where)
                )
            if index is not None:
                for num in tag.numbers:
                    if num not in index.entries:
                        found.append(
                            finding(
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
                    finding(
                        "untagged",
                        "an ASP rule with no `% N: ...` tag line above it",
                        label(st.file, st.line),
                    )
                )
    return found


def unused(base: Base, scans: Scans) -> list[dict]:
    """Predicates rules/ derives that no program reads or shows (warnings)."""
    heads: dict[tuple[str, int], str] = {}
    uses: set[tuple[str, int]] = set()
    for in_rules, group in ((True, scans.rules), (False, scans.others)):
        for scan in group:
            for st in scan.statements:
                if st.ast is None:
                    continue
                h, u = head_and_body(st.ast)
                uses |= u
                if in_rules:
                    for sig in h:
                        heads.setdefault(sig, label(st.file, st.line))
    exempt = PUBLIC_GRAPH | documented_names(base.root)
    out = []
    for (name, arity), where in sorted(heads.items()):
        if (name, arity) in uses or name in exempt or name.startswith("_"):
            continue
        out.append(
            finding("unused", f"{name}/{arity} is derived but no program reads or shows it", where)
        )
    return out


def lint(base: Base, scans: Scans, index: RuleIndex | None) -> tuple[list[dict], list[dict]]:
    """(lint, warnings) of the rule base's text, in the report's order."""
    found = tag_lint(scans, index) + number_lint(base, index) + logger_lint(base, scans)
    warnings: list[dict] = []
    for kind, _kind, where, text in missing_texts(scans.rules, base.kb):
        (found if kind == "no-message" else warnings).append(finding(kind, text, where))
    found += unsaid_lint(base)  # an explanation would show the atom itself
    return found, warnings + unused(base, scans) + stale_citations(base)


def stale_citations(base: Base) -> list[dict]:
    """rules/generated_citations.lp (for plain clingo) differs from what the
    `cite` tags generate now: plain clingo would cite otherwise than mtgkb."""
    from mtgkb.rulebase.citations import plain_clingo_copy
    from mtgkb.rulebase.location import GENERATED_CITATIONS

    path = base.rules / GENERATED_CITATIONS
    want = plain_clingo_copy(base.root)
    have = path.read_text(encoding="utf-8") if path.is_file() else None
    if have == want:
        return []
    said = "is missing" if have is None else "is stale"
    text = (
        f"{GENERATED_CITATIONS} {said}: plain clingo would not cite as mtgkb does; "
        f"run `mtgkb program --citations > rules/{GENERATED_CITATIONS}`"
    )
    return [finding("stale-citations", text, f"rules/{GENERATED_CITATIONS}")]


def unsaid_lint(base: Base) -> list[dict]:
    """Predicates that can reach an explanation (mtgkb.questions.explain.reach)
    without a sentence in English and Italian (kb/texts.lp): an explanation
    would show the atom itself."""
    from mtgkb.questions.explain.reach import unsaid

    return [
        finding(
            "no-sentence",
            f"{name}/{arity} can appear in an explanation but has no sentence in "
            f'kb/texts.lp: add text(conclusion, "{name}/{arity}", "...") and its text_it twin',
            where,
        )
        for name, arity, where in unsaid(base.root)
    ]
