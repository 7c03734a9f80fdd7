"""The questions of a scenario: the one registry of their kinds (`registry`:
which query answers each, which function renders it), how its shown atoms
become the JSON answer (`answers`), the judge's questions (`judge`, on the
play of `plays`) and the explanations (`explain`).
"""
