"""When a query's statements may be grounded on top of another query's
grounding (mtgkb.engine.analysis.Analysis.stacked): the decision read from
the statements' descriptions alone, on small programs that know no game
rule. The splitting set theorem is what it checks: what is added derives
atoms of its own, and what lies below and is not the upper query's program
derives nothing that program reads or derives."""

from __future__ import annotations

from mtgkb.engine.analysis import Analysis, analyse

BASE = """\
p(X) :- f(X).
q(X) :- p(X).
g(X) :- f(X), not q(X).
"""

LISTING = """\
a(X) :- p(X).
{ pick(X) : a(X) }.
#show pick/1.
"""

COUNTING = """\
a(X) :- p(X).
form(X) :- a(X).
#show form/1.
"""


def _analysis(queries: dict[str, str], base: str = BASE) -> Analysis:
    data = {
        "key": "-",
        "base": analyse(base),
        "queries": {name: analyse(text) for name, text in queries.items()},
        "guardable": dict.fromkeys(queries, True),
        "definitions": {name: {} for name in queries},
    }
    return Analysis(data, base.encode("utf-8"))


def _stacked(
    counting: str = COUNTING,
    listing: str = LISTING,
    lower_kept: list[int] | None = None,
    upper_kept: list[int] | None = None,
    given: tuple[str, ...] = ("f",),
) -> list[str] | None:
    analysis = _analysis({"listing": listing, "counting": counting})
    return analysis.stacked(
        ("listing", listing, lower_kept), ("counting", counting, upper_kept), given
    )


def test_the_counting_statements_not_shared_go_on_top():
    """`a/1` is defined alike by both queries: grounded once, below. What the
    counting query adds derives `form/1`, which nothing below reads."""
    assert _stacked() == ["form(X) :- a(X).", "#show form/1."]


def test_a_constraint_on_the_added_atoms_may_go_on_top():
    counting = COUNTING + ":- form(X), X > 3.\n"
    assert _stacked(counting) == ["form(X) :- a(X).", "#show form/1.", ":- form(X), X > 3."]


def test_a_statement_the_counting_query_keeps_must_be_below():
    """The counting query keeps statement 2 (`q/1`) of the rule base, the
    listing's grounding only 0 (clingo's `#program base.`) and 1 (`p/1`):
    `q/1` would be missing."""
    assert _stacked(lower_kept=[0, 1], upper_kept=[0, 1, 2]) is None
    assert _stacked(lower_kept=[0, 1, 2], upper_kept=[0, 1, 2]) is not None


def test_what_is_added_derives_nothing_below_derives_reads_or_is_given():
    # `pick/1` is the listing's choice
    assert _stacked(COUNTING + "pick(X) :- a(X).\n") is None
    # `q/1` is derived by the rule base below
    assert _stacked(COUNTING + "q(X) :- a(X).\n") is None
    # `f/1` is given (facts): clingo would not take a second definition
    assert _stacked(COUNTING + "f(X) :- a(X).\n") is None
    # `h/1` is read below (undefined there, so false once grounded)
    listing = LISTING + "b(X) :- a(X), h(X).\n"
    assert _stacked(COUNTING + "h(X) :- a(X).\n", listing) is None


def test_what_lies_below_changes_nothing_the_counting_query_reads():
    """The listing's own `b/1`, read by the counting query, which does not
    define it: alone, `b/1` would be false; on top, it follows the choice."""
    listing = LISTING + "b(X) :- pick(X).\n"
    assert _stacked(COUNTING + "form2(X) :- b(X).\n#show form2/1.\n", listing) is None
    # a rule base statement below that the counting query does not keep,
    # deriving what it reads
    assert _stacked(lower_kept=[0, 1, 2, 3], upper_kept=[0, 1]) is not None  # (q/1, g/1: unread)
    counting = COUNTING + "form3(X) :- g(X).\n#show form3/1.\n"
    assert _stacked(counting, lower_kept=[0, 1, 2, 3], upper_kept=[0, 1]) is None


def test_no_term_shown_below_may_look_like_a_counted_form():
    listing = LISTING + "#show form(X) : pick(X).\n"
    assert _stacked(listing=listing) is None
    listing = LISTING + "#show other(X) : pick(X).\n"
    assert _stacked(listing=listing) is not None
    listing = LISTING + "#show X : pick(X).\n"  # any term at all
    assert _stacked(listing=listing) is None


def test_only_rules_constraints_and_shown_signatures_are_added():
    assert _stacked(COUNTING + "{ extra(X) : a(X) }.\n") is None
    assert _stacked(COUNTING + "#minimize { 1,X : form(X) }.\n") is None
    assert _stacked(COUNTING + "#show t(X) : form(X).\n") is None
    assert _stacked(COUNTING + "extra(X) | other(X) :- a(X).\n") is None
