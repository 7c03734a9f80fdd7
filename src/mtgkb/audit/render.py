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
    out = [
        f"mtgkb audit of {_base_title(report)} (CR {s['edition']})",
        f"  rules in the index: {s['rules']} ({s['relied_on']} relied on, not encoded)",
        f"  encoded: {s['encoded']} (and {s.get('cited_only', 0)} only cited), "
        f"tested: {s['tested']}",
        f"  scenarios checked: {s['scenarios']}",
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
    if report["conflicts"]:
        out.append(f"\nconflicts ({len(report['conflicts'])})")
        for c in report["conflicts"]:
            rules = ", ".join(c["rules"]) or "(rules not found)"
            seen = c.get("scenarios", 1)
            where = c["scenario"] if seen == 1 else f"{seen} scenarios, e.g. {c['scenario']}"
            out.append(f"  [{where}] {c['message']}")
            out.append(f"    rules responsible: {rules}")
            for key, title in (("statements", "statements"), ("remove", "removing resolves it")):
                if c.get(key):
                    out.append(f"    {title}: " + ", ".join(_place_text(p) for p in c[key]))
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
        names = ", ".join(f"{e['edition'] or '?'}" for e in h["editions"])
        out.append(f"\neditions compared: {names}")
        out.append(f"  renumbered ({len(h['renumbered'])}):")
        out += [f"    {line}" for line in h["renumbered"]]
        out.append(f"  text changed ({len(h['changed'])}):")
        out += [f"    {line}" for line in h["changed"]]
        if h["absent_from_newest"]:
            out.append("  not in the newest edition: " + ", ".join(h["absent_from_newest"]))
    if report.get("expected"):
        bad = [e for e in report["expected"] if e["differences"]]
        out.append(f"\nexpected answers: {len(report['expected'])} checked, {len(bad)} differ")
        for e in bad:
            out.append(f"  {e['scenario']}")
            out += [f"    {d}" for d in e["differences"]]
    out.append("\nresult: " + ("clean" if s["ok"] else "problems found (exit 1)"))
    return "\n".join(out)


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
    if report["conflicts"]:
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
