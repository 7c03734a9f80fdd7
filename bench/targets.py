"""How a measured figure stands against its target: one wording for every part."""

from __future__ import annotations


def verdict(targets: dict[str, tuple[str, float]], name: str, value: float) -> str:
    """`target <= 5: met`, or by how many times the figure misses it
    (`targets[name]` is (`"<="` or `">="`, the bound))."""
    op, bound = targets[name]
    if (value <= bound) if op == "<=" else (value >= bound):
        return f"target {op} {bound:g}: met"
    factor = value / bound if op == "<=" else bound / value
    return f"target {op} {bound:g}: missed by {factor:.1f}x"
