from __future__ import annotations

import itertools

import numpy as np
import pkrbot
import pytest

from companion.engine.cards import DECK
from companion.engine.gang.batch_values import evaluate_many, value_to_category
from companion.engine.gang.ranking import Category, HandValue, best_hand

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


def _assert_same_order(fast: np.ndarray, slow: list[HandValue]) -> None:
    """Same order and same ties, checked between neighbours in the fast values' order."""
    order = np.argsort(fast, kind="stable")
    for a, b in itertools.pairwise(order.tolist()):
        assert (fast[a] < fast[b]) == (slow[a] < slow[b])
        assert (fast[a] == fast[b]) == (slow[a] == slow[b])


@pytest.mark.parametrize("size", [5, 6, 7])
def test_agrees_with_the_general_ranker(size: int) -> None:
    rng = np.random.default_rng(size)
    hands = _random_hands(rng, 1500, size)
    fast = evaluate_many(hands)
    slow = [best_hand((), tuple(DECK[i] for i in row)) for row in hands.tolist()]
    _assert_same_order(fast, slow)
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
    from companion.engine.gang.batch_values import (
        lookup_tables,
        rank_key,
        rank_multisets,
        rank_slots,
    )

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


def _by_public_tables(hands: np.ndarray) -> np.ndarray:
    """Values through ``LookupTables`` (each suit's mask, the rank key, the flush table): the
    path the heist replay uses, independent of ``evaluate_many``'s chunked card masks."""
    from companion.engine.gang.batch_values import lookup_tables, rank_slots

    tables = lookup_tables()
    rows = np.arange(len(hands))[:, None]
    suits = np.zeros((len(hands), 4), dtype=np.int64)
    np.bitwise_or.at(suits, (rows, hands % 4), 1 << (hands // 4))
    keys = tables.suit_rank_key[suits].sum(axis=1)
    return np.maximum(tables.rank_table[rank_slots(keys)], tables.flush_table[suits].max(axis=1))


def _corner_hands() -> np.ndarray:
    """7-card hands at the tables' edges: wheels and broadway in every suit pattern, a flush
    with pairs and trips of its own ranks, four of a kind beside a flush draw, all one rank
    group (the chunk seams: 2..5, 6..T, J..A), the highest and lowest ids."""
    hands: list[list[int]] = []
    rng = np.random.default_rng(43)
    for low in ([12, 0, 1, 2, 3], [8, 9, 10, 11, 12], [0, 1, 2, 3, 4], [3, 4, 5, 6, 7]):
        for _ in range(300):
            suits = rng.integers(0, 4, 5)
            five = [4 * r + s for r, s in zip(low, suits.tolist(), strict=True)]
            rest = [c for c in rng.permutation(52).tolist() if c not in five][:2]
            hands.append(five + rest)
    for _ in range(2000):
        suit = int(rng.integers(4))
        ranks = rng.choice(13, 5, replace=False)
        flush = [4 * int(r) + suit for r in ranks]
        others = [4 * int(r) + (suit + 1 + k) % 4 for k, r in enumerate(ranks[:2])]
        hands.append(flush + others)
    for rank in range(13):
        quads = [4 * rank + s for s in range(4)]
        hands.append(quads + [c for c in range(0, 52, 4) if c // 4 != rank][:3])
    for start, stop in ((0, 4), (4, 9), (9, 13)):
        group = list(range(4 * start, 4 * stop))
        for _ in range(200):
            hands.append(rng.choice(group, 7, replace=False).tolist())
    hands.append(list(range(45, 52)))
    hands.append(list(range(7)))
    return np.array(hands, dtype=np.int64)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_agrees_with_the_public_tables_on_many_hands(size: int) -> None:
    rng = np.random.default_rng(100 + size)
    hands = np.concatenate([_random_hands(rng, 200_000, size), _corner_hands()[:, :size]])
    assert np.array_equal(evaluate_many(hands), _by_public_tables(hands))


def test_corner_hands_agree_with_the_general_ranker() -> None:
    hands = _corner_hands()
    fast = evaluate_many(hands)
    slow = [best_hand((), tuple(DECK[i] for i in row)) for row in hands.tolist()]
    _assert_same_order(fast, slow)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint64])
def test_any_integer_dtype_gives_the_same_values(dtype: type) -> None:
    hands = _random_hands(np.random.default_rng(9), 5000, 7)
    assert np.array_equal(evaluate_many(hands.astype(dtype)), evaluate_many(hands))


@pytest.mark.parametrize("bad", [52, 63, 64, 65, 103, 104, -52, -64, -65, 2**40, -(2**40)])
def test_every_id_outside_the_deck_is_refused(bad: int) -> None:
    hands = _random_hands(np.random.default_rng(1), 40_000, 7)
    hands[31_234, 3] = bad  # in the second block
    with pytest.raises(ValueError, match="0..51"):
        evaluate_many(hands)


def test_huge_unsigned_ids_are_refused() -> None:
    hands = np.tile(np.arange(7, dtype=np.uint64), (3, 1))
    hands[1, 6] = 2**64 - 1
    with pytest.raises(ValueError, match="0..51"):
        evaluate_many(hands)


def test_a_card_twice_is_named_in_any_block() -> None:
    hands = _random_hands(np.random.default_rng(2), 40_000, 7)
    hands[25_000, 6] = hands[25_000, 0]
    with pytest.raises(ValueError, match="same card twice") as error:
        evaluate_many(hands)
    assert str(hands[25_000]) in str(error.value)
