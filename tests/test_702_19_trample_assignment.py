"""510.1c, 510.1d, 702.19b, 702.19d, 702.2c: damage assignment, declared,
by default and enumerated (`ask assignments for "C"`)."""

from helpers.combat_answers import as_set, assignments, legal, outcome

TWO = "players: Rob, Alex\nactive: Rob\n"
DREADMAW = TWO + 'Rob controls creature "Dreadmaw" 6/6 with trample\n'
DREADMAW += 'Alex controls creature "Rats" 1/1\nAlex controls creature "Ogre" 3/3\n'
DREADMAW += '"Dreadmaw" attacks Alex\n'


def test_702_19b_by_default_a_trampler_assigns_lethal_to_its_blocker_and_the_rest_to_the_player():
    found = outcome(DREADMAW + '"Ogre" blocks "Dreadmaw"\n')
    assert found["life"]["Alex"] == 17
    assert found["destroyed"] == ["Ogre"]
    assert "702.19b" in found["rules"]


def test_510_1c_without_trample_the_rest_goes_to_the_last_blocker_in_block_order():
    text = TWO + 'Rob controls creature "Giant" 5/5\n'
    text += 'Alex controls creature "Z Wall" 0/2\nAlex controls creature "A Wall" 0/7\n'
    text += '"Giant" attacks Alex\n"Z Wall" blocks "Giant"\n"A Wall" blocks "Giant"\n'
    found = outcome(text)
    # declared first: Z Wall gets lethal 2, A Wall (declared last) the remaining 3
    assert found["destroyed"] == ["Z Wall"]
    assert found["life"]["Alex"] == 20


def test_702_19b_a_declared_assignment_past_lethal_is_legal_and_is_followed():
    text = DREADMAW + '"Rats" blocks "Dreadmaw"\n'
    text += '"Dreadmaw" assigns 2 damage to "Rats", 4 damage to Alex\n'
    assert legal(text)["legal"] is True
    assert outcome(text)["life"]["Alex"] == 16


def test_702_19b_assigning_to_the_player_before_lethal_to_every_blocker_is_illegal():
    text = DREADMAW + '"Rats" blocks "Dreadmaw"\n"Ogre" blocks "Dreadmaw"\n'
    text += '"Dreadmaw" assigns 1 damage to "Rats", 2 damage to "Ogre", 3 damage to Alex\n'
    found = legal(text)
    assert found["legal"] is False
    assert [v["rule"] for v in found["violations"]] == ["702.19b"]
    assert found["violations"][0]["objects"] == ["Dreadmaw", "Ogre"]


def test_702_2c_with_deathtouch_one_damage_is_lethal_for_trample():
    text = TWO + 'Rob controls creature "Dreadmaw" 6/6 with trample, deathtouch\n'
    text += 'Alex controls creature "Ogre" 3/3\n"Dreadmaw" attacks Alex\n"Ogre" blocks "Dreadmaw"\n'
    text += '"Dreadmaw" assigns 1 damage to "Ogre", 5 damage to Alex\n'
    assert legal(text)["legal"] is True
    found = outcome(text)
    assert found["life"]["Alex"] == 15
    assert found["destroyed"] == ["Ogre"]
    assert "704.5h" in found["rules"]


def test_702_19a_trample_on_a_blocker_does_nothing():
    text = TWO + 'Rob controls creature "Bear" 2/2\n'
    text += 'Alex controls creature "Crusher" 5/5 with trample\n'
    text += '"Bear" attacks Alex\n"Crusher" blocks "Bear"\n'
    found = outcome(text)
    assert found["life"] == {"Rob": 20, "Alex": 20}
    assert found["destroyed"] == ["Bear"]
    assert "702.19b" not in found["rules"]
    assert assignments(text, "Crusher")["assignments"] == [{"Bear": 5}]


def test_510_1e_a_wrong_assignment_is_judged_with_the_player_s_whole_assignment():
    text = DREADMAW + '"Ogre" blocks "Dreadmaw"\n'
    text += '"Dreadmaw" assigns 2 damage to "Ogre", 4 damage to Alex\n'
    found = legal(text)
    assert [v["rule"] for v in found["violations"]] == ["702.19b"]
    assert "510.1e" in found["rules"]


def test_510_1c_a_blocked_creature_without_trample_cant_assign_to_the_player():
    text = TWO + 'Rob controls creature "Giant" 5/5\nAlex controls creature "Wall" 0/2\n'
    text += '"Giant" attacks Alex\n"Wall" blocks "Giant"\n'
    text += '"Giant" assigns 2 damage to "Wall", 3 damage to Alex\n'
    found = legal(text)
    assert [v["rule"] for v in found["violations"]] == ["510.1c"]


def test_702_19b_other_creatures_damage_counts_toward_lethal():
    # 702.19b's own example: a 2/2 blocked by... here two attackers share one 2/2 blocker
    text = TWO + 'Rob controls creature "Bear" 1/1\n'
    text += 'Rob controls creature "Trampler" 3/3 with trample\n'
    text += 'Alex controls creature "Wall" 0/2\n'
    text += '"Bear" attacks Alex\n"Trampler" attacks Alex\n'
    text += '"Wall" blocks "Bear"\n"Wall" blocks "Trampler"\n'
    text += '"Trampler" assigns 1 damage to "Wall", 2 damage to Alex\n'
    found = legal(text)
    # the Wall blocking two is itself illegal (509.1a); the assignment is not
    assert "702.19b" not in [v["rule"] for v in found["violations"]]


def test_510_1c_ask_assignments_enumerates_every_division_of_a_trampler():
    found = assignments(
        DREADMAW + '"Rats" blocks "Dreadmaw"\n"Ogre" blocks "Dreadmaw"\n', "Dreadmaw"
    )
    # Alex gets 0: 7 divisions between the blockers; Alex gets some only once Rats >= 1
    # and Ogre >= 3: (1,3,2), (1,4,1), (2,3,1)
    assert found["count"] == 7 + 3
    assert found["complete"] is True
    assert {"Rats": 1, "Ogre": 3, "Alex": 2} in found["assignments"]
    assert {"Rats": 1, "Ogre": 2, "Alex": 3} not in found["assignments"]
    assert {"510.1c", "702.19b"} <= set(found["rules"])


def test_510_1c_ask_assignments_of_a_non_trampler_blocked_by_two():
    text = TWO + 'Rob controls creature "Regrower" 4/3\n'
    text += 'Alex controls creature "Spawn" 2/3\nAlex controls creature "Hunter" 1/1\n'
    text += '"Regrower" attacks Alex\n"Spawn" blocks "Regrower"\n"Hunter" blocks "Regrower"\n'
    found = assignments(text, "Regrower")
    # 510.1c's own example: any division among the blockers, in any order
    assert as_set(found["assignments"]) == as_set(
        [
            {"Hunter": 4},
            {"Spawn": 1, "Hunter": 3},
            {"Spawn": 2, "Hunter": 2},
            {"Spawn": 3, "Hunter": 1},
            {"Spawn": 4},
        ]
    )
    assert found["count"] == 5


def test_510_1b_an_unblocked_attacker_has_one_assignment():
    found = assignments(DREADMAW, "Dreadmaw")
    assert found["assignments"] == [{"Alex": 6}]
    assert "510.1b" in found["rules"]


def test_510_1d_a_blocker_assigns_to_the_attacker_it_blocks():
    found = assignments(DREADMAW + '"Ogre" blocks "Dreadmaw"\n', "Ogre")
    assert found["assignments"] == [{"Dreadmaw": 3}]
    assert "510.1d" in found["rules"]


def test_702_19d_a_trampler_whose_blockers_died_first_assigns_all_to_the_player():
    text = TWO + 'Rob controls creature "Dreadmaw" 4/4 with trample\n'
    text += 'Rob controls creature "Archer" 2/2 with first strike\n'
    text += 'Alex controls creature "Rats" 1/1\n'
    text += '"Dreadmaw" attacks Alex\n"Archer" attacks Alex\n"Rats" blocks "Dreadmaw"\n'
    text += '"Rats" blocks "Archer"\n'
    # the Rats block both (illegal, 509.1a, but followed): the Archer kills them first
    found = outcome(text)
    assert found["life"]["Alex"] == 20 - 4
    assert "702.19d" in found["rules"]
    assert assignments(text, "Dreadmaw")["assignments"] == [{"Alex": 4}]


def test_510_1c_a_blocked_creature_whose_blocker_died_first_deals_no_damage():
    text = (
        TWO
        + 'Rob controls creature "Bear" 2/2\nRob controls creature "Archer" 2/2 with first strike\n'
    )
    text += 'Alex controls creature "Rats" 1/1\n'
    text += (
        '"Bear" attacks Alex\n"Archer" attacks Alex\n"Rats" blocks "Bear"\n"Rats" blocks "Archer"\n'
    )
    assert outcome(text)["life"]["Alex"] == 20
    found = assignments(text, "Bear")
    assert found["count"] == 1 and found["assignments"] == [{}]


def test_510_1_a_declared_assignment_to_a_recipient_that_is_gone_falls_back_to_the_default():
    text = TWO + 'Rob controls creature "Swiftblade" 4/4 with double strike, trample\n'
    text += 'Alex controls creature "Rats" 1/1\nAlex controls creature "Ogre" 3/5\n'
    text += '"Swiftblade" attacks Alex\n"Rats" blocks "Swiftblade"\n"Ogre" blocks "Swiftblade"\n'
    text += '"Swiftblade" assigns 1 damage to "Rats", 3 damage to "Ogre"\n'
    found = outcome(text)
    # first step: as declared (Rats die, Ogre has 3 marked); second: Rats gone, so the
    # default: Ogre needs 2 more, 2 trample over to Alex
    assert found["life"]["Alex"] == 18
    assert sorted(found["destroyed"]) == ["Ogre", "Rats"]
