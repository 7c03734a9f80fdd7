"""Where clingo runs: grounding, slicing, solving, counting and minimal cores.

Nothing here knows a game rule.

The engine and its state
------------------------
No module here (nor anywhere in mtgkb) keeps state of its own: what lasts
between calls is held by two objects that are passed down
(mtgkb.engine.state; `tests/test_engine_structure.py` holds the package to it).

- `Engine`: one rule base (where it lives, `engine.location`; its text and
  its slicing analysis, `engine.rule_base()`, read on first use and read
  again only when one of its files changed), the `Options` read from the
  environment once, when the engine is made (MTGKB_SLICING, MTGKB_SHARE,
  MTGKB_FAST_COUNT, MTGKB_COUNT_PARTS, MTGKB_COUNT_CLASSES, MTGKB_COMBINE,
  MTGKB_CACHE and MTGKB_CACHE_DIR), and the caches made from them (the
  programs rewritten for many scenarios at once, `engine.scenario_programs`). Whoever runs the work
  makes one engine, once: `mtgkb run` per run (mtgkb.running.batch), a
  recycled worker holds its pool's (forked from the parent after
  `engine.prepare()`, so the rule base is read once per process), the server
  its pool's, a Python caller an `mtgkb.Answerer`. A test that needs other
  options makes its own: `Engine(Options.from_env().but(slicing=False))`.
- `Session`: what the questions of one file, or of one batch chunk, share:
  the groundings of the file being answered (`SharedGroundings`) and the
  models a batch solved ahead for the chunk (`session.ahead`). The runner
  makes one per file (mtgkb.running.runner.answer_scenario), the batch one
  per chunk, and passes it to every answer (mtgkb.questions.answers.answer).

Every function that grounds or solves takes the engine (or the session) as
an argument; given none, it makes a fresh one, which is correct but reads
the rule base again. `mtgkb.rulebase.control.new_control` is the one place a clingo Control
is made.

A program is given to clingo as text the first time a process grounds it,
and as its statements parsed once after that (`analysis.DescribedProgram.add`).
The parsed statements are kept with the program's description: the rule
base's in its engine, the input checks' in their cache, which is keyed by
their files (mtgkb.language.checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.engine.session import Session
    from mtgkb.engine.state import Engine, Options

__all__ = ["Engine", "Options", "Session"]


def __getattr__(name: str):
    """`Engine`, `Options` (mtgkb.engine.state) and `Session`
    (mtgkb.engine.session), imported on first use (a module that only makes a
    Control does not load them)."""
    if name == "Session":
        from mtgkb.engine import session

        return session.Session
    if name in __all__:
        from mtgkb.engine import state

        return getattr(state, name)
    raise AttributeError(f"module 'mtgkb.engine' has no attribute {name!r}")
