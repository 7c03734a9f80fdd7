"""CR editions: with one CR text file, the cited numbers missing from that
edition and the rules whose text changed since the edition they were encoded
from; with two or more, each rule's history across them (word diffs, and
renumberings found by matching the texts).

The texts are the user's files: read here, shown in the report, kept nowhere.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from mtgkb.audit.coverage import tag_sites
from mtgkb.audit.sources import Scans, finding
from mtgkb.rulebase.cr_text import CRText, read_cr
from mtgkb.rulebase.index import EDITION, RuleIndex, sort_key


def edition_check(
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
        finding(
            "not-in-edition",
            f"{n} is cited but is not a rule of {cr_file.name} ({cr.edition or 'edition unknown'})",
            cited[n][0],
            n,
        )
        for n in missing
    ]
    lint += [
        finding(
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
            finding(
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


#: How alike two rule texts must be (shared words over all words) to be one rule.
SAME_RULE = 0.5
_WORD = re.compile(r"[a-z0-9']+")


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower().replace("\u2019", "'")))


def _alike(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def word_diff(old: str, new: str, context: int = 4) -> str:
    """The words that changed, `[-old-]{+new+}`, with a few words around each change."""
    import difflib

    a, b = old.split(), new.split()
    parts: list[str] = []
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    for k, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            words = a[i1:i2]
            head = words[:context] if k > 0 else []
            tail = words[-context:] if k < len(ops) - 1 else []
            if len(words) > 2 * context and head and tail:
                parts += [*head, "…", *tail]
            elif k == 0:
                parts += (["…"] if len(words) > context else []) + tail
            elif k == len(ops) - 1:
                parts += head + (["…"] if len(words) > context else [])
            else:
                parts += words
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(parts)


def _match(
    text: str, older: CRText, number: str, words_of: dict[str, frozenset[str]]
) -> str | None:
    """The number of `text`'s rule in an older edition: the same number when its
    text is alike, else the rule whose text is most alike (exact text first)."""
    mine = _words(text)
    if number in older.texts and (
        older.texts[number] == text or _alike(mine, words_of[number]) >= SAME_RULE
    ):
        return number
    best, score = None, SAME_RULE
    for other, theirs in words_of.items():
        if older.texts[other] == text:
            return other
        alike = _alike(mine, theirs)
        if alike > score:
            best, score = other, alike
    return best


def edition_history(files: Sequence[Path], index: RuleIndex | None, progress=None) -> dict:
    """With two or more official CR text files: for every rule of the index,
    the editions where its text changed (a word diff of the two texts) and
    where it was renumbered (found by matching the texts across the editions).
    The texts are the user's files: read here, shown in the report, kept nowhere."""
    from mtgkb.rulebase.command import edition_number

    crs = [(read_cr(f), Path(f)) for f in files]
    for cr, f in crs:
        if not cr.texts:
            raise ValueError(f"{f}: no rule numbers found; is it a Comprehensive Rules text file?")
    crs.sort(key=lambda pair: pair[0].edition or "")
    words = [{n: _words(t) for n, t in cr.texts.items()} for cr, _ in crs]
    newest = crs[-1][0]
    rules, renumbered, changed, absent = [], [], [], []
    entries = list(index) if index is not None else []
    for k, entry in enumerate(entries, start=1):
        if progress:
            progress("editions: matching the rules' texts", k, len(entries))
        number = edition_number(entry, newest.edition)
        if number not in newest.texts:
            absent.append(entry.id)
            continue
        changes = []
        for step in range(len(crs) - 1, 0, -1):
            new_cr, old_cr = crs[step][0], crs[step - 1][0]
            text = new_cr.texts[number]
            before = _match(text, old_cr, number, words[step - 1])
            if before is None:
                changes.append({"edition": new_cr.edition, "new": number})
                break
            change: dict = {"from": old_cr.edition, "to": new_cr.edition}
            if before != number:
                change["renumbered"] = {"from": before, "to": number}
                renumbered.append(f"{before} ({old_cr.edition}) is {number} ({new_cr.edition})")
            if old_cr.texts[before] != text:
                change["diff"] = word_diff(old_cr.texts[before], text)
                changed.append(f"{number} ({old_cr.edition} → {new_cr.edition}): {change['diff']}")
            if len(change) > 2:
                changes.append(change)
            number = before
        rules.append({"id": entry.id, "changes": changes})
    warnings = []
    for entry in entries:
        for row in rules:
            if row["id"] != entry.id:
                continue
            for c in row["changes"]:
                moved = c.get("renumbered")
                if moved and not any(
                    old == moved["from"] and c["from"] <= upto and c["to"] >= since
                    for old, upto, since in entry.older
                ):
                    warnings.append(
                        finding(
                            "renumbering-not-in-index",
                            f"{moved['from']} ({c['from']}) is {moved['to']} ({c['to']}), "
                            f"but kb/rule_index.lp has no older_number for it",
                            "kb/rule_index.lp",
                            entry.id,
                        )
                    )
    return {
        "editions": [{"file": str(f), "edition": cr.edition} for cr, f in crs],
        "rules": [r for r in rules if r["changes"]],
        "renumbered": renumbered,
        "changed": changed,
        "absent_from_newest": absent,
        "warnings": warnings,
    }


def editions(
    cr_files: Sequence[Path], index: RuleIndex | None, scans: Scans, progress=None
) -> tuple[dict, list[dict], list[dict]]:
    """The report's sections on editions (`editions`, `history`, in the order
    they are made), with their lint and warnings. One file: that edition
    checked; several: the history across them, and the citations checked
    against the rule base's own edition when it is among them."""
    sections: dict = {}
    lint: list[dict] = []
    warnings: list[dict] = []
    if len(cr_files) == 1:
        sections["editions"], lint, warnings = edition_check(Path(cr_files[0]), index, scans)
    elif len(cr_files) > 1:
        sections["history"] = edition_history([Path(f) for f in cr_files], index, progress)
        warnings += sections["history"]["warnings"]
        own = [f for f in cr_files if read_cr(Path(f)).edition == EDITION]
        if own:
            sections["editions"], more_lint, more_warnings = edition_check(
                Path(own[0]), index, scans
            )
            lint += more_lint
            warnings += more_warnings
    return sections, lint, warnings
