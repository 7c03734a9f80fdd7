"""A typed scenario into the input facts of docs/predicates.md, section 1.

Facts are built as clingo symbols through the API: a user's name is always a
`clingo.String`, so whatever it contains it never becomes program text.
Vocabulary words are constants (`two_headed_giant`, `cant_attack`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from clingo import Function, Number, String, Symbol

from mtgkb.language.model import Event, Option, Question, Scenario
from mtgkb.rulebase import registry

# The input predicates in the order docs/predicates.md lists them; facts_text
# prints facts grouped by predicate in this order.
SCHEMA: tuple[tuple[str, int], ...] = (
    # the table
    ("game", 1),
    ("option", 1),
    ("player", 1),
    ("seat", 2),
    ("team", 2),
    ("active", 1),
    ("starting", 1),
    ("phase", 1),
    ("emperor", 1),
    ("archenemy", 1),
    ("vanguard", 2),
    ("range", 2),
    ("life_given", 2),
    ("unwritten", 1),
    # objects
    ("object", 1),
    ("controls", 2),
    ("card_type", 2),
    ("power", 2),
    ("toughness", 2),
    ("loyalty", 2),
    ("defense", 2),
    ("protects", 2),
    ("land_type", 2),
    ("has", 2),
    ("color", 2),
    ("protection", 2),
    ("cant_attack_player", 2),
    ("landwalk", 2),
    ("landwalk_requires", 3),
    ("max_attackers", 1),
    ("toxic", 2),
    ("min_blockers", 2),
    ("hexproof_from", 2),
    ("damage_given", 2),
    ("counters_given", 3),
    # players in full (spec section 8)
    ("poison_given", 2),
    ("commander_damage_given", 3),
    ("player_has", 2),
    ("controls_player", 2),
    ("priority", 1),
    ("stack_item", 3),
    ("lands_played", 2),
    ("loyalty_activated", 1),
    # declarations
    ("chooses_defending", 2),
    ("declared_attack", 2),
    ("band", 2),
    ("declared_block", 2),
    ("play", 3),
    ("play_name", 2),
    ("spell_type", 2),
    ("play_flash", 1),
    ("play_speed", 2),
    ("play_target", 2),
    ("play_other", 2),
    ("spell", 1),
    ("declared_block_order", 3),
    ("declared_assignment", 3),
    # events
    ("event", 2),
    ("event_source", 2),
    ("choice_item", 3),
    ("choice_in_order", 1),
    ("choice_hidden", 1),
    ("trigger", 2),
    # questions
    ("asked", 1),
)
_RANK = {signature: i for i, signature in enumerate(SCHEMA)}
# The input predicates kb/variants.lp completes with the spec's defaults where
# a file is silent: a derived atom of these is an input fact all the same.
DEFAULTED: frozenset[tuple[str, int]] = frozenset(
    {("game", 1), ("option", 1), ("active", 1), ("starting", 1)}
)


def _const(word: str) -> Symbol:
    """A vocabulary word as a constant: hyphens and spaces become underscores."""
    return Function(word.replace("-", "_").replace(" ", "_").replace("'", ""))


def _f(name: str, *args: Symbol) -> Symbol:
    return Function(name, list(args))


def _event_term(event: Event) -> Symbol:
    kind, args = event.kind, event.args
    if kind == "damage":
        source, recipient, amount = args
        return _f("damage", String(source), String(recipient), Number(amount))
    if kind in ("lose_life", "gain_life", "pay_life", "set_life"):
        return _f(kind, String(args[0]), Number(args[1]))
    if kind in ("exchange_life", "makes_choose"):
        return _f(kind, String(args[0]), String(args[1]))
    if kind == "poison":
        return _f("poison", String(args[0]), Number(args[1]))
    if kind in ("cant_gain_life", "cant_lose_life", "cant_lose_game", "cant_get_poison", "concede"):
        return _f(kind, String(args[0]))
    if kind in ("combat_damage", "check_state_based_actions"):
        return _const(kind)
    if kind == "simultaneous":
        return _f("simultaneous", _const(args[0]))
    if kind == "prevent_combat_damage":
        return _const("prevent_combat_damage")
    if kind == "prevent_combat_damage_by":
        return _f("prevent_combat_damage_by", String(args[0]))
    if kind == "prevent_next_damage":
        return _f("prevent_next_damage", String(args[0]), Number(args[1]))
    if kind == "after_first_strike":
        if args[1] == "gets":
            change = _f("gets", Number(args[2]), Number(args[3]))
        else:
            change = _f(args[1], _const(args[2]))
        return _f("after_first_strike", String(args[0]), change)
    raise ValueError(f"unknown event kind {kind!r}")  # pragma: no cover - the parser makes no other


def question_symbol(question: Question) -> Symbol:
    """The argument of `asked/1` for one question (`legal`, `pay("Ann",5)`, ...):
    its kind, with the parameters its registry entry names when all are given."""
    kind, params = question.kind, question.params
    entry = registry.get(kind)
    names = entry.asked if entry is not None else ()
    if names and all(params.get(name) is not None for name, _ in names):
        args = [Number(params[n]) if t == "number" else String(params[n]) for n, t in names]
        return _f(kind, *args)
    return _const(kind)


def option_symbol(option: Option) -> Symbol:
    """The argument of `option/1`: `attack_left`, `range_of_influence(2)`, ..."""
    if option.name == "range_of_influence":
        return _f("range_of_influence", Number(option.value or 0))
    return _const(option.name)


class Facts(list):
    """Input facts whose question atoms (`asked/1`) come last and are known
    as such: `fixed` and `asked` split them without reading any fact's name
    from clingo (a call into clingo each, and a file's answers split its
    facts a dozen times)."""

    __slots__ = ("asked", "signatures", "arguments")

    def __init__(
        self,
        fixed: Iterable[Symbol],
        asked: Iterable[Symbol] = (),
        signatures: Iterable[tuple[str, int]] | None = None,
        arguments: Iterable[tuple[Symbol, ...]] | None = None,
    ):
        """`signatures`: the (name, arity) of each of the `fixed` facts, in
        order, where they are known (None: not known; fact_signatures);
        `arguments`: likewise the arguments of each, the very symbols the
        facts were made of (fact_arguments)."""
        super().__init__(fixed)
        self.asked = tuple(asked)
        self.signatures = None if signatures is None else tuple(signatures)
        self.arguments = None if arguments is None else tuple(arguments)
        self.extend(self.asked)

    @property
    def fixed(self) -> list[Symbol]:
        return self[: len(self) - len(self.asked)]


def fixed_facts(facts: Sequence[Symbol]) -> list[Symbol]:
    """The facts that are not questions."""
    if isinstance(facts, Facts):
        return facts.fixed
    return [s for s in facts if s.name != "asked"]


def fact_signatures(facts: Sequence[Symbol]) -> tuple[tuple[str, int], ...] | None:
    """The (name, arity) of each fact that is not a question, in order,
    where they were kept when the facts were made (scenario_facts); else None."""
    return facts.signatures if isinstance(facts, Facts) else None


def fact_arguments(facts: Sequence[Symbol]) -> tuple[tuple[Symbol, ...], ...] | None:
    """The arguments of each fact that is not a question, in order, where
    they were kept when the facts were made (scenario_facts); else None.
    (Reading a symbol's arguments back is a call into clingo, and each of
    them another to read its text.)"""
    return facts.arguments if isinstance(facts, Facts) else None


def asked_facts(facts: Sequence[Symbol]) -> tuple[Symbol, ...]:
    """The question atoms (`asked/1`) among the facts, in order."""
    if isinstance(facts, Facts):
        return facts.asked
    return tuple(s for s in facts if s.name == "asked")


def scenario_facts(scenario: Scenario) -> Facts:
    """Every input fact of the scenario as written (kb/variants.lp derives the
    defaults), in schema order, no repeats; its questions last."""
    sc = scenario
    out: list[Symbol] = []
    # each fact's (name, arity) and arguments, known here (reading them back
    # is a call into clingo)
    signatures: list[tuple[str, int]] = []
    arguments: list[tuple[Symbol, ...]] = []

    def add(name: str, *args: Symbol) -> None:
        out.append(Function(name, list(args)))
        signatures.append((name, len(args)))
        arguments.append(args)

    # each name, number and word made once (a call into clingo each): a
    # creature's controller, type and power recur across a large table
    string, number, const = cache(String), cache(Number), cache(_const)

    # the table
    if sc.game is not None:
        add("game", const(sc.game))
    for option in sc.options:
        add("option", option_symbol(option))
    for player in sc.players:
        add("player", string(player.name))
    for player in sc.players:
        add("seat", string(player.name), number(player.seat))
    for team in sc.teams:
        for member in team.members:
            add("team", string(team.name), string(member))
    if sc.active:
        add("active", string(sc.active))
    if sc.starting:
        add("starting", string(sc.starting))
    add("phase", const(sc.phase))
    for setting in sc.emperors:
        add("emperor", string(setting.name))
    for setting in sc.archenemies:
        add("archenemy", string(setting.name))
    for setting in sc.vanguards:
        add("vanguard", string(setting.name), number(setting.value))
    for setting in sc.ranges:
        add("range", string(setting.name), number(setting.value))
    for setting in sc.life:
        add("life_given", string(setting.name), number(setting.value))
    # what the file leaves out: kb/variants.lp derives the spec's defaults
    if sc.game is None:
        add("unwritten", const("game"))
    if not sc.active:
        add("unwritten", const("active"))
    if not sc.starting:
        add("unwritten", const("starting"))

    # objects
    for obj in sc.objects:
        o = string(obj.name)
        add("object", o)
        add("controls", string(obj.controller), o)
        add("card_type", o, const(obj.card_type))
        for attribute in ("power", "toughness", "loyalty", "defense"):
            value = getattr(obj, attribute)
            if value is not None:
                add(attribute, o, number(value))
        if obj.protector is not None:
            add("protects", string(obj.protector), o)
        walk = 0
        for ability in obj.abilities:
            if ability.name == "land_type":
                add("land_type", o, string(ability.args[0]))
            elif ability.name in ("color", "protection", "hexproof_from"):
                add(ability.name, o, const(ability.args[0]))
            elif ability.name == "cant_attack_player":
                add("cant_attack_player", o, string(ability.args[0]))
            elif ability.name == "toxic":
                add("toxic", o, number(int(ability.args[0])))
            elif ability.name == "min_blockers":
                add("min_blockers", o, number(int(ability.args[0])))
            elif ability.name == "damage_given":
                add("damage_given", o, number(int(ability.args[0])))
            elif ability.name == "counters_given":
                kind, count = ability.args
                add("counters_given", o, const(kind), number(int(count)))
            elif ability.name == "landwalk":
                walk += 1
                add("landwalk", o, number(walk))
                for required in ability.args:
                    add("landwalk_requires", o, number(walk), string(required))
            else:
                add("has", o, const(ability.name))
    if sc.max_attackers is not None:
        add("max_attackers", number(sc.max_attackers.count))

    # players in full (spec section 8)
    for setting in sc.poison:
        add("poison_given", string(setting.name), number(setting.value))
    for given in sc.commander_damage:
        add(
            "commander_damage_given",
            string(given.player),
            string(given.commander),
            number(given.amount),
        )
    for ability in sc.player_abilities:
        if ability.ability == "protection":
            add("protection", string(ability.player), const(ability.color))
        else:
            add("player_has", string(ability.player), const(ability.ability))
    for control in sc.player_controls:
        add("controls_player", string(control.controller), string(control.controlled))
    if sc.priority:
        add("priority", string(sc.priority))
    for pos, item in enumerate(sc.stack, start=1):
        add("stack_item", number(pos), string(item.name), string(item.controller))
    for setting in sc.lands_played:
        add("lands_played", string(setting.name), number(setting.value))
    for setting in sc.loyalty_used:
        add("loyalty_activated", string(setting.name))

    # declarations
    for choice in sc.defending_choices:
        add("chooses_defending", string(choice.player), string(choice.defender))
    for attack in sc.attacks:
        add("declared_attack", string(attack.attacker), string(attack.target))
    for band in sc.bands:
        for member in band.members:
            add("band", number(band.index), string(member))
    for block in sc.blocks:
        add("declared_block", string(block.blocker), string(block.attacker))
    for play in sc.plays:
        k = number(play.index)
        add("play", k, string(play.player), const(play.kind))
        if play.kind == "concede":
            add("play_other", k, string(play.other))
            continue
        add("play_name", k, string(play.name))
        if play.kind == "cast":
            add("spell_type", k, const(play.spell_type))
            add("spell", string(play.name))
            for color in play.colors:
                add("color", string(play.name), const(color))
            if play.flash:
                add("play_flash", k)
        if play.speed is not None:
            add("play_speed", k, const(play.speed))
        for target in play.targets:
            add("play_target", k, string(target.name))
    for k, block in enumerate(sc.blocks, start=1):
        add("declared_block_order", string(block.blocker), string(block.attacker), number(k))
    for assignment in sc.assignments:
        for recipient, amount, _ in assignment.amounts:
            add(
                "declared_assignment",
                string(assignment.creature),
                string(recipient),
                number(amount),
            )

    # events
    for event in sc.events:
        i = number(event.index)
        add("event", i, _event_term(event))
        if event.source is not None:
            add("event_source", i, string(event.source))
        for j, item in enumerate(event.items, start=1):
            add("choice_item", i, number(j), string(item))
        if event.in_order:
            add("choice_in_order", i)
        if event.hidden:
            add("choice_hidden", i)
    for trigger in sc.triggers:
        add("trigger", string(trigger.name), string(trigger.controller))

    # questions
    asked = [_f("asked", question_symbol(question)) for question in sc.questions]
    # (no repeats: equal facts, one signature and equal arguments)
    signed = dict(zip(out, zip(signatures, arguments, strict=True), strict=True))
    known = signed.values()
    return Facts(signed, dict.fromkeys(asked), [s for s, _ in known], [a for _, a in known])


def _rank(symbol: Symbol) -> tuple[int, str]:
    signature = (symbol.name, len(symbol.arguments))
    return (_RANK.get(signature, len(_RANK)), symbol.name if signature not in _RANK else "")


def facts_text(symbols: Iterable[Symbol]) -> str:
    """One `atom.` per line, grouped by predicate in schema order (stable within a group)."""
    ordered: Sequence[Symbol] = sorted(symbols, key=_rank)
    return "".join(f"{symbol}.\n" for symbol in ordered)
