"""The typed scenario: what a `.mtg` file says, as plain dataclasses.

Names are the user's strings, exactly as written (unescaped). Words of the
language's vocabulary are stored as the schema's constant names, with
hyphens turned into underscores (`two_headed_giant`, `attack_left`,
`cant_attack`). Every element keeps the line and column (1-based) where it
was written; `positions` maps a role (`"controller"`, `"member.2"`, ...) to
the exact place of a name inside the statement, for precise error messages.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from mtgkb.rulebase import registry as _registry
from mtgkb.rulebase.records import record

Position = tuple[int, int]


@record
class Located:
    """Something written at a line and column of the file."""

    line: int = 0
    column: int = 0
    positions: dict[str, Position] = field(default_factory=dict, compare=False, repr=False)

    def at(self, role: str | None = None) -> Position:
        """Where `role` was written, or the statement itself."""
        if role is not None and role in self.positions:
            return self.positions[role]
        return (self.line, self.column)


# -------------------- the table


@record
class Player(Located):
    name: str = ""
    seat: int = 0  # 1..n in turn order


@record
class Team(Located):
    name: str = ""
    members: list[str] = field(default_factory=list)


@record
class Option(Located):
    """`attack_multiple_players`, `attack_left`, `attack_right`,
    `shared_team_turns`, or `range_of_influence` with `value` N, as written
    (the defaults of the spec are derived by kb/variants.lp)."""

    name: str = ""
    value: int | None = None


@record
class Setting(Located):
    """A one-value setup line: `active:`, `vanguard: P N`, `life: X N`, ..."""

    name: str = ""
    value: Any = None


# -------------------- objects


@record
class Ability(Located):
    """`name` is a `has/2` constant (`flying`, `cant_attack`, ...) or one of
    `cant_attack_player` (args: the player), `landwalk` (args: the required
    land types, lower-case), `land_type` (args: the type, lower-case),
    `color` and `protection` (args: the color, lower-case)."""

    name: str = ""
    args: tuple[str, ...] = ()


@record
class GameObject(Located):
    name: str = ""
    controller: str = ""
    card_type: str = ""  # creature | planeswalker | land | battle
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    defense: int | None = None
    protector: str | None = None
    abilities: list[Ability] = field(default_factory=list)


@record
class MaxAttackers(Located):
    """`rule: no more than N creatures can attack`."""

    count: int = 0


# -------------------- declarations


@record
class ChooseDefending(Located):
    player: str = ""
    defender: str = ""


@record
class Attack(Located):
    attacker: str = ""
    target: str = ""  # a player or a planeswalker / battle name
    target_quoted: bool = False  # written as "..." (an object, or a player by quoted name)


@record
class Block(Located):
    blocker: str = ""
    attacker: str = ""


@record
class DamageAssignment(Located):
    """`"C" assigns N damage to X, M damage to Y` (510.1): `amounts` in the
    order written, each (recipient, amount, recipient written in quotes);
    positions `recipient.K` and `amount.K` (K = 0, 1, ...) and `creature`."""

    creature: str = ""
    amounts: list[tuple[str, int, bool]] = field(default_factory=list)

    def total(self) -> int:
        return sum(amount for _, amount, _ in self.amounts)


@record
class Band(Located):
    index: int = 0  # 1, 2, ... in file order
    members: list[str] = field(default_factory=list)


@record
class Target(Located):
    """What a spell or ability targets: a player, or an object written in quotes."""

    name: str = ""
    quoted: bool = False


@record
class Play(Located):
    """A declared play of section 8, numbered 1..n in file order: `cast`
    (player, name, spell_type, flash, colors), `activate` (player, name, speed:
    None | `sorcery` | `loyalty`), `land` (player, name) and `concede` (player
    makes `other` concede). Casts and activations may have targets."""

    index: int = 0
    kind: str = ""
    player: str = ""
    name: str = ""
    spell_type: str = ""
    flash: bool = False
    colors: list[str] = field(default_factory=list)
    speed: str | None = None
    other: str = ""
    targets: list[Target] = field(default_factory=list)


@record
class PlayerAbility(Located):
    """`P has hexproof | shroud | protection from COLOR` (color in `color`)."""

    player: str = ""
    ability: str = ""
    color: str | None = None


@record
class PlayerControl(Located):
    """`R controls player A` (722)."""

    controller: str = ""
    controlled: str = ""


@record
class CommanderDamage(Located):
    """`commander damage: P N from "C"`."""

    player: str = ""
    amount: int = 0
    commander: str = ""


@record
class StackItem(Located):
    """`stack: "Name" controlled by P`, bottom to top."""

    name: str = ""
    controller: str = ""


# -------------------- events


@record
class Event(Located):
    """One event, numbered 1..n in file order.

    `kind` and `args` mirror the schema's `event(I,E)` term: `damage`
    (source, recipient, amount), `lose_life`/`gain_life`/`pay_life`/`set_life`
    (player, amount), `exchange_life` (player, player), `cant_gain_life`/
    `cant_lose_life`/`cant_lose_game` (player), `combat_damage` (),
    `check_state_based_actions` (),
    `simultaneous` (`sacrifice`|`draw`|`choose`), `makes_choose` (player, player),
    `poison` (player, amount), `cant_get_poison`/`concede` (player);
    `prevent_combat_damage` (), `prevent_combat_damage_by` (source),
    `prevent_next_damage` (recipient, amount), `after_first_strike` (creature,
    `gains`|`loses`, ability) or (creature, `gets`, power, toughness).
    """

    index: int = 0
    kind: str = ""
    args: tuple[Any, ...] = ()
    source: str | None = None  # `gains N life from "X"`
    items: tuple[str, ...] = ()  # the things chosen at a `simultaneous` event
    in_order: bool = False  # choices joined by `then` (101.4c)
    hidden: bool = False  # chosen from a hidden zone (101.4a)
    recipient_quoted: bool = False  # `damage`: the recipient was written as "..."


@record
class Trigger(Located):
    name: str = ""
    controller: str = ""


# -------------------- questions

# Every kind of question: the registry's (mtgkb.rulebase.registry).
QUESTION_KINDS = _registry.KINDS


@record
class Question(Located):
    """One `ask`, in file order. `params` by kind: attack_targets
    {"creature"}, attacks {"limit"}, blocks {"defender", "limit"} (None when
    not written), pay {"player", "amount"}, assignments {"creature"}, can
    {"text": the play in words, "field": the Scenario list its declaration belongs to, "play": that
    declaration} (`P target X`: field "targets", {"player", "target",
    "target_quoted"}), explain {"only": the kind explained, None for all};
    the others have none."""

    kind: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    source: str = ""  # the text of the line

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


# -------------------- the scenario

# The games, options, phases and colors a file may name are the rule base's
# (kb/vocabulary.lp: mtgkb.rulebase.vocabulary).


@record
class Scenario:
    """Everything a scenario file says, as written: what it leaves out (the
    game, the attack option, the active and starting players) is derived
    from the spec's defaults by kb/variants.lp."""

    filename: str = "<stdin>"
    game: str | None = None  # None: no `game:` line
    game_given: bool = False  # a `game:` line was written
    game_at: Setting | None = None
    players: list[Player] = field(default_factory=list)
    teams: list[Team] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)
    active: str = ""  # "": no `active:` line
    starting: str = ""  # "": no `starting:` line
    phase: str = "main"
    emperors: list[Setting] = field(default_factory=list)  # value: the player
    archenemies: list[Setting] = field(default_factory=list)
    vanguards: list[Setting] = field(default_factory=list)  # name: player, value: N
    ranges: list[Setting] = field(default_factory=list)  # name: player, value: N
    life: list[Setting] = field(default_factory=list)  # name: player or team, value: N
    objects: list[GameObject] = field(default_factory=list)
    max_attackers: MaxAttackers | None = None
    defending_choices: list[ChooseDefending] = field(default_factory=list)
    attacks: list[Attack] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    bands: list[Band] = field(default_factory=list)
    assignments: list[DamageAssignment] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    triggers: list[Trigger] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    # section 8: counters, players' abilities, control of players, timing
    poison: list[Setting] = field(default_factory=list)  # name: player or team, value: N
    commander_damage: list[CommanderDamage] = field(default_factory=list)
    player_abilities: list[PlayerAbility] = field(default_factory=list)
    player_controls: list[PlayerControl] = field(default_factory=list)
    priority: str | None = None
    stack: list[StackItem] = field(default_factory=list)
    lands_played: list[Setting] = field(default_factory=list)  # name: player, value: N
    plays: list[Play] = field(default_factory=list)
    # section 13: `"X" activated a loyalty ability this turn` (name: the permanent)
    loyalty_used: list[Setting] = field(default_factory=list)
    # the statements that set a one-value setting (`active:`, `phase:`, ...)
    settings: dict[str, Setting] = field(default_factory=dict, repr=False)
    source_lines: list[str] = field(default_factory=list, repr=False, compare=False)
    # read from a JSON state: where each line of its text came from in the JSON
    # (mtgkb.language.json_state.SourceMap), to name the JSON path in errors
    origin: Any = field(default=None, repr=False, compare=False)

    # ---- look-ups

    @property
    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def seats(self) -> dict[str, int]:
        return {p.name: p.seat for p in self.players}

    @property
    def archenemy(self) -> str | None:
        return self.archenemies[0].value if self.archenemies else None

    def object(self, name: str) -> GameObject | None:
        for obj in self.objects:
            if obj.name == name:
                return obj
        return None

    def team_of(self, player: str) -> Team | None:
        for team in self.teams:
            if player in team.members:
                return team
        return None

    def source_line(self, line: int) -> str:
        if 1 <= line <= len(self.source_lines):
            return self.source_lines[line - 1]
        return ""
