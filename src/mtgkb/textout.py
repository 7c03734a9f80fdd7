"""The readable form of the answers: one tree per file, for a person at a terminal."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text
from rich.tree import Tree


def _rules_line(answer: dict) -> Text | None:
    rules = answer.get("rules")
    if not rules:
        return None
    return Text("rules: " + ", ".join(rules), style="dim")


def _sequence(items: list) -> str:
    return " → ".join(str(x) for x in items)


def _assignments(node: Tree, answer: dict, verb: str) -> None:
    count = answer["count"]
    exact = "" if answer["complete"] else " at least (stopped at the model cap)"
    node.label = Text.assemble(node.label, f": {count} legal declaration(s){exact}")
    for i, assignment in enumerate(answer["assignments"], start=1):
        if not assignment:
            node.add(Text(f"{i}. no {verb}"))
        else:
            pairs = "; ".join(f"{a} → {b}" for a, b in sorted(assignment.items()))
            node.add(Text(f"{i}. {pairs}"))
    if len(answer["assignments"]) < count:
        node.add(Text(f"… {count - len(answer['assignments'])} more not listed", style="dim"))


def _answer_tree(answer: dict) -> Tree:
    ask = answer.get("ask", "?")
    title = Text(f"ask {ask.replace('-', ' ')}", style="bold")
    node = Tree(title)
    if answer.get("supported") is False:
        node.add(Text(answer.get("message", "not supported yet"), style="yellow"))
        return node
    if ask == "legal":
        if answer["legal"]:
            node.label = Text.assemble(title, ": ", Text("legal", style="green"))
        else:
            node.label = Text.assemble(title, ": ", Text("illegal", style="red"))
            for v in answer["violations"]:
                node.add(Text(f"{v['rule']}: {v['message']}"))
    elif ask == "defending":
        node.label = Text.assemble(title, ": " + (", ".join(answer["players"]) or "none"))
    elif ask == "attack-targets":
        targets = ", ".join(answer["targets"]) or "nothing"
        node.label = Text.assemble(title, f" for {answer['creature']}: {targets}")
    elif ask == "attacks":
        _assignments(node, answer, "attack")
    elif ask == "blocks":
        if answer.get("defender"):
            node.label = Text.assemble(title, f" for {answer['defender']}")
        _assignments(node, answer, "blocks")
    elif ask in ("order", "stack", "block-order", "damage-order") and answer["orders"] == [[]]:
        node.label = Text.assemble(title, ": nothing is pending")
    elif ask in ("order", "stack", "block-order", "damage-order"):
        node.label = Text.assemble(title, f": {len(answer['orders'])} legal order(s)")
        for order in answer["orders"]:
            node.add(Text(_sequence(order)))
        for player, seqs in answer.get("choice_orders", {}).items():
            node.add(Text(f"{player} chooses " + " or ".join(_sequence(s) for s in seqs)))
        for player, by in answer.get("made_by", {}).items():
            node.add(Text(f"{by} makes {player}'s choices"))
    elif ask == "knowledge":
        for player, known in answer["known"].items():
            node.add(Text(f"{player} knows the choices of: {', '.join(known) or 'nobody'}"))
    elif ask == "outcome":
        for player, life in answer["life"].items():
            node.add(Text(f"{player}: {life} life"))
        for team, life in answer.get("team_life", {}).items():
            node.add(Text(f"team {team}: {life} life"))
        node.add(Text("lost: " + (", ".join(answer["lost"]) or "nobody")))
        for source, n in answer.get("triggers", {}).items():
            node.add(Text(f"{source} triggered {n} time(s)"))
        for player, n in answer.get("poison", {}).items():
            node.add(Text(f"{player}: {n} poison counter(s)"))
        for team, n in answer.get("team_poison", {}).items():
            node.add(Text(f"team {team}: {n} poison counter(s)"))
        for player, sources in answer.get("commander_damage", {}).items():
            for source, n in sources.items():
                node.add(Text(f"{player}: {n} combat damage from commander {source}"))
        if answer.get("illegal_play"):
            broken = ", ".join(sorted({v["rule"] for v in answer.get("violations", [])}))
            node.add(Text(f"warning: the declared play is illegal ({broken})", style="bold yellow"))
        if "destroyed" in answer:
            node.add(Text("destroyed: " + (", ".join(answer["destroyed"]) or "nothing")))
    elif ask == "actions":
        may = ", ".join(answer["may"]) or "nothing"
        node.label = Text.assemble(title, f" for {answer['player']}: {may}")
        for player, by in answer.get("made_by", {}).items():
            node.add(Text(f"{by} makes {player}'s plays"))
    elif ask == "assignments":
        count = answer["count"]
        exact = "" if answer["complete"] else " at least (stopped at the model cap)"
        node.label = Text.assemble(
            title, f" for {answer['creature']}: {count} legal assignment(s){exact}"
        )
        for i, assignment in enumerate(answer["assignments"], start=1):
            if not assignment:
                node.add(Text(f"{i}. no combat damage"))
            else:
                parts = ", ".join(f"{n} to {r}" for r, n in assignment.items())
                node.add(Text(f"{i}. {parts}"))
        if len(answer["assignments"]) < count:
            node.add(Text(f"… {count - len(answer['assignments'])} more not listed", style="dim"))
    elif ask == "pay":
        if answer["can"] is None:
            text = f": whether {answer['player']} can pay {answer['amount']} life: no answer"
        else:
            verdict = "can" if answer["can"] else "can't"
            text = f": {answer['player']} {verdict} pay {answer['amount']} life"
        node.label = Text.assemble(title, text)
    elif ask == "explain":
        _explain_tree(node, answer.get("tree", []))
    for item in answer.get("inconsistent", []):
        values = ", ".join(str(v) for v in item["values"])
        warn = node.add(
            Text(
                f"the rule base contradicts itself: {item['atom']} of {item['of']} "
                f"is {values} (exit 4)",
                style="bold red",
            )
        )
        for d in item.get("derived_by", []):
            where = ", ".join(d.get("at", [])) or "(place not found)"
            warn.add(Text(f"{d['value']}: {', '.join(d['rules']) or '-'} at {where}", style="red"))
    rules = _rules_line(answer)
    if rules is not None:
        node.add(rules)
    return node


def _explain_tree(node: Tree, items: list, said: set | None = None) -> None:
    """Each conclusion with its rules; a rule's paraphrase the first time it appears."""
    said = set() if said is None else said
    for item in items:
        label = Text(item.get("conclusion", "?"))
        rules = [item["rule"], *item.get("also", [])] if item.get("rule") else []
        if rules:
            label.append(f"  [{', '.join(rules)}]", style="cyan")
        if item.get("fact"):
            label.append("  (fact)", style="dim")
        if item.get("folded"):
            label.append(f"  ({item['folded']} unchanged step(s) left out)", style="dim")
        if item.get("repeated"):
            label.append("  (explained elsewhere in this tree)", style="dim")
        if item.get("note"):
            label.append(f"  ({item['note']})", style="yellow")
        child = node.add(label)
        if item.get("says") and item["rule"] not in said:
            said.add(item["rule"])
            child.add(Text(f"{item['rule']}: {item['says']}", style="dim italic"))
        forbidden = item.get("forbidden_by")
        if forbidden:
            objects = ", ".join(forbidden.get("objects", []))
            text = "forbidden by " + (" + ".join(forbidden["rules"]) or "(rules not found)")
            if objects:
                text += f" (the play of {objects})"
            if forbidden.get("minimal") is False:
                text += ", not shown minimal"
            child.add(Text(text, style="bold red"))
        _explain_tree(child, item.get("because", []), said)
        if item.get("truncated"):
            child.add(Text("… (cut: the tree is bounded)", style="dim"))


def print_result(console: Console, output: dict) -> None:
    """Print one file's answers as a tree."""
    root = Tree(Text(output.get("file", "?"), style="bold cyan"))
    for answer in output.get("answers", []):
        root.add(_answer_tree(answer))
    console.print(root)
