"""Properties of block enumeration (509.1, 802.4a-b) on small random combats.

- every block declaration listed by queries/blocks.lp is legal for queries/legal.lp;
- with attack multiple players each defending player's blocks are judged on their
  own (802.4b), so the declarations of all defenders together are exactly the
  combinations of each defender's declarations: their count is the product.
"""

import json

from helpers import ask, atoms, attack, block, creature, examples, models
from helpers import combat_table as table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ATTACKER_ABILITIES = ["flying", "shadow", "menace"]
BLOCKER_ABILITIES = [
    "flying",
    "reach",
    "shadow",
    "cant_block",
    "cant_block_alone",
    "blocks_if_able",
    "tapped",
]


@st.composite
def combats(draw):
    n = draw(st.integers(min_value=3, max_value=4))
    players = [f"P{i}" for i in range(1, n + 1)]
    facts = table(players, options=["attack_multiple_players"])
    opponents = players[1:]
    for i in range(draw(st.integers(min_value=1, max_value=3))):
        name = f"A{i}"
        abilities = draw(st.lists(st.sampled_from(ATTACKER_ABILITIES), max_size=2, unique=True))
        facts += creature("P1", name, 2, 2, *abilities)
        facts += attack(name, draw(st.sampled_from(opponents)))
    for p in opponents:
        for j in range(draw(st.integers(min_value=0, max_value=2))):
            abilities = draw(st.lists(st.sampled_from(BLOCKER_ABILITIES), max_size=2, unique=True))
            facts += creature(p, f"{p}B{j}", 1, 1, *abilities)
    return facts, opponents


def declarations(facts, question):
    found = []
    for model in models("blocks", facts + ask(question)):
        pairs = [json.loads("[" + a[len("blocks(") : -1] + "]") for a in atoms(model, "blocks")]
        found.append(sorted(map(tuple, pairs)))
    return found


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combats())
def test_509_1_every_listed_block_declaration_is_legal(combat):
    facts, _ = combat
    for decl in declarations(facts, "blocks")[:4]:
        declared = "".join(block(b, c) for b, c in decl) + "phase(declare_blockers).\n"
        found = models("legal", facts + declared + ask("legal"))
        assert len(found) == 1
        assert atoms(found[0], "violation") == set(), (decl, found[0])


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combats())
def test_802_4b_all_defenders_blocks_are_the_product_of_each_defenders(combat):
    facts, defenders = combat
    together = declarations(facts, "blocks")
    product = 1
    for p in defenders:
        product *= len(declarations(facts, f'blocks("{p}")'))
    assert len(together) == product
    assert len({tuple(d) for d in together}) == len(together)
