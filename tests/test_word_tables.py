"""The words of the answers (kb/messages.lp, kb/texts.lp) are read from the
text clingo writes for all their atoms at once: each string's own
characters (clingo's escapes undone), any other term as clingo writes it,
and a term with arguments of its own read from its symbol. Checked against
the values written in the files."""

from __future__ import annotations

from mtgkb.rulebase import words

MESSAGES = r"""
message(plain, "{1} can't block {2}").
message_it(plain, "{1} non può bloccare {2}").
message(tricky, "a \"quoted\" word, a back\\slash, (parentheses), a comma; #{0}").
message_it(tricky, "riga uno\nriga due").
"""
TEXTS = r"""
text(word, "menace", "menace").
text_it(word, "menace", "minacciare").
text(label, "see", "  (explained at #{0} in this tree)").
text(label, f(x,"y"), "a key with arguments").
text(mode, -3, "a number as key").
"""


def test_the_tables_hold_each_string_as_written_in_the_files(tmp_path):
    (tmp_path / "messages.lp").write_text(MESSAGES, encoding="utf-8")
    (tmp_path / "texts.lp").write_text(TEXTS, encoding="utf-8")
    tables = words.tables_in(tmp_path)
    assert tables[("en", "message")] == {
        "plain": "{1} can't block {2}",
        "tricky": 'a "quoted" word, a back\\slash, (parentheses), a comma; #{0}',
    }
    assert tables[("it", "message")] == {
        "plain": "{1} non può bloccare {2}",
        "tricky": "riga uno\nriga due",
    }
    assert tables[("en", "word")] == {"menace": "menace"}
    assert tables[("it", "word")] == {"menace": "minacciare"}
    # a key with arguments of its own: read from its symbol, as clingo writes it
    assert tables[("en", "label")] == {
        "see": "  (explained at #{0} in this tree)",
        'f(x,"y")': "a key with arguments",
    }
    assert tables[("en", "mode")] == {"-3": "a number as key"}


def test_the_shipped_tables_have_every_message_in_both_languages():
    # 702.111b's message (kb/messages.lp) as the answers say it, in English and Italian
    assert words.messages("en")["menace_single_blocker"].startswith("{1} has menace")
    assert words.messages("it")["menace_single_blocker"].startswith("{1} ha minacciare")
