"""704.3, 800.4a (issue 29 item 4, "state-based losses between events"): events
happen in file order, and events written one after another may be parts of one
resolution, so the language checks state-based actions once after the last
event (spec section 4), not between two events. A `check state-based actions`
line (an extension) is a point where a player would receive priority, so
state-based actions are checked there (704.3). A player who has lost by then
(0 or less life 704.5a, ten poison counters 704.5c, 21 combat damage from one
commander 704.6c, a team's shared total 810.8c, an emperor's team 809.5b, a
concession 104.3a) has left the game (800.4a): a later event does not touch
them, and `ask outcome` lists them as lost. When no two opponents are left,
the game is over (104.2a) and later events change nothing. What a player who
left, or their objects, would still do to the others in a later event
(combat, exchanges, damage from their objects) is declared not modelled
(kb/not_modelled.lp), and every answer says so."""

import pytest
from helpers.answering import run

from mtgkb.language.errors import ScenarioError
from mtgkb.language.facts import scenario_facts
from mtgkb.language.json_state import check_schema, state_to_text, text_to_state
from mtgkb.language.parser import parse_text

CHECK = "check state-based actions\n"
THREE = "game: free-for-all\noption: attack-multiple-players\nplayers: Ann, Ben, Cat\nactive: Ann\n"


def answers(text: str, lang: str = "en") -> list[dict]:
    return run(text, lang=lang)["answers"]


def outcome(text: str) -> dict:
    return next(a for a in answers(text + "ask outcome\n") if a["ask"] == "outcome")


def test_704_3_without_a_check_line_losses_are_checked_once_after_the_last_event():
    # spec section 4: state-based actions are checked after the last event only, so
    # Ben at -5 after the loss is at 5 when they are checked, and has not lost (704.5a)
    found = outcome(THREE + "Ben loses 25 life\nBen gains 10 life\n")
    assert found["life"]["Ben"] == 5
    assert found["lost"] == []
    assert "704.3" not in found["rules"] and "unmodelled" not in found


def test_704_3_704_5a_800_4a_a_check_line_between_two_events_makes_a_player_at_0_lose():
    # 704.3: the check line is a point where state-based actions are checked: Ben at
    # -5 then loses (704.5a) and leaves the game (800.4a); the gain no longer reaches him
    found = outcome(THREE + "Ben loses 25 life\n" + CHECK + "Ben gains 10 life\n")
    assert found["life"]["Ben"] == -5
    assert found["lost"] == ["Ben"]
    assert {"704.3", "704.5a", "800.4a"} <= set(found["rules"])


def test_704_3_a_check_line_written_last_adds_nothing_to_the_check_after_the_last_event():
    without = outcome(THREE + "Ben loses 25 life\nBen gains 10 life\n")
    with_check = outcome(THREE + "Ben loses 25 life\nBen gains 10 life\n" + CHECK)
    assert with_check["life"] == without["life"] and with_check["lost"] == without["lost"] == []


def test_704_3_704_5a_a_player_at_0_at_a_check_has_lost_whatever_comes_next():
    # Ben is at 0 after the Bolt; state-based actions are checked before the next event
    # (704.3): he loses (704.5a) and leaves (800.4a), so the gain no longer reaches him
    text = THREE + 'life: Ben 3\n"Lightning Bolt" deals 3 damage to Ben\n'
    text += CHECK + "Ben gains 5 life\n"
    found = outcome(text)
    assert found["life"] == {"Ann": 20, "Ben": 0, "Cat": 20}
    assert found["lost"] == ["Ben"]
    assert {"704.3", "704.5a", "800.4a"} <= set(found["rules"])
    assert "unmodelled" not in found


def test_800_4a_a_later_loss_of_life_does_not_reach_a_player_who_left():
    found = outcome(THREE + "Ben loses 20 life\n" + CHECK + "Ben loses 4 life\nCat loses 3 life\n")
    # Ben left at 0 (not -4); the game goes on for Ann and Cat (800.4)
    assert found["life"] == {"Ann": 20, "Ben": 0, "Cat": 17}
    assert found["lost"] == ["Ben"]
    assert "704.3" in found["rules"]


def test_704_5c_ten_poison_counters_lose_before_a_later_cant_lose_effect():
    # the counters are checked at the check after the event that gave them: the effect
    # that comes after (104.3b) is too late, Ben has already lost
    found = outcome(THREE + "Ben gets 10 poison counters\n" + CHECK + "Ben can't lose the game\n")
    assert found["lost"] == ["Ben"]
    assert {"704.3", "704.5c"} <= set(found["rules"])


def test_104_3b_an_earlier_cant_lose_effect_keeps_the_player_in_at_every_check():
    text = THREE + "Ben can't lose the game\nBen loses 25 life\n"
    found = outcome(text + CHECK + "Ben gains 10 life\n")
    # no check can make Ben lose, so the gain of the third event still reaches him
    assert found["life"]["Ben"] == 5
    assert found["lost"] == []


def test_104_3a_a_player_who_conceded_is_not_touched_by_a_later_event():
    found = outcome(THREE + "Ben concedes\n" + CHECK + "Ben gains 3 life\nCat gains 3 life\n")
    assert found["life"] == {"Ann": 20, "Ben": 20, "Cat": 23}
    assert found["lost"] == ["Ben"]
    assert "104.3a" in found["rules"]


def test_104_2a_a_two_player_game_is_over_when_one_player_left():
    # Ann lost at the check after the first event: Ben has won (104.2a), nothing later happens
    text = "players: Ann, Ben\nAnn loses 20 life\n"
    text += CHECK + "Ben loses 20 life\nBen gains 2 life\n"
    found = outcome(text)
    assert found["life"] == {"Ann": 0, "Ben": 20}
    assert found["lost"] == ["Ann"]
    assert {"704.3", "104.2a"} <= set(found["rules"])


def test_810_8c_810_8a_a_two_headed_giant_team_at_0_leaves_together():
    text = "game: two-headed-giant\nplayers: Rob, Alex, Cat, Dan\n"
    text += "team Giants: Rob, Alex\nteam Titans: Cat, Dan\nactive: Rob\n"
    text += "Rob loses 30 life\n" + CHECK + "Alex gains 10 life\nCat loses 5 life\n"
    found = outcome(text)
    # the shared total is 0 at the check (810.8c): the whole team lost (810.8a)
    # and, no opponents being left, so has the game (104.2a): Cat loses nothing
    assert found["team_life"] == {"Giants": 0, "Titans": 30}
    assert sorted(found["lost"]) == ["Alex", "Rob"]
    assert {"704.3", "810.8c"} <= set(found["rules"])


def test_809_5b_an_emperors_team_leaves_with_its_emperor_between_events():
    text = "game: emperor\nplayers: A1, E1, A2, B1, E2, B2\n"
    text += "team North: A1, E1, A2\nteam South: B1, E2, B2\nemperor: E1\nemperor: E2\n"
    text += "active: A2\nE2 loses 20 life\n" + CHECK + "B1 gains 4 life\nA1 loses 2 life\n"
    found = outcome(text)
    # E2 lost at the check after the first event and South lost with its emperor (809.5b):
    # North has won, so neither later event happens (104.2a)
    assert sorted(found["lost"]) == ["B1", "B2", "E2"]
    assert found["life"]["B1"] == 20 and found["life"]["A1"] == 20
    assert {"704.3", "809.5b"} <= set(found["rules"])


def test_704_6c_21_combat_damage_from_a_commander_loses_before_a_later_gain():
    text = "game: commander\noption: attack-multiple-players\nplayers: Ann, Ben, Cat\nactive: Ann\n"
    text += 'commander damage: Ben 18 from "Atraxa"\n'
    text += 'Ann controls creature "Atraxa" 4/4 with commander\n"Atraxa" attacks Ben\n'
    text += "combat damage\n" + CHECK + "Ben gains 5 life\n"
    found = outcome(text)
    assert found["lost"] == ["Ben"]
    assert found["life"]["Ben"] == 36
    assert found["commander_damage"]["Ben"]["Atraxa"] == 22
    assert {"704.3", "704.6c"} <= set(found["rules"])


def test_800_4a_what_a_player_who_left_would_still_do_to_others_is_not_modelled():
    text = THREE + 'life: Ben 3\nBen controls creature "Grizzly Bears" 2/2 with lifelink\n'
    text += '"Lightning Bolt" deals 3 damage to Ben\n' + CHECK
    text += '"Grizzly Bears" deals 2 damage to Cat\n'
    text += "ask outcome\nask legal\n"
    found = answers(text)
    # the Bears left with Ben (800.4a): the rule base does not follow that into a later
    # event, and says so on every answer, the exit status unchanged
    assert all(a["unmodelled"] == ["800.4a"] for a in found)
    assert found[0]["lost"] == ["Ben"]


def test_800_4a_the_explanation_says_who_left_after_which_event_in_english_and_italian():
    text = THREE + "Ben loses 20 life\n" + CHECK
    text += "Ben gains 5 life\nask outcome\nask explain outcome\n"
    words = {
        "en": "has lost and left the game at the check of state-based actions of event 2",
        "it": "ha perso e lasciato la partita al controllo delle azioni di stato dell'evento 2",
    }
    for lang, phrase in words.items():
        result = run(text, lang=lang)
        tree = str(result["answers"][1]["tree"])
        assert phrase in tree, (lang, tree[:400])
        assert "704.3" in result["answers"][1]["rules"]


def test_800_4a_without_a_check_line_no_player_leaves_between_events_so_nothing_is_declared():
    # spec section 4: the Bolt and the Bears' damage may be parts of one resolution;
    # Ben loses at the check after the last event, so no crossing is left unmodelled
    text = THREE + 'life: Ben 3\nBen controls creature "Grizzly Bears" 2/2 with lifelink\n'
    text += '"Lightning Bolt" deals 3 damage to Ben\n"Grizzly Bears" deals 2 damage to Cat\n'
    found = outcome(text)
    assert "unmodelled" not in found
    assert found["life"] == {"Ann": 20, "Ben": 2, "Cat": 18}
    assert found["lost"] == []


def test_704_3_the_check_line_is_an_event_of_its_own_in_the_facts_and_the_json_state():
    text = THREE + "Ben loses 25 life\n" + CHECK + "Ben gains 10 life\n"
    facts = scenario_facts(parse_text(text))
    assert "event(2,check_state_based_actions)" in {str(f) for f in facts}
    state = text_to_state(text)
    check_schema(state, "<state>")
    assert state["events"][1] == {"kind": "check_state_based_actions"}
    assert text_to_state(state_to_text(state)) == state


def test_704_3_a_check_line_without_its_hyphen_is_refused_and_the_message_shows_the_word():
    with pytest.raises(ScenarioError) as caught:
        parse_text(THREE + "check state based actions\n", "<check>")
    assert caught.value.line == 5
    assert "expected state-based" in caught.value.message


def test_104_3a_a_player_who_concedes_leaves_at_once_without_a_check():
    # 104.3a: conceding is no state-based action: Ben is out of the game from the
    # concession on, with no `check state-based actions` line between
    found = outcome(THREE + "Ben concedes\nBen gains 3 life\nCat gains 3 life\n")
    assert found["life"] == {"Ann": 20, "Ben": 20, "Cat": 23}
    assert found["lost"] == ["Ben"]
    assert "104.3a" in found["rules"] and "704.3" not in found["rules"]


def test_104_2a_a_concession_in_a_two_player_game_ends_it_before_the_combat_damage():
    # 104.3a, 104.2a: Ben conceded, so Ann has won: the combat damage written after it
    # never happens (before, Ben took the Bear's 2 damage)
    text = 'players: Ann, Ben\nAnn controls creature "Bear" 2/2\n"Bear" attacks Ben\n'
    found = outcome(text + "Ben concedes\ncombat damage\n")
    assert found["life"] == {"Ann": 20, "Ben": 20}
    assert found["lost"] == ["Ben"]
    assert {"104.3a", "104.2a"} <= set(found["rules"])
