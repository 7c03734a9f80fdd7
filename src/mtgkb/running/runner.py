"""Answer a scenario file: parse, build facts, solve each question, collect
the answers and the exit status of the spec (section 6)."""

from __future__ import annotations

from dataclasses import dataclass

from mtgkb.engine.solve import SolveTimeout
from mtgkb.language.errors import ScenarioError
from mtgkb.language.facts import scenario_facts
from mtgkb.language.parser import parse_text
from mtgkb.questions.answers import Limits, answer
from mtgkb.running.deadline import (
    DeadlineExceeded,
    WorkerLost,
    call_with_deadline,
    describe_memory,
    memory_limit,
    renew_memory_bound,
)

EXIT_OK, EXIT_ILLEGAL, EXIT_INPUT, EXIT_TIMEOUT, EXIT_INCONSISTENT = 0, 1, 2, 3, 4


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


def answer_text(
    text: str | bytes, name: str = "<stdin>", limits: Limits = NO_LIMITS, spent: float = 0.0
) -> FileResult:
    """Every answer of one scenario text, with the exit status it earns.

    With a time-out, parsing and solving run in a child process that is
    killed when the time is up (or when it outgrows its memory bound), so no
    input can hang the caller. `spent` is the part of the time-out already
    used (reading the input).
    """
    if limits.timeout is None:
        try:
            return answer_now(text, name, limits)
        except MemoryError:
            pass  # (leave the handler first: its traceback holds the grounding)
        release_session(limits)
        return out_of_memory(name, limits)
    try:
        left = max(limits.timeout - spent, 0.0)
        return call_with_deadline(lambda: answer_now(text, name, limits), left, limits.memory)
    except WorkerLost as lost:
        if lost.out_of_memory:
            return out_of_memory(name, limits)
        message = f"{name}: error: the work was stopped: {lost}"
    except (SolveTimeout, DeadlineExceeded):
        message = f"{name}: error: the time-out of {limits.timeout:g} s stopped the work"
    output = {"file": name, "error": "timeout"}
    return FileResult(name, EXIT_TIMEOUT, output, message, SolveTimeout(message))


def release_session(limits: Limits) -> None:
    """Drop the groundings of a file stopped half-way, so the next file has
    the memory bound to itself."""
    import gc

    from mtgkb.questions import answers

    answers._end_session()
    gc.collect()
    renew_memory_bound(memory_limit(limits.memory))


def out_of_memory(name: str, limits: Limits) -> FileResult:
    """The result (exit 3) of a file whose work reached the memory bound."""
    message = (
        f"{name}: error: the work reached the memory bound ({describe_memory(limits.memory)}) "
        "and was stopped; give more with --memory MB (0: no bound)"
    )
    output = {"file": name, "error": "memory"}
    return FileResult(name, EXIT_TIMEOUT, output, message, SolveTimeout(message))


def answer_now(text: str | bytes, name: str, limits: Limits) -> FileResult:
    """Parse and answer in this process, without a deadline."""
    scenario = parse_or_fail(text, name, limits.lang)
    if isinstance(scenario, FileResult):
        return scenario
    return answer_scenario(scenario, name, limits)


def parse_or_fail(text: str | bytes, name: str, lang: str = "en"):
    """The parsed scenario, or the FileResult (exit 2) of its input error."""
    try:
        return parse_text(text, name, lang)
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
    if any(a.get("inconsistent") for a in answers):
        status = EXIT_INCONSISTENT  # the rule base contradicts itself (spec, section 11)
    return FileResult(name, status, {"file": name, "answers": answers})
