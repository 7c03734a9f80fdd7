"""CR 101.4 and 101.4a-e: APNAP order of simultaneous choices, on hand-written facts."""

import clingo
from helpers import arguments, models, only_model, sequence_of, table_facts


def table(players, active=None, *, starting=None, phase="main", game=None):
    """The facts of a table: seats in the order given, the active player first by default."""
    return table_facts(players, active, starting=starting or players[0], phase=phase, game=game)


def each(index=1, kind="sacrifice", items=("creature",), in_order=False, hidden=False):
    """An `each player ...` event at `index` with its choice items."""
    lines = [f"event({index},simultaneous({kind}))."]
    lines += [f'choice_item({index},{j},"{s}").' for j, s in enumerate(items, start=1)]
    if in_order:
        lines.append(f"choice_in_order({index}).")
    if hidden:
        lines.append(f"choice_hidden({index}).")
    return "\n".join(lines) + "\n"


def makes(index, x, y):
    return f'event({index},makes_choose("{x}","{y}")).\n'


args = arguments


def order_of(model):
    """The order(Pos,P) atoms of a model as a list of players."""
    return list(sequence_of(model, "order"))


def orders(found):
    return {tuple(order_of(m)) for m in found}


def choice_orders(found):
    """Per player, the set of sequences of their several choices across models."""
    result = {}
    for model in found:
        per = {}
        for text in model:
            term = clingo.parse_term(text)
            if term.name == "choice_order":
                player, pos, thing = args(term)
                per.setdefault(player, []).append((pos, thing))
        for player, steps in per.items():
            result.setdefault(player, set()).add(tuple(t for _, t in sorted(steps)))
    return result


def cites(model, rule):
    return f'cites(rule("{rule}"))' in model


# --- 101.4 -----------------------------------------------------------------


def test_101_4_example_active_player_first_then_turn_order():
    # The CR 101.4 example (conformance c01): Alex is active; Carissa sits to Alex's left.
    facts = table(["Rob", "Alex", "Carissa"], active="Alex") + each()
    model = only_model("order", facts)
    assert order_of(model) == ["Alex", "Carissa", "Rob"]
    assert cites(model, "101.4")
    assert not cites(model, "101.4d") and not cites(model, "101.4e")


def test_101_4_two_player_game_nonactive_second():
    model = only_model("order", table(["Ann", "Ben"], active="Ben") + each())
    assert order_of(model) == ["Ben", "Ann"]
    assert cites(model, "101.4")


def test_101_4_only_the_latest_simultaneous_event_is_pending():
    # The first event's choices are over: its makes_choose line does not count.
    facts = table(["Ann", "Ben", "Cat"]) + each(1) + makes(2, "Ben", "Ann") + each(3, "draw")
    model = only_model("order", facts)
    assert order_of(model) == ["Ann", "Ben", "Cat"]
    assert cites(model, "101.4") and not cites(model, "101.4d")


def test_101_4_because_order_rests_on_turn_order():
    from mtgkb.engine.solve import models_as_text

    facts = table(["Ann", "Ben", "Cat"], active="Cat") + each()
    text = facts + "#show because/2.\n"
    (model,) = models_as_text("order", text)
    assert 'because(order(1,"Cat"),rule("101.4"))' in model
    assert 'because(apnap_rank("Ann",1),rule("101.4"))' in model


# --- 101.4e ----------------------------------------------------------------


def test_101_4e_starting_player_counts_as_active_at_start_of_game():
    # Conformance c29.
    facts = table(["Ann", "Ben", "Cat"], starting="Cat", phase="start_of_game") + each(kind="draw")
    model = only_model("order", facts)
    assert order_of(model) == ["Cat", "Ann", "Ben"]
    assert cites(model, "101.4e") and cites(model, "101.4")


def test_101_4e_does_not_apply_after_the_game_started():
    facts = table(["Ann", "Ben", "Cat"], active="Ben", starting="Cat") + each()
    model = only_model("order", facts)
    assert order_of(model) == ["Ben", "Cat", "Ann"]
    assert not cites(model, "101.4e")


# --- 101.4c ----------------------------------------------------------------


def test_101_4c_several_choices_in_the_order_specified():
    # Conformance c22: "a creature, then a land".
    facts = table(["Ann", "Ben", "Cat"]) + each(
        kind="choose", items=("creature", "land"), in_order=True
    )
    model = only_model("order", facts)
    assert order_of(model) == ["Ann", "Ben", "Cat"]
    assert choice_orders([model]) == {p: {("creature", "land")} for p in ["Ann", "Ben", "Cat"]}
    assert cites(model, "101.4c")


def test_101_4c_player_chooses_the_order_when_none_is_specified():
    facts = table(["Ann", "Ben"]) + each(kind="choose", items=("creature", "land"))
    found = models("order", facts)
    assert orders(found) == {("Ann", "Ben")}
    both = {("creature", "land"), ("land", "creature")}
    assert choice_orders(found) == {"Ann": both, "Ben": both}
    assert len(found) == 2 and all(cites(m, "101.4c") for m in found)


def test_101_4c_one_choice_shows_no_choice_order():
    model = only_model("order", table(["Ann", "Ben"]) + each())
    assert choice_orders([model]) == {}
    assert not cites(model, "101.4c")


# --- 101.4d ----------------------------------------------------------------


def test_101_4d_choice_of_nonactive_player_restarts_order():
    # Conformance c16: Ben's choice makes Ann (earlier) choose.
    facts = table(["Ann", "Ben", "Cat"]) + each() + makes(2, "Ben", "Ann")
    model = only_model("order", facts)
    assert order_of(model) == ["Ann", "Ben", "Ann", "Cat"]
    assert cites(model, "101.4d")


def test_101_4d_restart_covers_all_outstanding_choices():
    # Cat's choice makes Ann and Ben choose: they choose again in APNAP order, then Dan.
    facts = (
        table(["Ann", "Ben", "Cat", "Dan"])
        + each()
        + makes(2, "Cat", "Ann")
        + makes(3, "Cat", "Ben")
    )
    model = only_model("order", facts)
    assert order_of(model) == ["Ann", "Ben", "Cat", "Ann", "Ben", "Dan"]
    assert cites(model, "101.4d")


def test_101_4d_later_player_made_to_choose_does_not_restart():
    # Ben's choice makes Cat (later in turn order) choose: no restart; Cat simply
    # has one more choice at Cat's own turn, so Cat is listed once (spec section 4).
    facts = table(["Ann", "Ben", "Cat"]) + each() + makes(2, "Ben", "Cat")
    model = only_model("order", facts)
    assert order_of(model) == ["Ann", "Ben", "Cat"]
    assert cites(model, "101.4") and not cites(model, "101.4d")


def test_101_4d_later_player_of_four_is_listed_once():
    # The held-out case: A B C D with B's choice making D choose is A B C D, not A B C D D.
    facts = table(["A", "B", "C", "D"]) + each() + makes(2, "B", "D")
    model = only_model("order", facts)
    assert order_of(model) == ["A", "B", "C", "D"]


def test_101_4d_active_players_choice_never_restarts():
    facts = table(["Ann", "Ben", "Cat"]) + each() + makes(2, "Ann", "Ben")
    model = only_model("order", facts)
    assert order_of(model) == ["Ann", "Ben", "Cat"]
    assert not cites(model, "101.4d")


def test_101_4d_chained_lines_follow_the_latest_choice():
    # Ben's choice makes Ann choose; that new choice of Ann's makes Cat choose.
    facts = table(["Ann", "Ben", "Cat"]) + each() + makes(2, "Ben", "Ann") + makes(3, "Ann", "Cat")
    model = only_model("order", facts)
    assert order_of(model) == ["Ann", "Ben", "Ann", "Cat"]
    assert cites(model, "101.4d")


def test_101_4d_two_restarts():
    # Cat's and Ben's choices each make Ann choose; Ben's comes first in APNAP order.
    facts = (
        table(["Ann", "Ben", "Cat", "Dan"])
        + each()
        + makes(2, "Cat", "Ann")
        + makes(3, "Ben", "Ann")
    )
    model = only_model("order", facts)
    assert order_of(model) == ["Ann", "Ben", "Ann", "Cat", "Ann", "Dan"]
    assert cites(model, "101.4d")


def test_101_4d_restart_counts_from_the_starting_player_at_start_of_game():
    # 101.4e: Cat counts as active, so Ann's choice making Cat choose restarts the order.
    facts = (
        table(["Ann", "Ben", "Cat"], starting="Cat", phase="start_of_game")
        + each()
        + makes(2, "Ann", "Cat")
    )
    model = only_model("order", facts)
    assert order_of(model) == ["Cat", "Ann", "Cat", "Ben"]
    assert cites(model, "101.4d") and cites(model, "101.4e")


# --- 101.4b, 101.4a --------------------------------------------------------


def knows_of(model):
    return {tuple(args(clingo.parse_term(t))) for t in model if t.startswith("knows(")}


def test_101_4b_player_knows_choices_made_before():
    # Conformance c21: Ben is active; Ann knows Ben's choice, Ben knows none.
    model = only_model("knowledge", table(["Ann", "Ben"], active="Ben") + each())
    assert knows_of(model) == {("Ann", "Ben")}
    assert cites(model, "101.4b")


def test_101_4b_knowledge_after_a_restart():
    facts = table(["Ann", "Ben", "Cat"]) + each() + makes(2, "Ben", "Ann")
    model = only_model("knowledge", facts)
    assert knows_of(model) == {("Ben", "Ann"), ("Ann", "Ben"), ("Cat", "Ann"), ("Cat", "Ben")}
    assert cites(model, "101.4b")


def test_101_4a_face_down_choice_from_hidden_zone_is_not_known():
    facts = table(["Ann", "Ben", "Cat"]) + each(kind="choose", items=("card",), hidden=True)
    model = only_model("knowledge", facts)
    assert knows_of(model) == set()
    assert cites(model, "101.4a")
