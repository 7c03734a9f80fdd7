"""The errors of how an input is written speak the language asked (spec
section 10: `mtgkb run --lang it` gives every message in Italian), as the
errors of its names do (test_reference_errors_in_italian.py): every text of
the parser, of a JSON state and of reading a file is a kind of
kb/input_messages.lp with its Italian twin, said through
mtgkb.language.checks.say. The English texts are those the language always
gave; the Italian keep the words of the scenario language as written."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import clingo
import pytest
from helpers import ROOT
from helpers.message_tables import twinned_kinds

import mtgkb
from mtgkb import cli
from mtgkb.language.errors import ScenarioError
from mtgkb.language.json_state import schema
from mtgkb.rulebase.location import data_dir

TABLE = data_dir("kb") / "input_messages.lp"
PLACE = re.compile(r"\{\d+\}")
# The modules whose errors a user reads: the language package, and the
# reading of the input files of a run.
SOURCES = sorted((ROOT / "src" / "mtgkb" / "language").glob("*.py")) + [
    ROOT / "src" / "mtgkb" / "running" / "batch.py"
]
# The functions that say a text, and which of their call's arguments is the kind.
SAYING = {"say": 0, "fail": 1, "input_text": 0}
# The errors made from a message, and which argument is the message.
ERRORS = {"ScenarioError": 0, "state_error": 2, "_ReadStopped": 0}
TWO = "players: Ann, Ben\n"


def table() -> dict[str, dict[str, str]]:
    """Language -> kind -> text, as kb/input_messages.lp gives them."""
    ctl = clingo.Control(["--warn=none"])
    ctl.load(str(TABLE))
    ctl.ground([("base", [])])
    out: dict[str, dict[str, str]] = {"en": {}, "it": {}}
    for language, name in (("en", "input_message"), ("it", "input_message_it")):
        for atom in ctl.symbolic_atoms.by_signature(name, 2):
            kind, text = atom.symbol.arguments
            out[language][kind.name] = text.string
    return out


# -------------------- the kinds the code says, found in its syntax tree


class _Module:
    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.dicts = {
            target.id: node.value
            for node in self.tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        self.function_of: dict[ast.AST, ast.FunctionDef | None] = {}
        self._enclose(self.tree, None)
        self.class_of = {
            method: node.name
            for node in ast.walk(self.tree)
            if isinstance(node, ast.ClassDef)
            for method in node.body
            if isinstance(method, ast.FunctionDef)
        }

    def _enclose(self, node: ast.AST, function) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, ast.FunctionDef) else function
            self.function_of[child] = function
            self._enclose(child, inner)

    def calls(self):
        return [n for n in ast.walk(self.tree) if isinstance(n, ast.Call)]

    def where(self, node: ast.AST) -> str:
        return f"{self.path.name}:{node.lineno}"


def _name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _argument(call: ast.Call, index: int, keyword: str | None = None) -> ast.expr | None:
    if index < len(call.args) and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return None


class _Kinds:
    """Each kind a call of SAYING may be given, followed back through the
    parameters that pass a kind on (`self.number(tok, 0, "what_damage")`),
    the dicts that choose one and the names bound to one; what cannot be
    followed is a problem (a text the table may not have)."""

    def __init__(self, modules: list[_Module], known: set[str]):
        self.modules = modules
        self.known = known
        self.found: dict[str, str] = {}  # kind -> where it is said first
        self.problems: list[str] = []
        self.sites = 0
        self._followed: set[tuple] = set()

    def run(self) -> None:
        for module in self.modules:
            for call in module.calls():
                name = _name(call)
                if name not in SAYING:
                    continue
                expr = _argument(call, SAYING[name])
                if expr is None:
                    self.problems.append(f"{module.where(call)}: {name}() without a kind")
                    continue
                self.sites += 1
                self.kind(expr, module, module.function_of.get(call), module.where(call))

    def add(self, kind: str, where: str) -> None:
        self.found.setdefault(kind, where)

    def values(self, mapping: ast.Dict, module, function, where) -> None:
        for value in mapping.values:
            self.kind(value, module, function, where)

    def mapping(self, expr: ast.expr, module: _Module, function) -> ast.Dict | None:
        if isinstance(expr, ast.Dict):
            return expr
        if isinstance(expr, ast.Name):
            if expr.id in module.dicts:
                return module.dicts[expr.id]
            for node in ast.walk(function) if function is not None else ():
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                    if any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
                        return node.value
        return None

    def kind(self, expr: ast.expr, module: _Module, function, where: str) -> None:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            self.add(expr.value, where)
        elif isinstance(expr, ast.IfExp):
            self.kind(expr.body, module, function, where)
            self.kind(expr.orelse, module, function, where)
        elif (
            isinstance(expr, ast.BinOp)
            and isinstance(expr.left, ast.Constant)
            and isinstance(expr.left.value, str)
        ):  # "thing_" + a card type: some kinds of that family
            family = [k for k in self.known if k.startswith(expr.left.value)]
            if not family:
                self.problems.append(f"{where}: no kind starts with {expr.left.value!r}")
            for kind in family:
                self.add(kind, where)
        elif isinstance(expr, ast.Subscript) and self.mapping(expr.value, module, function):
            self.values(self.mapping(expr.value, module, function), module, function, where)
        elif (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Attribute)
            and expr.func.attr == "get"
            and self.mapping(expr.func.value, module, function)
            and len(expr.args) == 2
        ):
            self.values(self.mapping(expr.func.value, module, function), module, function, where)
            self.kind(expr.args[1], module, function, where)
        elif isinstance(expr, ast.Name) and function is not None:
            self.name(expr.id, module, function, where)
        else:
            self.problems.append(f"{where}: cannot tell the kind of {ast.unparse(expr)}")

    def name(self, name: str, module: _Module, function: ast.FunctionDef, where: str) -> None:
        params = [a.arg for a in function.args.posonlyargs + function.args.args]
        if name in params:
            if function.name not in SAYING:  # (the calls of those are followed each)
                self.passed_on(module, function, params, name)
            return
        bound = False
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets
            ):
                bound = True
                self.kind(node.value, module, function, where)
            elif (
                isinstance(node, ast.For)
                and isinstance(node.target, ast.Tuple)
                and [getattr(e, "id", None) for e in node.target.elts][1:] == [name]
                and isinstance(node.iter, ast.Call)
                and isinstance(node.iter.func, ast.Attribute)
                and node.iter.func.attr == "items"
                and self.mapping(node.iter.func.value, module, function)
            ):
                bound = True
                mapping = self.mapping(node.iter.func.value, module, function)
                self.values(mapping, module, function, where)
        if not bound and self.unpacked(name, function):
            # bound by unpacking (`other, line = seen[name]`): one of the kinds
            # the function writes in its tuples
            written = {
                elt.value
                for node in ast.walk(function)
                if isinstance(node, ast.Tuple)
                for elt in node.elts
                if isinstance(elt, ast.Constant) and elt.value in self.known
            }
            bound = bool(written)
            for kind in written:
                self.add(kind, where)
        if not bound:
            self.problems.append(f"{where}: cannot tell the kind {name}")

    @staticmethod
    def unpacked(name: str, function: ast.FunctionDef) -> bool:
        targets = [t for n in ast.walk(function) if isinstance(n, ast.Assign) for t in n.targets]
        targets += [n.target for n in ast.walk(function) if isinstance(n, ast.For)]
        return any(
            isinstance(t, ast.Tuple) and any(getattr(e, "id", None) == name for e in t.elts)
            for t in targets
        )

    @staticmethod
    def on_its_object(call: ast.Call, module: _Module, owner: str | None) -> bool:
        """Whether `call` calls a method of the class `owner`: on `self`, or
        on a name bound to `owner(...)` (`builder = _Builder(...)`)."""
        if not isinstance(call.func, ast.Attribute) or not isinstance(call.func.value, ast.Name):
            return False
        if call.func.value.id == "self":
            return True
        caller = module.function_of.get(call)
        return any(
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == owner
            and any(getattr(t, "id", None) == call.func.value.id for t in node.targets)
            for node in (ast.walk(caller) if caller is not None else ())
        )

    def passed_on(self, module: _Module, function, params: list[str], name: str) -> None:
        """The kinds the callers of `function` (in its module) give its parameter `name`."""
        key = (module.path, function.lineno, name)
        if key in self._followed:
            return
        self._followed.add(key)
        method = bool(params) and params[0] == "self"
        index = params.index(name) - (1 if method else 0)
        defaults = dict(zip(reversed(params), reversed(function.args.defaults), strict=False))
        for call in module.calls():
            if _name(call) != function.name:
                continue
            if method != self.on_its_object(call, module, module.class_of.get(function)):
                continue
            given = _argument(call, index, name)
            if given is None:
                given = defaults.get(name)
            if given is None:
                continue  # (the value of the parameter left to *args)
            self.kind(given, module, module.function_of.get(call), module.where(call))


@pytest.fixture(scope="module")
def texts():
    return table()


@pytest.fixture(scope="module")
def said(texts):
    kinds = _Kinds([_Module(p) for p in SOURCES], set(texts["en"]))
    kinds.run()
    return kinds


# -------------------- (1) the table


def test_every_input_text_is_followed_by_its_italian_twin():
    kinds = twinned_kinds(TABLE, "input_message")
    assert len(kinds) == len(set(kinds)), "a kind written twice"
    english, italian = table()["en"], table()["it"]
    assert set(kinds) == set(english) == set(italian)
    for kind, text in english.items():
        # an Italian text may leave out an English article ({1} in
        # "{1} {2} game ..."), never add a place the English has not
        assert set(PLACE.findall(italian[kind])) <= set(PLACE.findall(text)), kind


def test_the_texts_the_code_says_have_the_same_places_in_both_languages(texts, said):
    for kind in said.found:
        english, italian = texts["en"][kind], texts["it"][kind]
        assert sorted(PLACE.findall(english)) == sorted(PLACE.findall(italian)), kind
        # said in Italian (some words are the same in both: null, a number's sign)
        if kind not in {"type_null", "hint_known"} and any(c.isalpha() for c in english):
            assert english != italian, kind


def test_the_patterns_of_the_schema_are_said_as_the_schema_describes_them(texts):
    defs = schema()["$defs"]
    for name, kind in (
        ("player", "pattern_player"),
        ("name", "pattern_name"),
        ("playerOrName", "pattern_player_or_name"),
        ("word", "pattern_word"),
    ):
        assert texts["en"][kind] == defs[name]["description"], name


def test_no_text_of_the_table_is_left_unsaid(texts, said):
    # a kind is said by the code, or derived by the input checks of the rule base
    checks = (data_dir("rules") / "100_input_checks.lp").read_text(encoding="utf-8")
    derived = set(re.findall(r"input_error\((?:rule\([^)]*\)|no_rule),([a-z_]+),", checks))
    unsaid = set(texts["en"]) - set(said.found) - derived
    assert not unsaid, sorted(unsaid)


# -------------------- (2) every place that says an error


def test_every_error_the_language_says_is_a_kind_of_the_table(texts, said):
    assert not said.problems, said.problems
    missing = {k: w for k, w in said.found.items() if k not in texts["en"] or k not in texts["it"]}
    assert not missing, missing
    assert said.sites >= 120, said.sites
    # the parser's syntax errors, a state's, reading a file, the suggestions
    for kind in ("syntax_error", "state_takes_number", "read_failed", "hint_typo"):
        assert kind in said.found, kind


def _words(expr: ast.expr) -> list[str]:
    """The literal texts in `expr`, not inside a call (a kind given to say, ...)."""
    if isinstance(expr, ast.Call):
        return []
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    return [w for child in ast.iter_child_nodes(expr) for w in _words(child)]


def test_no_error_is_made_from_a_text_written_in_the_code():
    found = []
    for path in SOURCES:
        module = _Module(path)
        for call in module.calls():
            name = _name(call)
            if name not in ERRORS:
                continue
            message = _argument(call, ERRORS[name], "message")
            for text in _words(message) if message is not None else ():
                # only the place of the error: `FILE:1:1: error: `
                if re.search(r"[A-Za-z]{2,}", text.replace("error", "")):
                    found.append(f"{module.where(call)}: {text!r}")
    assert not found, found


# -------------------- (3) end to end


def run_here(capsys, *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


CASES = [
    pytest.param(
        TWO + 'Ann controls creature "Bear 2/2\n',
        "2:23",
        'syntax error: unterminated quoted name (or a backslash escape other than \\" and \\\\)',
        "errore di sintassi: nome tra virgolette non chiuso (o una sequenza di escape con la "
        'barra rovesciata diversa da \\" e \\\\)',
        id="missing quote",
    ),
    pytest.param(
        TWO + 'Ann controls creature "Bear" 2/2 with counters -1/-1 x\n',
        "2:54",
        "unexpected 'x'; 'counters -1/-1' takes a number",
        "termine inatteso 'x'; 'counters -1/-1' richiede un numero",
        id="counters without a number",
    ),
    pytest.param(
        TWO + 'Ann controls creature "Bear" 99999999999/2\n',
        "2:30",
        "power is too large (at most 536,870,911)",
        "la forza è troppo grande (al massimo 536.870.911)",
        id="number too large",
    ),
    pytest.param(
        TWO + "Ann loses -3 life\n",
        "2:11",
        "life lost may not be negative",
        "la vita persa non può essere un numero negativo",
        id="negative number",
    ),
    pytest.param(
        TWO + 'Ann controls creature "Bear" 2/2\n"Bear" attacks\n',
        "3:15",
        "syntax error: the statement ends too early; expected one of: a player name, "
        'a quoted name ("...")',
        "errore di sintassi: l'istruzione finisce troppo presto; atteso uno tra: "
        'un nome di giocatore, un nome tra virgolette ("...")',
        id="statement cut short",
    ),
    pytest.param(
        "players: Ann, Alone\n",
        "1:15",
        "'Alone' cannot be a player's name: the scenario language reads it as the word "
        "'alone' where a name may stand too",
        "'Alone' non può essere il nome di un giocatore: il linguaggio degli scenari lo "
        "legge come la parola 'alone' dove può stare anche un nome",
        id="keyword as a name",
    ),
    pytest.param(
        TWO + "life: Ann 20\nlife: Ann 3\n",
        "3:7",
        "the life of Ann is already given at line 2",
        "la vita di Ann è già indicata alla riga 2",
        id="given twice",
    ),
]


@pytest.mark.parametrize("text, at, english, italian", CASES)
def test_a_syntax_error_speaks_the_language_asked(tmp_path, capsys, text, at, english, italian):
    path = tmp_path / "s.mtg"
    path.write_text(text, encoding="utf-8")
    status, out, err = run_here(capsys, "run", "--lang", "it", str(path))
    assert status == 2 and out == ""
    assert err.splitlines()[0] == f"{path}:{at}: error: {italian}"
    status, _, err = run_here(capsys, "run", str(path))
    assert status == 2
    assert err.splitlines()[0] == f"{path}:{at}: error: {english}"


def test_an_unknown_line_is_said_in_italian_with_its_suggestion(tmp_path, capsys):
    path = tmp_path / "s.mtg"
    path.write_text(TWO + "foo bar\n", encoding="utf-8")
    status, _, err = run_here(capsys, "run", "--lang", "it", str(path))
    first = err.splitlines()[0]
    assert status == 2
    assert first.startswith(
        f"{path}:2:5: error: errore di sintassi: termine inatteso 'bar'; atteso uno tra: 's, "
    )
    assert first.endswith("; forse intendevi 'for' (non 'foo')?")
    status, _, err = run_here(capsys, "run", str(path))
    first = err.splitlines()[0]
    assert first.startswith(
        f"{path}:2:5: error: syntax error: unexpected 'bar'; expected one of: 's, "
    )
    assert first.endswith("; did you mean 'for' (not 'foo')?")


def test_the_command_says_it_in_italian(tmp_path):
    # the real command line: mtgkb run --lang it FILE
    path = tmp_path / "s.mtg"
    path.write_text(TWO + 'Ann controls creature "Bear" 2/2 with flyng\n', encoding="utf-8")
    cmd = [sys.executable, "-m", "mtgkb", "run", "--lang", "it", str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"{path}:2:39: error: abilità sconosciuta 'flyng'; forse intendevi 'flying'?",
        'Ann controls creature "Bear" 2/2 with flyng',
        " " * 38 + "^",
    ]


def test_a_file_that_cannot_be_read_is_said_in_italian(tmp_path, capsys):
    missing = str(tmp_path / "missing.mtg")
    status, _, err = run_here(capsys, "run", "--lang", "it", missing)
    assert status == 2
    assert err.startswith(f"{missing}:1:1: error: impossibile leggere il file: ")
    status, _, err = run_here(capsys, "run", missing)
    assert err.startswith(f"{missing}:1:1: error: cannot read the file: ")


@pytest.mark.parametrize(
    "state, english, italian",
    [
        (
            {"players": ["Ann 1", "Ben"]},
            '/players/0: "Ann 1" is not a player\'s name (letters, digits and _, not '
            "starting with a digit)",
            '/players/0: "Ann 1" non è il nome di un giocatore (lettere, cifre e _, senza '
            "iniziare con una cifra)",
        ),
        (
            {"players": ["Ann", "Ben"], "life": {"Ann": 20, "Ben": 20}, "lif": 1},
            "/lif: unknown field; did you mean 'life'? (known: ",
            "/lif: campo sconosciuto; forse intendevi 'life'? (noti: ",
        ),
        (
            {
                "players": ["Ann", "Ben"],
                "objects": [{"name": "Bear", "controller": "Ann", "type": "creature"}],
            },
            "/objects/0: 'power' is required",
            "/objects/0: 'power' è obbligatorio",
        ),
    ],
)
def test_a_json_state_error_speaks_the_language_asked(tmp_path, capsys, state, english, italian):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    status, _, err = run_here(capsys, "run", "--lang", "it", str(path))
    assert status == 2 and err.startswith(f"{path}: error: {italian}")
    status, _, err = run_here(capsys, "run", str(path))
    assert status == 2 and err.startswith(f"{path}: error: {english}")


def test_the_json_output_carries_the_italian_error(tmp_path, capsys):
    bad = tmp_path / "bad.mtg"
    bad.write_text(TWO + "Ann loses -3 life\n", encoding="utf-8")
    good = tmp_path / "good.mtg"
    good.write_text(TWO + "ask outcome\n", encoding="utf-8")
    italian = f"{bad}:2:11: error: la vita persa non può essere un numero negativo"
    status, out, _ = run_here(capsys, "run", "--jsonl", "--lang", "it", str(bad))
    assert status == 2
    assert json.loads(out)["error"].splitlines()[0] == italian
    status, out, _ = run_here(capsys, "run", "--json", "--lang", "it", str(bad), str(good))
    assert status == 2
    assert json.loads(out)[0]["error"].splitlines()[0] == italian


def test_the_python_api_says_a_syntax_error_in_italian():
    with pytest.raises(ScenarioError) as caught:
        mtgkb.run(TWO + 'Ann controls creature "Bear" 2/2 with counters -1/-1 x\n', lang="it")
    assert caught.value.message == "termine inatteso 'x'; 'counters -1/-1' richiede un numero"
    assert (caught.value.line, caught.value.column) == (2, 54)
    with pytest.raises(ScenarioError) as caught:
        mtgkb.run({"players": ["Ann", "Ben"], "game": 3}, lang="it")
    assert caught.value.message == "/game: deve essere una stringa"
