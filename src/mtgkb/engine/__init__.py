"""Where clingo runs: grounding, slicing, solving, counting and minimal cores.

Nothing here knows a game rule.
"""
