"""Property (119.3, 810.9): with no "can't" effects and no payments, new totals
or exchanges, a final life total is the starting total plus gains minus losses
(per player, or per team where life is shared)."""

from helpers import examples, only_model
from hypothesis import given, settings
from hypothesis import strategies as st

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
SOURCES = ["Lifelinker 1", "Lifelinker 2", "Shock"]

event_strategy = st.one_of(
    st.tuples(st.just("gain"), st.sampled_from(PLAYERS), st.integers(0, 9)),
    st.tuples(st.just("lose"), st.sampled_from(PLAYERS), st.integers(0, 9)),
    st.tuples(
        st.just("damage"), st.sampled_from(SOURCES), st.sampled_from(PLAYERS), st.integers(0, 9)
    ),
)


def scenario(shared, controllers, evs):
    facts = "game(two_headed_giant).\n" if shared else "game(free_for_all).\n"
    for seat, p in enumerate(PLAYERS, start=1):
        facts += f'player("{p}"). seat("{p}",{seat}).\n'
        if shared:
            facts += f'team("{"North" if seat <= 2 else "South"}","{p}").\n'
    facts += 'active("Ann").\n'
    for source, owner in zip(SOURCES[:2], controllers, strict=True):
        facts += f'object("{source}"). controls("{owner}","{source}"). has("{source}",lifelink).\n'
    for i, ev in enumerate(evs, start=1):
        if ev[0] == "gain":
            facts += f'event({i},gain_life("{ev[1]}",{ev[2]})).\n'
        elif ev[0] == "lose":
            facts += f'event({i},lose_life("{ev[1]}",{ev[2]})).\n'
        else:
            facts += f'event({i},damage("{ev[1]}","{ev[2]}",{ev[3]})).\n'
    return facts + "asked(outcome).\n"


def expected(shared, controllers, evs):
    holder = {p: ("North" if i < 2 else "South") if shared else p for i, p in enumerate(PLAYERS)}
    total = {h: (30 if shared else 20) for h in holder.values()}
    owner = dict(zip(SOURCES[:2], controllers, strict=True))
    for ev in evs:
        if ev[0] == "gain":
            total[holder[ev[1]]] += ev[2]
        elif ev[0] == "lose":
            total[holder[ev[1]]] -= ev[2]
        else:
            _, source, target, n = ev
            total[holder[target]] -= n
            if source in owner:
                total[holder[owner[source]]] += n
    return {p: total[holder[p]] for p in PLAYERS}, total


@settings(max_examples=examples(40), deadline=None)
@given(
    shared=st.booleans(),
    controllers=st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2),
    evs=st.lists(event_strategy, max_size=12),
)
def test_119_3_810_9_final_life_is_start_plus_gains_minus_losses(shared, controllers, evs):
    model = only_model("outcome", scenario(shared, controllers, evs))
    per_player, per_holder = expected(shared, controllers, evs)
    assert {a for a in model if a.startswith("life(")} == {
        f'life("{p}",{n})' for p, n in per_player.items()
    }
    if shared:
        assert {a for a in model if a.startswith("team_life(")} == {
            f'team_life("{t}",{n})' for t, n in per_holder.items()
        }
    lost = {a for a in model if a.startswith("lost(")}
    assert lost == {f'lost("{p}")' for p, n in per_player.items() if n <= 0}
