"""Which twins of a seeded traced program can fire (mtgkb.questions.explain.trace).

A twin `_why(K,H,t(...)) :- explain_wanted(X), Body.` fires only for a
conclusion X wanted. Read from the texts of the program's rules, by the
names of terms only: the names a wanted conclusion can have are those
`explain_wanted/1` rules give (a term written in the head, or the terms
some positive body literal binds its variable to, read from the heads of
the rules of that literal's predicate), and the names of the body atoms of
the twins that may fire, to a fixpoint. A rule whose body asks
`explaining(Q)` of a question Q other than the one explained never fires.
A twin whose conclusion cannot have such a name has no ground instance:
leaving it out of the grounding changes no model, and saves clingo the
preparation of a rule (about half of a traced grounding's time is the
preparation of its rules). Whatever the texts do not settle keeps every
twin. Nothing here is a game rule: only the shape of the traced program."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache

from mtgkb.questions.explain.trace import WANTED, Traced, rule_parts, term_name
from mtgkb.rulebase.symbol_texts import masked, split_outside

#: A variable's text.
VARIABLE = re.compile(r"_*[A-Z][A-Za-z0-9_']*")
#: The names of function terms in a text (for a head that is no plain atom).
NAMES = re.compile(r"(?<![A-Za-z0-9_'])(_*[a-z][A-Za-z0-9_']*)\(")
#: How the text of a term that can name no conclusion begins: a string, a number.
NO_NAME_START = tuple('"-0123456789')


class _Unsettled(Exception):
    """The texts do not settle which twins may fire."""


def _rule(text: str) -> tuple[str, list[str]]:
    """(head, body literals) of a rule's text `Head :- L1; ...; Ln.` or `Head.`."""
    found = rule_parts(text)
    if found is None:
        raise _Unsettled()
    return found


def _name(term: str) -> str | None:
    """The name of a function term's text `name` or `name(...)`, else None (a
    pool among its arguments is one argument)."""
    return term_name(term, pools=True)


def _arguments(term: str) -> list[str]:
    """The arguments' texts of a function term's text `name(A1,...,An)` ([] for `name`)."""
    name = _name(term)
    if name is None:
        raise _Unsettled()
    inside = term[len(name) + 1 : -1]
    return split_outside(inside, ",") if inside else []


def _positive_atom(literal: str) -> str | None:
    """The name of a body literal that is a positive atom (a function term)."""
    if literal.startswith(("not ", "#")):
        return None
    return _name(literal)


class _Program:
    """What the rules' texts say of names: the rules of each head's name
    (read whole only when asked), the twins that may fire."""

    def __init__(self, program: Traced, questions: Collection[str] | None):
        self.questions = questions
        self.by_head: dict[str, list[str]] = {}  # head name -> the rules' texts
        self.unread: set[str] = set()  # names some head derives that is no plain atom
        self.twins: dict[int, tuple[str | None, tuple]] = {}  # live: (wanted name, body names)
        self.dead: set[int] = set()  # twins that never fire
        readings = program.twin_readings
        for i, text in enumerate(program.texts):
            if text is None:
                continue
            if i in program.twins:
                guard, names, asked = readings.get(i) or _twin_reading(text)
                if self._live(asked):
                    self.twins[i] = (guard, names)
                else:
                    self.dead.add(i)
                continue
            name, unread = _head(text)
            if unread:
                self.unread.update(unread)
            elif name is not None:
                self.by_head.setdefault(name, []).append(text)

    def _live(self, asked: Sequence[str | None]) -> bool:
        """False when some question asked of is not one explained."""
        if self.questions is None:
            return True
        return all(name is None or name in self.questions for name in asked)

    def rules(self, name: str) -> list[tuple[list[str], list[str]]]:
        """(head arguments, body) of each rule of the head `name` that may fire."""
        out = []
        for text in self.by_head.get(name, ()):
            head, body = _rule(text)
            if self._live(_asked(body)):
                out.append((_arguments(head), body))
        return out


@lru_cache(maxsize=8192)
def _head(text: str) -> tuple[str | None, tuple[str, ...]]:
    """(the name of a rule's head, None for a constraint; the names a head
    that is no plain atom may derive). (Kept: the traced programs of a
    file's questions share most of their rules.)"""
    # (the first ` :- ` outside strings)
    end = masked(text).find(" :- ") if '"' in text else text.find(" :- ")
    head = text[:end] if end >= 0 else text[:-1]
    if head.startswith("#false") or not head:
        return None, ()  # a constraint
    name = _name(head)
    if name is not None:
        return name, ()
    if WANTED in head:
        raise _Unsettled()
    unread = NAMES.findall(head) + re.findall(r"^\{?\s*(_*[a-z][A-Za-z0-9_']*)", head)
    return None, (*unread, "")


def _asked(body: Sequence[str]) -> list[str | None]:
    """The names of the questions a body asks `explaining/1` of."""
    out = []
    for literal in body:
        if _positive_atom(literal) == "explaining":
            args = _arguments(literal)
            out.append(_name(args[0]) if len(args) == 1 else None)
    return out


def _twin_reading(text: str) -> tuple:
    """`trace.twin_reading` of a twin's text `_why(K,H,t(...)) :- explain_wanted(X); Body.`"""
    head, body = _rule(text)
    args = _arguments(head)
    if len(args) != 3 or not body or _positive_atom(body[0]) != WANTED:
        raise _Unsettled()
    (guard,) = _arguments(body[0])
    names = []
    for term in _arguments(args[2]):
        name = _name(term)
        if name is None:
            raise _Unsettled()
        names.append(name)
    return _name(guard), tuple(names), tuple(_asked(body[1:]))


def _binding(variable: str, body: list[str]) -> tuple[str, int]:
    """A positive body literal that binds `variable` as one of its arguments:
    its name and the argument's place."""
    for literal in body:
        name = _positive_atom(literal)
        if name is None:
            continue
        for j, arg in enumerate(_arguments(literal)):
            if arg == variable:
                return name, j
    raise _Unsettled()


def _term_names(term: str, body: list[str], program: _Program, asked: set) -> None:
    """Record in `asked` the (name, place) whose values the term can take;
    raises _Unsettled. A named term is recorded as (name, None)."""
    if VARIABLE.fullmatch(term):
        asked.add(_binding(term, body))
        return
    if term.startswith(NO_NAME_START):
        return  # a string or a number: no conclusion with a twin
    name = _name(term)
    if name is None:
        raise _Unsettled()
    asked.add((name, None))


def _names(program: _Program, sources: set) -> set[str]:
    """The names the terms of `sources` ((name, None): that name; (p, j):
    the j-th arguments of the heads of p) can have."""
    names: set[str] = set()
    done: set = set()
    todo = list(sources)
    while todo:
        source = todo.pop()
        if source in done:
            continue
        done.add(source)
        name, place = source
        if place is None:
            names.add(name)
            continue
        if name in program.unread or name not in program.by_head or name == WANTED:
            raise _Unsettled()  # (an input fact, or derived where the texts don't say)
        for args, body in program.rules(name):
            if place >= len(args):
                continue
            found: set = set()
            _term_names(args[place], body, program, found)
            todo += found
    return names


def idle_twins(
    program: Traced, questions: Collection[str] | None, facts: Collection[str]
) -> set[int]:
    """The places in `program.statements` of the twins that cannot fire when
    the questions explained (`explaining/1`) have these names (None: any)
    and the facts given these names (a conclusion's name read from a fact
    is not followed: every twin is kept)."""
    if not program.twins:
        return set()
    try:
        read = _Program(program, questions)
        read.unread.update(facts)
        sources: set = set()
        for (arg, *more), body in read.rules(WANTED):
            if more:
                raise _Unsettled()
            if VARIABLE.fullmatch(arg):
                name, j = _binding(arg, body)
                if name in ("_why", WANTED):
                    continue  # the atoms of the derivations traced (below); itself
                sources.add((name, j))
            else:
                _term_names(arg, body, read, sources)
        wanted = _names(read, sources)
        while True:
            more = set()
            for guard, names in read.twins.values():
                if guard is None or guard in wanted:
                    more.update(n for n in names if n not in wanted)
            if not more:
                break
            wanted |= more
    except (_Unsettled, ValueError):
        return set()
    idle = set(read.dead)
    idle.update(
        i for i, (guard, _) in read.twins.items() if guard is not None and guard not in wanted
    )
    return idle
