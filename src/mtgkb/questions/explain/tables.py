"""What `ask explain` reads of the rest of mtgkb: which query answers which
question, and which input facts are the play or say nothing worth a leaf.

(Kept in one place: the question registry and the input vocabulary replace
these tables by reads of their own.)"""

from __future__ import annotations

from mtgkb.questions.answers import QUERY_OF as ANSWER_QUERIES

# The query of each kind of question this one explains (not itself). `ask
# fix` is explained by the faults of the declared play.
QUERY_OF = {kind: query for kind, query in ANSWER_QUERIES.items() if kind != "explain"}
QUERY_OF["fix"] = "legal"
# Kinds of question that need a parameter: `ask explain Q` explains them only
# where the file asks them.
NEEDS_PARAMETERS = {"attack_targets", "pay", "can", "actions", "assignments"}

#: Input facts that say nothing worth a leaf.
QUIET_FACTS = {"asked", "explaining", "object", "seat", "landwalk", "player"}
#: Input facts that are the play under judgement.
PLAY_FACTS = {"declared_attack", "declared_block", "chooses_defending", "band"}
