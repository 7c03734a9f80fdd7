"""Helpers for the tests of spec section 8: answer a scenario text end to end."""

from .answering import run


def answers(text: str) -> list[dict]:
    """Every answer of a scenario written as text."""
    return run(text)["answers"]


def ask(text: str, question: str) -> dict:
    """The answer to one question added at the end of the scenario."""
    return answers(text.rstrip("\n") + "\nask " + question + "\n")[-1]


def rules(answer: dict) -> set[str]:
    """Every rule an answer cites (its rules and its violations' rules)."""
    return set(answer.get("rules", [])) | {v["rule"] for v in answer.get("violations", [])}


def broken(answer: dict) -> set[str]:
    """The rules a legal answer says are broken."""
    return {v["rule"] for v in answer.get("violations", [])}


GIANTS = """game: two-headed-giant
players: Ann, Ben, Cat, Dan
team North: Ann, Ben
team South: Cat, Dan
active: Ann
"""
