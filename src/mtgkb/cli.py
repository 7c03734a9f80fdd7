"""The command line: `mtgkb run`, `facts`, `program`, `rules` and `audit`."""

from __future__ import annotations

import gc

from mtgkb.rulebase.collector import collections_deferred

with collections_deferred():  # (what is imported is kept: mtgkb.rulebase.collector)
    import _thread
    import argparse
    import atexit
    import functools
    import json
    import os
    import signal
    import sys
    import threading
    from pathlib import Path
    from typing import TYPE_CHECKING

    from mtgkb import __version__
    from mtgkb.language.errors import MAX_TIMEOUT, UsageError, check_count, check_timeout
    from mtgkb.output.envelope import stamp
    from mtgkb.rulebase.words import rule_base_title
    from mtgkb.running.deadline import DEFAULT_MEMORY_CAP_MB, bound_memory, memory_limit
    from mtgkb.running.status import EXIT_INPUT

if TYPE_CHECKING:
    from mtgkb.questions.answers import Limits

DESCRIPTION = """\
mtgkb answers rules questions about Magic: The Gathering from the
Comprehensive Rules encoded as answer-set programs: is this play legal and
which rule says so, which orders and declarations are legal, what happens to
life totals. Scenario files (.mtg) describe one moment of one game."""


def _rule_base_options(command: argparse.ArgumentParser) -> None:
    """`--rule-base DIR` and `--with FILE.lp` (see mtgkb.rulebase.location)."""
    command.add_argument(
        "--rule-base",
        default=None,
        metavar="DIR",
        help="answer from the rule base in DIR (its rules/, kb/, queries/); "
        "default: $MTGKB_RULE_BASE, else the installed copy",
    )
    command.add_argument(
        "--with",
        dest="with_files",
        action="append",
        default=None,
        metavar="FILE.lp",
        help="add your own ASP file after the rule base (repeatable)",
    )


def _timeout_option(command: argparse.ArgumentParser, what: str) -> None:
    """`--timeout S` (none by default): `what` it bounds, then its range."""
    command.add_argument(
        "--timeout",
        type=_option(check_timeout, "the time-out"),
        default=None,
        metavar="S",
        help=f"{what}; S > 0, at most {MAX_TIMEOUT:g}",
    )


def choose_rule_base(args: argparse.Namespace):
    """Make the rule base the options name this process's (and its workers');
    say on stderr when the current folder is a checkout that differs from it.
    Returns the rule base, or an error message."""
    from mtgkb.rulebase.location import RuleBaseError, checkout_note, use_rule_base

    try:
        base = use_rule_base(getattr(args, "rule_base", None), getattr(args, "with_files", None))
    except RuleBaseError as err:
        return f"mtgkb: error: {err}"
    problems = _unreadable(base.extra)
    if problems:
        return problems
    note = checkout_note(base=base)
    if note:
        print(note, file=sys.stderr)
    return base


def _rule_base_errors(args: argparse.Namespace) -> list[str]:
    """The syntax and grounding errors of the rule base this command used
    (none if it used none)."""
    chosen = getattr(args, "chosen_rule_base", None)
    return chosen.grounding_errors() if chosen is not None else []


def _unreadable(files) -> str | None:
    """clingo's `FILE:LINE:COL: error:` messages for added files it cannot parse."""
    from mtgkb.rulebase.location import unparsable

    return "\n".join(unparsable(files)) or None


def _option(check, *bounds):
    """An argparse type: the text as a number, checked by `check` (a usage
    error with its message when out of range)."""

    def convert(text: str):
        try:
            number = float(text) if check is check_timeout else int(text, 10)
        except ValueError:
            kind = "a number of seconds" if check is check_timeout else "a whole number"
            raise argparse.ArgumentTypeError(f"expected {kind}, not {text!r}") from None
        try:
            return check(number, *bounds)
        except UsageError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    convert.__name__ = "value"
    return convert


class _Stdout:
    """Standard output, which its reader may leave early (`| head -1`): from
    then on nothing more is written to it, and the run goes on, so that the
    exit status and the later files' messages on standard error are the same
    in every output mode as with a reader that reads everything."""

    def __init__(self) -> None:
        self.gone = False

    def write(self, printing) -> None:
        if self.gone:
            return
        try:
            printing()
            sys.stdout.flush()
        except BrokenPipeError:
            self.leave()

    def leave(self) -> None:
        self.gone = True
        # Later writes, and the flush at exit, go nowhere instead of failing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _console():
    from rich.console import Console

    class PipeConsole(Console):
        def on_broken_pipe(self) -> None:  # rich would exit with status 1
            self.quiet = True
            raise BrokenPipeError

    return PipeConsole(highlight=False)


def cmd_run(args: argparse.Namespace) -> int:
    # (what a run makes is mostly freed by reference counting or kept: mtgkb.rulebase.collector)
    with collections_deferred():
        restore = None
        try:
            from mtgkb.questions.answers import Limits

            limits = Limits(
                max_models=args.max_models, timeout=args.timeout, memory=args.memory, lang=args.lang
            )
            restore = bound_memory(memory_limit(args.memory))
            return _run(args, limits)
        finally:
            # main() may be called in a longer-lived process
            if restore is not None:
                restore()
            if not gc.get_freeze_count():
                # What the run made and keeps (the modules imported, the engine's
                # caches) goes to the oldest generation unexamined (a freeze, then
                # an unfreeze), not examined at once as the young generation it
                # is, past the restored threshold.
                gc.freeze()
                gc.unfreeze()
            _unexamined_at_exit()


@functools.cache
def _unexamined_at_exit() -> None:
    """At the end of the process, what is left is frozen: Python's collections
    while it ends (which examine every object still alive, the rule base's
    analysis, the parser's tables, about 15 ms of a run of one file) find
    nothing to free, and the process frees its memory as it exits. (Python
    does not promise to finalize the objects alive at exit; those freed by
    reference counting still are.) Registered once per process."""
    atexit.register(gc.freeze)


def _run(args: argparse.Namespace, limits: Limits) -> int:
    if args.scheduler:
        from mtgkb.running.batch import answer_on_dask

        results = answer_on_dask(args.files, limits, args.scheduler)
    else:
        from mtgkb.engine.state import Engine
        from mtgkb.running.batch import answer_files

        # the run's one engine: the rule base chosen, read once for every file
        engine = Engine(location=args.chosen_rule_base)
        results = answer_files(args.files, limits, args.jobs, engine)
    status = 0
    collected = []
    console = None
    out = _Stdout()
    base = args.chosen_rule_base.describe()
    if args.verbose:
        # on standard error: standard output holds the answers alone
        print(rule_base_title(args.chosen_rule_base, args.lang), file=sys.stderr, flush=True)
    for result in results:
        result.output.setdefault("rule_base", base)  # (a Dask worker names its own)
        stamp(result.output)  # schema_version, cr_edition (mtgkb.output.envelope)
        status = max(status, result.status)
        if result.error:
            print(result.error, file=sys.stderr, flush=True)
        if args.jsonl:
            out.write(lambda r=result: print(json.dumps(r.output, ensure_ascii=False)))
        elif args.json:
            collected.append(result)
        elif result.status != EXIT_INPUT and not out.gone:
            if console is None:
                console = _console()
            from mtgkb.output.text import print_result

            out.write(lambda r=result, c=console: print_result(c, r.output, args.lang))
    if args.json:
        outputs = [r.output for r in collected]
        if len(args.files) == 1:
            if collected[0].status != EXIT_INPUT:
                out.write(lambda: print(json.dumps(outputs[0], ensure_ascii=False, indent=1)))
        else:
            out.write(lambda: print(json.dumps(outputs, ensure_ascii=False, indent=1)))
    return status


def _read_or_say(file: str) -> tuple[str, bytes] | None:
    """One input file's name and bytes, or None once the reason it cannot be
    read is on standard error (mtgkb.running.batch.read_input)."""
    from mtgkb.running.batch import read_input

    name, data, error = read_input(file)
    if error is not None:
        print(error, file=sys.stderr)
        return None
    return name, data


def cmd_facts(args: argparse.Namespace) -> int:
    from mtgkb.language.errors import ScenarioError
    from mtgkb.language.facts import facts_text, scenario_facts
    from mtgkb.language.json_state import parse_scenario

    read = _read_or_say(args.file)
    if read is None:
        return EXIT_INPUT
    name, data = read
    try:
        scenario = parse_scenario(data, name)
    except ScenarioError as err:
        print(err.format(), file=sys.stderr)
        return EXIT_INPUT
    sys.stdout.write(f"% {rule_base_title(args.chosen_rule_base)}\n")
    sys.stdout.write(facts_text(scenario_facts(scenario)))
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    """A scenario file as a JSON state, or a JSON state as a scenario file."""
    from mtgkb.language.errors import ScenarioError
    from mtgkb.language.json_state import convert

    read = _read_or_say(args.file)
    if read is None:
        return EXIT_INPUT
    name, data = read
    try:
        sys.stdout.write(convert(data, name, args.to))
    except ScenarioError as err:
        print(err.format(), file=sys.stderr)
        return EXIT_INPUT
    return 0


def cmd_program(args: argparse.Namespace) -> int:
    """The program mtgkb solves, for plain clingo: the rule base as read for
    solving (each file with its generated citations) and the query."""
    from mtgkb.rulebase.citations import CitationError, program_texts
    from mtgkb.rulebase.encoded import label
    from mtgkb.rulebase.location import data_dir, query_file, rule_files
    from mtgkb.rulebase.parts import PartError

    if args.citations:
        from mtgkb.rulebase.citations import plain_clingo_copy

        try:
            sys.stdout.write(plain_clingo_copy(args.chosen_rule_base.root))
        except (CitationError, PartError, OSError, UnicodeDecodeError) as err:
            print(f"mtgkb: error: {err}", file=sys.stderr)
            return EXIT_INPUT
        return 0
    files = rule_files()
    if args.query is not None:
        path = query_file(args.query)
        if not path.is_file():
            known = ", ".join(sorted(f.stem for f in data_dir("queries").glob("*.lp")))
            print(f"mtgkb: error: no query {args.query!r} (known: {known})", file=sys.stderr)
            return EXIT_INPUT
        files = [*files, path]
    try:
        texts = list(zip(files, program_texts(files), strict=True))
    except (CitationError, PartError, OSError, UnicodeDecodeError) as err:
        print(f"mtgkb: error: {err}", file=sys.stderr)
        return EXIT_INPUT
    sys.stdout.write(f"% {rule_base_title(args.chosen_rule_base)}\n")
    for path, text in texts:
        sys.stdout.write(f"\n%%% {label(path)}\n\n{text.rstrip()}\n")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from mtgkb.rulebase.command import rules_command

    return rules_command(args)


def cmd_audit(args: argparse.Namespace) -> int:
    from mtgkb.audit.command import audit_command

    return audit_command(args)


def cmd_test(args: argparse.Namespace) -> int:
    from mtgkb.audit.command import unit_test_command

    return unit_test_command(args)


def cmd_serve(args: argparse.Namespace) -> int:
    from mtgkb.serve.app import serve_command

    return serve_command(args)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number: {value}")
    return value


def _run_command(sub) -> None:
    """`mtgkb run`."""
    run = sub.add_parser(
        "run",
        help="answer the questions of scenario files",
        description="Answer every `ask` of each scenario file. Exit status: 0 all answered and "
        "legal, 1 some play illegal, 2 unreadable input, 3 time-out.",
    )
    run.add_argument("files", nargs="+", metavar="FILE", help="scenario files; '-' reads stdin")
    form = run.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the answers as JSON")
    form.add_argument("--jsonl", action="store_true", help="print one JSON object per file")
    _timeout_option(run, "stop a file's work, its reading included, after S seconds (exit 3)")
    run.add_argument(
        "--max-models",
        type=_option(check_count, "the number of models", 0),
        default=100000,
        metavar="N",
        help="list at most N declarations or orders (a question's `limit` may list fewer); "
        "counts stay exact, and say complete: false only where they could only be bounded "
        "from below; 0 means no cap (default 100000)",
    )
    run.add_argument(
        "--lang",
        choices=["en", "it"],
        default="en",
        help="the language of messages, explanations and labels (JSON keys stay)",
    )
    run.add_argument(
        "--jobs",
        type=_option(check_count, "the number of jobs", 1, 1024),
        default=None,
        metavar="N",
        help="answer files in N local processes (N >= 1; default: one per CPU, at most one "
        "per 16 files and 8 in all)",
    )
    run.add_argument(
        "--memory",
        type=_option(check_count, "the memory bound", 0, 1 << 30),
        default=None,
        metavar="MB",
        help="stop a run that needs more than MB MiB of memory (exit 3); 0 means no bound "
        "(default: MTGKB_MEMORY_MB, else 80%% of the memory available, at most "
        f"{DEFAULT_MEMORY_CAP_MB} MiB)",
    )
    run.add_argument(
        "--verbose",
        action="store_true",
        help="name the rule base in use (path and digest) on standard error",
    )
    run.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="answer files on a Dask cluster (needs mtgkb[dask])",
    )
    _rule_base_options(run)
    run.set_defaults(handler=cmd_run)


def _facts_command(sub) -> None:
    """`mtgkb facts`."""
    facts = sub.add_parser(
        "facts",
        help="print the facts of a scenario file",
        description="Print the clingo facts of a scenario, for use with plain clingo: "
        "mtgkb program --query legal > p.lp; clingo p.lp facts.lp",
    )
    facts.add_argument("file", metavar="FILE")
    _rule_base_options(facts)
    facts.set_defaults(handler=cmd_facts)


def _convert_command(sub) -> None:
    """`mtgkb convert`."""
    convert = sub.add_parser(
        "convert",
        help="turn a scenario file into a JSON state, or a JSON state into a scenario file",
        description="Print a .mtg scenario as its JSON state (the schema: GET "
        "/v1/schema/scenario of mtgkb serve), or a JSON state as .mtg text. The form "
        "read is told by the content (a JSON state starts with '{').",
    )
    convert.add_argument("file", metavar="FILE", help="a .mtg or .json file, or - for stdin")
    convert.add_argument(
        "--to", choices=("json", "mtg"), help="the form to print (default: the other one)"
    )
    _rule_base_options(convert)
    convert.set_defaults(handler=cmd_convert)


def _program_command(sub) -> None:
    """`mtgkb program`."""
    program = sub.add_parser(
        "program",
        help="print the program mtgkb solves, for plain clingo",
        description="Print the rule base as mtgkb solves it (with the citations its "
        "`cite` tags generate) and, with --query, one query: "
        "mtgkb program --query legal > p.lp; mtgkb facts FILE > f.lp; clingo p.lp f.lp",
    )
    program.add_argument(
        "--citations",
        action="store_true",
        help="print only the generated citations, as rules/generated_citations.lp holds "
        "them for plain clingo",
    )
    program.add_argument(
        "--query",
        default=None,
        metavar="Q",
        help="the query to add: queries/Q.lp (legal, blocks, ...)",
    )
    _rule_base_options(program)
    program.set_defaults(handler=cmd_program)


def _rules_command(sub) -> None:
    """`mtgkb rules`."""
    rules = sub.add_parser(
        "rules",
        help="show the rule index: paraphrase, where encoded, which tests use it",
        description="Show one Comprehensive Rules entry (older numbers resolve too) or the index.",
    )
    rules.add_argument("number", nargs="?", help="a CR rule number such as 802.4a or 118.4a")
    rules.add_argument("--lang", choices=["en", "it"], default="en", help="paraphrase language")
    rules.add_argument("--json", action="store_true", help="print JSON")
    rules.add_argument(
        "--cr",
        type=Path,
        default=None,
        metavar="FILE",
        help="an official CR text file: show that edition's text beside our paraphrase",
    )
    _rule_base_options(rules)
    rules.set_defaults(handler=cmd_rules)


def _audit_command(sub) -> None:
    """`mtgkb audit`."""
    audit = sub.add_parser(
        "audit",
        help="check the rule base: coverage, lint, contradictions, CR editions",
        description="Audit the rule base itself. Exit 1 when lint or conflicts are found.",
    )
    out = audit.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON")
    out.add_argument("--markdown", action="store_true", help="print Markdown")
    audit.add_argument(
        "--quick", action="store_true", help="check consistency on a small generated corpus only"
    )
    audit.add_argument(
        "--lint",
        action="store_true",
        help="only the checks of the rule base's text (tags, CR numbers, clingo's complaints, "
        "messages, unused predicates, the baseline): no scenario is answered",
    )
    audit.add_argument(
        "--against",
        type=Path,
        default=None,
        metavar="DIR",
        help="another rule base (a folder with rules/, kb/, queries/): answer the corpus with "
        "both and report each scenario whose answers differ, with the rules each side cites "
        "and the differing statements its answer depends on (exit 1 when any differ)",
    )
    audit.add_argument(
        "--save-baseline",
        action="store_true",
        help="write kb/audit_baseline.json (the rules encoded and the statements held now) "
        "for later audits to compare with",
    )
    audit.add_argument(
        "--cr",
        type=Path,
        action="append",
        default=None,
        metavar="FILE",
        help="an official CR text file to check citations against; with two or more "
        "(editions), where each rule's text changed and where it was renumbered",
    )
    audit.add_argument(
        "--progress",
        action="store_true",
        help="show the progress of the long steps on stderr (the default at a terminal)",
    )
    _timeout_option(
        audit,
        "the seconds each scenario's check, and the search for the statements behind each "
        "conflict, may take (default 10; one that takes longer is reported as such, a conflict "
        "then without its statements)",
    )
    _rule_base_options(audit)
    audit.set_defaults(handler=cmd_audit)


def _test_command(sub) -> None:
    """`mtgkb test`."""
    unit = sub.add_parser(
        "test",
        help="run the rule base's own unit tests (tests/units/*.toml, with clintest)",
        description="Run the unit tests that travel with the rule base: small programs and "
        "the atoms their models must or must not hold. Exit 1 when one fails.",
    )
    unit.add_argument("--json", action="store_true", help="print JSON")
    _rule_base_options(unit)
    unit.set_defaults(handler=cmd_test)


def _serve_command(sub) -> None:
    """`mtgkb serve`."""
    serve = sub.add_parser(
        "serve",
        help="answer over HTTP (and serve the judges' page at /), or over stdin/stdout",
        description="A resident server (needs mtgkb[serve]): POST /v1/run answers a scenario, "
        "/ is the judges' page, /openapi.json describes the rest. With --stdio: one JSON "
        "request per line on stdin, one JSON answer per line on stdout.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8765, help="port to listen on (8765)")
    serve.add_argument(
        "--workers",
        type=_option(check_count, "the number of workers", 1, 1024),
        default=None,
        metavar="N",
        help="solving processes (default: one per CPU)",
    )
    serve.add_argument(
        "--queue",
        type=_option(check_count, "the queue", 0, 1 << 16),
        default=None,
        metavar="N",
        help="requests that may wait for a worker; beyond them 503 with Retry-After "
        "(default: 4 per worker)",
    )
    serve.add_argument(
        "--gather",
        type=_option(check_count, "the requests gathered", 1, 1024),
        default=None,
        metavar="N",
        help="the most waiting requests a free worker answers together, their questions "
        "grounded as one chunk (default: 8; 1 answers each alone)",
    )
    serve.add_argument(
        "--idle-timeout",
        type=_option(check_timeout, "the idle time-out"),
        default=None,
        metavar="S",
        help="seconds a client has to send a request's headers, on a new or an idle "
        "connection (10 s)",
    )
    serve.add_argument(
        "--token",
        default=None,
        metavar="TOKEN",
        help="require 'Authorization: Bearer TOKEN' on every request (required with a --host "
        "other machines can reach; also read from MTGKB_SERVE_TOKEN)",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let the pages of ORIGIN (such as http://localhost:3000, or *) call the API "
        "(repeatable; default: only the server's own page)",
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="answer requests for the Host NAME too (repeatable; default: the loopback "
        "names and --host)",
    )
    serve.add_argument(
        "--timeout",
        type=_option(check_timeout, "the time-out"),
        default=10.0,
        metavar="S",
        help="a request's time-out when it names none (10 s; requests may ask up to max(S, 60) s)",
    )
    serve.add_argument(
        "--memory",
        type=_option(check_count, "the memory bound", 0, 1 << 30),
        default=None,
        metavar="MB",
        help=f"memory bound of each request (0: none; default: 80%% of the memory "
        f"available, at most {DEFAULT_MEMORY_CAP_MB} MB)",
    )
    _rule_base_options(serve)
    serve.add_argument(
        "--stdio", action="store_true", help="one JSON request per line on stdin, answers on stdout"
    )
    serve.set_defaults(handler=cmd_serve)


#: Each subcommand and what adds its parser (build_parser).
COMMANDS = {
    "run": _run_command,
    "facts": _facts_command,
    "convert": _convert_command,
    "program": _program_command,
    "rules": _rules_command,
    "audit": _audit_command,
    "test": _test_command,
    "serve": _serve_command,
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. `command`: the subcommand the arguments
    name first, when they name one: only its parser is made (each costs
    argparse a few look-ups of translations on disk), else all."""
    parser = argparse.ArgumentParser(
        prog="mtgkb", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"mtgkb {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, add in COMMANDS.items():
        if command not in COMMANDS or command == name:
            add(sub)
    return parser


class Stopped(BaseException):
    """SIGTERM (or another stopping signal) reached the process."""

    def __init__(self, signum) -> None:
        # clingo hands an exception raised in one of its callbacks back as
        # `type(err)(err)`: the signal's number is then the argument's own
        signum = getattr(signum, "signum", signum)
        super().__init__(signum)
        self.signum = int(signum)


STOP_GRACE = 2.0  # seconds the run has to unwind after SIGINT/SIGTERM
NOTHROW_RETRY = (
    0.01  # seconds: a stop that came in a NOTHROW_CALLBACKS frame is handled again after
)

# clingo's Python callbacks in which an exception ends the process: its
# logger's ("PANIC: exception in nothrow scope", exit 1), and its solve
# events' (raised at a statistics event: "error in
# SolveEventHandler::on_statistics going to terminate", exit 1). Seen both
# with SIGTERM sent to `mtgkb run` on a loaded machine.
# And any finalizer (`__del__`, such as clingo's syntax trees'), where Python
# prints an exception ("Exception ignored in ...") and drops it.
NOTHROW_CALLBACKS = frozenset(
    {"_pyclingo_logger_callback", "_pyclingo_solve_event_callback", "__del__"}
)


def _ignore_unraisable(_unraisable) -> None:
    """sys.unraisablehook while a stopped run ends (_StopOnSignals)."""


def _in_nothrow_callback(frame) -> bool:
    """Whether `frame` runs inside one of NOTHROW_CALLBACKS, where a stop
    raised would end the process or be lost."""
    while frame is not None:
        if frame.f_code.co_name in NOTHROW_CALLBACKS:
            return True
        frame = frame.f_back
    return False


class _StopOnSignals:
    """SIGINT and SIGTERM end the run: Python raises KeyboardInterrupt or
    Stopped in the main thread, whose clean-up kills the children (but not
    inside those of clingo's callbacks where an exception would end the
    process, NOTHROW_CALLBACKS: a moment later); and since
    the main thread may be inside clingo, where Python cannot raise, a watcher
    thread woken by the signal (signal.set_wakeup_fd) ends the process with
    128 + the signal's number if it is still running STOP_GRACE seconds later.
    The children die with it (deadline.die_with_parent)."""

    def __enter__(self):
        self.active = threading.current_thread() is threading.main_thread()
        if not self.active:
            return self
        self.finished = threading.Event()
        read_end, self.write_end = os.pipe()
        os.set_blocking(self.write_end, False)
        self.old_term = signal.signal(signal.SIGTERM, self._raise)
        self.old_int = signal.signal(signal.SIGINT, self._raise)
        self.old_wakeup = signal.set_wakeup_fd(self.write_end, warn_on_full_buffer=False)
        self.watcher = threading.Thread(
            target=self._watch, args=(read_end,), name="mtgkb-stop", daemon=True
        )
        self.watcher.start()
        return self

    received: int | None = None  # the stopping signal that came, if one did
    old_unraisable = None  # sys.unraisablehook before the stop, while it is quiet

    def end(self) -> None:
        """After the stopped run has unwound: its half-built objects freed
        quietly, then Python's report of exceptions in finalizers back."""
        if self.old_unraisable is not None:
            import gc

            gc.collect()
            sys.unraisablehook = self.old_unraisable
            self.old_unraisable = None

    def _raise(self, signum, frame):
        self.received = signum
        if self.old_unraisable is None:
            # an object a stop interrupted half-built fails in its finalizer
            # (clingo's ASTSequence: "Exception ignored in ... AttributeError"):
            # not a thing to print at the end of a stopped run
            self.old_unraisable = sys.unraisablehook
            sys.unraisablehook = _ignore_unraisable
        if _in_nothrow_callback(frame):
            # an exception here would end the process or be lost
            # (NOTHROW_CALLBACKS): the signal is handled again a moment
            # later, once the callback has returned
            retry = threading.Timer(NOTHROW_RETRY, _thread.interrupt_main, args=(signum,))
            retry.daemon = True
            retry.start()
            return
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(signum)

    def _watch(self, read_end: int) -> None:
        stopping = {int(signal.SIGINT), int(signal.SIGTERM)}
        with os.fdopen(read_end, "rb", buffering=0) as wake:
            while True:
                data = wake.read(1)
                if not data or self.finished.is_set():
                    return
                if data[0] in stopping:
                    self.received = data[0]
                    if not self.finished.wait(STOP_GRACE):
                        os._exit(128 + data[0])
                    return

    def __exit__(self, *exc) -> None:
        if not self.active:
            return
        self.finished.set()
        signal.set_wakeup_fd(self.old_wakeup)
        signal.signal(signal.SIGTERM, self.old_term)
        signal.signal(signal.SIGINT, self.old_int)
        os.close(self.write_end)  # the watcher reads the end of file and leaves


def main(argv: list[str] | None = None) -> int:
    from mtgkb.rulebase.location import ENV_RULE_BASE, ENV_WITH

    given = sys.argv[1:] if argv is None else argv
    args = build_parser(given[0] if given else None).parse_args(argv)
    # the rule base chosen holds for this command (and its workers) only
    saved = {name: os.environ.get(name) for name in (ENV_RULE_BASE, ENV_WITH)}
    stopper = _StopOnSignals()
    try:
        if hasattr(args, "rule_base"):
            chosen = choose_rule_base(args)
            if isinstance(chosen, str):
                print(chosen, file=sys.stderr)
                return EXIT_INPUT
            args.chosen_rule_base = chosen
        with stopper:
            return args.handler(args)
    except (RuntimeError, ValueError) as err:
        if stopper.received is not None:
            # a stop raised inside a clingo callback comes back as clingo's error
            return 128 + stopper.received
        # clingo could not read a program of the rule base (its vocabulary
        # included): say which file and where, as for any bad input
        from mtgkb.rulebase.vocabulary import VocabularyError

        found = _rule_base_errors(args) or ([str(err)] if isinstance(err, VocabularyError) else [])
        if not found:
            raise
        print("\n".join(found), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    except Stopped as stopped:
        return 128 + stopped.signum
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0
    finally:
        stopper.end()
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


def console() -> None:
    """The `mtgkb` command (and `python -m mtgkb`): main() on this process's
    arguments; the process then ends at once (`EndAtOnce`)."""
    end = EndAtOnce()
    # (the first handler registered: the last run, after every other one)
    atexit.register(end)
    end.status = main()
    sys.exit(end.status)


class EndAtOnce:
    """The last exit handler of the `mtgkb` command, run once every other one
    has run (a pool's, logging's) and every thread not a daemon has ended:
    the standard streams flushed, and the process ended with main()'s status
    without Python freeing, one by one, what is left (the modules, the rule
    base's analysis, the parser's tables: about 4.5 ms of a cold run of one
    file, measured with bench/data/cold_c06_blocks.mtg); its memory goes
    back as the process ends. A stream that cannot be flushed (a reader gone)
    ends it with status 120, as Python does. Nothing is done when main() did
    not return (`status` None: an exception ends the process as Python ends
    it), nor under a tracer or a profiler (coverage, say), whose own handlers
    may have been registered before this one and would not run."""

    def __init__(self) -> None:
        self.status: int | None = None

    def __call__(self) -> None:
        if self.status is None or sys.gettrace() is not None or sys.getprofile() is not None:
            return
        status = self.status
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None and not stream.closed:
                    stream.flush()
            except (OSError, ValueError):
                status = 120
        os._exit(status)


if __name__ == "__main__":
    console()
