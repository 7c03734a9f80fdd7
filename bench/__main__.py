"""`python -m bench`: run the benchmark suite (see bench/README.md)."""

from __future__ import annotations

import argparse
import json
import sys

from .suite import PARTS, compile_package, print_report, print_rows, run_suite


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="mtgkb's benchmarks: ratios against baselines measured in the same run.",
    )
    parser.add_argument(
        "--only", default=",".join(PARTS), help=f"comma-separated parts to run ({', '.join(PARTS)})"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="fewer repetitions, a batch of 50, fewer sizes for the growth",
    )
    parser.add_argument("--repeat", type=int, default=None, help="runs per measurement")
    parser.add_argument("--batch", type=int, default=None, help="scenarios in the batch")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the --jobs figure")
    parser.add_argument(
        "--without-speedups",
        action="store_true",
        help="switch off slicing, shared groundings, batching and counting by parts",
    )
    parser.add_argument(
        "--json", default=None, metavar="FILE", help="also write the figures as JSON"
    )
    parser.add_argument(
        "--no-compile", action="store_true", help="do not write mtgkb's byte code first"
    )
    args = parser.parse_args(argv)
    only = {p.strip() for p in args.only.split(",") if p.strip()}
    unknown = only - set(PARTS)
    if unknown:
        parser.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    if not args.no_compile:
        compile_package()
    report = run_suite(
        only,
        repeat=args.repeat or (3 if args.quick else 7),
        batch=args.batch or (50 if args.quick else 200),
        jobs=args.jobs,
        speedups=not args.without_speedups,
        quick=args.quick,
        progress=lambda report, first: print_rows(report, first, sys.stderr),
    )
    print_report(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"rows": report.rows, **report.data}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
