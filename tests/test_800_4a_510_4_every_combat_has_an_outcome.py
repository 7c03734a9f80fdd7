"""Every game state the scenario language can write has one outcome: the rule
base never contradicts itself on a valid file (103.4's self-contradiction
check is for a broken rule base, not for a game).

Random games (tests/helpers/random_games.py: free-for-all, two-player,
Two-Headed Giant and Emperor; first strike, double strike, lifelink, infect,
toxic, commanders, shields, Fogs, payments, exchanges, concessions, repeated
`combat damage` and `check state-based actions`): each answer exists, with
exit status 0 or 1 and nothing inconsistent. Between the two combat damage
steps a player may lose and leave the game (510.4, 704.5a, 704.5c, 800.4a);
where the rule base does not follow a player who left into another `combat
damage` event, the answers say 800.4a is not modelled. (Two `combat damage`
lines with a first striker once gave no answer set at all.)
"""

from helpers import examples
from helpers.answering import engine
from helpers.random_games import games
from hypothesis import HealthCheck, given, settings

from mtgkb.questions.answers import Limits
from mtgkb.running.runner import answer_text


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_103_4_every_written_game_has_one_outcome(text):
    result = answer_text(text, "game.mtg", Limits(max_models=5, timeout=60), engine=engine())
    # 0 or 1: an answer (4 would be the rule base contradicting itself on this game)
    assert result.status in (0, 1), (result.status, result.error, text)
    legal, outcome = result.output["answers"]
    assert "inconsistent" not in legal and "inconsistent" not in outcome
    assert legal["legal"] is (result.status == 0)
    players = text.split("players: ", 1)[1].split("\n", 1)[0].split(", ")
    assert set(outcome["life"]) == set(players)
