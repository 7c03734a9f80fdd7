"""The readable form of the answers: one tree per file, for a person at a terminal."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from mtgkb.rulebase import registry
from mtgkb.rulebase import words as _words


class _Labels:
    """The labels of kb/texts.lp in the language being printed: `t(key, *args)`
    is one, filled in. Made by `print_result` and passed down."""

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def __call__(self, key: str, *args) -> str:
        return _words.text("label", key, self.lang).format(*args)


def _rules_line(answer: dict, _t: _Labels) -> Text | None:
    rules = answer.get("rules")
    if not rules:
        return None
    return Text(_t("rules", ", ".join(rules)), style="dim")


def _sequence(items: list) -> str:
    return " → ".join(str(x) for x in items)


def _assignments(node: Tree, answer: dict, verb: str, _t: _Labels) -> None:
    count = answer["count"]
    exact = "" if answer["complete"] else _t("at_least")
    node.label = Text.assemble(node.label, _t("declarations", count) + exact)
    for i, assignment in enumerate(answer["assignments"], start=1):
        if not assignment:
            node.add(Text(_t("no_attack" if verb == "attack" else "no_blocks", i)))
        else:
            pairs = "; ".join(
                f"{a} → {b if isinstance(b, str) else ', '.join(b)}"
                for a, b in sorted(assignment.items())
            )
            node.add(Text(f"{i}. {pairs}"))
    _left_out(node, answer, len(answer["assignments"]), _t)


def _legal(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    if answer["legal"]:
        node.label = Text.assemble(title, ": ", Text(_t("legal"), style="green"))
    else:
        node.label = Text.assemble(title, ": ", Text(_t("illegal"), style="red"))
        for v in answer["violations"]:
            node.add(Text(f"{v['rule']}: {v['message']}"))


def _defending(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    node.label = Text.assemble(title, ": " + (", ".join(answer["players"]) or _t("none")))


def _attack_targets(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    targets = ", ".join(answer["targets"]) or _t("nothing")
    node.label = Text.assemble(title, _t("targets_for", answer["creature"], targets))


def _attacks(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    _assignments(node, answer, "attack", _t)


def _blocks(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    if answer.get("defender"):
        node.label = Text.assemble(title, _t("for", answer["defender"]))
    if answer.get("teammates"):
        # 805.10d: the parts listed are the defender's share of the team's block
        node.add(Text(_t("team_part", answer["defender"], ", ".join(answer["teammates"]))))
    _assignments(node, answer, "blocks", _t)


def _orders(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    if answer["orders"] == [[]]:
        node.label = Text.assemble(title, _t("nothing_pending"))
        return
    listed = len(answer["orders"])
    node.label = Text.assemble(title, _t("orders", listed))
    for order in answer["orders"]:
        node.add(Text(_sequence(order)))
    for player, seqs in answer.get("choice_orders", {}).items():
        node.add(Text(_t("chooses", player, _t("or").join(_sequence(s) for s in seqs))))
    for player, by in answer.get("made_by", {}).items():
        node.add(Text(_t("makes_choices", by, player)))
    # (an order of the players counts once for each order of their several choices)
    in_all = "orders_in_all" if answer["ask"] == "order" else None
    _left_out(node, answer, listed, _t, in_all)


def _left_out(
    node: Tree, answer: dict, listed: int, _t: _Labels, in_all: str | None = None
) -> None:
    """Where --max-models or a limit cut a listing: how many it leaves out
    (or, with the label `in_all`, how many there are in all), and why the
    count is a lower bound where the answer says so."""
    count = answer.get("count", listed)
    if count > listed:
        more = _t(in_all, count) if in_all else _t("more", count - listed)
        node.add(Text(more, style="dim"))
    if "reason" in answer:
        node.add(Text(answer["reason"], style="dim"))


def _knowledge(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    for player, known in answer["known"].items():
        node.add(Text(_t("knows", player, ", ".join(known) or _t("nobody"))))


def _outcome(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    for player, life in answer["life"].items():
        node.add(Text(_t("life", player, life)))
    for team, life in answer.get("team_life", {}).items():
        node.add(Text(_t("team_life", team, life)))
    node.add(Text(_t("lost", ", ".join(answer["lost"]) or _t("nobody"))))
    for source, n in answer.get("triggers", {}).items():
        node.add(Text(_t("triggered", source, n)))
    for player, n in answer.get("poison", {}).items():
        node.add(Text(_t("poison", player, n)))
    for team, n in answer.get("team_poison", {}).items():
        node.add(Text(_t("team_poison", team, n)))
    for player, sources in answer.get("commander_damage", {}).items():
        for source, n in sources.items():
            node.add(Text(_t("commander_damage", player, n, source)))
    if answer.get("illegal_play"):
        broken = ", ".join(sorted({v["rule"] for v in answer.get("violations", [])}))
        node.add(Text(_t("illegal_play", broken), style="bold yellow"))
    if "destroyed" in answer:
        node.add(Text(_t("destroyed_list", ", ".join(answer["destroyed"]) or _t("nothing"))))


def _actions(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    may = ", ".join(answer["may"]) or _t("nothing")
    node.label = Text.assemble(title, _t("actions", answer["player"], may))
    for player, by in answer.get("made_by", {}).items():
        node.add(Text(_t("makes_plays", by, player)))


def _damage_assignments(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    count = answer["count"]
    exact = "" if answer["complete"] else _t("at_least")
    node.label = Text.assemble(title, _t("assignments", answer["creature"], count) + exact)
    for i, assignment in enumerate(answer["assignments"], start=1):
        if not assignment:
            node.add(Text(_t("no_damage", i)))
        else:
            parts = ", ".join(_t("damage_to", n, r) for r, n in assignment.items())
            node.add(Text(_t("numbered", i, parts)))
    _left_out(node, answer, len(answer["assignments"]), _t)


def _pay(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    if answer["can"] is None:
        text = _t("pay_unknown", answer["player"], answer["amount"])
    else:
        verdict = "can_pay" if answer["can"] else "cannot_pay"
        text = _t(verdict, answer["player"], answer["amount"])
    node.label = Text.assemble(title, text)


def _can(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    verdict = Text(_t("can_yes" if answer["can"] else "can_no", answer["play"]))
    verdict.stylize("green" if answer["can"] else "red")
    node.label = Text.assemble(title, verdict)
    for v in answer["violations"]:
        node.add(Text(f"{v['rule']}: {v['message']}"))
    if answer["forbidden_by"]:
        node.add(Text(_t("forbidden_by", " + ".join(answer["forbidden_by"])), style="bold red"))


def _fix(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    if answer["legal"]:
        node.label = Text.assemble(title, _t("fix_legal"))
    elif answer["changes"] is None:
        node.label = Text.assemble(title, _t("fix_none"))
    else:
        key = "fix_changes" if answer.get("complete", True) else "fix_changes_more"
        node.label = Text.assemble(title, _t(key, len(answer["changes"]), answer["count"]))
        for choice in answer.get("choices", []):
            node.add(Text(_t("fix_choice", choice)))
        for change in answer["changes"]:
            if "change" in change:
                node.add(Text(_t("change", change["change"], change["to"])))
            else:
                kind = next(iter(change))
                node.add(Text(_t(kind, change[kind])))
    if answer.get("remaining"):
        left = node.add(Text(_t("remaining"), style="yellow"))
        for v in answer["remaining"]:
            left.add(Text(f"{v['rule']}: {v['message']}"))


def _explain(node: Tree, title: Text, answer: dict, _t: _Labels) -> None:
    if answer.get("question"):
        node.label = Text.assemble(title, _t("explain_of", answer["question"]))
    _explain_tree(node, answer.get("tree", []), _t)


# The readable form of each kind of answer, by the `text` key of its entry in
# the registry of questions (mtgkb.rulebase.registry).
TEXT_FORMS: dict[str, Callable[[Tree, Text, dict, _Labels], None]] = {
    "legal": _legal,
    "defending": _defending,
    "attack_targets": _attack_targets,
    "attacks": _attacks,
    "blocks": _blocks,
    "orders": _orders,
    "knowledge": _knowledge,
    "outcome": _outcome,
    "actions": _actions,
    "assignments": _damage_assignments,
    "pay": _pay,
    "can": _can,
    "fix": _fix,
    "explain": _explain,
}


def _answer_tree(answer: dict, _t: _Labels) -> Tree:
    ask = answer.get("ask", "?")
    title = Text(f"ask {ask.replace('-', ' ')}", style="bold")
    node = Tree(title)
    if answer.get("supported") is False:
        node.add(Text(answer.get("message", _t("not_supported")), style="yellow"))
        return node
    entry = registry.by_ask(ask)
    form = TEXT_FORMS.get(entry.text) if entry is not None else None
    unanswered = any(i.get("no_answer_set") for i in answer.get("inconsistent", []))
    if form is not None and not unanswered:
        form(node, title, answer, _t)
    for item in answer.get("inconsistent", []):
        if item.get("no_answer_set"):
            _no_answer_set(node, item, _t)
            continue
        values = ", ".join(str(v) for v in item["values"])
        warn = node.add(
            Text(_t("inconsistent", item["atom"], item["of"], values), style="bold red")
        )
        for d in item.get("derived_by", []):
            where = ", ".join(d.get("at", [])) or _t("place_not_found")
            rules = ", ".join(d["rules"]) or "-"
            warn.add(Text(_t("derived_at", d["value"], rules, where), style="red"))
    for number in answer.get("unmodelled", []):
        node.add(Text(_t("not_modelled", number, _paraphrase(number, _t.lang)), style="yellow"))
    rules = _rules_line(answer, _t)
    if rules is not None:
        node.add(rules)
    return node


def _paraphrase(number: str, lang: str) -> str:
    """The rule index's paraphrase of a CR rule in `lang` ("?" when it has none)."""
    from mtgkb.rulebase.index import load_index

    entry = load_index().entries.get(number)
    return (entry.text(lang) if entry is not None else "") or "?"


def _no_answer_set(node: Tree, item: dict, _t: _Labels) -> None:
    """A rule base with no answer set for the file: the statements behind it."""
    warn = node.add(Text(_t("no_answer_set"), style="bold red"))
    for statement in item.get("statements", []):
        rules = ", ".join(statement.get("rules", [])) or _t("no_tag")
        warn.add(Text(_t("statement_at", statement["at"], rules), style="red"))
    if item.get("statements_found") is False:
        warn.add(Text(_t("statements_not_found"), style="red"))


def _explain_tree(node: Tree, items: list, _t: _Labels, said: set | None = None) -> None:
    """Each conclusion with its rules; a rule's paraphrase the first time it appears."""
    said = set() if said is None else said
    for item in items:
        label = Text(item.get("conclusion", "?"))
        rules = [item["rule"], *item.get("also", [])] if item.get("rule") else []
        if rules:
            label.append(f"  [{', '.join(rules)}]", style="cyan")
        if item.get("id"):
            label = Text.assemble(Text(_t("node", item["id"]), style="bold"), label)
        if item.get("fact"):
            label.append(_t("fact"), style="dim")
        if item.get("folded"):
            label.append(_t("folded", item["folded"]), style="dim")
        if item.get("repeated"):
            label.append(_t("see", item.get("see", "?")), style="dim")
        if item.get("note"):
            label.append(f"  ({item['note']})", style="yellow")
        child = node.add(label)
        if item.get("says") and item["rule"] not in said:
            said.add(item["rule"])
            child.add(Text(f"{item['rule']}: {item['says']}", style="dim italic"))
        forbidden = item.get("forbidden_by")
        if forbidden:
            objects = ", ".join(forbidden.get("objects", []))
            text = _t("forbidden_by", " + ".join(forbidden["rules"]) or _t("rules_not_found"))
            if objects:
                text += _t("play_of", objects)
            if forbidden.get("minimal") is False:
                text += _t("not_minimal")
            child.add(Text(text, style="bold red"))
        _explain_tree(child, item.get("because", []), _t, said)
        if item.get("truncated"):
            child.add(Text(_t("cut"), style="dim"))


def print_result(console: Console, output: dict, lang: str = "en") -> None:
    """Print one file's answers as a tree, its labels in `lang`."""
    labels = _Labels(lang)
    root = Tree(Text(output.get("file", "?"), style="bold cyan"))
    for answer in output.get("answers", []):
        root.add(_answer_tree(answer, labels))
    console.print(root)
