"""The runner and the answers layer: per-question facts, defenders of an
unqualified `ask blocks`, errors that travel between processes."""

import pickle

import pytest

import mtgkb
from mtgkb.language.errors import ScenarioError
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import EXIT_INPUT, answer_now, answer_text

TWO_DEFENDERS = """\
players: Rob, Alex, Carissa
active: Rob
Rob controls creature "Runeclaw Bear" 2/2
Rob controls creature "Hill Giant" 3/3
Alex controls creature "Grizzly Bears" 2/2
Carissa controls creature "Elvish Archers" 2/1
"Runeclaw Bear" attacks Alex
"Hill Giant" attacks Carissa
ask blocks for Alex
ask blocks for Carissa
ask blocks
"""


def test_802_4_each_ask_blocks_for_p_answers_for_its_own_defender_only():
    alex, carissa, both = mtgkb.run(TWO_DEFENDERS)["answers"]
    assert alex["defender"] == "Alex" and alex["count"] == 2
    assert {"Grizzly Bears": "Runeclaw Bear"} in alex["assignments"]
    assert carissa["defender"] == "Carissa" and carissa["count"] == 2
    assert {"Elvish Archers": "Hill Giant"} in carissa["assignments"]
    assert "802.4a" in alex["rules"]


def test_802_4b_all_defenders_blocks_are_the_product_and_name_the_defenders():
    *_, both = mtgkb.run(TWO_DEFENDERS)["answers"]
    assert both["count"] == 4
    assert both["defenders"] == ["Alex", "Carissa"] and both["defender"] is None


def test_506_2_ask_blocks_in_a_two_player_game_names_the_defending_player():
    text = 'players: Ann, Ben\nAnn controls creature "Bear" 2/2\n"Bear" attacks Ben\nask blocks\n'
    (answer,) = mtgkb.run(text)["answers"]
    assert answer["defender"] == "Ben" and answer["count"] == 1
    assert "509.1a" in answer["rules"]


def test_119_4_each_pay_question_cites_its_own_rules():
    text = "players: Ann, Ben\nlife: Ann 4\nask can Ann pay 5 life\nask can Ann pay 0 life\n"
    five, zero = mtgkb.run(text)["answers"]
    assert five["can"] is False and "119.4" in five["rules"]
    assert zero["can"] is True and "119.4b" in zero["rules"]
    assert "119.4b" not in five["rules"]


def test_the_api_raises_the_scenario_error_with_its_line():
    with pytest.raises(ScenarioError) as caught:
        mtgkb.run('players: Ann, Ben\nCarl controls creature "Bear" 2/2\n', "bad.mtg")
    assert caught.value.line == 2 and caught.value.format().startswith("bad.mtg:2:1: error:")


def test_an_input_error_survives_pickling_even_with_tracebacks_pickled():
    tblib = pytest.importorskip("tblib.pickling_support")
    tblib.install()  # as Dask does: exceptions then pickle their tracebacks
    result = answer_now('players: Ann, Ben\nAnn controls creature "Bear 2/2\n', "x.mtg", Limits())
    assert result.status == EXIT_INPUT
    again = pickle.loads(pickle.dumps(result))
    assert again.exception.line == 2


def test_a_time_out_parses_in_the_child_and_reports_errors_the_same():
    result = answer_text(b"players: Ann\n", "one.mtg", Limits(timeout=3600))  # never reached
    assert result.status == EXIT_INPUT and result.error.startswith("one.mtg:")
