"""Spec section 10, `--lang it`: every message, explanation sentence and text
label has an Italian twin in the rule base (kb/messages.lp, kb/texts.lp),
with the same placeholders; the JSON keys do not change with the language."""

import os
import re
import subprocess
import sys

from helpers import ILLEGAL_BLOCK_PLAY
from helpers.answering import run
from helpers.message_tables import twinned_kinds

from mtgkb.rulebase import words
from mtgkb.rulebase.location import data_dir

PLACEHOLDER = re.compile(r"\{(?:\d+|all)\}")

EXAMPLE_03 = (
    ILLEGAL_BLOCK_PLAY
    + """ask legal
ask can "Grizzly Bears" block "Hill Giant"
ask fix
ask outcome
ask explain legal
"""
)


def test_every_message_is_followed_by_its_italian_twin():
    kinds = twinned_kinds(data_dir("kb") / "messages.lp", "message")
    english, italian = words.messages("en"), words.tables_of("it")["message"]
    assert set(kinds) == set(english) == set(italian)
    for kind, text in english.items():
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(italian[kind]))
        assert italian[kind] != text


def test_every_template_and_label_has_its_italian_twin():
    english, italian = words.tables_of("en"), words.tables_of("it")
    assert set(english) == set(italian)
    for group, texts in english.items():
        assert set(texts) == set(italian[group]), group
        for key, text in texts.items():
            assert set(PLACEHOLDER.findall(text)) == set(
                PLACEHOLDER.findall(italian[group][key])
            ), (group, key)


def keys(value):
    if isinstance(value, dict):
        return {k: keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [keys(v) for v in value]
    return None


def test_802_4a_answers_in_italian_keep_the_json_keys():
    english, italian = run(EXAMPLE_03), run(EXAMPLE_03, lang="it")
    assert keys(english) == keys(italian)
    legal = italian["answers"][0]
    assert legal["violations"][0]["rule"] == "802.4a"
    assert legal["violations"][0]["message"].startswith("Grizzly Bears non può bloccare Hill Giant")
    can = italian["answers"][1]
    assert can["can"] is False and "non può bloccare" in can["violations"][0]["message"]
    tree = italian["answers"][-1]["tree"]
    assert tree[0]["because"][0]["conclusion"].startswith("illegale: ")
    # the rules' paraphrases come in the language asked
    assert any("difensore" in n.get("says", "") for n in tree[0]["because"])


def test_802_4a_mtgkb_run_lang_it_prints_italian_labels(tmp_path):
    path = tmp_path / "e.mtg"
    path.write_text(EXAMPLE_03, encoding="utf-8")
    cmd = [sys.executable, "-m", "mtgkb", "run", "--lang", "it", str(path)]
    out = subprocess.run(
        cmd, capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"}
    ).stdout
    assert "ask legal: illegale" in out
    assert "regole: " in out and "rules: " not in out
    assert "togli: Grizzly Bears blocks Hill Giant" in out
    assert "punti vita" in out
    english = subprocess.run(
        cmd[:4] + ["en", str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout
    assert "ask legal: illegal" in english and "rules: " in english


def test_806_2b_a_table_error_of_the_rule_base_speaks_the_language_asked():
    from mtgkb.language.errors import ScenarioError

    text = "game: two-player\nplayers: Ann, Ben, Cat\nask legal\n"
    for lang, said in (("en", "two-player game has exactly two"), ("it", "esattamente due")):
        try:
            run(text, "t.mtg", lang=lang)
        except ScenarioError as err:
            assert said in err.message and (err.line, err.column) == (1, 7)
        else:  # pragma: no cover - the table is refused
            raise AssertionError("a two-player game of three players was accepted")


def _kinds_said_by(path):
    """The kinds of input error a module names with a literal: the second
    argument of `self.add(where, "kind", ...)`, the first of `self.say("kind")`."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            index = {"add": 1, "say": 0}.get(node.func.attr)
            if index is not None and len(node.args) > index:
                arg = node.args[index]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
                elif isinstance(arg, ast.JoinedStr):  # a text, not a kind: no twin
                    found.add(f"<an f-string at line {node.lineno}>")
    return found


def test_every_input_error_of_the_name_checks_has_an_english_text_and_its_italian_twin():
    from pathlib import Path

    from mtgkb.language import validate

    messages = (data_dir("kb") / "input_messages.lp").read_text(encoding="utf-8")
    english = set(re.findall(r"^input_message\((\w+),", messages, re.M))
    italian = set(re.findall(r"^input_message_it\((\w+),", messages, re.M))
    said = _kinds_said_by(Path(validate.__file__))
    assert said, "no kind found: the test reads the wrong calls"
    assert said <= english, sorted(said - english)
    assert said <= italian, sorted(said - italian)


def test_615_7_a_bare_object_name_in_a_prevention_shield_is_refused_in_the_language_asked():
    from mtgkb.language.errors import ScenarioError

    text = (
        'players: Ann, Ben\nBen controls creature "Bear" 2/2\n'
        "prevent the next 3 damage that would be dealt to Bear\nask legal\n"
    )
    for lang, said in (("en", 'written in quotes: "Bear"'), ("it", 'tra virgolette: "Bear"')):
        try:
            run(text, "t.mtg", lang=lang)
        except ScenarioError as err:
            assert said in err.message and (err.line, err.column) == (3, 50)
        else:  # pragma: no cover - the bare name is refused
            raise AssertionError("an object named without quotes was accepted")
