from __future__ import annotations

import itertools

import numpy as np
import pkrbot
import pytest

from companion.engine.cards import DECK
from companion.engine.gang.fast import evaluate_many, value_to_category
from companion.engine.gang.ranking import Category, best_hand

# Standard counts of the 2,598,960 five-card hands per category (weakest first).
KNOWN_FIVE_CARD_COUNTS = {
    Category.HIGH_CARD: 1_302_540,
    Category.PAIR: 1_098_240,
    Category.TWO_PAIR: 123_552,
    Category.THREE_OF_A_KIND: 54_912,
    Category.STRAIGHT: 10_200,
    Category.FLUSH: 5_108,
    Category.FULL_HOUSE: 3_744,
    Category.FOUR_OF_A_KIND: 624,
    Category.STRAIGHT_FLUSH: 40,
}
# Standard counts of the 133,784,560 seven-card hands are too many to enumerate in a test;
# distinct five-card values (7,462) pin down the tie structure instead.
DISTINCT_FIVE_CARD_VALUES = 7_462


def _random_hands(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size]


def test_every_five_card_hand_follows_the_known_distribution() -> None:
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int64)
    values = evaluate_many(hands)
    categories = value_to_category(values)
    counts = {
        Category(c): int(n) for c, n in zip(*np.unique(categories, return_counts=True), strict=True)
    }
    assert counts == KNOWN_FIVE_CARD_COUNTS
    assert len(np.unique(values)) == DISTINCT_FIVE_CARD_VALUES


@pytest.mark.parametrize("size", [5, 6, 7])
def test_agrees_with_the_general_ranker(size: int) -> None:
    rng = np.random.default_rng(size)
    hands = _random_hands(rng, 1500, size)
    fast = evaluate_many(hands)
    slow = [best_hand((), tuple(DECK[i] for i in row)) for row in hands.tolist()]
    order = np.argsort(fast, kind="stable")
    for a, b in itertools.pairwise(order.tolist()):
        assert (fast[a] < fast[b]) == (slow[a] < slow[b])
        assert (fast[a] == fast[b]) == (slow[a] == slow[b])
    assert [int(v) >> 20 for v in fast] == [int(s.category) for s in slow]


def test_agrees_with_an_independent_evaluator() -> None:
    rng = np.random.default_rng(7)
    hands = _random_hands(rng, 50_000, 7)
    names = [r + s for r in "23456789TJQKA" for s in "shdc"]
    deck = [pkrbot.Card(name) for name in names]
    theirs = np.array([pkrbot.evaluate([deck[i] for i in row]) for row in hands.tolist()])
    ours = evaluate_many(hands)
    # Same order and same ties: sorting by one keeps the other sorted too.
    order = np.lexsort((theirs, ours))
    assert np.all(np.diff(theirs[order]) >= 0)
    assert np.array_equal(np.diff(ours[order]) == 0, np.diff(theirs[order]) == 0)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([[0, 1, 2, 3]], "shape"),
        ([[0, 1, 2, 3, 4, 5, 6, 7]], "shape"),
        ([[0.0, 1, 2, 3, 4]], "integers"),
        ([[0, 1, 2, 3, 52]], "0..51"),
        ([[0, 1, 2, 3, -1]], "0..51"),
        ([[0, 1, 2, 3, 1000]], "0..51"),
        ([[0, 1, 2, 3, 3]], "same card twice"),
        ([[0, 1, 2, 3, 4, 4, 9]], "same card twice"),
    ],
)
def test_bad_input_is_refused(cards: list[list[float]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_many(cards)


def test_empty_input_gives_empty_output() -> None:
    assert evaluate_many(np.zeros((0, 7), dtype=np.int64)).shape == (0,)


def test_blocks_join_seamlessly() -> None:
    rng = np.random.default_rng(3)
    hands = _random_hands(rng, 40_000, 7)
    whole = evaluate_many(hands)
    parts = np.concatenate([evaluate_many(hands[i : i + 999]) for i in range(0, 40_000, 999)])
    assert np.array_equal(whole, parts)


def test_public_tables_value_hands_as_evaluate_many() -> None:
    from companion.engine.gang.fast import lookup_tables, rank_key, rank_multisets, rank_slots

    tables = lookup_tables()
    rng = np.random.default_rng(11)
    for size in (5, 6, 7):
        hands = np.argsort(rng.random((2000, 52)), axis=1)[:, :size]
        counts = np.zeros((len(hands), 13), dtype=np.int64)
        np.add.at(counts, (np.arange(len(hands))[:, None], hands // 4), 1)
        suits = np.zeros((len(hands), 4), dtype=np.int64)
        np.bitwise_or.at(suits, (np.arange(len(hands))[:, None], hands % 4), 1 << (hands // 4))
        # Rank keys add: the key of the counts is the sum of the suits' keys.
        keys = rank_key(counts)
        assert (keys == tables.suit_rank_key[suits].sum(axis=1)).all()
        values = np.maximum(
            tables.rank_table[rank_slots(keys)], tables.flush_table[suits].max(axis=1)
        )
        assert (values == evaluate_many(hands)).all()
    assert len(rank_multisets(5)) == 6175  # 7,462 classes less the 1,287 flush-only ones
    with pytest.raises(ValueError, match="read-only"):
        tables.rank_table[0] = 1
