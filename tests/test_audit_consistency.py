"""The consistency part of `mtgkb audit`: the generated corpus, and broken
copies of the rule base that each make the audit report a conflict naming
the rule that was broken.

Each broken copy changes one rule of `rules/` (or adds one) in a copy of
`rules/`, `kb/` and `queries/`; the audit of that copy solves the copy
itself (not the installed rule base), so what it finds is the copy's.
"""

import re
import shutil

import pytest
from helpers import ROOT

from mtgkb.audit import corpus
from mtgkb.audit.checker import Checker
from mtgkb.audit.consistency import PARALLEL_FROM, consistency, generated_corpus
from mtgkb.audit.render import to_text
from mtgkb.audit.report import audit
from mtgkb.language.parser import parse_text
from mtgkb.rulebase.vocabulary import vocabulary

# The slow tier (the audit's consistency corpus):
# .ci/run runs it, the README's command does not.
pytestmark = pytest.mark.slow

TABLES = dict(corpus.tables())

GAMES = vocabulary().games


def _copy(tmp_path, edit=None, add=None):
    """A copy of the rule base; `edit` = (file, old, new) replaces one rule's text,
    `add` = text of a new rules/999_broken.lp."""
    for folder in ("rules", "kb", "queries"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    if edit is not None:
        name, old, new = edit
        path = tmp_path / "rules" / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} is no longer in rules/{name}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    if add is not None:
        (tmp_path / "rules" / "999_broken.lp").write_text(add, encoding="utf-8")
    return tmp_path


def _line_of(root, name, text):
    lines = (root / "rules" / name).read_text(encoding="utf-8").splitlines()
    return f"rules/{name}:{lines.index(text) + 1}"


# --------------------------------------------------------------------------
# The generated corpus
# --------------------------------------------------------------------------


def test_corpus_is_scenario_text_the_parser_accepts_and_the_same_each_time():
    made = generated_corpus()
    assert made == generated_corpus()
    assert len({name for name, _ in made}) == len(made)
    for name, text in made:
        parse_text(text, name)  # raises ScenarioError if the language refuses it
    quick = generated_corpus(quick=True)
    assert set(quick) <= set(made) and len(quick) < len(made) // 3


def test_corpus_covers_every_variant_option_and_table_size():
    games, options, sizes, team_shapes = set(), set(), set(), set()
    for name, text in generated_corpus():
        sc = parse_text(text, name)
        games.add(sc.game)
        options |= {o.name for o in sc.options}
        sizes.add(len(sc.players))
        if sc.teams:
            team_shapes.add((sc.game, tuple(len(t.members) for t in sc.teams)))
    assert games == set(GAMES)
    assert options == {
        "attack_multiple_players",
        "attack_left",
        "attack_right",
        "shared_team_turns",
        "range_of_influence",
    }
    assert sizes == {2, 3, 4, 5, 6}
    assert {("two_headed_giant", (2, 2)), ("two_headed_giant", (3, 3))} <= team_shapes
    assert ("emperor", (3, 3)) in team_shapes
    assert ("team_vs_team", (2, 2, 2)) in team_shapes
    # the quick corpus still has one table of each variant
    assert {parse_text(t, n).game for n, t in generated_corpus(quick=True)} == set(GAMES)


def test_random_combats_use_every_ability_and_declare_attacks_and_blocks():
    combats = corpus.combats()
    text = "\n".join(t for _, t in combats)
    for ability in corpus.ABILITIES:
        assert ability in text, ability
    assert "can't attack Ann" in text or re.search(r"can't attack [A-Z]", text)
    scenarios = [parse_text(t, n) for n, t in combats]
    assert sum(1 for sc in scenarios if sc.attacks) > len(scenarios) // 2
    assert sum(1 for sc in scenarios if sc.blocks) > len(scenarios) // 3
    assert any(sc.bands for sc in scenarios)
    assert corpus.combats(5, seed=1) != corpus.combats(5, seed=2)


# --------------------------------------------------------------------------
# The repository
# --------------------------------------------------------------------------


def test_repository_quick_audit_has_no_lint_and_no_conflict():
    report = audit(ROOT, quick=True)
    assert report["conflicts"] == []
    assert report["lint"] == []
    assert report["summary"]["ok"] is True
    assert report["summary"]["scenarios"] >= len(generated_corpus(quick=True))


def test_repository_rules_agree_with_the_installed_answers_on_a_copy(tmp_path):
    # the copy is answered as `mtgkb run --rule-base COPY` answers it: same verdict
    root = _copy(tmp_path)
    quick = generated_corpus(quick=True)
    assert consistency([quick[0], quick[5], quick[-1]], root) == []  # tables and a combat


def test_the_audit_asks_through_the_answers_of_mtgkb_run_with_the_audited_rule_base(
    tmp_path, monkeypatch
):
    import mtgkb.questions.answers
    from mtgkb.rulebase.location import current

    root = _copy(tmp_path)
    real = mtgkb.questions.answers.answer
    seen = []

    def watched(question, scenario, facts, limits, session=None):
        seen.append((question.kind, current().root, session.engine.location.root))
        return real(question, scenario, facts, limits, session)

    monkeypatch.setattr(mtgkb.questions.answers, "answer", watched)
    assert consistency([("combat", COMBAT)], root) == []
    # the questions of the file, then `ask legal` of each listed declaration fed back
    assert [k for k, *_ in seen[:2]] == ["attacks", "blocks"] and "legal" in [k for k, *_ in seen]
    # with the audited rule base in use, and answered by an engine of it
    assert {where for _, where, _ in seen} == {root.resolve()}
    assert {engine for *_, engine in seen} == {root.resolve()}
    assert current().root != root.resolve()  # the rule base in use is given back


# --------------------------------------------------------------------------
# Broken copies: each is a conflict naming the rule that was broken
# --------------------------------------------------------------------------

OPPONENT_RULE = "opponent(P,Q) :- player(P), player(Q), P != Q, not teammate(P,Q)."


def test_102_3_opponent_rule_without_not_makes_a_teammate_defend(tmp_path):
    root = _copy(
        tmp_path,
        edit=("102_players.lp", OPPONENT_RULE, OPPONENT_RULE.replace("not teammate", "teammate")),
    )
    site = _line_of(root, "102_players.lp", OPPONENT_RULE.replace("not teammate", "teammate"))
    cases = [(n, TABLES[n]) for n in ("team vs team 2x2", "two-player")]
    found = {c["scenario"]: c for c in consistency(cases, root)}
    team = found["team vs team 2x2"]
    assert "on the team of the attacking player Ann" in team["message"]
    assert {"102.2", "102.3"} & set(team["rules"]) and site in team["at"]
    # two players: nobody is an opponent any more, yet the nonactive player defends
    two = found["two-player"]
    assert (
        "Ben is a defending player but no opponent of the attacking player Ann" in (two["message"])
    )
    assert {"102.2", "102.3"} <= set(two["rules"]) and site in two["at"]
    assert "506.2" in two["rules"]  # the rule that made Ben defend


def test_509_1c_every_creature_blocking_if_able_makes_no_blocks_illegal(tmp_path):
    root = _copy(
        tmp_path,
        add="% 509.1c: a wrong requirement on every creature.\n"
        "has(B,blocks_if_able) :- card_type(B,creature).\n",
    )
    (conflict,) = consistency([("two-player", TABLES["two-player"])], root)
    assert "declaring no blockers is illegal" in conflict["message"]
    assert "Ben's Spider" in conflict["message"]
    assert "509.1c" in conflict["rules"]
    assert "rules/999_broken.lp:2" in conflict["at"]
    assert len(conflict["rules"]) < 15  # a minimal set, not every rule there is


def test_508_1a_a_listed_attack_that_ask_legal_rejects_is_a_conflict(tmp_path):
    root = _copy(
        tmp_path,
        add="% 508.1a: a made-up restriction on creatures with no power.\n"
        'violation(rule("508.1a"), no_power(C)) :- attacks(C,_), power(C,0).\n',
    )
    text = 'players: Ann, Ben\nAnn controls creature "Ornithopter" 0/2 with flying\nask attacks\n'
    (conflict,) = consistency([("zero power", text)], root)
    assert conflict["message"].startswith("'ask attacks' lists the declaration Ornithopter attacks")
    assert "no power (Ornithopter; 508.1a)" in conflict["message"]
    assert conflict["rules"] == ["508.1a"]
    assert "rules/999_broken.lp:2" in conflict["at"]


STACK_SLOT = "stack_slot(T,O+1..O+N) :- trigger_unit(T,U), stack_offset(U,O), unit_triggers(U,N)."


def test_603_3b_a_trigger_without_a_place_on_the_stack_leaves_no_order(tmp_path):
    root = _copy(
        tmp_path, edit=("603_triggers.lp", STACK_SLOT, STACK_SLOT.replace("O+N)", "O+N-1)"))
    )
    site = _line_of(root, "603_triggers.lp", STACK_SLOT.replace("O+N)", "O+N-1)"))
    text = (
        "players: Ann, Ben\n"
        'trigger "Soul Warden" controlled by Ann\n'
        'trigger "Ajani" controlled by Ben\n'
        "ask stack\n"
    )
    (conflict,) = consistency([("stack", text)], root)
    assert conflict["message"] == "'ask stack' finds no order although something is pending"
    assert "603.3b" in conflict["rules"] and site in conflict["at"]


LOSS_RULE = "lost_for_life(P) :- life_holder(P,P), final_life(P,N), N <= 0, not cant_lose_game(P)."


def test_704_5a_a_loss_above_zero_life_is_a_conflict(tmp_path):
    root = _copy(
        tmp_path, edit=("104_704_losing.lp", LOSS_RULE, LOSS_RULE.replace("N <= 0", "N <= 18"))
    )
    site = _line_of(root, "104_704_losing.lp", LOSS_RULE.replace("N <= 0", "N <= 18"))
    text = "players: Ann, Ben\nAnn loses 3 life\nAnn can't lose the game\nBen loses 2 life\n"
    (conflict,) = consistency([("loss", text)], root)
    assert "Ben lost the game with 18 life" in conflict["message"]
    assert "Ann" not in conflict["message"]  # Ann can't lose the game
    assert "704.5a" in conflict["rules"] and site in conflict["at"]


def test_a_generated_scenario_in_conflict_carries_its_text(tmp_path):
    root = _copy(
        tmp_path,
        edit=("102_players.lp", OPPONENT_RULE, OPPONENT_RULE.replace("not teammate", "teammate")),
    )
    made = [(n, TABLES[n]) for n in ("two-player", "commander 2 players")]
    first, second = consistency(made, root, generated=["two-player"])
    assert first["scenario"] == "two-player" and first["text"] == TABLES["two-player"]
    assert second["scenario"] == "commander 2 players" and "text" not in second
    report = {
        "summary": {"root": str(root), "edition": "x", "rules": 0, "relied_on": 0}
        | {"encoded": 0, "tested": 0, "scenarios": 2, "lint": 0, "warnings": 0}
        | {"conflicts": 2, "ok": False},
        "lint": [],
        "warnings": [],
        "conflicts": [first, second],
    }
    shown = to_text(report)
    assert "    scenario:\n      # generated table: two-player\n      game: two-player" in shown


def test_an_answer_that_fails_is_a_conflict(monkeypatch):
    import mtgkb.questions.answers

    real = mtgkb.questions.answers.answer

    def failing(question, scenario, facts, limits, session=None):
        if question.kind == "order":
            raise RuntimeError("broken on purpose")
        return real(question, scenario, facts, limits, session)

    monkeypatch.setattr(mtgkb.questions.answers, "answer", failing)
    conflicts = Checker(None).check("table", TABLES["commander 3 players"])
    assert [c["message"] for c in conflicts] == [
        "'ask order' gives no answer: RuntimeError: broken on purpose"
    ]


def test_facts_text_is_still_checked_for_life_totals(tmp_path):
    root = _copy(
        tmp_path, add="% 103.4: a second starting life.\nstarting_life(P,19) :- player(P).\n"
    )
    facts = 'game(two_player). player("A"). player("B"). seat("A",1). seat("B",2). active("A").\n'
    (conflict,) = consistency([("facts", facts)], root)
    assert "A has two starting life totals, 19 and 20" in conflict["message"]
    assert "rules/999_broken.lp:2" in conflict["at"]


@pytest.mark.parametrize("jobs", [2])
def test_checking_in_two_processes_finds_the_same(tmp_path, jobs):
    root = _copy(
        tmp_path,
        edit=("102_players.lp", OPPONENT_RULE, OPPONENT_RULE.replace("not teammate", "teammate")),
    )
    cases = [
        (n, TABLES[n])
        for n in ("two-player", "commander 2 players", "brawl 2 players", "vanguard 2 players")
    ]
    alone = consistency(cases, root)
    assert [c["scenario"] for c in alone] == [n for n, _ in cases]
    assert consistency(cases, root, jobs=jobs) == alone
    assert PARALLEL_FROM > len(generated_corpus(quick=True)) // 2


COMBAT = (
    "players: Ann, Ben\n"
    'Ann controls creature "Bear" 2/2\n'
    'Ann controls creature "Elf" 1/1\n'
    'Ben controls creature "Wall" 0/4 with defender\n'
    '"Bear" attacks Ben\n'
    '"Wall" blocks "Bear"\n'
    "ask attacks\n"
    "ask blocks\n"
)


def test_508_1d_a_legal_declared_attack_that_ask_attacks_leaves_out_is_a_conflict(tmp_path):
    root = _copy(
        tmp_path,
        add="% 508.1d: a wrong reward for creatures that stay home.\n"
        "attack_requirement_obeyed(decl,C) :- can_attack(C), not attacking_creature(C).\n",
    )
    (conflict,) = consistency([("combat", COMBAT)], root)
    assert conflict["message"] == (
        "'ask legal' finds the declaration Bear attacks Ben legal "
        "but 'ask attacks' does not list it"
    )
    assert "508.1d" in conflict["rules"] and "rules/999_broken.lp:2" in conflict["at"]


def test_509_1c_ask_blocks_without_no_blocks_is_a_conflict(tmp_path):
    root = _copy(
        tmp_path,
        add="% 509.1c: a wrong reward for every creature that blocks.\n"
        "block_requirement_obeyed(decl,B) :- blocking_creature(B).\n",
    )
    forms, conflict = consistency([("combat", COMBAT)], root)
    # `mtgkb run` lists ask blocks from its counting forms, which the broken
    # reward does not reach: the audit says that they and blocks.lp's own
    # grounding disagree, and holds the grounding's listing to 509.1c
    assert forms["message"] == (
        "'ask blocks' read from its counting forms (queries/block_classes.lp) lists "
        "2 declarations (['no blocks'], [Wall blocks Bear]) where blocks.lp's own "
        "grounding lists 1 declaration ([Wall blocks Bear])"
    )
    assert "509.1a" in forms["rules"]
    assert conflict["message"] == (
        "'ask blocks' does not list declaring no blockers although no creature must block"
    )
    assert "509.1c" in conflict["rules"] and "rules/999_broken.lp:2" in conflict["at"]
