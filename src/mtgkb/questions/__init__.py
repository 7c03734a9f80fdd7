"""The questions of a scenario: which query answers each, and how its shown
atoms become the JSON answer (`answers`), the judge's questions (`judge`)
and the explanations (`explain`).
"""
