"""perft for Magic combat: mtgkb as the test oracle of an engine's move generator.

Chess engines check their move generators by counting the positions reached
from a known one ("perft") and comparing with a trusted count. This client
does the same for combat: from a seed it makes random two-player combats,
counts the attack and block declarations with its own tiny move generator,
declares a random play (legal, or made illegal on purpose), and checks the
counts and the verdict against mtgkb's exact answers.

The move generator is plain combinatorics, and on purpose re-implements no
game rule beyond the trivial: the creatures are vanilla (no abilities, none
tapped), so each of the active player's A creatures stays home or attacks the
opponent or one of the opponent's K planeswalkers ((K + 2)^A declarations,
508.1a), and each of the opponent's B creatures blocks one attacking creature
or none ((attackers + 1)^B, 509.1a). A play is illegal exactly when it is
outside that move list: here, a creature blocking one that does not attack.

    python examples/engine/perft.py --seed 7 --positions 50 --size 4
    python examples/engine/perft.py --url http://127.0.0.1:8765   # over HTTP (mtgkb serve)

It uses only mtgkb's public API (mtgkb.run_many) or the HTTP API (POST
/v1/run), prints one line per disagreement and a summary, and exits 0 when
mtgkb and the move generator agree on everything, 1 otherwise.
"""

import argparse
import json
import random
import sys
import urllib.request


def position(rng: random.Random, size: int) -> tuple[str, dict]:
    """A random combat (scenario text) and what the move generator expects of it."""
    ann = [f"A{i}" for i in range(rng.randint(1, size))]
    ben = [f"B{i}" for i in range(rng.randint(0, size))]
    walkers = [f"W{i}" for i in range(rng.randint(0, 2))]
    lines = ["players: Ann, Ben", "active: Ann"]
    lines += [f'Ann controls creature "{c}" {rng.randint(0, 5)}/{rng.randint(1, 5)}' for c in ann]
    lines += [f'Ben controls creature "{c}" {rng.randint(0, 5)}/{rng.randint(1, 5)}' for c in ben]
    lines += [f'Ben controls planeswalker "{w}" loyalty 3' for w in walkers]
    attacking = [c for c in ann if rng.random() < 0.6]  # one move of the generator
    targets = ["Ben", *(f'"{w}"' for w in walkers)]
    lines += [f'"{c}" attacks {rng.choice(targets)}' for c in attacking]
    home = [c for c in ann if c not in attacking]
    illegal = bool(ben and home) and rng.random() < 0.3  # a block outside the move list
    for blocker in ben:
        choice = rng.choice([None, *attacking])
        if illegal and blocker == ben[0]:
            choice = rng.choice(home)
        if choice is not None:
            lines.append(f'"{blocker}" blocks "{choice}"')
    lines += ["ask legal", "ask attacks limit 1", "ask blocks for Ben limit 1"]
    expected = {
        "legal": not illegal,
        "attacks": (len(walkers) + 2) ** len(ann),
        "blocks": (len(attacking) + 1) ** len(ben),
    }
    return "\n".join(lines) + "\n", expected


def oracle_answers(texts: list[str], url: str | None):
    """mtgkb's answer to each text, in order: in-process or over HTTP."""
    if url is None:
        import mtgkb

        for outcome in mtgkb.run_many(texts):
            yield outcome.result()
        return
    for text in texts:
        request = urllib.request.Request(
            url.rstrip("/") + "/v1/run", text.encode(), {"Content-Type": "text/plain"}
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            yield json.load(response)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--size", type=int, default=4, help="most creatures per player")
    parser.add_argument("--url", default=None, help="a mtgkb serve to ask (default: in-process)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    cases = [position(rng, args.size) for _ in range(args.positions)]
    answers = oracle_answers([text for text, _ in cases], args.url)
    disagreements = 0
    for index, ((_, expected), answer) in enumerate(zip(cases, answers, strict=True)):
        by_kind = {a["ask"]: a for a in answer["answers"]}
        got = {
            "legal": by_kind["legal"]["legal"],
            "attacks": by_kind["attacks"]["count"] if by_kind["attacks"]["complete"] else None,
            "blocks": by_kind["blocks"]["count"] if by_kind["blocks"]["complete"] else None,
        }
        for key in expected:
            if got[key] != expected[key]:
                disagreements += 1
                print(f"position {index}: {key}: mtgkb {got[key]}, move generator {expected[key]}")
    illegal = sum(1 for _, expected in cases if not expected["legal"])
    verdict = "agree" if disagreements == 0 else f"DISAGREE on {disagreements} figure(s)"
    print(
        f"perft seed {args.seed}: {len(cases)} positions ({illegal} illegal plays), "
        f"attack counts, block counts and verdicts: {verdict}"
    )
    return 0 if disagreements == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
