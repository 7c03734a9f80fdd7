"""The command line: `mtgkb run`, `facts`, `rules` and `audit`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__
from .answers import Limits
from .runner import EXIT_INPUT

DESCRIPTION = """\
mtgkb answers rules questions about Magic: The Gathering from the
Comprehensive Rules encoded as answer-set programs: is this play legal and
which rule says so, which orders and declarations are legal, what happens to
life totals. Scenario files (.mtg) describe one moment of one game."""


def cmd_run(args: argparse.Namespace) -> int:
    limits = Limits(max_models=args.max_models, timeout=args.timeout)
    if args.scheduler:
        from .batch import answer_on_dask

        results = answer_on_dask(args.files, limits, args.scheduler)
    else:
        from .batch import answer_files

        results = answer_files(args.files, limits, args.jobs)
    status = 0
    collected = []
    console = None
    for result in results:
        status = max(status, result.status)
        if result.error:
            print(result.error, file=sys.stderr)
        if args.jsonl:
            print(json.dumps(result.output, ensure_ascii=False), flush=True)
        elif args.json:
            collected.append(result)
        elif result.status != EXIT_INPUT:
            if console is None:
                from rich.console import Console

                from .textout import print_result

                console = Console(highlight=False)
            print_result(console, result.output)
    if args.json:
        outputs = [r.output for r in collected]
        if len(args.files) == 1:
            if collected[0].status != EXIT_INPUT:
                print(json.dumps(outputs[0], ensure_ascii=False, indent=1))
        else:
            print(json.dumps(outputs, ensure_ascii=False, indent=1))
    return status


def cmd_facts(args: argparse.Namespace) -> int:
    from .batch import read_input
    from .errors import ScenarioError
    from .facts import facts_text, scenario_facts
    from .parser import parse_text

    name, data, error = read_input(args.file)
    if error is not None:
        print(error, file=sys.stderr)
        return EXIT_INPUT
    try:
        scenario = parse_text(data, name)
    except ScenarioError as err:
        print(err.format(), file=sys.stderr)
        return EXIT_INPUT
    sys.stdout.write(facts_text(scenario_facts(scenario)))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from .ruleindex import rules_command

    return rules_command(args)


def cmd_audit(args: argparse.Namespace) -> int:
    from .audit import audit_command

    return audit_command(args)


def cmd_serve(args: argparse.Namespace) -> int:
    from .server import serve_command

    return serve_command(args)


def _positive_float(text: str) -> float:
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, not {text}")
    return value


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number: {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mtgkb", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"mtgkb {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

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
    run.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help="stop a file's work after S seconds (exit 3)",
    )
    run.add_argument(
        "--max-models",
        type=int,
        default=100000,
        metavar="N",
        help="stop enumerating after N models (answers say complete: false)",
    )
    run.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="answer files in N local processes"
    )
    run.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="answer files on a Dask cluster (needs mtgkb[dask])",
    )
    run.set_defaults(handler=cmd_run)

    facts = sub.add_parser(
        "facts",
        help="print the facts of a scenario file",
        description="Print the clingo facts of a scenario, for use with plain clingo: "
        "clingo rules/*.lp kb/*.lp queries/legal.lp facts.lp",
    )
    facts.add_argument("file", metavar="FILE")
    facts.set_defaults(handler=cmd_facts)

    rules = sub.add_parser(
        "rules",
        help="show the rule index: paraphrase, where encoded, which tests use it",
        description="Show one Comprehensive Rules entry (older numbers resolve too) or the index.",
    )
    rules.add_argument("number", nargs="?", help="a CR rule number such as 802.4a or 118.4a")
    rules.add_argument("--lang", choices=["en", "it"], default="en", help="paraphrase language")
    rules.add_argument("--json", action="store_true", help="print JSON")
    rules.set_defaults(handler=cmd_rules)

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
        "--cr",
        type=Path,
        default=None,
        metavar="FILE",
        help="an official CR text file to check citations against",
    )
    audit.set_defaults(handler=cmd_audit)

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
        "--workers", type=_at_least_one, default=1, metavar="N", help="solving processes (1)"
    )
    serve.add_argument(
        "--timeout",
        type=_positive_float,
        default=10.0,
        metavar="S",
        help="a request's time-out when it names none (10 s; requests may ask up to max(S, 60) s)",
    )
    serve.add_argument(
        "--memory",
        type=_at_least_one,
        default=None,
        metavar="MB",
        help="memory bound of each request (default: 80%% of the memory available)",
    )
    serve.add_argument(
        "--rule-base", default=None, metavar="DIR", help="answer from the rule base in DIR"
    )
    serve.add_argument(
        "--stdio", action="store_true", help="one JSON request per line on stdin, answers on stdout"
    )
    serve.set_defaults(handler=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
