"""Checks that a parsed scenario makes sense before any rule is asked.

Bad input is refused here with the place it was written: an unknown player
or object, a name used twice, a reference to something that is not there.
Whether the table is one its variant allows (805.1, 806.2b, 808.1, 809.1,
809.2, 810.1, 810.11, 904.2, 904.2a) is a rule of the game, so the rule base
says it (`rules/100_input_checks.lp`, asked by mtgkb.language.checks). Whether a
*play* is legal is not checked here either: that is `ask legal`.

Whether a declared attack, block, band or damage assignment may be made is
the rule base's too (508.1a-b, 509.1a, 510.1, 702.22c: violations), and so
is whether a starting state is one the game allows (810.4, 810.10, 722.1,
903.3: input errors). A question's parameters are checked against the types
its registry entry declares (mtgkb.rulebase.registry, Entry.asked).

Checks run in two rounds (names and references, with the rule base's faults
of one statement: 702.22c, 101.4d, 810.4, 810.10, 722.1, 903.3, 904.2a;
then the table); within a round the error written first in the file is the
one reported. Every text is the rule base's, in English and Italian
(kb/input_messages.lp).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mtgkb.language.checks import say, table_errors
from mtgkb.language.errors import ScenarioError
from mtgkb.language.model import Position, Scenario, Team
from mtgkb.rulebase import registry

# What a question's parameter of each type (Entry.asked) must name: "player"
# a player, the others an object on the battlefield of these card types (any: ());
# "combatant" a creature the file declares attacking or blocking.
NAMED: dict[str, tuple[str, ...]] = {
    "player": (),
    "creature": ("creature",),
    "combatant": ("creature",),
    "object": (),
}


def _q(name: str) -> str:
    """A name as shown in messages."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Checker:
    def __init__(self, sc: Scenario, lang: str = "en") -> None:
        self.sc = sc
        self.lang = lang  # the language of the errors' texts
        self.errors: list[tuple[int, int, str]] = []
        self.players = {p.name: p for p in sc.players}
        self.teams = {t.name: t for t in sc.teams}
        self.objects = {o.name: o for o in sc.objects}

    # ---- reporting

    def say(self, kind: str, *args: str) -> str:
        """The text of `kind` in the checker's language, {1}, {2}... filled in."""
        return say(kind, self.lang, *args)

    def add(self, where: Position, kind: str, *args: str) -> None:
        self.errors.append((where[0], where[1], self.say(kind, *args)))

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
        import difflib  # (an error of the file: not imported for every run)

        choices = list(choices)
        close = difflib.get_close_matches(name, choices, n=1, cutoff=0.75)
        if close:
            return self.say("hint_close", close[0])
        if 0 < len(choices) <= 8:
            return self.say("hint_known", ", ".join(choices))
        return ""

    def what_is(self, name: str) -> str | None:
        if name in self.players:
            return self.say("thing_player")
        if name in self.teams:
            return self.say("thing_team")
        if name in self.objects:
            return self.say("thing_" + self.objects[name].card_type)
        if any(t.name == name for t in self.sc.triggers):
            return self.say("thing_trigger")
        return None

    def player(self, name: str, where: Position) -> bool:
        if name in self.players:
            return True
        kind = self.what_is(name)
        if kind:
            self.add(where, "not_a_player", name, kind)
        else:
            self.add(where, "unknown_player", name, self._suggest(name, self.players))
        return False

    def obj(self, name: str, where: Position, card_types: tuple[str, ...] = ()) -> bool:
        found = self.objects.get(name)
        if found is None:
            kind = self.what_is(name)
            if kind:
                self.add(where, "not_an_object", _q(name), kind)
            else:
                hint = self._suggest(name, self.objects) if len(self.objects) <= 200 else ""
                self.add(where, "unknown_object", _q(name), hint)
            return False
        if card_types and found.card_type not in card_types:
            wanted = self.say("word_or").join(self.say("thing_" + t) for t in card_types)
            self.add(where, "wrong_card_type", _q(name), self.what_is(name) or "", wanted)
            return False
        return True

    # ---- round 1: names and references

    def names(self) -> None:
        sc = self.sc
        declared: list[tuple[Position, str, str]] = []
        declared += [(p.at(), p.name, "named_player") for p in sc.players]
        declared += [(t.at("name"), t.name, "named_team") for t in sc.teams]
        declared += [(o.at("name"), o.name, "named_object") for o in sc.objects]
        declared += [(t.at("name"), t.name, "named_trigger") for t in sc.triggers]
        declared += [(s.at("name"), s.name, "named_stack_item") for s in sc.stack]
        declared.sort(key=lambda d: d[0])
        seen: dict[str, tuple[str, int]] = {}
        for where, name, kind in declared:
            if name in seen:
                other, line = seen[name]
                self.add(where, "duplicate_name", _q(name), self.say(other), str(line))
            else:
                seen[name] = (kind, where[0])

    def references(self) -> None:
        sc = self.sc
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
        self.questions()

    def questions(self) -> None:
        """Each question's parameters, checked against the type its registry
        entry declares (mtgkb.rulebase.registry: Entry.asked); `ask can`'s
        play as its declaration would be."""
        for q in self.sc.questions:
            entry = registry.get(q.kind)
            for name, kind in entry.asked if entry is not None else ():
                value = q.get(name)
                if value is None or kind not in NAMED:
                    continue
                if kind == "player":
                    self.player(value, q.at(name))
                elif self.obj(value, q.at(name), NAMED[kind]) and kind == "combatant":
                    if not self.in_combat(value):
                        self.add(q.at(name), "asked_assigner_out_of_combat", _q(value))
            if q.kind == "can":
                self.play(q)

    def in_combat(self, name: str) -> bool:
        """Is this creature declared attacking or blocking (a "combatant")."""
        return any(a.attacker == name for a in self.sc.attacks) or any(
            b.blocker == name for b in self.sc.blocks
        )

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
                    self.add(where, "name_needs_quotes", _q(target))
                else:
                    self.player(target, where)
            return
        probe = _Checker(
            replace(self.sc, **{q["field"]: q.get("plays") or [q["play"]]}, questions=[]),
            self.lang,
        )
        probe.references()
        self.errors += probe.errors

    def recipient(self, name: str, quoted: bool, where: Position) -> None:
        """A player written bare or an object written in quotes: what an attack,
        a damage event, a prevention shield or an assignment names."""
        if quoted and name not in self.players:
            self.obj(name, where)
        elif not quoted:
            if name in self.objects:
                self.add(where, "name_needs_quotes", _q(name))
            else:
                self.player(name, where)

    def player_or_team(self, name: str, where: Position) -> bool:
        """A name a `life:` or `poison:` line may give: a player's or a team's.
        Which of the two the game's rules ask for (810.4, 810.10) is the rule
        base's (rules/100_input_checks.lp)."""
        if name in self.players or name in self.teams:
            return True
        if not self.teams:
            return self.player(name, where)
        kind = self.what_is(name)
        if kind:
            self.add(where, "not_a_player_or_team", _q(name), kind)
        else:
            known = list(self.players) + list(self.teams)
            self.add(where, "unknown_player_or_team", name, self._suggest(name, known))
        return False

    def life(self) -> None:
        for setting in self.sc.life:
            self.player_or_team(setting.name, setting.at("player"))

    # ---- section 8: counters, players' abilities, control of players, timing

    def players_in_full(self) -> None:
        sc = self.sc
        for setting in sc.poison:
            self.player_or_team(setting.name, setting.at("player"))
        for given in sc.commander_damage:
            self.player(given.player, given.at("player"))
            if given.commander in self.players or given.commander in self.teams:
                kind = self.what_is(given.commander) or ""
                self.add(given.at("commander"), "commander_is_no_object", given.commander, kind)
        for ability in sc.player_abilities:
            self.player(ability.player, ability.at("player"))
        for control in sc.player_controls:
            self.player(control.controller, control.at("controller"))
            self.player(control.controlled, control.at("controlled"))
        setting = sc.settings.get("priority")
        if setting is not None:
            self.player(setting.value, setting.at("value"))
        for item in sc.stack:
            self.player(item.controller, item.at("controller"))
            if item.name in self.players or item.name in self.teams:
                kind = self.what_is(item.name) or ""
                self.add(item.at("name"), "stack_item_not_spell", item.name, kind)
            elif item.name in self.objects:
                kind = self.what_is(item.name) or ""
                self.add(item.at("name"), "stack_item_on_battlefield", _q(item.name), kind)
        for setting in sc.lands_played:
            self.player(setting.name, setting.at("player"))
        for setting in sc.loyalty_used:  # spec section 13 (606.3; 606.2 is the rule base's)
            self.obj(setting.name, setting.at("name"))
        self.plays()

    def plays(self) -> None:
        sc = self.sc
        stacked = {item.name for item in sc.stack}
        cast_names: dict[str, int] = {}
        for play in sc.plays:
            self.player(play.player, play.at("player"))
            if play.kind == "concede":
                if self.player(play.other, play.at("other")) and play.other == play.player:
                    self.add(play.at("other"), "concede_form", play.player)
                continue
            if play.kind in ("cast", "land"):
                name, where = play.name, play.at("name")
                kind = self.what_is(name)
                if kind is not None:
                    self.add(where, "play_name_taken", _q(name), kind)
                elif name in cast_names:
                    self.add(where, "play_name_twice", _q(name), str(cast_names[name]))
                cast_names[name] = play.line
            if play.kind == "activate" and play.name in self.players:
                self.add(play.at("name"), "player_not_source", play.name)
            for i, target in enumerate(play.targets):
                where = play.at(f"target.{i}")
                if target.name in self.players:
                    continue
                if not target.quoted:
                    if target.name in self.objects or target.name in stacked:
                        self.add(where, "name_needs_quotes", _q(target.name))
                    elif target.name in self.teams:
                        self.add(where, "target_is_team", target.name)
                    else:
                        self.player(target.name, where)
                elif target.name in self.objects or target.name in stacked:
                    continue
                elif target.name in self.teams:
                    self.add(where, "target_is_team", target.name)
                else:
                    hint = self._suggest(target.name, list(self.objects) + list(self.players))
                    self.add(where, "unknown_target", _q(target.name), hint)

    def team_members(self) -> None:
        on_team: dict[str, Team] = {}
        for team in self.sc.teams:
            for member in team.members:
                where = team.at(f"player:{member}")
                if not self.player(member, where):
                    continue
                if member in on_team:
                    other = on_team[member]
                    self.add(where, "already_on_team", member, other.name, str(other.line))
                else:
                    on_team[member] = team

    def declarations(self) -> None:
        # (What may attack or block, and what may be attacked, is the rule
        # base's: 508.1a-b, 509.1a. A creature declared attacking two things is
        # 508.1b's too; the same statement written twice is the file's fault.)
        attacked: dict[tuple[str, str], int] = {}
        for attack in self.sc.attacks:
            if self.obj(attack.attacker, attack.at("attacker")):
                pair = (attack.attacker, attack.target)
                before = attacked.get(pair)
                if before is not None:
                    self.add(attack.at(), "attack_written_twice", str(before))
                attacked[pair] = attack.line
            self.recipient(attack.target, attack.target_quoted, attack.at("target"))
        blocked: dict[tuple[str, str], int] = {}
        for block in self.sc.blocks:
            ok = self.obj(block.blocker, block.at("blocker"))
            ok = self.obj(block.attacker, block.at("attacker")) and ok
            pair = (block.blocker, block.attacker)
            if ok and pair in blocked:
                self.add(block.at(), "block_written_twice", str(blocked[pair]))
            blocked[pair] = block.line
        # (Who may be in a band, and in how many, is 702.22c's: the rule base's.)
        for band in self.sc.bands:
            for i, member in enumerate(band.members):
                self.obj(member, band.at(f"member.{i}"))

    # ---- damage assignments (`"C" assigns N damage to X, ...`)
    # Whether the creature is in combat, whom it may give damage to and how
    # much it assigns are rules of the game (510.1, 510.1a-d, 702.22h):
    # rules/510_1_assignment_legality.lp judges them. Only names are checked here.

    def assignments(self) -> None:
        seen: dict[str, int] = {}
        for made in self.sc.assignments:
            name, where = made.creature, made.at("creature")
            if not self.obj(name, where):
                continue
            if name in seen:
                self.add(where, "assignment_written_twice", _q(name), str(seen[name]))
                continue
            seen[name] = made.line
            for k, (recipient, _, quoted) in enumerate(made.amounts):
                self.recipient(recipient, quoted, made.at(f"recipient.{k}"))

    def events(self) -> None:
        for event in self.sc.events:
            kind, args = event.kind, event.args
            if kind == "damage":
                self.recipient(args[1], event.recipient_quoted, event.at("recipient"))
            elif kind in ("exchange_life", "makes_choose"):
                self.player(args[0], event.at("player"))
                self.player(args[1], event.at("other"))
            elif kind in ("prevent_combat_damage_by", "after_first_strike"):
                where = event.at("source" if kind == "prevent_combat_damage_by" else "creature")
                self.obj(args[0], where)
            elif kind == "prevent_next_damage":
                self.recipient(args[0], event.recipient_quoted, event.at("recipient"))
            elif kind not in (
                "combat_damage",
                "check_state_based_actions",
                "simultaneous",
                "prevent_combat_damage",
            ):
                self.player(args[0], event.at("player"))

    # ---- all of it

    def run(self, checked: list | None = None) -> None:
        if not self.sc.players:
            line, column = self.first_statement()
            raise ScenarioError(
                self.say("no_players"),
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
