"""A parsed Scenario as its JSON game state: what its text says, as data
(`mtgkb convert`, `POST /v1/facts`). The inverse of mtgkb.language.state_writer:
a state written as text and read back is the same state."""

from __future__ import annotations

from typing import Any

from mtgkb.language.model import Ability, Event, Question, Scenario
from mtgkb.language.state_writer import PLAYER_EVENTS
from mtgkb.rulebase import registry
from mtgkb.rulebase.vocabulary import vocabulary


def hyphens(word: str) -> str:
    """A constant of the facts as the language writes it (`two-headed-giant`)."""
    return word.replace("_", "-")


def scenario_state(scenario: Scenario) -> dict:
    """The JSON state of a parsed scenario: what its text says, nothing
    derived (the defaults stay the rule base's)."""
    return StateReader(scenario).state()


class StateReader:
    def __init__(self, scenario: Scenario) -> None:
        self.sc = scenario
        self.vocab = vocabulary()

    def ability(self, ability: Ability) -> str | dict:
        """An ability as the state writes it (its first phrase in the vocabulary)."""
        simple = not ability.args
        for word in self.vocab.abilities:
            if word.name != ability.name or word.shape == "suffix":
                continue
            if (word.shape == "simple") != simple:
                continue
            if simple:
                return word.phrase
            args = ability.args
            if word.shape == "number":
                return {word.phrase: int(args[0])}
            if word.shape == "types":
                return {word.phrase: list(args)}
            if word.shape == "counter":
                written = {const: kind for kind, const in self.vocab.counter_kinds}
                return {word.phrase: {"kind": written.get(args[0], args[0]), "count": int(args[1])}}
            return {word.phrase: args[0]}
        raise ValueError(f"no phrase for the ability {ability.name}")  # pragma: no cover

    def player_ability(self, name: str, color: str | None) -> str | dict:
        return self.ability(Ability(name=name, args=(color,) if color else ()))

    def state(self) -> dict:
        sc = self.sc
        out: dict[str, Any] = {}
        if sc.game_given and sc.game is not None:
            out["game"] = hyphens(sc.game)
        options = [
            hyphens(o.name) if o.value is None else {"name": hyphens(o.name), "value": o.value}
            for o in sc.options
        ]
        put = self.put
        put(out, "options", options)
        put(out, "players", [p.name for p in sorted(sc.players, key=lambda p: p.seat)])
        put(out, "teams", [{"name": t.name, "members": list(t.members)} for t in sc.teams])
        if sc.active:
            out["active"] = sc.active
        if sc.starting:
            out["starting"] = sc.starting
        if "phase" in sc.settings:
            out["phase"] = hyphens(sc.phase)
        put(out, "emperors", [s.name for s in sc.emperors])
        put(out, "archenemies", [s.name for s in sc.archenemies])
        put(out, "vanguards", {s.name: s.value for s in sc.vanguards})
        put(out, "ranges", {s.name: s.value for s in sc.ranges})
        put(out, "life", {s.name: s.value for s in sc.life})
        put(out, "poison", {s.name: s.value for s in sc.poison})
        if sc.max_attackers is not None:
            out["max_attackers"] = sc.max_attackers.count
        put(
            out,
            "commander_damage",
            [
                {"player": c.player, "amount": c.amount, "commander": c.commander}
                for c in sc.commander_damage
            ],
        )
        put(
            out,
            "player_abilities",
            [
                {"player": a.player, "ability": self.player_ability(a.ability, a.color)}
                for a in sc.player_abilities
            ],
        )
        put(
            out,
            "player_controls",
            [{"controller": c.controller, "controlled": c.controlled} for c in sc.player_controls],
        )
        if sc.priority:
            out["priority"] = sc.priority
        if "stack" in sc.settings:
            out["stack"] = [{"name": s.name, "controller": s.controller} for s in sc.stack]
        put(out, "lands_played", {s.name: s.value for s in sc.lands_played})
        put(out, "objects", [self.object(o) for o in sc.objects])
        put(out, "loyalty_used", [s.name for s in sc.loyalty_used])
        put(
            out,
            "defending_choices",
            [{"player": c.player, "defender": c.defender} for c in sc.defending_choices],
        )
        put(out, "attacks", [{"attacker": a.attacker, "target": a.target} for a in sc.attacks])
        put(out, "bands", [list(b.members) for b in sc.bands])
        put(out, "blocks", self.blocks(sc.blocks))
        put(
            out,
            "assignments",
            [
                {"creature": a.creature, "damage": {r: amount for r, amount, _ in a.amounts}}
                for a in sc.assignments
            ],
        )
        put(out, "plays", [self.play(p) for p in sc.plays])
        put(out, "events", [self.event(e) for e in sc.events])
        put(out, "triggers", [{"name": t.name, "controller": t.controller} for t in sc.triggers])
        put(out, "questions", [self.question(q) for q in sc.questions])
        return out

    @staticmethod
    def put(out: dict, key: str, value: Any) -> None:
        if value:
            out[key] = value

    def object(self, obj) -> dict:
        made: dict[str, Any] = {
            "name": obj.name,
            "controller": obj.controller,
            "type": obj.card_type,
        }
        for key in ("power", "toughness", "loyalty", "defense"):
            if getattr(obj, key) is not None:
                made[key] = getattr(obj, key)
        if obj.protector is not None:
            made["protected_by"] = obj.protector
        if obj.abilities:
            made["abilities"] = [self.ability(a) for a in obj.abilities]
        return made

    @staticmethod
    def blocks(blocks) -> list[dict]:
        """The blocks, one item per statement (a blocker of several attackers
        is one statement, 509.1a)."""
        out: list[dict] = []
        last = None
        for block in blocks:
            key = (block.line, block.column, block.blocker)
            if out and key == last:
                out[-1]["attackers"].append(block.attacker)
            else:
                out.append({"blocker": block.blocker, "attackers": [block.attacker]})
            last = key
        return out

    @staticmethod
    def play(play) -> dict:
        made: dict[str, Any] = {"kind": play.kind, "player": play.player}
        if play.kind == "concede":
            made["other"] = play.other
            return made
        made["name"] = play.name
        if play.kind == "cast":
            made["spell_type"] = hyphens(play.spell_type)
            if play.flash:
                made["flash"] = True
            if play.colors:
                made["colors"] = list(play.colors)
        if play.speed is not None:
            made["speed"] = play.speed
        if play.targets:
            made["targets"] = [t.name for t in play.targets]
        return made

    def event(self, event: Event) -> dict:
        kind, args = event.kind, event.args
        made: dict[str, Any] = {"kind": kind}
        if kind == "damage":
            made.update(source=args[0], recipient=args[1], amount=args[2])
        elif kind in ("lose_life", "gain_life", "pay_life", "poison"):
            made.update(player=args[0], amount=args[1])
            if event.source is not None:
                made["source"] = event.source
        elif kind == "set_life":
            made.update(player=args[0], life=args[1])
        elif kind in ("exchange_life", "makes_choose"):
            made.update(player=args[0], other=args[1])
        elif kind in PLAYER_EVENTS:
            made["player"] = args[0]
        elif kind == "simultaneous":
            made.update(action=args[0], items=list(event.items))
            if event.in_order:
                made["in_order"] = True
            if event.hidden:
                made["hidden"] = True
        elif kind == "prevent_combat_damage_by":
            made["source"] = args[0]
        elif kind == "prevent_next_damage":
            made.update(recipient=args[0], amount=args[1])
        elif kind == "after_first_strike":
            made.update(creature=args[0], change=args[1])
            if args[1] == "gets":
                made.update(power=args[2], toughness=args[3])
            else:
                made["ability"] = self.ability(Ability(name=args[2]))
        return made

    def question(self, question: Question) -> dict:
        entry = registry.get(question.kind)
        made: dict[str, Any] = {"ask": entry.ask if entry is not None else question.kind}
        params = question.params
        kind = question.kind
        if kind == "can":
            field_name = params["field"]
            made["declaration"] = field_name
            made["play"] = self.can_play(field_name, params)
            return made
        if kind == "explain":
            only = params.get("only")
            if only is not None:
                made["only"] = registry.get(only).ask
            return made
        for key, value in params.items():
            if value is not None:
                made[key] = value
        return made

    def can_play(self, field_name: str, params: dict) -> Any:
        if field_name == "targets":
            return {"player": params["player"], "target": params["target"]}
        play = params["play"]
        if field_name == "blocks":
            return self.blocks(params.get("plays") or [play])[0]
        if field_name == "plays":
            return self.play(play)
        if field_name == "defending_choices":
            return {"player": play.player, "defender": play.defender}
        if field_name == "attacks":
            return {"attacker": play.attacker, "target": play.target}
        if field_name == "bands":
            return list(play.members)
        if field_name == "assignments":
            return {"creature": play.creature, "damage": {r: a for r, a, _ in play.amounts}}
        raise ValueError(f"no state for a play of {field_name}")  # pragma: no cover
