"""Many scenarios at once: for questions with one answer per scenario, a chunk
of scenarios is grounded as one program, every atom given the scenario as a
first argument (`p(X) :- q(X)` becomes `p(S,X) :- q(S,X)`), so the scenarios
share no atom and a model of the whole is a model of each.
"""

from __future__ import annotations

import bisect
import copy
import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path

import clingo

from mtgkb.engine.analysis import FactReadings, is_plain
from mtgkb.engine.programs import external_parts, quiet, solve_within, stamp
from mtgkb.engine.rule_base import calls_functions_in
from mtgkb.engine.sharing import generated_location, guard_of
from mtgkb.engine.solve import PLAIN_NAME, SolveTimeout
from mtgkb.engine.state import Engine
from mtgkb.rulebase.control import new_control

# --------------------------------------------------------------------------
# Many scenarios in one grounding
#
# For a question with one answer per scenario (one optimal model whose shown
# atoms are the answer), a batch grounds and solves a chunk of scenarios at
# once: every atom of the program gets the scenario as a first argument
# (`p(X) :- q(X)` becomes `p(S,X) :- q(S,X)`), so the scenarios share no atom
# and a model of the whole is a model of each; the rule base's set-up cost
# is paid once per chunk instead of once per scenario.

SCENARIO_VAR = "MTGKB_SCENARIO"
SCENARIO_PRED = "_mtgkb_scenario"


class _Unsupported(Exception):
    """A statement the scenario argument cannot be added to."""


def _with_scenario(term, var):
    T = clingo.ast.ASTType
    kind = term.ast_type
    if kind == T.Function:
        return term.update(arguments=[var, *term.arguments])
    if kind == T.Pool:
        return term.update(arguments=[_with_scenario(t, var) for t in term.arguments])
    if kind == T.UnaryOperation:
        return term.update(argument=_with_scenario(term.argument, var))
    if kind == T.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        symbol = term.symbol
        args = [clingo.ast.SymbolicTerm(term.location, a) for a in symbol.arguments]
        return clingo.ast.Function(term.location, symbol.name, [var, *args], 0)
    raise _Unsupported(str(term))


def _given_scenario(term, var):
    """_with_scenario on a term of a copy, in place where it can be: the
    term, or the one to put in its place (an atom written as a symbol)."""
    T = clingo.ast.ASTType
    kind = term.ast_type
    if kind == T.Function:
        term.arguments.insert(0, var)
        return term
    if kind == T.Pool:
        for i, t in enumerate(term.arguments):
            term.arguments[i] = _given_scenario(t, var)
        return term
    if kind == T.UnaryOperation:
        term.argument = _given_scenario(term.argument, var)
        return term
    return _with_scenario(term, var)


def _show_signature(node, var, loc):
    """`#show p/n.` as the term (scenario, p(X1,...,Xn)) for each p(S,X1,...,Xn):
    a model then names each scenario's atoms as they are, with nothing to
    make again in Python."""
    import clingo.ast

    args = [clingo.ast.Variable(loc, f"X{i}") for i in range(node.arity)]
    shown = clingo.ast.Function(loc, node.name, args, 0)
    atom = clingo.ast.Function(loc, node.name, [var, *args], 0)
    if not node.positive:
        shown = clingo.ast.UnaryOperation(loc, clingo.ast.UnaryOperator.Minus, shown)
        atom = clingo.ast.UnaryOperation(loc, clingo.ast.UnaryOperator.Minus, atom)
    body = [clingo.ast.Literal(loc, clingo.ast.Sign.NoSign, clingo.ast.SymbolicAtom(atom))]
    return clingo.ast.ShowTerm(loc, clingo.ast.Function(loc, "", [var, shown], 0), body)


class _OtherNode(Exception):
    """A node _AtomWalk does not know (the Transformer then walks it)."""


class _AtomWalk:
    """Gives every atom of a copy of a statement the scenario argument, in
    place (a node's `update` reads every one of its fields back from clingo
    and makes the node again: most of the 0.65 ms a statement the
    Transformer took), reading only the nodes that may hold an atom: a
    rule's head and body, a show's or a #minimize's body (literals,
    conditional literals, aggregates, their elements and conditions).
    Raises _OtherNode for another kind of node, _Unsupported for a theory
    atom or a term the argument does not fit."""

    def __init__(self, var) -> None:
        import clingo.ast

        self.var = var
        self.T = clingo.ast.ASTType

    def statement(self, node) -> bool:
        """Whether a plain positive atom of its body binds the scenario."""
        T = self.T
        kind = node.ast_type
        if kind == T.Rule:
            self.head(node.head)
        elif kind not in (T.ShowTerm, T.Minimize):
            raise _OtherNode
        return self.body(node.body)

    def body(self, literals) -> bool:
        """Whether one of `literals` is a plain positive atom."""
        T = self.T
        plain = False
        for lit in literals:
            kind = lit.ast_type
            if kind == T.Literal:
                if self.literal(lit) and not plain:
                    plain = lit.sign == clingo.ast.Sign.NoSign
            elif kind == T.ConditionalLiteral:
                self.conditional(lit)
            else:
                raise _OtherNode
        return plain

    def head(self, head) -> None:
        T = self.T
        kind = head.ast_type
        if kind == T.Literal:
            self.literal(head)
        elif kind in (T.Aggregate, T.Disjunction, T.HeadAggregate):
            self.elements(head, kind)
        elif kind == T.TheoryAtom:
            raise _Unsupported("theory atom")
        else:
            raise _OtherNode

    def elements(self, node, kind) -> None:
        """The elements of an aggregate or a disjunction of this `kind`."""
        T = self.T
        for element in node.elements:
            if kind == T.HeadAggregate:
                self.conditional(element.condition)
            elif kind == T.BodyAggregate:
                self.body(element.condition)
            else:  # (a choice, a head or body #count-like aggregate, a disjunction)
                self.conditional(element)

    def conditional(self, lit) -> None:
        if lit.ast_type != self.T.ConditionalLiteral:
            raise _OtherNode
        self.literal(lit.literal)
        self.body(lit.condition)

    def literal(self, lit) -> bool:
        """Whether `lit`'s atom is a symbolic atom."""
        T = self.T
        if lit.ast_type != T.Literal:
            raise _OtherNode
        atom = lit.atom
        kind = atom.ast_type
        if kind == T.SymbolicAtom:
            atom.symbol = _given_scenario(atom.symbol, self.var)
            return True
        if kind in (T.Aggregate, T.BodyAggregate):
            self.elements(atom, kind)
        elif kind == T.TheoryAtom:
            raise _Unsupported("theory atom")
        elif kind not in (T.Comparison, T.BooleanConstant):
            raise _OtherNode
        return False


class _Rewrite:
    """Gives one statement at a time the scenario argument: its atoms
    `p(S,X)`, its body the scenario bound, its shows (scenario, term). About
    0.18 ms of Python a statement (measured on the rule base's statements;
    clingo's Transformer over every node, and `update`, took 0.62 ms): a
    batch rewrites a statement only once one of its chunks may fire it."""

    def __init__(self) -> None:
        import clingo.ast

        self.loc = loc = generated_location()
        self.var = var = clingo.ast.Variable(loc, SCENARIO_VAR)
        self.scenario = clingo.ast.Literal(
            loc,
            clingo.ast.Sign.NoSign,
            clingo.ast.SymbolicAtom(clingo.ast.Function(loc, SCENARIO_PRED, [var], 0)),
        )

        class AddScenario(clingo.ast.Transformer):
            def visit_SymbolicAtom(self, atom):
                return atom.update(symbol=_with_scenario(atom.symbol, var))

            def visit_TheoryAtom(self, atom):
                raise _Unsupported("theory atom")

        self.transformer = AddScenario()
        self.walk = _AtomWalk(var)

    def add(self, node):
        """A copy of `node` (none of its nodes shared with it) with the
        scenario argument in every atom: given in place (_AtomWalk), or for
        a node of a kind the walk does not know, by the Transformer."""
        return self._added(node)[0]

    def _added(self, node) -> tuple:
        """`add`, and whether a plain positive atom of its body binds the
        scenario."""
        made = copy.deepcopy(node)  # (one call into clingo)
        try:
            return made, self.walk.statement(made)
        except _OtherNode:
            made = copy.deepcopy(self.transformer(node))
            return made, any(is_plain(lit) for lit in made.body)

    def __call__(self, node):
        """The statement with the scenario argument (raises _Unsupported)."""
        import clingo.ast

        T = clingo.ast.ASTType
        kind, var = node.ast_type, self.var
        if kind in (T.Rule, T.ShowTerm, T.Minimize):
            made, bound = self._added(node)  # (a copy: set in place)
            if kind == T.ShowTerm:
                made.term = clingo.ast.Function(self.loc, "", [var, made.term], 0)
            elif kind == T.Minimize:
                made.terms.insert(0, var)
            if not bound:
                made.body.append(self.scenario)
            return made
        if kind == T.ShowSignature and node.name:
            return _show_signature(node, var, self.loc)
        if kind in (T.ShowSignature, T.Defined):
            return node.update(arity=node.arity + 1) if node.name else node
        if kind in (T.Definition,) or (kind == T.Program and node.name == "base"):
            return node
        raise _Unsupported(str(kind))


def _read_statements(text: str) -> list[tuple[int | None, object]]:
    """The statements of `text` as they are, each with the line of `text`
    it was read from (None: added here), for `_Rewrite` to give the scenario
    argument; raises _Unsupported when the program shows every atom."""
    import clingo.ast

    T = clingo.ast.ASTType
    read: list = []

    def take(node) -> None:
        if node.ast_type != T.Comment:
            read.append((node.location.begin.line, node))

    clingo.ast.parse_string(text, take, logger=quiet)
    return _hiding(read)


def _hiding(read: list) -> list:
    """`read` (place, statement) with every atom hidden but the shown terms;
    raises _Unsupported when the program shows every atom."""
    import clingo.ast

    # a `#show p/n.` or `#show.` hides the atoms it does not name
    if not any(node.ast_type == clingo.ast.ASTType.ShowSignature for _, node in read):
        # every atom is shown, and the model's atoms would not all be
        # (scenario, term): such a program is solved file by file
        raise _Unsupported("no #show p/n")
    # the shown atoms become terms: hide every atom, as the program did
    return [*read, (None, clingo.ast.ShowSignature(generated_location(), "", 0, True))]


def described_program(
    described, indices: Sequence[int], calls_functions: bool = True
) -> ScenarioProgram | None:
    """The statements `indices` of a DescribedProgram (the input checks) to
    be given the scenario argument, each with the statements it is, for
    forward slicing over all of them; None when the program shows every atom.
    `calls_functions`: whether they may call an external function."""
    described.nodes(indices)  # (parsed in one call)
    statements = [
        (group, node)
        for _, group in described.program_groups(indices)
        for node in described.nodes(group[:1])
    ]
    try:
        statements = _hiding(statements)
    except _Unsupported:
        return None
    return ScenarioProgram(
        statements, list(indices), {}, described, calls_functions=calls_functions
    )


class Readings:
    """What a chunk's solves read of its facts, read from clingo once for all
    of them (the questions of a chunk share their files' facts; reading a
    symbol's name and arguments is several calls into clingo): each fact's
    name, arguments and sign, and what forward slicing reads of it, for the
    analysis it was read for."""

    def __init__(self) -> None:
        #: fact: (name, arguments, positive, {scenario number: the fact with it})
        self.parts: dict[clingo.Symbol, tuple] = {}
        self._analysis = None
        self._slicing: dict = {}

    def slicing(self, analysis) -> dict:
        """The readings of forward slicing (Analysis.sources) for `analysis`."""
        if analysis is not self._analysis:
            self._analysis, self._slicing = analysis, {}
        return self._slicing


class ScenarioProgram:
    """A program to be given the scenario argument: the rule base
    (backward-sliced for a query) and the query, or the input checks. Its
    statements, each with the statements of `described` (the program's
    DescribedProgram) it was read from (None: the query's, or added), for
    forward slicing."""

    def __init__(
        self,
        statements: list,
        kept: list[int] | None,
        derived: dict | None,
        described=None,
        queries: tuple[str, ...] = (),
        calls_functions: bool = True,
    ):
        self.statements = statements  # [(statements of `described`, or None; node)]
        self.kept = kept  # None: no forward slicing
        self.derived = derived  # what the query derives (Analysis.query_heads)
        self.described = described
        #: the rule base's queries it answers, sliced backward again after
        #: forward slicing (Analysis.needed); none for the input checks
        self.queries = queries
        #: whether a statement may call an external function (`@f(...)`, a
        #: `#script`'s), which a ground() given a context (ChunkFacts) would
        #: look for in the context: then the facts go by the backend
        self.calls_functions = calls_functions
        self._rewrite = _Rewrite()
        self._made: dict[int, object] = {}  # by place: the statement rewritten

    @property
    def rewritten(self) -> int:
        """How many of its statements are rewritten already (kept for the next chunk)."""
        return len(self._made)

    def live(
        self,
        instances,
        readings: Readings | None = None,
        signatures: Sequence[Sequence[tuple[str, int]] | None] | None = None,
        arguments: Sequence[Sequence[tuple[clingo.Symbol, ...]] | None] | None = None,
    ) -> list:
        """The statements, with the scenario argument, that may fire for some
        of `instances` (the facts of each scenario): what cannot fire for
        any leaves the chunk's grounding. Where every instance's first
        facts have their `signatures` known (and their `arguments`, where
        known: fact_arguments), forward slicing reads those, as a file alone
        does (FactReadings), not the symbols. Raises _Unsupported for a
        statement the argument does not fit."""
        places = range(len(self.statements))
        if self.kept is not None:
            analysis = self.described
            if signatures is not None and None not in signatures:
                sources = _known_sources(analysis, self.derived, instances, signatures, arguments)
            else:
                facts = itertools.chain.from_iterable(instances)
                kept = None if readings is None else readings.slicing(analysis)
                sources = analysis.sources(facts, self.derived, kept)
            fired = analysis.live(self.kept, sources)
            live = set(analysis.needed(self.queries, fired) if self.queries else fired)
            groups = [group for group, _ in self.statements]
            places = [i for i in places if groups[i] is None or not live.isdisjoint(groups[i])]
        out = []
        for i in places:
            if i not in self._made:
                self._made[i] = self._rewrite(self.statements[i][1])
            out.append(self._made[i])
        return out


def _known_sources(analysis, derived, instances, signatures, arguments) -> dict[str, set[tuple]]:
    """Analysis.sources of every instance's facts with what the queries
    derive (`derived`), each instance read with the signatures (and the
    arguments, where known) its first facts were made with."""
    out = {name: set(fixed) for name, fixed in (derived or {}).items()}
    for n, facts in enumerate(instances):
        made = None if arguments is None else arguments[n]
        readings = FactReadings(facts, signatures[n], made)
        for name, values in analysis.sources(facts, readings=readings).items():
            out.setdefault(name, set()).update(values)
    return out


def _grounded(
    program: ScenarioProgram,
    instances: Sequence[Sequence[clingo.Symbol]],
    readings: Readings | None = None,
    signatures: Sequence[Sequence[tuple[str, int]] | None] | None = None,
    switchable: Sequence[Sequence[clingo.Symbol]] | None = None,
    arguments: Sequence[Sequence[tuple[clingo.Symbol, ...]] | None] | None = None,
) -> clingo.Control | None:
    """`program` grounded with the facts of every instance, each given its
    number as the scenario argument (chunk_control); None when there is no
    instance or a statement the scenario argument does not fit."""
    made = chunk_control(program, instances, readings, signatures, switchable, arguments)
    if made is None:
        return None
    ctl, given, switches = made
    ctl.ground([("base", []), *switches], context=given)
    return ctl


def _symbol_in_scenario(symbol: clingo.Symbol, number: int) -> clingo.Symbol:
    """A function symbol with the scenario `number` as its first argument."""
    return clingo.Function(symbol.name, [clingo.Number(number), *symbol.arguments], symbol.positive)


class ChunkFacts:
    """The facts of a chunk's scenarios given to gringo as the values of an
    external function, each scenario's own symbols: one rule for each (name,
    arity), `p(S,X0) :- _mtgkb_scenario(S), p(X0) = @mtgkb_chunk_facts(S,K).`,
    which gringo grounds as the facts `p(S,...)` themselves, one call a
    scenario and signature. The backend took two calls into clingo a fact,
    and a symbol made again with the scenario argument (measured: an eighth
    of a batch's time per scenario). The context of the chunk's ground().
    Only the facts whose (name, arity) the caller knows (`signatures`, one
    list or None for each instance: its first facts') and whose name is
    plain come so; `others`, (scenario number, fact), by the backend."""

    def __init__(
        self,
        instances: Sequence[Sequence[clingo.Symbol]],
        signatures: Sequence[Sequence[tuple[str, int]] | None],
    ):
        numbers: dict[tuple[str, int], int] = {}  # signature -> K (-1: not plain)
        plain = 0  # (how many signatures are plain so far)
        self._values: dict[tuple[int, int], list[clingo.Symbol]] = {}
        self.others: list[tuple[int, clingo.Symbol]] = []
        for number, (facts, signed) in enumerate(zip(instances, signatures, strict=True)):
            if signed is None or len(signed) > len(facts):
                self.others += [(number, fact) for fact in facts]
                continue
            for fact, signature in zip(facts, signed, strict=False):
                k = numbers.get(signature)
                if k is None:
                    k = -1
                    if PLAIN_NAME.fullmatch(signature[0]):
                        k, plain = plain, plain + 1
                    numbers[signature] = k
                if k < 0:
                    self.others.append((number, fact))
                else:
                    self._values.setdefault((number, k), []).append(fact)
            self.others += [(number, fact) for fact in facts[len(signed) :]]
        lines = []
        for (name, arity), k in numbers.items():
            if k < 0:
                continue
            args = [f"X{i}" for i in range(arity)]
            term = f"{name}({','.join(args)})" if arity else name
            atom = f"{name}({','.join([SCENARIO_VAR, *args])})"
            lines.append(
                f"{atom} :- {SCENARIO_PRED}({SCENARIO_VAR}), "
                f"{term} = @mtgkb_chunk_facts({SCENARIO_VAR},{k})."
            )
        self.text = "\n".join(lines)

    def mtgkb_chunk_facts(self, scenario: clingo.Symbol, k: clingo.Symbol) -> list[clingo.Symbol]:
        return self._values.get((scenario.number, k.number), [])


def chunk_control(
    program: ScenarioProgram,
    instances: Sequence[Sequence[clingo.Symbol]],
    readings: Readings | None = None,
    signatures: Sequence[Sequence[tuple[str, int]] | None] | None = None,
    switchable: Sequence[Sequence[clingo.Symbol]] | None = None,
    arguments: Sequence[Sequence[tuple[clingo.Symbol, ...]] | None] | None = None,
) -> tuple[clingo.Control, ChunkFacts | None, list] | None:
    """A Control given `program` and the facts of every instance, each with
    its number as the scenario argument, not yet grounded (bench/issue26.py
    times gringo's part alone), the context to ground it with (None: no
    context) and the parts to ground beside "base" (the externals); None as
    for `_grounded`. `signatures`: the (name, arity) of each instance's
    first facts, where the caller knows them (ChunkFacts, and forward
    slicing with `arguments`, their arguments: ScenarioProgram.live); `switchable`:
    atoms of each instance declared free externals (each solve assumes each
    true or false), with its number as the scenario argument."""
    import clingo.ast

    if not instances:
        return None
    readings = Readings() if readings is None else readings
    sliced = instances
    if switchable is not None:  # (read as facts by forward slicing: they may be true)
        sliced = [[*facts, *more] for facts, more in zip(instances, switchable, strict=True)]
    try:
        statements = program.live(sliced, readings, signatures, arguments)
    except _Unsupported:
        return None
    ctl = new_control(["--project=show", "--models=1"], quiet)
    with clingo.ast.ProgramBuilder(ctl) as builder:
        for node in statements:
            builder.add(node)
    given = None
    others: Sequence[tuple[int, clingo.Symbol]]
    if signatures is not None and not program.calls_functions:
        given = ChunkFacts(instances, signatures)
        ctl.add("base", [], given.text)
        others = given.others
    else:
        others = [(number, fact) for number, facts in enumerate(instances) for fact in facts]
    read = readings.parts
    with ctl.backend() as backend:
        add_atom, add_rule = backend.add_atom, backend.add_rule
        for number in range(len(instances)):
            add_rule([add_atom(clingo.Function(SCENARIO_PRED, [clingo.Number(number)]))])
        for number, fact in others:
            parts = read.get(fact)
            if parts is None:
                parts = read[fact] = (fact.name, fact.arguments, fact.positive, {})
            name, args, positive, made = parts
            # (the chunk's programs share their facts: each made once)
            atom = made.get(number)
            if atom is None:
                sid = clingo.Number(number)
                atom = made[number] = clingo.Function(name, [sid, *args], positive)
            add_rule([add_atom(atom)])
    externals = [
        _symbol_in_scenario(atom, number)
        for number, atoms in enumerate(switchable or ())
        for atom in atoms
    ]
    return ctl, given, external_parts(ctl, externals, "free")


def solve_merged(
    queries: Sequence[str],
    files: Sequence[Sequence[clingo.Symbol]],
    asked: Sequence[Mapping[str, Sequence[clingo.Symbol]]],
    *,
    engine: Engine | None = None,
    readings: Readings | None = None,
    signatures: Sequence[Sequence[tuple[str, int]] | None] | None = None,
    arguments: Sequence[Sequence[tuple[clingo.Symbol, ...]] | None] | None = None,
    timeout: float | None = None,
) -> dict[str, list[list[clingo.Symbol] | None]] | None:
    """solve_many for several single-model queries at once, in one grounding
    (the rule base's statements they share grounded once for a chunk, not
    once a query): each file (its facts but the questions') a scenario; a
    query's statements switched on (`_mtgkb_query(S, Query)`, as a file's
    grounding switches them: mtgkb.engine.solve.Grounding) for the files
    that ask it, with their `asked` atoms for it (query -> its question's
    atoms: a query a file does not ask is not among them) true, the others
    false; one solve a query. For each query, the shown atoms of one
    (optimal) model for each file (None: the file does not ask it). None
    when this cannot be done (the queries cannot share a program, a
    statement the scenario argument does not fit, no model)."""
    engine = Engine() if engine is None else engine
    program = scenario_program(tuple(queries), engine)
    if program is None:
        return None
    guards = {q: guard_of(q) for q in queries}
    switched = [
        list(dict.fromkeys([*guards.values(), *(a for q in queries for a in given.get(q, ()))]))
        for given in asked
    ]
    ctl = _grounded(program, files, readings, signatures, switched, arguments)
    if ctl is None:
        return None
    externals = [
        {atom: _symbol_in_scenario(atom, n) for atom in atoms} for n, atoms in enumerate(switched)
    ]
    out: dict[str, list[list[clingo.Symbol] | None]] = {}
    for query in queries:
        # the query's guard and its question's atoms true for the files that
        # ask it, every other one false: assumed (the externals are free; a
        # solve's assumptions cost clasp next to nothing, where assigning an
        # external is a call into clingo that took 20 microseconds)
        assumed = []
        for n, given in enumerate(asked):
            on = {guards[query], *given[query]} if query in given else ()
            assumed += [(symbol, atom in on) for atom, symbol in externals[n].items()]
        model = _optimal_model(ctl, timeout, assumed)
        shown = None if model is None else _by_scenario(model, len(asked))
        if shown is None:
            return None
        out[query] = [
            atoms if query in given else None for atoms, given in zip(shown, asked, strict=True)
        ]
    return out


def satisfiable_scenarios(
    program: ScenarioProgram,
    instances: Sequence[Sequence[clingo.Symbol]],
    watch: tuple[str, int],
    *,
    timeout: float | None = None,
) -> tuple[bool, set[int]] | None:
    """For many instances grounded and solved together: whether every one of
    them has a model (one model of the whole is one of each), and the
    instances whose grounding holds an atom `watch` (name, arity: an atom
    some model may hold; none: none can). None when this cannot be done
    (a statement the scenario argument does not fit). Raises SolveTimeout."""
    ctl = _grounded(program, instances)
    if ctl is None:
        return None
    name, arity = watch
    watched = {
        atom.symbol.arguments[0].number
        for atom in ctl.symbolic_atoms.by_signature(name, arity + 1)
        if atom.symbol.arguments[0].type == clingo.SymbolType.Number
    }
    ctl.configuration.solve.opt_mode = "ignore"
    result = solve_within(ctl, timeout, SolveTimeout)
    return bool(result.satisfiable), watched


def fact_atoms_many(
    files: Sequence[str],
    instances: Sequence[Sequence[clingo.Symbol]],
    wanted: Sequence[tuple[str, int]],
    engine: Engine,
    signatures: Sequence[Sequence[tuple[str, int]] | None] | None = None,
) -> list[list[clingo.Symbol]] | None:
    """The programs `files` alone (not the rule base: kb/not_modelled.lp and
    the house rules, say), grounded once with the facts of every instance:
    for each instance, the atoms of the signatures `wanted` that are facts
    of its grounding (a choice's atoms are none). None when that cannot be
    done (a file clingo cannot read, a statement the scenario argument does
    not fit): then ground each instance alone, which says why. The rewritten
    statements are kept by `engine` while the files are unchanged."""
    import clingo.ast

    key = ("files", stamp([Path(f) for f in files]))
    programs = engine.scenario_programs
    if key not in programs:
        try:
            text = "\n".join(Path(f).read_text(encoding="utf-8") for f in files)
            read: list = []
            clingo.ast.parse_string(text, read.append, logger=quiet)
        except (OSError, UnicodeDecodeError, RuntimeError):
            program = None
        else:
            statements = [(None, n) for n in read if n.ast_type != clingo.ast.ASTType.Comment]
            calls = calls_functions_in(text)
            program = ScenarioProgram(statements, None, None, calls_functions=calls)
        for old in [k for k in programs if k[0] == "files"]:
            del programs[old]
        programs[key] = program
    program = programs[key]
    if program is None:
        return None
    try:
        ctl = _grounded(program, instances, signatures=signatures)
    except RuntimeError:
        return None
    if ctl is None:
        return None
    found: list[list[clingo.Symbol]] = [[] for _ in instances]
    number = clingo.SymbolType.Number
    for name, arity in wanted:
        for atom in ctl.symbolic_atoms.by_signature(name, arity + 1):
            if not atom.is_fact:
                continue
            args = atom.symbol.arguments
            if args[0].type == number and 0 <= args[0].number < len(instances):
                found[args[0].number].append(clingo.Function(name, args[1:]))
    return found


def scenario_program(query: str | tuple[str, ...], engine: Engine) -> ScenarioProgram | None:
    """The scenario program of `query` (None when it cannot be one: the
    program shows every atom, or does not parse; a statement the scenario
    argument does not fit is found when a chunk first needs it). Kept by the
    engine (`engine.scenario_programs`) for the next chunk. Several queries
    (a tuple) share one program where each can be (LoadedRuleBase.guardable):
    their statements made conditional on `_mtgkb_query(Name)`, as a file's
    grounding shares them (mtgkb.engine.solve.Grounding); None else."""
    queries = (query,) if isinstance(query, str) else tuple(query)
    _SCENARIO_PROGRAMS = engine.scenario_programs
    base = engine.rule_base()
    key = (base.stamp, query)
    if key not in _SCENARIO_PROGRAMS:
        analysis = base.analysis()
        slicing = engine.options.slicing
        known = all(q in analysis.queries for q in queries)
        kept = analysis.kept(queries) if slicing and known else None
        rules = base.text if kept is None else analysis.program(kept)
        # forward slicing needs what the queries derive
        derived = None if kept is None else analysis.query_heads(queries)
        if len(queries) == 1:
            text: str | None = base.query_text(queries[0])
        elif all(base.guardable(q) for q in queries):
            text = "\n".join(base.guarded(q) for q in queries) + "\n#show."
        else:
            text = None
        try:
            if text is None:
                raise _Unsupported("these queries cannot share a program")
            read = _read_statements(rules + "\n" + text)
        except (_Unsupported, RuntimeError):
            program = None
        else:
            statements = _by_statement(read, analysis, kept, rules)
            kept = None if derived is None else kept
            program = ScenarioProgram(
                statements,
                kept,
                derived,
                analysis,
                queries,
                calls_functions=base.calls_functions(queries),
            )
        # one rule base at a time: drop the programs of an older one only
        # (not those of programs read alone, fact_atoms_many's)
        for old in [k for k in _SCENARIO_PROGRAMS if k[0] not in (key[0], "files")]:
            del _SCENARIO_PROGRAMS[old]
        _SCENARIO_PROGRAMS[key] = program
    return _SCENARIO_PROGRAMS[key]


def _by_statement(read: list, analysis, kept: list[int] | None, rules: str) -> list:
    """`read` (line, node) as (rule base statements, node): the statements
    of `kept` a node was read from; None for the query's and added ones."""
    if kept is None:
        return [(None, node) for _, node in read]
    groups = analysis.program_groups(kept)
    starts = [line for line, _ in groups]
    query_from = rules.count("\n") + 2  # the query's text follows the rules'
    out = []
    for line, node in read:
        if line is None or line >= query_from:
            out.append((None, node))
        else:
            out.append((groups[bisect.bisect_right(starts, line) - 1][1], node))
    return out


def solve_many(
    query: str,
    instances: Sequence[Sequence[clingo.Symbol]],
    *,
    timeout: float | None = None,
    engine: Engine | None = None,
    readings: Readings | None = None,
    signatures: Sequence[Sequence[tuple[str, int]] | None] | None = None,
    arguments: Sequence[Sequence[tuple[clingo.Symbol, ...]] | None] | None = None,
) -> list[list[clingo.Symbol]] | None:
    """The shown atoms of one (optimal) model for each instance (the facts of
    one scenario and question), all grounded and solved together. Meant for
    queries whose shown atoms are the same in every optimal model. None when
    this cannot be done (a statement the scenario argument does not fit, or
    no model: then solve each instance alone, which says why). `engine`:
    whose rule base, options and kept programs (a fresh one when not given);
    `readings`: what was read of the facts, kept for the chunk's next query;
    `signatures`: the (name, arity) of each instance's first facts, where
    the caller knows them (ChunkFacts), and `arguments` their arguments
    (chunk_control)."""
    engine = Engine() if engine is None else engine
    program = scenario_program(query, engine)
    if program is None:
        return None
    return solve_scenarios(
        program,
        instances,
        timeout=timeout,
        readings=readings,
        signatures=signatures,
        arguments=arguments,
    )


def solve_scenarios(
    program: ScenarioProgram,
    instances: Sequence[Sequence[clingo.Symbol]],
    *,
    timeout: float | None = None,
    readings: Readings | None = None,
    signatures: Sequence[Sequence[tuple[str, int]] | None] | None = None,
    arguments: Sequence[Sequence[tuple[clingo.Symbol, ...]] | None] | None = None,
) -> list[list[clingo.Symbol]] | None:
    """solve_many for `program`: the shown atoms of one (optimal) model for
    each instance, all grounded and solved together; None when this cannot
    be done (a statement the scenario argument does not fit, or no model)."""
    ctl = _grounded(program, instances, readings, signatures, arguments=arguments)
    if ctl is None:
        return None
    model = _optimal_model(ctl, timeout)
    return None if model is None else _by_scenario(model, len(instances))


def _optimal_model(
    ctl: clingo.Control, timeout: float | None, assumptions: Sequence = ()
) -> list[clingo.Symbol] | None:
    """The shown terms of the first model of a chunk's grounding proven
    optimal (every model where there is no #minimize/#maximize), under
    `assumptions`; None when there is none."""
    ctl.configuration.solve.opt_mode = "optN"
    found: list = []

    def take(model: clingo.Model) -> None:
        if model.cost and not model.optimality_proven:
            return
        found.append(model.symbols(shown=True))

    solve_within(ctl, timeout, SolveTimeout, on_model=take, assumptions=list(assumptions))
    return found[0] if found else None


def _by_scenario(model: Sequence[clingo.Symbol], count: int) -> list[list[clingo.Symbol]] | None:
    """A chunk's shown terms, each `(scenario, term)`, as each of its `count`
    scenarios' terms; None for a term that is not so."""
    shown: list[list[clingo.Symbol]] = [[] for _ in range(count)]
    # (each scenario's number looked up by its symbol: one call into clingo
    # a term, where reading its type and its number took two and an enum)
    place = {clingo.Number(n): n for n in range(count)}
    for symbol in model:
        args = symbol.arguments
        n = place.get(args[0]) if len(args) == 2 else None
        if n is None:
            return None
        shown[n].append(args[1])
    return shown
