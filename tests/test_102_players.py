"""102: players, teams, teammates and opponents; 800s: the options in force."""

from helpers import only_model, table_facts

SHOW = """
#show opponent/2. #show teammate/2. #show your_team/2. #show nonactive/1.
#show uses_option/1. #show because/2.
"""


def table(names, game, *extra):
    return table_facts(names, game=game, extra=extra) + SHOW


def test_102_1_every_player_but_the_active_one_is_nonactive():
    atoms = only_model("defending", table(["Ann", "Ben", "Cat"], "free_for_all"))
    assert 'nonactive("Ben")' in atoms and 'nonactive("Cat")' in atoms
    assert 'nonactive("Ann")' not in atoms
    assert 'because(nonactive("Ben"),rule("102.1"))' in atoms


def test_102_2_in_a_two_player_game_the_opponent_is_the_other_player():
    atoms = only_model("defending", table(["Ann", "Ben"], "two_player"))
    assert {'opponent("Ann","Ben")', 'opponent("Ben","Ann")'} <= atoms
    assert 'because(opponent("Ann","Ben"),rule("102.2"))' in atoms


def test_102_3_teammates_are_on_the_same_team_and_opponents_are_the_rest():
    facts = table(
        ["A", "B", "C", "D"],
        "team_vs_team",
        'team("X","A"). team("X","B"). team("Y","C"). team("Y","D").',
    )
    atoms = only_model("defending", facts)
    assert 'teammate("A","B")' in atoms and 'opponent("A","B")' not in atoms
    assert 'opponent("A","C")' in atoms and 'opponent("A","D")' in atoms
    assert 'because(opponent("A","C"),rule("102.3"))' in atoms
    assert 'because(teammate("A","B"),rule("102.3"))' in atoms


def test_102_4_your_team_is_you_and_your_teammates_or_only_you():
    teams = table(
        ["A", "B", "C", "D"],
        "team_vs_team",
        'team("X","A"). team("X","B"). team("Y","C"). team("Y","D").',
    )
    atoms = only_model("defending", teams)
    assert {'your_team("A","A")', 'your_team("A","B")'} <= atoms
    assert 'your_team("A","C")' not in atoms
    assert 'because(your_team("A","B"),rule("102.4"))' in atoms
    alone = only_model("defending", table(["A", "B", "C"], "free_for_all"))
    assert [a for a in alone if a.startswith('your_team("A"')] == ['your_team("A","A")']


def test_806_1_in_a_free_for_all_every_other_player_is_an_opponent():
    atoms = only_model("defending", table(["A", "B", "C"], "free_for_all"))
    assert 'opponent("A","B")' in atoms and 'opponent("A","C")' in atoms
    assert 'because(opponent("A","C"),rule("806.1"))' in atoms


def test_904_2a_904_2b_the_archenemy_is_a_team_of_one_against_everyone_else():
    facts = table(["Rob", "Ann", "Ben"], "archenemy", 'archenemy("Ann").')
    atoms = only_model("defending", facts)
    assert 'teammate("Rob","Ben")' in atoms
    assert 'opponent("Rob","Ann")' in atoms and 'opponent("Ben","Ann")' in atoms
    assert not any(a.startswith('teammate("Ann"') for a in atoms)


def test_808_3_808_3a_team_vs_team_attacks_multiple_players_by_default():
    facts = table(
        ["A", "B", "C", "D"],
        "team_vs_team",
        'team("X","A"). team("X","B"). team("Y","C"). team("Y","D").',
    )
    atoms = only_model("defending", facts)
    assert "uses_option(attack_multiple_players)" in atoms
    assert 'because(uses_option(attack_multiple_players),rule("802.1"))' in atoms


def test_801_1_807_2_grand_melee_uses_range_one_and_attack_left():
    atoms = only_model("defending", table(["A", "B", "C", "D", "E"], "grand_melee"))
    assert {"uses_option(range_of_influence(1))", "uses_option(attack_left)"} <= atoms
    assert 'because(uses_option(attack_left),rule("803.1"))' in atoms
    assert 'because(uses_option(range_of_influence(1)),rule("801.1"))' in atoms


def test_806_2_an_explicit_attack_option_replaces_the_variant_default():
    facts = table(["A", "B", "C", "D", "E"], "grand_melee", "option(attack_right).")
    atoms = only_model("defending", facts)
    assert "uses_option(attack_right)" in atoms
    assert "uses_option(attack_left)" not in atoms
    assert "uses_option(range_of_influence(1))" in atoms


def test_806_2_an_explicit_range_replaces_the_variant_default_range():
    facts = table(["A", "B", "C", "D", "E"], "grand_melee", "option(range_of_influence(2)).")
    atoms = only_model("defending", facts)
    assert "uses_option(range_of_influence(2))" in atoms
    assert "uses_option(range_of_influence(1))" not in atoms


def test_805_1_two_headed_giant_uses_shared_team_turns():
    facts = table(
        ["A", "B", "C", "D"],
        "two_headed_giant",
        'team("X","A"). team("X","B"). team("Y","C"). team("Y","D").',
    )
    atoms = only_model("defending", facts)
    assert "uses_option(shared_team_turns)" in atoms
    assert 'because(uses_option(shared_team_turns),rule("805.1"))' in atoms
