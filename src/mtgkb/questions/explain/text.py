"""Conclusions and facts in words, in English or Italian. The sentences live
in kb/texts.lp (and the violations' in kb/messages.lp), each with its
Italian twin: mtgkb.rulebase.words reads them."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache

import clingo

from mtgkb.rulebase import words as _words
from mtgkb.rulebase.words import fill_template

#: The atoms said by a sentence of their own below (the others by their
#: `conclusion` template of kb/texts.lp, `name/arity`).
OWN_SENTENCE = frozenset(
    {
        ("violation", 2),
        ("explain_limit", 3),
        ("combat_mode", 1),
        ("event", 2),
        ("life_change", 4),
        ("life_at", 3),
    }
)

#: `{N}` of a conclusion template, or `{N+1}`: a place counted from 0 by the
#: rule base, said counting from 1.
SLOT = re.compile(r"\{(\d+)(\+1)?\}")


class Words:
    """The templates of one language."""

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.words = _words.table("word", lang)
        self.modes = _words.table("mode", lang)
        self.texts = _words.table("conclusion", lang)
        self.events = _words.table("event", lang)
        self.limits = _words.table("limit", lang)
        self.has = _words.table("has", lang)
        self.changes = _words.table("change", lang)
        self.sentences = _words.table("explain", lang)
        self.messages = _words.messages(lang)

    def say(self, key: str, *args) -> str:
        return self.sentences.get(key, key).format(*args)


@lru_cache(maxsize=4)
def words_of(lang: str = "en") -> Words:
    return Words(lang)


def _word(sym: clingo.Symbol, w: Words | None = None) -> str:
    w = w or words_of()
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Number:
        return str(sym.number)
    if sym.type == clingo.SymbolType.Function and not sym.arguments:
        return w.words.get(sym.name, sym.name.replace("_", " "))
    if sym.type == clingo.SymbolType.Function:
        inner = " ".join(_word(a, w) for a in sym.arguments)
        return f"{_word(clingo.Function(sym.name), w)} {inner}"
    return str(sym)


def _fill(template: str, args: Sequence[clingo.Symbol], w: Words | None = None) -> str:
    """`{1}`, `{2}`... of kb/messages.lp: the arguments of the kind."""
    return fill_template(template, [_word(a, w) for a in args])


def _kind_text(kind: clingo.Symbol, messages: dict[str, str], w: Words) -> str:
    if kind.type != clingo.SymbolType.Function:
        return _word(kind, w)
    template = messages.get(kind.name) or w.limits.get(kind.name)
    if template is None:
        args = ", ".join(_word(a, w) for a in kind.arguments)
        return w.say("unknown_kind", kind.name.replace("_", " "), args)
    return _fill(template, kind.arguments, w)


def describe(sym: clingo.Symbol, messages: dict[str, str], lang: str = "en") -> str:
    """A conclusion or fact in words. In English the messages the model shows
    are used; in another language the rule base's twins."""
    w = words_of(lang)
    if lang != "en":
        messages = w.messages
    if sym.type != clingo.SymbolType.Function:
        return _word(sym, w)
    name, args = sym.name, sym.arguments
    if name == "violation" and len(args) == 2:
        return w.say("illegal", _kind_text(args[1], messages, w))
    if name == "explain_limit" and len(args) == 3:
        kind = args[2]
        text = _kind_text(kind, messages, w)
        return text if kind.name in w.limits else w.say("ruled_out", text)
    if name == "combat_mode" and len(args) == 1:
        return w.modes.get(str(args[0])) or w.say("combat_mode", _word(args[0], w))
    if name == "event" and len(args) == 2 and args[1].type == clingo.SymbolType.Function:
        e = args[1]
        template = w.events.get(e.name)
        text = template.format(*(_word(a, w) for a in e.arguments)) if template else _word(e, w)
        return w.say("event", args[0].number, text)
    if name == "life_change" and len(args) == 4:
        i, who, delta, kind = args
        key = kind.name if kind.type == clingo.SymbolType.Function else str(kind)
        template = w.changes.get(key) or w.sentences.get("life_changes_by", "{1} {3}")
        source = _word(kind.arguments[0], w) if kind.arguments else ""
        d = delta.number if delta.type == clingo.SymbolType.Number else 0
        text = template.format(i.number, _word(who, w), abs(d), f"{d:+d}", source)
        return w.say("life_change", i.number, text)
    if name == "has" and len(args) == 2 and str(args[1]) in w.has:
        return w.has[str(args[1])].format(_word(args[0], w))
    if name == "life_at" and len(args) == 3:
        who, step, life = (_word(a, w) for a in args)
        if step == "0":
            return w.say("life_before", who, life)
        return w.say("life_after", who, step, life)
    key = f"{name}/{len(args)}"
    if len(args) == 2 and args[0] == args[1]:
        key = w.texts.get(f"{key} same") and f"{key} same" or key
    template = w.texts.get(key)
    if template is not None:
        return fill_conclusion(template, args, w)
    return str(sym)


def fill_conclusion(template: str, args: Sequence[clingo.Symbol], w: Words) -> str:
    """A `conclusion` template filled: `{N}` the N-th argument (from 0) in
    words, `{N+1}` a number one more (a place the rule base counts from 0)."""

    def put(found: re.Match) -> str:
        index = int(found.group(1))
        if index >= len(args):
            return found.group(0)
        arg = args[index]
        if found.group(2) and arg.type == clingo.SymbolType.Number:
            return str(arg.number + 1)
        return _word(arg, w)

    return SLOT.sub(put, template)


def has_sentence(name: str, arity: int, templates: Collection[str]) -> bool:
    """Whether atoms of name/arity are said in words: by a sentence of their
    own, or by one of the `conclusion` `templates` (their keys)."""
    return (name, arity) in OWN_SENTENCE or f"{name}/{arity}" in templates
