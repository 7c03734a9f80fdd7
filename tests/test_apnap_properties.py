"""CR 101.4, 101.4b, 101.4d, 805.6: properties of APNAP orders over random tables.

Random tables of 2-8 players, with or without teams and shared team turns, a
random active (or starting) player and random "X's choice makes Y choose"
lines. Each order found by `queries/order.lp` must hold every player the right
number of times, start with the active player (or a member of the active
team), and otherwise follow turn order / team order; the set of orders must be
exactly the legal ones, and `ask knowledge` must give what holds in every one.
"""

import clingo
from helpers import examples, models, only_model, sequence_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NAMES = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]


@st.composite
def tables(draw, max_players=8):
    n = draw(st.integers(2, max_players))
    players = NAMES[:n]
    mode = draw(st.sampled_from(["free", "teams", "shared"]))
    teams = None
    if mode != "free":
        # Contiguous teams of 1-3 players, at least two teams.
        sizes = []
        while sum(sizes) < n:
            sizes.append(min(draw(st.integers(1, 3)), n - sum(sizes)))
        if len(sizes) < 2:
            sizes = [1, n - 1]
        teams, seat = [], 0
        for size in sizes:
            teams.append(players[seat : seat + size])
            seat += size
    active = draw(st.sampled_from(players))
    start = draw(st.booleans())
    starting = draw(st.sampled_from(players))
    lines = draw(
        st.lists(st.tuples(st.sampled_from(players), st.sampled_from(players)), max_size=3)
    )
    return {
        "players": players,
        "mode": mode,
        "teams": teams,
        "active": active,
        "start": start,
        "starting": starting,
        "lines": lines,
    }


def facts_of(t, hidden=False):
    game = "free_for_all" if t["mode"] == "free" else "team_vs_team"
    if len(t["players"]) == 2 and t["mode"] == "free":
        game = "two_player"
    out = [
        f"game({game}).",
        f'active("{t["active"]}").',
        f'starting("{t["starting"]}").',
        f"phase({'start_of_game' if t['start'] else 'main'}).",
    ]
    for seat, p in enumerate(t["players"], start=1):
        out += [f'player("{p}").', f'seat("{p}",{seat}).']
    for i, members in enumerate(t["teams"] or []):
        out += [f'team("T{i}","{p}").' for p in members]
    if t["mode"] == "shared":
        out.append("option(shared_team_turns).")
    out += ["event(1,simultaneous(sacrifice)).", 'choice_item(1,1,"creature").']
    if hidden:
        out.append("choice_hidden(1).")
    for k, (x, y) in enumerate(t["lines"], start=2):
        out.append(f'event({k},makes_choose("{x}","{y}")).')
    return "\n".join(out) + "\n"


def ranks(t):
    """Each player's APNAP rank and unit rank (the oracle's view of 101.4, 805.6)."""
    players = t["players"]
    head = t["starting"] if t["start"] else t["active"]
    n = len(players)
    rank = {p: (i - players.index(head)) % n for i, p in enumerate(players)}
    if t["mode"] == "shared":
        unit = {p: min(rank[q] for q in team) for team in t["teams"] for p in team}
    else:
        unit = dict(rank)
    return rank, unit


def legal_orders(t):
    """Every legal order, by brute force: the next choice always belongs to the
    earliest unit owing one (101.4, 101.4d); inside a team any member (805.6).
    A line "X's choice makes Y choose" speaks of X's c-th choice, c = 1 + the
    number of earlier lines that made X choose."""
    _, unit = ranks(t)
    lines = t["lines"]
    cause = [1 + sum(1 for (_, y2) in lines[:k] if y2 == x) for k, (x, _) in enumerate(lines)]
    total = len(t["players"]) + len(lines)
    found = set()

    def step(seq, avail, done):
        if len(seq) == total:
            found.add(tuple(seq))
            return
        owing = [p for p in t["players"] if avail[p] > done[p]]
        first = min(unit[p] for p in owing)
        for p in owing:
            if unit[p] != first:
                continue
            d2 = dict(done)
            d2[p] += 1
            a2 = dict(avail)
            for k, (x, y) in enumerate(lines):
                if x == p and cause[k] == d2[p]:
                    a2[y] += 1
            step(seq + [p], a2, d2)

    step([], {p: 1 for p in t["players"]}, {p: 0 for p in t["players"]})
    return found


def collapsed(seq):
    """A choice sequence as `ask order` lists it: a player's next choice right
    after their own is made with it (a later player made to choose just has one
    more choice, spec section 4), so it adds no position."""
    out = []
    for p in seq:
        if not out or out[-1] != p:
            out.append(p)
    return tuple(out)


def order_of(model):
    return sequence_of(model, "order")


SETTINGS = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(tables())
def test_101_4_101_4d_805_6_orders_follow_apnap_and_team_order(t):
    found = models("order", facts_of(t))
    orders = [order_of(m) for m in found]
    assert len(set(orders)) == len(orders), "one model per order"
    rank, unit = ranks(t)
    for order in orders:
        # Each chooser: once, plus once per line that makes them choose (101.4d).
        for p in t["players"]:
            assert 1 <= order.count(p) <= 1 + sum(1 for (_, y) in t["lines"] if y == p)
        assert all(a != b for a, b in zip(order, order[1:], strict=False))
        # The active player (101.4e: the starting one) or a member of the active team is first.
        assert unit[order[0]] == 0
        # Without extra choices: turn order, or team after team in turn order.
        if not t["lines"]:
            keys = [unit[p] for p in order]
            assert keys == sorted(keys)
            if t["mode"] != "shared":
                assert [rank[p] for p in order] == list(range(len(order)))
    assert set(orders) == {collapsed(o) for o in legal_orders(t)}
    for m in found:
        assert 'cites(rule("101.4"))' in m
        assert ('cites(rule("805.6"))' in m) == (t["mode"] == "shared")
        assert ('cites(rule("101.4e"))' in m) == t["start"]
        if restart_happens(order_of(m), t):
            assert 'cites(rule("101.4d"))' in m
        if not t["lines"]:
            assert 'cites(rule("101.4d"))' not in m


def restart_happens(order, t):
    """Whether some line in the order makes an earlier unit's player choose after a
    nonactive unit's choice: the oracle's view of when 101.4d applies."""
    _, unit = ranks(t)
    lines = t["lines"]
    cause = [1 + sum(1 for (_, y2) in lines[:k] if y2 == x) for k, (x, _) in enumerate(lines)]
    seen = {p: 0 for p in t["players"]}
    for p in order:
        seen[p] += 1
        for k, (x, y) in enumerate(lines):
            if x == p and cause[k] == seen[p] and unit[x] > 0 and unit[y] < unit[x]:
                return True
    return False


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(max_players=5), st.booleans())
def test_101_4b_knowledge_is_what_every_legal_order_shows(t, hidden):
    model = only_model("knowledge", facts_of(t, hidden))
    knows = set()
    for text in model:
        term = clingo.parse_term(text)
        if term.name == "knows":
            knows.add(tuple(a.string for a in term.arguments))
    expected = set()
    if not hidden:
        orders = legal_orders(t)
        for p in t["players"]:
            for q in t["players"]:
                if p != q and all(o.index(q) < len(o) - 1 - o[::-1].index(p) for o in orders):
                    expected.add((p, q))
    assert knows == expected
    assert ('cites(rule("101.4a"))' in model) == hidden
