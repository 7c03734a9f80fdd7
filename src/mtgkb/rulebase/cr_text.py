"""Official CR text files (`mtgkb rules --cr FILE`, `mtgkb audit --cr FILE`):
their rule numbers, edition date and text fingerprints."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

# --------------------------------------------------------------------------
# CR text files: numbers, edition date, text fingerprints
# --------------------------------------------------------------------------

_RULE_LINE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)\.?(?:\s+|$)(.*)$")
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july "
        "august september october november december".split()
    )
}


@dataclass
class CRText:
    """An official CR text file: its edition date and each rule's text fingerprint."""

    edition: str | None
    digests: dict[str, str]
    # each rule's text, whitespace made single: read from the user's file, never stored
    texts: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def numbers(self) -> set[str]:
        return set(self.digests)


def text_digest(text: str) -> str:
    """A fingerprint of a rule's text (quotes and spacing normalized), never the text."""
    text = (
        text.replace("\u2019", "'")
        .replace("\u2018", "'")
        .replace("\u201c", '"')
        .replace("\u201d", '"')
    )
    text = " ".join(text.split())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def read_cr(path: Path) -> CRText:
    """Rule numbers and text fingerprints of an official CR text file (examples left out)."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    edition = None
    date = re.search(r"effective\s+(?:as\s+of\s+)?([A-Z][a-z]+)\s+(\d{1,2}),\s+(\d{4})", text)
    if date and date.group(1).lower() in _MONTHS:
        month = _MONTHS[date.group(1).lower()]
        edition = f"{date.group(3)}-{month:02d}-{int(date.group(2)):02d}"
    blocks: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.split("\n"):
        match = _RULE_LINE.match(line)
        if match:
            current = match.group(1)
            blocks[current] = [match.group(2)]  # the body's text wins over a contents line
        elif line.strip() in ("Glossary", "Credits") and current is not None:
            current = None  # the rules are over: the glossary belongs to no rule
        elif current is not None and line.strip() and not line.strip().startswith("Example:"):
            blocks[current].append(line)
    texts = {n: " ".join(" ".join(lines).split()) for n, lines in blocks.items()}
    return CRText(edition, {n: text_digest(t) for n, t in texts.items()}, texts)
