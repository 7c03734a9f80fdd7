"""CR 603.3b and 805.7: waiting triggered abilities go on the stack in APNAP order."""

from helpers import models, only_model, sequence_of, table_facts


def table(players, active, *, phase="main", starting=None, **settings):
    return table_facts(players, active, phase=phase, starting=starting or players[0], **settings)


def triggers(*pairs):
    return "".join(f'trigger("{t}","{p}").\n' for t, p in pairs)


def stack_of(model):
    return sequence_of(model, "stack")


def cites(model, rule):
    return f'cites(rule("{rule}"))' in model


def test_603_3b_active_players_triggers_first_in_any_order():
    # Conformance c13: Ben is active; Cat has none; Ann's goes last (on top).
    facts = table(["Ann", "Ben", "Cat"], "Ben") + triggers(
        ("Soul Warden A", "Ann"), ("Soul Warden B", "Ben"), ("Essence Warden", "Ben")
    )
    found = models("stack", facts)
    assert {stack_of(m) for m in found} == {
        ("Soul Warden B", "Essence Warden", "Soul Warden A"),
        ("Essence Warden", "Soul Warden B", "Soul Warden A"),
    }
    assert len(found) == 2
    assert all(cites(m, "603.3b") and cites(m, "101.4") for m in found)


def test_603_3b_one_trigger_each_goes_in_turn_order():
    facts = table(["Ann", "Ben", "Cat"], "Cat") + triggers(("A", "Ann"), ("B", "Ben"), ("C", "Cat"))
    model = only_model("stack", facts)
    assert stack_of(model) == ("C", "A", "B")
    assert cites(model, "603.3b") and not cites(model, "805.7")


def test_603_3b_team_game_without_shared_turns_is_per_player():
    teams = {"X": ["Ann", "Ben"], "Y": ["Cat", "Dan"]}
    facts = table(["Ann", "Ben", "Cat", "Dan"], "Ann", teams=teams, game="team_vs_team")
    facts += triggers(("A", "Ann"), ("B", "Ben"), ("C", "Cat"), ("D", "Dan"))
    model = only_model("stack", facts)
    assert stack_of(model) == ("A", "B", "C", "D")


def test_805_7_active_team_puts_all_its_triggers_in_any_order():
    teams = {"North": ["Ann", "Ben"], "South": ["Cat", "Dan"]}
    facts = table(["Ann", "Ben", "Cat", "Dan"], "Cat", teams=teams, game="two_headed_giant")
    facts += triggers(("A", "Ann"), ("B", "Ben"), ("C1", "Cat"), ("C2", "Cat"), ("D", "Dan"))
    found = models("stack", facts)
    stacks = {stack_of(m) for m in found}
    assert len(found) == 6 * 2
    assert all(set(s[:3]) == {"C1", "C2", "D"} and set(s[3:]) == {"A", "B"} for s in stacks)
    # Teammates' triggers interleave: Dan's may go between Cat's two.
    assert ("C1", "D", "C2", "A", "B") in stacks
    assert all(cites(m, "805.7") and cites(m, "603.3b") for m in found)


def test_603_3b_no_waiting_triggers_gives_an_empty_stack():
    model = only_model("stack", table(["Ann", "Ben"], "Ann"))
    assert stack_of(model) == ()


def test_603_3b_start_of_game_starting_player_first():
    facts = table(["Ann", "Ben", "Cat"], "Ann", phase="start_of_game", starting="Ben")
    facts += triggers(("A", "Ann"), ("B", "Ben"))
    model = only_model("stack", facts)
    assert stack_of(model) == ("B", "A")
    assert cites(model, "101.4e")
