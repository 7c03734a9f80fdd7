"""CR 805.4a, 805.6, 805.6a: APNAP order with the shared team turns option."""

import clingo
from helpers import arguments, models, only_model, sequence_of, table_facts


def table(teams, active, *, game="two_headed_giant", starting=None, phase="main", options=()):
    """Teams seated in the order given (a dict name -> members)."""
    players = [player for members in teams.values() for player in members]
    return table_facts(
        players,
        active,
        game=game,
        starting=starting or players[0],
        phase=phase,
        teams=teams,
        options=options,
    )


def each(kind="sacrifice"):
    return f'event(1,simultaneous({kind})).\nchoice_item(1,1,"creature").\n'


def makes(index, x, y):
    return f'event({index},makes_choose("{x}","{y}")).\n'


args = arguments


def order_of(model):
    return sequence_of(model, "order")


def cites(model, rule):
    return f'cites(rule("{rule}"))' in model


TWO_HG = {"North": ["Ann", "Ben"], "South": ["Cat", "Dan"]}


def test_805_6a_active_team_draws_in_any_order_then_nonactive_team():
    # Conformance c15.
    found = models("order", table(TWO_HG, "Ann") + each("draw"))
    assert {order_of(m) for m in found} == {
        ("Ann", "Ben", "Cat", "Dan"),
        ("Ben", "Ann", "Cat", "Dan"),
        ("Ann", "Ben", "Dan", "Cat"),
        ("Ben", "Ann", "Dan", "Cat"),
    }
    assert len(found) == 4
    assert all(cites(m, "805.6a") and cites(m, "101.4") for m in found)
    assert not any(cites(m, "805.6") for m in found)


def test_805_6_choices_active_team_first_and_cite_805_6():
    found = models("order", table(TWO_HG, "Cat") + each("sacrifice"))
    assert {order_of(m)[:2] for m in found} == {("Cat", "Dan"), ("Dan", "Cat")}
    assert len(found) == 4
    assert all(cites(m, "805.6") and not cites(m, "805.6a") for m in found)


def test_805_6_nonactive_teams_in_turn_order():
    teams = {"A": ["Ann", "Ben"], "B": ["Cat", "Dan"], "C": ["Eve", "Fay"]}
    facts = table(teams, "Dan", game="team_vs_team", options=["shared_team_turns"]) + each()
    found = models("order", facts)
    teams_of = {p: t for t, ms in teams.items() for p in ms}
    assert {tuple(teams_of[p] for p in order_of(m)) for m in found} == {
        ("B", "B", "C", "C", "A", "A")
    }
    assert len(found) == 8
    assert all(cites(m, "805.6") for m in found)


def test_805_6_team_vs_team_without_shared_turns_is_per_player():
    teams = {"A": ["Ann", "Ben"], "B": ["Cat", "Dan"]}
    model = only_model("order", table(teams, "Ben", game="team_vs_team") + each())
    assert order_of(model) == ("Ben", "Cat", "Dan", "Ann")
    assert cites(model, "101.4") and not cites(model, "805.6")


def test_805_4a_starting_team_chooses_first_at_start_of_game():
    facts = table(TWO_HG, "Ann", starting="Dan", phase="start_of_game") + each("draw")
    found = models("order", facts)
    assert {order_of(m)[:2] for m in found} == {("Cat", "Dan"), ("Dan", "Cat")}
    assert all(cites(m, "101.4e") and cites(m, "805.6a") for m in found)


def test_805_6_archenemy_team_of_one_then_the_others():
    facts = (
        'game(archenemy). archenemy("Ann"). active("Ann"). starting("Ann"). phase(main).\n'
        + "".join(
            f'player("{p}"). seat("{p}",{i}).\n' for i, p in enumerate(["Rob", "Ann", "Ben"], 1)
        )
        + each()
    )
    found = models("order", facts)
    assert {order_of(m) for m in found} == {("Ann", "Ben", "Rob"), ("Ann", "Rob", "Ben")}
    assert all(cites(m, "805.6") for m in found)


def test_805_6_101_4d_restart_across_teams():
    # Cat (nonactive team) makes Ann (active team) choose: Ann goes before Cat's teammate
    # if Dan has not chosen yet.
    found = models("order", table(TWO_HG, "Ann") + each() + makes(2, "Cat", "Ann"))
    assert {order_of(m)[2:] for m in found} == {("Cat", "Ann", "Dan"), ("Dan", "Cat", "Ann")}
    assert len(found) == 4
    assert all(cites(m, "101.4d") for m in found if order_of(m)[2] == "Cat")


def test_805_6_teammates_choices_are_not_known_in_every_order():
    model = only_model("knowledge", table(TWO_HG, "Ann") + each())
    knows = {tuple(args(clingo.parse_term(t))) for t in model if t.startswith("knows(")}
    assert knows == {("Cat", "Ann"), ("Cat", "Ben"), ("Dan", "Ann"), ("Dan", "Ben")}
    assert cites(model, "805.6") and cites(model, "101.4b")


def test_805_4a_active_team_is_explained():
    from mtgkb.engine.solve import models_as_text

    (model,) = models_as_text("stack", table(TWO_HG, "Ben") + "#show because/2.\n")
    assert 'because(active_team("North"),rule("805.4a"))' in model
