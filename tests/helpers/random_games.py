"""A hypothesis strategy for whole games as scenario text: 2-4 players in a
free-for-all or two-player game, a Two-Headed Giant game, or an Emperor game;
the active player's creatures (first strike, double strike, lifelink, infect,
wither, toxic, trample, deathtouch, indestructible, commander, menace, a color
and protection from it) attack the others, some are blocked, and one to six
events follow: `combat damage` (possibly more than once), `check state-based
actions`, damage, life gained, lost, paid or set, an exchange of totals,
"can't" effects, poison counters, a concession, a Fog, a shield, a change
after the first-strike step.

`game_text(draw, asks)` is the file with the `ask` lines given; the names it
gives objects are `NAMES` (so that a test may rename them)."""

from __future__ import annotations

from hypothesis import strategies as st

ABILITIES = [
    "first strike",
    "double strike",
    "lifelink",
    "infect",
    "wither",
    "toxic 1",
    "trample",
    "deathtouch",
    "indestructible",
    "commander",
    "menace",
    "color red",
    "protection from red",
]
#: the objects' names: attackers, blockers, and a red source
ATTACKERS = ["X0", "X1", "X2"]
BLOCKERS = ["Y0", "Y1"]
SPARK = "Spark"
NAMES = [*ATTACKERS, *BLOCKERS, SPARK]


def creature(
    draw, controller: str, name: str, abilities: list[str] = ABILITIES, least_power: int = 0
) -> str:
    """The line of a creature with up to two of `abilities`, power and toughness up to 4."""
    abilities = draw(st.lists(st.sampled_from(abilities), max_size=2, unique=True))
    power, toughness = draw(st.integers(least_power, 4)), draw(st.integers(1, 4))
    line = f'{controller} controls creature "{name}" {power}/{toughness}'
    return line + (" with " + ", ".join(abilities) if abilities else "") + "\n"


def _table(draw) -> tuple[str, list[str], str, list[str]]:
    """The game's lines before the objects, its players, the active player and
    the players the active player may attack."""
    variant = draw(st.sampled_from(["free-for-all", "two-player", "two-headed-giant", "emperor"]))
    if variant == "two-headed-giant":
        players = ["Rob", "Alex", "Carissa", "Dana"]
        text = "game: two-headed-giant\nplayers: Rob, Alex, Carissa, Dana\n"
        text += "team North: Rob, Alex\nteam South: Carissa, Dana\nactive: Rob\n"
        if draw(st.booleans()):
            text += f"life: South {draw(st.integers(1, 8))}\n"
        return text, players, "Rob", ["Carissa", "Dana"]
    if variant == "emperor":
        players = ["A1", "E1", "A2", "B1", "E2", "B2"]
        text = "game: emperor\nplayers: A1, E1, A2, B1, E2, B2\n"
        text += "team North: A1, E1, A2\nteam South: B1, E2, B2\nemperor: E1\nemperor: E2\n"
        text += "active: A2\n"
        if draw(st.booleans()):
            text += f"life: {draw(st.sampled_from(['B1', 'E2', 'B2']))} {draw(st.integers(1, 5))}\n"
        # A2 sits beside B1: range of influence 2 and attack left reach B1 alone (809.3)
        return text, players, "A2", ["B1"]
    count = 2 if variant == "two-player" else draw(st.integers(3, 4))
    players = ["Rob", "Alex", "Carissa", "Dana"][:count]
    text = f"players: {', '.join(players)}\nactive: Rob\n"
    lives = [f"{p} {draw(st.integers(1, 6))}" for p in players if draw(st.booleans())]
    if lives:
        text += "life: " + ", ".join(lives) + "\n"
    if draw(st.booleans()):
        text += f"poison: {draw(st.sampled_from(players[1:]))} {draw(st.integers(5, 9))}\n"
    return text, players, "Rob", players[1:]


def _event(draw, players: list[str], objects: list[str], attackers: list[str]) -> str:
    kind = draw(
        st.sampled_from(
            [
                "combat",
                "combat",
                "check",
                "damage",
                "gain",
                "lose",
                "pay",
                "set",
                "exchange",
                "cant lose game",
                "cant gain",
                "cant lose",
                "poison",
                "concede",
                "fog",
                "shield",
                "after first strike",
            ]
        )
    )
    who = draw(st.sampled_from(players))
    amount = draw(st.integers(1, 4))
    thing = f'"{draw(st.sampled_from(objects))}"'
    if kind == "combat":
        return "combat damage"
    if kind == "check":
        return "check state-based actions"
    if kind == "damage":
        return f"{thing} deals {amount} damage to {draw(st.sampled_from([who, thing]))}"
    if kind == "exchange":
        other = draw(st.sampled_from([p for p in players if p != who]))
        return f"{who} exchanges life totals with {other}"
    if kind == "shield":
        target = draw(st.sampled_from([who, thing]))
        return f"prevent the next {amount} damage that would be dealt to {target}"
    if kind == "after first strike":
        change = draw(st.sampled_from(["gains double strike", "loses first strike", "gets +2/+0"]))
        return f'after first-strike damage, "{draw(st.sampled_from(attackers))}" {change}'
    return {
        "gain": f"{who} gains {amount} life",
        "lose": f"{who} loses {amount} life",
        "pay": f"{who} pays {amount} life",
        "set": f"{who}'s life total becomes {draw(st.integers(0, 6))}",
        "cant lose game": f"{who} can't lose the game",
        "cant gain": f"{who} can't gain life",
        "cant lose": f"{who} can't lose life",
        "poison": f"{who} gets {amount} poison counters",
        "concede": f"{who} concedes",
        "fog": "prevent all combat damage",
    }[kind]


def game_text(draw, asks: str) -> str:
    """One random game (see the module), then the `asks` lines."""
    text, players, active, opponents = _table(draw)
    attacks: dict[str, str] = {}
    for name in ATTACKERS[: draw(st.integers(1, 3))]:
        text += creature(draw, active, name)
        attacks[name] = draw(st.sampled_from(opponents))
    blockers = []
    for name in BLOCKERS[: draw(st.integers(0, 2))]:
        controller = draw(st.sampled_from(opponents))
        text += creature(draw, controller, name)
        blockers.append((name, controller))
    objects = [*attacks, *(name for name, _ in blockers)]
    if draw(st.booleans()):
        text += f'{active} controls creature "{SPARK}" 0/1 with color red\n'
        objects.append(SPARK)
    text += "".join(f'"{a}" attacks {d}\n' for a, d in attacks.items())
    for name, controller in blockers:
        theirs = [a for a, d in attacks.items() if d == controller]
        if theirs and draw(st.booleans()):
            text += f'"{name}" blocks "{draw(st.sampled_from(theirs))}"\n'
    for _ in range(draw(st.integers(1, 6))):
        text += _event(draw, players, objects, list(attacks)) + "\n"
    return text + asks


@st.composite
def games(draw, asks: str = "ask legal\nask outcome\n") -> str:
    return game_text(draw, asks)
