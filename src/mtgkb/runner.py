"""Answer a scenario file: parse, build facts, solve each question, collect
the answers and the exit status of the spec (section 6)."""

from __future__ import annotations

from dataclasses import dataclass

from .answers import Limits, answer
from .deadline import DeadlineExceeded, WorkerLost, call_with_deadline
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


def _answers(scenario, limits: Limits, facts=None) -> list[dict]:
    if facts is None:
        facts = scenario_facts(scenario)
    return [answer(question, scenario, facts, limits) for question in scenario.questions]


NO_LIMITS = Limits()


def answer_text(text: str | bytes, name: str = "<stdin>", limits: Limits = NO_LIMITS) -> FileResult:
    """Every answer of one scenario text, with the exit status it earns.

    With a time-out, parsing and solving run in a child process that is
    killed when the time is up (or when it outgrows its memory bound), so no
    input can hang the caller.
    """
    if limits.timeout is None:
        return answer_now(text, name, limits)
    try:
        return call_with_deadline(lambda: answer_now(text, name, limits), limits.timeout)
    except WorkerLost as lost:
        message = f"{name}: error: the work was stopped: {lost}"
    except (SolveTimeout, DeadlineExceeded):
        message = f"{name}: error: the time-out of {limits.timeout:g} s stopped the work"
    output = {"file": name, "error": "timeout"}
    return FileResult(name, EXIT_TIMEOUT, output, message, SolveTimeout(message))


def answer_now(text: str | bytes, name: str, limits: Limits) -> FileResult:
    """Parse and answer in this process, without a deadline."""
    scenario = parse_or_fail(text, name)
    if isinstance(scenario, FileResult):
        return scenario
    return answer_scenario(scenario, name, limits)


def parse_or_fail(text: str | bytes, name: str):
    """The parsed scenario, or the FileResult (exit 2) of its input error."""
    try:
        return parse_text(text, name)
    except ScenarioError as err:
        output = {"file": name, "error": err.format()}
        return FileResult(name, EXIT_INPUT, output, err.format(), _bare(err))


def _bare(err: Exception) -> Exception:
    """The exception without traceback and chained causes: it may travel back
    from a worker process, and a traceback (pickled where tblib is installed,
    as Dask does) holds frames that cannot be pickled."""
    err.__cause__ = err.__context__ = None
    return err.with_traceback(None)


def answer_scenario(scenario, name: str, limits: Limits, facts=None) -> FileResult:
    """The answers to a parsed scenario (and its facts, if already built) and
    the exit status they earn."""
    try:
        answers = _answers(scenario, limits, facts)
    except SolveTimeout as stopped:
        output = {"file": name, "error": "timeout"}
        return FileResult(name, EXIT_TIMEOUT, output, f"{name}: error: {stopped}", _bare(stopped))
    illegal = any(a.get("ask") == "legal" and a.get("legal") is False for a in answers)
    status = EXIT_ILLEGAL if illegal else EXIT_OK
    return FileResult(name, status, {"file": name, "answers": answers})


def run(text: str | bytes, name: str = "<string>", **limits) -> dict:
    """The Python API: the spec's JSON object for one scenario text.

    Bad input raises `ScenarioError`; a time-out raises `SolveTimeout`.
    The work is done in a worker process that is recycled when it has grown
    (mtgkb.pool), so a long-lived caller stays small.
    """
    from .pool import answer as answer_in_pool

    bounds = Limits(**limits)
    result = answer_in_pool(text, name, bounds)
    if result.exception is not None:
        raise result.exception
    return result.output
