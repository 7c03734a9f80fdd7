"""Answer a scenario file: parse, build facts, solve each question, collect
the answers and the exit status of the spec (section 6).

Each function takes the `engine` (mtgkb.engine.state.Engine) to answer with;
without one, a fresh engine is made, which reads the rule base again: whoever
answers more than one file makes one engine and passes it. The questions of
one file share one session (mtgkb.engine.session.Session), made here per file
or given by a batch per chunk."""

from __future__ import annotations

from pathlib import Path

from mtgkb.engine.session import Session
from mtgkb.engine.solve import SolveTimeout
from mtgkb.engine.state import Engine
from mtgkb.language.errors import ScenarioError
from mtgkb.language.facts import scenario_facts
from mtgkb.language.json_state import parse_scenario, read_scenario, validate_scenario
from mtgkb.questions.answers import Limits, answer
from mtgkb.rulebase.grounding import PLACE, RuleBaseFault
from mtgkb.rulebase.records import record
from mtgkb.running.deadline import (
    DeadlineExceeded,
    WorkerLost,
    call_with_deadline,
    describe_memory,
    memory_limit,
    renew_memory_bound,
)
from mtgkb.running.status import (
    EXIT_ILLEGAL,
    EXIT_INCONSISTENT,
    EXIT_INPUT,
    EXIT_OK,
    EXIT_TIMEOUT,
)


@record
class FileResult:
    """The answers to one file, its exit status, and the error message if any."""

    name: str
    status: int
    output: dict
    error: str | None = None
    exception: Exception | None = None


def _answers(scenario, limits: Limits, facts, session: Session) -> list[dict]:
    if facts is None:
        facts = scenario_facts(scenario)
    return [answer(question, scenario, facts, limits, session) for question in scenario.questions]


NO_LIMITS = Limits()


def answer_text(
    text: str | bytes,
    name: str = "<stdin>",
    limits: Limits = NO_LIMITS,
    spent: float = 0.0,
    engine: Engine | None = None,
) -> FileResult:
    """Every answer of one scenario text, with the exit status it earns.

    With a time-out, parsing and solving run in a child process that is
    killed when the time is up (or when it outgrows its memory bound), so no
    input can hang the caller. `spent` is the part of the time-out already
    used (reading the input).
    """
    engine = Engine() if engine is None else engine
    if limits.timeout is None:
        try:
            return answer_now(text, name, limits, engine)
        except MemoryError:
            pass  # (leave the handler first: its traceback holds the grounding)
        release_session(limits)
        return out_of_memory(name, limits)
    try:
        left = max(limits.timeout - spent, 0.0)
        try:
            engine.prepare()  # read in this process: the child inherits the rule base
        except RuleBaseFault as fault:
            return rule_base_error(name, fault)

        def work() -> FileResult:
            return answer_now(text, name, limits, engine)

        return call_with_deadline(work, left, limits.memory)
    except WorkerLost as lost:
        if lost.out_of_memory:
            return out_of_memory(name, limits)
        message = f"{name}: error: the work was stopped: {lost}"
    except (SolveTimeout, DeadlineExceeded):
        message = f"{name}: error: the time-out of {limits.timeout:g} s stopped the work"
    output = {"file": name, "error": "timeout"}
    return FileResult(name, EXIT_TIMEOUT, output, message, SolveTimeout(message))


def release_session(limits: Limits) -> None:
    """After a file stopped half-way (its session, and so its groundings, are
    gone with the frames that held them): free their memory, so that the next
    file has the memory bound to itself."""
    import gc

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


def answer_now(
    text: str | bytes, name: str, limits: Limits, engine: Engine | None = None
) -> FileResult:
    """Parse and answer in this process, without a deadline."""
    try:
        scenario = parse_or_fail(text, name, limits.lang)
        if isinstance(scenario, FileResult):
            return scenario
        return answer_scenario(scenario, name, limits, session=Session(engine))
    except RuntimeError as err:
        fault = rule_base_fault(err, engine)
        if fault is None:
            raise
        return rule_base_error(name, fault)


def rule_base_fault(err: RuntimeError, engine: Engine | None) -> RuleBaseFault | None:
    """The fault of the rule base behind clingo's `err` (a program of it that
    clingo cannot read or ground), or None when the rule base grounds."""
    if isinstance(err, RuleBaseFault):
        return err
    location = engine.location if engine is not None else None
    if location is None:
        from mtgkb.rulebase.location import current

        location = current()
    found = location.grounding_errors()
    return RuleBaseFault(found) if found else None


def rule_base_error(name: str, fault: RuleBaseFault) -> FileResult:
    """The result (exit 2) of a file answered from a rule base clingo cannot
    ground: clingo's messages, `FILE:LINE:COL: error: ...`, naming the
    rule base's file; the exception is the first as bad input."""
    message = "\n".join(fault.messages)
    output = {"file": name, "error": message}
    return FileResult(name, EXIT_INPUT, output, message, _bare(scenario_error(fault.messages[0])))


def parse_or_fail(text: str | bytes, name: str, lang: str = "en"):
    """The parsed scenario (scenario text or a JSON state), or the FileResult
    (exit 2) of its input error."""
    try:
        return parse_scenario(text, name, lang)
    except ScenarioError as err:
        return input_error(name, err)


def read_or_fail(text: str | bytes, name: str, lang: str = "en"):
    """The scenario read but not yet validated (parser.read_text), or the
    FileResult (exit 2) of its input error (said in `lang`): parse_or_fail
    in two steps, for a batch that checks many tables at once."""
    try:
        return read_scenario(text, name, lang)
    except ScenarioError as err:
        return input_error(name, err)


def validate_or_fail(scenario, name: str, lang: str = "en", checked: list | None = None):
    """The scenario once validated (`checked`: its input checks' atoms, when
    solved already), or the FileResult (exit 2) of its input error."""
    try:
        validate_scenario(scenario, lang, checked)
        return scenario
    except ScenarioError as err:
        return input_error(name, err)


def input_error(name: str, err: ScenarioError) -> FileResult:
    """The result (exit 2) of a file with an input error."""
    output = {"file": name, "error": err.format()}
    return FileResult(name, EXIT_INPUT, output, err.format(), _bare(err))


def _bare(err: Exception) -> Exception:
    """The exception without traceback and chained causes: it may travel back
    from a worker process, and a traceback (pickled where tblib is installed,
    as Dask does) holds frames that cannot be pickled."""
    err.__cause__ = err.__context__ = None
    return err.with_traceback(None)


def answer_scenario(
    scenario, name: str, limits: Limits, facts=None, session: Session | None = None
) -> FileResult:
    """The answers to a parsed scenario (and its facts, if already built) and
    the exit status they earn; its questions share `session` (one of its
    own when not given)."""
    session = Session() if session is None else session
    try:
        answers = _answers(scenario, limits, facts, session)
    except SolveTimeout as stopped:
        output = {"file": name, "error": "timeout"}
        return FileResult(name, EXIT_TIMEOUT, output, f"{name}: error: {stopped}", _bare(stopped))
    illegal = any(a.get("ask") == "legal" and a.get("legal") is False for a in answers)
    status = EXIT_ILLEGAL if illegal else EXIT_OK
    if any(a.get("inconsistent") for a in answers):
        status = EXIT_INCONSISTENT  # the rule base contradicts itself (spec, section 11)
    return FileResult(name, status, {"file": name, "answers": answers})


def scenario_error(message: str) -> ScenarioError:
    """A rule base's normalised clingo message (mtgkb.rulebase.grounding) as a
    ScenarioError (the API raises it, the server returns it as a 422 with its
    line and column)."""
    head, _, more = message.partition("\n")
    found = PLACE.match(head)
    if found is None:
        return ScenarioError(message, filename="<rule base>", line=0, column=0)
    text = found["rest"]
    text = text[len("error: ") :] if text.startswith("error: ") else text
    if more:
        text = f"{text}\n{more}"
    line, column = int(found["line"]), int(found["col"])
    try:
        source = Path(found["file"]).read_text(encoding="utf-8").splitlines()[line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        source = ""
    return ScenarioError(text, filename=found["file"], line=line, column=column, source_line=source)
