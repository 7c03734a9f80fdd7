"""`ask explain`: a derivation tree for the other answers of a file, citing
the CR rule behind each conclusion, and for each illegal play the smallest
set of rules that together forbid it.

How a tree is built (no game rule here, only reading what the rules derived):

- each other question is solved alone (its own `asked/1` fact) with its query
  program, `queries/explain.lp` and the fact `explaining(Q)`;
  `explain_root(Q,C)` names the conclusions C of its answer;
- every rule of the program also gets a traced twin, `_why(K,Head,t(Body...))`
  (K the rule's place, Body its positive body atoms), so the derivation of any
  atom is known: the input facts under a conclusion become leaves, and atoms
  that are neither facts nor conclusions are walked through;
- a node's rule comes from `because/2` (the rule the encodings name for the
  conclusion; the tag of the rule that derived it where there is none), its
  sub-conclusions from `rests_on/2` (else from the trace);
- an illegal play (violations whose objects include one another) gets
  `forbidden_by`: a minimal unsatisfiable core over CR-number switches
  (`mtgkb.engine.cores`) of "the play, and none of its violations holds", shrunk until
  switching off any one rule makes it satisfiable. The switches are the rules
  the violations name or cite; the rest of the rule base (who defends, what
  attacks what) stays on, so the set says which prohibitions forbid the play.
  A violation that needs the best hypothetical declaration (508.1d, 509.1c)
  is checked on the optimal model instead, since a constraint could dodge it.

A `because(X, rule(R))` rule is traced too: its positive body atoms are the
facts and conclusions that made R the rule of X (702.17b for a block of a
flyer: the blocker has reach), shown under X; a fact a sub-conclusion shows
is not repeated above it, but those.

The modules, by job: `trace` (the traced program), `graph` (reading its
model), `tree` (the nodes within the bounds), `text` (conclusions in words),
`reach` (which predicates can reach an explanation: each needs a sentence),
`forbidden` (the minimal cores of illegal plays), `answer` (the answer of
`ask explain`), `tables` (what it reads of the other questions).
"""

from mtgkb.questions.explain.answer import answer_explain
from mtgkb.questions.explain.forbidden import Forbidder, forbidden_plays
from mtgkb.questions.explain.graph import Graph
from mtgkb.questions.explain.text import describe
from mtgkb.questions.explain.trace import Traced, solve_traced, traced_program
from mtgkb.questions.explain.tree import Builder

__all__ = [
    "Builder",
    "Forbidder",
    "Graph",
    "Traced",
    "solve_traced",
    "answer_explain",
    "describe",
    "forbidden_plays",
    "traced_program",
]
