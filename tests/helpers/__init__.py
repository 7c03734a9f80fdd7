"""Helpers of the tests, in one place: the rule base solved on hand-written
facts, the facts of tables, combats and life events in the schema of
docs/predicates.md, a hypothesis strategy for scenario files, and the shared
conformance folder (tests that need it skip when it is absent).

Test modules import from here (this package), never from one another
(conftest.py only re-exports these names for older imports). Beside them:
`answering` (the test process's one engine and answerer, which the others
answer with), `combat_answers` and `player_answers` (a scenario text
answered end to end),
`expectations` (answers compared as the conformance checker does),
`serving` (a real `mtgkb serve`), `rule_base_copies` (`mtgkb` as a
command on a copy of the rule base) and `random_games` (a hypothesis
strategy for whole games with their events, as scenario text).
"""

import json
import os
from pathlib import Path

import clingo
import pytest
from hypothesis import strategies as st

from mtgkb.audit.corpus import ABILITIES as LANGUAGE_ABILITIES
from mtgkb.engine.solve import models_as_text
from mtgkb.rulebase.control import new_control

from .answering import engine

ROOT = Path(__file__).resolve().parents[2]  # tests/helpers/ -> the checkout
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"

needs_shared = pytest.mark.skipif(
    not CONFORMANCE.is_dir(), reason="../shared is not beside this checkout"
)


#: Property tests run a few of their examples in the fast tier (the README's
#: command) and all of them where MTGKB_EXAMPLES=all (.ci/run's slow tier).
ALL_EXAMPLES = os.environ.get("MTGKB_EXAMPLES") == "all"


def examples(n: int) -> int:
    """`n` examples where MTGKB_EXAMPLES=all, else a tenth of them (at least 3)."""
    return n if ALL_EXAMPLES else max(3, n // 10)


def random_cases(slow: int, fast: int):
    """hypothesis's settings for a property test over random cases: `slow`
    examples where MTGKB_EXAMPLES=all (the slow tier), else `fast`; the same
    examples on every run, and no time limit on one (a slow machine fails
    no test)."""
    from hypothesis import HealthCheck, settings

    return settings(
        max_examples=slow if ALL_EXAMPLES else fast,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )


def models(query: str, facts: str, **options) -> list[set[str]]:
    """The shown atoms of every model of `queries/<query>.lp` on `facts`."""
    options.setdefault("engine", engine())
    return models_as_text(query, facts_read(facts), **options)


def facts_read(text: str):
    """Facts written as text, read into symbols as a scenario's facts are, so
    that the rule base is sliced for them as it is for a scenario (facts given
    as text are grounded with the whole rule base: about five times the work);
    text with a rule, a choice or a directive in it stays text."""
    if ":-" in text or "#" in text:
        return text
    ctl = new_control(["--warn=none"])
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    atoms = list(ctl.symbolic_atoms)
    if not all(atom.is_fact for atom in atoms):  # `{ a }.`, `a ; b.`: not facts
        return text
    return [atom.symbol for atom in atoms]


def only_model(query: str, facts: str) -> set[str]:
    """The shown atoms of the single model; fails if there is not exactly one."""
    found = models(query, facts)
    assert len(found) == 1, f"expected one model, got {len(found)}: {found}"
    return found[0]


def quoted(name: str) -> str:
    """A clingo string literal for a user name (names are data)."""
    return json.dumps(name, ensure_ascii=False)


def table_facts(
    players,
    active=None,
    *,
    game=None,
    starting=None,
    phase=None,
    teams=None,
    options=(),
    ranges=None,
    extra=(),
) -> str:
    """The facts of a table in the schema of docs/predicates.md: players in
    seat order, the active player (first by default), the variant (two-player
    or free-for-all by count by default), and only the other settings given."""
    game = game or ("two_player" if len(players) == 2 else "free_for_all")
    lines = [f"game({game}).", f"active({quoted(active or players[0])})."]
    if starting is not None:
        lines.append(f"starting({quoted(starting)}).")
    if phase is not None:
        lines.append(f"phase({phase}).")
    lines += [f"option({o})." for o in options]
    for seat, player in enumerate(players, start=1):
        lines.append(f"player({quoted(player)}). seat({quoted(player)},{seat}).")
    for team, members in (teams or {}).items():
        lines += [f"team({quoted(team)},{quoted(m)})." for m in members]
    for player, n in (ranges or {}).items():
        lines.append(f"range({quoted(player)},{n}).")
    lines += list(extra)
    return "\n".join(lines) + "\n"


def arguments(term: clingo.Symbol) -> list:
    """A term's arguments as Python strings and numbers."""
    return [a.string if a.type == clingo.SymbolType.String else a.number for a in term.arguments]


def sequence_of(model, name: str) -> tuple:
    """The X of every `name(Pos,X)` atom of a model (atoms as text), by position."""
    pairs = []
    for text in model:
        term = clingo.parse_term(text)
        if term.name == name and len(term.arguments) == 2:
            pairs.append(arguments(term))
    return tuple(x for _, x in sorted(pairs))


# -------------------- combat facts

s = quoted  # a clingo string literal for a user name (names are data)


def combat_table(players, *, active=None, game=None, options=(), teams=None, ranges=None, extra=()):
    """The facts of a table: players in seat order, the variant, options and teams."""
    return table_facts(
        players, active, game=game, options=options, teams=teams, ranges=ranges, extra=extra
    )


def creature(controller, name, power=2, toughness=2, *abilities):
    """A creature with its abilities (constants of the has/2 vocabulary)."""
    out = [
        f"object({s(name)}). controls({s(controller)},{s(name)}). card_type({s(name)},creature).",
        f"power({s(name)},{power}). toughness({s(name)},{toughness}).",
    ]
    out += [f"has({s(name)},{a})." for a in abilities]
    return "\n".join(out) + "\n"


def permanent(controller, name, kind, **extra):
    """A planeswalker, battle or land (land types as `types=[...]`)."""
    out = [f"object({s(name)}). controls({s(controller)},{s(name)}). card_type({s(name)},{kind})."]
    if "protector" in extra:
        out.append(f"protects({s(extra['protector'])},{s(name)}).")
    for t in extra.get("types", ()):
        out.append(f"land_type({s(name)},{s(t)}).")
    if kind == "planeswalker":
        out.append(f"loyalty({s(name)},{extra.get('loyalty', 3)}).")
    if kind == "battle":
        out.append(f"defense({s(name)},{extra.get('defense', 5)}).")
    return "\n".join(out) + "\n"


def attack(c, x):
    return f"declared_attack({s(c)},{s(x)}).\n"


def block(b, c):
    return f"declared_block({s(b)},{s(c)}).\n"


def band(k, *members):
    return "".join(f"band({k},{s(m)}).\n" for m in members)


def ask(q):
    return f"asked({q}).\n"


def cites(model):
    return {a[len('cites(rule("') : -3] for a in model if a.startswith("cites(")}


def atoms(model, name):
    return {a for a in model if a.startswith(name + "(")}


# -------------------- life facts

VIOLATIONS = "#show violation/2. #show because/2.\n"


def players(*names, game="two_player"):
    facts = f"game({game}).\n"
    for seat, name in enumerate(names, start=1):
        facts += f'player("{name}"). seat("{name}",{seat}).\n'
    return facts + f'active("{names[0]}").\n'


def events(*terms):
    return "".join(f"event({i},{t}).\n" for i, t in enumerate(terms, start=1))


def life_creature(owner, name, *abilities):
    facts = f'object("{name}"). controls("{owner}","{name}"). card_type("{name}",creature).\n'
    return facts + "".join(f'has("{name}",{a}).\n' for a in abilities)


def outcome(facts):
    return only_model("outcome", facts + "asked(outcome).\n")


def life(model):
    return {a for a in model if a.startswith("life(")}


# -------------------- scenario files from the grammar (hypothesis)

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
OBJECTS = ["Bear", "Wall", "Angel", "Giant", "Elf", "Jace", "Mountain", "Siege", "Hero", "Spider"]
GAMES = [
    "two-player",
    "free-for-all",
    "grand-melee",
    "team-vs-team",
    "two-headed-giant",
    "emperor",
    "commander",
    "brawl",
    "archenemy",
    "vanguard",
]
OPTIONS = [
    "attack-multiple-players",
    "attack-left",
    "attack-right",
    "shared-team-turns",
    "range-of-influence 1",
    "range-of-influence 2",
]
PHASES = [
    "start-of-game",
    "beginning-of-combat",
    "declare-attackers",
    "declare-blockers",
    "combat-damage",
    "main",
]
ABILITIES = [*LANGUAGE_ABILITIES, "can't attack Ben"]
QUESTIONS = [
    "legal",
    "defending players",
    'attack targets for "Bear"',
    "attacks limit 3",
    "blocks",
    "blocks for Ben limit 2",
    "order",
    "block order",
    "damage order",
    "knowledge",
    "stack",
    "outcome",
    "can Ann pay 3 life",
    "explain",
]

_names_st = st.sampled_from(OBJECTS)
_players_st = st.sampled_from(PLAYERS)
_small_st = st.integers(min_value=-1, max_value=25)


@st.composite
def scenario(draw) -> str:
    """Mostly well-formed scenarios (names refer to what exists, variants get
    the lines they need), some not: both must be handled."""
    n = draw(st.integers(min_value=2, max_value=5))
    table = PLAYERS[:n]
    lines = []
    game = draw(
        st.sampled_from(
            [
                None,
                None,
                "free-for-all",
                "commander",
                "vanguard",
                "team-vs-team",
                "two-headed-giant",
                "archenemy",
                "two-player",
            ]
        )
    )
    if game == "two-player" and n != 2 or game in ("team-vs-team", "two-headed-giant") and n != 4:
        game = None
    if game:
        lines.append(f"game: {game}")
    if game == "free-for-all" or (game is None and n > 2 and draw(st.booleans())):
        lines.append(f"option: {draw(st.sampled_from(OPTIONS[:3]))}")
    if draw(st.integers(0, 9)) == 0:
        lines.append(f"option: {draw(st.sampled_from(OPTIONS))}")
    lines.append(f"players: {', '.join(table)}")
    if game in ("team-vs-team", "two-headed-giant"):
        lines += [f"team Reds: {table[0]}, {table[1]}", f"team Blues: {table[2]}, {table[3]}"]
    if game == "archenemy":
        lines.append(f"archenemy: {table[0]}")
    if draw(st.booleans()):
        lines.append(f"active: {draw(st.sampled_from(table))}")
    if draw(st.booleans()):
        lines.append(f"phase: {draw(st.sampled_from(PHASES))}")
    if draw(st.booleans()) and game != "two-headed-giant":
        lines.append(f"life: {draw(st.sampled_from(table))} {draw(_small_st)}")
    if draw(st.integers(0, 5)) == 0:
        lines.append(f"rule: no more than {draw(st.integers(1, 2))} creatures can attack")
    kinds: dict[str, list[str]] = {"creature": [], "planeswalker": [], "land": [], "battle": []}
    for obj in draw(st.lists(_names_st, max_size=8, unique=True)):
        owner = draw(st.sampled_from(table))
        kind = draw(st.sampled_from(["creature"] * 5 + ["planeswalker", "land", "battle"]))
        kinds[kind].append(obj)
        if kind == "creature":
            abilities = draw(st.lists(st.sampled_from(ABILITIES), max_size=3, unique=True))
            tail = f" with {', '.join(abilities)}" if abilities else ""
            lines.append(
                f'{owner} controls creature "{obj}" {draw(_small_st)}/{draw(_small_st)}{tail}'
            )
        elif kind == "planeswalker":
            lines.append(f'{owner} controls planeswalker "{obj}" loyalty {draw(_small_st)}')
        elif kind == "land":
            lines.append(f'{owner} controls land "{obj}" with type mountain')
        else:
            protector = draw(st.sampled_from(table))
            lines.append(f'{owner} controls battle "{obj}" defense 3 protected by {protector}')
    creatures = kinds["creature"] or ["Bear"]  # "Bear" may not exist: an error to report
    creature = st.sampled_from(creatures)
    target = st.sampled_from(table + [f'"{o}"' for o in kinds["planeswalker"] + kinds["battle"]])
    for c in creatures:
        if draw(st.booleans()):
            lines.append(f'"{c}" attacks {draw(target)}')
    for _ in range(draw(st.integers(0, 5))):
        what = draw(st.sampled_from(["block", "block", "band", "choose", "event", "event"]))
        p, q = draw(st.sampled_from(table)), draw(st.sampled_from(table))
        if what == "block":
            lines.append(f'"{draw(creature)}" blocks "{draw(creature)}"')
        elif what == "band":
            lines.append(f'band "{draw(creature)}", "{draw(creature)}"')
        elif what == "choose":
            lines.append(f"{p} chooses {q} as defending player")
        else:
            lines.append(
                draw(
                    st.sampled_from(
                        [
                            f'"{draw(creature)}" deals {draw(_small_st)} damage to {p}',
                            f"{p} loses {draw(_small_st)} life",
                            f"{p} gains {draw(_small_st)} life",
                            f"{p} pays {draw(_small_st)} life",
                            f"{p}'s life total becomes {draw(_small_st)}",
                            f"{p} exchanges life totals with {q}",
                            f"{p} can't gain life",
                            f"{p} can't lose the game",
                            "combat damage",
                            "each player sacrifices a creature",
                            "each player draws a card",
                            "each player chooses a creature, then a land",
                            "each player chooses a card from their hand",
                            f"{p}'s choice makes {q} choose",
                            f'trigger "Trigger {len(lines)}" controlled by {p}',
                        ]
                    )
                )
            )
    asks = draw(st.lists(st.sampled_from(QUESTIONS), min_size=1, max_size=3))
    for question in asks:
        lines.append("ask " + question.replace('"Bear"', f'"{creatures[0]}"'))
    if draw(st.integers(0, 9)) == 0:
        lines = draw(st.permutations(lines))
    return "\n".join(lines) + "\n"


# Example 03's play (conformance c05): Alex's Grizzly Bears blocks Hill Giant,
# which attacks Carissa (illegal by 802.4a). Questions are added by each test.
ILLEGAL_BLOCK_PLAY = """players: Rob, Alex, Carissa
active: Rob
Rob controls creature "Runeclaw Bear" 2/2
Rob controls creature "Hill Giant" 3/3
Alex controls creature "Grizzly Bears" 2/2
"Runeclaw Bear" attacks Alex
"Hill Giant" attacks Carissa
"Grizzly Bears" blocks "Hill Giant"
"""


def requirement_combat(folder, n: int, filename: str):
    """A file whose answer is costly to work out: n lifelink attackers and
    n - 1 blockers that block each combat if able (509.1c), so every pair of
    blocker and attacker is judged for the best block."""
    lines = ["players: Ann, Ben"]
    lines += [f'Ann controls creature "A{i}" 2/2 with lifelink' for i in range(n)]
    lines += [
        f'Ben controls creature "B{i}" 1/1 with blocks each combat if able' for i in range(n - 1)
    ]
    lines += [f'"A{i}" attacks Ben' for i in range(n)]
    lines += [f'"B{i}" blocks "A{i}"' for i in range(n - 1)]
    lines += ["combat damage", "ask outcome", "ask legal"]
    path = folder / filename
    path.write_text("\n".join(lines) + "\n")
    return path


def canonical_answers(output: dict) -> str:
    """The answers with the lists the spec calls sets in one order (the order
    in which clingo enumerates models depends on the program it grounds)."""

    def canon(value):
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key in ("orders", "assignments"):
                    complete = value.get("count", len(item)) <= len(item)
                    item = sorted(json.dumps(x, sort_keys=True) for x in item)
                    out[key] = item if complete else len(item)
                else:
                    out[key] = canon(item)
            return out
        if isinstance(value, list):
            return [canon(x) for x in value]
        return value

    return json.dumps(canon(output), sort_keys=True)


# -------------------- an explained combat

# Rob's flyer is blocked by Alex's creature without reach (702.9b); Carissa's
# block is legal; combat damage moves life totals (119.3), Rob's lifelink
# gains life (702.15b), and destroys.
EXPLAIN_COMBAT = """players: Rob, Alex, Carissa
active: Rob
Rob controls creature "Serra Angel" 4/4 with flying
Rob controls creature "Hill Giant" 3/3 with lifelink
Rob controls creature "Goblin" 1/1
Alex controls creature "Grizzly Bears" 2/2
Carissa controls creature "Wall" 0/4
"Serra Angel" attacks Alex
"Hill Giant" attacks Carissa
"Goblin" attacks Alex
"Grizzly Bears" blocks "Serra Angel"
"Wall" blocks "Hill Giant"
combat damage
ask legal
ask outcome
ask explain
"""


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path a -> ... -> a, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


#: A request's time-out in the server tests that expect an answer: a test
#: bounds work, never seconds, so a loaded machine must not turn an answer
#: into a 503 (the tests of time-outs set their own).
PATIENT_SECONDS = 600.0
#: The same for `mtgkb serve` started by a test.
PATIENT_SERVE = ("--timeout", "600")


def patient_settings(**given):
    """mtgkb.serve.app.Settings for a test that expects answers: `given`, with
    a time-out no slow machine reaches."""
    from mtgkb.serve import app as server

    return server.Settings(**{"timeout": PATIENT_SECONDS, "max_timeout": PATIENT_SECONDS, **given})


def much_work() -> str:
    """A scenario far more work than any time-out a test sets: `ask blocks`
    where fourteen attackers with menace that must be blocked if able
    (509.1c, 702.111b) face 27 blockers. Listing a declaration needs the
    most requirements obeyed, and proving that 13, not 14, is a pigeonhole
    problem (two blockers each, 28 > 27): clasp's clause learning takes
    exponential time to refute it, and so does the walk over the counting
    forms (mtgkb.engine.first_declarations), whose counts split the
    attackers' classes as it fixes picks. Measured: stopped at 120 s, 70 MB.
    (Twelve attackers and 23 blockers served here until a file alone was
    listed from the counting forms, which answered them in 3 s; twelve
    menace attackers before that, until mtgkb.engine.classes counted their
    blocks in a blink; then a 300/300 trampler's 10^12 damage assignments
    until it counted those too.)"""
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [
        f'Ann controls creature "M{i}" 2/2 with menace, must be blocked if able' for i in range(14)
    ]
    lines += [f'Ben controls creature "B{j}" 2/2' for j in range(27)]
    lines += [f'"M{i}" attacks Ben' for i in range(14)]
    lines.append("ask blocks for Ben limit 1")
    return "\n".join(lines) + "\n"


#: Ben at 3 life takes the Hill Giant's 3 combat damage: he loses (104.3b,
#: 119.3; the caches' tests answer it with and without them).
ZERO_LIFE = """players: Ann, Ben
life: Ben 3
Ann controls creature "Hill Giant" 3/3
"Hill Giant" attacks Ben
combat damage
ask outcome
"""


#: A creature attacking a planeswalker, its damage and outcome asked: the
#: loyalty damage of 120.3c is not modelled (tests of the rules not modelled).
PLANESWALKER = """players: Ann, Ben
phase: combat-damage
Ann controls creature "Hill Giant" 3/3
Ben controls planeswalker "Jace Beleren" loyalty 3
"Hill Giant" attacks "Jace Beleren"
combat damage
ask legal
ask outcome
"""


#: A 2/2 with lifelink attacking, blocked by a 0/4, and the combat damage
#: dealt: 702.15b gains Ann the 2 the Bear deals (`.replace("lifelink",
#: "deathtouch")`: 704.5h destroys the Wall).
LIFELINK_COMBAT = """players: Ann, Ben
active: Ann
phase: declare-blockers
Ann controls creature "Bear" 2/2 with lifelink
Ben controls creature "Wall" 0/4
"Bear" attacks Ben
"Wall" blocks "Bear"
combat damage
ask legal
ask outcome
"""


def counted_calls(monkeypatch, module, name: str) -> list:
    """The calls made from now on to `module.name` (each its arguments), the
    function still doing its work: how a test sees that a cache was read
    again (one call) or not (none)."""
    calls: list = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls
