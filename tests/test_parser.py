"""The scenario language front end: every statement form of sections 1-5 of
the spec, into the typed model (mtgkb.language.model)."""

import json

import clingo
import pytest
from helpers import CONFORMANCE, needs_shared

from mtgkb.language.errors import ScenarioError
from mtgkb.language.facts import facts_text, scenario_facts
from mtgkb.language.grammar_build import GRAMMAR, load_tables
from mtgkb.language.parser import grammar, parse_file, parse_text
from mtgkb.rulebase.location import rule_files

TWO = "players: Ann, Ben\n"
THREE = "players: Rob, Alex, Carissa\n"


def parse(text):
    return parse_text(text, "t.mtg")


# -------------------- the grammar object


def test_grammar_is_built_once_per_process():
    assert grammar() is grammar()
    assert grammar().options.parser == "lalr"


def test_the_typed_model_is_made_as_a_dataclass_is_made():
    # mtgkb.language.model writes the classes' __init__ once (a dataclass's
    # is compiled for each class at every start): by position or name, each
    # field left out its default, a fresh list from its factory
    import dataclasses

    from mtgkb.language.model import GameObject, Player, Scenario

    assert Player(1, 2, {}, "Rob", 3) == Player(line=1, column=2, name="Rob", seat=3)
    assert repr(Player(name="Rob")) == "Player(line=0, column=0, name='Rob', seat=0)"
    first, second = GameObject(name="Bear"), GameObject(name="Bear")
    assert first == second and first.abilities is not second.abilities
    sc = Scenario(filename="t.mtg", players=[Player(name="Rob")])
    assert dataclasses.replace(sc, players=[]).players == [] and sc.players
    assert [f.name for f in dataclasses.fields(Player)] == [
        "line",
        "column",
        "positions",
        "name",
        "seat",
    ]
    for bad in (lambda: Player(1, line=2), lambda: Player(nme="Rob"), lambda: Player(*range(6))):
        with pytest.raises(TypeError):
            bad()


def test_blanks_and_words_are_the_characters_the_spec_names():
    # WS and WORD are written for a cheap compile (grammar.lark): they find
    # what the plain classes find in texts of every character of the BMP:
    # each after a letter and each twice (NUL is neither)
    import re

    terminals = {t.name: re.compile(t.pattern.to_regexp()) for t in grammar().terminals}
    plain = {
        "WS": re.compile("[ \\t\\f\\r\\v\\u00a0\\u2000-\\u200b\\u202f\\u205f\\u3000\\ufeff]+"),
        "WORD": re.compile("(?i:[^\\W\\d][\\w'\u2019-]*)"),
    }
    every = "".join(map(chr, range(0x10000)))
    for name, expected in plain.items():
        text = "".join(f"a{c}\0{c}{c}\0" for c in every)
        found = [m.span() for m in terminals[name].finditer(text)]
        assert found == [m.span() for m in expected.finditer(text)], name


def test_each_state_lexes_as_lark_s_own_contextual_lexer_would_802_4a():
    # The loaded parser makes a state's lexer when the parser first reaches
    # it (mtgkb.language.grammar_build.LazyContextualLexer): each is Lark's,
    # same terminals in the same order, and a file reaches few of them.
    from lark.lexer import ContextualLexer

    loaded = load_tables(GRAMMAR.read_text(encoding="utf-8"))
    states = {i: list(t) for i, t in loaded.parser.parser._parse_table.states.items()}
    stock = ContextualLexer(loaded.lexer_conf, states)
    lazy = loaded.parser.lexer
    loaded.parse(THREE + '"Bear" attacks Rob\nask can "Bear" attack Alex\n')
    assert 0 < len(lazy.lexers) < len(states) / 4
    for state, lexer in stock.lexers.items():
        made = lazy.lexers[state]
        assert [t.name for t in made.terminals] == [t.name for t in lexer.terminals], state
        assert (made.ignore_types, made.newline_types) == (lexer.ignore_types, lexer.newline_types)
    assert len(lazy.lexers) == len(states)
    assert [t.name for t in lazy.root_lexer.terminals] == [
        t.name for t in stock.root_lexer.terminals
    ]
    # the play of `ask can` (802.4a) is read as the declaration it names
    (question,) = parse(
        THREE + 'Rob controls creature "Bear" 2/2\nask can "Bear" attack Alex\n'
    ).questions
    assert question.kind == "can"


# -------------------- 1. setup


@pytest.mark.parametrize(
    "line, game",
    [
        ("two-player", "two_player"),
        ("free-for-all", "free_for_all"),
        ("grand-melee", "grand_melee"),
        ("commander", "commander"),
        ("brawl", "brawl"),
        ("vanguard", "vanguard"),
        ("Two Player", "two_player"),
    ],
)
def test_game_line(line, game):
    extra = "option: attack-left\n" if game == "free_for_all" else ""
    players = TWO if game in ("two_player", "vanguard", "brawl", "commander") else THREE
    assert parse(f"game: {line}\n{extra}{players}").game == game


def table(text) -> set[str]:
    """The game, options, active and starting players of a file: as written,
    completed by the defaults of kb/variants.lp."""
    ctl = clingo.Control()
    for path in rule_files():
        ctl.load(str(path))
    ctl.add("base", [], facts_text(scenario_facts(parse(text))))
    ctl.ground([("base", [])])
    wanted = {("game", 1), ("option", 1), ("active", 1), ("starting", 1)}
    found: list[set[str]] = []
    ctl.solve(
        on_model=lambda m: found.append(
            {str(s) for s in m.symbols(atoms=True) if (s.name, len(s.arguments)) in wanted}
        )
    )
    assert len(found) == 1
    return found[0]


def test_102_1_defaults_two_players_make_a_two_player_game():
    sc = parse(TWO)
    assert sc.game is None and not sc.game_given
    assert sc.options == []
    assert (sc.active, sc.starting, sc.phase) == ("", "", "main")
    assert table(TWO) == {"game(two_player)", 'active("Ann")', 'starting("Ann")'}


def test_806_2b_default_more_players_make_free_for_all_attacking_multiple_players():
    assert parse(THREE).options == []
    assert table(THREE) == {
        "game(free_for_all)",
        "option(attack_multiple_players)",
        'active("Rob")',
        'starting("Rob")',
    }


def test_806_2b_explicit_attack_option_replaces_the_default():
    sc = parse(THREE + "option: attack-right\n")
    assert [o.name for o in sc.options] == ["attack_right"]
    assert "option(attack_right)" in table(THREE + "option: attack-right\n")
    assert "option(attack_multiple_players)" not in table(THREE + "option: attack-right\n")


def test_written_game_and_players_replace_the_defaults():
    text = "game: grand-melee\n" + THREE + "active: Alex\nstarting: Carissa\n"
    assert table(text) == {"game(grand_melee)", 'active("Alex")', 'starting("Carissa")'}


def test_options_are_repeatable_and_range_takes_a_number():
    sc = parse(
        "option: attack-multiple-players\noption: range-of-influence 2\n"
        "option: shared-team-turns\nplayers: A, B, C, D\nteam X: A, B\nteam Y: C, D\n"
    )
    assert [(o.name, o.value) for o in sc.options] == [
        ("attack_multiple_players", None),
        ("range_of_influence", 2),
        ("shared_team_turns", None),
    ]


def test_players_seats_in_turn_order():
    sc = parse(THREE)
    assert [(p.name, p.seat) for p in sc.players] == [("Rob", 1), ("Alex", 2), ("Carissa", 3)]
    assert sc.seats == {"Rob": 1, "Alex": 2, "Carissa": 3}
    assert sc.players[1].at() == (1, 15)


def test_team_lines():
    sc = parse(
        'game: team-vs-team\nplayers: A, B, C, D\nteam Giants: A, B\nteam "Small Ones": C, D\n'
    )
    assert [(t.name, t.members) for t in sc.teams] == [
        ("Giants", ["A", "B"]),
        ("Small Ones", ["C", "D"]),
    ]
    assert sc.team_of("C").name == "Small Ones"


def test_active_starting_phase():
    sc = parse(THREE + "active: Alex\nstarting: Carissa\nphase: declare-blockers\n")
    assert (sc.active, sc.starting, sc.phase) == ("Alex", "Carissa", "declare_blockers")


@pytest.mark.parametrize(
    "phase", ["start-of-game", "beginning-of-combat", "declare-attackers", "combat-damage", "main"]
)
def test_every_phase(phase):
    assert parse(TWO + f"phase: {phase}\n").phase == phase.replace("-", "_")


def test_variant_roles_and_numbers():
    sc = parse(
        "game: vanguard\n"
        + TWO
        + "vanguard: Ann -3\nvanguard: Ben +2\nrange: Ann 2\nlife: Ann 12, Ben 7\n"
    )
    assert [(s.name, s.value) for s in sc.vanguards] == [("Ann", -3), ("Ben", 2)]
    assert [(s.name, s.value) for s in sc.ranges] == [("Ann", 2)]
    assert [(s.name, s.value) for s in sc.life] == [("Ann", 12), ("Ben", 7)]


def test_emperor_and_archenemy_lines():
    sc = parse(
        "game: emperor\nplayers: G1, E1, G2, G3, E2, G4\nteam Red: G1, E1, G2\n"
        "team Blue: G3, E2, G4\nemperor: E1\nemperor: E2\n"
    )
    assert [s.name for s in sc.emperors] == ["E1", "E2"]
    sc = parse("game: archenemy\nplayers: Rob, Ann, Ben\narchenemy: Ann\n")
    assert sc.archenemy == "Ann"


def test_810_4_life_names_teams_in_two_headed_giant():
    sc = parse(
        "game: two-headed-giant\nplayers: A, B, C, D\nteam North: A, B\nteam South: C, D\n"
        "life: North 25, South 30\n"
    )
    assert [(s.name, s.value) for s in sc.life] == [("North", 25), ("South", 30)]


@pytest.mark.parametrize("n, word", [(1, "creature"), (2, "creatures"), (0, "creatures")])
def test_508_1d_global_attack_limit(n, word):
    sc = parse(TWO + f"rule: no more than {n} {word} can attack\n")
    assert sc.max_attackers.count == n


# -------------------- 2. objects


def test_object_kinds():
    sc = parse(
        THREE
        + 'Rob controls creature "Runeclaw Bear" 2/2\n'
        + 'Alex controls planeswalker "Jace Beleren" loyalty 3\n'
        + 'Carissa controls land "Mountain" with type mountain\n'
        + 'Carissa controls battle "Invasion of Tarkir" defense 5 protected by Rob\n'
    )
    bear, jace, mountain, battle = sc.objects
    assert (bear.card_type, bear.controller, bear.power, bear.toughness) == (
        "creature",
        "Rob",
        2,
        2,
    )
    assert (jace.card_type, jace.loyalty) == ("planeswalker", 3)
    assert mountain.card_type == "land" and mountain.abilities[0].args == ("mountain",)
    assert (battle.card_type, battle.defense, battle.protector) == ("battle", 5, "Rob")
    assert sc.object("Jace Beleren") is jace


@pytest.mark.parametrize(
    "written, name, args",
    [
        ("flying", "flying", ()),
        ("reach", "reach", ()),
        ("shadow", "shadow", ()),
        ("menace", "menace", ()),
        ("defender", "defender", ()),
        ("can't attack", "cant_attack", ()),
        ("can't block", "cant_block", ()),
        ("can't attack alone", "cant_attack_alone", ()),
        ("can't block alone", "cant_block_alone", ()),
        ("attacks each combat if able", "attacks_if_able", ()),
        ("blocks each combat if able", "blocks_if_able", ()),
        ("can't attack Ben", "cant_attack_player", ("Ben",)),
        ("haste", "haste", ()),
        ("summoning-sick", "summoning_sick", ()),
        ("tapped", "tapped", ()),
        ("lifelink", "lifelink", ()),
        ("banding", "banding", ()),
        ("mountainwalk", "landwalk", ("mountain",)),
        ("Islandwalk", "landwalk", ("island",)),
        ("landwalk snow forest", "landwalk", ("snow", "forest")),
        ("type Snow", "land_type", ("snow",)),
        ("whenever you gain life", "life_gain_trigger", ()),
        ("CAN’T ATTACK", "cant_attack", ()),
    ],
)
def test_every_ability(written, name, args):
    sc = parse(TWO + f'Ann controls creature "X" 1/1 with {written}\n')
    (ability,) = sc.objects[0].abilities
    assert (ability.name, ability.args) == (name, args)


def test_abilities_are_comma_separated():
    sc = parse(TWO + 'Ben controls creature "Giant Spider" 2/4 with reach, tapped and flying\n')
    assert [a.name for a in sc.objects[0].abilities] == ["reach", "tapped", "flying"]
    assert "tapped" in [a.name for a in sc.objects[0].abilities]


def test_names_keep_escapes_and_case():
    sc = parse(TWO + 'Ann controls creature "Bear \\"the Brave\\" \\\\ #1" 2/2\n')
    assert sc.objects[0].name == 'Bear "the Brave" \\ #1'


# -------------------- 3. declarations


def test_declarations():
    sc = parse(
        THREE
        + 'Rob controls creature "Benalish Hero" 1/1 with banding\n'
        + 'Rob controls creature "Serra Angel" 4/4 with flying\n'
        + 'Alex controls creature "Giant Spider" 2/4 with reach\n'
        + 'Alex controls planeswalker "Jace Beleren" loyalty 3\n'
        + "Rob chooses Alex as defending player\n"
        + '"Benalish Hero" attacks Alex\n'
        + '"Serra Angel" attacks "Jace Beleren"\n'
        + 'band "Benalish Hero", "Serra Angel"\n'
        + '"Giant Spider" blocks "Serra Angel"\n'
    )
    assert [(c.player, c.defender) for c in sc.defending_choices] == [("Rob", "Alex")]
    assert [(a.attacker, a.target) for a in sc.attacks] == [
        ("Benalish Hero", "Alex"),
        ("Serra Angel", "Jace Beleren"),
    ]
    assert [(b.index, b.members) for b in sc.bands] == [(1, ["Benalish Hero", "Serra Angel"])]
    assert [(b.blocker, b.attacker) for b in sc.blocks] == [("Giant Spider", "Serra Angel")]


# -------------------- 4. events


@pytest.mark.parametrize(
    "line, kind, args",
    [
        ('"Lightning Bolt" deals 3 damage to Ben', "damage", ("Lightning Bolt", "Ben", 3)),
        ("Ben loses 2 life", "lose_life", ("Ben", 2)),
        ("Ben gains 3 life", "gain_life", ("Ben", 3)),
        ("Ben pays 4 life", "pay_life", ("Ben", 4)),
        ("Ben's life total becomes 10", "set_life", ("Ben", 10)),
        ("Ben exchanges life totals with Ann", "exchange_life", ("Ben", "Ann")),
        ("Ben can't gain life", "cant_gain_life", ("Ben",)),
        ("Ben can't lose life", "cant_lose_life", ("Ben",)),
        ("Ben can't lose the game", "cant_lose_game", ("Ben",)),
        ("combat damage", "combat_damage", ()),
        ("each player sacrifices a creature", "simultaneous", ("sacrifice",)),
        ("each player draws a card", "simultaneous", ("draw",)),
        ("each player chooses a creature and a land", "simultaneous", ("choose",)),
    ],
)
def test_every_event(line, kind, args):
    (event,) = parse(TWO + line + "\n").events
    assert (event.index, event.kind, event.args) == (1, kind, args)


def test_damage_to_an_object_and_life_gain_source():
    sc = parse(
        TWO + 'Ann controls creature "Bear" 2/2\n"Shock" deals 2 damage to "Bear"\n'
        'Ann gains 3 life from "Soul Warden"\n'
    )
    assert sc.events[0].args == ("Shock", "Bear", 2)
    assert sc.events[1].source == "Soul Warden"


@pytest.mark.parametrize(
    "line, items, in_order, hidden",
    [
        ("each player sacrifices a creature", ("creature",), False, False),
        ("each player draws a card", ("card",), False, False),
        ("each player chooses a card from their hand", ("card",), False, True),
        ("each player chooses a creature and a land", ("creature", "land"), False, False),
        ("each player chooses a creature, then a land", ("creature", "land"), True, False),
        (
            "each player chooses an artifact, then a creature, then a land",
            ("artifact", "creature", "land"),
            True,
            False,
        ),
    ],
)
def test_101_4_simultaneous_choices(line, items, in_order, hidden):
    (event,) = parse(THREE + line + "\n").events
    assert (event.items, event.in_order, event.hidden) == (items, in_order, hidden)


def test_101_4d_choice_makes_another_choose_and_events_keep_file_order():
    sc = parse(THREE + "each player sacrifices a creature\nCarissa's choice makes Rob choose\n")
    assert [(e.index, e.kind, e.args) for e in sc.events] == [
        (1, "simultaneous", ("sacrifice",)),
        (2, "makes_choose", ("Carissa", "Rob")),
    ]


def test_triggers_are_not_events():
    sc = parse(THREE + 'trigger "Soul Warden" controlled by Rob\n')
    assert sc.events == []
    assert [(t.name, t.controller) for t in sc.triggers] == [("Soul Warden", "Rob")]


# -------------------- 5. questions


def test_every_question_in_file_order_with_line_and_params():
    sc = parse(
        THREE
        + 'Rob controls creature "Runeclaw Bear" 2/2\n'
        + "ask legal\n"
        + "ask defending players\n"
        + 'ask attack targets for "Runeclaw Bear"\n'
        + "ask attacks\n"
        + "ask attacks limit 20\n"
        + "ask blocks\n"
        + "ask blocks [for Alex] [limit 5]\n"
        + "ask blocks for Carissa\n"
        + "ask order\n"
        + "ask block order\n"
        + "ask damage order\n"
        + "ask knowledge\n"
        + "ask stack\n"
        + "ask outcome\n"
        + "ask can Alex pay 5 life   # a comment\n"
        + "ask explain\n"
    )
    got = [(q.kind, q.line, q.params) for q in sc.questions]
    assert got == [
        ("legal", 3, {}),
        ("defending", 4, {}),
        ("attack_targets", 5, {"creature": "Runeclaw Bear"}),
        ("attacks", 6, {"limit": None}),
        ("attacks", 7, {"limit": 20}),
        ("blocks", 8, {"defender": None, "limit": None}),
        ("blocks", 9, {"defender": "Alex", "limit": 5}),
        ("blocks", 10, {"defender": "Carissa", "limit": None}),
        ("order", 11, {}),
        ("block_order", 12, {}),
        ("damage_order", 13, {}),
        ("knowledge", 14, {}),
        ("stack", 15, {}),
        ("outcome", 16, {}),
        ("pay", 17, {"player": "Alex", "amount": 5}),
        ("explain", 18, {}),
    ]
    assert sc.questions[14].source == "ask can Alex pay 5 life"
    assert sc.questions[14]["player"] == "Alex"


def test_a_file_with_players_and_no_question_is_valid():
    assert parse(TWO).questions == []


# -------------------- lexical matters


def test_keywords_ignore_case_names_do_not():
    sc = parse(
        'PLAYERS: ann, Ann\nACTIVE: Ann\nann CONTROLS A CREATURE "x" 1/1 WITH FLYING\nASK LEGAL\n'
    )
    assert sc.player_names == ["ann", "Ann"] and sc.active == "Ann"
    assert sc.objects[0].controller == "ann"
    with pytest.raises(ScenarioError, match="unknown player ANN"):
        parse("players: ann, Ann\nactive: ANN\n")


def test_comments_blank_lines_whitespace_and_crlf():
    text = (
        "\ufeff# a scenario\r\n\r\n   players :Ann ,  Ben   # seats\r\n"
        '\tAnn controls creature   "Bear # not a comment"   2 / 2\r\n\n  ask   legal  \r\n'
    )
    sc = parse(text)
    assert sc.objects[0].name == "Bear # not a comment"
    assert sc.questions[0].line == 6


def test_bytes_and_unicode_names():
    sc = parse_text('players: Zoë, Ågot\nZoë controls creature "Ætherling ✨" 1/1\n'.encode())
    assert sc.player_names == ["Zoë", "Ågot"]
    assert sc.objects[0].name == "Ætherling ✨"


def test_parse_file(tmp_path):
    path = tmp_path / "s.mtg"
    path.write_text(TWO + "ask legal\n", encoding="utf-8")
    sc = parse_file(path)
    assert sc.filename == str(path) and sc.questions[0].kind == "legal"


# -------------------- the shared conformance cases


def _conformance_cases():
    if not CONFORMANCE.is_dir():
        return []
    return sorted(CONFORMANCE.glob("*.mtg"))


@needs_shared
@pytest.mark.parametrize("path", _conformance_cases(), ids=lambda p: p.stem)
def test_conformance_file_parses_or_fails_at_its_line(path):
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    if expected.get("exit") == 2:
        with pytest.raises(ScenarioError) as caught:
            parse_file(path)
        assert caught.value.line == expected["error_line"]
    else:
        sc = parse_file(path)
        asks = [
            line for line in path.read_text().splitlines() if line.strip().lower().startswith("ask")
        ]
        assert len(sc.questions) == len(asks) == len(expected.get("answers", asks))


@needs_shared
def test_conformance_c11_is_a_syntax_error_at_line_2():
    with pytest.raises(ScenarioError) as caught:
        parse_file(CONFORMANCE / "c11_syntax_error.mtg")
    assert (caught.value.line, caught.value.column) == (2, 23)
    assert "syntax error" in caught.value.message
