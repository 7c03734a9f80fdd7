"""Checks that a parsed scenario makes sense before any rule is asked.

Bad input is refused here with the place it was written: an unknown player
or object, a name used twice, a reference to something that is not there.
Whether the table is one its variant allows (805.1, 806.2b, 808.1, 809.1,
809.2, 810.1, 810.11, 904.2, 904.2a) is a rule of the game, so the rule base
says it (`rules/100_input_checks.lp`, asked by mtgkb.language.checks). Whether a
*play* is legal is not checked here either: that is `ask legal`.

Checks run in two rounds (names and references, with the rule base's faults
of one statement: 702.22c, 101.4d, 810.4, 904.2a; then the table); within a
round the error written first in the file is the one reported.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import replace

from mtgkb.language.checks import table_errors
from mtgkb.language.errors import ScenarioError
from mtgkb.language.model import Position, Scenario, Team


def _q(name: str) -> str:
    """A name as shown in messages."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Checker:
    def __init__(self, sc: Scenario, lang: str = "en") -> None:
        self.sc = sc
        self.lang = lang  # the language of the rule base's input errors
        self.errors: list[tuple[int, int, str]] = []
        self.players = {p.name: p for p in sc.players}
        self.teams = {t.name: t for t in sc.teams}
        self.objects = {o.name: o for o in sc.objects}

    # ---- reporting

    def add(self, where: Position, message: str) -> None:
        self.errors.append((where[0], where[1], message))

    def flush(self) -> None:
        if self.errors:
            line, column, message = min(self.errors, key=lambda e: (e[0], e[1]))
            raise ScenarioError(
                message,
                filename=self.sc.filename,
                line=line,
                column=column,
                source_line=self.sc.source_line(line),
            )

    def first_statement(self) -> Position:
        for number, text in enumerate(self.sc.source_lines, start=1):
            stripped = text.strip(" \t\f\v\u00a0")
            if stripped and not stripped.startswith("#"):
                return (number, len(text) - len(text.lstrip(" \t\f\v\u00a0")) + 1)
        return (1, 1)

    # ---- references

    def _suggest(self, name: str, choices: Iterable[str]) -> str:
        choices = list(choices)
        close = difflib.get_close_matches(name, choices, n=1, cutoff=0.75)
        if close:
            return f"; did you mean {close[0]}?"
        if 0 < len(choices) <= 8:
            return " (known: " + ", ".join(choices) + ")"
        return ""

    def what_is(self, name: str) -> str | None:
        if name in self.players:
            return "a player"
        if name in self.teams:
            return "a team"
        if name in self.objects:
            return f"a {self.objects[name].card_type}"
        if any(t.name == name for t in self.sc.triggers):
            return "a trigger"
        return None

    def player(self, name: str, where: Position) -> bool:
        if name in self.players:
            return True
        kind = self.what_is(name)
        if kind:
            self.add(where, f"{name} is {kind}, not a player")
        else:
            self.add(where, f"unknown player {name}" + self._suggest(name, self.players))
        return False

    def obj(self, name: str, where: Position, card_types: tuple[str, ...] = ()) -> bool:
        found = self.objects.get(name)
        if found is None:
            kind = self.what_is(name)
            if kind:
                self.add(where, f"{_q(name)} is {kind}, not an object on the battlefield")
            else:
                hint = self._suggest(name, self.objects) if len(self.objects) <= 200 else ""
                self.add(where, f"unknown object {_q(name)}" + hint)
            return False
        if card_types and found.card_type not in card_types:
            wanted = " or ".join(card_types)
            self.add(where, f"{_q(name)} is a {found.card_type}, not a {wanted}")
            return False
        return True

    # ---- round 1: names and references

    def names(self) -> None:
        sc = self.sc
        declared: list[tuple[Position, str, str]] = []
        declared += [(p.at(), p.name, "player") for p in sc.players]
        declared += [(t.at("name"), t.name, "team") for t in sc.teams]
        declared += [(o.at("name"), o.name, "object") for o in sc.objects]
        declared += [(t.at("name"), t.name, "trigger") for t in sc.triggers]
        declared += [(s.at("name"), s.name, "spell or ability on the stack") for s in sc.stack]
        declared.sort(key=lambda d: d[0])
        seen: dict[str, tuple[str, int]] = {}
        for where, name, kind in declared:
            if name in seen:
                other, line = seen[name]
                self.add(
                    where,
                    f"duplicate name {_q(name)}: already used by the {other} at line {line}"
                    " (players, teams, objects and triggers share one set of names)",
                )
            else:
                seen[name] = (kind, where[0])

    def references(self) -> None:
        sc = self.sc
        if len(sc.players) < 2:
            self.add(sc.players[0].at(), "a game needs at least two players")
        for key in ("active", "starting"):
            setting = sc.settings.get(key)
            if setting is not None:
                self.player(setting.value, setting.at("value"))
        for group in (sc.emperors, sc.archenemies, sc.vanguards, sc.ranges):
            for setting in group:
                self.player(setting.name, setting.at("player"))
        self.life()
        self.team_members()
        for obj in sc.objects:
            self.player(obj.controller, obj.at("controller"))
            if obj.protector is not None:
                self.player(obj.protector, obj.at("protector"))
            for ability in obj.abilities:
                if ability.name == "cant_attack_player":
                    self.player(ability.args[0], ability.at("player"))
        for choice in sc.defending_choices:
            self.player(choice.player, choice.at("player"))
            self.player(choice.defender, choice.at("defender"))
        self.declarations()
        self.assignments()
        self.events()
        for trigger in sc.triggers:
            self.player(trigger.controller, trigger.at("controller"))
        self.players_in_full()
        for q in sc.questions:
            if q.kind == "attack_targets":
                self.obj(q["creature"], q.at("creature"), ("creature",))
            elif q.kind == "assignments":
                name = q["creature"]
                if self.obj(name, q.at("creature"), ("creature",)) and not self.in_combat(name):
                    self.add(
                        q.at("creature"),
                        f"{_q(name)} is neither attacking nor blocking, so it assigns no "
                        "combat damage",
                    )
            elif q.kind == "blocks" and q.get("defender") is not None:
                self.player(q["defender"], q.at("defender"))
            elif q.kind in ("pay", "actions"):
                self.player(q["player"], q.at("player"))
            elif q.kind == "can":
                self.play(q)

    def play(self, q) -> None:
        """The play of `ask can`: checked as its declaration would be, alone
        in its list (the file's own declarations there are not assumed)."""
        if q["field"] == "targets":
            self.player(q["player"], q.at("player"))
            target, where = q["target"], q.at("target")
            if q["target_quoted"] and target not in self.players:
                self.obj(target, where)
            elif not q["target_quoted"]:
                if target in self.objects:
                    self.add(where, f"an object's name is written in quotes: {_q(target)}")
                else:
                    self.player(target, where)
            return
        probe = _Checker(replace(self.sc, **{q["field"]: [q["play"]]}, questions=[]))
        probe.references()
        self.errors += probe.errors

    def life(self) -> None:
        shared = self.sc.game == "two_headed_giant"
        for setting in self.sc.life:
            name, where = setting.name, setting.at("player")
            if shared:
                if name in self.teams:
                    continue
                if name in self.players:
                    continue  # a player's life is no team's (810.4): the rule base says so
                else:
                    self.add(where, f"unknown team {name}" + self._suggest(name, self.teams))
            elif name in self.teams:
                self.add(
                    where,
                    f"{name} is a team; only a two-headed-giant game has a team life total, "
                    "here give each player's life",
                )
            else:
                self.player(name, where)

    # ---- section 8: counters, players' abilities, control of players, timing

    def shares_poison(self) -> bool:
        """810.10: Two-Headed Giant teams share their poison counters."""
        return self.sc.game == "two_headed_giant"

    def players_in_full(self) -> None:
        sc = self.sc
        shared = self.shares_poison()
        seen_poison: set[str] = set()
        for setting in sc.poison:
            name, where = setting.name, setting.at("player")
            seen_poison.add(name)
            if shared:
                if name in self.teams:
                    continue
                if name in self.players:
                    team = sc.team_of(name)
                    hint = f" ({team.name})" if team else ""
                    self.add(
                        where,
                        "in a two-headed-giant game poison counters are shared by the team "
                        f"(810.10): give the counters of {name}'s team{hint}, not of {name}",
                    )
                else:
                    self.add(where, f"unknown team {name}" + self._suggest(name, self.teams))
            elif name in self.teams:
                self.add(
                    where,
                    f"{name} is a team; only a two-headed-giant game has shared poison "
                    "counters (810.10), here give each player's counters",
                )
            else:
                self.player(name, where)
        for given in sc.commander_damage:
            self.player(given.player, given.at("player"))
            if given.commander in self.players or given.commander in self.teams:
                self.add(
                    given.at("commander"),
                    f"{given.commander} is {self.what_is(given.commander)}; commander damage "
                    "comes from a commander (a creature, 903.3)",
                )
            elif given.commander in self.objects:
                self.obj(given.commander, given.at("commander"), ("creature",))
        for ability in sc.player_abilities:
            self.player(ability.player, ability.at("player"))
        for control in sc.player_controls:
            self.player(control.controller, control.at("controller"))
            if self.player(control.controlled, control.at("controlled")):
                if control.controller == control.controlled:
                    self.add(
                        control.at("controlled"),
                        f"{control.controller} can't control themself as another player (722)",
                    )
        setting = sc.settings.get("priority")
        if setting is not None:
            self.player(setting.value, setting.at("value"))
        for item in sc.stack:
            self.player(item.controller, item.at("controller"))
            if item.name in self.players or item.name in self.teams:
                self.add(item.at("name"), f"{item.name} is {self.what_is(item.name)}, not a spell")
            elif item.name in self.objects:
                self.add(
                    item.at("name"),
                    f"{_q(item.name)} is a {self.objects[item.name].card_type} on the "
                    "battlefield, not a spell or ability on the stack",
                )
        for setting in sc.lands_played:
            self.player(setting.name, setting.at("player"))
        for setting in sc.loyalty_used:  # spec section 13 (606.3)
            self.obj(setting.name, setting.at("name"), ("planeswalker",))
        self.plays()

    def plays(self) -> None:
        sc = self.sc
        stacked = {item.name for item in sc.stack}
        cast_names: dict[str, int] = {}
        for play in sc.plays:
            self.player(play.player, play.at("player"))
            if play.kind == "concede":
                if self.player(play.other, play.at("other")) and play.other == play.player:
                    self.add(
                        play.at("other"),
                        f"a player concedes with '{play.player} concedes' (104.3a)",
                    )
                continue
            if play.kind in ("cast", "land"):
                name, where = play.name, play.at("name")
                kind = self.what_is(name)
                if kind is not None:
                    self.add(
                        where,
                        f"{_q(name)} is {kind} already; a spell or land played has a name "
                        "of its own",
                    )
                elif name in cast_names:
                    self.add(where, f"{_q(name)} is already played at line {cast_names[name]}")
                cast_names[name] = play.line
            if play.kind == "activate" and play.name in self.players:
                self.add(play.at("name"), f"{play.name} is a player, not a source of abilities")
            if play.kind == "activate" and play.speed == "loyalty" and play.name in self.objects:
                self.obj(play.name, play.at("name"), ("planeswalker",))
            for i, target in enumerate(play.targets):
                where = play.at(f"target.{i}")
                if target.name in self.players:
                    continue
                if not target.quoted:
                    if target.name in self.objects or target.name in stacked:
                        self.add(where, f"an object's name is written in quotes: {_q(target.name)}")
                    elif target.name in self.teams:
                        self.add(
                            where, f"{target.name} is a team; a target is a player or an object"
                        )
                    else:
                        self.player(target.name, where)
                elif target.name in self.objects or target.name in stacked:
                    continue
                elif target.name in self.teams:
                    self.add(where, f"{target.name} is a team; a target is a player or an object")
                else:
                    hint = self._suggest(target.name, list(self.objects) + list(self.players))
                    self.add(
                        where,
                        f"unknown target {_q(target.name)}: it is neither a player nor an object "
                        "(on the battlefield or on the stack)" + hint,
                    )

    def team_members(self) -> None:
        on_team: dict[str, Team] = {}
        for team in self.sc.teams:
            for member in team.members:
                where = team.at(f"player:{member}")
                if not self.player(member, where):
                    continue
                if member in on_team:
                    other = on_team[member]
                    self.add(
                        where,
                        f"{member} is already on team {other.name} (line {other.line}); "
                        "a player is on one team",
                    )
                else:
                    on_team[member] = team

    def declarations(self) -> None:
        attacked: dict[str, int] = {}
        for attack in self.sc.attacks:
            if self.obj(attack.attacker, attack.at("attacker"), ("creature",)):
                before = attacked.get(attack.attacker)
                if before is not None:
                    self.add(
                        attack.at("attacker"),
                        f"{_q(attack.attacker)} is already declared attacking at line {before}",
                    )
                attacked[attack.attacker] = attack.line
            target, where = attack.target, attack.at("target")
            if attack.target_quoted and target not in self.players:
                if target in self.objects:
                    self.obj(target, where, ("planeswalker", "battle"))
                else:
                    self.obj(target, where)
            elif not attack.target_quoted:
                if target in self.objects:
                    self.add(where, f"an object's name is written in quotes: {_q(target)}")
                else:
                    self.player(target, where)
        blocked: dict[tuple[str, str], int] = {}
        for block in self.sc.blocks:
            ok = self.obj(block.blocker, block.at("blocker"), ("creature",))
            ok = self.obj(block.attacker, block.at("attacker"), ("creature",)) and ok
            pair = (block.blocker, block.attacker)
            if ok and pair in blocked:
                self.add(block.at(), f"this block is already declared at line {blocked[pair]}")
            blocked[pair] = block.line
        banded: dict[str, int] = {}
        for band in self.sc.bands:
            for i, member in enumerate(band.members):
                where = band.at(f"member.{i}")
                if not self.obj(member, where, ("creature",)):
                    continue
                if member in banded:
                    self.add(where, f"{_q(member)} is already in the band at line {banded[member]}")
                banded[member] = band.line

    # ---- damage assignments (`"C" assigns N damage to X, ...`)

    def in_combat(self, name: str) -> bool:
        return any(a.attacker == name for a in self.sc.attacks) or any(
            b.blocker == name for b in self.sc.blocks
        )

    def band_mates(self, name: str) -> set[str]:
        mates = {name}
        for band in self.sc.bands:
            if name in band.members:
                mates.update(band.members)
        return mates

    def damage_recipients(self, name: str) -> set[str]:
        """Whom a creature in combat may be given damage to: what it attacks and
        its blockers (those of its band too), or the attackers it blocks."""
        sc = self.sc
        out: set[str] = set()
        for attack in sc.attacks:
            if attack.attacker == name:
                out.add(attack.target)
                mates = self.band_mates(name)
                out.update(b.blocker for b in sc.blocks if b.attacker in mates)
        for block in sc.blocks:
            if block.blocker == name:
                out.update(self.band_mates(block.attacker))
        return out

    def assignments(self) -> None:
        seen: dict[str, int] = {}
        for made in self.sc.assignments:
            name, where = made.creature, made.at("creature")
            if not self.obj(name, where, ("creature",)):
                continue
            if name in seen:
                self.add(where, f"{_q(name)} already has a damage assignment at line {seen[name]}")
                continue
            seen[name] = made.line
            if not self.in_combat(name):
                self.add(
                    where,
                    f"{_q(name)} is neither attacking nor blocking, so it assigns no combat damage",
                )
                continue
            allowed = self.damage_recipients(name)
            wrong = False
            for k, (recipient, _, quoted) in enumerate(made.amounts):
                spot = made.at(f"recipient.{k}")
                if quoted and recipient not in self.players:
                    if not self.obj(recipient, spot):
                        wrong = True
                        continue
                elif not quoted:
                    if recipient in self.objects:
                        self.add(spot, f"an object's name is written in quotes: {_q(recipient)}")
                        wrong = True
                        continue
                    if not self.player(recipient, spot):
                        wrong = True
                        continue
                if recipient not in allowed:
                    shown = _q(recipient) if recipient in self.objects else recipient
                    self.add(
                        spot,
                        f"{_q(name)} can't assign damage to {shown}: it is not what {_q(name)} "
                        "attacks, one of its blockers or a creature it blocks",
                    )
                    wrong = True
            power = self.objects[name].power or 0
            total = made.total()
            if not wrong and total != max(power, 0):
                self.add(
                    made.at("amount.0"),
                    f"the amounts assigned by {_q(name)} add up to {total}, but its power is "
                    f"{power}: a creature assigns damage equal to its power"
                    + (" (0 or less: none)" if power <= 0 else ""),
                )

    def events(self) -> None:
        for event in self.sc.events:
            kind, args = event.kind, event.args
            if kind == "damage":
                recipient, where = args[1], event.at("recipient")
                if event.recipient_quoted and recipient not in self.players:
                    self.obj(recipient, where)
                elif not event.recipient_quoted:
                    if recipient in self.objects:
                        self.add(where, f"an object's name is written in quotes: {_q(recipient)}")
                    else:
                        self.player(recipient, where)
            elif kind in ("exchange_life", "makes_choose"):
                self.player(args[0], event.at("player"))
                self.player(args[1], event.at("other"))
            elif kind not in ("combat_damage", "simultaneous"):
                self.player(args[0], event.at("player"))

    # ---- all of it

    def run(self, checked: list | None = None) -> None:
        if not self.sc.players:
            line, column = self.first_statement()
            raise ScenarioError(
                "no players: a scenario names its players first, as in 'players: Ann, Ben'",
                filename=self.sc.filename,
                line=line,
                column=column,
                source_line=self.sc.source_line(line),
            )
        self.names()
        self.references()
        found = table_errors(self.sc, self.lang, checked)
        # the rule base's faults of one statement come with the names ...
        self.errors += [(line, column, text) for line, column, text, first in found if first]
        self.flush()
        # ... and the table's shape once every name is right
        self.errors = [(line, column, text) for line, column, text, first in found if not first]
        self.flush()


def validate(scenario: Scenario, lang: str = "en", checked: list | None = None) -> None:
    """Raise ScenarioError for the first problem written in the file, if any:
    names and references here with the faults of one statement, then the
    table's shape; the rule base (rules/100_input_checks.lp) says every one
    of them that is a rule of the game. `checked`: the input checks' shown
    atoms for this table, when solved already (checks.input_errors_many)."""
    _Checker(scenario, lang).run(checked)
