"""Shared test helpers: the rule base solved on hand-written facts, and the
shared conformance folder (tests that need it skip when it is absent)."""

from pathlib import Path

import pytest

from mtgkb.solve import models_as_text

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"

needs_shared = pytest.mark.skipif(
    not CONFORMANCE.is_dir(), reason="../shared is not beside this checkout"
)


def models(query: str, facts: str, **options) -> list[set[str]]:
    """The shown atoms of every model of `queries/<query>.lp` on `facts`."""
    return models_as_text(query, facts, **options)


def only_model(query: str, facts: str) -> set[str]:
    """The shown atoms of the single model; fails if there is not exactly one."""
    found = models(query, facts)
    assert len(found) == 1, f"expected one model, got {len(found)}: {found}"
    return found[0]
