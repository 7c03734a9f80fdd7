"""One answer per question: which query program to solve, and how its shown
atoms become the JSON answer of the spec (section 6)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import clingo

from .paths import query_file
from .solve import SolveResult, solve
from .symbols import atoms, cited_rules, names_in, sequence, value, values

DEFAULT_LIMIT = 100


@dataclass(frozen=True)
class Limits:
    """The bounds of one run: the model cap and the time-out in seconds."""

    max_models: int = 100000
    timeout: float | None = None


Answer = dict
Renderer = Callable[[object, Sequence[clingo.Symbol], Limits], Answer]

# The JSON name of each kind of question (spec, section 6).
ASK_NAMES = {
    "legal": "legal",
    "defending": "defending",
    "attack_targets": "attack-targets",
    "attacks": "attacks",
    "blocks": "blocks",
    "order": "order",
    "block_order": "block-order",
    "damage_order": "damage-order",
    "knowledge": "knowledge",
    "stack": "stack",
    "outcome": "outcome",
    "pay": "pay",
    "explain": "explain",
}


def _with_rules(answer: Answer, rules: set[str]) -> Answer:
    answer["rules"] = sorted(rules, key=_rule_key)
    return answer


def _rule_key(number: str) -> tuple:
    head, _, tail = number.partition(".")
    digits = "".join(ch for ch in tail if ch.isdigit())
    letters = "".join(ch for ch in tail if ch.isalpha())
    return (int(head) if head.isdigit() else 0, int(digits or 0), letters)


def _single(query: str, facts, limits: Limits) -> list[clingo.Symbol]:
    result = solve(query, facts, max_models=1, timeout=limits.timeout)
    return result.models[0] if result.models else []


def _all_models(query: str, facts, limits: Limits, keep: int | None = None) -> SolveResult:
    return solve(query, facts, max_models=limits.max_models, keep=keep, timeout=limits.timeout)


def _cites_of(result: SolveResult) -> set[str]:
    rules: set[str] = set()
    for model in result.models:
        rules |= cited_rules(model)
    return rules


# --- the answers -----------------------------------------------------------


def _seat_order(scenario) -> dict[str, int]:
    return {name: i for i, name in enumerate(scenario.player_names)}


def _by_seat(scenario, names) -> list[str]:
    """Player names in seating order (other names after them, alphabetically)."""
    seats = _seat_order(scenario)
    return sorted(names, key=lambda n: (seats.get(n, len(seats)), n))


def answer_legal(question, scenario, facts, limits: Limits) -> Answer:
    model = _single("legal", facts, limits)
    messages = {str(kind): text for kind, text in values(model, "message", 2)}
    violations = []
    for rule, args in atoms(model, "violation", 2):
        number = str(value(rule.arguments[0])) if rule.arguments else str(rule)
        objects = names_in(args)
        kind = args.name if args.type == clingo.SymbolType.Function else str(args)
        template = messages.get(kind, kind.replace("_", " ") + ": {all}")
        filled = _fill(template, [str(value(a)) for a in _arguments(args)])
        violations.append({"rule": number, "message": filled, "objects": objects})
    violations.sort(key=lambda v: (_rule_key(v["rule"]), v["objects"]))
    rules = cited_rules(model) | {v["rule"] for v in violations}
    answer = {"ask": "legal", "legal": not violations, "violations": violations}
    return _with_rules(answer, rules)


def _arguments(term: clingo.Symbol) -> list[clingo.Symbol]:
    return list(term.arguments) if term.type == clingo.SymbolType.Function else []


def _fill(template: str, objects: list[str]) -> str:
    text = template.replace("{all}", ", ".join(objects))
    for i, name in enumerate(objects, start=1):
        text = text.replace("{" + str(i) + "}", name)
    return text


def answer_defending(question, scenario, facts, limits: Limits) -> Answer:
    model = _single("defending", facts, limits)
    players = _by_seat(scenario, (p for (p,) in values(model, "defending", 1)))
    return _with_rules({"ask": "defending", "players": players}, cited_rules(model))


def answer_attack_targets(question, scenario, facts, limits: Limits) -> Answer:
    model = _single("attack_targets", facts, limits)
    creature = question["creature"]
    targets = _by_seat(scenario, (x for c, x in values(model, "attack_target", 2) if c == creature))
    answer = {"ask": "attack-targets", "creature": creature, "targets": targets}
    return _with_rules(answer, cited_rules(model))


def _declarations(query: str, pred: str, question, facts, limits: Limits) -> tuple[dict, set]:
    limit = question.get("limit") if question.get("limit") is not None else DEFAULT_LIMIT
    result = _all_models(query, facts, limits, keep=limit)
    assignments = [
        {str(a): str(b) for a, b in values(model, pred, 2)} for model in result.models[:limit]
    ]
    body = {"count": result.count, "complete": result.complete, "assignments": assignments}
    return body, _cites_of(result)


def answer_attacks(question, scenario, facts, limits: Limits) -> Answer:
    body, rules = _declarations("attacks", "attacks", question, facts, limits)
    return _with_rules({"ask": "attacks", **body}, rules)


def answer_blocks(question, scenario, facts, limits: Limits) -> Answer:
    body, rules = _declarations("blocks", "blocks", question, facts, limits)
    answer = {"ask": "blocks", "defender": question.get("defender"), **body}
    return _with_rules(answer, rules)


def _orders(query: str, pred: str, ask: str, facts, limits: Limits) -> Answer:
    result = _all_models(query, facts, limits)
    orders: list[list] = []
    for model in result.models:
        order = sequence(model, pred)
        if order not in orders:
            orders.append(order)
    answer = {"ask": ask, "orders": orders}
    if not result.complete:
        answer["complete"] = False
    return _with_rules(answer, _cites_of(result))


def answer_order(question, scenario, facts, limits: Limits) -> Answer:
    result = _all_models("order", facts, limits)
    orders: list[list] = []
    choice_orders: dict[str, list[list]] = {}
    for model in result.models:
        order = sequence(model, "order")
        if order not in orders:
            orders.append(order)
        per_player: dict[str, list] = {}
        for player, pos, thing in values(model, "choice_order", 3):
            per_player.setdefault(player, []).append((pos, thing))
        for player, steps in per_player.items():
            seq = [thing for _, thing in sorted(steps)]
            known = choice_orders.setdefault(player, [])
            if seq not in known:
                known.append(seq)
    answer = {"ask": "order", "orders": orders}
    if choice_orders:
        answer["choice_orders"] = choice_orders
    if not result.complete:
        answer["complete"] = False
    return _with_rules(answer, _cites_of(result))


def answer_knowledge(question, scenario, facts, limits: Limits) -> Answer:
    model = _single("knowledge", facts, limits)
    known: dict[str, list[str]] = {p: [] for p in scenario.player_names}
    for knower, chooser in values(model, "knows", 2):
        known.setdefault(knower, []).append(chooser)
    for names in known.values():
        names.sort()
    return _with_rules({"ask": "knowledge", "known": known}, cited_rules(model))


def answer_stack(question, scenario, facts, limits: Limits) -> Answer:
    return _orders("stack", "stack", "stack", facts, limits)


def answer_block_order(question, scenario, facts, limits: Limits) -> Answer:
    return _orders("block_order", "block_order", "block-order", facts, limits)


def answer_damage_order(question, scenario, facts, limits: Limits) -> Answer:
    return _orders("damage_order", "damage_order", "damage-order", facts, limits)


def _team_order(scenario):
    """A sort key putting teams in the order the file declares them."""
    declared = {team.name: i for i, team in enumerate(scenario.teams)}
    return lambda pair: (declared.get(str(pair[0]), len(declared)), str(pair[0]))


def answer_outcome(question, scenario, facts, limits: Limits) -> Answer:
    model = _single("outcome", facts, limits)
    seats = _seat_order(scenario)
    answer = {
        "ask": "outcome",
        "life": dict(sorted(values(model, "life", 2), key=lambda pn: seats.get(pn[0], 0))),
        "team_life": dict(sorted(values(model, "team_life", 2), key=_team_order(scenario))),
        "lost": _by_seat(scenario, (p for (p,) in values(model, "lost", 1))),
        "triggers": {o: n for o, n in values(model, "triggered", 2)},
    }
    if not answer["team_life"]:
        del answer["team_life"]
    return _with_rules(answer, cited_rules(model))


def answer_pay(question, scenario, facts, limits: Limits) -> Answer:
    model = _single("pay", facts, limits)
    payable = {(p, n) for p, n in values(model, "can_pay", 2)}
    can = (question["player"], question["amount"]) in payable
    answer = {"ask": "pay", "player": question["player"], "amount": question["amount"], "can": can}
    return _with_rules(answer, cited_rules(model))


ANSWERS: dict[str, Callable] = {
    "legal": answer_legal,
    "defending": answer_defending,
    "attack_targets": answer_attack_targets,
    "attacks": answer_attacks,
    "blocks": answer_blocks,
    "order": answer_order,
    "knowledge": answer_knowledge,
    "stack": answer_stack,
    "block_order": answer_block_order,
    "damage_order": answer_damage_order,
    "outcome": answer_outcome,
    "pay": answer_pay,
}

# The query program each kind of question needs.
QUERY_OF = {
    "legal": "legal",
    "defending": "defending",
    "attack_targets": "attack_targets",
    "attacks": "attacks",
    "blocks": "blocks",
    "order": "order",
    "knowledge": "knowledge",
    "stack": "stack",
    "block_order": "block_order",
    "damage_order": "damage_order",
    "outcome": "outcome",
    "pay": "pay",
    "explain": "explain",
}


def answer(question, scenario, facts, limits: Limits) -> Answer:
    """The answer to one question, or a plain 'not supported yet'."""
    kind = question.kind
    ask = ASK_NAMES.get(kind, kind)
    handler = ANSWERS.get(kind)
    if handler is None or not query_file(QUERY_OF.get(kind, kind)).exists():
        return {
            "ask": ask,
            "supported": False,
            "message": f"'ask {ask.replace('-', ' ')}' is not built yet",
        }
    return handler(question, scenario, facts_for(question, facts), limits)


def facts_for(question, facts):
    """The scenario's facts with only this question's `asked/1`: a query reads
    its parameters (which defender, which payment) from the one it is given."""
    if isinstance(facts, str):
        return facts
    from .facts import question_symbol

    own = question_symbol(question)
    return [s for s in facts if s.name != "asked" or s.arguments[0] == own]
    return [s for s in facts if s.name != "asked" or s.arguments[0] == own]


def _register_explain() -> None:
    # explain.py reads the other answers' queries; registered here, last, so
    # that it can import this module without a cycle.
    from .explain import answer_explain

    ANSWERS["explain"] = answer_explain


_register_explain()
