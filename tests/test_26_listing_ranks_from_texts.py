"""Issue 26: a listing's ranks read from the texts of the atoms' arguments
(mtgkb.engine.listing.Canonical.rank_all,
mtgkb.rulebase.symbol_texts.argument_texts) are the ranks read from each
atom's symbol, whatever the names hold (commas, parentheses, escaped quotes
and backslashes), for names the file does not declare and for arguments
that are not names. 509.1a: each blocker's choice is ranked by the file
order of the blocker and of the attacker it blocks."""

from __future__ import annotations

import clingo

from mtgkb.language.json_state import parse_scenario
from mtgkb.questions import listing_order
from mtgkb.rulebase.symbol_texts import argument_texts

TEXT = r"""players: Ann, Ben
active: Ann
Ann controls creature "A,1 (x)" 2/2
Ann controls creature "A\"2\\" 2/2
Ben controls creature "B1" 2/2
Ben controls creature "B(2)," 2/2
"A,1 (x)" attacks Ben
"A\"2\\" attacks Ben
ask blocks
"""

NAMES = ["A,1 (x)", 'A"2\\', "B1", "B(2),", "Ann", "Zed (not declared)"]


def _blocks(terms) -> list[clingo.Symbol]:
    return [clingo.Function("blocks", [b, a]) for b in terms for a in terms]


def test_26_509_1a_ranks_from_texts_are_those_of_the_symbols():
    scenario = parse_scenario(TEXT, "t.mtg")
    names = [clingo.String(n) for n in NAMES]
    for choosers in (None, {"Ben"}):
        canonical = listing_order.declarations(scenario, "blocks", choosers)
        for terms in (names, [*names, clingo.Number(3), clingo.Function("none")]):
            symbols = _blocks(terms)
            expected = [canonical.rank(s) for s in symbols]
            assert canonical.rank_all("blocks", 2, symbols) == expected
        # the declared names ranked apart from each other
        ranks = canonical.rank_all("blocks", 2, _blocks(names[:4]))
        if choosers is None:
            assert len(set(ranks)) == 16


def test_26_argument_texts_are_clingo_s_texts_or_none():
    names = [clingo.String(n) for n in NAMES]
    symbols = _blocks(names)
    texts = argument_texts(symbols, "blocks", 2)
    assert texts == [tuple(str(a) for a in s.arguments) for s in symbols]
    assert argument_texts(symbols[:1], "blocks", 2) == [tuple(map(str, symbols[0].arguments))]
    # a term inside an argument, another predicate, no atom: not read
    nested = clingo.Function("blocks", [names[0], clingo.Function("f", [names[1]])])
    assert argument_texts([*symbols, nested], "blocks", 2) is None
    assert argument_texts(symbols, "attacks", 2) is None
    assert argument_texts([], "blocks", 2) is None


REQUIREMENTS = """players: Ann, Ben
active: Ann
Ann controls creature "A1" 2/2 with must be blocked if able
Ann controls creature "A2" 2/2
Ben controls creature "B1" 2/2
Ben controls creature "B2" 2/2 with blocks each combat if able
Ben controls creature "B3" 2/2
"A1" attacks Ben
"A2" attacks Ben
ask blocks limit {limit}
"""


def test_26_509_1c_a_cut_listing_of_the_declarations_obeying_most_requirements():
    """509.1c: only the declarations obeying the most requirements count (the
    query maximises, so they are listed by the optimising walk), and a
    listing cut at 3 is the start of the whole one."""
    from mtgkb.running.runner import answer_text

    def listed(limit: int) -> dict:
        result = answer_text(REQUIREMENTS.format(limit=limit), "t.mtg")
        return result.output["answers"][0]

    whole, cut = listed(100), listed(3)
    assert whole["complete"] and whole["count"] == len(whole["assignments"]) > 3
    assert cut["count"] == whole["count"]
    assert cut["assignments"] == whole["assignments"][:3]
    # B2 blocks if able and A1 must be blocked if able: every declaration listed has both
    assert all("B2" in a and "A1" in a.values() for a in whole["assignments"])
