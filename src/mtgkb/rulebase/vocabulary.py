"""The vocabulary of the scenario language: kb/vocabulary.lp of the rule base in use.

The keyword abilities a `with ...` list may name are data of the rule base,
`ability_word(Phrase, Name, Shape)` facts (the file's header says what each
shape reads after the phrase). The grammar reads an ability as a phrase of
words; the parser looks the phrase up here. So a copy of the rule base
(`--rule-base DIR`, `MTGKB_RULE_BASE`) may add an ability with no change to
the grammar or to Python. The file is read with clingo, once per process and
again when it changes on disk (keyed by its stamp, like every cache of the
rule base), and what was read is kept on disk for the next process (by the
digest of its bytes, as data); nothing here is a rule of the game.

Its games (`variant/1`) and options (`scenario_option/1`) are the words a
`game:` and an `option:` line may give; `player_ability/1` says which
abilities a player may have (`P has hexproof`); `phase_word/1`,
`color_word/1` and `spell_kind_word/1` the phases, colors and kinds of spell
a file may name, and `action_word/2` how `ask actions` names each kind of play.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

import clingo

from mtgkb.rulebase.control import new_control
from mtgkb.rulebase.disk_cache import kept_for_files
from mtgkb.rulebase.location import data_dir
from mtgkb.rulebase.location import file_stamp as stamp
from mtgkb.rulebase.records import record
from mtgkb.rulebase.symbol_texts import symbol_value

FILE = "vocabulary.lp"

#: What each shape reads after the phrase (kb/vocabulary.lp says what it becomes).
SHAPES = ("simple", "player", "number", "color", "type", "types", "suffix", "counter")


class VocabularyError(ValueError):
    """kb/vocabulary.lp says something the parser cannot use."""


@record(frozen=True)
class AbilityWord:
    """`with PHRASE ...`: the ability NAME, read in the given shape."""

    phrase: str  # lower-case words, one space between them
    name: str  # the constant of the facts (`has(O,flying)`, `toxic(O,N)`, ...)
    shape: str  # one of SHAPES

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.phrase.split(" "))


@record(frozen=True)
class Vocabulary:
    abilities: tuple[AbilityWord, ...]  # in the order of the file
    examples: tuple[str, ...]  # abilities with arguments, written in full
    evasion: tuple[tuple[str, str], ...]  # (ability, the CR rule of its restriction)
    games: tuple[str, ...] = ()  # `game:` (variant/1)
    options: tuple[str, ...] = ()  # `option:` (scenario_option/1)
    player_abilities: tuple[str, ...] = ()  # `P has ...` (player_ability/1)
    phases: tuple[str, ...] = ()  # `phase:` (phase_word/1)
    colors: tuple[str, ...] = ()  # the five colors (color_word/1)
    spell_kinds: tuple[str, ...] = ()  # `P casts KIND "Name"` (spell_kind_word/1)
    action_words: tuple[tuple[str, str], ...] = ()  # `ask actions`: (kind, word) (action_word/2)
    after: tuple[tuple[str, str], ...] = ()  # (ability, words after its argument)
    counter_kinds: tuple[tuple[str, str], ...] = ()  # (`-1/-1`, its constant): counter_kind/2

    # (each table made once per vocabulary: the parser looks up every ability
    # of every creature in them; not to be changed by their readers)
    def simple(self) -> dict[str, AbilityWord]:
        """Each phrase of an ability that takes nothing after it."""
        return self._by_shape["simple"]

    def with_arguments(self) -> dict[str, AbilityWord]:
        """Each phrase that takes something after it (not a suffix)."""
        return self._by_shape["arguments"]

    def suffixes(self) -> dict[str, AbilityWord]:
        return self._by_shape["suffix"]

    @cached_property
    def _by_shape(self) -> dict[str, dict[str, AbilityWord]]:
        out: dict[str, dict[str, AbilityWord]] = {"simple": {}, "arguments": {}, "suffix": {}}
        for a in self.abilities:
            kind = a.shape if a.shape in ("simple", "suffix") else "arguments"
            out[kind][a.phrase] = a
        return out

    def written(self) -> tuple[str, ...]:
        """Every ability as a file writes it: the first phrase of each simple
        ability, then the examples of those with arguments."""
        seen: dict[str, str] = {}
        for a in self.abilities:
            if a.shape == "simple":
                seen.setdefault(a.name, a.phrase)
        return (*seen.values(), *self.examples)

    def written_for_players(self) -> tuple[str, ...]:
        """The abilities a player may have, as a file writes them."""
        first = {}
        for a in self.abilities:
            if a.name in self.player_abilities:
                if a.shape == "simple":
                    first.setdefault(a.name, a.phrase)
                else:
                    shown = [e for e in self.examples if e.startswith(a.phrase + " ")]
                    first.setdefault(a.name, shown[0] if shown else a.phrase)
        return tuple(first.values())

    def words_after(self, name: str) -> tuple[str, ...]:
        """The words that must follow the argument of the ability `name`
        (`ability_after/2`: `... except by 3 or more creatures`), or none."""
        for ability, words in self.after:
            if ability == name:
                return tuple(words.split(" "))
        return ()

    def names(self) -> tuple[str, ...]:
        """The constant of every ability, each once, in the order of the file."""
        return tuple(dict.fromkeys(a.name for a in self.abilities))

    def words_after_names(self) -> frozenset[str]:
        """The words that go on a phrase where a player's name may follow it:
        with `can't attack PLAYER` and `can't attack alone`, a player called
        Alone would be read as the ability, not as the name."""
        return self._words_after_names

    @cached_property
    def _words_after_names(self) -> frozenset[str]:
        found = set()
        for before in self.abilities:
            if before.shape == "player":
                n = len(before.words)
                for other in self.abilities:
                    if len(other.words) > n and other.words[:n] == before.words:
                        found.add(other.words[n])
        return frozenset(found)


def normal_word(text: str) -> str:
    """A written word as the vocabulary spells it: lower case, `_` as `-`,
    every spelling of can't as `can't`."""
    word = text.lower().replace("_", "-").replace("\u2019", "'")
    return "can't" if word == "cannot" else word


def _phrase(sym: clingo.Symbol, where: str) -> str:
    if sym.type != clingo.SymbolType.String or not sym.string.strip():
        raise VocabularyError(f"{where}: the phrase must be a non-empty string, not {sym}")
    return " ".join(normal_word(w) for w in sym.string.split())


#: Bump when what a vocabulary kept on disk holds changes.
KEPT_VERSION = 1


@lru_cache(maxsize=4)
def _read(files: tuple) -> Vocabulary:
    """The vocabulary of the file (`files`: its stamp), read with clingo or
    from the user's cache of what was read (mtgkb.rulebase.disk_cache, by
    the digest of its bytes: plain data, checked when read): the parse of
    every file starts with it."""
    kept = kept_for_files(
        f"vocabulary{KEPT_VERSION}",
        [path for path, *_ in files],
        lambda: _as_data(_read_file(files)),
        _sound_data,
    )
    abilities, *rest = kept
    return Vocabulary(tuple(AbilityWord(*a) for a in abilities), *rest)


def _as_data(vocabulary: Vocabulary) -> tuple:
    """A vocabulary as plain data (tuples of strings), as it is kept."""
    abilities = tuple((a.phrase, a.name, a.shape) for a in vocabulary.abilities)
    return (abilities, *(getattr(vocabulary, f) for f in _FIELDS[1:]))


#: The fields of a Vocabulary, in order; those holding pairs of words.
_FIELDS = (
    "abilities", "examples", "evasion", "games", "options", "player_abilities", "phases",
    "colors", "spell_kinds", "action_words", "after", "counter_kinds",
)  # fmt: skip
_PAIRS = {"evasion", "action_words", "after", "counter_kinds"}


def _sound_data(data) -> bool:
    """Whether a vocabulary read from disk is one: every field a tuple of
    words (pairs of words where the field holds pairs; an ability a phrase,
    a name and one of SHAPES)."""
    if type(data) is not tuple or len(data) != len(_FIELDS):
        return False
    for field_name, values in zip(_FIELDS, data, strict=True):
        if type(values) is not tuple:
            return False
        size = 3 if field_name == "abilities" else 2 if field_name in _PAIRS else 0
        for value in values:
            if size == 0:
                if type(value) is not str:
                    return False
            elif (
                type(value) is not tuple
                or len(value) != size
                or not all(type(v) is str for v in value)
            ):
                return False
    return all(a[2] in SHAPES and a[0] and a[1] for a in data[0])


def _read_file(files: tuple) -> Vocabulary:
    said: list[str] = []
    ctl = new_control(logger=lambda _code, message: said.append(message.strip()))
    try:
        for path, *_ in files:
            ctl.load(path)
        ctl.ground([("base", [])])
    except RuntimeError:
        raise VocabularyError("\n".join(said) or f"{FILE}: cannot be read") from None
    abilities, examples, evasion, games, options, players = [], [], [], [], [], []
    phases, colors, spell_kinds, action_words, after = [], [], [], [], []
    counter_kinds = []
    for atom in ctl.symbolic_atoms:
        sym = atom.symbol
        # (each of the symbol's fields is a call into clingo: each read once)
        name, args = sym.name, sym.arguments
        if name == "ability_word" and len(args) == 3:
            shape = symbol_value(args[2])
            if shape not in SHAPES:
                raise VocabularyError(
                    f"{FILE}: {sym}: the shape must be one of {', '.join(SHAPES)}"
                )
            if args[1].type != clingo.SymbolType.Function or args[1].arguments:
                raise VocabularyError(f"{FILE}: {sym}: the ability must be a constant")
            abilities.append(AbilityWord(_phrase(args[0], f"{FILE}: {sym}"), args[1].name, shape))
        elif name == "ability_example" and len(args) == 1:
            examples.append(_phrase(args[0], f"{FILE}: {sym}"))
        elif name == "evasion" and len(args) == 2:
            evasion.append((symbol_value(args[0]), symbol_value(args[1])))
        elif name == "variant" and len(args) == 1:
            games.append(symbol_value(args[0]))
        elif name == "scenario_option" and len(args) == 1:
            options.append(symbol_value(args[0]))
        elif name == "player_ability" and len(args) == 1:
            players.append(symbol_value(args[0]))
        elif name == "phase_word" and len(args) == 1:
            phases.append(symbol_value(args[0]))
        elif name == "color_word" and len(args) == 1:
            colors.append(symbol_value(args[0]))
        elif name == "spell_kind_word" and len(args) == 1:
            spell_kinds.append(symbol_value(args[0]))
        elif name == "action_word" and len(args) == 2:
            action_words.append((symbol_value(args[0]), symbol_value(args[1])))
        elif name == "ability_after" and len(args) == 2:
            after.append((symbol_value(args[0]), _phrase(args[1], f"{FILE}: {sym}")))
        elif name == "counter_kind" and len(args) == 2:
            counter_kinds.append((symbol_value(args[0]), symbol_value(args[1])))
    lists = (abilities, examples, evasion, games, options, players)
    lists += (phases, colors, spell_kinds, action_words, after, sorted(counter_kinds))
    return Vocabulary(*(tuple(x) for x in lists))


def vocabulary() -> Vocabulary:
    """The vocabulary of the rule base in use (read again when its file changes)."""
    return _read(stamp([data_dir("kb") / FILE]))


__all__ = ["SHAPES", "AbilityWord", "Vocabulary", "VocabularyError", "normal_word", "vocabulary"]
