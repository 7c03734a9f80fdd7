"""702.19c: a creature with trample over planeswalkers attacking a planeswalker
assigns lethal damage to its blockers, then at least the planeswalker's loyalty
to the planeswalker (counting what other creatures assign to it in the same
step), and may assign the rest to the planeswalker's controller."""

from helpers.answering import run

TWO = 'players: Rob, Alex\nactive: Rob\nAlex controls planeswalker "Jace" loyalty 3\n'


def answer(text: str, kind: str) -> dict:
    return next(a for a in run(text)["answers"] if a["ask"] == kind)


def test_702_19c_the_excess_past_the_blocker_and_the_loyalty_reaches_the_controller():
    text = TWO + 'Rob controls creature "Thrasta" 5/5 with trample over planeswalkers\n'
    text += 'Alex controls creature "Elf" 1/1\n"Thrasta" attacks "Jace"\n"Elf" blocks "Thrasta"\n'
    found = answer(text + "combat damage\nask outcome\n", "outcome")
    # 1 to the Elf (lethal), 3 to Jace (its loyalty), the last 1 to Alex
    assert found["life"]["Alex"] == 19
    assert found["destroyed"] == ["Elf"]
    assert {"702.19c", "702.19b"} <= set(found["rules"])


def test_702_19b_plain_trample_stops_at_the_planeswalker():
    text = TWO + 'Rob controls creature "Dreadmaw" 5/5 with trample\n'
    text += 'Alex controls creature "Elf" 1/1\n"Dreadmaw" attacks "Jace"\n"Elf" blocks "Dreadmaw"\n'
    found = answer(text + "combat damage\nask outcome\n", "outcome")
    assert found["life"]["Alex"] == 20


def test_702_19c_unblocked_it_still_goes_past_the_planeswalker():
    text = TWO + 'Rob controls creature "Thrasta" 4/4 with trample over planeswalkers\n'
    text += '"Thrasta" attacks "Jace"\n'
    found = answer(text + "combat damage\nask outcome\n", "outcome")
    assert found["life"]["Alex"] == 19
    assert "702.19c" in found["rules"]


def test_702_19c_damage_other_creatures_assign_to_the_planeswalker_counts():
    text = TWO + 'Rob controls creature "Thrasta" 3/3 with trample over planeswalkers\n'
    text += 'Rob controls creature "Grizzly Bears" 2/2\n'
    text += '"Thrasta" attacks "Jace"\n"Grizzly Bears" attacks "Jace"\n'
    found = answer(text + "combat damage\nask outcome\n", "outcome")
    # the Bears give Jace 2: Thrasta needs to give it only 1 more, the other 2 reach Alex
    assert found["life"]["Alex"] == 18


def test_702_19c_every_legal_assignment_is_listed():
    text = 'players: Rob, Alex\nactive: Rob\nAlex controls planeswalker "Jace" loyalty 1\n'
    text += 'Rob controls creature "Thrasta" 3/3 with trample over planeswalkers\n'
    text += 'Alex controls creature "Elf" 1/1\n"Thrasta" attacks "Jace"\n"Elf" blocks "Thrasta"\n'
    found = answer(text + 'ask assignments for "Thrasta"\n', "assignments")
    # Elf first (lethal 1), then Jace (loyalty 1), only then Alex
    expected = [
        {"Elf": 3},
        {"Elf": 2, "Jace": 1},
        {"Elf": 1, "Jace": 2},
        {"Elf": 1, "Jace": 1, "Alex": 1},
    ]
    assert found["count"] == 4
    assert sorted(map(sorted, (a.items() for a in found["assignments"]))) == sorted(
        map(sorted, (a.items() for a in expected))
    )
