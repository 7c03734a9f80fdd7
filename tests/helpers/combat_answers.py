"""Scenario-level helpers for the tests of spec section 9 (combat damage in full)."""

from .answering import run


def answers(text: str) -> dict:
    """The answers of a scenario text, keyed by the JSON name of each question
    (a later question of the same kind wins)."""
    return {a["ask"]: a for a in run(text)["answers"]}


def outcome(text: str) -> dict:
    return answers(text + "combat damage\nask outcome\n")["outcome"]


def assignments(text: str, creature: str) -> dict:
    return answers(text + f'ask assignments for "{creature}"\n')["assignments"]


def legal(text: str) -> dict:
    return answers(text + "ask legal\n")["legal"]


def as_set(found: list[dict]) -> set:
    return {tuple(sorted(a.items())) for a in found}
