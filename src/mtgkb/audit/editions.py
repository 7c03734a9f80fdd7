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

from mtgkb.audit.coverage import encoded_sites, tag_sites
from mtgkb.audit.sources import Scans, finding
from mtgkb.rulebase.cr_text import CRText, read_cr
from mtgkb.rulebase.index import EDITION, RuleIndex, index_edition, sort_key


def edition_check(
    cr_file: Path, index: RuleIndex | None, scans: Scans, digests: bool = True
) -> tuple[dict, list[dict], list[dict]]:
    """The cited numbers missing from one CR edition and (with `digests`) the
    rules whose text differs from the text the index was written from."""
    cr = read_cr(cr_file)
    named = index_edition(cr.edition, index)
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
    if index is not None and digests:
        for entry in index:
            if entry.digest and entry.id in cr.digests and cr.digests[entry.id] != entry.digest:
                changed.append(entry.id)
            if named and entry.edition != named:
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


#: Pairing the rules of two editions (`pair_editions`). Two texts are alike by
#: the ratio of difflib's SequenceMatcher over their words (2 x matching words
#: / all words, in order). A rule keeps its number when the new text under that
#: number is at least SAME_NUMBER alike to the old one; a rule that moved is the
#: unpaired old rule most alike to the new one, at least MOVED alike. A rule
#: the index says was renumbered (`older_number`) is paired by number first.
SAME_NUMBER = 0.5
MOVED = 0.7
_WORD = re.compile(r"[a-z0-9']+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def alike(a: list[str], b: list[str]) -> float:
    """How alike two texts' words are, 0 to 1 (difflib's ratio, in order)."""
    import difflib

    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(a=a, b=b, autojunk=False).ratio()


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


def index_moves(index: RuleIndex | None, old_edition: str | None, new_edition: str | None):
    """The renumberings the index records between two editions: old -> new number."""
    moves: dict[str, str] = {}
    if index is None or old_edition is None or new_edition is None:
        return moves
    for entry in index:
        for old, upto, since in entry.older:
            if old_edition <= upto and new_edition >= since:
                moves[old] = entry.id
    return moves


def pair_editions(old: CRText, new: CRText, moves: dict[str, str]) -> dict[str, str | None]:
    """Each rule of `new` -> its number in `old` (None: new in `new`).

    In order: the index's renumberings (`moves`, old -> new) where both texts
    exist; then a number whose text stayed alike keeps it; then each rule left
    is paired with the most alike old rule not paired yet, if alike enough. An
    old rule still under its own number is never another rule's predecessor."""
    words_old = {n: _words(t) for n, t in old.texts.items()}
    words_new = {n: _words(t) for n, t in new.texts.items()}
    pairs: dict[str, str | None] = {}
    taken: set[str] = set()
    for before, after in moves.items():
        if before in old.texts and after in new.texts:
            pairs[after] = before
            taken.add(before)
    for number in new.texts:
        if number in pairs or number in taken or number not in old.texts:
            continue
        same = old.texts[number] == new.texts[number]
        if same or alike(words_old[number], words_new[number]) >= SAME_NUMBER:
            pairs[number] = number
            taken.add(number)
    left = [n for n in old.texts if n not in taken]
    for number in new.texts:
        if number in pairs:
            continue
        best, score = None, MOVED
        for other in left:
            if other in taken:
                continue
            if old.texts[other] == new.texts[number]:
                best, score = other, 2.0
                break
            value = alike(words_old[other], words_new[number])
            if value > score:
                best, score = other, value
        pairs[number] = best
        if best is not None:
            taken.add(best)
    return pairs


def unlike_move(old: CRText, new: CRText, before: str, after: str) -> str | None:
    """Where the index's renumbering `before` -> `after` pairs texts that are
    not alike (under SAME_NUMBER) while another rule of `new` is alike to the
    old text (at least MOVED): that rule's number, the one the texts pair."""
    words = _words(old.texts[before])
    if alike(words, _words(new.texts[after])) >= SAME_NUMBER:
        return None
    best, score = None, MOVED
    for number, text in new.texts.items():
        if number != after:
            value = 2.0 if text == old.texts[before] else alike(words, _words(text))
            if value >= score:
                best, score = number, value
    return best


def edition_history(
    files: Sequence[Path],
    index: RuleIndex | None,
    progress=None,
    scans: Scans | None = None,
    rows: Sequence[dict] | None = None,
) -> dict:
    """With two or more official CR text files: for every rule of the index,
    the editions where its text changed (a word diff of the paired texts) and
    where it was renumbered (`pair_editions`), the index's renumberings the
    texts contradict, and what to re-check: for each rule of the index that
    changed, moved or is gone in the newest edition, the statements that
    encode or cite it (`scans`) and what tests it (the coverage `rows`).
    The texts are the user's files: read here, shown in the report, kept nowhere."""
    crs = [(read_cr(f), Path(f)) for f in files]
    for cr, f in crs:
        if not cr.texts:
            raise ValueError(f"{f}: no rule numbers found; is it a Comprehensive Rules text file?")
    named = [index_edition(cr.edition, index) for cr, _ in crs]
    order = sorted(range(len(crs)), key=lambda k: named[k] or "")
    crs, named = [crs[k] for k in order], [named[k] for k in order]
    steps = []
    warnings = []
    for k in range(1, len(crs)):
        moves = index_moves(index, named[k - 1], named[k])
        pairs = pair_editions(crs[k - 1][0], crs[k][0], moves)
        steps.append(pairs)
        for before, after in sorted(moves.items(), key=lambda m: sort_key(m[0])):
            if before not in crs[k - 1][0].texts:
                continue
            found = next((n for n, b in pairs.items() if b == before and n != after), None)
            if found is not None and after not in crs[k][0].texts:
                warnings.append(
                    finding(
                        "older-number-mismatch",
                        f"kb/rule_index.lp says {before} ({named[k - 1]}) is {after} "
                        f"({named[k]}), which is no rule of that edition; the texts pair "
                        f"{before} with {found}",
                        "kb/rule_index.lp",
                        after,
                    )
                )
            elif after in crs[k][0].texts:
                unlike = unlike_move(crs[k - 1][0], crs[k][0], before, after)
                if unlike is not None:
                    warnings.append(
                        finding(
                            "older-number-mismatch",
                            f"kb/rule_index.lp says {before} ({named[k - 1]}) is {after} "
                            f"({named[k]}), but their texts are not alike; the text of {before} "
                            f"is {unlike}'s in {named[k]}",
                            "kb/rule_index.lp",
                            after,
                        )
                    )
    newest, newest_name = crs[-1][0], named[-1]
    rules, renumbered, changed, absent = [], [], [], []
    entries = list(index) if index is not None else []
    for k, entry in enumerate(entries, start=1):
        if progress:
            progress("editions: pairing the rules' texts", k, len(entries))
        from mtgkb.rulebase.command import edition_number

        number = edition_number(entry, newest_name)
        if number not in newest.texts:
            absent.append(entry.id)
            continue
        changes = []
        for step in range(len(crs) - 1, 0, -1):
            new_cr, old_cr = crs[step][0], crs[step - 1][0]
            text = new_cr.texts[number]
            before = steps[step - 1].get(number)
            if before is None:
                changes.append({"edition": named[step], "new": number})
                break
            change: dict = {"from": named[step - 1], "to": named[step]}
            if before != number:
                change["renumbered"] = {"from": before, "to": number}
                renumbered.append(f"{before} ({named[step - 1]}) is {number} ({named[step]})")
            if old_cr.texts[before] != text:
                change["diff"] = word_diff(old_cr.texts[before], text)
                changed.append(f"{number} ({named[step - 1]} → {named[step]}): {change['diff']}")
            if len(change) > 2:
                changes.append(change)
            number = before
        rules.append({"id": entry.id, "changes": changes})
    by_id = {r["id"]: r for r in rules}
    for entry in entries:
        row = by_id.get(entry.id)
        for c in row["changes"] if row else ():
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
    recheck = what_to_recheck(
        [r for r in rules if r["changes"] and _in_newest_step(r, named)], absent, scans, rows
    )
    return {
        "editions": [
            {"file": str(f), "edition": cr.edition, "index_edition": n}
            for (cr, f), n in zip(crs, named, strict=True)
        ],
        "rules": [r for r in rules if r["changes"]],
        "renumbered": renumbered,
        "changed": changed,
        "absent_from_newest": absent,
        "recheck": recheck,
        "warnings": warnings,
    }


def _in_newest_step(row: dict, named: list[str | None]) -> bool:
    """A rule whose last change is into the newest edition: the one to re-check."""
    return any(c.get("to", c.get("edition")) == named[-1] for c in row["changes"])


def what_to_recheck(
    rows: list[dict], absent: list[str], scans: Scans | None, coverage_rows
) -> list[dict]:
    """For each rule that changed or moved into the newest edition, or is gone
    from it: how, the statements that encode or cite it, and what tests it."""
    encoded = encoded_sites(scans) if scans is not None else {}
    cited = encoded_sites(scans, cited=True) if scans is not None else {}
    tested = {r["id"]: r.get("tested_by", []) for r in coverage_rows or ()}
    out = []
    for row in rows:
        last = row["changes"][0]
        how = []
        if "renumbered" in last:
            how.append(f"renumbered from {last['renumbered']['from']}")
        if "diff" in last:
            how.append("text changed")
        if "new" in last:
            how.append("new in this edition")
        out.append(_recheck_item(row["id"], ", ".join(how), encoded, cited, tested))
    for number in absent:
        out.append(_recheck_item(number, "not in the newest edition", encoded, cited, tested))
    return out


def _recheck_item(number, how, encoded, cited, tested) -> dict:
    return {
        "id": number,
        "how": how,
        "encoded_at": encoded.get(number, []),
        "cited_at": cited.get(number, []),
        "tested_by": tested.get(number, []),
    }


def editions(
    cr_files: Sequence[Path],
    index: RuleIndex | None,
    scans: Scans,
    progress=None,
    rows: Sequence[dict] | None = None,
) -> tuple[dict, list[dict], list[dict]]:
    """The report's sections on editions (`editions`, `history`, in the order
    they are made), with their lint and warnings. One file: that edition
    checked; several: the history across them with what to re-check, and the
    cited numbers checked against the newest edition (its texts against the
    index's digests too when it is the rule base's own edition). A rule the
    rule base encodes whose text changed into the newest edition, or that the
    newest edition no longer has, is lint: its encoding must be re-checked."""
    sections: dict = {}
    lint: list[dict] = []
    warnings: list[dict] = []
    if len(cr_files) == 1:
        sections["editions"], lint, warnings = edition_check(Path(cr_files[0]), index, scans)
    elif len(cr_files) > 1:
        history = edition_history([Path(f) for f in cr_files], index, progress, scans, rows)
        sections["history"] = history
        warnings += history["warnings"]
        newest = history["editions"][-1]
        own = newest["index_edition"] == EDITION
        sections["editions"], more_lint, more_warnings = edition_check(
            Path(newest["file"]), index, scans, digests=own
        )
        lint += more_lint
        warnings += more_warnings
        for item in history["recheck"]:
            changed = "text changed" in item["how"] or "not in the newest" in item["how"]
            if item["encoded_at"] and changed:
                text = (
                    f"{item['id']} is encoded here and its rule is {item['how']} in "
                    f"{newest['edition']}: re-check its statements and tests"
                )
                lint.append(
                    finding("encoded-rule-changed", text, item["encoded_at"][0], item["id"])
                )
    return sections, lint, warnings
