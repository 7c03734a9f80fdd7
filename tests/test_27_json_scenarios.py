"""JSON game states (issue 27, item 1): a scenario as JSON data, described by
a published JSON Schema, read by every door (`mtgkb run`, `mtgkb.run`,
`POST /v1/run`, `serve --stdio`), converted to and from `.mtg` text
losslessly, its errors naming the JSON path.

The round trip runs over every `.mtg` file of the repository and of
../shared (its cases skipped where it is absent), and over every example
line of docs/language.md (which has an example of every statement of the
grammar): mtg -> json -> mtg -> json is a fixed point and the facts agree;
the answers of both forms agree over the CLI and over `serve --stdio`
(the slow tier: two runs of every file each).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import CONFORMANCE, PATIENT_SERVE, ROOT, examples, patient_settings, scenario
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgkb.language.errors import ScenarioError
from mtgkb.language.facts import scenario_facts
from mtgkb.language.json_state import (
    SCHEMA_FILE,
    check_schema,
    convert,
    parse_scenario,
    scenario_state,
    schema,
    state_to_text,
    text_to_state,
    write_state,
)
from mtgkb.language.parser import parse_text, read_text

# slow tier: every file of the repo and ../shared through both forms and every surface
pytestmark = pytest.mark.slow

MTGKB = Path(sys.executable).parent / "mtgkb"
DOC = ROOT / "docs" / "language.md"
GUIDE = ROOT / "docs" / "engine-developers-guide.md"

#: 802.4a: in a multiplayer game a creature may block only a creature that
#: attacks its controller (or a planeswalker or battle of theirs); Alex's
#: Grizzly Bears blocks the Hill Giant, which attacks Carissa.
ILLEGAL_BLOCK = {
    "players": ["Rob", "Alex", "Carissa"],
    "active": "Rob",
    "objects": [
        {
            "name": "Runeclaw Bear",
            "controller": "Rob",
            "type": "creature",
            "power": 2,
            "toughness": 2,
        },
        {"name": "Hill Giant", "controller": "Rob", "type": "creature", "power": 3, "toughness": 3},
        {
            "name": "Grizzly Bears",
            "controller": "Alex",
            "type": "creature",
            "power": 2,
            "toughness": 2,
        },
    ],
    "attacks": [
        {"attacker": "Runeclaw Bear", "target": "Alex"},
        {"attacker": "Hill Giant", "target": "Carissa"},
    ],
    "blocks": [{"blocker": "Grizzly Bears", "attackers": ["Hill Giant"]}],
    "questions": [{"ask": "legal"}],
}


def mtg_files() -> list[Path]:
    """Every .mtg file of the repository and, where it is there, of ../shared."""
    found = [
        p
        for folder in ("examples", "bench", "tests", "docs")
        for p in sorted((ROOT / folder).rglob("*.mtg"))
    ]
    if CONFORMANCE.is_dir():
        found += sorted(CONFORMANCE.parent.rglob("*.mtg"))
    return found


def readable(path: Path) -> bool:
    try:
        parse_text(path.read_bytes(), str(path))
    except ScenarioError:
        return False
    return True


def facts_of(text: str | bytes) -> set[str]:
    return {str(f) for f in scenario_facts(parse_scenario(text))}


# ---------------------------------------------------------------- the round trip


@pytest.mark.parametrize("path", mtg_files(), ids=lambda p: p.name)
def test_every_mtg_file_is_a_fixed_point_of_mtg_json_mtg_json(path):
    data = path.read_bytes()
    if not readable(path):
        # an error case of the conformance suite: refused in either form
        with pytest.raises(ScenarioError):
            text_to_state(data, str(path))
        return
    first = text_to_state(data, str(path))
    check_schema(first, str(path))  # what convert writes, the schema describes
    text = state_to_text(first)
    assert text_to_state(text) == first
    # the state read directly has the facts of the file
    assert facts_of(json.dumps(first)) == facts_of(data) == facts_of(text)


def test_the_round_trip_covers_the_repository_and_the_shared_cases():
    names = {p.name for p in mtg_files()}
    assert len([n for n in names if n.endswith(".mtg")]) >= 8  # examples/ at least
    if CONFORMANCE.is_dir():
        assert any(p.is_relative_to(CONFORMANCE.parent) for p in mtg_files())


def doc_examples() -> list[str]:
    block = re.compile(r"^```mtg(?: pending)?\n(.*?)^```", re.M | re.S)
    lines = []
    for body in block.findall(DOC.read_text(encoding="utf-8")):
        lines += [line for line in body.splitlines() if line.split("#", 1)[0].strip()]
    return lines


def test_every_statement_of_the_language_round_trips_through_a_state():
    """docs/language.md has an example of every kind of statement of the
    grammar (tests/test_language_doc.py): each, read as a scenario of one
    line, makes a state the schema describes, and that state's text reads
    back as the same state, the play of `ask can` in the same words."""
    tried = 0
    for line in doc_examples():
        try:
            scenario = read_text(line + "\n")
        except ScenarioError:
            continue  # a pending form the grammar does not have yet
        tried += 1
        state = scenario_state(scenario)
        check_schema(state, line)
        again = read_text(write_state(state).text())
        assert scenario_state(again) == state, line
        assert [q.params.get("text") for q in again.questions] == [
            q.params.get("text") for q in scenario.questions
        ], line
    assert tried > 100


@settings(max_examples=examples(100), deadline=None)
@given(scenario())
def test_any_scenario_that_reads_has_a_state_whose_text_reads_the_same(text):
    try:
        read = read_text(text)
    except ScenarioError:
        return
    state = scenario_state(read)
    again = read_text(write_state(state).text())
    assert scenario_state(again) == state
    assert {str(f) for f in scenario_facts(again)} == {str(f) for f in scenario_facts(read)}


def leaves(value, path=()):
    """Every place of a JSON value (its own, and each key's and item's)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from(["Rob", "Alex, Rob", 'x"\\', "a\nask legal", "flying", "#", "Alone"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_any_value_anywhere_in_a_state_is_read_or_refused_at_a_path_never_a_crash(data):
    state = json.loads(json.dumps(ILLEGAL_BLOCK))
    places = [p for p in leaves(state) if p]
    place = data.draw(st.sampled_from(places))
    holder = state
    for key in place[:-1]:
        holder = holder[key]
    holder[place[-1]] = data.draw(JSON_VALUES)
    try:
        parse_scenario(state, "fuzz.json")
    except ScenarioError as err:
        assert err.path is not None and err.path.startswith("/")
        assert err.message.startswith(err.path + ": ")


def test_convert_turns_mtg_into_json_and_back(tmp_path):
    source = ROOT / "examples" / "07_first_strike_trample.mtg"
    out = subprocess.run([str(MTGKB), "convert", str(source)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert state == text_to_state(source.read_bytes())
    saved = tmp_path / "state.json"
    saved.write_text(out.stdout, encoding="utf-8")
    back = subprocess.run([str(MTGKB), "convert", str(saved)], capture_output=True, text=True)
    assert back.returncode == 0, back.stderr
    assert facts_of(back.stdout) == facts_of(source.read_bytes())
    assert convert(back.stdout, to="json") == out.stdout


# ---------------------------------------------------------------- the schema


def test_the_schema_is_a_valid_json_schema_shipped_in_the_package():
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(schema())
    assert SCHEMA_FILE.parent.name == "language" and SCHEMA_FILE.is_file()
    assert schema()["properties"]["objects"]["items"] == {"$ref": "#/$defs/object"}


# ---------------------------------------------------------------- errors name the JSON path


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (lambda s: s["objects"][1].update(power="3"), "/objects/1/power", "must be an integer"),
        (lambda s: s["objects"][1].pop("toughness"), "/objects/1", "'toughness' is required"),
        (lambda s: s["attacks"][0].update(target="Carl"), "/attacks/0/target", "Carl"),
        (lambda s: s["objects"][0].update(controller="Carl"), "/objects/0/controller", "Carl"),
        (lambda s: s.update(colour="red"), "/colour", "unknown field"),
        (
            lambda s: s["objects"][0].update(abilities=["flying", "flyng"]),
            "/objects/0/abilities/1",
            "did you mean 'flying'",
        ),
        (
            lambda s: s["objects"][0].update(abilities=[{"toxic": "two"}]),
            "/objects/0/abilities/0/toxic",
            "takes a number",
        ),
        (lambda s: s.update(phase="dinner"), "/phase", "unknown phase 'dinner'"),
        (lambda s: s["questions"].append({"ask": "legl"}), "/questions/1/ask", "unknown question"),
        # a value that would be read as more than one name is refused, not misread
        (lambda s: s["players"].append("Dana, Eve"), "/players/3", "not a player's name"),
        (
            lambda s: s["objects"][0].update(name="Bear\nask outcome"),
            "/objects/0/name",
            "",
        ),
        (lambda s: s["objects"][1].update(power=10**12), "/objects/1/power", "at most"),
        (lambda s: s.update(active="Alex Rob"), "/active", "not a player's name"),
    ],
)
def test_an_error_in_a_state_names_its_json_path(change, path, words):
    state = json.loads(json.dumps(ILLEGAL_BLOCK))
    change(state)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(state, "state.json")
    err = caught.value
    assert err.path == path, err.message
    assert err.message.startswith(path + ": ") and words in err.message
    assert err.format().startswith(f"state.json: error: {path}: ")
    assert err.as_dict()["path"] == path


def test_a_name_used_twice_in_a_state_names_the_first_place_as_a_path():
    state = json.loads(json.dumps(ILLEGAL_BLOCK))
    state["objects"][2]["name"] = "Hill Giant"
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(state, "state.json")
    assert caught.value.path.startswith("/objects/")
    assert "line" not in caught.value.message


@pytest.mark.parametrize(
    "text",
    ['{"players": ', "{" * 100_000, '{"players": ["Ann"]', b'{"players": ["\xff"]}'],
)
def test_json_that_is_no_state_is_an_error_at_the_root_never_a_traceback(text):
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "bad.json")
    assert caught.value.path == "/"


def test_a_dict_that_is_no_json_data_is_refused_by_the_python_api():
    import mtgkb

    deep: dict = {}
    inner = deep
    for _ in range(5000):
        inner["a"] = {}
        inner = inner["a"]
    for bad in (deep, {"players": {"Ann", "Ben"}}, {"life": {"Ann": float("nan")}}):
        with pytest.raises(mtgkb.ScenarioError) as caught:
            mtgkb.run(bad)
        assert caught.value.path == "/"


def test_the_cli_refuses_a_bad_state_with_its_path_and_exit_2(tmp_path):
    state = json.loads(json.dumps(ILLEGAL_BLOCK))
    state["objects"][1]["power"] = "3"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    for command in (["run"], ["run", "--json"], ["convert"], ["facts"]):
        out = subprocess.run([str(MTGKB), *command, str(path)], capture_output=True, text=True)
        assert out.returncode == 2, (command, out.stderr)
        assert f"{path}: error: /objects/1/power: must be an integer" in out.stderr
        assert "Traceback" not in out.stderr


# ---------------------------------------------------------------- every door


def test_802_4a_a_state_is_answered_like_its_text_by_the_cli_and_the_python_api(tmp_path):
    import mtgkb

    text = write_state(ILLEGAL_BLOCK).text()
    by_text = mtgkb.run(text)
    by_state = mtgkb.run(ILLEGAL_BLOCK)
    assert _unplaced(by_state["answers"]) == _unplaced(by_text["answers"])
    legal = by_state["answers"][0]
    assert legal["legal"] is False and "802.4a" in legal["rules"]
    assert legal["violations"][0]["path"].startswith("/blocks/")  # where the state says it
    (many,) = mtgkb.run_many([ILLEGAL_BLOCK])
    assert many.result()["answers"] == by_state["answers"]
    path = tmp_path / "block.json"
    path.write_text(json.dumps(ILLEGAL_BLOCK), encoding="utf-8")
    out = subprocess.run([str(MTGKB), "run", "--json", str(path)], capture_output=True, text=True)
    assert out.returncode == 1  # an illegal play (spec section 6)
    assert json.loads(out.stdout)["answers"] == by_state["answers"]


def _server_client():
    pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")
    from fastapi.testclient import TestClient

    from mtgkb.serve import app as server

    return TestClient(
        server.create_app(patient_settings(workers=1)), base_url="http://127.0.0.1:8765"
    )


@pytest.mark.slow
def test_802_4a_the_http_api_answers_a_state_serves_the_schema_and_returns_states():
    with _server_client() as client:
        text = write_state(ILLEGAL_BLOCK).text()
        by_text = client.post("/v1/run", json={"scenario": text})
        by_state = client.post("/v1/run", json={"state": ILLEGAL_BLOCK})
        assert by_state.status_code == by_text.status_code == 200
        assert by_state.headers["X-Mtgkb-Exit"] == "1"
        assert _unplaced(by_state.json()["answers"]) == _unplaced(by_text.json()["answers"])
        assert "802.4a" in by_state.json()["answers"][0]["rules"]

        bad = json.loads(json.dumps(ILLEGAL_BLOCK))
        bad["objects"][1]["power"] = "3"
        refused = client.post("/v1/run", json={"state": bad})
        assert refused.status_code == 422
        assert refused.json()["path"] == "/objects/1/power"
        assert "/objects/1/power: must be an integer" in refused.json()["message"]
        both = client.post("/v1/run", json={"state": ILLEGAL_BLOCK, "scenario": text})
        assert both.status_code == 400

        batch = client.post("/v1/batch", json=[{"state": ILLEGAL_BLOCK}, {"scenario": text}])
        items = batch.json()
        assert [i["status"] for i in items] == [200, 200]
        assert _unplaced(items[0]["body"]["answers"]) == _unplaced(items[1]["body"]["answers"])

        served = client.get("/v1/schema/scenario")
        assert served.status_code == 200
        assert served.json() == json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))

        # /v1/facts returns the state, events included, and it can be sent back
        source = (ROOT / "examples" / "01_apnap_sacrifice.mtg").read_text(encoding="utf-8")
        facts = client.post("/v1/facts", json={"scenario": source}).json()
        assert facts["state"]["events"] == text_to_state(source)["events"]
        again = client.post("/v1/run", json={"state": facts["state"]})
        original = client.post("/v1/run", json={"scenario": source})
        assert again.json()["answers"] == original.json()["answers"]


# ---------------------------------------------------------------- all files, both forms


PLACES = ("line", "column", "path")


def _unplaced(value):
    """An answer without the places of its declarations: a text says them as
    line and column, a state as JSON paths (both tested on their own)."""
    if isinstance(value, dict):
        return {k: _unplaced(v) for k, v in value.items() if k not in PLACES}
    if isinstance(value, list):
        return [_unplaced(v) for v in value]
    return value


def _answers_by_file(outputs: list[dict]) -> list:
    return [(_unplaced(o.get("answers")), "error" in o) for o in outputs]


@pytest.mark.slow
def test_every_mtg_file_and_its_state_get_the_same_answers_over_the_cli_http_and_stdio(tmp_path):
    files = [p for p in mtg_files() if readable(p)]
    states = []
    for i, path in enumerate(files):
        state = tmp_path / f"{i:03d}_{path.stem}.json"
        state.write_text(json.dumps(text_to_state(path.read_bytes())), encoding="utf-8")
        states.append(state)
    # the CLI: every file of each form in one run (bounded: one process each)
    outputs = []
    for group in (files, states):
        out = subprocess.run(
            [str(MTGKB), "run", "--json", *map(str, group)], capture_output=True, text=True
        )
        assert out.stdout, out.stderr
        outputs.append(json.loads(out.stdout))
    assert _answers_by_file(outputs[0]) == _answers_by_file(outputs[1])
    # serve --stdio: each file as text and as a state, answered with its exit status
    lines = []
    for path, state in zip(files, states, strict=True):
        lines.append(json.dumps({"id": f"text {path}", "scenario": path.read_text("utf-8")}))
        lines.append(json.dumps({"id": f"state {path}", "state": json.loads(state.read_text())}))
    out = subprocess.run(
        [str(MTGKB), "serve", "--stdio", "--workers", "1", *PATIENT_SERVE],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    answered = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answered) == 2 * len(files)
    for by_text, by_state in zip(answered[::2], answered[1::2], strict=True):
        assert by_text["id"].removeprefix("text ") == by_state["id"].removeprefix("state ")
        assert (by_state["status"], by_state["exit"]) == (by_text["status"], by_text["exit"])
        assert _unplaced(by_state["body"].get("answers")) == _unplaced(
            by_text["body"].get("answers")
        ), by_text["id"]
    # HTTP: POST /v1/run, each file as text/plain and as {"state": ...}
    with _server_client() as client:
        for path, state in zip(files, states, strict=True):
            by_text = client.post(
                "/v1/run",
                content=path.read_bytes(),
                headers={"content-type": "text/plain; charset=utf-8"},
            )
            by_state = client.post("/v1/run", json={"state": json.loads(state.read_text())})
            assert by_state.status_code == by_text.status_code, path
            assert by_state.headers["X-Mtgkb-Exit"] == by_text.headers["X-Mtgkb-Exit"], path
            assert _unplaced(by_state.json().get("answers")) == _unplaced(
                by_text.json().get("answers")
            ), path


# ---------------------------------------------------------------- the guide's example


def test_the_engine_developers_guide_example_state_is_answered_as_it_says():
    import mtgkb

    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## JSON game states") :]
    example = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    state = json.loads(example)
    check_schema(state, "guide")
    answers = mtgkb.run(state)["answers"]
    assert [a["ask"] for a in answers] == [q["ask"] for q in state["questions"]]
    # 802.4a: the blocker of a creature attacking another player is illegal
    assert answers[0]["legal"] is False and "802.4a" in answers[0]["rules"]


def test_508_1_a_violation_and_a_fix_of_a_state_name_the_json_path_of_their_declaration():
    """509.1a: a tapped creature can't block. Declared in a state, the
    violation and the fix's edit say where as the JSON path of the block
    (the state's own words), not a line of a text nobody wrote."""
    import mtgkb

    text = (
        "players: Ann, Ben\n"
        'Ann controls creature "Hill Giant" 3/3\n'
        'Ben controls creature "Grizzly Bears" 2/2 with tapped\n'
        '"Hill Giant" attacks Ben\n'
        '"Grizzly Bears" blocks "Hill Giant"\n'
        "ask legal\nask fix\n"
    )
    legal, fix = mtgkb.run(text_to_state(text.encode()))["answers"]
    (violation,) = legal["violations"]
    assert violation["rule"] == "509.1a" and violation["path"] == "/blocks/0"
    assert "line" not in violation
    (edit,) = fix["edits"]
    assert edit["op"] == "remove" and edit["declaration"]["path"] == "/blocks/0"
    by_text = mtgkb.run(text)["answers"][0]["violations"][0]
    assert (by_text["line"], by_text["column"]) == (5, 1) and "path" not in by_text
