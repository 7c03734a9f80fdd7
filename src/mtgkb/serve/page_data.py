"""What the judges' page needs beyond the answers: the words a scenario may
use (`GET /v1/vocabulary`, for the page's builder) and each object's
abilities as the file wrote them (for the drawing of the table).

Read-only data of the rule base in use (kb/vocabulary.lp through
mtgkb.rulebase.vocabulary); no rule of the game here.
"""

from __future__ import annotations

#: the kinds of object the builder offers (`P controls KIND "Name" ...`)
OBJECT_KINDS = ("creature", "planeswalker", "battle", "land")


def vocabulary_view() -> dict:
    """The scenario language's word lists, as a file writes them: every
    ability (simple ones, then an example of each with arguments), those a
    player may have, games, options, colors and phases."""
    from mtgkb.rulebase.vocabulary import vocabulary

    words = vocabulary()
    simple = [a for a in words.written() if a not in words.examples]
    return {
        "abilities": simple,
        "ability_examples": list(words.examples),
        "player_abilities": list(words.written_for_players()),
        "evasion": sorted({name for name, _ in words.evasion}),
        "games": [g.replace("_", "-") for g in words.games],
        "options": [o.replace("_", "-") for o in words.options],
        "colors": list(words.colors),
        "phases": [p.replace("_", "-") for p in words.phases],
        "object_kinds": list(OBJECT_KINDS),
    }


def written_abilities(text: str, obj) -> list[str]:
    """The abilities of `obj` (a parsed object) as its line writes them
    (`counters +1/+1 1`, `protection from red`): each from where it starts
    to where the next one starts, without the `,` or `and` between them."""
    lines = text.split("\n")
    starts = [(a.line, a.column) for a in obj.abilities]
    written = []
    for k, (line, column) in enumerate(starts):
        if not 0 < line <= len(lines) or column < 1:
            return []
        source = lines[line - 1]
        end = len(source)
        if k + 1 < len(starts) and starts[k + 1][0] == line:
            end = starts[k + 1][1] - 1
        words = source[column - 1 : end].split("#", 1)[0].strip().removesuffix(",").split()
        if k + 1 < len(starts) and words and words[-1].lower() == "and":
            words.pop()  # `with flying and reach`
        written.append(" ".join(words))
    return written
