"""The examples' answers against their `*.expected.json`, as the audit checks them.

An expectation names the exit status (`"exit"`), for unreadable input the line
the message must name (`"error_line"`), and per question only the keys it
cares about: lists of names and rule numbers compare as sets, listings
(`orders`, `assignments`) as sets of items, maps of totals key by key for the
keys named, `cites` by prefix among the rules cited. Nothing here is a rule
of the game.
"""

from __future__ import annotations

import json
from pathlib import Path

from mtgkb.questions.answers import Limits

#: The bounds the examples are answered with (the deadline of `mtgkb run --timeout 60`).
LIMITS = Limits(timeout=60)

SETS = {"players", "targets", "lost", "rules", "may", "destroyed", "forbidden_by"}
LISTINGS = {"orders", "assignments"}
SOME_KEYS = {"life", "team_life", "triggers", "poison", "team_poison", "made_by"}
SETS_BY_KEY = {"known", "choice_orders"}


def _canon(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _cited(answer: dict) -> set[str]:
    rules = {str(r) for r in answer.get("rules", []) or []}
    rules |= {str(v["rule"]) for v in answer.get("violations", []) or [] if v.get("rule")}
    return rules


def _matches(key: str, want, got) -> bool:
    if key in SETS:
        return isinstance(got, list) and {str(x) for x in got} == {str(x) for x in want}
    if key in LISTINGS:
        return isinstance(got, list) and {_canon(x) for x in got} == {_canon(x) for x in want}
    if key in SOME_KEYS:
        missing = 0 if key == "triggers" else None
        return isinstance(got, dict) and all(got.get(k, missing) == v for k, v in want.items())
    if key in SETS_BY_KEY:
        return isinstance(got, dict) and all(
            isinstance(got.get(k), list) and {_canon(x) for x in got[k]} == {_canon(x) for x in v}
            for k, v in want.items()
        )
    if key == "commander_damage":
        return isinstance(got, dict) and all(
            isinstance(got.get(k), dict) and all(got[k].get(c) == n for c, n in v.items())
            for k, v in want.items()
        )
    return got == want


def answer_differences(want: dict, got: dict | None, where: str) -> list[str]:
    if not isinstance(got, dict):
        return [f"{where}: no answer"]
    found = []
    for key, value in want.items():
        if key in ("cites", "cites_any"):
            have = _cited(got)
            absent = [r for r in value if not any(h == r or h.startswith(r) for h in have)]
            if absent and (key == "cites" or len(absent) == len(value)):
                found.append(f"{where}: does not cite {' or '.join(absent)}")
        elif key not in got:
            found.append(f"{where}: has no {key!r}")
        elif not _matches(key, value, got[key]):
            found.append(
                f"{where}: {key} is {_canon(got[key])[:200]}, expected {_canon(value)[:200]}"
            )
    return found


def differences(expected: dict, status: int, output: dict, error: str | None) -> list[str]:
    """What differs between one file's answers (status, JSON object, error
    message) and its expectation; [] when they agree."""
    found = []
    want_exit = expected.get("exit", 0)
    if status != want_exit:
        found.append(f"exit {status}, expected {want_exit}")
    if want_exit == 2:
        line = expected.get("error_line")
        if line is not None and f":{line}:" not in (error or ""):
            found.append(f"the error message does not name line {line}")
        return found
    answers = output.get("answers", []) if isinstance(output, dict) else []
    for i, want in enumerate(expected.get("answers", [])):
        got = answers[i] if i < len(answers) else None
        if isinstance(got, dict) and got.get("supported") is False:
            continue  # a question not built yet is not a difference
        found += answer_differences(want, got, f"answer {i + 1} ({want.get('ask', '?')})")
    return found


def check_folder(folder: Path, name: str, progress=None) -> list[dict]:
    """Each `*.mtg` of a folder that has a `*.expected.json`, answered with the
    rule base in use: `{"scenario", "differences"}` for those that differ,
    and `{"scenario", "differences": []}` for those that agree."""
    from mtgkb.engine.state import Engine

    cases = sorted(p for p in folder.glob("*.mtg") if expectation_of(p) is not None)
    engine = Engine()  # the rule base in use, read once for the folder
    out = []
    for k, path in enumerate(cases, start=1):
        if progress:
            progress(f"answers against {name}/*.expected.json", k, len(cases))
        out.append(check_file(path, f"{name}/{path.name}", engine)[0])
    return out


def check_file(path: Path, name: str, engine) -> tuple[dict, object | None]:
    """One file answered with the rule base in use (`engine`'s), as `mtgkb run`
    answers it (under a deadline of 60 s), and compared with its
    `*.expected.json`: its entry (`{"scenario", "file", "differences",
    "cited"}`) and the run's result (mtgkb.running.runner.FileResult; None
    when the file or its expectation could not be read)."""
    from mtgkb.running.runner import answer_text

    try:
        expected, data = read_case(path)
        result = answer_text(data, str(path), LIMITS, engine=engine)
    except (OSError, ValueError) as err:
        return {"scenario": name, "differences": [str(err)]}, None
    return entry_of(path, name, expected, result), result


def read_case(path: Path) -> tuple[dict, bytes]:
    """A file's expectation and its bytes (OSError, ValueError when unreadable)."""
    expected = json.loads(expectation_of(path, True).read_text(encoding="utf-8"))
    return expected, path.read_bytes()


def answer_read(path: Path, data: bytes, scenario, engine, session=None):
    """The run's result for a file already read (`scenario`: what
    runner.parse_or_fail made of `data`), answered in this process in
    `session` (the time-out of 60 s bounding each solve, as under the
    deadline); answered again under the deadline should anything fail."""
    from mtgkb.engine.session import Session
    from mtgkb.running.runner import FileResult, answer_scenario, answer_text

    if isinstance(scenario, FileResult):
        return scenario
    try:
        session = Session(engine) if session is None else session
        return answer_scenario(scenario, str(path), LIMITS, session=session)
    except Exception:  # noqa: BLE001 - answered again under a deadline, as it was
        return answer_text(data, str(path), LIMITS, engine=engine)


def entry_of(path: Path, name: str, expected: dict, result) -> dict:
    """The comparison of a file's answers (`result`) with its expectation."""
    found = differences(expected, result.status, result.output, result.error)
    answers = (result.output or {}).get("answers", []) if isinstance(result.output, dict) else []
    cited = sorted(set().union(*(_cited(a) for a in answers if isinstance(a, dict))))
    return {"scenario": name, "file": str(path), "differences": found, "cited": cited}


def expectation_of(path: Path, anyway: bool = False) -> Path | None:
    """The `*.expected.json` beside a scenario file: None when there is none
    (`anyway`: the path it would have)."""
    found = path.with_name(path.name[: -len(".mtg")] + ".expected.json")
    return found if anyway or found.is_file() else None


def expected_answers(base, progress=None) -> list[dict]:
    """The example files beside the rule base `base` (mtgkb.audit.sources.Base)
    answered with it, made the rule base in use for the while, and compared
    with their `*.expected.json`."""
    from mtgkb.rulebase.tested import example_folders

    with base.in_use():
        out = []
        for folder, name in example_folders(base.root):
            out += check_folder(folder, name, progress)
        return out
