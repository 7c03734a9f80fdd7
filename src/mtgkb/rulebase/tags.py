"""How the rule base's tag comments read: `% 802.4a: intent` names the CR
rules of the statements under it, `% 802.4a cite: intent` also asks for their
citations (mtgkb.rulebase.citations), `% no rule: intent` marks plumbing that
encodes no CR rule. One home for the syntax, read by the rule index, the
citations and the audit.
"""

from __future__ import annotations

import re

#: A CR number: a section (`119`) or a rule (`119.4`, `119.4a`).
NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
#: A tag comment: `% 802.4a: intent` or `% 802.4a, 802.4b: intent` (not `%%%`).
TAG_COMMENT = re.compile(r"%(?![%*])\s*(\d{3}(?:\.\d+[a-z]?)?)\b")
#: The tag of plumbing that encodes no CR rule: `% no rule: intent`. Such
#: statements are tagged (not lint) but encode nothing and cite nothing.
NO_RULE_TAG = re.compile(r"%(?![%*])\s*no rule\b")

#: The marker in a tag that asks for generated citations: `% 101.4 cite: ...`,
#: `% 101.4, 805.6 cite: ...` (after the numbers, before the colon).
MARK = "cite"
MARKED = re.compile(rf"\s+{MARK}\s*$")


def split_mark(head: str) -> tuple[str, bool]:
    """The numbers part of a tag (before its colon) without the marker, and
    whether the marker was there: `101.4, 805.6 cite` -> (`101.4, 805.6`, True)."""
    match = MARKED.search(head)
    if match is None:
        return head, False
    return head[: match.start()], True


def parse_tag(comment: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The numbers of a tag comment and the items that are not numbers; None if no
    tag; no numbers for a `% no rule:` tag. (The `cite` marker is not an item:
    `tag_cites` tells it.)"""
    if NO_RULE_TAG.match(comment):
        return (), ()
    if not TAG_COMMENT.match(comment):
        return None
    head, _ = split_mark(tag_head(comment))
    numbers, bad = [], []
    for item in head.split(","):
        item = item.strip().rstrip(".")
        if NUMBER.fullmatch(item):
            numbers.append(item)
        elif item:
            bad.append(item)
    return tuple(numbers), tuple(bad)


def tag_head(comment: str) -> str:
    body = comment.lstrip("%").strip()
    return body.split(":", 1)[0] if ":" in body else NUMBER.match(body).group(0)


def tag_cites(comment: str) -> bool:
    """A tag with the `cite` marker: `% 101.4 cite: ...` (mtgkb.rulebase.citations)."""
    if NO_RULE_TAG.match(comment) or not TAG_COMMENT.match(comment):
        return False
    return split_mark(tag_head(comment))[1]
