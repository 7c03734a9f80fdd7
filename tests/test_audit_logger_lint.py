"""The audit's logger lint grounds the rule base once with every query, and a
query alone only where another query could hide an undefined atom
(mtgkb.audit.lint.masked_queries): its findings are those of one grounding
per query, as `mtgkb run` grounds the rule base with one query."""

from __future__ import annotations

import pytest
from helpers.rule_base_copies import copy_base

from mtgkb.audit.lint import logger_lint, masked_queries
from mtgkb.audit.sources import Base, scan

# each test grounds a copy of the rule base once per query: the slow tier (.ci/run)
pytestmark = pytest.mark.slow


def _findings(base: Base, scans=None) -> list[tuple]:
    return sorted((f["kind"], f.get("where", ""), f["message"]) for f in logger_lint(base, scans))


def test_102_1_an_atom_only_another_query_defines_is_still_undefined(tmp_path):
    """A rule read with every query (`rules/102_players.lp`) reads an atom that
    only queries/legal.lp defines: grounded with any other query, clingo finds
    it in no rule head; the grounding of all queries together would not."""
    root = copy_base(tmp_path)
    with (root / "rules" / "102_players.lp").open("a", encoding="utf-8") as f:
        f.write("\n% 102.1: planted\nplanted_probe :- legal_only_probe(1).\n")
    with (root / "queries" / "legal.lp").open("a", encoding="utf-8") as f:
        f.write("\n% 102.1: planted\nlegal_only_probe(1).\n")
    base = Base.at(root)
    scans = scan(base)
    masked = masked_queries(base, scans)
    assert root / "queries" / "legal.lp" not in masked
    assert root / "queries" / "outcome.lp" in masked
    found = _findings(base, scans)
    assert found == _findings(base)  # one grounding per query: the same findings
    assert (
        "undefined",
        "rules/102_players.lp:" + str(_line_of(root, "planted_probe")),
        "atom does not occur in any rule head: legal_only_probe(1)",
    ) in found


def test_102_2_a_typo_of_a_predicate_is_found_without_grounding_each_query(tmp_path):
    root = copy_base(tmp_path)
    path = root / "rules" / "102_players.lp"
    path.write_text(
        path.read_text(encoding="utf-8") + "\n% 102.2: planted\nplanted_probe :- oponent(_,_).\n",
        encoding="utf-8",
    )
    base = Base.at(root)
    scans = scan(base)
    assert masked_queries(base, scans) == []  # no query defines oponent/2
    found = _findings(base, scans)
    assert found == _findings(base)
    assert any(kind == "undefined" and "oponent" in text for kind, _, text in found)


def _line_of(root, text: str) -> int:
    lines = (root / "rules" / "102_players.lp").read_text(encoding="utf-8").splitlines()
    return next(k for k, line in enumerate(lines, 1) if text in line)
