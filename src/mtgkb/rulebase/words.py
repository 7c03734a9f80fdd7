"""The words of the answers, in English and Italian: data of the rule base.

`kb/messages.lp` holds the text of each kind of violation,
`message(Kind, "English")` with `message_it(Kind, "Italiano")` on the next
line; `kb/texts.lp` holds every other sentence of the answers (explanation
templates, text labels) as `text(Group, Key, "English")` with
`text_it(Group, Key, "Italiano")` beside it. Both are read here once per
process (as facts, with clingo, or from the user's cache of what was read,
kept by the files' digest) and picked by language; nothing here is a rule
of the game. The files added to the rule base (MTGKB_WITH, `--with`) are
read too: a kind of violation they add has its texts there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import clingo

from mtgkb.rulebase.control import new_control, quiet
from mtgkb.rulebase.disk_cache import kept_for_files
from mtgkb.rulebase.location import current
from mtgkb.rulebase.location import file_stamp as stamp
from mtgkb.rulebase.symbol_texts import argument_texts, symbol_value, value_of

LANGS = ("en", "it")
FILES = ("messages.lp", "texts.lp")


def _stamp() -> tuple[tuple, tuple]:
    """What the tables are cached by: the word files of the rule base in
    use, and the files added to it."""
    base = current()
    return stamp(base.folder("kb") / name for name in FILES), stamp(base.extra)


#: (name, arity) of the atoms the tables are made of, and the language of each
_SIGNATURES = {
    ("message", 2): "en",
    ("message_it", 2): "it",
    ("text", 3): "en",
    ("text_it", 3): "it",
}


#: Bump when what the tables kept on disk hold changes.
TABLES_VERSION = 1


@lru_cache(maxsize=4)
def _tables(stamps: tuple[tuple, tuple]) -> dict:
    """{(lang, group): {key: text}}: messages are group "message". `stamps`:
    those of the rule base's word files and of the files added to it. Kept
    on disk (mtgkb.rulebase.disk_cache: data, texts only) by the digest of
    the files' names and bytes, for the next process: reading them is a
    grounding and a walk of 868 atoms (about 15 ms of `ask explain`'s cold
    run)."""
    own, added = stamps
    return kept_for_files(
        f"words{TABLES_VERSION}",
        [path for path, *_ in own + added],
        lambda: _read_tables(own, added),
        _sound_tables,
    )


def _sound_tables(data) -> bool:
    """Whether tables read from disk are tables: (lang, group) -> {key: text}, all strings."""
    if type(data) is not dict:
        return False
    for where, rows in data.items():
        if type(where) is not tuple or len(where) != 2 or not all(type(x) is str for x in where):
            return False
        if type(rows) is not dict:
            return False
        if not all(type(k) is str and type(v) is str for k, v in rows.items()):
            return False
    return True


def _read_tables(own: tuple, added: tuple = ()) -> dict:
    """`_tables`, read with clingo from the rule base's word files (`own`,
    stamps), then from the files added to it (`added`), grounded on their
    own: added files that do not ground alone add no words (the rule base's
    reading reports their error)."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    _read_into(out, own)
    if added:
        try:
            _read_into(out, added)
        except RuntimeError:
            pass
    return out


def _read_into(out: dict, stamps: tuple) -> None:
    """The words of the files `stamps` (grounded together) added to `out`."""
    ctl = new_control(logger=quiet)
    for path, *_ in stamps:
        ctl.load(path)
    ctl.ground([("base", [])])
    for (name, arity), lang in _SIGNATURES.items():
        for row in _rows(ctl, name, arity):
            if arity == 2:
                out.setdefault((lang, "message"), {})[row[0]] = row[1]
            else:
                out.setdefault((lang, row[0]), {})[row[1]] = row[2]


def _rows(ctl: clingo.Control, name: str, arity: int) -> list[tuple[str, ...]]:
    """The arguments of the atoms `name/arity`, each a string's own text or
    any other term as clingo writes it: from the text of one tuple of them
    all (mtgkb.rulebase.symbol_texts; the shipped files' 868 atoms, 33 ms ->
    18 ms with their grounding), or from each symbol when an argument is a
    term with arguments of its own."""
    symbols = [atom.symbol for atom in ctl.symbolic_atoms.by_signature(name, arity)]
    texts = argument_texts(symbols, name, arity)
    if texts is None:
        return [tuple(symbol_value(a) for a in symbol.arguments) for symbol in symbols]
    return [tuple(value_of(a) for a in row) for row in texts]


def tables_in(kb: Path) -> dict[tuple[str, str], dict[str, str]]:
    """{(lang, group): {key: text}} of the word files of the `kb` folder given
    (another rule base than the one in use: the audit's)."""
    return _tables((stamp(kb / name for name in FILES if (kb / name).is_file()), ()))


def table(group: str, lang: str = "en") -> dict[str, str]:
    """Every text of a group in a language; a key missing in Italian falls
    back to English (a test checks that none is missing)."""
    tables = _tables(_stamp())
    english = tables.get(("en", group), {})
    if lang == "en":
        return english
    return {**english, **tables.get((lang, group), {})}


def messages(lang: str = "en") -> dict[str, str]:
    """The message template of each kind of violation."""
    return table("message", lang)


def text(group: str, key: str, lang: str = "en", default: str | None = None) -> str:
    """One text (a label, a template), in `lang`."""
    found = table(group, lang).get(key)
    if found is None:
        return key if default is None else default
    return found


def rule_base_title(rule_base, lang: str = "en") -> str:
    """One line naming a rule base (mtgkb.rulebase.location.RuleBase): path and
    digest (and the added files)."""
    line = text("label", "rule_base", lang).format(rule_base.root, rule_base.digest)
    if rule_base.extra:
        line += text("label", "rule_base_with", lang).format(
            ", ".join(str(p) for p in rule_base.extra)
        )
    return line


_PLACEHOLDER = re.compile(r"\{(all|[1-9][0-9]*)\}")


def fill_template(template: str, words: Sequence[str]) -> str:
    """A kb/messages.lp template with `{1}`, `{2}`... (the arguments) and `{all}`
    filled in one pass over the template: text put in (a name such as `{2}`)
    is never read as a placeholder. A placeholder without an argument stays."""

    def put(found: re.Match) -> str:
        key = found.group(1)
        if key == "all":
            return ", ".join(words)
        index = int(key) - 1
        return words[index] if index < len(words) else found.group(0)

    return _PLACEHOLDER.sub(put, template)


def tables_of(lang: str) -> dict[str, dict[str, str]]:
    """Every group of one language (for the twin test)."""
    return {group: texts for (la, group), texts in _tables(_stamp()).items() if la == lang}


__all__ = [
    "LANGS",
    "fill_template",
    "messages",
    "rule_base_title",
    "table",
    "tables_in",
    "tables_of",
    "text",
]
