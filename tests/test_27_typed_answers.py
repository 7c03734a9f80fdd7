"""Issue 27, item 2: typed answers.

The registry describes each kind of question's answer once
(mtgkb.rulebase.registry); the pydantic classes (mtgkb.output.models) and the
server's OpenAPI document are made from that description, and every answer of
every scenario file of the repository (and of ../shared) fits its class.
Violations carry their kind (an enum read from kb/messages.lp) and the line and
column of the declaration that broke them; `ask fix` gives its changes as data
beside the words; every response says its schema version and the CR edition
of the rule base.
"""

from __future__ import annotations

import json
import re

import pytest
from helpers import ROOT, SHARED, patient_settings
from pydantic import ValidationError

import mtgkb
from mtgkb.output import models
from mtgkb.output.envelope import SCHEMA_VERSION
from mtgkb.rulebase import registry
from mtgkb.rulebase.index import EDITION

# slow tier: every answer validated against the typed models
pytestmark = pytest.mark.slow

# 509.1a: a tapped creature can't be declared as a blocker.
TAPPED_BLOCKER = """players: Ann, Ben
active: Ann
Ann controls creature "Bear" 2/2
Ben controls creature "Wall" 0/4 with tapped
Ben controls creature "Elk" 2/2
"Bear" attacks Ben
  "Wall" blocks "Bear"
ask legal
ask fix
ask can "Wall" block "Bear"
"""


def _kb_edition() -> str:
    """The newest CR edition kb/rule_index.lp says its rules follow."""
    text = (ROOT / "kb" / "rule_index.lp").read_text(encoding="utf-8")
    return max(re.findall(r'cr_edition\("[^"]+","([^"]+)"\)', text))


def _kb_violation_kinds() -> set[str]:
    text = (ROOT / "kb" / "messages.lp").read_text(encoding="utf-8")
    return set(re.findall(r"^message\((\w+),", text, re.M))


# --------------------------------------------------------------------------
# the description and the classes


def test_27_every_kind_of_question_has_a_class_made_from_its_description():
    assert set(models.BY_ASK) == {entry.ask for entry in registry.ENTRIES}
    for entry in registry.ENTRIES:
        model = models.BY_ASK[entry.ask]
        described = {name.rstrip("?") for name, _, _ in (*entry.fields, *registry.COMMON_FIELDS)}
        keys = {field.alias or name for name, field in model.model_fields.items()}
        assert keys == described | {"ask"}, entry.kind
        required = {name for name, _, _ in (*entry.fields, *registry.COMMON_FIELDS)}
        required = {name for name in required if not name.endswith("?")} | {"ask"}
        assert {f.alias or n for n, f in model.model_fields.items() if f.is_required()} == required


def test_27_an_answer_with_a_key_its_description_lacks_does_not_fit():
    answer = {"ask": "legal", "legal": True, "violations": [], "rules": []}
    models.typed(answer)
    with pytest.raises(ValidationError):
        models.typed({**answer, "undescribed": 1})
    with pytest.raises(ValidationError):
        models.typed({**answer, "legal": "yes"})  # strict: no coercion
    with pytest.raises(ValidationError):
        models.typed({"ask": "legal", "violations": [], "rules": []})  # `legal` is required


def test_27_violation_kinds_are_the_kinds_kb_messages_declares():
    assert set(models.VIOLATION_KINDS) == _kb_violation_kinds()
    violation = {"rule": "509.1a", "message": "...", "objects": ["Wall"]}
    models.Violation.model_validate({**violation, "kind": "blocker_tapped"})
    with pytest.raises(ValidationError):
        models.Violation.model_validate({**violation, "kind": "no_such_kind"})
    schema = models.json_schema()
    assert set(schema["$defs"]["Violation"]["properties"]["kind"]["enum"]) == _kb_violation_kinds()


def test_27_the_public_api_lists_the_typed_answer_classes():
    assert {"run", "run_many", "ScenarioError", "SolveTimeout"} <= set(mtgkb.__all__)
    assert set(models.CLASSES) | {"Answer", "ViolationKind"} <= set(mtgkb.__all__)
    for name in mtgkb.__all__:
        assert getattr(mtgkb, name) is not None, name
    assert mtgkb.LegalAnswer is models.BY_ASK["legal"]


# --------------------------------------------------------------------------
# violations: kind, CR number, place


def test_509_1a_a_violation_names_its_kind_rule_and_the_line_of_the_declaration():
    legal, fix, can = mtgkb.run(TAPPED_BLOCKER)["answers"]
    (violation,) = legal["violations"]
    # 509.1a: the tapped Wall can't block; the block is declared on line 7, column 3
    assert violation["rule"] == "509.1a" and violation["kind"] == "blocker_tapped"
    assert (violation["line"], violation["column"]) == (7, 3)
    assert violation["message"] == "Wall is tapped, so it can't block"  # the words unchanged
    # `ask can` judges the play its question writes: the place is the question's
    (hypothesis,) = can["violations"]
    assert hypothesis["kind"] == "blocker_tapped" and hypothesis["line"] == 10
    for answer in (legal, fix, can):
        models.typed(answer)


def test_702_111b_a_violation_about_a_block_points_at_the_block():
    # 702.111b: a creature with menace can't be blocked except by two or more
    # creatures; the one block of Ogre (line 6) is what breaks it, not the attack
    text = """players: Ann, Ben
active: Ann
Ann controls creature "Ogre" 3/3 with menace
Ben controls creature "Wall" 0/4
"Ogre" attacks Ben
"Wall" blocks "Ogre"
ask legal
"""
    (violation,) = mtgkb.run(text)["answers"][0]["violations"]
    assert violation["rule"] == "702.111b" and violation["kind"] == "menace_single_blocker"
    assert (violation["line"], violation["column"]) == (6, 1)


def test_119_4_a_payment_that_cant_be_made_points_at_that_payment():
    # 119.4: Carissa has 5 life, pays 4 (line 6: made, 1 left), then 4 again (line 8:
    # too little life). The violation is the second payment's, not the attack naming
    # Carissa on line 5; and two payments that fail are two violations, each at its line.
    text = """players: Rob, Alex, Carissa
active: Rob
life: Carissa 5
Rob controls creature "Wolf" 3/3
"Wolf" attacks Carissa
Carissa pays 4 life
Alex gains 1 life
Carissa pays 4 life
Carissa pays 4 life
ask legal
"""
    violations = mtgkb.run(text)["answers"][0]["violations"]
    assert [(v["rule"], v["kind"], v["objects"]) for v in violations] == [
        ("119.4", "cannot_pay", ["Carissa"])
    ] * 2
    assert [(v["line"], v["column"]) for v in violations] == [(8, 1), (9, 1)]
    assert all("event" not in v for v in violations)
    assert violations[0]["message"] == "Carissa can't pay 4 life: their life total is less than 4"


def test_509_1a_fix_gives_its_changes_as_data_beside_the_words():
    fix = mtgkb.run(TAPPED_BLOCKER)["answers"][1]
    # the one legal play closest to the declared one leaves the block out (509.1a)
    assert fix["changes"] == [{"remove": "Wall blocks Bear"}]
    assert fix["edits"] == [
        {
            "op": "remove",
            "declaration": {
                "type": "block",
                "blocker": "Wall",
                "attacker": "Bear",
                "line": 7,
                "column": 3,
            },
        }
    ]
    assert "509.1a" in fix["rules"]


def test_506_2a_fix_gives_the_choice_it_makes_as_data():
    # three players and no attack option: the attacking player chooses one
    # defending player (506.2a) and the file names none
    text = """game: vanguard
players: Rob, Alex, Carissa
active: Rob
Rob controls creature "Ghoul" 2/2
Rob controls creature "Ogre" 3/3
"Ghoul" attacks Alex
"Ogre" attacks Carissa
ask fix
"""
    fix = mtgkb.run(text)["answers"][0]
    (choice,) = fix["choices"]
    chosen = [e for e in fix["edits"] if e["op"] == "choose"]
    assert len(chosen) == 1 and chosen[0]["declaration"]["type"] == "choose_defending"
    defender = chosen[0]["declaration"]["defender"]
    assert choice == f"Rob chooses {defender} as defending player"
    assert chosen[0]["declaration"]["player"] == "Rob"
    (change,) = [e for e in fix["edits"] if e["op"] != "choose"]
    assert change["op"] in ("remove", "replace")
    assert change["declaration"]["target"] != defender  # the attack on the other opponent
    models.typed(fix)


def test_115_1_fix_gives_a_new_target_as_a_replaced_declaration():
    # 702.11c: Alex has hexproof, so Rob's Shock can't target Alex; 115.1: it
    # targets a legal player instead
    text = (
        'players: Rob, Alex\nAlex has hexproof\nRob casts instant "Shock" targeting Alex\nask fix\n'
    )
    fix = mtgkb.run(text)["answers"][0]
    assert fix["changes"] == [
        {
            "change": "Rob casts instant Shock targeting Alex",
            "to": "Rob casts instant Shock targeting Rob",
        }
    ]
    (edit,) = fix["edits"]
    assert edit["op"] == "replace"
    assert edit["declaration"] == {
        "type": "cast",
        "player": "Rob",
        "spell_type": "instant",
        "name": "Shock",
        "targets": ["Alex"],
        "line": 3,
        "column": 1,
    }
    assert edit["with"]["targets"] == ["Rob"]
    models.typed(fix)


# --------------------------------------------------------------------------
# schema_version and the CR edition on every surface


def test_27_the_cr_edition_is_the_rule_index_s():
    result = mtgkb.run(TAPPED_BLOCKER)
    assert result["schema_version"] == SCHEMA_VERSION
    assert result["cr_edition"] == _kb_edition()
    assert isinstance(models.typed_result(result), models.RunResult)


def test_27_the_command_line_stamps_answered_and_unanswered_files(tmp_path, capsys):
    from mtgkb.cli import main

    good = tmp_path / "good.mtg"
    good.write_text(TAPPED_BLOCKER, encoding="utf-8")
    bad = tmp_path / "bad.mtg"
    bad.write_text('players: Ann, Ben\n"Nobody" attacks Ben\n', encoding="utf-8")
    assert main(["run", "--json", str(good), str(bad)]) == 2
    answered, unreadable = json.loads(capsys.readouterr().out)
    assert isinstance(models.typed_result(answered), models.RunResult)
    error = models.typed_result(unreadable)
    assert isinstance(error, models.RunError) and error.cr_edition == _kb_edition()


@pytest.mark.slow  # a server with a worker
def test_27_http_batch_and_stdio_answers_carry_the_schema_version_and_edition():
    from fastapi.testclient import TestClient

    from mtgkb.serve import app as server

    settings = patient_settings(workers=1)
    with TestClient(server.create_app(settings), base_url="http://127.0.0.1:8765") as client:
        response = client.post("/v1/run", content=TAPPED_BLOCKER)
        body = response.json()
        assert response.status_code == 200 and body["schema_version"] == SCHEMA_VERSION
        assert isinstance(models.typed_result(body), models.RunResult)
        unreadable = client.post("/v1/run", content='players: Ann\n"X" attacks Ann\n').json()
        assert unreadable["cr_edition"] == _kb_edition() and "line" in unreadable
        lines = client.post("/v1/batch", json=[TAPPED_BLOCKER]).json()
        assert lines[0]["body"]["cr_edition"] == _kb_edition()
        pool = client.app.state.pool
        request = json.dumps({"scenario": TAPPED_BLOCKER, "id": 7}).encode()
        line = server.stdio_answer(pool, settings, request, len(request))
        assert line["id"] == 7 and line["body"]["schema_version"] == SCHEMA_VERSION
        models.typed_result(line["body"])
        document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert {models.class_name(e.kind) for e in registry.ENTRIES} <= set(schemas)
    answers = document["paths"]["/v1/run"]["post"]["responses"]["200"]["content"]
    items = answers["application/json"]["schema"]["properties"]["answers"]["items"]["anyOf"]
    named = {ref["$ref"].rsplit("/", 1)[-1] for ref in items}
    assert named >= {models.class_name(e.kind) for e in registry.ENTRIES}
    assert set(schemas["Violation"]["properties"]["kind"]["enum"]) == _kb_violation_kinds()
    assert schemas["RunResult"]["additionalProperties"] is False


# --------------------------------------------------------------------------
# every answer of every scenario file fits its class


def _scenario_files() -> list:
    found = [
        p
        for folder in ("examples", "tests", "bench", "docs")
        for p in (ROOT / folder).rglob("*.mtg")
    ]
    if SHARED.is_dir():
        found += list(SHARED.rglob("*.mtg"))
    return sorted(found)


@pytest.mark.slow  # every scenario file, answered once
def test_27_every_answer_of_every_scenario_file_fits_its_class(monkeypatch):
    monkeypatch.setenv("MTGKB_POOL", "0")  # answered in this process
    files = _scenario_files()
    assert len(files) >= 10
    asked: set[str] = set()
    answered = 0
    with mtgkb.Answerer() as answerer:
        for path in files:
            try:
                result = answerer.run(path.read_bytes(), str(path), max_models=1000)
            except mtgkb.ScenarioError:
                continue  # unreadable on purpose (the command line's test covers RunError)
            typed = models.typed_result(result)
            assert isinstance(typed, models.RunResult), path
            asked |= {answer["ask"] for answer in result["answers"]}
            answered += 1
    assert answered >= 10
    # the files ask every kind of question: each class is exercised
    assert asked == {entry.ask for entry in registry.ENTRIES}


@pytest.mark.slow  # two copies of the rule base, each answered: the slow tier
@pytest.mark.parametrize(
    ("house", "classes"),
    [
        # 103.4: a second starting life total: the answers say "inconsistent"
        (
            "% 103.4: house rule\nstarting_life(P,30) :- player(P).\n",
            ["LegalAnswer", "PayAnswer", "OutcomeAnswer"],
        ),
        # no answer set at all: each answer names its question only
        ("% 119.1: a planted mistake\n:- player(_).\n", ["UnansweredAnswer"] * 3),
    ],
)
def test_103_4_answers_of_a_rule_base_that_contradicts_itself_fit_their_classes(
    tmp_path, capsys, house, classes
):
    from mtgkb.cli import main

    scenario = tmp_path / "s.mtg"
    scenario.write_text(
        'players: Ann, Ben\n"Bolt" deals 3 damage to Ben\nask legal\n'
        "ask can Ben pay 25 life\nask outcome\n",
        encoding="utf-8",
    )
    (tmp_path / "house.lp").write_text(house, encoding="utf-8")
    status = main(["run", "--json", str(scenario), "--with", str(tmp_path / "house.lp")])
    assert status == 4  # spec, section 11
    result = models.typed_result(json.loads(capsys.readouterr().out))
    assert [type(answer).__name__ for answer in result.answers] == classes
    assert all(answer.inconsistent for answer in result.answers)


def test_27_every_json_response_of_the_server_carries_the_schema_version_and_edition():
    """Not only answers: the facts, a rule, health, a bad request and a
    missing example say which schema and which CR edition they speak."""
    pytest.importorskip("fastapi", reason="the server needs mtgkb[serve]")
    from fastapi.testclient import TestClient

    from mtgkb.serve import app as server

    with TestClient(
        server.create_app(patient_settings(workers=1)), base_url="http://127.0.0.1:8765"
    ) as client:
        responses = [
            client.post("/v1/facts", content=TAPPED_BLOCKER),
            client.get("/v1/rules/509.1a"),
            client.get("/health"),
            client.post("/v1/run", content=b"\xff", headers={"content-type": "text/plain"}),
            client.get("/v1/examples/no_such_example"),
        ]
    for response in responses:
        body = response.json()
        assert body["schema_version"] == SCHEMA_VERSION, response.request.url
        assert body["cr_edition"] == EDITION, response.request.url
