"""The play an `ask can PLAY` judges, and the facts it is judged on (spec,
section 10): read by the answer (mtgkb.questions.judge) and by its
explanation (mtgkb.questions.explain) alike.

The play is the declaration the parser built from it (the grammar's own
declaration statements). The facts are those of the scenario with the
file's declarations of the play's step left out and the play in their
place. Nothing here is a game rule: which facts belong to which step is the
shape of the language's declarations.
"""

from __future__ import annotations

from dataclasses import replace

import clingo

from mtgkb.language.facts import scenario_facts
from mtgkb.language.model import Play, Target

# The list of the Scenario a play's declaration belongs to -> the step it is
# declared in (the argument of asked(can(S))) and the lists of the file that
# hold that step's declarations (left out while the play is judged).
STEPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "attacks": ("attack", ("attacks", "bands")),
    "bands": ("attack", ("attacks", "bands")),
    "blocks": ("block", ("blocks",)),
    "defending_choices": ("defending", ("defending_choices",)),
    "plays": ("play", ("plays",)),
    "assignments": ("assign", ("assignments",)),
    "targets": ("target", ("plays",)),
}


def _asked(step: str) -> clingo.Symbol:
    return clingo.Function("asked", [clingo.Function("can", [clingo.Function(step)])])


def target_play(question) -> Play:
    """`P target X` as the play it asks about: a colorless instant of P's
    (no color fact) that targets X."""
    return Play(
        line=question.line,
        column=question.column,
        index=1,
        kind="cast",
        player=question["player"],
        name=f"{question['player']}'s spell",
        spell_type="instant",
        targets=[Target(name=question["target"], quoted=question["target_quoted"])],
    )


def hypothesis_facts(scenario, field: str, play) -> tuple[str, list[clingo.Symbol]]:
    """The step of a play and the facts it is judged on (`play`: one
    declaration, or the list a play makes: a blocker of several attackers)."""
    step, written = STEPS[field]
    lists = {name: [] for name in written}
    lists["plays" if field == "targets" else field] = play if isinstance(play, list) else [play]
    hypo = replace(scenario, **lists, questions=[])
    return step, scenario_facts(hypo) + [_asked(step)]


__all__ = ["STEPS", "hypothesis_facts", "target_play"]
