"""119.4, 118.3: a player can pay life only up to their life total, so what
`ask can P pay N life` answers follows the starting life total of the variant
(103.4 and its subrules, 119.1a-e): 20 in most games, 30 for a Two-Headed
Giant team's shared total (810.4, paid from by either member, 119.4a), 40 in
Commander, 25 in two-player Brawl, 20 moved by the Vanguard life modifier.
And who may act now (117.1, 117.1a) follows the variant only where a team
shares its turns (805.5a). The interaction matrix's tests of each variant
with `ask can P pay`, `ask actions` and `ask outcome`."""

from __future__ import annotations

import pytest

from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text

ENGINE = Engine()

# (variant, the table, Ben's starting life by the CR, the rules that set it)
TABLES = [
    ("two_player", "game: two-player\nplayers: Ann, Ben", 20, {"103.4", "119.1"}),
    (
        "free_for_all",
        "game: free-for-all\noption: attack-multiple-players\nplayers: Ann, Ben, Cat",
        20,
        {"103.4", "119.1"},
    ),
    ("grand_melee", "game: grand-melee\nplayers: Ann, Ben, Cat, Dan", 20, {"103.4", "119.1"}),
    (
        "team_vs_team",
        "game: team-vs-team\nplayers: Ann, Ben, Cat, Dan\nteam Red: Ann, Ben\nteam Blue: Cat, Dan",
        20,
        {"103.4", "119.1"},
    ),
    (
        "two_headed_giant",
        "game: two-headed-giant\nplayers: Ann, Ben, Cat, Dan\n"
        "team Red: Ann, Ben\nteam Blue: Cat, Dan",
        30,
        {"103.4a", "119.1a", "810.4"},
    ),
    (
        "emperor",
        "game: emperor\nplayers: Ann, Ben, Cat, Dan, Eve, Fay\n"
        "team Red: Ann, Ben, Cat\nteam Blue: Dan, Eve, Fay\nemperor: Ben\nemperor: Eve",
        20,
        {"103.4", "119.1"},
    ),
    ("commander", "game: commander\nplayers: Ann, Ben", 40, {"103.4c", "119.1c", "903.7"}),
    ("brawl", "game: brawl\nplayers: Ann, Ben", 25, {"103.4d", "119.1d", "903.12f"}),
    (
        "archenemy",
        "game: archenemy\nplayers: Ann, Ben, Cat\narchenemy: Ann",
        20,  # 103.4e: only the archenemy begins at 40
        {"103.4", "119.1", "103.4e", "119.1e", "904.5"},
    ),
    (
        "vanguard",
        "game: vanguard\nplayers: Ann, Ben\nvanguard: Ann -3\nvanguard: Ben +2",
        22,
        {"103.4b", "119.1b", "902.4"},
    ),
]


NAMES = [t[0] for t in TABLES]


@pytest.mark.parametrize(("variant", "table", "life", "starting"), TABLES, ids=NAMES)
def test_119_4_paying_life_up_to_the_variants_starting_life(variant, table, life, starting):
    text = f"{table}\nask can Ben pay {life} life\nask can Ben pay {life + 1} life\n"
    result = answer_text(text, f"{variant}.mtg", Limits(), engine=ENGINE)
    assert result.status == 0, result.error
    up_to, beyond = result.output["answers"]
    assert up_to["can"] is True and beyond["can"] is False
    # 119.4 decides (119.4a from a shared total), on the total the variant's
    # starting life rule gave
    paying = "119.4a" if variant == "two_headed_giant" else "119.4"
    assert paying in set(up_to["rules"]) | set(beyond["rules"])
    assert starting & set(beyond["rules"]), beyond["rules"]


ALL_KINDS = ["instant", "flash", "ability", "sorcery-speed ability", "sorcery", "land"]


@pytest.mark.parametrize(("variant", "table"), [t[:2] for t in TABLES], ids=NAMES)
def test_117_1a_805_5a_who_may_act_in_each_variant(variant, table):
    # 117.1a: the active player (Ann, the first seat, 102.1; the archenemy takes
    # the first turn, 904.6) in their main phase with an empty stack and priority
    # may make every kind of play; 117.1: Ben, without priority, none, unless
    # Ben's team shares Ann's turn and priority (805.5a: Two-Headed Giant, 810.2)
    text = f"{table}\nask actions for Ann\nask actions for Ben\n"
    result = answer_text(text, f"{variant}.mtg", Limits(), engine=ENGINE)
    assert result.status == 0, result.error
    ann, ben = result.output["answers"]
    assert ann["may"] == ALL_KINDS
    assert ben["may"] == (ALL_KINDS if variant == "two_headed_giant" else [])
    if variant == "two_headed_giant":
        assert "805.5a" in ben["rules"]


@pytest.mark.parametrize(("variant", "table", "life", "starting"), TABLES, ids=NAMES)
def test_103_4_the_outcome_starts_from_the_variants_starting_life(variant, table, life, starting):
    # 103.4, 119.1 and their subrules: with nothing happening, each life total is
    # the starting one (in Two-Headed Giant each member shows the team's, spec 6)
    text = f"{table}\nask outcome\n"
    result = answer_text(text, f"{variant}.mtg", Limits(), engine=ENGINE)
    assert result.status == 0, result.error
    (outcome,) = result.output["answers"]
    assert outcome["life"]["Ben"] == life
    assert outcome["lost"] == []
    assert starting & set(outcome["rules"]), outcome["rules"]
