"""The generated corpus of the consistency audit: scenario texts in the
scenario language (so the parser validates every one of them).

- `tables()`: every table of 2-6 players across the variants and options of
  the language (two-player; free-for-all with each attack option and with a
  range of influence; grand melee; team vs. team; two-headed giant 2v2 and
  3v3; emperor 3v3; commander; brawl; archenemy; vanguard), each with a
  creature per player, life events, a simultaneous choice, waiting triggers
  and the questions the audit checks.
- `combats(count, seed)`: random combats on those tables, the same for the
  same seed: random creatures with random abilities from the vocabulary
  of the rule base (kb/vocabulary.lp), random attacks (mostly at what the
  table lets the attacking player attack, sometimes anywhere), random
  blocks, legal and illegal.

Nothing here decides a game rule: where the generator aims its attacks it
only makes legal declarations likely; the rules judge them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
TEAM_NAMES = ("Red", "Blue", "Green")


def abilities() -> tuple[str, ...]:
    """Every ability of the vocabulary of the rule base in use
    (kb/vocabulary.lp), as written: each simple one, and an example of each
    that takes arguments. `can't attack PLAYER` is added where a table has one."""
    from mtgkb.rulebase.vocabulary import vocabulary

    return vocabulary().written()


def __getattr__(name: str):
    # `corpus.ABILITIES`: the vocabulary's list, read when asked (not at import)
    if name == "ABILITIES":
        return abilities()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The simultaneous events a combat may end with (spec, section 4).
SIMULTANEOUS = (
    "each player sacrifices a creature",
    "each player draws a card",
    "each player chooses a card from their hand",
    "each player chooses a creature and a land",
    "each player chooses a creature, then a land",
)

#: The phases a combat may be set in.
COMBAT_PHASES = (
    "main",
    "declare-attackers",
    "declare-blockers",
    "combat-damage",
    "beginning-of-combat",
    "start-of-game",
)

#: The questions every table asks.
TABLE_ASKS = (
    "ask defending players",
    "ask attacks limit 10",
    "ask blocks limit 10",
    "ask order",
    "ask stack",
    "ask block order",
    "ask outcome",
    "ask legal",
)


@dataclass(frozen=True)
class Table:
    """One table: the setup lines of a scenario, and how its attacks are aimed."""

    name: str
    game: str  # the language's word: two-player, free-for-all, ...
    players: tuple[str, ...]
    options: tuple[str, ...] = ()  # as written after `option:`
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
    lines: tuple[str, ...] = ()  # emperor:, archenemy:, vanguard:, range: lines
    active: str = ""
    aim: str = "choose"  # two | multiple | left | right | shared | choose
    reach: int | None = None  # seats an attack is aimed within (range of influence)

    @property
    def attacker(self) -> str:
        return self.active or self.players[0]

    def team_of(self, player: str) -> tuple[str, ...] | None:
        for _, members in self.teams:
            if player in members:
                return members
        return None

    def side_of(self, player: str) -> tuple[str, ...]:
        """The players acting with `player` (its team, or itself)."""
        if self.game == "archenemy" and not self.teams:
            boss = self.archenemy
            return (player,) if player == boss else tuple(p for p in self.players if p != boss)
        return self.team_of(player) or (player,)

    @property
    def archenemy(self) -> str | None:
        for line in self.lines:
            if line.startswith("archenemy:"):
                return line.split(":", 1)[1].strip()
        return None

    def header(self) -> list[str]:
        out = [f"game: {self.game}"]
        out += [f"option: {o}" for o in self.options]
        out.append("players: " + ", ".join(self.players))
        out += [f"team {t}: " + ", ".join(members) for t, members in self.teams]
        out += list(self.lines)
        if self.active:
            out.append(f"active: {self.active}")
        return out

    def seat_distance(self, a: str, b: str) -> int:
        n = len(self.players)
        d = abs(self.players.index(a) - self.players.index(b))
        return min(d, n - d)

    def defenders(self) -> list[str]:
        """The players the generator aims attacks at (the rules decide who defends)."""
        a = self.attacker
        side = self.side_of(a)
        others = [p for p in self.players if p not in side]
        if self.aim in ("two", "multiple", "shared"):
            return others
        n = len(self.players)
        i = self.players.index(a)
        if self.aim == "left":
            q = self.players[(i + 1) % n]
            return [q] if q in others else []
        if self.aim == "right":
            q = self.players[(i - 1) % n]
            return [q] if q in others else []
        return [q for q in others if self.reach is None or self.seat_distance(a, q) <= self.reach]


def _seated(players: tuple[str, ...], size: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(
        (TEAM_NAMES[k], players[i : i + size]) for k, i in enumerate(range(0, len(players), size))
    )


def table_specs() -> list[Table]:
    """Every table of 2-6 players across the variants and options."""
    out: list[Table] = []

    def p(n: int) -> tuple[str, ...]:
        return NAMES[:n]

    out.append(Table("two-player", "two-player", p(2), aim="two"))
    for n in range(3, 7):
        for opt, aim in (
            ("attack-multiple-players", "multiple"),
            ("attack-left", "left"),
            ("attack-right", "right"),
        ):
            out.append(
                Table(
                    f"free-for-all {n} players, {opt}",
                    "free-for-all",
                    p(n),
                    (opt,),
                    active=p(n)[n - 1] if opt == "attack-right" else "",
                    aim=aim,
                )
            )
    out.append(
        Table(
            "free-for-all 5 players, attack-multiple-players, range-of-influence 2",
            "free-for-all",
            p(5),
            ("attack-multiple-players", "range-of-influence 2"),
            aim="multiple",
            reach=2,
        )
    )
    out.append(
        Table(
            "free-for-all 6 players, attack-left, range-of-influence 1, Ann's range 2",
            "free-for-all",
            p(6),
            ("attack-left", "range-of-influence 1"),
            lines=("range: Ann 2",),
            aim="left",
            reach=1,
        )
    )
    for n in (4, 5, 6):
        out.append(Table(f"grand melee {n} players", "grand-melee", p(n), aim="left", reach=1))
    out.append(
        Table(
            "grand melee 6 players, attack-right",
            "grand-melee",
            p(6),
            ("attack-right",),
            active="Cat",
            aim="right",
            reach=1,
        )
    )
    out.append(
        Table("team vs team 2x2", "team-vs-team", p(4), teams=_seated(p(4), 2), aim="multiple")
    )
    out.append(
        Table("team vs team 3x2", "team-vs-team", p(6), teams=_seated(p(6), 2), aim="multiple")
    )
    out.append(
        Table(
            "team vs team 2x3",
            "team-vs-team",
            p(6),
            teams=_seated(p(6), 3),
            active="Ben",
            aim="multiple",
        )
    )
    out.append(
        Table(
            "team vs team 2x2, shared-team-turns",
            "team-vs-team",
            p(4),
            ("shared-team-turns",),
            teams=_seated(p(4), 2),
            aim="shared",
        )
    )
    out.append(
        Table(
            "team vs team 3x2, attack-left",
            "team-vs-team",
            p(6),
            ("attack-left",),
            teams=_seated(p(6), 2),
            active="Ben",
            aim="left",
        )
    )
    out.append(
        Table(
            "two-headed giant 2x2", "two-headed-giant", p(4), teams=_seated(p(4), 2), aim="shared"
        )
    )
    out.append(
        Table(
            "two-headed giant 3x3",
            "two-headed-giant",
            p(6),
            teams=_seated(p(6), 3),
            active="Dan",
            aim="shared",
        )
    )
    for active in ("Ann", "Ben"):
        who = "a general" if active == "Ann" else "an emperor"
        out.append(
            Table(
                f"emperor 3x3, {who} active",
                "emperor",
                p(6),
                teams=_seated(p(6), 3),
                lines=("emperor: Ben", "emperor: Eve"),
                active=active,
                aim="choose",
                reach=1,
            )
        )
    for n in range(2, 7):
        aim = "two" if n == 2 else "choose"
        out.append(Table(f"commander {n} players", "commander", p(n), aim=aim))
        out.append(Table(f"brawl {n} players", "brawl", p(n), aim=aim))
    for n in range(3, 7):
        active = "Ann" if n % 2 else "Ben"
        out.append(
            Table(
                f"archenemy {n} players, {'the archenemy' if active == 'Ann' else 'a hero'} active",
                "archenemy",
                p(n),
                lines=("archenemy: Ann",),
                active=active,
                aim="shared",
            )
        )
    mods = (-3, 2, 0, 5, -1, 1)
    for n in range(2, 7):
        lines = tuple(f"vanguard: {name} {mods[i]:+d}" for i, name in enumerate(p(n)))
        out.append(
            Table(
                f"vanguard {n} players",
                "vanguard",
                p(n),
                lines=lines,
                aim="two" if n == 2 else "choose",
            )
        )
    out.append(
        Table(
            "commander 5 players, range-of-influence 1",
            "commander",
            p(5),
            ("range-of-influence 1",),
            aim="choose",
            reach=1,
        )
    )
    return out


# --------------------------------------------------------------------------
# Tables: the setup with a creature each, life events, choices and triggers
# --------------------------------------------------------------------------

_TABLE_CREATURES = (
    '{p} controls creature "{p}\'s Bear" 2/2',
    '{p} controls creature "{p}\'s Spider" 2/4 with reach',
    '{p} controls creature "{p}\'s Angel" 4/4 with flying, lifelink',
    '{p} controls creature "{p}\'s Wall" 0/4 with defender',
    '{p} controls creature "{p}\'s Pridemate" 2/2 with whenever you gain life',
    '{p} controls creature "{p}\'s Goblin" 1/1 with mountainwalk, haste',
)


def table_text(t: Table) -> str:
    lines = [f"# generated table: {t.name}"] + t.header()
    for i, player in enumerate(t.players):
        lines.append(_TABLE_CREATURES[i % len(_TABLE_CREATURES)].format(p=player))
    last = t.players[-1]
    lines.append(f'{last} controls planeswalker "{last}\'s Jace" loyalty 3')
    # the attacking player's creature attacks the first player the table lets it
    targets = t.defenders()
    if targets:
        if t.aim == "choose" and len(t.players) > 2:
            lines.append(f"{t.attacker} chooses {targets[0]} as defending player")
        raider = f"{t.attacker}'s Raider"
        lines.append(f'{t.attacker} controls creature "{raider}" 3/3')
        lines.append(f'"{raider}" attacks {targets[0]}')
    lines.append(f'{t.players[1]} controls land "{t.players[1]}\'s Mountain" with type mountain')
    lines.append(f'"Bolt" deals 3 damage to {t.players[1]}')
    lines.append(f"{t.attacker} gains 2 life")
    lines.append(f"{last} loses 1 life")
    lines.append("each player sacrifices a creature")
    for player in t.players[:3]:
        lines.append(f'trigger "{player}\'s trigger" controlled by {player}')
    lines += list(TABLE_ASKS)
    return "\n".join(lines) + "\n"


def tables() -> list[tuple[str, str]]:
    """(name, scenario text) of every table."""
    return [(t.name, table_text(t)) for t in table_specs()]


# --------------------------------------------------------------------------
# Random combats
# --------------------------------------------------------------------------


def _abilities(rng: random.Random, t: Table, owner: str) -> list[str]:
    k = rng.choice((0, 0, 1, 1, 2, 3))
    found: list[str] = []
    for _ in range(k):
        if rng.random() < 0.08:
            foes = [q for q in t.players if q not in t.side_of(owner)]
            ability = f"can't attack {rng.choice(foes)}" if foes else "haste"
        else:
            ability = rng.choice(abilities())
        if ability not in found:
            found.append(ability)
    return found


def combat_text(rng: random.Random, t: Table, k: int) -> str:
    """One random combat on table `t`."""
    lines = [f"# generated combat {k}: {t.name}"] + t.header()
    attacker = t.attacker
    attacking_side = t.side_of(attacker) if t.aim == "shared" else (attacker,)
    phase = rng.choice(COMBAT_PHASES)
    if phase != "main":
        lines.append(f"phase: {phase}")
    if phase == "start-of-game" and rng.random() < 0.5:
        lines.append(f"starting: {rng.choice(t.players)}")
    creatures: dict[str, list[str]] = {p: [] for p in t.players}
    things: dict[str, list[str]] = {p: [] for p in t.players}  # planeswalkers, battles
    n_obj = 0

    def name(owner: str, what: str) -> str:
        nonlocal n_obj
        n_obj += 1
        return f"{owner} {what} {n_obj}"

    for p in t.players:
        count = rng.randint(1, 3) if p in attacking_side else rng.randint(0, 2)
        if p in attacking_side and len(attacking_side) > 1:
            count = rng.randint(0, 2)
        for _ in range(count):
            c = name(p, "creature")
            power, toughness = rng.randint(0, 5), rng.randint(1, 5)
            abilities = _abilities(rng, t, p)
            with_ = f" with {', '.join(abilities)}" if abilities else ""
            lines.append(f'{p} controls creature "{c}" {power}/{toughness}{with_}')
            creatures[p].append(c)
        if p not in attacking_side and rng.random() < 0.25:
            w = name(p, "walker")
            lines.append(f'{p} controls planeswalker "{w}" loyalty {rng.randint(1, 5)}')
            things[p].append(w)
        if p not in attacking_side and rng.random() < 0.3:
            land = rng.choice(
                (
                    ("Mountain", "type mountain"),
                    ("Snow Forest", "type snow, type forest"),
                    ("Island", "type island"),
                )
            )
            lines.append(f'{p} controls land "{name(p, land[0])}" with {land[1]}')
    others = [p for p in t.players if p not in t.side_of(attacker)]
    if others and rng.random() < 0.15:
        protector = rng.choice(others)
        holder = rng.choice([q for q in t.players if q != protector])
        b = name(holder, "battle")
        lines.append(
            f'{holder} controls battle "{b}" defense {rng.randint(1, 6)} protected by {protector}'
        )
        things[protector].append(b)
    if rng.random() < 0.1:
        count, plural = rng.randint(1, 2), "s" if rng.random() < 0.5 else ""
        lines.append(f"rule: no more than {count} creature{plural} can attack")

    # Whom the attacks are aimed at: mostly what the table allows, sometimes anyone.
    aimed = t.defenders()
    if t.aim == "choose" and aimed and len(t.players) > 2:
        chosen = rng.choice(aimed)
        if rng.random() < 0.7:
            lines.append(f"{attacker} chooses {chosen} as defending player")
        aimed = [chosen]
    attacks: dict[str, str] = {}
    for p in attacking_side:
        for c in creatures[p]:
            if rng.random() < 0.3:
                continue
            pool = aimed if aimed and rng.random() < 0.85 else others or aimed
            if not pool:
                continue
            q = rng.choice(pool)
            target = rng.choice([q] + things[q]) if things[q] and rng.random() < 0.5 else q
            attacks[c] = target
    for c, target in attacks.items():
        quoted = f'"{target}"' if target not in t.players else target
        lines.append(f'"{c}" attacks {quoted}')
    attackers = list(attacks)
    if len(attackers) >= 2 and rng.random() < 0.15:
        band = rng.sample(attackers, 2)
        lines.append("band " + ", ".join(f'"{b}"' for b in band))
    for p in t.players:
        if p in attacking_side:
            continue
        for b in creatures[p]:
            if attackers and rng.random() < 0.45:
                lines.append(f'"{b}" blocks "{rng.choice(attackers)}"')
    if rng.random() < 0.4:
        lines.append("combat damage")
    if rng.random() < 0.2:
        lines.append(f"{rng.choice(t.players)} can't lose the game")
    asks = []
    if rng.random() < 0.3:  # simultaneous choices, and choices that make others choose
        lines.append(rng.choice(SIMULTANEOUS))
        for _ in range(rng.choice((0, 0, 1, 2))):
            x, y = rng.choice(t.players), rng.choice(t.players)
            lines.append(f"{x}'s choice makes {y} choose")
        asks += ["ask order", "ask knowledge"]
    if rng.random() < 0.3:  # triggers waiting to be put on the stack
        for i, p in enumerate(rng.sample(t.players, rng.randint(1, len(t.players)))):
            lines.append(f'trigger "trigger {i + 1} of {p}" controlled by {p}')
        asks.append("ask stack")
    lines += asks + ["ask legal", "ask defending players", "ask attacks limit 20"]
    defending = [p for p in t.players if p not in t.side_of(attacker)]
    if defending and rng.random() < 0.5:
        lines.append(f"ask blocks for {rng.choice(defending)} limit 30")
    else:
        lines.append("ask blocks limit 30")
    lines += ["ask block order", "ask damage order", "ask outcome"]
    mine = [c for p in attacking_side for c in creatures[p]]
    if mine:
        lines.append(f'ask attack targets for "{rng.choice(mine)}"')
    return "\n".join(lines) + "\n"


def combats(count: int = 40, seed: int = 2026) -> list[tuple[str, str]]:
    """(name, scenario text) of `count` random combats, the same for the same seed."""
    rng = random.Random(seed)
    specs = table_specs()
    out = []
    for k in range(1, count + 1):
        t = rng.choice(specs)
        out.append((f"combat {k} ({t.name})", combat_text(rng, t, k)))
    return out


#: Sizes of the generated corpus: (tables kept: every k-th, random combats).
SIZES = {"full": (1, 40), "quick": (None, 6)}


def generated_corpus(size: str = "full", seed: int = 2026) -> list[tuple[str, str]]:
    """The tables and the random combats. `quick`: one table per variant and a
    few combats (for the test suite)."""
    every, count = SIZES[size]
    all_tables = tables()
    if every is None:
        seen: set[str] = set()
        kept = []
        for spec, item in zip(table_specs(), all_tables, strict=True):
            if spec.game not in seen:
                seen.add(spec.game)
                kept.append(item)
    else:
        kept = all_tables[::every]
    return kept + combats(count, seed)


__all__ = [
    "abilities",
    "Table",
    "combat_text",
    "combats",
    "generated_corpus",
    "table_specs",
    "table_text",
    "tables",
]
