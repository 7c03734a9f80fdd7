"""The derivations an explanation follows (`_why(K, Atom, t(Body...))`, the
traced program's record of which rule derived an atom from which body:
mtgkb.questions.explain.trace) are read from clingo only for the atoms the
explanation asks about, and read so they are the same as read all at once:
the ones of an atom, several sorted by rule then body, none for an atom
derived by no rule. Here 119.3's life totals and 702.111b's menace fault."""

from __future__ import annotations

import clingo

from mtgkb.questions.explain.graph import Derivations


def _atom(text: str) -> clingo.Symbol:
    return clingo.parse_term(text)


WHYS = [
    '_why(80040,because(life("P0",30),rule("119.3")),t(life("P0",30),life_holder("P0","P0")))',
    '_why(80040,life("P0",30),t(starting_life("P0",20),gain("P0",10)))',
    '_why(70012,life("P0",30),t(starting_life("P0",20),gained("P0",(1,(2,(3,(4,10)))))))',
    '_why(170036,violation(rule("702.111b"),menace_single_blocker("P0 20","P6 16")),'
    't(bad_block("702.111b",menace_single_blocker("P0 20","P6 16"))))',
]


def _all_at_once(whys: list[clingo.Symbol]) -> dict:
    read: dict = {}
    for atom in whys:
        k, head, body = atom.arguments
        read.setdefault(head, []).append((k.number, tuple(body.arguments)))
    for found in read.values():
        found.sort(key=lambda d: (d[0], [str(a) for a in d[1]]))
    return read


def test_119_3_each_atom_has_its_derivations_sorted_by_rule_then_body():
    whys = [_atom(t) for t in WHYS]
    expected = _all_at_once(whys)
    derivations = Derivations(whys)
    life = _atom('life("P0",30)')
    assert derivations.get(life) == expected[life]
    assert [k for k, _ in derivations.get(life)] == [70012, 80040]  # the lower rule first
    fault = _atom('violation(rule("702.111b"),menace_single_blocker("P0 20","P6 16"))')
    assert derivations.get(fault) == expected[fault]
    assert derivations.get(_atom('life("P1",20)')) is None  # derived by no rule
    assert derivations.get(_atom('life("P1",20)'), []) == []


def test_a_head_nested_deeper_than_the_pattern_reads_is_read_with_all_the_others():
    deep = _atom("_why(5,deep(a(b(c(d(e(f)))))),t(x))")
    whys = [_atom(t) for t in WHYS] + [deep]
    expected = _all_at_once(whys)
    derivations = Derivations(whys)
    for head in expected:
        assert derivations.get(head) == expected[head]


def test_a_models_atoms_are_found_by_their_handles_as_a_set_finds_them():
    # Graph.atoms (AtomSet): a symbol made again from its text is the one
    # clingo's model holds (clingo interns symbols), and no other is: here
    # 119.3's life total of 30 is held and one of 31 is not
    from mtgkb.questions.explain.graph import AtomSet

    held = [_atom(t) for t in ('life("P0",30)', 'starting_life("P0",20)', "gain")]
    atoms = AtomSet(held)
    assert _atom('life("P0",30)') in atoms and _atom("gain") in atoms
    assert _atom('life("P0",31)') not in atoms and _atom('life("P1",30)') not in atoms
    atoms.discard(_atom('life("P0",30)'))
    atoms.add(_atom('life("P0",31)'))
    assert _atom('life("P0",30)') not in atoms and _atom('life("P0",31)') in atoms
