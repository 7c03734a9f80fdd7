"""`@record`: a dataclass whose methods are written once, here.

@dataclass writes `__init__`, `__repr__`, `__eq__`, `__hash__` and, frozen,
`__setattr__` and `__delattr__` as source text for each class and compiles
it, on every start of the program: a millisecond or more a class, about
20 ms of a run of one file for the classes a run imports. A record is a
dataclass (`dataclasses.fields`, `replace`, `asdict` and `__match_args__` as
for any) whose methods are these functions, which read each class's fields
once:

- made from the fields' values by position or name, each one left out its
  default (a fresh one from its `default_factory`), then `__post_init__`;
  the same TypeError as a dataclass's for a wrong call;
- shown as `Class(field=value, ...)` (the fields with `repr`);
- equal when of the same class and equal in every field that `compare`s
  (`eq=False`: equal only to itself);
- `frozen=True`: a field cannot be set or deleted (FrozenInstanceError) and
  the record hashes as the tuple of its compared fields; not frozen (and
  comparing), it is not hashable.

This module imports nothing of mtgkb: any module may use it.
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from functools import cache
from inspect import formatannotation
from reprlib import recursive_repr
from typing import Any


def record(cls: type | None = None, /, *, frozen: bool = False, eq: bool = True):
    """Make `cls` a record (used as @record or @record(frozen=..., eq=...))."""

    def wrap(cls: type) -> type:
        undocumented = cls.__doc__ is None
        if undocumented:
            cls.__doc__ = "-"  # (else @dataclass asks inspect for a signature: slow)
        cls = dataclass(init=False, repr=False, eq=False)(cls)
        if undocumented:
            cls.__doc__ = _signature(cls)
        methods: dict[str, Any] = {"__init__": _init_frozen if frozen else _init}
        methods["__repr__"] = _repr
        if eq:
            methods["__eq__"] = _eq
            methods["__hash__"] = _hash if frozen else None
        if frozen:
            methods["__setattr__"] = _refuse_set
            methods["__delattr__"] = _refuse_delete
        for name, method in methods.items():
            if name not in cls.__dict__ or name == "__hash__" and cls.__dict__[name] is None:
                setattr(cls, name, method)
        return cls

    return wrap if cls is None else wrap(cls)


def _signature(cls: type) -> str:
    """What @dataclass writes as the docstring of a class without one: its
    name and the parameters of its `__init__`."""
    shown = []
    for f in fields(cls):
        text = f"{f.name}: {formatannotation(f.type)}"
        if f.default_factory is not MISSING:
            text += " = <factory>"
        elif f.default is not MISSING:
            text += f" = {f.default!r}"
        shown.append(text)
    return f"{cls.__name__}({', '.join(shown)})"


@cache
def _made(cls: type) -> tuple[tuple[str, Any, Any], ...]:
    """(name, default, default factory) of each field, in order."""
    return tuple((f.name, f.default, f.default_factory) for f in fields(cls))


@cache
def _compared(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.compare)


@cache
def _hashed(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if (f.compare if f.hash is None else f.hash))


@cache
def _shown(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.repr)


def _values(self, args: tuple, given: dict) -> list[tuple[str, Any]]:
    """(name, value) of each field for a call with `args` and `given`."""
    made = _made(self.__class__)
    name_of = self.__class__.__qualname__
    if len(args) > len(made):
        raise TypeError(
            f"{name_of}.__init__() takes {len(made) + 1} positional arguments"
            f" but {len(args) + 1} were given"
        )
    out = []
    for i, (name, default, factory) in enumerate(made):
        if i < len(args):
            if name in given:
                raise TypeError(f"{name_of}.__init__() got multiple values for argument {name!r}")
            value = args[i]
        else:
            value = given.pop(name, MISSING)
            if value is MISSING:
                value = default if factory is MISSING else factory()
                if value is MISSING:
                    raise TypeError(
                        f"{name_of}.__init__() missing 1 required positional argument: {name!r}"
                    )
        out.append((name, value))
    if given:
        raise TypeError(
            f"{name_of}.__init__() got an unexpected keyword argument {next(iter(given))!r}"
        )
    return out


@cache
def _by_name(cls: type, frozen: bool) -> tuple[dict, tuple, frozenset, frozenset] | None:
    """For a call by keywords alone: every field's default in field order
    (MISSING for one made by its factory or required), the (name, factory)
    of those made by a factory, the fields' names and the names of those
    without a default (required); None when setting a field is more than
    writing it into the instance's `__dict__` (a class with its own
    `__setattr__`, not frozen, a descriptor named as a field, slots).
    (A parse makes a record of each object and ability of the file, mostly
    by keywords: GameObject 12.9 -> 5.1 us each.)"""
    made = _made(cls)
    if not cls.__dictoffset__ or not frozen and cls.__setattr__ is not object.__setattr__:
        return None
    for name, _, _ in made:
        found = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
        if found is not None and hasattr(type(found), "__set__"):
            return None
    defaults = {name: default if factory is MISSING else MISSING for name, default, factory in made}
    factories = tuple((name, factory) for name, _, factory in made if factory is not MISSING)
    required = frozenset(n for n, d, f in made if d is MISSING and f is MISSING)
    return defaults, factories, frozenset(defaults), required


def _set(self, args: tuple, given: dict, frozen: bool) -> None:
    """Each field's value set, as `_values` finds them: for a call by
    keywords alone into the `__dict__` at once (in field order), when that
    is all setting them does (`_by_name`)."""
    plan = None if args else _by_name(self.__class__, frozen)
    if plan is not None and plan[3] <= given.keys() <= plan[2]:
        defaults, factories, _, _ = plan
        values = dict(defaults)  # (update keeps the fields' order)
        values.update(given)
        for name, factory in factories:
            if name not in given:
                values[name] = factory()
        self.__dict__.update(values)
        return
    put = object.__setattr__ if frozen else setattr
    for name, value in _values(self, args, given):
        put(self, name, value)


def _init(self, *args: Any, **given: Any) -> None:
    _set(self, args, given, False)
    if hasattr(self, "__post_init__"):
        self.__post_init__()


def _init_frozen(self, *args: Any, **given: Any) -> None:
    _set(self, args, given, True)
    if hasattr(self, "__post_init__"):
        self.__post_init__()


@recursive_repr()
def _repr(self) -> str:
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in _shown(self.__class__))
    return f"{self.__class__.__qualname__}({shown})"


def _eq(self, other: object) -> bool:
    if other.__class__ is self.__class__:
        names = _compared(self.__class__)
        return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)
    return NotImplemented


def _hash(self) -> int:
    return hash(tuple(getattr(self, n) for n in _hashed(self.__class__)))


def _refuse_set(self, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_delete(self, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")
