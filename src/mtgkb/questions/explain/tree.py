"""The tree of one answer: nodes within the bounds, breadth first, each
citing its rule and what the rule says."""

from __future__ import annotations

from collections.abc import Sequence

import clingo

from mtgkb.questions.explain.graph import Graph
from mtgkb.questions.explain.text import describe
from mtgkb.rulebase.index import load_index, lookup

#: Bounds of one explanation.
MAX_NODES = 200
MAX_DEPTH = 8


class Builder:
    """Nodes within the bounds; every rule cited is collected."""

    def __init__(
        self, max_nodes: int | None = None, max_depth: int | None = None, lang: str = "en"
    ):
        self.lang = lang
        self.max_nodes = MAX_NODES if max_nodes is None else max_nodes
        self.max_depth = MAX_DEPTH if max_depth is None else max_depth
        self.count = 0
        self.truncated = False
        self.rules: set[str] = set()
        self.ids = 0  # the numbers of the nodes that repeated conclusions point at
        self._says: dict[str, str | None] = {}

    def says(self, number: str) -> str | None:
        if number not in self._says:
            try:
                entry = lookup(number, self.lang, index=load_index()).entry
                self._says[number] = entry.text(self.lang)
            except (KeyError, FileNotFoundError):
                self._says[number] = None
        return self._says[number]

    def full(self) -> bool:
        if self.count >= self.max_nodes:
            self.truncated = True
            return True
        return False

    def node(self, g: Graph, sym: clingo.Symbol) -> dict:
        self.count += 1
        node: dict = {"conclusion": describe(sym, g.messages, self.lang), "atom": str(sym)}
        rule, also = g.rules_of(sym)
        if g.is_fact(sym):
            node["fact"] = True
        if rule is not None:
            node["rule"] = rule
            says = self.says(rule)
            if says:
                node["says"] = says
            self.rules.add(rule)
        if also:
            node["also"] = also
            self.rules.update(also)
        return node

    def repeat(self, child: dict, first: dict) -> None:
        """`child` is explained at `first`: numbered, so the text can point at it."""
        if "id" not in first:
            self.ids += 1
            first["id"] = self.ids
        child["repeated"] = True
        child["see"] = first["id"]

    def tree(self, g: Graph, roots: Sequence[clingo.Symbol]) -> list[dict]:
        """Breadth first, so that a cut keeps the top of every root. A
        conclusion met again is not expanded again: it points at the node
        (numbered `id`) that explains it, by `see`."""
        expanded: dict[clingo.Symbol, dict] = {}
        top: list[dict] = []
        queue: list[tuple[dict, clingo.Symbol, int]] = []
        for sym in roots:
            if self.full():
                break
            node = self.node(g, sym)
            top.append(node)
            if sym not in expanded:
                expanded[sym] = node
                queue.append((node, sym, 1))
            elif g.children(sym):
                self.repeat(node, expanded[sym])
        while queue:
            node, sym, depth = queue.pop(0)
            sym, steps = g.folded(sym)
            if steps:
                node["folded"] = steps  # unchanged steps left out
            kids = g.children(sym)
            if not kids:
                continue
            if depth >= self.max_depth:
                node["truncated"] = True
                self.truncated = True
                continue
            node["because"] = []
            for kid in kids:
                if self.full():
                    node["truncated"] = True
                    break
                child = self.node(g, kid)
                node["because"].append(child)
                if not g.children(kid):
                    continue
                if kid in expanded:
                    self.repeat(child, expanded[kid])
                    continue
                expanded[kid] = child
                queue.append((child, kid, depth + 1))
        return top
