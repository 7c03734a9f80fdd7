"""Loose comparison of an answer with an expected answer, with the semantics
of the shared conformance checker: only the keys the expectation names are
checked; sets where the spec says lists are sets; `cites` are rule prefixes."""

import json

SET_KEYS = {"players", "targets", "lost", "rules"}
SEQ_SET_KEYS = {"orders", "assignments"}
PARTIAL_MAP_KEYS = {"life", "team_life", "triggers"}
MAP_OF_SETS_KEYS = {"known", "choice_orders"}


def _canon(value) -> str:
    return json.dumps(value, sort_keys=True)


def cited(answer: dict) -> set[str]:
    rules = set(answer.get("rules", []) or [])
    rules |= {v["rule"] for v in answer.get("violations", []) or []}
    return rules


def problems(expected: dict, actual: dict) -> list[str]:
    """What differs between an expected answer and the actual one."""
    found = []
    for key, want in expected.items():
        if key in ("cites", "cites_any"):
            have = cited(actual)
            missing = [r for r in want if not any(h.startswith(r) for h in have)]
            if missing if key == "cites" else len(missing) == len(want):
                found.append(f"{key}: {missing} not cited (cited {sorted(have)})")
            continue
        got = actual.get(key)
        if key in SET_KEYS:
            ok = isinstance(got, list) and set(map(str, got)) == set(map(str, want))
        elif key in SEQ_SET_KEYS:
            ok = isinstance(got, list) and {_canon(x) for x in got} == {_canon(x) for x in want}
        elif key in PARTIAL_MAP_KEYS:
            default = 0 if key == "triggers" else None
            ok = isinstance(got, dict) and all(got.get(k, default) == v for k, v in want.items())
        elif key in MAP_OF_SETS_KEYS:
            ok = isinstance(got, dict) and all(
                {_canon(x) for x in got.get(k, [])} == {_canon(x) for x in v}
                for k, v in want.items()
            )
        else:
            ok = got == want
        if not ok:
            found.append(f"{key} is {_canon(got)[:200]}, expected {_canon(want)[:200]}")
    return found
