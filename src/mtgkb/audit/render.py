"""The audit's report as text (the terminal), Markdown (a page) or JSON."""

from __future__ import annotations

import json


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


def _base_title(report: dict) -> str:
    """The rule base audited: its path and digest (and the added files)."""
    base = report.get("rule_base") or {"path": report["summary"]["root"]}
    text = base["path"] + (f" ({base['digest']})" if base.get("digest") else "")
    if base.get("with"):
        text += " with " + ", ".join(base["with"])
    return text


def _place_text(place: dict) -> str:
    rules = ", ".join(place.get("rules", []))
    return f"{place['at']} ({rules})" if rules else place["at"]


def to_text(report: dict) -> str:
    s = report["summary"]
    scenarios = (
        "  lint only: no scenario answered (tested: by the unit tests alone)"
        if report.get("lint_only")
        else f"  scenarios checked: {s['scenarios']}"
    )
    out = [
        f"mtgkb audit of {_base_title(report)} (CR {s['edition']})",
        f"  rules in the index: {s['rules']} ({s['relied_on']} relied on, not encoded)",
        f"  encoded: {s['encoded']} (and {s.get('cited_only', 0)} only cited), "
        f"tested: {s['tested']}",
        scenarios,
        f"  lint: {s['lint']}, warnings: {s['warnings']}, conflicts: {s['conflicts']}",
    ]
    for title, items in (("lint", report["lint"]), ("warnings", report["warnings"])):
        for kind, group in _grouped(items).items():
            out.append(f"\n{title}: {kind} ({len(group)})")
            out += [f"  {_item_line(i)}" for i in group]
    if report.get("not_modelled"):
        out.append(f"\nnot modelled ({len(report['not_modelled'])} declarations)")
        for d in report["not_modelled"]:
            answers = ", ".join(d.get("answers", [])) or "every answer"
            out.append(f"  {d['rule']} when {d['when']}  [{d['at']}; {answers}]")
    if report.get("conflicts"):
        out.append(f"\nconflicts ({len(report['conflicts'])})")
        for c in report["conflicts"]:
            rules = ", ".join(c["rules"]) or "(rules not found)"
            if c.get("statements"):
                out.append("  " + ", ".join(_place_text(p) for p in c["statements"]))
            else:
                out.append(f"  rules {rules} (statements not found)")
            out.append(f"    {c['message']}")
            out.append(f"    rules responsible: {rules}")
            if c.get("remove") and c["remove"] != c.get("statements"):
                out.append(
                    "    removing resolves it: " + ", ".join(_place_text(p) for p in c["remove"])
                )
            seen = list(dict.fromkeys(c.get("seen_in") or [c["scenario"]]))
            more = f" and {len(seen) - 5} more" if len(seen) > 5 else ""
            out.append(f"    seen in {len(seen)} scenario(s): " + ", ".join(seen[:5]) + more)
            if c.get("text"):  # a generated scenario: its text, to reproduce it
                out.append("    scenario:")
                out += [f"      {line}" for line in c["text"].splitlines() if line]
    if "editions" in report:
        e = report["editions"]
        out.append(f"\neditions: {e['file']} ({e['edition'] or 'edition unknown'})")
        out.append(
            f"  cited numbers checked: {e['checked']}; missing: {', '.join(e['missing']) or 'none'}"
        )
        out.append(f"  text changed since encoded: {', '.join(e['changed']) or 'none'}")
    if "history" in report:
        h = report["history"]
        names = ", ".join(
            f"{e['edition'] or '?'}"
            + (
                f" (the index's {e['index_edition']})"
                if e.get("index_edition") not in (None, e["edition"])
                else ""
            )
            for e in h["editions"]
        )
        out.append(f"\neditions compared: {names}")
        out.append(f"  renumbered ({len(h['renumbered'])}):")
        out += [f"    {line}" for line in h["renumbered"]]
        out.append(f"  text changed ({len(h['changed'])}):")
        out += [f"    {line}" for line in h["changed"]]
        if h["absent_from_newest"]:
            out.append("  not in the newest edition: " + ", ".join(h["absent_from_newest"]))
        if h.get("recheck"):
            out += recheck_lines(h["recheck"])
    if report.get("expected"):
        bad = [e for e in report["expected"] if e["differences"]]
        out.append(f"\nexpected answers: {len(report['expected'])} checked, {len(bad)} differ")
        for e in bad:
            out.append(f"  {e['scenario']}")
            out += [f"    {d}" for d in e["differences"]]
            if e.get("depends_on"):
                out.append(
                    "    now depends on, changed since the baseline: "
                    + ", ".join(_place_text(p) for p in e["depends_on"])
                )
    if "against" in report:
        out += against_lines(report["against"])
    out.append("\nresult: " + ("clean" if s["ok"] else "problems found (exit 1)"))
    return "\n".join(out)


def _answer_text(answer: dict | None, other: dict | None) -> str:
    """One side's answer to a question, in a line: the keys whose values differ
    from the other side's (the rules are shown apart)."""
    if answer is None:
        return "(none)"
    other = other or {}
    shown = {
        k: v
        for k, v in answer.items()
        if k not in ("rules", "ask", "question") and other.get(k) != v
    }
    return json.dumps(shown, sort_keys=True, ensure_ascii=False)


def against_lines(section: dict) -> list[str]:
    """The `--against` comparison, as text."""
    out = [
        f"\nagainst {section['other']}: {section['scenarios']} scenarios answered by both, "
        f"{len(section['differing'])} differ",
        "  statements only here: "
        + (", ".join(_place_text(p) for p in section["statements_only_here"]) or "none"),
        "  statements only there: "
        + (", ".join(_place_text(p) for p in section["statements_only_there"]) or "none"),
    ]
    for item in section["differing"]:
        out.append(f"  {item['scenario']} (exit {item['exit'][0]} here, {item['exit'][1]} there)")
        for q in item["questions"]:
            out.append(f"    ask {q['ask']}:")
            out.append(f"      here:  {_answer_text(q['this'], q['other'])}")
            out.append(f"             rules: {', '.join(q.get('rules_this', [])) or 'none'}")
            out.append(f"      there: {_answer_text(q['other'], q['this'])}")
            out.append(f"             rules: {', '.join(q.get('rules_other', [])) or 'none'}")
        if item["depends_on"]:
            places = ", ".join(_place_text(p) for p in item["depends_on"])
            out.append(f"    depends on, of the statements only here: {places}")
    return out


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(report: dict) -> str:
    s = report["summary"]
    out = [
        "# mtgkb audit",
        "",
        f"Rule base: `{_base_title(report)}`, Comprehensive Rules effective {s['edition']}.",
        "",
        "| | |",
        "|---|---|",
        f"| rules in the index | {s['rules']} ({s['relied_on']} relied on) |",
        f"| encoded | {s['encoded']} |",
        f"| only cited (because/2, rests_on/2) | {s.get('cited_only', 0)} |",
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
    if report.get("not_modelled"):
        out += ["", "## Not modelled", "", "| rule | when | answers | where |", "|---|---|---|---|"]
        out += [
            f"| {d['rule']} | {_md_cell(d['when'])} | "
            f"{_md_cell(', '.join(d.get('answers', [])) or 'every answer')} | {_md_cell(d['at'])} |"
            for d in report["not_modelled"]
        ]
    out += ["", "## Conflicts", ""]
    if report.get("conflicts"):
        out += [
            "| scenarios (example) | message | rules responsible | statements "
            "| removing resolves it |",
            "|---|---|---|---|---|",
        ]
        for c in report["conflicts"]:
            seen = f"{c.get('scenarios', 1)} ({_md_cell(c['scenario'])})"
            places = [
                "<br>".join(_md_cell(_place_text(p)) for p in c.get(key, [])) or "—"
                for key in ("statements", "remove")
            ]
            out.append(
                f"| {seen} | {_md_cell(c['message'])} | {', '.join(c['rules'])} | "
                f"{places[0]} | {places[1]} |"
            )
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
    if "history" in report:
        h = report["history"]
        names = ", ".join(e["edition"] or "?" for e in h["editions"])
        out += ["", "## Editions compared", "", f"Editions: {names}.", ""]
        out += [f"- renumbered: {line}" for line in h["renumbered"]]
        out += [f"- text changed: {_md_cell(line)}" for line in h["changed"]]
    if report.get("expected"):
        bad = [e for e in report["expected"] if e["differences"]]
        out += [
            "",
            "## Expected answers",
            "",
            f"{len(report['expected'])} checked, {len(bad)} differ.",
        ]
        for e in bad:
            out += [f"- `{e['scenario']}`: " + _md_cell("; ".join(e["differences"]))]
            if e.get("depends_on"):
                places = ", ".join(_place_text(p) for p in e["depends_on"])
                out += [f"  - now depends on, changed since the baseline: {places}"]
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


def recheck_lines(items: list[dict]) -> list[str]:
    """What to re-check after a new edition: the rules that changed, moved or
    went, with what encodes, cites and tests each (the ones the rule base
    encodes or cites first)."""
    used = [i for i in items if i["encoded_at"] or i["cited_at"]]
    others = [i for i in items if not (i["encoded_at"] or i["cited_at"])]
    out = [f"\nwhat to re-check ({len(used)} rules the rule base encodes or cites):"]
    for item in used:
        out.append(f"  {item['id']}: {item['how']}")
        for key, title in (
            ("encoded_at", "encoded at"),
            ("cited_at", "cited at"),
            ("tested_by", "tested by"),
        ):
            if item[key]:
                shown = item[key][:6] + (
                    [f"and {len(item[key]) - 6} more"] if len(item[key]) > 6 else []
                )
                out.append(f"    {title}: " + ", ".join(shown))
    if others:
        out.append(
            f"  and {len(others)} rules of the index neither encoded nor cited: "
            + ", ".join(f"{i['id']} ({i['how']})" for i in others[:8])
            + (" ..." if len(others) > 8 else "")
        )
    return out
