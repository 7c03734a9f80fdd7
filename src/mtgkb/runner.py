"""Answer a scenario file: parse, build facts, solve each question, collect
the answers and the exit status of the spec (section 6)."""

from __future__ import annotations

from dataclasses import dataclass

from .answers import Limits, answer
from .deadline import DeadlineExceeded, call_with_deadline
from .errors import ScenarioError
from .facts import scenario_facts
from .parser import parse_text
from .solve import SolveTimeout

EXIT_OK, EXIT_ILLEGAL, EXIT_INPUT, EXIT_TIMEOUT = 0, 1, 2, 3


@dataclass
class FileResult:
    """The answers to one file, its exit status, and the error message if any."""

    name: str
    status: int
    output: dict
    error: str | None = None
    exception: Exception | None = None


def _answers(scenario, limits: Limits) -> list[dict]:
    facts = scenario_facts(scenario)
    return [answer(question, scenario, facts, limits) for question in scenario.questions]


NO_LIMITS = Limits()


def answer_text(text: str | bytes, name: str = "<stdin>", limits: Limits = NO_LIMITS) -> FileResult:
    """Every answer of one scenario text, with the exit status it earns.

    With a time-out the solving runs in a child process that is killed when
    the time is up, so a grounding blow-up cannot hang the caller.
    """
    try:
        scenario = parse_text(text, name)
    except ScenarioError as err:
        output = {"file": name, "error": err.format()}
        return FileResult(name, EXIT_INPUT, output, err.format(), err)
    try:
        if limits.timeout is None:
            answers = _answers(scenario, limits)
        else:
            answers = call_with_deadline(lambda: _answers(scenario, limits), limits.timeout)
    except (SolveTimeout, DeadlineExceeded):
        message = f"{name}: error: the time-out of {limits.timeout:g} s stopped the work"
        output = {"file": name, "error": "timeout"}
        return FileResult(name, EXIT_TIMEOUT, output, message, SolveTimeout(message))
    illegal = any(a.get("ask") == "legal" and a.get("legal") is False for a in answers)
    status = EXIT_ILLEGAL if illegal else EXIT_OK
    return FileResult(name, status, {"file": name, "answers": answers})


def run(text: str | bytes, name: str = "<string>", **limits) -> dict:
    """The Python API: the spec's JSON object for one scenario text.

    Bad input raises `ScenarioError`; a time-out raises `SolveTimeout`.
    """
    bounds = Limits(**limits)
    result = answer_text(text, name, bounds)
    if result.exception is not None:
        raise result.exception
    return result.output
