"""The scenario language: its grammar, the parser, the checks of names, and
the input facts it builds.

A check of the input that a CR rule decides is not here: it is in
`rules/100_input_checks.lp`; `checks.py` only hands the facts to it.
"""
