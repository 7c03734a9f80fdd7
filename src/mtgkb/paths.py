"""Where the rule base lives: inside the installed package, or in a checkout."""

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent.parent


@cache
def data_dir(name: str) -> Path:
    """The folder `rules`, `kb` or `queries`, wherever this installation keeps it."""
    for base in (_PACKAGE, _CHECKOUT):
        folder = base / name
        if folder.is_dir():
            return folder
    raise FileNotFoundError(f"mtgkb's {name}/ folder is missing from this installation")


# Facts about the rules that no game rule reads: left out of every solve.
NOT_SOLVED = {"rule_index.lp"}


# The checks of the input, solved alone before any question (mtgkb.checks).
INPUT_CHECKS = {"100_input_checks.lp", "input_messages.lp"}


def rule_files() -> list[Path]:
    """Every program a question needs: the CR encodings and the facts they read."""
    skip = NOT_SOLVED | INPUT_CHECKS
    kb = [f for f in sorted(data_dir("kb").glob("*.lp")) if f.name not in skip]
    rules = [f for f in sorted(data_dir("rules").glob("*.lp")) if f.name not in skip]
    return rules + kb


def input_check_files() -> list[Path]:
    """The programs of the input checks: the table rules, the variants, the texts."""
    return [
        data_dir("rules") / "100_input_checks.lp",
        data_dir("kb") / "input.lp",
        data_dir("kb") / "variants.lp",
        data_dir("kb") / "input_messages.lp",
    ]


def query_file(name: str) -> Path:
    """The program that asks one kind of question."""
    return data_dir("queries") / f"{name}.lp"
