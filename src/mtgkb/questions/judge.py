"""The judge's questions of spec section 10: `ask can PLAY` and `ask fix`.

`ask can PLAY`: the play is the declaration the parser built from it (the
grammar's own declaration statements; mtgkb.questions.plays). It is judged against the scenario as
written without becoming one of its declarations: the facts are those of the
scenario with the file's declarations of the play's step left out and the
play in their place, and `queries/can.lp` lets the other creatures of that
step do anything legal (for attacks and blocks, "some legal declaration of
the step contains the play"). When it cannot be made, `forbidden_by` is a
minimal set of CR rules that together forbid it (mtgkb.engine.cores, through the
switched program of mtgkb.questions.explain's Forbidder over `can.lp`).

`ask fix`: `queries/fix.lp` finds the legal declarations of attackers and
blockers, and targets of the declared spells and abilities, with the fewest
changes to the declared ones (making a choice of defending player the file
left open); here they are read back as changes and choices. Nothing here
is a game rule: which facts belong to which step is the shape of the
language's declarations.
"""

from __future__ import annotations

from dataclasses import replace

import clingo

from mtgkb.engine.solve import Grounding
from mtgkb.language.facts import scenario_facts
from mtgkb.language.model import Attack, Block, ChooseDefending
from mtgkb.questions.answers import solve_single, violation_entries, with_rules
from mtgkb.questions.places import locate, where_written
from mtgkb.questions.plays import STEPS, hypothesis_facts, target_play
from mtgkb.questions.symbols import atoms, cited_rules, values
from mtgkb.rulebase import words as _words
from mtgkb.rulebase.index import sort_key

CORE_TIMEOUT = 5.0
# `ask fix`: how many of the equally close declarations are read to pick the one listed.
FIX_SHOWN = 32
# `ask fix` counts at most this many equally close declarations ("complete":
# false beyond): each is a model to enumerate, and they multiply.
FIX_COUNT_CAP = 100


def _not_built(question, text: str) -> dict:
    return {
        "ask": "can",
        "play": question.get("text", ""),
        "supported": False,
        "message": text,
    }


def answer_can(question, scenario, facts, limits, session=None) -> dict:
    field = question["field"]
    if field not in STEPS:
        return _not_built(question, f"'ask can' does not judge this kind of play ({field}) yet")
    play = (
        target_play(question) if field == "targets" else (question.get("plays") or question["play"])
    )
    step, hypo = hypothesis_facts(scenario, field, play)
    grounding = Grounding(["can"], hypo, engine=session and session.engine)
    result = grounding.solve("can", max_models=1, keep=1, timeout=limits.timeout)
    model = result.models[0] if result.models else []
    faults = list(atoms(model, "can_fault", 2))
    rules = cited_rules(model)
    violations = violation_entries(faults, _words.messages(limits.lang))
    locate(violations, scenario, at=(question.line, question.column))
    forbidden: list[str] = []
    if faults:
        forbidden = forbidden_by(hypo, faults, rules, limits)
    answer = {
        "ask": "can",
        "play": question["text"],
        "can": not faults,
        "forbidden_by": forbidden,
        "violations": violations,
    }
    return with_rules(answer, rules | set(forbidden) | {v["rule"] for v in violations})


def forbidden_by(facts, faults, cited: set[str], limits) -> list[str]:
    """A minimal set of the rules the faults name or cite that together forbid
    the play (every other rule on); the faults' own rules when none is found."""
    from mtgkb.engine.cores import Budget
    from mtgkb.questions.explain import Forbidder

    own = sorted({str(r.string) for r, _ in faults}, key=sort_key)
    budget = min(CORE_TIMEOUT, limits.timeout) if limits.timeout else CORE_TIMEOUT
    candidates = set(own) | cited
    try:
        forbidder = Forbidder(facts, query="can")
        rules, _ = forbidder.rules([clingo.Function("can_faulty")], candidates, budget)
    except Budget:
        rules = None
    return list(rules) if rules else own


# --------------------------------------------------------------------------
# ask fix


def _attack_text(c: str, x: str) -> str:
    return f"{c} attacks {x}"


def _block_text(b: str, c: str) -> str:
    return f"{b} blocks {c}"


def _attack_declaration(c: str, x: str) -> dict:
    return {"type": "attack", "attacker": c, "target": x}


def _block_declaration(b: str, c: str) -> dict:
    return {"type": "block", "blocker": b, "attacker": c}


def _placed(declaration: dict, where: dict | None) -> dict:
    """The declaration with where the file writes it, if it does
    (places.where_written: its line and column, or its JSON path)."""
    declaration.update(where or {})
    return declaration


def _changes(
    written: list[tuple[str, str]],
    chosen: set[tuple[str, str]],
    say,
    shape,
    places: dict | None = None,
) -> list[dict]:
    """The changes from the written pairs to the chosen ones, per creature
    (the first of each pair): removed, added, or pointed elsewhere. Each in
    words and, under `"edit"`, as data: `shape(a, b)` is the declaration of
    a pair, `places` where the file writes each written pair."""
    places = places or {}
    out: list[dict] = []

    def old(pair) -> dict:
        return _placed(shape(*pair), places.get(pair))

    creatures = list(dict.fromkeys([a for a, _ in written] + sorted(a for a, _ in chosen)))
    for c in creatures:
        removed = [p for p in written if p[0] == c and p not in chosen]
        added = sorted(p for p in chosen if p[0] == c and p not in written)
        while removed and added:
            was, now = removed.pop(0), added.pop(0)
            edit = {"op": "replace", "declaration": old(was), "with": shape(*now)}
            out.append({"change": say(*was), "to": say(*now), "edit": edit})
        out += [
            {"remove": say(*p), "edit": {"op": "remove", "declaration": old(p)}} for p in removed
        ]
        out += [{"add": say(*p), "edit": {"op": "add", "declaration": shape(*p)}} for p in added]
    return out


def answer_fix(question, scenario, facts, limits, session=None) -> dict:
    legal_model = solve_single("legal", None, _legal_facts(facts), limits, session)
    broken = list(atoms(legal_model, "violation", 2))
    rules = cited_rules(legal_model) | {str(r.arguments[0].string) for r, _ in broken}
    if not broken:
        answer = {"ask": "fix", "legal": True, "changes": [], "edits": [], "count": 1}
        return with_rules(answer, rules)
    # the written targets are what the closest play may point elsewhere (fix.lp)
    situation = [
        clingo.Function("fix_written_target", f.arguments) if f.name == "play_target" else f
        for f in facts
        if f.name != "asked"
    ]
    grounding = Grounding(["fix"], situation, engine=session and session.engine)
    # core-guided optimisation: the lower bound rises with each fault found,
    # where branch and bound would walk down from a far declaration
    grounding.ctl.configuration.solver.opt_strategy = "usc"
    cap = min(limits.max_models, FIX_COUNT_CAP) if limits.max_models else FIX_COUNT_CAP
    result = grounding.solve("fix", max_models=cap, keep=FIX_SHOWN, timeout=limits.timeout)
    if not result.models:
        answer = {"ask": "fix", "legal": False, "changes": None, "edits": None, "count": 0}
        return with_rules(answer, rules)
    attacks = [(a.attacker, a.target) for a in scenario.attacks]
    blocks = [(b.blocker, b.attacker) for b in scenario.blocks]
    places = {
        (a.attacker, a.target): where_written(scenario, (a.line, a.column))
        for a in reversed(scenario.attacks)
    }
    places |= {
        (b.blocker, b.attacker): where_written(scenario, (b.line, b.column))
        for b in reversed(scenario.blocks)
    }
    options = []
    for model in result.models:
        chosen_attacks = {tuple(p) for p in values(model, "attacks", 2)}
        chosen_blocks = {tuple(p) for p in values(model, "blocks", 2)}
        on_attacks = _changes(attacks, chosen_attacks, _attack_text, _attack_declaration, places)
        on_blocks = _changes(blocks, chosen_blocks, _block_text, _block_declaration, places)
        on_targets = _target_changes(scenario, model)
        key = _preference(on_attacks, on_blocks + on_targets) + (str(_choices(model)),)
        options.append((key, on_attacks, on_blocks + on_targets, model))
    _, attack_changes, block_changes, best = min(options, key=lambda o: o[0])
    changes = attack_changes + block_changes
    if attack_changes:
        rules.add("508.1")
    if any("blocks" in next(iter(c.values())) for c in block_changes):
        rules.add("509.1")
    if any(c.get("retarget") for c in block_changes):
        rules.add("115.1")
    for change in changes:
        change.pop("retarget", None)
    edits = [change.pop("edit") for change in changes]
    answer = {"ask": "fix", "legal": False, "changes": changes, "count": result.count}
    choices = _choices(best)
    if choices:  # a choice the file left open (506.2a), made by the closest play
        answer["choices"] = choices
        rules.add("506.2a")
        edits += [
            {
                "op": "choose",
                "declaration": {"type": "choose_defending", "player": a, "defender": q},
            }
            for a, q in values(best, "fix_chosen_defending", 2)
        ]
    # the changes and choices as data, beside their words (issue 27)
    answer["edits"] = edits
    if not result.complete:
        # never a lower bound presented as a count: say why it is one
        answer["complete"] = False
        answer["reason"] = _words.text("label", "fix_count_cap", limits.lang).format(cap)
    # what no change of attacks, blocks and targets mends (a payment, a cast's timing)
    remaining = _remaining(scenario, best, limits, session)
    if remaining:
        answer["remaining"] = remaining
        rules |= {v["rule"] for v in remaining}
    return with_rules(answer, rules)


def _choices(model) -> list[str]:
    """The choices of defending player the closest play makes where the file
    made none (506.2a), written like the play of `ask can`."""
    return [
        f"{a} chooses {q} as defending player" for a, q in values(model, "fix_chosen_defending", 2)
    ]


def _play_text(play, targets: list[str]) -> str:
    """A declared cast or activation written like the play of `ask can`."""
    aimed = f" targeting {', '.join(targets)}" if targets else ""
    if play.kind == "cast":
        return f"{play.player} casts {play.spell_type} {play.name}{aimed}"
    if play.speed == "loyalty":
        return f"{play.player} activates a loyalty ability of {play.name}{aimed}"
    return f"{play.player} activates {play.name}{aimed}"


def _retargeted(scenario, model) -> dict[int, list[str]]:
    """The targets of each play whose targets the closest play points elsewhere."""
    moved = {(k, x): y for k, x, y in values(model, "fix_retarget", 3)}
    out = {}
    for play in scenario.plays:
        names = [t.name for t in play.targets]
        if any((play.index, x) in moved for x in names):
            out[play.index] = [moved.get((play.index, x), x) for x in names]
    return out


def _target_changes(scenario, model) -> list[dict]:
    """A play pointed at other targets, as one change per play."""
    new = _retargeted(scenario, model)
    return [
        {
            "change": _play_text(p, [t.name for t in p.targets]),
            "to": _play_text(p, new[p.index]),
            "retarget": True,
            "edit": {
                "op": "replace",
                "declaration": _placed(
                    _play_declaration(p, [t.name for t in p.targets]),
                    where_written(scenario, (p.line, p.column)),
                ),
                "with": _play_declaration(p, new[p.index]),
            },
        }
        for p in scenario.plays
        if p.index in new
    ]


def _play_declaration(play, targets: list[str]) -> dict:
    """A declared cast or activation as data (`_play_text`'s)."""
    if play.kind == "cast":
        cast = {"type": "cast", "player": play.player, "spell_type": play.spell_type}
        return {**cast, "name": play.name, "targets": list(targets)}
    return {"type": "activate", "player": play.player, "name": play.name, "targets": list(targets)}


def _remaining(scenario, model, limits, session=None) -> list[dict]:
    """The violations of the file with the fixed attacks, blocks and targets
    (and the defending player chosen) in place of the declared ones (`ask
    legal` on that play)."""
    players = set(scenario.player_names)
    chosen_attacks = {tuple(p) for p in values(model, "attacks", 2)}
    chosen_blocks = {tuple(p) for p in values(model, "blocks", 2)}
    attacks = [a for a in scenario.attacks if (a.attacker, a.target) in chosen_attacks]
    attacks += [
        Attack(attacker=c, target=x, target_quoted=x not in players)
        for c, x in sorted(chosen_attacks - {(a.attacker, a.target) for a in attacks})
    ]
    blocks = [b for b in scenario.blocks if (b.blocker, b.attacker) in chosen_blocks]
    blocks += [
        Block(blocker=b, attacker=c)
        for b, c in sorted(chosen_blocks - {(b.blocker, b.attacker) for b in blocks})
    ]
    plays = [
        replace(p, targets=[replace(t, name=n) for t, n in zip(p.targets, new, strict=True)])
        if (new := _retargeted(scenario, model).get(p.index)) is not None
        else p
        for p in scenario.plays
    ]
    choices = scenario.defending_choices + [
        ChooseDefending(player=a, defender=q) for a, q in values(model, "fix_chosen_defending", 2)
    ]
    fixed = replace(
        scenario,
        attacks=attacks,
        blocks=blocks,
        plays=plays,
        defending_choices=choices,
        questions=[],
    )
    model = solve_single("legal", None, _legal_facts(scenario_facts(fixed)), limits, session)
    pairs = [(r.arguments[0], k) for r, k in atoms(model, "violation", 2)]
    violations = violation_entries(pairs, _words.messages(limits.lang))
    locate(violations, fixed)
    return violations


def _preference(on_attacks: list[dict], on_blocks: list[dict]) -> tuple:
    """Which of the equally close declarations to list: the one that keeps the
    earlier step (attacks) most, then removes rather than adds or points
    elsewhere, then the first in the order of the words."""
    every = [{k: v for k, v in c.items() if k != "edit"} for c in on_attacks + on_blocks]
    kinds = [next(iter(c)) for c in every]
    return (len(on_attacks), kinds.count("add"), kinds.count("change"), str(every))


def _legal_facts(facts) -> list[clingo.Symbol]:
    return [f for f in facts if f.name != "asked"] + [
        clingo.Function("asked", [clingo.Function("legal")])
    ]


__all__ = ["STEPS", "answer_can", "answer_fix", "hypothesis_facts"]
