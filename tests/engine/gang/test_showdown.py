from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import DECK, Card
from companion.engine.gang.showdown import form_hands, judge, order_hands, run_showdown
from companion.engine.gang.table import Player, Table
from companion.errors import TableError
from tests.helpers import cards

BOARD = "Kh 9d 7c 2s Js"
PLAYERS = (("Ana", "Ks 7s"), ("Bob", "Kd 9c"), ("Chloe", "Ah Qd"), ("Dan", "9h 9s"))


def gang(*players: tuple[str, str], board: str = BOARD) -> Table:
    return Table(players=tuple(Player(n, cards(c)) for n, c in players), board=cards(board))


def test_order_weakest_first_with_ties_grouped() -> None:
    t = gang(("Ana", "2c 3c"), ("Bob", "2d 3d"), ("Cy", "Ks Kc"), board="As Qs Ts 8h 6d")
    assert order_hands(form_hands(t)) == (("Ana", "Bob"), ("Cy",))


def test_vault_opens_in_the_right_order() -> None:
    result = run_showdown(gang(*PLAYERS), {"Chloe": 1, "Ana": 2, "Bob": 3, "Dan": 4})
    assert result.verdict is not None and result.verdict.opens
    assert result.order == (("Chloe",), ("Ana",), ("Bob",), ("Dan",))


def test_alarm_names_the_hand_and_the_deciding_rank() -> None:
    result = run_showdown(gang(*PLAYERS), {"Chloe": 1, "Bob": 2, "Ana": 3, "Dan": 4})
    assert result.verdict is not None and not result.verdict.opens
    (failure,) = result.verdict.failures
    assert (failure.hand.id, failure.token, failure.beaten_by.id) == ("Ana", 3, "Bob")
    assert failure.reason() == (
        "Bob's two pair, kings and nines, beats Ana's two pair, "
        "kings and sevens: second pair 9 over 7"
    )
    assert failure.reason("fr") == (
        "Bob (deux paires, rois et neuf) bat Ana (deux paires, "
        "rois et sept) : deuxième paire 9 contre 7"
    )


def test_each_failure_names_the_strongest_hand_revealed_before() -> None:
    result = run_showdown(gang(*PLAYERS), {"Dan": 1, "Chloe": 2, "Ana": 3, "Bob": 4})
    assert result.verdict is not None
    assert [(f.hand.id, f.beaten_by.id) for f in result.verdict.failures] == [
        ("Chloe", "Dan"),
        ("Ana", "Dan"),
        ("Bob", "Dan"),
    ]
    assert result.verdict.failures[0].reason().startswith("Dan's three nines beats Chloe's")


def test_ties_never_fail_in_either_order() -> None:
    t = gang(("Ana", "2c 3c"), ("Bob", "2d 3d"), board="As Qs Ts 8h 6d")
    for tokens in ({"Ana": 1, "Bob": 2}, {"Ana": 2, "Bob": 1}):
        verdict = judge(form_hands(t), tokens)
        assert verdict.opens


def test_category_reason() -> None:
    t = gang(("Ana", "Ah Kh"), ("Bob", "9h 9c"), board="2h 5h 7h 9d Jc")
    (failure,) = judge(form_hands(t), {"Ana": 1, "Bob": 2}).failures
    assert (
        failure.reason()
        == "Ana's flush, ace high, beats Bob's three nines: flush beats three of a kind"
    )


@pytest.mark.parametrize(
    ("tokens", "words"),
    [
        ({"Ana": 1, "Bob": 2}, "Chloe has no token"),
        ({"Ana": 1, "Bob": 2, "Chloe": 2}, "token 2 is given twice"),
        ({"Ana": 1, "Bob": 2, "Chloe": 4}, "not a number from 1 to 3"),
        ({"Ana": 1, "Bob": 2, "Chloe": 3, "Zed": 4}, "'Zed', which is not a hand"),
        ({"Ana": 1, "Bob": 2, "Chloe": "3"}, "not a number"),
    ],
)
def test_bad_tokens_are_named(tokens: dict[str, object], words: str) -> None:
    t = gang(*PLAYERS[:3])
    with pytest.raises(TableError, match=words):
        judge(form_hands(t), tokens)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True), st.randoms())
def test_order_never_depends_on_player_or_card_order(deck: list[Card], rng) -> None:  # type: ignore[no-untyped-def]
    board, holes = deck[:5], [deck[5 + 2 * i : 7 + 2 * i] for i in range(4)]
    players = [Player(f"P{i}", tuple(h)) for i, h in enumerate(holes)]
    base = order_hands(form_hands(Table(tuple(players), tuple(board))))
    rng.shuffle(players)
    shuffled = [Player(p.name, p.cards[::-1]) for p in players]
    board2 = list(board)
    rng.shuffle(board2)
    again = order_hands(form_hands(Table(tuple(shuffled), tuple(board2))))
    assert [sorted(g) for g in base] == [sorted(g) for g in again]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True), st.randoms())
def test_correct_order_always_opens_the_vault(deck: list[Card], rng) -> None:  # type: ignore[no-untyped-def]
    players = tuple(Player(f"P{i}", tuple(deck[5 + 2 * i : 7 + 2 * i])) for i in range(4))
    hands = form_hands(Table(players, tuple(deck[:5])))
    groups = [list(g) for g in order_hands(hands)]
    tokens: dict[str, int] = {}
    for group in groups:
        rng.shuffle(group)  # any order inside a tie is fine
        for hand_id in group:
            tokens[hand_id] = len(tokens) + 1
    assert judge(hands, tokens).opens
