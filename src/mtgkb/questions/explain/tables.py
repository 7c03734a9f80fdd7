"""What `ask explain` reads of the rest of mtgkb: which query answers which
question, and which input facts are the play or say nothing worth a leaf.

(The question tables are read from mtgkb.rulebase.registry.)"""

from __future__ import annotations

from mtgkb.rulebase import registry

# The query of each kind of question this one explains (not itself), and the
# kinds explained only where the file asks them: the registry's.
QUERY_OF = registry.EXPLAINED_BY
NEEDS_PARAMETERS = registry.NEEDS_PARAMETERS

#: Input facts that say nothing worth a leaf.
QUIET_FACTS = {"asked", "explaining", "object", "seat", "landwalk", "player"}
#: Input facts that are the play under judgement.
PLAY_FACTS = {"declared_attack", "declared_block", "chooses_defending", "band"}
