"""The errors of a file's names and references (mtgkb.language.validate) are
texts of the rule base (kb/input_messages.lp), each with its Italian twin, so
`--lang it` prints them in Italian."""

import re

import clingo
import pytest
from helpers import ROOT

from mtgkb.language.errors import ScenarioError
from mtgkb.language.parser import parse_text
from mtgkb.rulebase.location import data_dir

TWO = "players: Ann, Ben\n"


def refused(text: str, lang: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        parse_text(text, "t.mtg", lang)
    return caught.value.message


def test_every_text_validate_names_has_english_and_italian():
    source = (ROOT / "src" / "mtgkb" / "language" / "validate.py").read_text(encoding="utf-8")
    named = set(re.findall(r'self\.(?:add\([^,]+, |say\()"([a-z_]+)"', source))
    named |= set(re.findall(r'"(named_[a-z_]+)"', source))
    named = {kind for kind in named if not kind.endswith("_")}  # "thing_" + a card type
    named |= {"thing_" + kind for kind in ("player", "team", "trigger", "creature", "land")}
    named |= {"thing_planeswalker", "thing_battle"}
    assert len(named) >= 30
    ctl = clingo.Control()
    ctl.load(str(data_dir("kb") / "input_messages.lp"))
    ctl.ground([("base", [])])
    atoms = ctl.symbolic_atoms
    en = {a.symbol.arguments[0].name for a in atoms.by_signature("input_message", 2)}
    it = {a.symbol.arguments[0].name for a in atoms.by_signature("input_message_it", 2)}
    assert named <= en, named - en
    assert named <= it, named - it


@pytest.mark.parametrize(
    "text, english, italian",
    [
        (TWO + "Zed loses 1 life\n", "unknown player Zed", "giocatore sconosciuto Zed"),
        (
            TWO + 'Ann controls land "Swamp"\nask attack targets for "Swamp"\n',
            '"Swamp" is a land, not a creature',
            '"Swamp" è una terra, non una creatura',
        ),
        (
            TWO + 'Ann controls creature "Ann" 1/1\n',
            'duplicate name "Ann": already used by the player at line 1',
            'nome ripetuto "Ann": è già usato dal giocatore alla riga 1',
        ),
        (
            TWO + 'Ann controls creature "Bear" 2/2\n"Bear" attacks Ben\n"Bear" attacks Ben\n',
            "this attack is already declared at line 3",
            "questo attacco è già dichiarato alla riga 3",
        ),
    ],
)
def test_a_reference_error_speaks_the_language_asked(text, english, italian):
    assert english in refused(text, "en")
    assert italian in refused(text, "it")
