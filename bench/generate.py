"""Random scenario files for the benchmarks, the fuzz tests and bulk checks.

Every generator takes a `random.Random` (or a seed) and returns the text of
one `.mtg` file, so a corpus is reproducible from its seed:

    python -m bench.generate combat --count 100 --seed 1 --out /tmp/corpus
    python -m bench.generate scale --creatures 50 > big.mtg

`combat` is the batch benchmark's unit: a free-for-all with the attack
multiple players option, the active player attacking with every creature it
may, random abilities, and random blocks of which some break a rule.
`scale` is one large combat: every creature of the active player attacks,
every creature of every other player blocks. `enumeration` is a block
declaration with a known number of legal answers (B+1)^D for D blockers and
B attackers. `astronomical` is a declaration space far beyond any model cap.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

PLAYER_NAMES = (
    "Ann Ben Cat Dan Eve Fay Gus Hal Ivy Jon Kim Lee Max Ned Ola Pat "
    "Quin Rae Sam Tom Uma Vic Wes Xia Yul Zed"
).split()

# Abilities a random creature may have, with the odds of each (independent).
CREATURE_ABILITIES = (
    ("flying", 0.20),
    ("reach", 0.10),
    ("menace", 0.08),
    ("lifelink", 0.10),
    ("mountainwalk", 0.05),
    ("shadow", 0.03),
    ("defender", 0.04),
    ("can't block", 0.04),
    ("haste", 0.05),
    ("tapped", 0.04),
    ("whenever you gain life", 0.05),
    ("blocks each combat if able", 0.03),
    ("can't block alone", 0.02),
)


def _rng(seed: int | random.Random | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def player_names(n: int) -> list[str]:
    """n distinct bare player names."""
    if n <= len(PLAYER_NAMES):
        return list(PLAYER_NAMES[:n])
    return [f"P{i}" for i in range(1, n + 1)]


def _abilities(rng: random.Random, pool=CREATURE_ABILITIES) -> list[str]:
    return [name for name, odds in pool if rng.random() < odds]


def _creature(owner: str, name: str, rng: random.Random, abilities: list[str]) -> str:
    power, toughness = rng.randint(0, 6), rng.randint(1, 6)
    tail = f" with {', '.join(abilities)}" if abilities else ""
    return f'{owner} controls creature "{name}" {power}/{toughness}{tail}'


def combat(
    seed: int | random.Random | None = None,
    players: int = 4,
    creatures: int = 8,
    illegal: float = 0.2,
    block_odds: float = 0.5,
    questions: tuple[str, ...] = ("legal", "outcome"),
) -> str:
    """A free-for-all combat: random abilities, random legal and illegal blocks.

    The active player's creatures that may attack attack a random opponent;
    each other creature blocks with `block_odds`: usually an attacker that
    attacks its controller, with odds `illegal` any attacker at all (which
    802.4a may forbid). Abilities (flying, menace, ...) make more blocks
    illegal. Then combat damage, and the `questions`.
    """
    rng = _rng(seed)
    names = player_names(players)
    active = names[0]
    lines = [
        "game: free-for-all" if players > 2 else "game: two-player",
        *(["option: attack-multiple-players"] if players > 2 else []),
        f"players: {', '.join(names)}",
        f"active: {active}",
        "phase: declare-blockers",
    ]
    owned: dict[str, list[tuple[str, list[str]]]] = {}
    for p in names:
        owned[p] = []
        for i in range(1, creatures + 1):
            abilities = _abilities(rng)
            name = f"{p} {i}"
            owned[p].append((name, abilities))
            lines.append(_creature(p, name, rng, abilities))
        if rng.random() < 0.3:
            lines.append(f'{p} controls land "{p} Mountain" with type mountain')
    attacks: dict[str, str] = {}
    for name, abilities in owned[active]:
        if any(a in abilities for a in ("defender", "tapped")):
            continue
        target = rng.choice(names[1:])
        attacks[name] = target
        lines.append(f'"{name}" attacks {target}')
    attackers = list(attacks)
    for p in names[1:]:
        mine = [a for a in attackers if attacks[a] == p]
        for name, _ in owned[p]:
            if not attackers or rng.random() >= block_odds:
                continue
            pool = attackers if (rng.random() < illegal or not mine) else mine
            lines.append(f'"{name}" blocks "{rng.choice(pool)}"')
    lines.append("combat damage")
    lines.extend(f"ask {q}" for q in questions)
    return "\n".join(lines) + "\n"


def scale(
    creatures: int = 50,
    players: int = 8,
    seed: int | random.Random | None = 0,
    questions: tuple[str, ...] = ("legal", "outcome"),
) -> str:
    """One big combat: every creature of the active player attacks (round
    robin over the opponents), every creature of every other player blocks an
    attacker attacking its controller. Plain creatures with a sprinkle of
    flying, reach and lifelink, so that every block is legal or not for a
    reason the rules must check."""
    rng = _rng(seed)
    names = player_names(players)
    active, others = names[0], names[1:]
    pool = (("flying", 0.15), ("reach", 0.15), ("lifelink", 0.1))
    lines = [
        "game: free-for-all",
        "option: attack-multiple-players",
        f"players: {', '.join(names)}",
        f"active: {active}",
        "phase: declare-blockers",
    ]
    for p in names:
        for i in range(1, creatures + 1):
            lines.append(_creature(p, f"{p} {i}", rng, _abilities(rng, pool)))
    attacking: dict[str, list[str]] = {p: [] for p in others}
    for i in range(1, creatures + 1):
        target = others[(i - 1) % len(others)]
        attacking[target].append(f"{active} {i}")
        lines.append(f'"{active} {i}" attacks {target}')
    for p in others:
        for i in range(1, creatures + 1):
            if attacking[p]:
                lines.append(f'"{p} {i}" blocks "{attacking[p][(i - 1) % len(attacking[p])]}"')
    lines.append("combat damage")
    lines.extend(f"ask {q}" for q in questions)
    return "\n".join(lines) + "\n"


def enumeration(blockers: int = 6, attackers: int = 5, limit: int = 5) -> str:
    """Two players, `attackers` vanilla attackers and `blockers` vanilla
    blockers: each blocker blocks one attacker or none, so exactly
    (attackers + 1) ** blockers legal block declarations (6^6 by default)."""
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'Ann controls creature "A{i}" 2/2' for i in range(1, attackers + 1)]
    lines += [f'Ben controls creature "B{i}" 2/2' for i in range(1, blockers + 1)]
    lines += [f'"A{i}" attacks Ben' for i in range(1, attackers + 1)]
    lines.append(f"ask blocks for Ben limit {limit}")
    return "\n".join(lines) + "\n"


def astronomical(attackers: int = 20, blockers: int = 20) -> str:
    """21^20 block declarations (20 blockers, each blocking one of 20
    attackers or none) and 2^20 attack declarations: far past any model cap,
    so only --max-models and --timeout can end the enumeration."""
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'Ann controls creature "A{i}" 2/2' for i in range(1, attackers + 1)]
    lines += [f'Ben controls creature "B{i}" 2/2' for i in range(1, blockers + 1)]
    lines += [f'"A{i}" attacks Ben' for i in range(1, attackers + 1)]
    lines += ["ask blocks for Ben limit 3", "ask attacks limit 3"]
    return "\n".join(lines) + "\n"


def corpus(count: int, seed: int = 1, **options) -> list[str]:
    """`count` combat scenarios from one seed."""
    rng = random.Random(seed)
    return [combat(rng, **options) for _ in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.generate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("kind", choices=["combat", "scale", "enumeration", "astronomical"])
    parser.add_argument("--count", type=int, default=1, help="how many files (combat)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--creatures", type=int, default=None, help="creatures per player")
    parser.add_argument("--out", type=Path, default=None, help="a folder for the files")
    args = parser.parse_args(argv)
    sizes = {k: v for k, v in (("players", args.players), ("creatures", args.creatures)) if v}
    if args.kind == "combat":
        texts = corpus(args.count, args.seed, **sizes)
    elif args.kind == "scale":
        texts = [scale(seed=args.seed, **sizes)]
    elif args.kind == "enumeration":
        texts = [enumeration()]
    else:
        texts = [astronomical()]
    if args.out is None:
        sys.stdout.write("".join(texts))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    width = len(str(len(texts)))
    for i, text in enumerate(texts, start=1):
        (args.out / f"{args.kind}_{i:0{width}d}.mtg").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
