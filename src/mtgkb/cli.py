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


def _rule_base_options(command: argparse.ArgumentParser) -> None:
    """`--rule-base DIR` and `--with FILE.lp` (see mtgkb.paths)."""
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


def choose_rule_base(args: argparse.Namespace):
    """Make the rule base the options name this process's (and its workers');
    say on stderr when the current folder is a checkout that differs from it.
    Returns the rule base, or an error message."""
    from .paths import RuleBaseError, checkout_note, use_rule_base

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


def _unreadable(files) -> str | None:
    """clingo's `FILE:LINE:COL: error:` messages for added files it cannot parse."""
    if not files:
        return None
    import clingo.ast

    found: list[str] = []
    for path in files:
        messages: list[str] = []
        try:
            clingo.ast.parse_files(
                [str(path)], lambda _: None, logger=lambda c, m, out=messages: out.append(m)
            )
        except RuntimeError:
            found += [m.strip() for m in messages] or [f"{path}: error: cannot be parsed"]
    return "\n".join(found) or None


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
    base = args.chosen_rule_base.describe()
    if not (args.json or args.jsonl):
        print(args.chosen_rule_base.title(), flush=True)
    for result in results:
        result.output.setdefault("rule_base", base)  # (a Dask worker names its own)
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
    sys.stdout.write(f"% {args.chosen_rule_base.title()}\n")
    sys.stdout.write(facts_text(scenario_facts(scenario)))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from .ruleindex import rules_command

    return rules_command(args)


def cmd_audit(args: argparse.Namespace) -> int:
    from .audit import audit_command

    return audit_command(args)


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
    _rule_base_options(run)
    run.set_defaults(handler=cmd_run)

    facts = sub.add_parser(
        "facts",
        help="print the facts of a scenario file",
        description="Print the clingo facts of a scenario, for use with plain clingo: "
        "clingo rules/*.lp kb/*.lp queries/legal.lp facts.lp",
    )
    facts.add_argument("file", metavar="FILE")
    _rule_base_options(facts)
    facts.set_defaults(handler=cmd_facts)

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
    _rule_base_options(audit)
    audit.set_defaults(handler=cmd_audit)
    return parser


def main(argv: list[str] | None = None) -> int:
    import os

    from .paths import ENV_RULE_BASE, ENV_WITH

    args = build_parser().parse_args(argv)
    # the rule base chosen holds for this command (and its workers) only
    saved = {name: os.environ.get(name) for name in (ENV_RULE_BASE, ENV_WITH)}
    try:
        if hasattr(args, "rule_base"):
            chosen = choose_rule_base(args)
            if isinstance(chosen, str):
                print(chosen, file=sys.stderr)
                return EXIT_INPUT
            args.chosen_rule_base = chosen
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


if __name__ == "__main__":
    sys.exit(main())
