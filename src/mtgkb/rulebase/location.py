"""Where the rule base lives: the installed copy, a folder the user names
(`--rule-base DIR` or `MTGKB_RULE_BASE=DIR`), and the user's own files added
after it (`--with FILE.lp` or `MTGKB_WITH=FILE.lp:FILE.lp`).

`resolve_rule_base` is the one place that decides which rule base a command
uses; `use_rule_base` makes it the one of this process and of the processes
it starts (through the environment, which workers inherit). Nothing here is
kept between calls: an engine (mtgkb.engine.state.Engine) holds the rule base
it answers from.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import field
from functools import lru_cache
from pathlib import Path

from mtgkb.rulebase.records import record

_PACKAGE = Path(__file__).resolve().parents[1]  # mtgkb/, beside rulebase/
_CHECKOUT = _PACKAGE.parent.parent

#: The environment variables naming the rule base and the files added to it.
ENV_RULE_BASE = "MTGKB_RULE_BASE"
ENV_WITH = "MTGKB_WITH"

#: The folders of a rule base.
FOLDERS = ("rules", "kb", "queries")

# Facts about the rules that no game rule reads: left out of every solve.
NOT_SOLVED = {"rule_index.lp", "texts.lp"}


# The checks of the input, solved alone before any question (mtgkb.language.checks).
INPUT_CHECKS = {"100_input_checks.lp", "input_messages.lp"}

# The citations the `cite` tags ask for, written out for plain clingo
# (`clingo rules/*.lp kb/*.lp queries/Q.lp facts.lp`; made by `mtgkb program
# --citations`). mtgkb itself generates them when it reads the rule base
# (mtgkb.rulebase.citations), so it reads no file of this name: a stale copy
# never changes its answers (the audit says when the copy is stale).
GENERATED_CITATIONS = "generated_citations.lp"


def unparsable(files) -> list[str]:
    """clingo's `FILE:LINE:COL: error:` messages for the files it cannot parse."""
    if not files:
        return []  # (clingo's parser is not even imported: a cold run names no extra files)
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
    return found


def program_files(folder: Path) -> list[Path]:
    """The `*.lp` files of a folder of the rule base, as mtgkb reads them
    (less the copy of the generated citations kept for plain clingo)."""
    return [f for f in sorted(Path(folder).glob("*.lp")) if f.name != GENERATED_CITATIONS]


class RuleBaseError(FileNotFoundError):
    """The rule base named cannot be used (missing folder, missing file)."""


def installed_root() -> Path:
    """The folder of the installed copy: inside the package (a wheel), or the
    checkout it was installed from in editable mode."""
    for base in (_PACKAGE, _CHECKOUT):
        if all((base / name).is_dir() for name in FOLDERS):
            return base
    raise RuleBaseError(
        "mtgkb's rules/, kb/ and queries/ folders are missing from this installation"
    )


def file_stamp(files) -> tuple:
    """(path, mtime_ns, size) of each file that exists: what caches are keyed by."""
    out = []
    for f in files:
        path = os.fspath(f)
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.append((path, st.st_mtime_ns, st.st_size))
    return tuple(out)


def digest_of(
    root: Path,
    names: tuple[str, ...] = FOLDERS,
    extra: tuple[Path, ...] = (),
    known: dict[tuple, str] | None = None,
) -> str:
    """A short digest of the `*.lp` files of these folders of `root` (names
    and contents) and of the extra files: equal digests, equal rule bases.
    `known`: digests worked out before, keyed by the files' stamps (looked
    up, and the new one added)."""
    # (each file named by its path under `root`, as text: the digest is read
    # on every start, and pathlib's own relative paths cost more than the
    # hashing)
    named = [
        (f"{name}/{f.name}", f)
        for name in names
        for f in sorted((root / name).glob("*.lp"), key=lambda f: os.path.normcase(f.name))
    ]
    named += [
        (f.relative_to(root).as_posix() if f.is_relative_to(root) else f"with/{f.name}", f)
        for f in extra
    ]
    key = (str(root), names, file_stamp([f for _, f in named]))
    if known is not None and key in known:
        return known[key]
    h = hashlib.sha256()
    for rel, f in named:
        h.update(rel.encode("utf-8") + b"\0")
        try:
            with open(f, "rb") as read:
                h.update(read.read())
        except OSError:
            pass
        h.update(b"\0")
    digest = h.hexdigest()[:12]
    if known is not None:
        known.clear()  # one version of the files at a time
        known[key] = digest
    return digest


@record(frozen=True)
class RuleBase:
    """A rule base: the folder holding rules/, kb/ and queries/, and the
    user's files added after it."""

    root: Path
    extra: tuple[Path, ...] = field(default=())
    # this rule base's digests, by the stamps of its files (see `digest`)
    _digests: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    def folder(self, name: str) -> Path:
        return self.root / name

    def syntax_errors(self) -> list[str]:
        """clingo's `FILE:LINE:COL: error:` messages for every file of this rule
        base (rules/, kb/, queries/, the added files) it cannot parse; none when
        all parse. Asked when a run fails, to say which file is at fault."""
        files = [f for name in FOLDERS for f in sorted(self.folder(name).glob("*.lp"))]
        return unparsable([*files, *self.extra])

    def grounding_errors(self) -> list[str]:
        """clingo's `FILE:LINE:COL: error:` messages for the programs of this
        rule base that it cannot read or ground (an unsafe variable, ...):
        the syntax errors first; none when every program grounds."""
        found = self.syntax_errors()
        if found:
            return found
        from mtgkb.rulebase.grounding import grounding_errors

        queries = sorted(self.folder("queries").glob("*.lp"))
        return grounding_errors([*self.solved_files(), *queries])

    def solved_files(self) -> list[Path]:
        """Every program a question needs: the CR encodings, the facts they
        read, then the user's added files (not the input checks)."""
        skip = NOT_SOLVED | INPUT_CHECKS
        kb = [f for f in program_files(self.folder("kb")) if f.name not in skip]
        rules = [f for f in program_files(self.folder("rules")) if f.name not in skip]
        return rules + kb + list(self.extra)

    @property
    def digest(self) -> str:
        return digest_of(self.root, FOLDERS, self.extra, self._digests)

    def describe(self) -> dict:
        """What answers and reports say of the rule base they used."""
        out: dict = {"path": str(self.root), "digest": self.digest}
        if self.extra:
            out["with"] = [str(p) for p in self.extra]
        return out


def _check_root(root: Path) -> Path:
    if not root.is_dir():
        raise RuleBaseError(f"{root}: no such folder")
    missing = [name for name in FOLDERS if not (root / name).is_dir()]
    if missing:
        raise RuleBaseError(
            f"{root}: not a rule base (it has no {', '.join(n + '/' for n in missing)})"
        )
    return root


def _check_extra(path: Path) -> Path:
    if not path.is_file():
        raise RuleBaseError(f"{path}: no such file")
    if path.suffix != ".lp":
        raise RuleBaseError(f"{path}: an added file must be an ASP program ending in .lp")
    return path


def resolve_rule_base(path: str | os.PathLike | None = None, with_files=None, env=None) -> RuleBase:
    """The rule base a command uses: `path` (the `--rule-base` option), else
    `MTGKB_RULE_BASE`, else the installed copy; plus `with_files` (the
    `--with` options), else the files of `MTGKB_WITH`. Raises RuleBaseError
    for a folder or file that is missing."""
    env = os.environ if env is None else env
    if path is None and env.get(ENV_RULE_BASE):
        path = env[ENV_RULE_BASE]
    root = _check_root(Path(path).resolve()) if path is not None else installed_root()
    if with_files is None:
        with_files = [p for p in env.get(ENV_WITH, "").split(os.pathsep) if p]
    extra = tuple(_check_extra(Path(p).resolve()) for p in with_files)
    return RuleBase(root, extra)


def current() -> RuleBase:
    """The rule base of this process, as the environment names it now (read
    at each call: an engine keeps the one it was made with). Resolving the
    names costs a dozen system calls, and a scenario asks for a folder of the
    rule base some thirty times: a resolution is kept for the same
    environment and working folder while its folder is still there."""
    try:
        cwd = os.getcwd()
    except OSError:  # the working folder is gone: resolve again each time
        return resolve_rule_base()
    key = (os.environ.get(ENV_RULE_BASE) or "", os.environ.get(ENV_WITH) or "", cwd)
    base = _resolved(*key)
    if not base.root.is_dir():
        _resolved.cache_clear()
        base = _resolved(*key)
    return base


@lru_cache(maxsize=4)
def _resolved(path: str, with_files: str, cwd: str) -> RuleBase:
    """`resolve_rule_base` for these values of the environment, in `cwd`."""
    return resolve_rule_base(env={ENV_RULE_BASE: path, ENV_WITH: with_files})


def use_rule_base(path=None, with_files=None) -> RuleBase:
    """Resolve the rule base and make it this process's and its children's."""
    base = resolve_rule_base(path, with_files)
    os.environ[ENV_RULE_BASE] = str(base.root)
    if base.extra:
        os.environ[ENV_WITH] = os.pathsep.join(str(p) for p in base.extra)
    else:
        os.environ.pop(ENV_WITH, None)
    return current()


def checkout_note(cwd: Path | None = None, base: RuleBase | None = None) -> str | None:
    """One line when the current folder is an mtgkb checkout whose rules/, kb/
    or queries/ differ from the rule base in use; None otherwise."""
    cwd = Path(cwd or Path.cwd()).resolve()
    base = base or current()
    try:
        project = (cwd / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if 'name = "mtgkb"' not in project or not all((cwd / n).is_dir() for n in FOLDERS):
        return None
    if cwd == base.root:
        return None
    differ = [n for n in FOLDERS if digest_of(cwd, (n,)) != digest_of(base.root, (n,))]
    if not differ:
        return None
    names = ", ".join(f"{n}/" for n in differ)
    return (
        f"mtgkb: note: this folder's {names} differ from the rule base in use ({base.root}); "
        "`--rule-base .` answers from this folder"
    )


def data_dir(name: str) -> Path:
    """The folder `rules`, `kb` or `queries` of the rule base in use."""
    return current().folder(name)


def rule_files() -> list[Path]:
    """Every program a question needs: the CR encodings, the facts they read
    and the user's added files."""
    return current().solved_files()


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
