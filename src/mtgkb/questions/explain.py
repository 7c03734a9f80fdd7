"""`ask explain`: a derivation tree for the other answers of a file, citing
the CR rule behind each conclusion, and for each illegal play the smallest
set of rules that together forbid it.

How a tree is built (no game rule here, only reading what the rules derived):

- each other question is solved alone (its own `asked/1` fact) with its query
  program, `queries/explain.lp` and the fact `explaining(Q)`;
  `explain_root(Q,C)` names the conclusions C of its answer;
- every rule of the program also gets a traced twin, `_why(K,Head,t(Body...))`
  (K the rule's place, Body its positive body atoms), so the derivation of any
  atom is known: the input facts under a conclusion become leaves, and atoms
  that are neither facts nor conclusions are walked through;
- a node's rule comes from `because/2` (the rule the encodings name for the
  conclusion; the tag of the rule that derived it where there is none), its
  sub-conclusions from `rests_on/2` (else from the trace);
- an illegal play (violations whose objects include one another) gets
  `forbidden_by`: a minimal unsatisfiable core over CR-number switches
  (`mtgkb.engine.cores`) of "the play, and none of its violations holds", shrunk until
  switching off any one rule makes it satisfiable. The switches are the rules
  the violations name or cite; the rest of the rule base (who defends, what
  attacks what) stays on, so the set says which prohibitions forbid the play.
  A violation that needs the best hypothetical declaration (508.1d, 509.1c)
  is checked on the optimal model instead, since a constraint could dodge it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import clingo
import clingo.ast as cast

from mtgkb.engine.control import new_control
from mtgkb.engine.cores import Budget, active, add_statements, minimal_rules, switch_rules
from mtgkb.engine.programs import add_facts, quiet, solve_within, stamp
from mtgkb.engine.solve import SolveTimeout
from mtgkb.language.facts import DEFAULTED, question_symbol
from mtgkb.language.model import Question
from mtgkb.questions.answers import ASK_NAMES, fill_template
from mtgkb.questions.answers import QUERY_OF as ANSWER_QUERIES
from mtgkb.questions.symbols import names_in
from mtgkb.rulebase import words as _words
from mtgkb.rulebase.index import label, load_index, lookup, scan_file, scan_folder, sort_key
from mtgkb.rulebase.location import data_dir, query_file, rule_files

#: Bounds of one explanation.
MAX_NODES = 200
MAX_DEPTH = 8
MAX_HOPS = 6  # atoms walked through (neither fact nor conclusion) below one node
CORE_TIMEOUT = 5.0

#: Heads that are the explanation graph itself: not traced.
META = {"because", "rests_on", "cites", "explain_root", "message"}
#: Input facts that say nothing worth a leaf.
QUIET_FACTS = {"asked", "explaining", "object", "seat", "landwalk", "player"}
#: Input facts that are the play under judgement.
PLAY_FACTS = {"declared_attack", "declared_block", "chooses_defending", "band"}


#: An anonymous variable in the text of a literal.
ANONYMOUS = re.compile(r"(?<![A-Za-z0-9_'])_(?![A-Za-z0-9_'])")


# --------------------------------------------------------------------------
# The traced program
# --------------------------------------------------------------------------


@dataclass
class Traced:
    """The statements of some files, each rule with its traced twin."""

    statements: list[cast.AST]
    tags: dict[int, tuple[str, ...]]  # K -> the CR numbers of its tag line
    where: dict[int, str]  # K -> file:line


def _term_of(atom: cast.AST) -> cast.AST | None:
    """The term of a positive symbolic atom, or None."""
    if atom.ast_type != cast.ASTType.SymbolicAtom:
        return None
    term = atom.symbol
    if term.ast_type in (cast.ASTType.Function, cast.ASTType.SymbolicTerm):
        return term
    return None


class _Fresh(cast.Transformer):
    """Names each anonymous variable `_` (`_W1`, `_W2`, ...)."""

    def __init__(self):
        self.n = 0

    def visit_Variable(self, node: cast.AST) -> cast.AST:
        if node.name != "_":
            return node
        self.n += 1
        return node.update(name=f"_W{self.n}")


def _twin(stmt: cast.AST, k: int) -> cast.AST | None:
    """`_why(k, Head, t(B1,...,Bn)) :- Body.` for a rule with one positive head atom."""
    head = stmt.head
    if head.ast_type != cast.ASTType.Literal or head.sign != cast.Sign.NoSign:
        return None
    head_term = _term_of(head.atom)
    if head_term is None or not stmt.body:
        return None
    name = getattr(head_term, "name", None)
    if name is None and head_term.ast_type == cast.ASTType.SymbolicTerm:
        sym = head_term.symbol
        name = sym.name if sym.type == clingo.SymbolType.Function else None
    if name is None or name in META or name.startswith("_"):
        return None
    body_terms = []
    body = []
    fresh = _Fresh()
    for lit in stmt.body:
        if lit.ast_type == cast.ASTType.Literal and lit.sign == cast.Sign.NoSign:
            term = _term_of(lit.atom)
            if term is not None:
                # an anonymous variable copied into the head must get a name
                if ANONYMOUS.search(str(lit)):
                    lit = fresh(lit)
                body_terms.append(_term_of(lit.atom))
        body.append(lit)
    loc = stmt.location
    why = cast.Function(
        loc,
        "_why",
        [
            cast.SymbolicTerm(loc, clingo.Number(k)),
            head_term,
            cast.Function(loc, "t", body_terms, 0),
        ],
        0,
    )
    return cast.Rule(loc, cast.Literal(loc, cast.Sign.NoSign, cast.SymbolicAtom(why)), body)


def _scan(path: Path):
    """The statements of one file; `rules/` parsed once for the switches too."""
    if path.parent == data_dir("rules"):
        for scan in scan_folder(path.parent):
            if scan.path == path:
                return scan
    return scan_file(path)  # (each file's twins are cached by _traced_file)


@lru_cache(maxsize=64)
def _traced_file(path: str, stamp: tuple, number: int) -> Traced:
    """One file's statements and their twins; K = file number (its place in
    the program) * 10000 + place in the file."""
    scan = _scan(Path(path))
    if scan.errors:
        raise RuntimeError("; ".join(scan.errors))
    base = number * 10000
    traced = Traced([], {}, {})
    for place, st in enumerate(scan.statements, start=1):
        node = st.ast
        if node is None:
            continue
        traced.statements.append(node)
        if st.kind != "Rule":
            continue
        twin = _twin(node, base + place)
        if twin is not None:
            traced.statements.append(twin)
            traced.tags[base + place] = st.tags or ()
            traced.where[base + place] = label(st.file, st.line)
    return traced


def traced_program(query: str) -> Traced:
    """The rule base, `queries/<query>.lp` and `queries/explain.lp`, traced."""
    files = rule_files() + [query_file(query)]
    if query != "explain":
        files.append(query_file("explain"))
    whole = Traced([], {}, {})
    for number, (path, *state) in enumerate(stamp(files), start=1):
        part = _traced_file(path, tuple(state), number)
        whole.statements += part.statements
        whole.tags.update(part.tags)
        whole.where.update(part.where)
    return whole


def _solve_traced(query: str, facts: Sequence[clingo.Symbol], timeout: float | None):
    """Every atom of the (optimal) model of the question's program, or None."""
    program = traced_program(query)
    # one model; with a #minimize/#maximize, the first proven optimal one (the
    # models before it are the optimisation's steps; the last one kept wins)
    ctl = new_control(["--models=1", "--opt-mode=optN"], quiet)
    add_statements(ctl, program.statements)
    add_facts(ctl, facts)
    ctl.ground([("base", [])])
    found: list[list[clingo.Symbol]] = []

    def take(model: clingo.Model) -> None:
        found[:] = [model.symbols(atoms=True)]

    solve_within(ctl, timeout, SolveTimeout, on_model=take)
    return program, (found[0] if found else None)


# --------------------------------------------------------------------------
# Reading a model: the explanation graph
# --------------------------------------------------------------------------


@dataclass
class Graph:
    atoms: set[clingo.Symbol]
    facts: set[clingo.Symbol]
    program: Traced
    because: dict[clingo.Symbol, set[str]] = field(default_factory=dict)
    rests: dict[clingo.Symbol, list[clingo.Symbol]] = field(default_factory=dict)
    why: dict[clingo.Symbol, list[tuple[int, tuple[clingo.Symbol, ...]]]] = field(
        default_factory=dict
    )
    roots: dict[clingo.Symbol, list[clingo.Symbol]] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    _children: dict[clingo.Symbol, list[clingo.Symbol]] = field(default_factory=dict)

    @classmethod
    def of(cls, program: Traced, model: Sequence[clingo.Symbol], facts: Iterable[clingo.Symbol]):
        g = cls(set(), set(facts), program)
        for sym in model:
            if sym.type != clingo.SymbolType.Function:
                continue
            name, args = sym.name, sym.arguments
            if (name, len(args)) in DEFAULTED:
                g.facts.add(sym)  # written, or the spec's default for what was not
            if name == "_why" and len(args) == 3:
                g.why.setdefault(args[1], []).append((args[0].number, tuple(args[2].arguments)))
                continue
            g.atoms.add(sym)
            if name == "because" and len(args) == 2 and _is_rule(args[1]):
                g.because.setdefault(args[0], set()).add(args[1].arguments[0].string)
            elif name == "rests_on" and len(args) == 2:
                g.rests.setdefault(args[0], []).append(args[1])
            elif name == "explain_root" and len(args) == 2:
                g.roots.setdefault(args[0], []).append(args[1])
            elif name == "message" and len(args) == 2 and args[1].type == clingo.SymbolType.String:
                g.messages[str(args[0])] = args[1].string
        for subs in g.rests.values():
            subs.sort()
        for derivations in g.why.values():
            derivations.sort(key=lambda d: (d[0], [str(a) for a in d[1]]))
        return g

    def is_fact(self, sym: clingo.Symbol) -> bool:
        return sym in self.facts

    def is_conclusion(self, sym: clingo.Symbol) -> bool:
        return sym in self.because or sym.name in ("violation", "explain_limit")

    def derivation(self, sym: clingo.Symbol) -> tuple[int, tuple[clingo.Symbol, ...]] | None:
        """The derivation to show: one by a rule tagged with a rule the conclusion cites."""
        found = self.why.get(sym)
        if not found:
            return None
        cited = self.because.get(sym, set())
        for k, body in found:
            if cited & set(self.program.tags.get(k, ())):
                return k, body
        return found[0]

    def rules_of(self, sym: clingo.Symbol) -> tuple[str | None, list[str]]:
        """The rule that decided a conclusion, and the others it cites."""
        own = _own_rule(sym)
        cited = sorted(self.because.get(sym, set()), key=sort_key)
        if own is not None:
            return own, [r for r in cited if r != own]
        derivation = self.derivation(sym)
        tags = list(self.program.tags.get(derivation[0], ())) if derivation else []
        if cited:
            primary = next((t for t in tags if t in cited), cited[0])
            return primary, [r for r in cited if r != primary]
        if tags and not self.is_fact(sym):
            return tags[0], tags[1:]
        return None, []

    def children(self, sym: clingo.Symbol) -> list[clingo.Symbol]:
        """The sub-conclusions and the input facts a conclusion rests on.

        Where the encodings name sub-conclusions (rests_on/2), those are the
        sub-conclusions, and the derivation adds only its input facts;
        elsewhere the derivation gives both."""
        if sym in self._children:
            return self._children[sym]
        out: list[clingo.Symbol] = [sub for sub in self.rests.get(sym, []) if sub in self.atoms]
        if not self.is_fact(sym):
            found: list[clingo.Symbol] = []
            self._walk(sym, found, 0, {sym})
            out += [s for s in found if not out or self.is_fact(s)]
        seen: set[clingo.Symbol] = set()
        ordered = []
        # conclusions first, then the facts they rest on
        for item in sorted(out, key=lambda s: self.is_fact(s)):
            if item not in seen and item != sym:
                seen.add(item)
                ordered.append(item)
        self._children[sym] = ordered
        return ordered

    def folded(self, sym: clingo.Symbol) -> tuple[clingo.Symbol, int]:
        """Where a chain of unchanged steps ends: a conclusion whose only child is
        the same conclusion one step earlier (same predicate, rule and value)."""
        steps = 0
        seen = {sym}
        while True:
            kids = self.children(sym)
            subs = [k for k in kids if not self.is_fact(k)]
            if len(subs) != 1:
                return sym, steps
            kid = subs[0]
            # the facts of the step left out must still show further down
            if not {k for k in kids if self.is_fact(k)} <= set(self.children(kid)):
                return sym, steps
            if (
                kid in seen
                or kid.name != sym.name
                or len(kid.arguments) != len(sym.arguments)
                or not kid.arguments
                or kid.arguments[-1] != sym.arguments[-1]
                or self.rules_of(kid)[0] != self.rules_of(sym)[0]
            ):
                return sym, steps
            seen.add(kid)
            sym, steps = kid, steps + 1

    def _walk(self, sym: clingo.Symbol, out: list, hops: int, visited: set) -> None:
        derivation = self.derivation(sym)
        if derivation is None:
            return
        for atom in derivation[1]:
            if atom in visited:
                continue
            visited.add(atom)
            if self.is_fact(atom):
                if atom.name not in QUIET_FACTS:
                    out.append(atom)
            elif self.is_conclusion(atom):
                out.append(atom)
            elif hops < MAX_HOPS:
                self._walk(atom, out, hops + 1, visited)


def _is_rule(term: clingo.Symbol) -> bool:
    return (
        term.type == clingo.SymbolType.Function
        and term.name == "rule"
        and len(term.arguments) == 1
        and term.arguments[0].type == clingo.SymbolType.String
    )


def _own_rule(sym: clingo.Symbol) -> str | None:
    """The rule named inside a violation or a limit."""
    if sym.name == "violation" and sym.arguments and _is_rule(sym.arguments[0]):
        return sym.arguments[0].arguments[0].string
    if sym.name == "explain_limit" and len(sym.arguments) == 3 and _is_rule(sym.arguments[1]):
        return sym.arguments[1].arguments[0].string
    return None


# --------------------------------------------------------------------------
# Readable text
# --------------------------------------------------------------------------


# The sentences live in kb/texts.lp (and the violations' in kb/messages.lp),
# each with its Italian twin: mtgkb.rulebase.words reads them.


class Words:
    """The templates of one language."""

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.words = _words.table("word", lang)
        self.modes = _words.table("mode", lang)
        self.texts = _words.table("conclusion", lang)
        self.events = _words.table("event", lang)
        self.limits = _words.table("limit", lang)
        self.has = _words.table("has", lang)
        self.changes = _words.table("change", lang)
        self.sentences = _words.table("explain", lang)
        self.messages = _words.messages(lang)

    def say(self, key: str, *args) -> str:
        return self.sentences.get(key, key).format(*args)


@lru_cache(maxsize=4)
def words_of(lang: str = "en") -> Words:
    return Words(lang)


def _word(sym: clingo.Symbol, w: Words | None = None) -> str:
    w = w or words_of()
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Number:
        return str(sym.number)
    if sym.type == clingo.SymbolType.Function and not sym.arguments:
        return w.words.get(sym.name, sym.name.replace("_", " "))
    if sym.type == clingo.SymbolType.Function:
        inner = " ".join(_word(a, w) for a in sym.arguments)
        return f"{_word(clingo.Function(sym.name), w)} {inner}"
    return str(sym)


def _fill(template: str, args: Sequence[clingo.Symbol], w: Words | None = None) -> str:
    """`{1}`, `{2}`... of kb/messages.lp: the arguments of the kind."""
    return fill_template(template, [_word(a, w) for a in args])


def _kind_text(kind: clingo.Symbol, messages: dict[str, str], w: Words) -> str:
    if kind.type != clingo.SymbolType.Function:
        return _word(kind, w)
    template = messages.get(kind.name) or w.limits.get(kind.name)
    if template is None:
        args = ", ".join(_word(a, w) for a in kind.arguments)
        return w.say("unknown_kind", kind.name.replace("_", " "), args)
    return _fill(template, kind.arguments, w)


def describe(sym: clingo.Symbol, messages: dict[str, str], lang: str = "en") -> str:
    """A conclusion or fact in words. In English the messages the model shows
    are used; in another language the rule base's twins."""
    w = words_of(lang)
    if lang != "en":
        messages = w.messages
    if sym.type != clingo.SymbolType.Function:
        return _word(sym, w)
    name, args = sym.name, sym.arguments
    if name == "violation" and len(args) == 2:
        return w.say("illegal", _kind_text(args[1], messages, w))
    if name == "explain_limit" and len(args) == 3:
        kind = args[2]
        text = _kind_text(kind, messages, w)
        return text if kind.name in w.limits else w.say("ruled_out", text)
    if name == "combat_mode" and len(args) == 1:
        return w.modes.get(str(args[0])) or w.say("combat_mode", _word(args[0], w))
    if name == "event" and len(args) == 2 and args[1].type == clingo.SymbolType.Function:
        e = args[1]
        template = w.events.get(e.name)
        text = template.format(*(_word(a, w) for a in e.arguments)) if template else _word(e, w)
        return w.say("event", args[0].number, text)
    if name == "life_change" and len(args) == 4:
        i, who, delta, kind = args
        key = kind.name if kind.type == clingo.SymbolType.Function else str(kind)
        template = w.changes.get(key) or w.sentences.get("life_changes_by", "{1} {3}")
        source = _word(kind.arguments[0], w) if kind.arguments else ""
        d = delta.number if delta.type == clingo.SymbolType.Number else 0
        text = template.format(i.number, _word(who, w), abs(d), f"{d:+d}", source)
        return w.say("life_change", i.number, text)
    if name == "has" and len(args) == 2 and str(args[1]) in w.has:
        return w.has[str(args[1])].format(_word(args[0], w))
    if name == "life_at" and len(args) == 3:
        who, step, life = (_word(a, w) for a in args)
        if step == "0":
            return w.say("life_before", who, life)
        return w.say("life_after", who, step, life)
    template = w.texts.get(f"{name}/{len(args)}")
    if template is not None:
        return template.format(*(_word(a, w) for a in args))
    return str(sym)


# --------------------------------------------------------------------------
# The tree
# --------------------------------------------------------------------------


class Builder:
    """Nodes within the bounds; every rule cited is collected."""

    def __init__(
        self, max_nodes: int | None = None, max_depth: int | None = None, lang: str = "en"
    ):
        self.lang = lang
        self.max_nodes = MAX_NODES if max_nodes is None else max_nodes
        self.max_depth = MAX_DEPTH if max_depth is None else max_depth
        self.count = 0
        self.truncated = False
        self.rules: set[str] = set()
        self.ids = 0  # the numbers of the nodes that repeated conclusions point at
        self._says: dict[str, str | None] = {}

    def says(self, number: str) -> str | None:
        if number not in self._says:
            try:
                entry = lookup(number, self.lang, index=load_index()).entry
                self._says[number] = entry.text(self.lang)
            except (KeyError, FileNotFoundError):
                self._says[number] = None
        return self._says[number]

    def full(self) -> bool:
        if self.count >= self.max_nodes:
            self.truncated = True
            return True
        return False

    def node(self, g: Graph, sym: clingo.Symbol) -> dict:
        self.count += 1
        node: dict = {"conclusion": describe(sym, g.messages, self.lang), "atom": str(sym)}
        rule, also = g.rules_of(sym)
        if g.is_fact(sym):
            node["fact"] = True
        if rule is not None:
            node["rule"] = rule
            says = self.says(rule)
            if says:
                node["says"] = says
            self.rules.add(rule)
        if also:
            node["also"] = also
            self.rules.update(also)
        return node

    def repeat(self, child: dict, first: dict) -> None:
        """`child` is explained at `first`: numbered, so the text can point at it."""
        if "id" not in first:
            self.ids += 1
            first["id"] = self.ids
        child["repeated"] = True
        child["see"] = first["id"]

    def tree(self, g: Graph, roots: Sequence[clingo.Symbol]) -> list[dict]:
        """Breadth first, so that a cut keeps the top of every root. A
        conclusion met again is not expanded again: it points at the node
        (numbered `id`) that explains it, by `see`."""
        expanded: dict[clingo.Symbol, dict] = {}
        top: list[dict] = []
        queue: list[tuple[dict, clingo.Symbol, int]] = []
        for sym in roots:
            if self.full():
                break
            node = self.node(g, sym)
            top.append(node)
            if sym not in expanded:
                expanded[sym] = node
                queue.append((node, sym, 1))
            elif g.children(sym):
                self.repeat(node, expanded[sym])
        while queue:
            node, sym, depth = queue.pop(0)
            sym, steps = g.folded(sym)
            if steps:
                node["folded"] = steps  # unchanged steps left out
            kids = g.children(sym)
            if not kids:
                continue
            if depth >= self.max_depth:
                node["truncated"] = True
                self.truncated = True
                continue
            node["because"] = []
            for kid in kids:
                if self.full():
                    node["truncated"] = True
                    break
                child = self.node(g, kid)
                node["because"].append(child)
                if not g.children(kid):
                    continue
                if kid in expanded:
                    self.repeat(child, expanded[kid])
                    continue
                expanded[kid] = child
                queue.append((child, kid, depth + 1))
        return top


# --------------------------------------------------------------------------
# Illegal plays: the smallest set of rules that together forbid each
# --------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _switches(stamp: tuple):
    return switch_rules(scan_folder(data_dir("rules")))


def _plays(violations: Sequence[clingo.Symbol]) -> list[list[clingo.Symbol]]:
    """Violations grouped by play: those whose objects overlap by inclusion."""
    groups: list[tuple[set[str], list[clingo.Symbol]]] = []
    loose: list[clingo.Symbol] = []
    for v in sorted(violations, key=lambda s: -len(set(names_in(s.arguments[1])))):
        names = set(names_in(v.arguments[1]))
        if not names:
            loose.append(v)
            continue
        for objs, members in groups:
            if names <= objs or objs <= names:
                objs |= names
                members.append(v)
                break
        else:
            groups.append((set(names), [v]))
    out = [members for _, members in groups]
    if loose:
        out.append(loose)
    return out


def _candidates(g: Graph, group: Sequence[clingo.Symbol]) -> set[str]:
    """The rules the violations name or cite, and those their sub-conclusions cite."""
    found: set[str] = set()
    todo = list(group)
    seen: set[clingo.Symbol] = set()
    while todo:
        sym = todo.pop()
        if sym in seen or len(seen) > 50:
            continue
        seen.add(sym)
        own = _own_rule(sym)
        if own:
            found.add(own)
        found |= g.because.get(sym, set())
        todo += g.rests.get(sym, [])
    return found


class Forbidder:
    """A query (the legal one, or `ask can`'s) with CR-number switches,
    grounded once per scenario."""

    def __init__(self, facts: Sequence[clingo.Symbol], query: str = "legal"):
        files = sorted(data_dir("rules").glob("*.lp"))
        self.switches = _switches(stamp(files))
        ctl = new_control(["--models=1"], quiet)
        add_statements(ctl, self.switches.statements)
        ctl.add("base", [], self.switches.extra)
        for path in rule_files():
            if path.parent.name != "rules":
                ctl.load(str(path))
        ctl.load(str(query_file(query)))
        add_facts(ctl, facts)
        ctl.ground([("base", [])])
        self.ctl = ctl
        atoms = ctl.symbolic_atoms
        self.present = [n for n in self.switches.numbers if atoms[active(n)] is not None]

    def rules(self, group: Sequence[clingo.Symbol], candidates: set[str], timeout: float):
        """(minimal rules, how they were found) for one play."""
        ctl = self.ctl
        free = [n for n in self.present if n in candidates]
        if not free:
            return None, None
        for n in self.present:
            ctl.assign_external(active(n), None if n in candidates else True)
        # only the violations seen with every rule on: a rule switched off may
        # bring others (a blocker no longer defending), which are not the reason
        watched = [v for v in group if ctl.symbolic_atoms[v] is not None]
        with ctl.backend() as backend:
            switch = backend.add_atom()
            backend.add_rule([switch], choice=True)
            for v in watched:
                backend.add_rule([], [switch, backend.add_atom(v)])
        ctl.configuration.solve.opt_mode = "ignore"
        rules = minimal_rules(ctl, free, timeout, fixed=[switch])
        if rules is not None:
            return rules, "core"
        # Sat with every rule on: the violation needs the best hypothetical
        # declaration (508.1d, 509.1c), which a constraint can dodge. Ask the
        # optimum instead: shrink while the best answer still breaks the rule.
        rules = self._shrink_optimal(free, set(watched), -switch, timeout)
        return rules, ("optimum" if rules is not None else None)

    def _shrink_optimal(self, free, watched, off, timeout) -> list[str] | None:
        ctl = self.ctl
        lit = {n: ctl.symbolic_atoms[active(n)].literal for n in free}
        deadline = time.monotonic() + timeout
        ctl.configuration.solve.opt_mode = "optN"  # the last model is a proven optimum

        def forbidden(keep: set[str]) -> bool:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Budget()
            last: list[set] = [set()]

            def take(model):
                last[0] = {s for s in model.symbols(atoms=True) if s in watched}

            assumptions = [off] + [lit[n] if n in keep else -lit[n] for n in lit]
            solve_within(ctl, left, Budget, assumptions=assumptions, on_model=take)
            return bool(last[0])

        current = set(lit)
        if not forbidden(current):
            return None
        for n in sorted(lit, key=sort_key):
            if forbidden(current - {n}):
                current.discard(n)
        return sorted(current, key=sort_key)


def forbidden_plays(g: Graph, facts, violations, timeout: float, lang: str = "en") -> list[dict]:
    """For each illegal play: its violations, objects and the minimal rules forbidding it."""
    if not violations:
        return []
    forbidder = Forbidder(facts)
    out = []
    for group in _plays(violations):
        objects: list[str] = []
        for v in group:
            for name in names_in(v.arguments[1]):
                if name not in objects:
                    objects.append(name)
        own = sorted({_own_rule(v) for v in group if _own_rule(v)}, key=sort_key)
        try:
            rules, how = forbidder.rules(group, _candidates(g, group), timeout)
        except Budget:
            rules, how = None, None
        item = {"rules": rules if rules else own, "objects": objects}
        if not rules:
            item["minimal"] = False  # not found: the rules the violations name
        item["violations"] = [describe(v, g.messages, lang) for v in group]
        item["_group"] = group
        item["_how"] = how
        out.append(item)
    return out


# --------------------------------------------------------------------------
# The answer
# --------------------------------------------------------------------------

# The query of each kind of question this one explains (not itself). `ask
# fix` is explained by the faults of the declared play.
QUERY_OF = {kind: query for kind, query in ANSWER_QUERIES.items() if kind != "explain"}
QUERY_OF["fix"] = "legal"
# Kinds of question that need a parameter: `ask explain Q` explains them only
# where the file asks them.
NEEDS_PARAMETERS = {"attack_targets", "pay", "can", "actions", "assignments"}


def _explained_symbol(q) -> clingo.Symbol:
    """The asked/1 and explaining/1 term of a question explained."""
    if q.kind == "fix":
        return clingo.Function("legal")
    return question_symbol(q)


def _root_order(players: Sequence[str]):
    """Numbers in order, players in seating order, other names alphabetically."""
    seats = {name: i for i, name in enumerate(players)}

    def arg(a: clingo.Symbol) -> tuple:
        if a.type == clingo.SymbolType.Number:
            return (0, a.number, "")
        if a.type == clingo.SymbolType.String:
            return (1, seats.get(a.string, len(seats)), a.string)
        return (2, 0, str(a))

    return lambda sym: (sym.name, tuple(arg(a) for a in sym.arguments))


def _has_play(facts: Iterable[clingo.Symbol]) -> bool:
    for f in facts:
        if f.name in PLAY_FACTS:
            return True
        if f.name == "event" and len(f.arguments) == 2 and f.arguments[1].name == "pay_life":
            return True
    return False


def _question_node(question) -> dict:
    source = getattr(question, "source", "") or f"ask {question.kind.replace('_', ' ')}"
    return {"conclusion": source.strip(), "question": question.kind}


class _Explainer:
    """The trees of one file's questions, sharing the bounds and the rules cited."""

    def __init__(
        self, scenario, facts: Sequence[clingo.Symbol], timeout: float | None, lang: str = "en"
    ):
        self.lang = lang
        self.w = words_of(lang)
        self.facts = list(facts)
        self.situation = [f for f in self.facts if f.name != "asked"]
        self.timeout = timeout
        self.builder = Builder(lang=lang)
        self.order = _root_order(getattr(scenario, "player_names", []))
        self.legal: Graph | None = None
        self.violation_nodes: list[tuple[dict, clingo.Symbol]] = []

    def question(self, item: dict, qsym: clingo.Symbol, query: str) -> Graph | None:
        # each question alone: its own asked/1 fact, as when it is answered
        own = [clingo.Function(name, [qsym]) for name in ("asked", "explaining")]
        program, model = _solve_traced(query, self.situation + own, self.timeout)
        if model is None:
            item["note"] = self.w.say("no_answer")
            return None
        g = Graph.of(program, model, self.situation + own)
        roots = sorted(g.roots.get(qsym, []), key=self.order)
        nodes = self.builder.tree(g, roots)
        if nodes:
            item["because"] = nodes
        if query == "legal":
            self.legal = g
            self.violation_nodes += [
                (node, sym)
                for node, sym in zip(nodes, roots, strict=False)
                if sym.name == "violation"
            ]
        return g

    def can(self, item: dict, q, scenario) -> None:
        """`ask can PLAY`: the faults the play can't avoid, on the facts it is
        judged on (mtgkb.questions.judge), and the rules that forbid it."""
        from mtgkb.questions.judge import STEPS, hypothesis_facts, target_play

        field = q["field"]
        if field not in STEPS:
            item["note"] = self.w.say("not_built")
            return
        play = target_play(q) if field == "targets" else q["play"]
        step, hypo = hypothesis_facts(scenario, field, play)
        own = clingo.Function("can", [clingo.Function(step)])
        situation = [f for f in hypo if f.name != "asked"]
        facts = situation + [clingo.Function(n, [own]) for n in ("asked", "explaining")]
        program, model = _solve_traced("can", facts, self.timeout)
        if model is None:
            item["note"] = self.w.say("no_answer")
            return
        g = Graph.of(program, model, facts)
        roots = sorted(g.roots.get(own, []), key=self.order)
        nodes = self.builder.tree(g, roots)
        if nodes:
            item["because"] = nodes
        faults = [s for s in roots if s.name == "violation"]
        if faults:
            budget = min(CORE_TIMEOUT, self.timeout) if self.timeout else CORE_TIMEOUT
            try:
                rules, _ = Forbidder(hypo, query="can").rules(
                    [clingo.Function("can_faulty")], _candidates(g, faults), budget
                )
            except Budget:
                rules = None
            found = rules or sorted({_own_rule(v) for v in faults}, key=sort_key)
            self.builder.rules.update(found)
            nodes[0]["forbidden_by"] = {"rules": found, "objects": names_in(faults[0].arguments[1])}
            if not rules:
                nodes[0]["forbidden_by"]["minimal"] = False

    def forbidden(self) -> list[dict]:
        """The illegal plays, each node of one carrying its `forbidden_by`."""
        g = self.legal
        if g is None:
            return []
        violations = sorted(s for s in g.atoms if s.name == "violation" and len(s.arguments) == 2)
        budget = min(CORE_TIMEOUT, self.timeout) if self.timeout else CORE_TIMEOUT
        legal = self.situation + [clingo.Function("asked", [clingo.Function("legal")])]
        plays = forbidden_plays(g, legal, violations, budget, self.lang)
        for play in plays:
            self.builder.rules.update(play["rules"])
            nodes = [(n, sym) for n, sym in self.violation_nodes if sym in play["_group"]]
            if not nodes:
                continue
            # one node per play carries it: the first violation of a rule in the set
            node = next((n for n, sym in nodes if _own_rule(sym) in play["rules"]), nodes[0][0])
            node["forbidden_by"] = {"rules": play["rules"], "objects": play["objects"]}
            if play.get("minimal") is False:
                node["forbidden_by"]["minimal"] = False
        return [{k: v for k, v in play.items() if not k.startswith("_")} for play in plays]


def answer_explain(question, scenario, facts, limits, session=None) -> dict:
    """The spec's `explain` answer: a tree per other question of the file, and
    the rules that forbid each illegal play (`forbidden_by`, `forbidden`).
    (`session`: the file's, mtgkb.engine.state.Session; the traced programs
    here are built apart from its groundings.)"""
    lang = getattr(limits, "lang", "en")
    ex = _Explainer(scenario, facts, getattr(limits, "timeout", None), lang)
    only = question.get("only")
    tree: list[dict] = []
    asked = [q for q in scenario.questions if q.kind != "explain"]
    if only is not None:
        asked = [q for q in asked if q.kind == only]
        if not asked and only not in NEEDS_PARAMETERS and only != "legal":
            # `ask explain outcome` in a file that does not ask it: as if asked
            asked = [Question(kind=only, source=f"ask {only.replace('_', ' ')}")]
    for q in asked:
        item = _question_node(q)
        tree.append(item)
        if q.kind == "can":
            ex.can(item, q, scenario)
            continue
        query = QUERY_OF.get(q.kind)
        if query is None or not query_file(query).exists():
            item["note"] = ex.w.say("not_built")
            continue
        ex.question(item, _explained_symbol(q), query)
    if ex.legal is None and only in (None, "legal") and (_has_play(ex.facts) or only):
        # no `ask legal`: the declared play is judged all the same, and shown
        # if illegal (or, when `ask explain legal` asks for it, in any case)
        item = {"conclusion": ex.w.say("declarations"), "question": "legal"}
        ex.question(item, clingo.Function("legal"), "legal")
        if ex.violation_nodes or only:
            tree.append(item)
        else:
            ex.legal = None
    forbidden = ex.forbidden()
    answer: dict = {"ask": "explain", "tree": tree}
    if only is not None:
        answer = {"ask": "explain", "question": ASK_NAMES.get(only, only), "tree": tree}
    if forbidden:
        answer["forbidden"] = forbidden
    answer["truncated"] = ex.builder.truncated
    answer["rules"] = sorted(ex.builder.rules, key=sort_key)
    return answer


__all__ = ["answer_explain", "describe", "forbidden_plays", "traced_program"]
