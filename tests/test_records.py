"""`@record` (mtgkb.rulebase.records) behaves as the @dataclass it replaces:
the same class written both ways is made, shown, compared, hashed, frozen
and replaced alike, and fails alike on a wrong call."""

import copy
import dataclasses
from dataclasses import dataclass, field

import pytest

from mtgkb.rulebase.records import record


def both(frozen: bool, eq: bool = True):
    def body():
        class Point:
            """A point."""

            x: int
            y: int = 0
            tags: tuple = field(default_factory=tuple)
            note: str = field(default="", compare=False, repr=False)

            def __post_init__(self):
                if self.x < 0:
                    raise ValueError("x")

        Point.__annotations__ = {"x": "int", "y": "int", "tags": "tuple", "note": "str"}
        return Point

    return dataclass(frozen=frozen, eq=eq)(body()), record(frozen=frozen, eq=eq)(body())


def outcome(call, *args, **kwargs):
    try:
        return ("made", call(*args, **kwargs))
    except Exception as err:  # the same error, message aside
        return ("error", type(err))


CALLS = [
    ((1,), {}),
    ((1, 2), {}),
    ((1, 2, (3,)), {"note": "n"}),
    ((), {"x": 1, "tags": (2,)}),
    ((), {"x": 1}),
    ((), {"note": "n", "y": 2, "x": 3}),
    ((), {"y": 2}),
    ((1, 2, [3]), {}),
    ((), {}),
    ((1,), {"x": 2}),
    ((1,), {"z": 2}),
    ((1, 2, (), "", 5), {}),
    ((-1,), {}),
]


@pytest.mark.parametrize("frozen, eq", [(False, True), (True, True), (True, False)])
def test_a_record_is_the_dataclass_it_replaces(frozen, eq):
    plain, made = both(frozen, eq)
    for args, kwargs in CALLS:
        a, b = outcome(plain, *args, **kwargs), outcome(made, *args, **kwargs)
        assert a[0] == b[0], (args, kwargs)
        if a[0] == "error":
            assert a[1] is b[1]
            continue
        p, r = a[1], b[1]
        assert repr(p).split("(", 1)[1] == repr(r).split("(", 1)[1]
        assert dataclasses.asdict(p) == dataclasses.asdict(r)
        assert list(vars(p).items()) == list(vars(r).items())  # the fields set in order
        twin = made(*args, **kwargs)
        assert (r == twin) is (eq or r is twin)
        assert (r == made(r.x + 1)) is False
        hashed = outcome(hash, p), outcome(hash, r)
        assert hashed[0] == hashed[1] if eq else hashed[0][0] == hashed[1][0] == "made"
        with pytest.raises(dataclasses.FrozenInstanceError) if frozen else _nothing():
            r.y = 7
        assert dataclasses.replace(r, y=9).y == 9 and dataclasses.replace(r, y=9).x == r.x
        assert copy.copy(r).x == r.x and copy.deepcopy(r).tags == r.tags
    assert made.__match_args__ == plain.__match_args__ == ("x", "y", "tags", "note")
    assert [f.name for f in dataclasses.fields(made)] == ["x", "y", "tags", "note"]
    first, second = made(1, tags=[]), made(1, tags=[])
    assert first.tags is not second.tags
    if eq and not frozen:
        with pytest.raises(TypeError):
            hash(first)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_record_without_a_docstring_gets_the_one_a_dataclass_writes():
    def body():
        class Bare:
            x: int
            y: "list[int]" = field(default_factory=list)
            z: str = "a"

        return Bare

    assert (
        record(body()).__doc__
        == dataclass(body()).__doc__
        == ("Bare(x: int, y: 'list[int]' = <factory>, z: str = 'a')")
    )
