"""Numpy fast path of the heist replay for the classic game under standard rules.

Every board completion is evaluated for every hand without a Python loop per board. The work that
depends on the board alone (its rank key, its suit masks, its own flush) is done once per board and
shared by all hands: a hand then adds its one or two hole cards to the board's rank key (rank keys
are sums of per-rank digits, so they add) and looks up at most two flush masks.

The lookup tables are those behind ``companion.engine.fast.evaluate_many``; the tests hold the two
to exact agreement.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from companion.engine import fast

__all__ = [
    "combinations_array",
    "SharedBoards",
    "card_masks",
    "values_from_masks",
    "position_counts",
]

_SUIT_BITS = 13
_SUIT_FIELD = (1 << _SUIT_BITS) - 1
_LOW_BITS = 17
_LOW_FIELD = (1 << _LOW_BITS) - 1

IntArray = npt.NDArray[np.int64]


@functools.cache
def _combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    rows = np.arange(n, dtype=np.int8)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1].astype(np.int64)
        follow = n - 1 - last  # how many larger indices can come next
        starts = np.repeat(np.cumsum(follow) - follow, follow)
        nxt = np.arange(int(follow.sum())) - starts + np.repeat(last + 1, follow)
        rows = np.column_stack([np.repeat(rows, follow, axis=0), nxt.astype(np.int8)])
    if k == 0:
        rows = np.zeros((1, 0), dtype=np.int8)
    rows.flags.writeable = False
    return rows


def combinations_array(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of ``range(n)`` as an increasing row, in lexicographic order (read-only).

    >>> combinations_array(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    if not 0 <= k <= n <= 127:
        raise ValueError(f"cannot choose {k} of {n} (0 <= k <= n <= 127)")
    return _combinations(n, k)


@functools.cache
def _card_bits() -> IntArray:
    card = np.arange(52, dtype=np.int64)
    return np.asarray(np.left_shift(np.int64(1), _SUIT_BITS * (card % 4) + card // 4))


def card_masks(ids: npt.NDArray[np.integer[Any]]) -> IntArray:
    """The 52-bit mask (13 bits per suit) of each row of distinct card ids."""
    bits = _card_bits()[ids]
    return np.asarray(bits.sum(axis=-1), dtype=np.int64)


def _suits(masks: IntArray) -> list[IntArray]:
    return [(masks >> (_SUIT_BITS * s)) & _SUIT_FIELD for s in range(4)]


def _rank_values(key: IntArray) -> IntArray:
    t = fast._tables()
    slot = t["high_slot"][key >> _LOW_BITS] + t["low_slot"][key & _LOW_FIELD]
    return np.asarray(t["rank_table"][slot], dtype=np.int64)


def values_from_masks(masks: IntArray) -> IntArray:
    """``evaluate_many`` values of card sets given as 52-bit masks of 5 to 7 cards (one deck)."""
    t = fast._tables()
    suits = _suits(masks)
    key = sum((t["suit_rank_key"][s] for s in suits), np.zeros_like(masks))
    values = _rank_values(key)
    for s in suits:
        np.maximum(values, t["flush_table"][s], out=values)
    return values


@functools.cache
def _board_multisets() -> tuple[IntArray, npt.NDArray[np.int32], IntArray]:
    """Rank keys of every 5-card rank multiset, a map from a rank-table slot to its index, and
    the multisets' rank counts."""
    counts = fast._rank_multisets(5)
    keys = fast._rank_key(counts)
    index = np.full(len(fast._tables()["rank_table"]), -1, dtype=np.int32)
    index[_slots(keys)] = np.arange(len(keys), dtype=np.int32)
    for array in (keys, index, counts):
        array.flags.writeable = False
    return keys, index, counts


def _slots(key: IntArray) -> IntArray:
    t = fast._tables()
    return np.asarray(t["high_slot"][key >> _LOW_BITS] + t["low_slot"][key & _LOW_FIELD])


class SharedBoards:
    """Many 5-card boards, prepared once, to be valued with each hand's hole cards.

    A board is reduced to the index of its rank multiset (6,175 of them) and the cards of the one
    suit it holds three or more of: a hand's value is then one look-up in a small table made for
    its hole ranks, and one flush look-up.
    """

    def __init__(self, masks: IntArray) -> None:
        t = fast._tables()
        _, index, _ = _board_multisets()
        suits = _suits(masks)
        key = sum((t["suit_rank_key"][s] for s in suits), np.zeros_like(masks))
        self.multiset = index[_slots(key)]
        self.flush_suit = np.zeros(len(masks), dtype=np.int8)
        self.flush_cards = np.zeros_like(masks)
        for s, bits in enumerate(suits):
            many = np.bitwise_count(bits) >= 3  # two hole cards need three of the suit on board
            self.flush_suit[many] = s
            self.flush_cards[many] = bits[many]

    def values_with(self, hole_ids: tuple[int, ...]) -> IntArray:
        """Each board's value together with these hole cards (at most 2, none on any board)."""
        t = fast._tables()
        keys, _, counts = _board_multisets()
        hole_suits = np.zeros(4, dtype=np.int64)
        hole_counts = np.zeros(13, dtype=np.int64)
        for card in hole_ids:
            hole_suits[card % 4] |= 1 << (card // 4)
            hole_counts[card // 4] += 1
        hole_key = sum(int(t["suit_rank_key"][m]) for m in hole_suits)
        # Multisets holding a hole rank four times cannot occur with this hole: value them 0.
        possible = (counts + hole_counts).max(axis=1) <= 4
        column = np.zeros(len(keys), dtype=np.int64)
        column[possible] = t["rank_table"][_slots(keys[possible] + hole_key)]
        values = column[self.multiset]
        flush = t["flush_table"][self.flush_cards | hole_suits[self.flush_suit]]
        return np.asarray(np.maximum(values, flush), dtype=np.int64)


def position_counts(values: IntArray,
                    weights: npt.NDArray[np.float64] | None = None) -> npt.NDArray[np.float64]:
    """For values (B, H): counts (H, H*H) of how often hand h had L weaker and E equal hands.

    Entry ``[h, L * H + E - 1]`` sums the weights (1 each by default) of the rows where hand h
    was strictly stronger than L hands and equal to E hands, itself included.
    """
    rows, hands = values.shape
    weaker = np.zeros((hands, rows), dtype=np.int16)
    equal = np.ones((hands, rows), dtype=np.int16)
    for i in range(hands):
        for j in range(i + 1, hands):
            above = values[:, i] > values[:, j]
            same = values[:, i] == values[:, j]
            weaker[i] += above
            equal[i] += same
            equal[j] += same
            weaker[j] += ~(above | same)
    codes = weaker * hands + equal - 1
    return np.stack([
        np.bincount(codes[h], weights=weights, minlength=hands * hands).astype(np.float64)
        for h in range(hands)
    ])


def count_deals(pool: int, sizes: tuple[int, ...]) -> int:
    """How many ways to deal groups of these sizes, in order, from ``pool`` distinct cards."""
    total = 1
    for size in sizes:
        total *= math.comb(pool, size)
        pool -= size
    return total
