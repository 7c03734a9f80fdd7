"""The questions of a scenario: how the shown atoms of a kind's query become
the JSON answer (`answers`), the judge's questions (`judge`, on the play of
`plays`) and the explanations (`explain`). The one registry of the kinds
(which query answers each, which function renders it) is
mtgkb.rulebase.registry, where every package may read it.
"""
