"""The typed scenario into the input facts of docs/predicates.md section 1:
names are clingo Strings, vocabulary words are constants, and the printed
facts read back into clingo as the same atoms."""

import re

import clingo
import pytest
from helpers import CONFORMANCE, ROOT, needs_shared

from mtgkb.language.facts import SCHEMA, facts_text, scenario_facts
from mtgkb.language.parser import parse_file, parse_text

TWO = "players: Ann, Ben\n"
THREE = "players: Rob, Alex, Carissa\n"


def facts(text) -> set[str]:
    return {str(s) for s in scenario_facts(parse_text(text, "t.mtg"))}


def reload(text: str) -> set[clingo.Symbol]:
    ctl = clingo.Control(logger=lambda code, msg: None)
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    return {a.symbol for a in ctl.symbolic_atoms}


# -------------------- names are data


HOSTILE = "x). :- not y. #show z/0. %"


def test_a_hostile_name_is_one_clingo_string():
    symbols = scenario_facts(parse_text(TWO + f'Ann controls creature "{HOSTILE}" 1/1\n'))
    objects = [s for s in symbols if s.name == "object"]
    assert len(objects) == 1
    (argument,) = objects[0].arguments
    assert argument.type == clingo.SymbolType.String and argument.string == HOSTILE
    text = facts_text(symbols)
    assert reload(text) == set(symbols)
    assert not any(s.name in ("y", "z") for s in reload(text))


def test_quotes_backslashes_and_unicode_survive_the_round_trip():
    name = 'Bear \\"the Brave\\" \\\\ Zoë\t#1'
    symbols = scenario_facts(parse_text(TWO + f'Ann controls creature "{name}" 1/1\n'))
    assert reload(facts_text(symbols)) == set(symbols)
    assert any(
        s.arguments[0].string == 'Bear "the Brave" \\ Zoë\t#1'
        for s in symbols
        if s.name == "object"
    )


@needs_shared
@pytest.mark.parametrize(
    "path",
    [p for p in sorted(CONFORMANCE.glob("*.mtg")) if p.stem[:3] not in ("c11", "c12")]
    if CONFORMANCE.is_dir()
    else [],
    ids=lambda p: p.stem,
)
def test_conformance_facts_reload_in_clingo_to_the_same_atoms(path):
    symbols = scenario_facts(parse_file(path))
    assert reload(facts_text(symbols)) == set(symbols)


# -------------------- the table


def test_facts_are_what_is_written_and_kb_variants_derives_the_defaults():
    # game, attack option, active and starting player: kb/variants.lp
    # (tests/test_parser.py checks what it derives)
    assert facts(TWO) == {
        'player("Ann")',
        'player("Ben")',
        'seat("Ann",1)',
        'seat("Ben",2)',
        "phase(main)",
        "unwritten(game)",
        "unwritten(active)",
        "unwritten(starting)",
    }
    written = "game: two-player\nactive: Ben\nstarting: Ben\n" + TWO
    assert not any(f.startswith("unwritten(") for f in facts(written))


def test_806_2b_only_written_options_are_facts():
    assert not any(f.startswith(("option(", "game(")) for f in facts(THREE))
    assert "option(attack_left)" in facts(THREE + "option: attack-left\n")
    assert not any(f.startswith("option(") for f in facts("game: commander\n" + THREE))


def test_setup_lines():
    got = facts(
        "game: two-headed-giant\noption: range-of-influence 2\nplayers: A, B, C, D\n"
        "team Giants: A, B\nteam Dwarves: C, D\nactive: B\nstarting: C\nphase: start-of-game\n"
        "range: A 1\nlife: Giants 25\n"
    )
    assert {
        "game(two_headed_giant)",
        "option(range_of_influence(2))",
        'team("Giants","A")',
        'team("Dwarves","D")',
        'active("B")',
        'starting("C")',
        "phase(start_of_game)",
        'range("A",1)',
        'life_given("Giants",25)',
    } <= got


def test_variant_role_facts():
    assert {'vanguard("Ann",-3)', 'vanguard("Ben",2)'} <= facts(
        "game: vanguard\n" + TWO + "vanguard: Ann -3\nvanguard: Ben +2\n"
    )
    assert 'archenemy("Alex")' in facts("game: archenemy\n" + THREE + "archenemy: Alex\n")
    got = facts(
        "game: emperor\nplayers: G1, E1, G2, G3, E2, G4\nteam Red: G1, E1, G2\n"
        "team Blue: G3, E2, G4\nemperor: E1\nemperor: E2\n"
    )
    assert {'emperor("E1")', 'emperor("E2")'} <= got


# -------------------- objects


def test_object_facts():
    got = facts(
        THREE
        + 'Rob controls creature "Goblin" 1/1 with mountainwalk, landwalk snow forest, '
        + "can't attack Alex\n"
        + 'Alex controls planeswalker "Jace" loyalty 3\n'
        + 'Carissa controls land "Snow-Covered Forest" with type snow, type forest\n'
        + 'Carissa controls battle "Invasion" defense 5 protected by Rob\n'
        + "rule: no more than 1 creature can attack\n"
    )
    assert {
        'object("Goblin")',
        'controls("Rob","Goblin")',
        'card_type("Goblin",creature)',
        'power("Goblin",1)',
        'toughness("Goblin",1)',
        'landwalk("Goblin",1)',
        'landwalk_requires("Goblin",1,"mountain")',
        'landwalk("Goblin",2)',
        'landwalk_requires("Goblin",2,"snow")',
        'landwalk_requires("Goblin",2,"forest")',
        'cant_attack_player("Goblin","Alex")',
        'loyalty("Jace",3)',
        'card_type("Jace",planeswalker)',
        'land_type("Snow-Covered Forest","snow")',
        'land_type("Snow-Covered Forest","forest")',
        'defense("Invasion",5)',
        'protects("Rob","Invasion")',
        "max_attackers(1)",
    } <= got
    assert not any(f.startswith("has(") for f in got)


@pytest.mark.parametrize(
    "written, constant",
    [
        ("flying", "flying"),
        ("reach", "reach"),
        ("shadow", "shadow"),
        ("menace", "menace"),
        ("defender", "defender"),
        ("can't attack", "cant_attack"),
        ("can't block", "cant_block"),
        ("can't attack alone", "cant_attack_alone"),
        ("can't block alone", "cant_block_alone"),
        ("attacks each combat if able", "attacks_if_able"),
        ("blocks each combat if able", "blocks_if_able"),
        ("haste", "haste"),
        ("summoning-sick", "summoning_sick"),
        ("tapped", "tapped"),
        ("lifelink", "lifelink"),
        ("banding", "banding"),
        ("whenever you gain life", "life_gain_trigger"),
    ],
)
def test_ability_constants(written, constant):
    assert f'has("X",{constant})' in facts(TWO + f'Ann controls creature "X" 1/1 with {written}\n')


# -------------------- declarations and events


def test_declaration_facts():
    got = facts(
        THREE
        + 'Rob controls creature "Hero" 1/1 with banding\nRob controls creature "Angel" 4/4\n'
        + 'Rob controls creature "Squire" 1/2 with banding\nRob controls creature "Page" 1/1\n'
        + 'Alex controls creature "Spider" 2/4\n'
        + "Rob chooses Alex as defending player\n"
        + '"Hero" attacks Alex\n"Angel" attacks Alex\n'
        + 'band "Hero", "Angel"\nband "Squire", "Page"\n'
        + '"Spider" blocks "Angel"\n'
    )
    assert {
        'chooses_defending("Rob","Alex")',
        'declared_attack("Hero","Alex")',
        'band(1,"Hero")',
        'band(1,"Angel")',
        'band(2,"Squire")',
        'band(2,"Page")',
        'declared_block("Spider","Angel")',
    } <= got


def test_event_facts_numbered_in_file_order():
    got = facts(
        THREE
        + 'Rob controls creature "Bear" 2/2\n'
        + '"Lightning Bolt" deals 3 damage to Alex\n'
        + '"Shock" deals 2 damage to "Bear"\n'
        + "Alex loses 2 life\n"
        + 'Alex gains 3 life from "Soul Warden"\n'
        + "Alex pays 4 life\n"
        + "Alex's life total becomes 10\n"
        + "Alex exchanges life totals with Rob\n"
        + "Alex can't gain life\n"
        + "Alex can't lose life\n"
        + "Alex can't lose the game\n"
        + "combat damage\n"
        + 'trigger "Soul Warden" controlled by Rob\n'
    )
    assert {
        'event(1,damage("Lightning Bolt","Alex",3))',
        'event(2,damage("Shock","Bear",2))',
        'event(3,lose_life("Alex",2))',
        'event(4,gain_life("Alex",3))',
        'event_source(4,"Soul Warden")',
        'event(5,pay_life("Alex",4))',
        'event(6,set_life("Alex",10))',
        'event(7,exchange_life("Alex","Rob"))',
        'event(8,cant_gain_life("Alex"))',
        'event(9,cant_lose_life("Alex"))',
        'event(10,cant_lose_game("Alex"))',
        "event(11,combat_damage)",
        'trigger("Soul Warden","Rob")',
    } <= got
    assert not any(f.startswith("event(12") for f in got)


@pytest.mark.parametrize(
    "line, expected, absent",
    [
        (
            "each player sacrifices a creature",
            {"event(1,simultaneous(sacrifice))", 'choice_item(1,1,"creature")'},
            {"choice_hidden(1)", "choice_in_order(1)"},
        ),
        (
            "each player draws a card",
            {"event(1,simultaneous(draw))", 'choice_item(1,1,"card")'},
            set(),
        ),
        (
            "each player chooses a card from their hand",
            {"event(1,simultaneous(choose))", 'choice_item(1,1,"card")', "choice_hidden(1)"},
            set(),
        ),
        (
            "each player chooses a creature and a land",
            {'choice_item(1,1,"creature")', 'choice_item(1,2,"land")'},
            {"choice_in_order(1)"},
        ),
        (
            "each player chooses a creature, then a land",
            {'choice_item(1,1,"creature")', 'choice_item(1,2,"land")', "choice_in_order(1)"},
            set(),
        ),
    ],
)
def test_101_4_simultaneous_choice_facts(line, expected, absent):
    got = facts(THREE + line + "\n")
    assert expected <= got and not (absent & got)


def test_101_4d_makes_choose_fact():
    got = facts(THREE + "each player sacrifices a creature\nCarissa's choice makes Rob choose\n")
    assert 'event(2,makes_choose("Carissa","Rob"))' in got


# -------------------- questions


def test_asked_facts_for_every_question():
    got = facts(
        THREE
        + 'Rob controls creature "Bear" 2/2\n'
        + 'ask legal\nask defending players\nask attack targets for "Bear"\nask attacks limit 3\n'
        + "ask blocks\nask blocks for Alex\nask order\nask block order\nask damage order\n"
        + "ask knowledge\nask stack\nask outcome\nask can Alex pay 5 life\nask explain\n"
    )
    asked = {f for f in got if f.startswith("asked(")}
    assert asked == {
        "asked(legal)",
        "asked(defending)",
        'asked(attack_targets("Bear"))',
        "asked(attacks)",
        "asked(blocks)",
        'asked(blocks("Alex"))',
        "asked(order)",
        "asked(block_order)",
        "asked(damage_order)",
        "asked(knowledge)",
        "asked(stack)",
        "asked(outcome)",
        'asked(pay("Alex",5))',
        "asked(explain)",
    }


# -------------------- the printed form


def test_facts_text_is_grouped_in_schema_order_one_atom_per_line():
    text = facts_text(
        scenario_facts(parse_text(THREE + 'Rob controls creature "B" 1/1\nask legal\n'))
    )
    lines = text.splitlines()
    assert all(line.endswith(".") for line in lines)
    order = [name for name, _ in SCHEMA]
    ranks = [order.index(re.match(r"\w+", line).group()) for line in lines]
    assert ranks == sorted(ranks)
    assert lines[0] == 'player("Rob").' and lines[-1] == "asked(legal)."
    assert [line for line in lines if line.startswith("player(")] == [
        'player("Rob").',
        'player("Alex").',
        'player("Carissa").',
    ]


def test_every_fact_is_a_declared_input_predicate():
    declared = set(re.findall(r"#defined\s+(\w+)/(\d+)\.", (ROOT / "kb" / "input.lp").read_text()))
    declared = {(name, int(arity)) for name, arity in declared}
    assert set(SCHEMA) == declared
    text = (
        "game: two-headed-giant\noption: range-of-influence 2\nplayers: A, B, C, D\n"
        "team X: A, B\nteam Y: C, D\nactive: A\nstarting: A\nlife: X 20\nrange: A 1\n"
        'A controls creature "Q" 1/1 with flying, mountainwalk, can\'t attack C\n'
        'C controls land "L" with type mountain\nC controls planeswalker "P" loyalty 2\n'
        'C controls battle "W" defense 3 protected by A\nrule: no more than 1 creature can attack\n'
        'A controls creature "R" 1/1 with banding\nA chooses C as defending player\n'
        '"Q" attacks C\n"R" attacks C\nband "Q", "R"\n'
        'C controls creature "S" 1/1 with color red, protection from blue\n"S" blocks "Q"\n'
        '"S" assigns 1 damage to "Q"\n'
        'A gains 1 life from "Z"\neach player chooses a card, then a creature from their hand\n'
        'trigger "T" controlled by A\nask legal\n'
        # spec section 8
        'poison: X 2\ncommander damage: A 3 from "Q"\nA has hexproof\nB has protection from red\n'
        "B controls player A\npriority: A\nlands played: A 1\n"
        'stack: "Bolt" controlled by C\nA controls creature "U" 1/1 with toxic 1\n'
        'A casts instant "Shock" with flash with color red targeting C\n'
        'A activates "U" as a sorcery\nB makes A concede\n'
        # spec section 13
        'C controls creature "V" 1/1 with hexproof from green\n'
        'A controls creature "M" 3/3 with can\'t be blocked except by 3 or more creatures\n'
        '"P" activated a loyalty ability this turn\n'
        'A controls creature "V2" 2/2 with damage 1, counters -1/-1 1\n'
        'A controls creature "V3" 2/2 with can\'t be blocked except by 2 or more creatures\n'
    )
    used = {(s.name, len(s.arguments)) for s in scenario_facts(parse_text(text))}
    assert used <= declared
    # emperor/archenemy/vanguard need other variants; unwritten/1 a file leaving lines out
    assert len(used) >= len(declared) - 4


def test_the_questions_come_last_and_are_known_as_such():
    from mtgkb.language.facts import asked_facts, fixed_facts

    made = scenario_facts(parse_text(TWO + 'ask outcome\nAnn controls land "Swamp"\nask legal\n'))
    names = [s.name for s in made]
    assert names[-2:] == ["asked", "asked"] and "asked" not in names[:-2]
    assert [str(s) for s in asked_facts(made)] == ["asked(outcome)", "asked(legal)"]
    assert fixed_facts(made) == made[:-2]
    # a plain list is split by reading the names
    assert fixed_facts(list(made)) == made[:-2] and asked_facts(list(made)) == made.asked
