"""A Control, with its whole ground program, is freed by reference counting
as soon as what holds it is dropped, not left to Python's cycle collector
(which the workers and `mtgkb run` hold off: mtgkb.rulebase.collector).
clingo keeps a Control's last solve's callbacks until its next solve or its
end: a callback that reached the Control made a cycle, and a worker held
one Control per chunk of eight requests until a collection
(mtgkb.engine.programs.solve_within gives clingo a relay emptied after the
solve)."""

from __future__ import annotations

import gc
import weakref
from contextlib import contextmanager

import clingo

from mtgkb.engine.programs import solve_within
from mtgkb.engine.state import Engine
from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text


class _Stop(Exception):
    pass


@contextmanager
def _collector_off():
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Holder:
    """What holds a Control and reads its models with a method of its own."""

    def __init__(self) -> None:
        self.ctl = clingo.Control(["0"])
        self.ctl.add("base", [], "{ a; b }.")
        self.ctl.ground([("base", [])])
        self.models: list = []

    def take(self, model: clingo.Model) -> None:
        self.models.append(sorted(str(s) for s in model.symbols(atoms=True)))


def test_a_holder_whose_method_read_the_models_is_freed_with_its_control():
    with _collector_off():
        holder = _Holder()
        solve_within(holder.ctl, None, _Stop, on_model=holder.take)
        assert sorted(holder.models) == [[], ["a"], ["a", "b"], ["b"]]
        control, held = weakref.ref(holder.ctl), weakref.ref(holder)
        del holder
        assert held() is None and control() is None


def test_a_holder_solved_with_a_time_limit_is_freed_with_its_control():
    with _collector_off():
        holder = _Holder()
        solve_within(holder.ctl, 60.0, _Stop, on_model=holder.take)
        assert len(holder.models) == 4
        control = weakref.ref(holder.ctl)
        del holder
        assert control() is None


BLOCKS = """players: Ann, Ben
active: Ann
Ann controls creature "Hill Giant" 3/3
Ann controls creature "Serra Angel" 4/4 with flying
Ben controls creature "Grizzly Bears" 2/2
"Hill Giant" attacks Ben
"Serra Angel" attacks Ben
ask blocks for Ben
ask legal
"""


def test_509_1a_answering_a_listing_leaves_no_control_for_the_collector():
    engine = Engine()
    answer_text(BLOCKS, "warm.mtg", Limits(), engine=engine)
    with _collector_off():
        result = answer_text(BLOCKS, "blocks.mtg", Limits(), engine=engine)
        left = [o for o in gc.get_objects() if isinstance(o, clingo.Control)]
    blocks = result.output["answers"][0]
    # 509.1a: the Bears block the Giant or not at all (the Angel flies: 702.9b)
    assert (blocks["count"], blocks["complete"]) == (2, True)
    assert blocks["assignments"] == [{}, {"Grizzly Bears": "Hill Giant"}]
    assert "702.9b" in blocks["rules"]
    assert left == []
