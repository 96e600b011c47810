from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import DECK, Card, Rank
from companion.engine.gang.ranking import (
    Category,
    Ranking,
    Straights,
    TableRules,
    best_hand,
    rank_five,
)
from companion.errors import TableError
from tests.helpers import cards

HIGH = TableRules()
WRAP = TableRules(straights=Straights.WRAP)
A5 = TableRules(ranking=Ranking.LOW_A5)
D27 = TableRules(ranking=Ranking.LOW_27)
C = Category


@pytest.mark.parametrize(
    ("hand", "rules", "category", "deciding"),
    [
        ("As Ks Qs Js Ts", HIGH, C.STRAIGHT_FLUSH, "A"),
        ("5d 4d 3d 2d Ad", HIGH, C.STRAIGHT_FLUSH, "5"),
        ("9c 9d 9h 9s 2c", HIGH, C.FOUR_OF_A_KIND, "92"),
        ("Kc Kd Kh 9s 9c", HIGH, C.FULL_HOUSE, "K9"),
        ("Ah Jh 8h 4h 2h", HIGH, C.FLUSH, "AJ842"),
        ("Ah 2c 3d 4s 5h", HIGH, C.STRAIGHT, "5"),
        ("Th Jc Qd Ks Ah", HIGH, C.STRAIGHT, "A"),
        ("Qh Kc Ad 2s 3h", HIGH, C.HIGH_CARD, "AKQ32"),  # an ace never sits in the middle
        ("Qh Kc Ad 2s 3h", WRAP, C.STRAIGHT, "3"),
        ("Jh Qc Kd As 2h", WRAP, C.STRAIGHT, "2"),
        ("7c 7d 7h As 2c", HIGH, C.THREE_OF_A_KIND, "7A2"),
        ("Kc Kd 9h 9s 2c", HIGH, C.TWO_PAIR, "K92"),
        ("Kc Kd 9h 5s 2c", HIGH, C.PAIR, "K952"),
        ("Kc Jd 9h 5s 2c", HIGH, C.HIGH_CARD, "KJ952"),
        # Lowball: ace-to-five ignores straights and flushes, the ace is low.
        ("5h 4h 3h 2h Ah", A5, C.HIGH_CARD, "5432A"),
        ("Kc Kd 9h 5s 2c", A5, C.PAIR, "K952"),
        # Deuce-to-seven: A-2-3-4-5 is no straight, just ace high.
        ("Ah 2c 3d 4s 5h", D27, C.HIGH_CARD, "A5432"),
        ("7h 5c 4d 3s 2h", D27, C.HIGH_CARD, "75432"),
        ("6h 5c 4d 3s 2h", D27, C.STRAIGHT, "6"),
        ("8h 6h 4h 3h 2h", D27, C.FLUSH, "86432"),
    ],
)
def test_categories_and_deciding_ranks(
    hand: str, rules: TableRules, category: Category, deciding: str
) -> None:
    value = rank_five(cards(hand), rules)
    assert value.category is category
    assert "".join(r.symbol for r in value.deciding) == deciding


@pytest.mark.parametrize(
    ("stronger", "weaker", "rules"),
    [
        ("6h 5c 4d 3s 2h", "Ah 2c 3d 4s 5h", HIGH),  # the wheel is the lowest straight
        ("Ah 2c 3d 4s 5h", "Kh Ac 2d 3s 4h", WRAP),  # wrap straights rank below the wheel
        ("Kh Ac 2d 3s 4h", "Qh Kc Ad 2s 3h", WRAP),
        ("Qh Kc Ad 2s 3h", "Jh Qc Kd As 2h", WRAP),
        ("Jh Qc Kd As 2h", "As Ad Ac Kd Qh", WRAP),  # still a straight: beats trips
        ("Kc Kd Ah 5s 2c", "Kh Ks Qh 5d 2d", HIGH),  # kicker
        ("Kc Kd 9h 9s 2c", "Kh Ks 7h 7d Ad", HIGH),  # second pair decides before the kicker
        ("Kc Kd 9h 9s 3c", "Kh Ks 9c 9d 2d", HIGH),  # then the kicker
        ("2c 2d 2h 3s 3c", "Ah Ad Ac Ks Qd", HIGH),
        ("Ah 2c 3d 4s 5h", "Ah 2c 3d 4s 6h", A5),  # the wheel is the best ace-to-five hand
        ("6h 5c 4d 3s 2h", "Kh Kc 2d 3s 4h", A5),
        ("Ac 2d 3h 4s 6c", "Ah 2h 3h 4h 7h", A5),
        ("7h 5c 4d 3s 2h", "7h 6c 4d 3s 2h", D27),
        ("7h 5c 4d 3s 2h", "Ah 2c 3d 4s 5h", D27),  # A-high is bad at 2-7
        ("8h 6c 4d 3s 2h", "6h 5c 4d 3s 2c", D27),  # a straight is bad at 2-7
        ("Kh Qc 9d 7s 5c", "8h 6h 4h 3h 2h", D27),  # so is a flush
    ],
)
def test_known_orderings(stronger: str, weaker: str, rules: TableRules) -> None:
    assert rank_five(cards(stronger), rules) > rank_five(cards(weaker), rules)


def test_suits_never_break_ties() -> None:
    assert rank_five(cards("As Kd Qh 9c 2s")) == rank_five(cards("Ah Kc Qd 9s 2h"))


def test_third_pair_on_the_river_turns_the_pocket_pair_into_a_kicker() -> None:
    board = cards("Kh Kd 9c 9s 4h")
    ana = best_hand(cards("7c 7s"), board)
    bob = best_hand(cards("Ah 2c"), board)
    assert ana.category is bob.category is C.TWO_PAIR
    assert [r.symbol for r in ana.deciding] == ["K", "9", "7"]
    assert bob > ana


def test_both_playing_the_board_is_a_perfect_tie() -> None:
    board = cards("As Ks Qs Js Ts")
    assert best_hand(cards("2c 3d"), board) == best_hand(cards("4h 5h"), board)


@pytest.mark.parametrize(
    ("hand", "rules", "category", "deciding"),
    [
        ("* 9h Tc Jd Qs", HIGH, C.STRAIGHT, "K"),  # the wild goes on top, not below
        ("* 2c 3d 4h 5s", HIGH, C.STRAIGHT, "6"),
        ("* As Ks Qs Js", HIGH, C.STRAIGHT_FLUSH, "A"),
        ("* * 2c 3d 4h", HIGH, C.STRAIGHT, "6"),
        ("* Ah Ad Ac Kd", HIGH, C.FOUR_OF_A_KIND, "AK"),
        ("* Ah Ad Ac As", HIGH, C.FIVE_OF_A_KIND, "A"),
        ("* Ah Kh Qh Jh", HIGH, C.STRAIGHT_FLUSH, "A"),
        ("* * Ah Ah Kh", HIGH, C.FLUSH_HOUSE, "AK"),  # two decks + wilds: copies are fine
        ("* * * Ah Ah", HIGH, C.FLUSH_FIVE, "A"),
        ("*h Ah Ad Kh Kc", HIGH, C.FULL_HOUSE, "AK"),
        ("*s Ah Ad Kh Kc", HIGH, C.FULL_HOUSE, "AK"),
        ("*h Ah Ah Kh Kh", HIGH, C.FLUSH_HOUSE, "AK"),
        ("*c 2h 3h 4h 5h", HIGH, C.STRAIGHT, "6"),  # a bound knight cannot make the flush
        ("*h 2h 3h 4h 5h", HIGH, C.STRAIGHT_FLUSH, "6"),
        ("* * * * *", HIGH, C.FLUSH_FIVE, "A"),
        ("* 2c 3d 4h 5s", A5, C.HIGH_CARD, "5432A"),
        # At lowball a wild card is the lowest card missing (issue #43), even where a higher
        # one would be better; only its suit is chosen (here: to avoid the flush).
        ("* 2h 3h 4h 5h", D27, C.STRAIGHT, "6"),
        ("* * 3h 4h 5h", D27, C.STRAIGHT, "6"),
        ("* 6h 5c 4d 3s", D27, C.STRAIGHT, "6"),  # 2 is missing: a straight, not 8-6-5-4-3
        ("* 7h 6c 5d 4s", D27, C.HIGH_CARD, "76542"),
        ("* Kh Qc 5d 4s", A5, C.HIGH_CARD, "KQ54A"),
        ("* Ah Qc 5d 4s", A5, C.HIGH_CARD, "Q542A"),
    ],
)
def test_wild_cards_take_their_value(
    hand: str, rules: TableRules, category: Category, deciding: str
) -> None:
    value = rank_five(cards(hand), rules)
    assert value.category is category
    assert "".join(r.symbol for r in value.deciding) == deciding
    assert not any(c.is_wild for c in value.played_as)


def test_wild_played_as_is_shown_in_place() -> None:
    value = rank_five(cards("* 9h Tc Jd Qs"))
    assert [str(c) for c in value.best] == ["*", "Qs", "Jd", "Tc", "9h"]
    assert [c.rank for c in value.played_as][0] is Rank.KING


def test_worst_takes_the_lowest_combination() -> None:
    value = best_hand(cards("2c 3d 7h 8s"), cards("Ah Kh Qh Jh 9h"), max_hole=2, worst=True)
    assert value.category is C.HIGH_CARD
    assert [r.symbol for r in value.deciding] == ["Q", "J", "9", "3", "2"]


def test_max_hole_limits_hole_cards() -> None:
    board = cards("Ah Kh 2c 3d 7s")
    # With four hearts in hand but at most two used, no flush.
    assert best_hand(cards("Qh Jh Th 9h"), board, max_hole=2).category is C.HIGH_CARD
    assert best_hand(cards("Qh Jh Th 9h"), board).category is C.STRAIGHT_FLUSH


def test_too_few_cards_is_a_table_error() -> None:
    with pytest.raises(TableError):
        best_hand(cards("As"), cards("Kd Qh"))


def test_rank_five_needs_five_cards() -> None:
    with pytest.raises(TableError, match="5 cards"):
        rank_five(cards("As Kd"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True), st.randoms())
def test_card_order_never_matters(seven: list[Card], rng: random.Random) -> None:
    shuffled = list(seven)
    rng.shuffle(shuffled)
    assert best_hand(tuple(seven[:2]), tuple(seven[2:])) == best_hand(
        tuple(seven[:2]), tuple(seven[2:][::-1])
    )
    assert best_hand((), tuple(seven)) == best_hand((), tuple(shuffled))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True))
def test_one_more_card_never_lowers_a_high_hand(seven: list[Card]) -> None:
    six = tuple(seven[:6])
    assert best_hand((), tuple(seven)) >= best_hand((), six)
