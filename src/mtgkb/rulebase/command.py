"""`mtgkb rules [NUMBER] [--lang it] [--json] [--cr FILE]`: a rule's entry of
the index, where it is encoded and tested, in the reader's language."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from mtgkb.rulebase.cr_text import CRText, read_cr
from mtgkb.rulebase.encoded import cited_at, default_root, encoded_at, encoded_map
from mtgkb.rulebase.index import (
    EDITION,
    RuleEntry,
    RuleIndex,
    index_edition,
    load_index,
    lookup,
    title_of,
)
from mtgkb.rulebase.location import current as current_rule_base
from mtgkb.rulebase.tested import tested_by, tested_map

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
    number = edition_number(entry, index_edition(cr.edition, load_index()))
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
                    {"id": e.id, "title": title_of(index, e.id), "editions": when}
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
                    print(f"    {e.id} ({title_of(index, e.id)}): {when}: {e.text(lang)}")
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
