from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import DECK, Card
from companion.engine.cribbage.score import (
    Rule,
    card_value,
    run_order,
    score_heels,
    score_peg,
    score_show,
    show_points_many,
)
from companion.errors import DuplicateCardError, IllegalMoveError, TableError
from tests.helpers import cards


def one(text: str) -> Card:
    return cards(text)[0]


# Expected values worked out by hand, one combination at a time.
SHOWS = [
    # hand, starter, crib, total, fifteens, pairs, runs, flush, nobs
    ("4c 5d 6h Kc", "5s", False, 16, 8, 2, 6, 0, 0),  # the example
    ("5h 5d 5c Js", "5s", False, 29, 16, 12, 0, 0, 1),  # the 29 hand
    ("5h 5d 5c 5s", "Js", False, 28, 16, 12, 0, 0, 0),  # jack turned: no nobs
    ("9c Td Th Js", "2h", False, 8, 0, 2, 6, 0, 0),  # double run of three
    ("9c Td Th Ts", "Jh", False, 15, 0, 6, 9, 0, 0),  # triple run
    ("9c 9d Th Ts", "Jh", False, 16, 0, 4, 12, 0, 0),  # double-double run
    ("8c 9d Th Ts", "Jh", False, 10, 0, 2, 8, 0, 0),  # double run of four
    ("Ac 2d 3h 4s", "5h", False, 7, 2, 0, 5, 0, 0),  # run of five, all five make 15
    ("Kh Ah 2h 3c", "Qd", False, 7, 4, 0, 3, 0, 0),  # A-2-3 runs, K-A-2 does not wrap
    ("2h 4h 6h 8h", "Kc", False, 4, 0, 0, 0, 4, 0),  # four-card flush in the hand
    ("2h 4h 6h 8h", "Kc", True, 0, 0, 0, 0, 0, 0),  # ...is nothing in the crib
    ("2h 4h 6h 8h", "Qh", False, 5, 0, 0, 0, 5, 0),  # five-card flush
    ("2h 4h 6h 8h", "Qh", True, 5, 0, 0, 0, 5, 0),  # ...counts in the crib too
    ("2h 4h 6h 8c", "Qh", False, 0, 0, 0, 0, 0, 0),  # four hearts with the starter: no flush
    ("Jh 2c 4d 7s", "Kh", False, 1, 0, 0, 0, 0, 1),  # nobs
    ("Kh 2c 4d 7s", "Jh", False, 0, 0, 0, 0, 0, 0),  # a jack starter is heels, not nobs
    ("Jd 2c 4d 7s", "Kh", False, 0, 0, 0, 0, 0, 0),  # jack of another suit
    ("2c 4d 8s Th", "Qs", False, 0, 0, 0, 0, 0, 0),  # a "nineteen" hand
    ("Jd 2c 4d 7s", "Kd", True, 1, 0, 0, 0, 0, 1),  # nobs counts in the crib
]


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "total", "fifteens", "pairs", "runs", "flush", "nobs"), SHOWS
)
def test_score_show(
    hand: str,
    starter: str,
    crib: bool,
    total: int,
    fifteens: int,
    pairs: int,
    runs: int,
    flush: int,
    nobs: int,
) -> None:
    show = score_show(cards(hand), one(starter), crib=crib)
    assert (show.fifteens, show.pairs, show.runs, show.flush, show.nobs) == (
        fifteens,
        pairs,
        runs,
        flush,
        nobs,
    )
    assert show.total == total == sum(item.points for item in show.items)


def test_example_items_name_each_combination() -> None:
    show = score_show(cards("4c 5d 6h Kc"), one("5s"))
    found = Counter((item.rule, item.points, frozenset(item.cards)) for item in show.items)
    expected = Counter(
        (rule, points, frozenset(cards(text)))
        for rule, points, text in [
            (Rule.FIFTEEN, 2, "4c 5d 6h"),
            (Rule.FIFTEEN, 2, "4c 5s 6h"),
            (Rule.FIFTEEN, 2, "5d Kc"),
            (Rule.FIFTEEN, 2, "5s Kc"),
            (Rule.PAIR, 2, "5d 5s"),
            (Rule.RUN, 3, "4c 5d 6h"),
            (Rule.RUN, 3, "4c 5s 6h"),
        ]
    )
    assert found == expected


def test_runs_inside_a_longer_run_are_not_counted() -> None:
    show = score_show(cards("3c 4d 5h 6s"), one("Kh"))
    assert [(item.rule, item.points) for item in show.items if item.rule == Rule.RUN] == [
        (Rule.RUN, 4)
    ]


@pytest.mark.parametrize(
    ("hand", "starter", "error", "named"),
    [
        ("4c 5d 6h", "5s", TableError, "4♣ 5♦ 6♥"),
        ("4c 5d 6h Kc 2s", "5s", TableError, "not 5"),
        ("4c 5d 6h *", "5s", TableError, "*"),
        ("4c 5d 6h Kc", "*s", TableError, "starter"),
        ("4c 5d 6h 4c", "5s", DuplicateCardError, "4♣"),
        ("4c 5d 6h Kc", "Kc", DuplicateCardError, "K♣"),
    ],
)
def test_score_show_refuses_bad_hands(
    hand: str, starter: str, error: type[Exception], named: str
) -> None:
    with pytest.raises(error) as info:
        score_show(cards(hand), one(starter))
    assert named in str(info.value)


def test_heels() -> None:
    assert [(item.rule, item.points) for item in score_heels(one("Jd"))] == [(Rule.HEELS, 2)]
    assert score_heels(one("Qd")) == ()


@pytest.mark.parametrize(
    ("card", "value", "order"),
    [("As", 1, 0), ("2s", 2, 1), ("9h", 9, 8), ("Td", 10, 9), ("Jc", 10, 10), ("Ks", 10, 12)],
)
def test_card_value_and_run_order(card: str, value: int, order: int) -> None:
    assert (card_value(one(card)), run_order(one(card))) == (value, order)


PEGS = [
    # count sequence, end, points, rules
    ("5h", None, 0, []),
    ("5h Td", None, 2, [Rule.FIFTEEN]),
    ("Td 5s Kc 6h", None, 2, [Rule.THIRTY_ONE]),
    ("Td 5s Kc 6h", Rule.GO, 2, [Rule.THIRTY_ONE]),  # never a go on top of 31
    ("Td 5s Kc 6h", Rule.LAST_CARD, 2, [Rule.THIRTY_ONE]),
    ("Kh Qd 8s", Rule.GO, 1, [Rule.GO]),
    ("Kh Qd", Rule.LAST_CARD, 1, [Rule.LAST_CARD]),
    ("7h 7d", None, 2, [Rule.PAIR]),
    ("7h 7d 7s", None, 6, [Rule.PAIR_ROYAL]),
    ("7h 7d 7s 7c", None, 12, [Rule.DOUBLE_PAIR_ROYAL]),
    ("5h 5d 5s", None, 8, [Rule.FIFTEEN, Rule.PAIR_ROYAL]),
    ("Ah Ad Ac As", None, 12, [Rule.DOUBLE_PAIR_ROYAL]),
    ("7h 7d 8s 7s", None, 0, []),  # the pair is broken by the 8
    ("4c 6d 5h", None, 5, [Rule.FIFTEEN, Rule.RUN]),
    ("3c 4d 3h", None, 0, []),  # a repeat is not a run
    ("2c 4h 3d 6c 5s", None, 5, [Rule.RUN]),  # five in any order
    ("6c 2c 4h 3d", None, 5, [Rule.FIFTEEN, Rule.RUN]),  # only the last three run
    ("5c 5d 4h 6s", None, 3, [Rule.RUN]),
    ("Qh Kd Jc", None, 3, [Rule.RUN]),
    ("Kh Ah 2h", None, 0, []),  # no wrap around the ace
    ("2c 3d 4h 2s", None, 3, [Rule.RUN]),  # 3-4-2 after the first two
    ("4s 4h 3c 2d", None, 3, [Rule.RUN]),  # 4-3-2 at the tail
    ("Ts Th 5c", None, 0, []),  # the pair of tens is not on the last card
    ("9s 6h", None, 2, [Rule.FIFTEEN]),
    ("5s 5h 5c 5d Ah", None, 0, []),  # count 21, no pair with the ace
    ("4h 4c 4d 3s", None, 2, [Rule.FIFTEEN]),  # the trips ended before the 3
]


@pytest.mark.parametrize(("sequence", "end", "points", "rules"), PEGS)
def test_score_peg(sequence: str, end: Rule | None, points: int, rules: list[Rule]) -> None:
    items = score_peg(cards(sequence), end)
    assert [item.rule for item in items] == rules
    assert sum(item.points for item in items) == points


def test_peg_refuses_a_count_past_31_naming_the_card() -> None:
    with pytest.raises(IllegalMoveError) as info:
        score_peg(cards("Kh Qd Jc 5s"))
    assert info.value.rule == "count_over_31"
    assert "5♠" in str(info.value) and "35" in str(info.value)


def test_peg_refuses_a_repeated_card() -> None:
    with pytest.raises(DuplicateCardError):
        score_peg(cards("5h 5h"))


# --- properties --------------------------------------------------------------------------------

five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(five_cards, st.booleans(), st.randoms(use_true_random=False))
def test_show_properties(dealt: list[Card], crib: bool, rng: random.Random) -> None:
    hand, starter = tuple(dealt[:4]), dealt[4]
    show = score_show(hand, starter, crib=crib)
    parts = show.fifteens + show.pairs + show.runs + show.flush + show.nobs
    assert show.total == parts == sum(item.points for item in show.items)
    assert show.total <= 29 and show.total not in (19, 25, 26, 27)
    shuffled = list(hand)
    rng.shuffle(shuffled)
    assert score_show(shuffled, starter, crib=crib).total == show.total
    fast = show_points_many(np.array([[card.id for card in hand]]), np.array([starter.id]), crib)
    assert int(fast[0]) == show.total


@settings(max_examples=200, deadline=None)
@given(five_cards)
def test_crib_differs_from_hand_only_by_a_four_card_flush(dealt: list[Card]) -> None:
    hand, starter = tuple(dealt[:4]), dealt[4]
    difference = score_show(hand, starter).total - score_show(hand, starter, crib=True).total
    four_flush = len({card.suit for card in hand}) == 1 and starter.suit != hand[0].suit
    assert difference == (4 if four_flush else 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True))
def test_peg_points_come_from_the_tail(sequence: list[Card]) -> None:
    total = sum(card_value(card) for card in sequence)
    if total > 31:
        with pytest.raises(IllegalMoveError):
            score_peg(sequence)
        return
    items = score_peg(sequence)
    for item in items:
        # Every reason is about cards ending with the one just played.
        assert item.cards[-1] == sequence[-1]
        assert tuple(sequence[-len(item.cards) :]) == item.cards
    assert sum(1 for item in items if item.rule == Rule.RUN) <= 1


def test_fast_path_matches_the_itemized_scorer_on_every_rank_multiset() -> None:
    # One deal per multiset of five ranks; hand suits 0-3 so only the jack's nobs can add.
    hands, starters, expected = [], [], []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        five = [DECK[4 * rank + index % 4] for index, rank in enumerate(ranks)]
        hands.append([card.id for card in five[:4]])
        starters.append(five[4].id)
        expected.append(score_show(five[:4], five[4]).total)
    assert len(expected) == comb(17, 5) - 13
    assert show_points_many(np.array(hands), np.array(starters)).tolist() == expected


# --- the exhaustive check ----------------------------------------------------------------------

# Published distribution of the hand (not crib) over all 12,994,800 hand + starter deals:
# S. Lumetta, "Amusing Cribbage Facts" (lumetta.web.engr.illinois.edu/humor/cribbage.html).
KNOWN_HAND_COUNTS = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
    7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
    14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496,
    22: 444, 23: 356, 24: 3680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}  # fmt: skip


def _all_shows(crib: bool) -> np.ndarray:
    hands = np.array(list(combinations(range(52), 4)), dtype=np.int16)
    counts = np.zeros(30, dtype=np.int64)
    for starter in range(52):
        rest = hands[(hands != starter).all(axis=1)]
        points = show_points_many(rest, np.full(len(rest), starter, dtype=np.int16), crib=crib)
        counts += np.bincount(points, minlength=30)
    return counts


@pytest.mark.slow
def test_every_hand_and_starter_follows_the_known_distribution() -> None:
    hand = _all_shows(crib=False)
    assert hand.sum() == comb(52, 4) * 48 == 12_994_800
    assert dict(enumerate(hand.tolist())) == KNOWN_HAND_COUNTS
    crib = _all_shows(crib=True)
    assert crib.sum() == 12_994_800
    # The crib loses exactly the four-card flushes that the starter does not match.
    four_flushes = 4 * comb(13, 4) * 39
    weights = np.arange(30)
    assert int(hand @ weights - crib @ weights) == 4 * four_flushes
    assert crib[0] == 1_022_208  # zero cribs, as published alongside the hand counts
