"""One small table of each variant and each multiplayer option, with what the
CR says about it for the active player Ann (seat 1; turn order runs through the
seats, 101.4, 102.1): whom Ann may attack, who defends, the APNAP groups of
choosers, and an opponent or teammate she may not attack. The interaction
matrix's tests of each variant and option with each kind of question
(tests/test_506_2_802_2_every_variant.py, tests/test_101_4_802_4_every_variant.py)
read them; every expectation here is derived from the CR rule named beside it,
not from mtgkb's answers.

Every table is valid input: `game:` line, players, teams and the variant's own
lines (tests/test_119_4_117_1_every_variant.py uses the same tables)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    feature: str  # the matrix's feature (variant:V or option:O)
    text: str  # the setup lines of the table
    attackable: tuple[str, ...]  # the players Ann's creatures may attack
    attack_rule: str  # the rule that says whom Ann may attack
    defending: tuple[str, ...]  # the defending players of Ann's combat
    #: the choosers' groups in APNAP order (101.4: one player each; 805.6 with
    #: shared team turns: a team, its members choosing in any order they like)
    groups: tuple[tuple[str, ...], ...]
    #: a player Ann may not attack, and the rule that forbids it (None: every
    #: other player may be attacked)
    forbidden: str | None = None
    forbidden_rule: str | None = None
    shared_turns: bool = False

    @property
    def name(self) -> str:
        return self.feature.partition(":")[2]

    @property
    def first(self) -> str:
        """The defending player Ann's first creature attacks."""
        return self.attackable[0]

    @property
    def second(self) -> str | None:
        """Another player Ann may attack in the same combat, if any."""
        return self.attackable[1] if len(self.attackable) > 1 else None


TWO_TEAMS = "players: Ann, Ben, Cat, Dan\nteam Red: Ann, Ben\nteam Blue: Cat, Dan"
SINGLES_2 = (("Ann",), ("Ben",))

TABLES = [
    # 506.2: two players, the nonactive player defends
    Table(
        "variant:two_player",
        "game: two-player\nplayers: Ann, Ben",
        ("Ben",),
        "506.2",
        ("Ben",),
        SINGLES_2,
    ),
    # 802.2: with attack multiple players every opponent defends
    Table(
        "variant:free_for_all",
        "game: free-for-all\noption: attack-multiple-players\nplayers: Ann, Ben, Cat",
        ("Ben", "Cat"),
        "802.2",
        ("Ben", "Cat"),
        (("Ann",), ("Ben",), ("Cat",)),
    ),
    # 807.2a-b: range of influence 1 and attack left; 803.1a: only the opponent
    # immediately to Ann's left (the next seat, Ben) may be attacked and defends
    Table(
        "variant:grand_melee",
        "game: grand-melee\nplayers: Ann, Ben, Cat, Dan",
        ("Ben",),
        "803.1a",
        ("Ben",),
        (("Ann",), ("Ben",), ("Cat",), ("Dan",)),
        forbidden="Cat",
        forbidden_rule="803.1a",
    ),
    # 808.3a, 802.2: the opponents (the other team) defend, not Ann's teammate
    Table(
        "variant:team_vs_team",
        "game: team-vs-team\n" + TWO_TEAMS,
        ("Cat", "Dan"),
        "802.2",
        ("Cat", "Dan"),
        (("Ann",), ("Ben",), ("Cat",), ("Dan",)),
        forbidden="Ben",
        forbidden_rule="802.2",
    ),
    # 810.2, 805.10a: shared team turns; the nonactive team defends
    Table(
        "variant:two_headed_giant",
        "game: two-headed-giant\n" + TWO_TEAMS,
        ("Cat", "Dan"),
        "805.10a",
        ("Cat", "Dan"),
        (("Ann", "Ben"), ("Cat", "Dan")),
        forbidden="Ben",
        forbidden_rule="805.10a",
        shared_turns=True,
    ),
    # 809.3c: a general (Ann, seat 1) may attack only an opponent seated next to
    # her: Fay (seat 6), not Dan (three seats away: outside her range of influence
    # of 1, 809.3a, 801.3); 506.2a: that one opponent is the defending player
    Table(
        "variant:emperor",
        "game: emperor\nplayers: Ann, Ben, Cat, Dan, Eve, Fay\n"
        "team Red: Ann, Ben, Cat\nteam Blue: Dan, Eve, Fay\nemperor: Ben\nemperor: Eve",
        ("Fay",),
        "809.3c",
        ("Fay",),
        (("Ann",), ("Ben",), ("Cat",), ("Dan",), ("Eve",), ("Fay",)),
        forbidden="Dan",
        forbidden_rule="809.3c",
    ),
    # 506.2: Commander, Brawl and Vanguard of two players: the nonactive player defends
    Table(
        "variant:commander",
        "game: commander\nplayers: Ann, Ben",
        ("Ben",),
        "506.2",
        ("Ben",),
        SINGLES_2,
    ),
    Table(
        "variant:brawl", "game: brawl\nplayers: Ann, Ben", ("Ben",), "506.2", ("Ben",), SINGLES_2
    ),
    # 904.2, 805.10a: the archenemy (Ann) is a team of one; the other team defends
    Table(
        "variant:archenemy",
        "game: archenemy\nplayers: Ann, Ben, Cat\narchenemy: Ann",
        ("Ben", "Cat"),
        "805.10a",
        ("Ben", "Cat"),
        (("Ann",), ("Ben", "Cat")),
        shared_turns=True,
    ),
    Table(
        "variant:vanguard",
        "game: vanguard\nplayers: Ann, Ben\nvanguard: Ann -3\nvanguard: Ben +2",
        ("Ben",),
        "506.2",
        ("Ben",),
        SINGLES_2,
    ),
    # 802.2: every opponent defends
    Table(
        "option:attack_multiple_players",
        "game: free-for-all\noption: attack-multiple-players\nplayers: Ann, Ben, Cat, Dan",
        ("Ben", "Cat", "Dan"),
        "802.2",
        ("Ben", "Cat", "Dan"),
        (("Ann",), ("Ben",), ("Cat",), ("Dan",)),
    ),
    # 803.1a: the opponent immediately to the left (the next seat)
    Table(
        "option:attack_left",
        "game: free-for-all\noption: attack-left\nplayers: Ann, Ben, Cat",
        ("Ben",),
        "803.1a",
        ("Ben",),
        (("Ann",), ("Ben",), ("Cat",)),
        forbidden="Cat",
        forbidden_rule="803.1a",
    ),
    # 803.1b: the opponent immediately to the right (the previous seat)
    Table(
        "option:attack_right",
        "game: free-for-all\noption: attack-right\nplayers: Ann, Ben, Cat",
        ("Cat",),
        "803.1b",
        ("Cat",),
        (("Ann",), ("Ben",), ("Cat",)),
        forbidden="Ben",
        forbidden_rule="803.1b",
    ),
    # 805.10a: with the option, the nonactive team defends; 805.6: teams choose in turn
    Table(
        "option:shared_team_turns",
        "game: team-vs-team\noption: shared-team-turns\n" + TWO_TEAMS,
        ("Cat", "Dan"),
        "805.10a",
        ("Cat", "Dan"),
        (("Ann", "Ben"), ("Cat", "Dan")),
        forbidden="Ben",
        forbidden_rule="805.10a",
        shared_turns=True,
    ),
    # 801.3: with range of influence 1 Ann may attack only her neighbours Ben
    # and Eve (seats 2 and 5); the spec (section 11) has `ask defending players`
    # name those (801.3 with 802.2)
    Table(
        "option:range_of_influence",
        "game: free-for-all\noption: attack-multiple-players\noption: range-of-influence 1\n"
        "players: Ann, Ben, Cat, Dan, Eve",
        ("Ben", "Eve"),
        "801.3",
        ("Ben", "Eve"),
        (("Ann",), ("Ben",), ("Cat",), ("Dan",), ("Eve",)),
        forbidden="Cat",
        forbidden_rule="801.3",
    ),
]

NAMES = [table.name for table in TABLES]
