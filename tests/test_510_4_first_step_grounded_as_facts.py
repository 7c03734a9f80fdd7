"""510.4: the second combat damage step reads what the first one did (the
damage it dealt, the creatures destroyed between the steps). Each step's
assignment is written once (`#program combat_step(st).`, rules/510_combat_damage.lp)
and read with the step a constant, so that the grounder works the first step
out before the second: its damage, the creatures destroyed after it, the
amounts both steps assign and the life totals they lead to are facts after
grounding, not choices left to the solver (where a #sum over them would count
every subset of the damage).

Left to the solver still (rules/510_combat_damage.lp's header says why): the
regular step's damage as dealt, which 800.4e reads whether a player left the
game between the steps, so the life totals after damage to a player in the
regular step; the combat below deals none there."""

from helpers.combat_answers import outcome

from mtgkb.engine.solve import Grounding
from mtgkb.engine.state import Engine
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text

COMBAT = """players: Rob, Alex
active: Rob
Rob controls creature "Striker" 2/1 with first strike
Rob controls creature "Knight" 2/2 with first strike
Rob controls creature "Bear" 3/3
Alex controls creature "Wall" 1/2
Alex controls creature "Ox" 2/4
"Striker" attacks Alex
"Knight" attacks Alex
"Bear" attacks Alex
"Wall" blocks "Knight"
"Ox" blocks "Bear"
"""


def _facts_and_not(text: str, atoms: list[str]) -> tuple[set[str], set[str]]:
    """Of `atoms`, those that are facts of the `outcome` grounding of `text`
    and those that are there but are not facts."""
    facts = scenario_facts(parse_text(text + "combat damage\nask outcome\n", "x"))
    grounding = Grounding(["outcome"], facts, engine=Engine())
    found = {str(a.symbol): a.is_fact for a in grounding.ctl.symbolic_atoms}
    return {a for a in atoms if found.get(a)}, {a for a in atoms if found.get(a) is False}


def test_510_4_the_first_steps_damage_and_what_it_destroyed_are_facts():
    first = [
        # 702.7b, 510.1a-c: the first strikers assign and deal their power in the first step
        'assigned(first,"Striker","Alex",2)',
        'assigned(first,"Knight","Wall",2)',
        'combat_dealt(1,first,"Striker","Alex",2)',
        'combat_dealt(1,first,"Knight","Wall",2)',
        # 704.5g: the Wall, dealt lethal damage, is destroyed between the steps ...
        'gone_after_first("Wall")',
        'destroyed("Wall")',
        # 510.4: ... and deals no damage in the regular step, where the others strike
        'strikes(regular,"Bear")',
        'strikes(regular,"Ox")',
        'assigned(regular,"Bear","Ox",3)',
        'assigned(regular,"Ox","Bear",2)',
        # 120.3a: Alex lost the first step's 2 life
        'life("Alex",18)',
        'life("Rob",20)',
    ]
    facts, not_facts = _facts_and_not(COMBAT, first + ['strikes(regular,"Wall")'])
    assert facts == set(first)
    assert not not_facts  # (the Wall is no atom of the regular step at all)
    found = outcome(COMBAT)
    assert found["destroyed"] == ["Wall"]
    assert found["life"] == {"Rob": 20, "Alex": 18}
    assert {"510.4", "702.7b", "704.5g"} <= set(found["rules"])


def test_510_4_702_4b_a_double_strikers_two_assignments_are_facts():
    text = COMBAT.replace('"Knight" 2/2 with first strike', '"Knight" 2/2 with double strike')
    text = text.replace('"Wall" 1/2', '"Wall" 1/4')
    both = [
        'assigned(first,"Knight","Wall",2)',
        'assigned(regular,"Knight","Wall",2)',
        'combat_dealt(1,first,"Knight","Wall",2)',
    ]
    facts, _ = _facts_and_not(text, both)
    assert facts == set(both)
    found = outcome(text)
    # the Wall survives the first step (2 damage, toughness 4) and dies of the second's 2 more
    assert found["destroyed"] == ["Wall"]
    assert {"510.4", "702.4b", "704.5g"} <= set(found["rules"])
