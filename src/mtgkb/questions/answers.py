"""One answer per question: which query program to solve, and how its shown
atoms become the JSON answer of the spec (section 6)."""

from __future__ import annotations

import operator
import re
import time
from collections.abc import Callable, Iterable, Sequence

import clingo

from mtgkb.engine import first_declarations
from mtgkb.engine.rule_base import calls_functions_in
from mtgkb.engine.session import Session, SharedGroundings
from mtgkb.engine.solve import FactRules, Grounding, SolveResult, SolveTimeout
from mtgkb.language.errors import check_count, check_timeout
from mtgkb.language.facts import (
    Facts,
    asked_facts,
    fact_arguments,
    fact_signatures,
    fixed_facts,
)
from mtgkb.questions import listing_order
from mtgkb.questions.places import locate
from mtgkb.questions.symbols import Decoder, Shown, atoms, cited_rules, names_in, value, values
from mtgkb.rulebase import registry
from mtgkb.rulebase import words as _words
from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.location import query_file
from mtgkb.rulebase.numbering import sort_key
from mtgkb.rulebase.records import record
from mtgkb.rulebase.vocabulary import vocabulary
from mtgkb.rulebase.words import fill_template

DEFAULT_LIMIT = 100


@record(frozen=True)
class Limits:
    """The bounds of one run: the model cap (0: no cap), the time-out in
    seconds (None: none) and the memory bound in MiB (None: the default, 0:
    none); and the language its answers speak (`en`, `it`). Values out of
    range raise `mtgkb.language.errors.UsageError`."""

    max_models: int = 100000
    timeout: float | None = None
    memory: int | None = None
    lang: str = "en"  # the language of messages and explanations (not a bound)

    def __post_init__(self) -> None:
        check_count(self.max_models, "max_models", 0)
        object.__setattr__(self, "timeout", check_timeout(self.timeout))
        if self.memory is not None:
            check_count(self.memory, "memory", 0, 1 << 30)


Answer = dict
Renderer = Callable[[object, Sequence[clingo.Symbol], Limits], Answer]

# The tables of the kinds of question are the registry's (mtgkb.rulebase.registry);
# these names are views of it, for the code that reads them from here.
ASK_NAMES = registry.ASK_NAMES
QUERY_OF = registry.QUERY_OF

# Questions that build their own groundings (other facts, or optimisation):
# they take no part in the groundings a file's questions share.
OWN_GROUNDINGS = registry.OWN_GROUNDINGS


def with_rules(answer: Answer, rules: set[str]) -> Answer:
    answer["rules"] = sorted(rules, key=sort_key)
    return answer


def _consistent(answer: Answer, model, query: str, facts) -> Answer:
    """Add `"inconsistent"` when the rule base gave an atom that has one value
    (kb/single_valued.lp) several: the run then exits 4 (spec, section 11)."""
    from mtgkb.questions import consistency

    found = consistency.report(model, query, facts)
    if found:
        answer["inconsistent"] = found
    return answer


# The groundings of the file being answered are its session's
# (mtgkb.engine.session.Session.groundings): its questions share them where
# their queries allow (mtgkb.engine.session.SharedGroundings), with each
# question's `asked/1` switched on for its own solve only. They last from a
# file's first question to its last and are keyed by the scenario and its facts.


def _queries_of(scenario) -> list[str]:
    names = []
    for question in getattr(scenario, "questions", ()):
        name = QUERY_OF.get(question.kind, question.kind)
        if question.kind in OWN_GROUNDINGS:
            continue
        if question.kind in ANSWERS and query_file(name).exists():
            names.append(name)
    return names


def _judged_queries(scenario) -> list[str]:
    """The queries solved on the file's facts besides its questions' own:
    `legal`, where a question judges the declared play (`ask outcome`)."""
    if not _declares_play(scenario):
        return []
    judges = any(_judges_play(q) for q in getattr(scenario, "questions", ()))
    return ["legal"] if judges and query_file("legal").exists() else []


def _judges_play(question) -> bool:
    """Whether answering the question also solves `legal` on the declared play."""
    return question.kind in ANSWERS and registry.get(question.kind).judges_play


def _grounding(query: str, scenario, facts, session: Session) -> tuple[Grounding, tuple]:
    """The grounding to solve `query` in, and the atoms to switch on for it."""
    engine = session.engine
    if not engine.options.share or scenario is None or isinstance(facts, str):
        return Grounding([query], facts, engine=engine), ()
    fixed = fixed_facts(facts)
    asked = asked_facts(facts)
    shared = session.groundings
    if shared is None or not shared.matches(scenario, fixed):
        from mtgkb.language.facts import question_symbol

        every = [clingo.Function("asked", [question_symbol(q)]) for q in scenario.questions]
        shared = SharedGroundings(
            engine,
            scenario,
            fixed,
            _queries_of(scenario),
            every,
            _judged_queries(scenario),
            fact_signatures(facts),
            fact_arguments(facts),
        )
        session.groundings = shared
    return shared.grounding(query, facts, asked)


# The queries whose answer is the one model they have, or whose optimal models
# all show the same atoms: a batch may solve them for many scenarios at once
# (mtgkb.engine.scenarios.solve_many) and leave the models in the session
# (Session.ahead), keyed by scenario (identity), query and the question's
# asked/1 atoms.
SINGLE_MODEL_QUERIES = registry.SINGLE_MODEL_QUERIES
COUNTED_BY = registry.COUNTED_BY
COUNTING_QUERIES = frozenset(COUNTED_BY.values())
# The listings whose first declarations are read from their counting query's
# model (mtgkb.engine.first_declarations), solved ahead by a batch or on its
# own for a file alone: the query's atoms pair a chooser with an option
# (`blocks(B,C)`), and its counting query shows what every one of its models
# shows beside them.
LISTED_FROM_FORMS = frozenset({"blocks"})


def ahead_key(scenario, query: str, facts) -> tuple:
    return (id(scenario), query, asked_facts(facts))


def single_model_solves(scenario, facts) -> list[tuple[str, list]]:
    """The (query, facts) of every single-model solve the file's questions
    make, once each: a batch may solve them ahead (mtgkb.running.batch).
    A listing question's counting query (registry.COUNTED_BY: the forms its
    exact count reads) is one of them."""
    out: dict[tuple, tuple[str, list]] = {}
    for question in scenario.questions:
        query = QUERY_OF.get(question.kind, question.kind)
        if question.kind not in ANSWERS:
            continue
        own = facts_for(question, facts)
        if query in COUNTED_BY and query_file(COUNTED_BY[query]).exists():
            counting = COUNTED_BY[query]
            out.setdefault(ahead_key(scenario, counting, own), (counting, own))
        if query not in SINGLE_MODEL_QUERIES:
            continue
        out.setdefault(ahead_key(scenario, query, own), (query, own))
        if _judges_play(question) and (judged := play_facts(scenario, facts)) is not None:
            out.setdefault(ahead_key(scenario, "legal", judged), ("legal", judged))
    return list(out.values())


class SameFacts:
    """Facts as a key, by identity: equal to the very same symbol objects in
    the same order. A file's lists of facts share their symbols, and hashing
    or comparing a symbol is a call into clingo; the key holds the facts, so
    no id of theirs is reused while it lives."""

    __slots__ = ("facts", "_hash")

    def __init__(self, facts: Sequence[clingo.Symbol]):
        self.facts = tuple(facts)
        self._hash = hash(tuple(map(id, self.facts)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, SameFacts)
            and len(other.facts) == len(self.facts)
            and all(map(operator.is_, self.facts, other.facts))
        )


def solved_key(query: str, facts) -> tuple:
    """The key of a query's model on these facts (Session.solved): the facts
    that are not questions by identity (SameFacts) when the questions' atoms
    are known apart (Facts), and those by value."""
    if isinstance(facts, Facts):
        return (query, SameFacts(facts.fixed), frozenset(facts.asked))
    return (query, frozenset(facts))


def solve_single(
    query: str, scenario, facts, limits: Limits, session: Session | None = None
) -> list[clingo.Symbol]:
    session = Session() if session is None else session
    if isinstance(facts, str):
        return _solve_single(query, scenario, facts, limits, session)
    # one model per query and facts in a file: `ask outcome` judges the
    # declared play with the very model `ask legal` gave
    solved = solved_key(query, facts)
    if solved not in session.solved:
        model = session.ahead.pop(ahead_key(scenario, query, facts), None)
        if model is None:
            model = _solve_single(query, scenario, facts, limits, session)
        session.solved[solved] = model
    return session.solved[solved]


def _solve_single(query: str, scenario, facts, limits: Limits, session: Session):
    grounding, on = _grounding(query, scenario, facts, session)
    result = grounding.solve(query, max_models=1, timeout=limits.timeout, true=on)
    if not result.models:
        return Shown([])
    return shown_model(query, result.models[0])


def shown_model(query: str, model: Sequence[clingo.Symbol]) -> Shown:
    """The shown atoms of `query`'s one model as its answer reads them: in
    one order (sorted), but the counting forms, which are read as a set
    (mtgkb.engine.classes): sorting thousands of them is a call into clingo
    for each comparison."""
    return Shown(model if query in COUNTING_QUERIES else sorted(model))


def _all_models(
    query: str,
    scenario,
    facts,
    limits: Limits,
    session: Session | None = None,
    keep: int | None = None,
    canonical=None,
) -> SolveResult:
    """The models of `query`, the ones kept first in the `canonical` order
    (mtgkb.questions.listing_order) when one is given."""
    session = Session() if session is None else session
    listed = _listed_from_forms(query, scenario, facts, limits, session, keep, canonical)
    if listed is not None:
        return listed
    grounding, on = _grounding(query, scenario, facts, session)
    forms = None
    if query in COUNTED_BY and not isinstance(facts, str):
        counting = COUNTED_BY[query]
        # the forms its exact count reads: solved ahead by a batch, else (when
        # the count needs them) on top of the listing's grounding where that
        # gives them, else on their own, as one model of the file (measured:
        # grouping the counting query with the file's other questions made
        # its grounding larger where the listing needs no count)
        ahead = session.ahead.pop(ahead_key(scenario, counting, facts), None)
        end = None if limits.timeout is None else time.monotonic() + limits.timeout

        def forms() -> list[clingo.Symbol] | None:
            if ahead is not None:
                return ahead
            stacked = grounding.stacked_model(counting, on, end)
            if stacked is not None:
                return stacked
            model = solve_single(counting, scenario, facts, limits, session)
            return model or None

    return grounding.solve(
        query,
        max_models=limits.max_models,
        keep=keep,
        timeout=limits.timeout,
        true=on,
        canonical=canonical,
        forms=forms,
    )


def _listed_from_forms(
    query: str, scenario, facts, limits: Limits, session: Session, keep, canonical
) -> SolveResult | None:
    """The first `keep` declarations of `query` (at most `--max-models`) and
    their count, read from the model of its counting query
    (mtgkb.engine.first_declarations), without a grounding of the listing's
    own: the model a batch solved ahead in its chunk, else one solved here;
    None where the forms do not say them (the caller then lists from a
    grounding, and counts from that model)."""
    if query not in LISTED_FROM_FORMS or canonical is None or keep is None:
        return None
    options = session.engine.options
    if isinstance(facts, str) or not (options.forms_listing and options.counts_from_forms):
        return None
    key = ahead_key(scenario, COUNTED_BY[query], facts)
    model = session.ahead.get(key)
    if model is None:
        model = _solve_single(COUNTED_BY[query], scenario, facts, limits, session)
        if not model:
            return None
        # (kept ahead: the caller's count reads it where the forms are not walked)
        session.ahead[key] = model
    end = None if limits.timeout is None else time.monotonic() + limits.timeout
    listed = keep if limits.max_models == 0 else min(keep, limits.max_models)
    try:
        found = first_declarations.first_declarations(model, query, query, canonical, listed, end)
    except TimeoutError:
        raise SolveTimeout() from None
    if found is None:
        return None
    # (the model stays ahead: the file may ask the same question again, limited otherwise)
    count, models = found
    return SolveResult(count=count, satisfiable=count > 0, models=models, ordered=True)


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


def answer_legal(question, scenario, facts, limits: Limits, session=None) -> Answer:
    model = solve_single("legal", scenario, facts, limits, session)
    violations = _located_violations(model, scenario, limits.lang, session)
    rules = cited_rules(model) | {v["rule"] for v in violations}
    answer = {"ask": "legal", "legal": not violations, "violations": violations}
    return _consistent(with_rules(answer, rules), model, "legal", facts)


def _located_violations(model, scenario, lang: str, session: Session | None) -> list[dict]:
    """The violations a model of `legal` shows, each with its place in the
    file (places.locate): read once per model of the file (its session's),
    each caller given its own copies."""
    read = {} if session is None else session.read
    key = ("violations", id(model), id(scenario), lang)
    if key not in read:
        violations = _violations(model, lang)
        locate(violations, scenario)
        # (the model and the scenario held: their ids stay their own)
        read[key] = (model, scenario, violations)
    return [{**v, "objects": list(v["objects"])} for v in read[key][2]]


def _violations(model, lang: str) -> list[dict]:
    """The violations a model of `legal` shows, each with its message in
    `lang` (the rule base's word tables: kb/messages.lp and the files added)."""
    pairs = [
        (rule.arguments[0] if rule.arguments else rule, args)
        for rule, args in atoms(model, "violation", 2)
    ]
    return violation_entries(pairs, _words.messages(lang)) if pairs else []


def _kind(term: clingo.Symbol) -> str:
    """The kind of a violation term: its name (the key of its message)."""
    return term.name if term.type == clingo.SymbolType.Function else str(term)


def violation_entries(pairs, messages: dict[str, str]) -> list[dict]:
    """`{"rule", "kind", "message", "objects"}` for each (rule number, kind
    term) pair, in rule order; the kind is the term's name (its key in
    kb/messages.lp), the message its template with its arguments. A kind
    term that names the event it is about (an argument `event(I)`, I the
    event's number in file order) gives `"event": I` too, which
    mtgkb.questions.places.locate reads (and takes out) to place it."""
    violations = []
    for rule, args in pairs:
        number = str(value(rule))
        objects = names_in(args)
        kind = _kind(args)
        template = messages.get(kind, kind.replace("_", " ") + ": {all}")
        filled = fill_template(template, [str(value(a)) for a in _arguments(args)])
        entry = {"rule": number, "kind": kind, "message": filled, "objects": objects}
        event = _event_named(args)
        if event is not None:
            entry["event"] = event
        violations.append(entry)
    violations.sort(key=lambda v: (sort_key(v["rule"]), v["objects"], v.get("event", 0)))
    return violations


def _event_named(term: clingo.Symbol) -> int | None:
    """The number I of an `event(I)` argument of a violation's kind term, or None."""
    for arg in _arguments(term):
        if (
            arg.type == clingo.SymbolType.Function
            and arg.name == "event"
            and len(arg.arguments) == 1
            and arg.arguments[0].type == clingo.SymbolType.Number
        ):
            return arg.arguments[0].number
    return None


def _arguments(term: clingo.Symbol) -> list[clingo.Symbol]:
    return list(term.arguments) if term.type == clingo.SymbolType.Function else []


def answer_defending(question, scenario, facts, limits: Limits, session=None) -> Answer:
    model = solve_single("defending", scenario, facts, limits, session)
    players = _by_seat(scenario, (p for (p,) in values(model, "defending", 1)))
    return with_rules({"ask": "defending", "players": players}, cited_rules(model))


def answer_attack_targets(question, scenario, facts, limits: Limits, session=None) -> Answer:
    model = solve_single("attack_targets", scenario, facts, limits, session)
    creature = question["creature"]
    targets = _by_seat(scenario, (x for c, x in values(model, "attack_target", 2) if c == creature))
    answer = {"ask": "attack-targets", "creature": creature, "targets": targets}
    return with_rules(answer, cited_rules(model))


def _declarations(
    query: str, pred: str, question, scenario, facts, limits: Limits, session: Session | None
) -> tuple[dict, set, SolveResult]:
    limit = question.get("limit") if question.get("limit") is not None else DEFAULT_LIMIT
    choosers = None
    if query == "blocks" and question.get("defender") is not None:
        choosers = {question.get("defender")}
    canonical = listing_order.declarations(scenario, pred, choosers)
    result = _all_models(query, scenario, facts, limits, session, max(limit, 1), canonical)
    # (the listed models share most atoms: each read into Python once)
    read = Decoder()
    # (each declaration's creatures in the canonical order: the same text
    # whichever search found the model, and whatever order clasp shows atoms in)
    assignments = [
        one_each(read.values(_ranked_first(model, canonical), pred, 2))
        for model in result.models[:limit]
    ]
    body = {"count": result.count, "complete": result.complete, "assignments": assignments}
    body.update(_lower_bound(result, limits.lang, "count_lower_bound"))
    return body, read.cited_rules(result.models), result


def _ranked_first(model, canonical) -> list:
    """The atoms of `model` that the `canonical` order ranks, in that order,
    then the others as they come."""
    ranked, others = [], []
    for symbol in model:
        rank = canonical.rank(symbol)
        if rank is None:
            others.append(symbol)
        else:
            ranked.append((rank, symbol))
    ranked.sort(key=lambda found: found[0])
    return [symbol for _, symbol in ranked] + others


def one_each(pairs) -> dict:
    """Each creature to what it attacks or blocks; a blocker of several
    attackers (509.1a) to the list of them, in name order."""
    found: dict[str, list[str]] = {}
    for a, b in pairs:
        found.setdefault(str(a), []).append(str(b))
    return {a: bs[0] if len(bs) == 1 else sorted(bs) for a, bs in found.items()}


def answer_attacks(question, scenario, facts, limits: Limits, session=None) -> Answer:
    body, rules, _ = _declarations("attacks", "attacks", question, scenario, facts, limits, session)
    return with_rules({"ask": "attacks", **body}, rules)


def answer_blocks(question, scenario, facts, limits: Limits, session=None) -> Answer:
    body, rules, result = _declarations(
        "blocks", "blocks", question, scenario, facts, limits, session
    )
    defender = question.get("defender")
    if defender is None:
        # `ask blocks` without `for P`: the defending players' blocks together;
        # name the defender when there is one, else list them all.
        choosers = {p for model in result.models[:1] for (p,) in values(model, "block_chooser", 1)}
        if len(choosers) == 1:
            defender = choosers.pop()
        else:
            body = {"defenders": _by_seat(scenario, choosers), **body}
    answer = {"ask": "blocks", "defender": defender, **body}
    # 805.10d: the teammates whose blocks complete each part listed, not shown
    teammates = {p for model in result.models[:1] for (p,) in values(model, "block_teammate", 1)}
    if teammates:
        answer["teammates"] = _by_seat(scenario, teammates)
    return with_rules(answer, rules)


def _distinct(sequences) -> list[list]:
    """The sequences without repeats, in first-seen order (in linear time)."""
    seen: set[tuple] = set()
    out: list[list] = []
    for seq in sequences:
        key = tuple(seq)
        if key not in seen:
            seen.add(key)
            out.append(seq)
    return out


def _listing(result: SolveResult, lang: str) -> dict:
    """Where `--max-models` cut the listed orders: how many there are (exact
    unless `complete` is false, and then why not)."""
    if len(result.models) < result.count:
        found = {"count": result.count, "complete": result.complete}
    else:
        found = {} if result.complete else {"complete": False}
    return {**found, **_lower_bound(result, lang)}


def _lower_bound(result: SolveResult, lang: str, label: str = "listing_lower_bound") -> dict:
    """Never a lower bound presented as a count: why the count is one, where
    it is, in the words of `label` (by default: what the class counter and
    the parts could not count was enumerated up to --max-models)."""
    if result.complete:
        return {}
    return {"reason": _words.text("label", label, lang)}


def _orders(
    query: str, pred: str, ask: str, scenario, facts, limits: Limits, session: Session | None
) -> Answer:
    canonical = listing_order.orders(scenario, pred)
    result = _all_models(query, scenario, facts, limits, session, canonical=canonical)
    read = Decoder()
    orders = _distinct(read.sequence(model, pred) for model in result.models)
    answer = {"ask": ask, "orders": orders, **_listing(result, limits.lang)}
    return with_rules(answer, read.cited_rules(result.models))


def answer_order(question, scenario, facts, limits: Limits, session=None) -> Answer:
    canonical = listing_order.orders(scenario, "order")
    result = _all_models("order", scenario, facts, limits, session, canonical=canonical)
    read = Decoder()
    orders = _distinct(read.sequence(model, "order") for model in result.models)
    sequences: dict[str, list[list]] = {}
    for model in result.models:
        per_player: dict[str, list] = {}
        for player, pos, thing in read.values(model, "choice_order", 3):
            per_player.setdefault(player, []).append((pos, thing))
        for player, steps in per_player.items():
            sequences.setdefault(player, []).append([thing for _, thing in sorted(steps)])
    choice_orders = {player: _distinct(seqs) for player, seqs in sequences.items()}
    answer = {"ask": "order", "orders": orders}
    if choice_orders:
        answer["choice_orders"] = choice_orders
    made_by = {a: r for model in result.models[:1] for a, r in values(model, "made_by", 2)}
    if made_by:
        answer["made_by"] = made_by
    answer.update(_listing(result, limits.lang))
    return with_rules(answer, read.cited_rules(result.models))


def answer_knowledge(question, scenario, facts, limits: Limits, session=None) -> Answer:
    model = solve_single("knowledge", scenario, facts, limits, session)
    known: dict[str, list[str]] = {p: [] for p in scenario.player_names}
    for knower, chooser in values(model, "knows", 2):
        known.setdefault(knower, []).append(chooser)
    for names in known.values():
        names.sort()
    return with_rules({"ask": "knowledge", "known": known}, cited_rules(model))


def answer_stack(question, scenario, facts, limits: Limits, session=None) -> Answer:
    return _orders("stack", "stack", "stack", scenario, facts, limits, session)


def answer_block_order(question, scenario, facts, limits: Limits, session=None) -> Answer:
    return _orders("block_order", "block_order", "block-order", scenario, facts, limits, session)


def answer_damage_order(question, scenario, facts, limits: Limits, session=None) -> Answer:
    return _orders("damage_order", "damage_order", "damage-order", scenario, facts, limits, session)


def _team_order(scenario):
    """A sort key putting teams in the order the file declares them."""
    declared = {team.name: i for i, team in enumerate(scenario.teams)}
    return lambda pair: (declared.get(str(pair[0]), len(declared)), str(pair[0]))


def answer_outcome(question, scenario, facts, limits: Limits, session=None) -> Answer:
    from mtgkb.questions.consistency import holders

    model = solve_single("outcome", scenario, facts, limits, session)
    seats = _seat_order(scenario)
    several = holders(model)  # never pick one of several values: "inconsistent" lists them

    def single(name: str):
        return [pair for pair in values(model, name, 2) if (name, pair[0]) not in several]

    answer = {
        "ask": "outcome",
        "life": dict(sorted(single("life"), key=lambda pn: seats.get(pn[0], 0))),
        "team_life": dict(sorted(single("team_life"), key=_team_order(scenario))),
        "lost": _by_seat(scenario, (p for (p,) in values(model, "lost", 1))),
        "triggers": {o: n for o, n in values(model, "triggered", 2)},
    }
    if not answer["team_life"]:
        del answer["team_life"]
    poison = dict(sorted(values(model, "poison", 2), key=lambda pn: seats.get(pn[0], 0)))
    if poison:
        answer["poison"] = poison
    team_poison = dict(sorted(values(model, "team_poison", 2), key=_team_order(scenario)))
    if team_poison:
        answer["team_poison"] = team_poison
    commander: dict[str, dict] = {}
    for player, source, n in sorted(
        values(model, "commander_damage", 3), key=lambda t: (seats.get(t[0], 0), t[1])
    ):
        commander.setdefault(player, {})[source] = n
    if commander:
        answer["commander_damage"] = commander
    destroyed = sorted(str(x) for (x,) in values(model, "destroyed", 1))
    fought = any(e.kind == "combat_damage" for e in getattr(scenario, "events", ()))
    if destroyed or fought:
        answer["destroyed"] = destroyed
    # the rules the rule base follows by a choice of its own on this play
    # (615.7: which source's damage a shield takes), which the outcome's model shows
    chosen = _shown(_declared_unmodelled(model), "outcome")
    if chosen:
        answer["unmodelled"] = chosen
    rules = cited_rules(model)
    illegal = _illegal_play(scenario, facts, limits, session)
    if illegal:
        # spec section 11: the declared play is illegal; the answer says so
        # (the damage still follows the declarations as written).
        answer["illegal_play"] = True
        answer["violations"] = illegal
        rules |= {v["rule"] for v in illegal}
    return _consistent(with_rules(answer, rules), model, "outcome", facts)


def _illegal_play(scenario, facts, limits: Limits, session: Session | None) -> list[dict]:
    """The violations of the file's declared play, if it has one (`ask legal`'s)."""
    judged = play_facts(scenario, facts)
    if judged is None:
        return []
    model = solve_single("legal", scenario, judged, limits, session)
    return _located_violations(model, scenario, limits.lang, session)


LEGAL = clingo.Function("legal")  # the argument of asked/1 for `ask legal`


def play_facts(scenario, facts):
    """The facts `ask outcome` judges the declared play with: those `ask legal`
    is given (so one model serves both); None without a declared play."""
    if scenario is None or not _declares_play(scenario):
        return None
    if isinstance(facts, str):
        return facts
    judged = fixed_facts(facts)
    if any(question.kind == "legal" for question in scenario.questions):
        asked = [clingo.Function("asked", [LEGAL])]
        return Facts(judged, asked, fact_signatures(facts), fact_arguments(facts))
    return Facts(judged, signatures=fact_signatures(facts), arguments=fact_arguments(facts))


def _declares_play(scenario) -> bool:
    return bool(
        getattr(scenario, "attacks", None)
        or getattr(scenario, "blocks", None)
        or getattr(scenario, "bands", None)
        or getattr(scenario, "defending_choices", None)
        or getattr(scenario, "plays", None)
    )


def answer_assignments(question, scenario, facts, limits: Limits, session=None) -> Answer:
    limit = DEFAULT_LIMIT
    canonical = listing_order.assignments(scenario)
    result = _all_models("assignments", scenario, facts, limits, session, limit, canonical)
    assignments = [
        {str(r): n for r, n in values(model, "assignment", 2)} for model in result.models[:limit]
    ]
    answer = {
        "ask": "assignments",
        "creature": question["creature"],
        "count": result.count,
        "complete": result.complete,
        "assignments": assignments,
        **_lower_bound(result, limits.lang),
    }
    return with_rules(answer, _cites_of(result))


def answer_pay(question, scenario, facts, limits: Limits, session=None) -> Answer:
    model = solve_single("pay", scenario, facts, limits, session)
    payable = {(p, n) for p, n in values(model, "can_pay", 2)}
    can = (question["player"], question["amount"]) in payable
    answer = {"ask": "pay", "player": question["player"], "amount": question["amount"], "can": can}
    answer = _consistent(with_rules(answer, cited_rules(model)), model, "pay", facts)
    if answer.get("inconsistent"):
        answer["can"] = None  # it would rest on one of several life totals
    return answer


def answer_actions(question, scenario, facts, limits: Limits, session=None) -> Answer:
    model = solve_single("actions", scenario, facts, limits, session)
    kinds = {str(k) for (k,) in values(model, "may", 1)}
    # the kinds of play, in the vocabulary's order and spelling (kb/vocabulary.lp)
    may = [word for kind, word in vocabulary().action_words if kind in kinds]
    answer = {"ask": "actions", "player": question["player"], "may": may}
    made_by = dict(values(model, "made_by", 2))
    if made_by:
        answer["made_by"] = made_by
    return with_rules(answer, cited_rules(model))


# Each kind's answering function, imported when first asked (the registry
# names it): the dispatch table of `answer`.
ANSWERS: dict[str, Callable] = {entry.kind: entry for entry in registry.ENTRIES}


def answer(question, scenario, facts, limits: Limits, session: Session | None = None) -> Answer:
    """The answer to one question, or a plain 'not supported yet'. The
    questions of one file share `session` (mtgkb.engine.session.Session: its
    engine, its groundings, the models a batch solved ahead); without one,
    the question is answered in a session of its own."""
    kind = question.kind
    ask = registry.ask_name(kind)
    handler = ANSWERS.get(kind)
    if handler is None or not query_file(registry.query_of(kind)).exists():
        return {
            "ask": ask,
            "supported": False,
            "message": _words.text("label", "not_built", limits.lang).format(ask.replace("-", " ")),
        }
    session = Session() if session is None else session
    try:
        before = session.engine.unsatisfied
        found = handler(question, scenario, facts_for(question, facts), limits, session)
        if session.engine.unsatisfied != before and not isinstance(facts, str):
            found = _if_answer_set(found, fixed_facts(facts), session, registry.get(kind))
        if not isinstance(facts, str) and not _unanswered(found):
            found = _with_unmodelled(found, kind, facts, session)
        return found
    finally:
        shared = session.groundings
        if shared is not None and shared.scenario is scenario:
            shared.done(QUERY_OF.get(kind, kind))
        questions = getattr(scenario, "questions", None)
        if not questions or question is questions[-1]:
            session.end_file()


def _if_answer_set(found: Answer, fixed, session: Session, entry) -> Answer:
    """The answer, or, when the rule base has no answer set on the file's
    facts (a solve of it found no model), only what names the question and
    the `"inconsistent"` entry naming the statements responsible (exit 4)."""
    from mtgkb.questions import consistency

    key = SameFacts(fixed)
    if key not in session.no_answer_set:
        session.no_answer_set[key] = consistency.no_answer_set(fixed, session.engine)
    broken = session.no_answer_set[key]
    if broken is None:
        return found
    return consistency.unanswered(found, broken, [name for name, _ in entry.asked])


def _unanswered(found: Answer) -> bool:
    """Whether the answer is only the rule base's lack of an answer set."""
    return any(item.get("no_answer_set") for item in found.get("inconsistent", ()))


NOT_MODELLED_QUERY = "not_modelled"
#: the atoms that declare a rule not modelled, and the questions it concerns
NOT_MODELLED_SIGNATURES = (("not_modelled", 1), ("not_modelled_in", 2))


def _with_unmodelled(found: Answer, kind: str, facts, session: Session) -> Answer:
    """The answer with `"unmodelled"`: the CR rules the scenario brings into
    play that the rule base does not model and that could change this
    answer (kb/not_modelled.lp and the house rules' `not_modelled/1`,
    narrowed to some kinds of question by `not_modelled_in/2`). Solved once
    per file, on its facts."""
    if not query_file(NOT_MODELLED_QUERY).exists():
        return found
    fixed = fixed_facts(facts)
    key = SameFacts(fixed)
    if key not in session.unmodelled:
        # (worked out ahead for a batch chunk's files, not_modelled_ahead)
        ahead = session.ahead.pop((NOT_MODELLED_QUERY, key), None)
        if ahead is None:
            ahead = _not_modelled(fixed, session, fact_signatures(facts))
        session.unmodelled[key] = ahead
    # (an answer may carry some already: those its own model shows)
    shown = {*found.get("unmodelled", ()), *_shown(session.unmodelled[key], kind)}
    if shown:
        found["unmodelled"] = sorted(shown, key=sort_key)
    return found


def _not_modelled_files(session: Session) -> list:
    """kb/not_modelled.lp and the house rules: the programs whose
    `not_modelled/1` and `not_modelled_in/2` facts declare what is not
    modelled."""
    location = session.engine.location
    return [f for f in [location.folder("kb") / "not_modelled.lp", *location.extra] if f.is_file()]


def not_modelled_ahead(files_facts: Sequence, session: Session) -> None:
    """The rules not modelled on each of many files' facts (as `_with_unmodelled`
    reads them), worked out in one grounding of the declarations for all of
    them (a batch chunk: mtgkb.engine.scenarios.fact_atoms_many) and kept
    ahead in `session` for the files' answers; where that cannot be done,
    each file's answer works its own out."""
    if not query_file(NOT_MODELLED_QUERY).exists():
        return
    todo: dict = {}
    for facts in files_facts:
        fixed = fixed_facts(facts)
        key = SameFacts(fixed)
        if (NOT_MODELLED_QUERY, key) not in session.ahead and key not in todo:
            todo[key] = (fixed, fact_signatures(facts))
    if len(todo) < 2:
        return
    from mtgkb.engine.scenarios import fact_atoms_many

    files = _not_modelled_files(session)
    # of the facts, where their signatures are known, only those whose name
    # the files' text holds (as for a file alone, _not_modelled)
    words = _words_read(files)
    given = [_facts_named(fixed, signed, words) for fixed, signed in todo.values()]
    found = fact_atoms_many(
        [str(f) for f in files],
        [fixed for fixed, _ in given],
        NOT_MODELLED_SIGNATURES,
        session.engine,
        signatures=[signed for _, signed in given],
    )
    if found is None:
        return
    for key, held in zip(todo, found, strict=True):
        session.ahead[(NOT_MODELLED_QUERY, key)] = _declared_unmodelled(held)


def _facts_named(fixed: list, signatures: list | None, words: set[str] | None) -> tuple:
    """(facts, their signatures) of those of `fixed` whose name is one of
    `words`; all of them where either is not known (None)."""
    if words is None or signatures is None or len(signatures) != len(fixed):
        return fixed, signatures
    kept = [(f, s) for f, s in zip(fixed, signatures, strict=True) if s[0] in words]
    return [f for f, _ in kept], [s for _, s in kept]


def _not_modelled(
    fixed, session: Session, signatures: Sequence[tuple[str, int]] | None = None
) -> tuple[list[str], dict[str, set[str]]]:
    """The rules not modelled on these facts, and the kinds of question each
    is narrowed to (none: every kind). The declarations are conditions over
    the input facts (kb/not_modelled.lp, and the user's house rules), so
    they are grounded alone with the facts: a Control of a few statements,
    not another grounding of the rule base; and of the facts, where their
    `signatures` are known, only those whose name the files' text holds
    (the others cannot be read by them)."""
    files = _not_modelled_files(session)
    ctl = new_control(["--warn=none"])
    given = None  # the facts given by signature (FactRules)
    try:
        for path in files:
            ctl.load(str(path))
        if signatures is not None and len(signatures) == len(fixed):
            words = _words_read(files)
            if words is not None:  # (no #script: the facts may come by signature)
                given = FactRules(*_facts_named(fixed, signatures, words))
                ctl.add("base", [], given.text)
                fixed = given.others
        with ctl.backend() as backend:
            for fact in fixed:
                backend.add_rule([backend.add_atom(fact)])
        ctl.ground([("base", [])], context=given)
    except RuntimeError:
        return [], {}  # (the rule base's own check says what clingo could not read)
    # only the two declarations' atoms (not the scenario's facts beside them);
    # a condition with a choice is no declaration: only facts count
    declared = [ctl.symbolic_atoms.by_signature(*sig) for sig in NOT_MODELLED_SIGNATURES]
    held = [atom.symbol for found in declared for atom in found if atom.is_fact]
    return _declared_unmodelled(held)


def _declared_unmodelled(
    model: Iterable[clingo.Symbol],
) -> tuple[list[str], dict[str, set[str]]]:
    """Of a model's (or a list of atoms') `not_modelled(rule(N))` and
    `not_modelled_in(rule(N),Kind)`: the rule numbers, and the kinds each is
    narrowed to."""
    numbers = (_rule_number(rule) for (rule,) in atoms(model, "not_modelled", 1))
    rules = [n for n in numbers if n is not None]
    scoped: dict[str, set[str]] = {}
    for rule, kind in atoms(model, "not_modelled_in", 2):
        number = _rule_number(rule)
        if number is not None:
            scoped.setdefault(number, set()).add(str(kind))
    return sorted(dict.fromkeys(rules), key=sort_key), scoped


def _shown(declared: tuple[list[str], dict[str, set[str]]], kind: str) -> list[str]:
    """The declared rule numbers an answer of `kind` carries."""
    rules, scoped = declared
    return [n for n in rules if n not in scoped or kind in scoped[n]]


#: what may be a predicate's name in a program's text (and more: comments, strings)
_WORD = re.compile(r"[a-z_][A-Za-z0-9_']*")


def _words_read(files) -> set[str] | None:
    """Every word of these programs' texts that may name a predicate they
    read (a superset); None when they may read a name their text does not
    hold (an `#include`, a `#script`) or call an external function (`@f`,
    which a ground() given a context looks for there: FactRules)."""
    words: set[str] = set()
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if "#include" in text or "#script" in text or calls_functions_in(text):
            return None
        words.update(_WORD.findall(text))
    return words


def _rule_number(term: clingo.Symbol) -> str | None:
    """N of a `rule("N")` term, else None."""
    if term.type != clingo.SymbolType.Function or term.name != "rule" or len(term.arguments) != 1:
        return None
    inner = term.arguments[0]
    return inner.string if inner.type == clingo.SymbolType.String else None


def facts_for(question, facts):
    """The scenario's facts with only this question's `asked/1`: a query reads
    its parameters (which defender, which payment) from the one it is given."""
    if isinstance(facts, str):
        return facts
    from mtgkb.language.facts import question_symbol

    own = question_symbol(question)
    asked = [s for s in asked_facts(facts) if s.arguments[0] == own]
    return Facts(fixed_facts(facts), asked, fact_signatures(facts), fact_arguments(facts))
