"""The engine's state, held by objects that are passed down rather than by modules.

- `Options`: the engine's switches, read from the environment once, when an
  engine is made (`Options.from_env`).
- `Engine`: one rule base (where it lives, its text, its slicing analysis)
  with the options and the caches made from them. An engine is made once per
  process by whoever runs the work (the command line, a pool worker's loop,
  the server) and passed down; the rule base is read and analysed once per
  engine, and read again only when one of its files changed.
- The per-file `Session` is in mtgkb.engine.session.

Nothing here knows a game rule.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path

from mtgkb.engine.programs import release_trees_at_exit, stamp
from mtgkb.engine.rule_base import LoadedRuleBase
from mtgkb.rulebase.disk_cache import cache_dir, switched_on
from mtgkb.rulebase.location import RuleBase, current
from mtgkb.rulebase.records import record


@record(frozen=True)
class Options:
    """How the engine keeps its work small; each can be switched off (for
    comparison, bench/README.md) by its environment variable set to 0."""

    slicing: bool = True  # MTGKB_SLICING: ground only the statements that can matter
    share: bool = True  # MTGKB_SHARE: the questions of a file share groundings (a listing
    # and its counting query too: mtgkb.engine.solve.Grounding.stacked_model)
    fast_count: bool = True  # MTGKB_FAST_COUNT: count models without Python per model
    count_parts: bool = True  # MTGKB_COUNT_PARTS: count by independent parts
    count_classes: bool = True  # MTGKB_COUNT_CLASSES: count declarations by classes
    combine: bool = True  # MTGKB_COMBINE: a batch solves a chunk's scenarios at once
    forms_listing: bool = True  # MTGKB_FORMS_LISTING: `ask blocks` listed from its
    # counting forms (mtgkb.engine.first_declarations), with no grounding of its own
    # MTGKB_SLICE_MEMO: a process's first groundings sliced as remembered on disk
    # (mtgkb.engine.slice_memo), the analysis read only for new ones
    slice_memo: bool = True
    cache_dir: Path | None = None  # MTGKB_CACHE(_DIR): the analysis cache on disk

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Options:
        env = os.environ if env is None else env
        return cls(
            slicing=switched_on(env, "MTGKB_SLICING"),
            share=switched_on(env, "MTGKB_SHARE"),
            fast_count=switched_on(env, "MTGKB_FAST_COUNT"),
            count_parts=switched_on(env, "MTGKB_COUNT_PARTS"),
            count_classes=switched_on(env, "MTGKB_COUNT_CLASSES"),
            combine=switched_on(env, "MTGKB_COMBINE"),
            forms_listing=switched_on(env, "MTGKB_FORMS_LISTING"),
            slice_memo=switched_on(env, "MTGKB_SLICE_MEMO"),
            cache_dir=cache_dir(env),
        )

    @property
    def counts_from_forms(self) -> bool:
        """Whether declarations are counted from the forms their counting
        query derives (mtgkb.engine.classes), and so may be listed from them
        (`forms_listing`)."""
        return self.count_parts and self.count_classes

    def but(self, **changes) -> Options:
        """These options with some changed (`options.but(slicing=False)`)."""
        known = {f.name for f in fields(self)}
        unknown = set(changes) - known
        if unknown:
            raise TypeError(f"no such engine option: {', '.join(sorted(unknown))}")
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return Options(**{**values, **changes})


class Engine:
    """The rule base of `location` (by default the one this process uses:
    `mtgkb.rulebase.location.current()`), read and analysed on first use,
    with the engine's `options` (by default from the environment, now) and
    the caches made from them."""

    #: How often a long run looks for edited rule files (seconds).
    RECHECK_SECONDS = 1.0

    def __init__(self, options: Options | None = None, location: RuleBase | None = None):
        self.options = Options.from_env() if options is None else options
        self.location = current() if location is None else location
        self._base: LoadedRuleBase | None = None
        self._checked = 0.0
        self._described: tuple[float, dict] | None = None  # (when, describe())
        # (rule base stamp, query) -> the program of mtgkb.engine.scenarios
        self.scenario_programs: dict[tuple, list | None] = {}
        release_trees_at_exit(self)  # (their trees, released before Python clears its modules)
        #: how many solves with this engine proved they have no model: where
        #: one did, the answers ask whether the rule base has an answer set at
        #: all (mtgkb.questions.consistency.no_answer_set)
        self.unsatisfied = 0

    def __repr__(self) -> str:
        return f"Engine({self.options!r}, {self.location.root})"

    def rule_base(self) -> LoadedRuleBase:
        """The rule base as read from disk: read again when a file of it changed
        (looked at most once a RECHECK_SECONDS)."""
        now = time.monotonic()
        if self._base is not None and now - self._checked < self.RECHECK_SECONDS:
            return self._base
        files = self.location.solved_files()
        queries = sorted(self.location.folder("queries").glob("*.lp"))
        stamped = stamp(files + queries)
        if self._base is None or self._base.stamp != stamped:
            self._base = LoadedRuleBase(
                stamped,
                files,
                queries,
                self.location.folder("queries"),
                self.options.cache_dir,
                self.options.slice_memo,
            )
        self._checked = now
        return self._base

    def prepare(self) -> Engine:
        """Read and analyse the rule base now (say, before forking workers
        that inherit it); the engine itself."""
        self.rule_base().analysis()
        return self

    def warmth(self) -> int:
        """How much the engine keeps for answering chunks: its scenario
        programs and the statements rewritten in them. It grows as chunks
        need more, up to the rule base's size; a worker's growth while it
        grows is warm-up, not a leak (mtgkb.running.pool)."""
        return sum(
            1 + getattr(program, "rewritten", 0) for program in self.scenario_programs.values()
        )

    def query_file(self, name: str) -> Path:
        """The program that asks one kind of question."""
        return self.location.folder("queries") / f"{name}.lp"

    def describe(self) -> dict:
        """What answers say of the rule base they used: worked out again (its
        files listed and stamped, its digest) at most once a RECHECK_SECONDS,
        as `rule_base` reads them again (a server answers many a second)."""
        now = time.monotonic()
        if self._described is None or now - self._described[0] >= self.RECHECK_SECONDS:
            self._described = (now, self.location.describe())
        return dict(self._described[1])

    def release_trees(self) -> None:
        """Drop the scenario programs' statements, clingo syntax trees, while
        clingo can still free them (mtgkb.engine.programs.release_trees_at_exit)."""
        self.scenario_programs.clear()
