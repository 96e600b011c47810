"""``evaluate_many``: standard high-hand values for many 5- to 7-card hands at once, in numpy.

Lookup tables in the spirit of rank-product evaluators: a hand's ranks (suits ignored) map through
a dense index of rank multisets to the best non-flush value; a hand with five or more cards of one
suit also looks up the best flush among that suit's ranks; the value is the larger of the two.
Values are ``category << 20 | deciding ranks in 4-bit fields``: larger is stronger, equal is a tie.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from companion.engine.cards import Card
from companion.engine.gang.ranking import (
    Ranking,
    Straights,
    TableRules,
    _five_value,
    lowest_missing,
)

__all__ = [
    "evaluate_many",
    "value_to_category",
    "LookupTables",
    "lookup_tables",
    "rank_key",
    "rank_multisets",
    "rank_slots",
    "WILD_CODE",
    "CODES",
    "card_code",
    "FiveIndex",
    "five_index",
    "RuleTable",
    "rule_table",
    "table_for",
    "code_arrays",
    "code_sums",
    "five_values",
    "evaluate_rules",
    "seven_code_arrays",
    "flush_possible",
    "SevenTable",
    "seven_table",
    "seven_for",
]

_LOW_RANKS = 7  # ranks 2..8 counted in base 5 below bit 17, ranks 9..A above it
_LOW_BITS = 17  # 5**7 = 78125 < 2**17
_SUIT_BITS = 13
_BLOCK = 1 << 14
_OUT_OF_RANGE = "card ids must lie in 0..51 (4 * rank + suit)"


def _encode(strength: tuple[int, ...]) -> int:
    category, *deciding = strength
    value = category
    for i in range(5):
        value = (value << 4) | (deciding[i] if i < len(deciding) else 0)
    return value


def rank_key(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Pack rank counts (..., 13) into one integer: base 5, split in two fields at bit 17.

    Keys of disjoint card sets add up to the key of their union (while no rank passes 4).

    >>> int(rank_key(np.eye(13, dtype=np.int64)[12])) == 5**5 << 17  # an ace
    True
    """
    low = counts[..., :_LOW_RANKS] @ (5 ** np.arange(_LOW_RANKS))
    high = counts[..., _LOW_RANKS:] @ (5 ** np.arange(13 - _LOW_RANKS))
    return np.asarray(low + (high << _LOW_BITS), dtype=np.int64)


def rank_multisets(size: int) -> npt.NDArray[np.int64]:
    """Every vector of 13 rank counts, at most 4 each, summing to ``size``."""
    combos = np.array(list(itertools.combinations_with_replacement(range(13), size)))
    counts = np.zeros((len(combos), 13), dtype=np.int64)
    for column in combos.T:
        counts[np.arange(len(combos)), column] += 1
    return np.asarray(counts[counts.max(axis=1) <= 4], dtype=np.int64)


def _split_slots(
    keys: npt.NDArray[np.int64], bits: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """A dense index of sparse ``keys``: each key's slot is ``low[key & mask] + high[key >>
    bits]``, so a sum of keys is looked up in two small arrays instead of one of 2**(2*bits).
    Returns ``low``, ``high``, each key's slot, and the number of slots."""
    lows, low_index = np.unique(keys & ((1 << bits) - 1), return_inverse=True)
    highs, high_index = np.unique(keys >> bits, return_inverse=True)
    low = np.zeros(1 << bits, dtype=np.int64)
    low[lows] = np.arange(len(lows))
    high = np.zeros(int(highs.max()) + 1, dtype=np.int64)
    high[highs] = np.arange(len(highs)) * len(lows)
    slots = np.asarray(high_index.reshape(-1) * len(lows) + low_index.reshape(-1), dtype=np.int64)
    return low, high, slots, len(highs) * len(lows)


@functools.cache
def _tables() -> dict[str, npt.NDArray[Any]]:
    """Build the lookup tables once, on first use."""
    # Best non-flush value of every rank multiset of 5..7 cards: five cards are valued directly,
    # larger multisets by their best sub-multiset one card smaller.
    unit = [int(k) for k in rank_key(np.eye(13, dtype=np.int64))]
    value_of: dict[int, int] = {}
    for size in (5, 6, 7):
        multisets = rank_multisets(size)
        keys = rank_key(multisets)
        for counts, key in zip(multisets.tolist(), keys.tolist(), strict=True):
            if size == 5:
                ranks = tuple(r for r in range(12, -1, -1) for _ in range(counts[r]))
                value_of[key] = _encode(_five_value(ranks, False, Ranking.HIGH, False)[0])
            else:
                value_of[key] = max(value_of[key - unit[r]] for r in range(13) if counts[r])
    low_slot, high_slot, slots, size = _split_slots(
        np.array(list(value_of), dtype=np.int64), _LOW_BITS
    )
    rank_table = np.zeros(size, dtype=np.int64)
    rank_table[slots] = np.array(list(value_of.values()))

    # Per suit: the rank key of the suit's cards, and its best flush or straight flush (0 when the
    # suit holds fewer than five cards).
    masks = np.arange(1 << _SUIT_BITS)
    bits = (masks[:, None] >> np.arange(13)) & 1
    suit_rank_key = rank_key(bits)
    flush_table = np.zeros(1 << _SUIT_BITS, dtype=np.int64)
    popcount = bits.sum(axis=1)
    for mask in np.flatnonzero(popcount == 5).tolist():
        ranks = tuple(r for r in range(12, -1, -1) if mask >> r & 1)
        flush_table[mask] = _encode(_five_value(ranks, True, Ranking.HIGH, False)[0])
    for size in range(6, 14):
        for mask in np.flatnonzero(popcount == size).tolist():
            flush_table[mask] = max(
                flush_table[mask & ~(1 << r)] for r in range(13) if mask >> r & 1
            )
    card = np.arange(52)
    # One float per card, 2**(13 * suit + rank): a row's sum is its exact 52-bit card mask.
    # Slots 52..103 add no bit, so that ids -52..-1, which numpy would wrap, show up as a row
    # with too few bits.
    card_bit = np.concatenate([2.0 ** (13 * (card % 4) + card // 4), np.zeros(52)])
    return {
        "card_bit": card_bit,
        # For the heist replay's shared board work (replay/board_values.py) and the flush rows.
        "suit_rank_key": suit_rank_key,
        "flush_table": flush_table,
        "low_slot": low_slot,
        "high_slot": high_slot,
        "rank_table": rank_table,
    }


@dataclass(frozen=True)
class LookupTables:
    """The read-only tables behind ``evaluate_many``, for code that shares work between hands.

    - ``suit_rank_key[m]``: the rank key of the ranks in a 13-bit suit mask ``m``;
    - ``flush_table[m]``: the best flush or straight flush among them (0 below five cards);
    - ``rank_table[rank_slots(key)]``: the best non-flush value of the 5 to 7 ranks of ``key``.
    """

    suit_rank_key: npt.NDArray[np.int64]
    flush_table: npt.NDArray[np.int64]
    rank_table: npt.NDArray[np.int64]


@functools.cache
def lookup_tables() -> LookupTables:
    t = _tables()
    arrays = [t["suit_rank_key"], t["flush_table"], t["rank_table"]]
    for array in arrays:
        array.flags.writeable = False
    return LookupTables(*arrays)


def rank_slots(keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Where each rank key (of 5 to 7 cards) lies in ``LookupTables.rank_table``."""
    t = _tables()
    high = t["high_slot"][keys >> _LOW_BITS]
    return np.asarray(high + t["low_slot"][keys & ((1 << _LOW_BITS) - 1)], dtype=np.int64)


def _checked(cards: npt.ArrayLike) -> npt.NDArray[np.integer[Any]]:
    array = np.asarray(cards)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise ValueError(
            f"expected an array of shape (N, 5..7) of card ids, got shape {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"card ids must be integers, got dtype {array.dtype}")
    return array


def _card_masks(block: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.uint64]:
    """Each row's 52-bit card mask, after checking ids and duplicates."""
    try:
        bits = np.take(_tables()["card_bit"], block)
    except IndexError:
        raise ValueError(_OUT_OF_RANGE) from None
    # A matrix-vector product sums the rows fastest; the sums are exact below 2**53.
    sums = bits @ np.ones(block.shape[1])
    masks = sums.astype(np.uint64)
    # Adding the same power of two twice carries, so the row has fewer bits set than cards; an
    # id below zero adds no bit at all.
    wrong = np.bitwise_count(masks) != block.shape[1]
    if wrong.any():
        if block.min() < 0 or block.max() > 51:
            raise ValueError(_OUT_OF_RANGE)
        raise ValueError(f"a row holds the same card twice: {block[np.flatnonzero(wrong)[0]]}")
    return masks


def evaluate_many(cards: npt.ArrayLike, rules: TableRules | None = None) -> npt.NDArray[np.int64]:
    """One value per row of card ids (``4 * rank + suit``): larger is stronger, equal is a tie.

    Under other ``rules`` (lowball, wrap) the values are ``evaluate_rules``' (another scale).

    >>> evaluate_many([[48, 44, 40, 36, 32], [0, 4, 8, 12, 49]]).tolist()  # royal flush, wheel
    [9175040, 4390912]
    """
    array = _checked(cards)
    if rules is not None and rules != TableRules():
        if rules.decks == 1:
            _card_masks(array)  # the same checks: ids in 0..51, no card twice
        elif len(array) and (array.min() < 0 or array.max() > 51):
            raise ValueError(_OUT_OF_RANGE)
        return evaluate_rules(array, rules)
    return _evaluate_high(array)


# -- evaluate_many's own tables: the card mask read in three chunks of whole ranks --------------

# A mask bit per card id (4 * rank + suit), read in chunks of ranks 2..5, 6..T and J..A: a
# chunk's table gives its share of a dense multiset index, and its suit counts.
_GROUPS = ((0, 4), (4, 9), (9, 13))
_SUIT_FIELD = 36  # four 4-bit suit counts above the index, the first table adding 3 to each
_FLUSH_BITS = 0x8888 << _SUIT_FIELD  # a suit count of five or more, plus 3, sets its top bit
_INDEX_MASK = (1 << _SUIT_FIELD) - 1
_MAX_CARDS = 7


def _group_counts(ranks: int) -> npt.NDArray[np.int64]:
    """Every count vector of ``ranks`` ranks (at most 4 each, 7 in all), fewest cards first."""
    counts = np.array(list(itertools.product(range(5), repeat=ranks)), dtype=np.int64)
    counts = counts[counts.sum(axis=1) <= _MAX_CARDS]
    return np.asarray(counts[np.argsort(counts.sum(axis=1), kind="stable")], dtype=np.int64)


def _radix(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return np.asarray(counts @ (5 ** np.arange(counts.shape[-1])), dtype=np.int64)


def _group_offsets() -> tuple[npt.NDArray[np.int64], ...]:
    """Per group, by ``_radix`` of its counts: its share of the multiset index.

    Group 0's vectors are numbered fewest cards first; each vector of group 1 takes a block of
    the numbers of group 0 that fit beside it (blocks fewest cards first), so that group 0 and 1
    are numbered densely; each vector of group 2 takes the stretch of those pairs that complete
    it to 5..7 cards. A multiset's index is the sum of its three groups' shares.
    """
    first, middle, last = (_group_counts(stop - start) for start, stop in _GROUPS)
    first_cards, middle_cards = first.sum(axis=1), middle.sum(axis=1)
    fitting = np.searchsorted(first_cards, np.arange(-1, _MAX_CARDS + 1), side="right")
    block = fitting[1 + _MAX_CARDS - middle_cards]  # group-0 vectors of at most 7 - c cards
    block_start = np.cumsum(block) - block
    last_cards = last.sum(axis=1)
    ends = np.searchsorted(middle_cards, _MAX_CARDS - last_cards, side="right") - 1
    stretch_end = block_start[ends] + block[ends]
    stretch_start = fitting[1 + np.maximum(4 - last_cards, -1)]  # pairs of 5 - c cards or more
    sizes = stretch_end - stretch_start
    shares = []
    for vectors, share in (
        (first, np.arange(len(first))),
        (middle, block_start),
        (last, np.cumsum(sizes) - sizes - stretch_start),
    ):
        table = np.zeros(5 ** vectors.shape[1], dtype=np.int64)
        table[_radix(vectors)] = share
        shares.append(table)
    return (*shares, np.array([sizes.sum()]))


@functools.cache
def _mask_tables() -> tuple[tuple[npt.NDArray[np.int64], ...], npt.NDArray[np.int32]]:
    """The three chunk tables and the best non-flush value by multiset index (int32)."""
    *shares, size = _group_offsets()
    multisets = np.concatenate([rank_multisets(n) for n in (5, 6, 7)])
    index = sum(
        (
            share[_radix(multisets[:, start:stop])]
            for share, (start, stop) in zip(shares, _GROUPS, strict=True)
        ),
        np.zeros(len(multisets), dtype=np.int64),
    )
    t = _tables()
    values = np.zeros(int(size[0]), dtype=np.int32)
    values[index] = t["rank_table"][rank_slots(rank_key(multisets))]
    chunks = []
    for share, (start, stop) in zip(shares, _GROUPS, strict=True):
        bits = np.arange(1 << (4 * (stop - start)), dtype=np.int64)
        code = np.zeros_like(bits)  # ``_radix`` of the chunk's rank counts
        for rank in range(stop - start):
            code += np.bitwise_count((bits >> (4 * rank)) & 15).astype(np.int64) * 5**rank
        entry = np.where(np.bitwise_count(bits) <= _MAX_CARDS, share[code], 0)
        for suit in range(4):
            of_suit = sum(1 << (4 * r + suit) for r in range(stop - start))
            entry += np.bitwise_count(bits & of_suit).astype(np.int64) << (_SUIT_FIELD + 4 * suit)
        chunks.append(entry)
    chunks[0] += 0x3333 << _SUIT_FIELD
    for array in (*chunks, values):
        array.flags.writeable = False
    return tuple(chunks), values


def _evaluate_high(array: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    n, size = array.shape
    values = np.empty(n, dtype=np.int64)
    flush = np.empty(n, dtype=np.bool_)
    bits = np.empty((min(n, _BLOCK), size), dtype=np.int64)
    # Blocks small enough that every temporary stays in cache.
    for start in range(0, n, _BLOCK):
        stop = min(start + _BLOCK, n)
        block = array[start:stop]
        _value_block(block, bits[: stop - start], values[start:stop], flush[start:stop])
    # A suit of five or more cards: few rows, valued by their suits' masks.
    rows = np.flatnonzero(flush)
    if len(rows):
        suits = _suit_masks(_card_masks(np.take(array, rows, axis=0)))
        best = np.take(_tables()["flush_table"], suits).max(axis=0)
        values[rows] = np.maximum(values[rows], best)
    return values


def _value_block(
    block: npt.NDArray[np.integer[Any]],
    bits: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
    flush: npt.NDArray[np.bool_],
) -> None:
    """Best non-flush values into ``out``; ``flush`` marks rows holding five cards of a suit."""
    (first, middle, last), values = _mask_tables()
    # Numpy shifts by a negative id or one of 64 or more give 0: a row with an id outside
    # 0..63, or the same card twice, has fewer bits than cards; ids 52..63 set bits above 51.
    np.left_shift(1, block.astype(np.int64, copy=False), out=bits)
    mask = bits[:, 0] + bits[:, 1]
    for column in bits.T[2:]:
        mask += column
    if (np.bitwise_count(mask) != bits.shape[1]).any() or mask.view(np.uint64).max() >> 52:
        _refuse(block)
    # Indices lie in their tables by construction: "wrap" skips the bounds checks' error path.
    packed = np.take(first, mask & 0xFFFF, mode="wrap")
    packed += np.take(middle, (mask >> 16) & 0xFFFFF, mode="wrap")
    packed += np.take(last, mask >> 36, mode="wrap")
    out[...] = np.take(values, packed & _INDEX_MASK, mode="wrap")
    np.not_equal(packed & _FLUSH_BITS, 0, out=flush)


def _suit_masks(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """(4, N): each suit's 13-bit rank mask, from 52-bit masks of 13 bits per suit."""
    whole = masks.view(np.int64)
    return (whole >> (_SUIT_BITS * np.arange(4)[:, None])) & ((1 << _SUIT_BITS) - 1)


def _refuse(block: npt.NDArray[np.integer[Any]]) -> NoReturn:
    """Raise the one-line error of a block holding an id outside 0..51 or a card twice."""
    if block.min() < 0 or block.max() > 51:
        raise ValueError(_OUT_OF_RANGE)
    twice = (np.diff(np.sort(block, axis=1), axis=1) == 0).any(axis=1)
    raise ValueError(f"a row holds the same card twice: {block[np.flatnonzero(twice)[0]]}")


def value_to_category(values: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The ``Category`` number of each value from ``evaluate_many``."""
    return np.asarray(values, dtype=np.int64) >> 20


# -- Every table rule: fives valued through one table of (rank counts, wild cards, flush) --------

WILD_CODE = 52  # the code of a free wild card; 53 + s: a wild card bound to suit s
CODES = 57  # natural cards keep their ids 0..51

_BASE = 6  # a rank appears at most five times in a five (wild cards counted apart)
_SPLIT = 19  # the seven lowest ranks' counts lie below bit 19 (6**7 < 2**19)
_FREE_DIGIT = _BASE**6  # above the six highest ranks' counts: free wilds, then bound wilds
_BOUND_DIGIT = _BASE**7


def card_code(card: Card) -> int:
    """The code the rule tables read: a natural card's id, or 52 (free wild), 53 + suit."""
    if not card.is_wild:
        return card.id
    return WILD_CODE if card.suit is None else WILD_CODE + 1 + int(card.suit)


@functools.cache
def code_arrays() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each code's key (counts that add up over a five) and its suit bit (0 for a free wild)."""
    key = np.zeros(CODES, dtype=np.int64)
    suit = np.zeros(CODES, dtype=np.int64)
    for card in range(52):
        rank = card // 4
        key[card] = _BASE**rank if rank < 7 else (_BASE ** (rank - 7)) << _SPLIT
        suit[card] = 1 << (card % 4)
    key[WILD_CODE] = _FREE_DIGIT << _SPLIT
    for s in range(4):
        key[WILD_CODE + 1 + s] = _BOUND_DIGIT << _SPLIT
        suit[WILD_CODE + 1 + s] = 1 << s
    for array in (key, suit):
        array.flags.writeable = False
    return key, suit


@functools.cache
def split_code_arrays() -> tuple[
    npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.uint8]
]:
    """``code_arrays`` split for speed: each code's low key (below bit 19) and high key (above
    it) as int32, which add apart, and its suit bit as one byte."""
    key, suit = code_arrays()
    arrays = (
        (key & ((1 << _SPLIT) - 1)).astype(np.int32),
        (key >> _SPLIT).astype(np.int32),
        suit.astype(np.uint8),
    )
    for array in arrays:
        array.flags.writeable = False
    return arrays


@dataclass(frozen=True)
class FiveIndex:
    """Where each five's key lies in a ``RuleTable``: ``slot = high[key >> 19] + low[key & M]``.

    Fives are told apart by the counts of their natural ranks, how many free and bound wild
    cards they hold, and (in the table's second column) whether all their suited cards share one
    suit; nothing else changes a five's value under any rule.
    """

    low: npt.NDArray[np.int64]
    high: npt.NDArray[np.int64]
    low2: npt.NDArray[np.int32]  # 2 * low and 2 * high, for ``values[high2[h] + low2[l] + one]``
    high2: npt.NDArray[np.int32]
    shapes: tuple[tuple[tuple[int, ...], int, int], ...]  # (natural ranks, free, bound)
    slots: npt.NDArray[np.int64]  # each shape's slot
    size: int  # slots in all (some no five makes)


@functools.cache
def five_index(wilds: int) -> FiveIndex:
    """The index of every five holding at most ``wilds`` wild cards."""
    key, _ = code_arrays()
    shapes: list[tuple[tuple[int, ...], int, int]] = []
    keys: list[int] = []
    free_key, bound_key = int(key[WILD_CODE]), int(key[WILD_CODE + 1])
    for w in range(min(wilds, 5) + 1):
        for ranks in itertools.combinations_with_replacement(range(12, -1, -1), 5 - w):
            natural = sum(int(key[4 * r]) for r in ranks)
            for free in range(w + 1):
                shapes.append((ranks, free, w - free))
                keys.append(natural + free_key * free + bound_key * (w - free))
    low, high, slots, size = _split_slots(np.array(keys, dtype=np.int64), _SPLIT)
    low2, high2 = (2 * low).astype(np.int32), (2 * high).astype(np.int32)
    for array_ in (low, high, slots, low2, high2):
        array_.flags.writeable = False
    return FiveIndex(low, high, low2, high2, tuple(shapes), slots, size)


def _shape_strengths(
    rules: TableRules, worst: bool
) -> Callable[[tuple[int, ...], int, bool, bool], tuple[int, ...]]:
    """A five's strength from its shape, as ``ranking.five_strength`` values it (wild cards at
    their best, or worst): ``strength(natural ranks, wild cards, any free, one suit)``.

    Wild ranks are chosen one card at a time (memoized); a flush is there for the taking when
    the suited cards share one suit, and avoidable when a free wild card can break it. At
    lowball each wild card is the lowest card still missing: one card at a time, the same.
    """
    wrap = rules.straights is Straights.WRAP
    pick = min if worst else max

    @functools.cache
    def strength(ranks: tuple[int, ...], wild: int, free: bool, one_suit: bool) -> tuple[int, ...]:
        if wild == 0:
            flushes = (False,) if not one_suit else (True, False) if free else (True,)
            return pick(_five_value(ranks, f, rules.ranking, wrap)[0] for f in flushes)
        choices = (
            range(13) if rules.ranking is Ranking.HIGH else lowest_missing(ranks, 1, rules.ranking)
        )
        return pick(
            strength(tuple(sorted((*ranks, r), reverse=True)), wild - 1, free, one_suit)
            for r in choices
        )

    return strength


@dataclass(frozen=True)
class RuleTable:
    """The value of every five under one set of rules: ``values[2 * slot + one_suit]``, larger
    is stronger (worst: the wild cards' worst value), 0 for shapes no five makes."""

    index: FiveIndex
    values: npt.NDArray[np.int64]
    values32: npt.NDArray[np.int32]


@functools.cache
def rule_table(ranking: Ranking, wrap: bool, worst: bool, wilds: int) -> RuleTable:
    """Values of every five with at most ``wilds`` wild cards (built once per rule set)."""
    index = five_index(wilds)
    strength = _shape_strengths(
        TableRules(ranking, Straights.WRAP if wrap else Straights.NORMAL), worst
    )
    strengths = [
        strength(ranks, free + bound, free > 0, one_suit)
        for ranks, free, bound in index.shapes
        for one_suit in (False, True)
    ]
    # Values are the strengths' ranks among all of them: same order, same ties, small integers.
    order = {s: k + 1 for k, s in enumerate(sorted(set(strengths)))}
    values = np.zeros(2 * index.size, dtype=np.int64)
    at = (2 * index.slots[:, None] + np.arange(2)).ravel()
    values[at] = np.array([order[s] for s in strengths], dtype=np.int64)
    values32 = values.astype(np.int32)
    for array in (values, values32):
        array.flags.writeable = False
    return RuleTable(index, values, values32)


def table_for(rules: TableRules, worst: bool = False, wilds: int = 0) -> RuleTable:
    """The ``RuleTable`` of these rules (the number of decks changes no five's value)."""
    return rule_table(rules.ranking, rules.straights is Straights.WRAP, worst, wilds)


def code_sums(codes: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(keys, suits) of card codes (..., k): their keys added, their suit bits or-ed."""
    key, suit = code_arrays()
    return key[codes].sum(axis=-1), np.bitwise_or.reduce(suit[codes], axis=-1)


def five_values(
    table: RuleTable, keys: npt.NDArray[np.int64], suits: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Values of fives given by their summed keys and or-ed suit bits (``code_sums``)."""
    index = table.index
    slot = index.high[keys >> _SPLIT] + index.low[keys & ((1 << _SPLIT) - 1)]
    one_suit = (suits & (suits - 1)) == 0
    return np.asarray(table.values[2 * slot + one_suit], dtype=np.int64)


@functools.cache
def _five_positions(size: int) -> npt.NDArray[np.int64]:
    return np.array(list(itertools.combinations(range(size), 5)), dtype=np.int64)


def evaluate_rules(
    codes: npt.ArrayLike, rules: TableRules | None = None, worst: bool = False
) -> npt.NDArray[np.int64]:
    """The best (``worst``: the worst) five of each row of 5 or more card codes (``card_code``),
    under any table rules and with wild cards, as ordinal values: larger is stronger, equal is a
    tie (comparable between calls with the same rules and ``worst`` only).

    >>> from companion.engine.gang.ranking import Ranking
    >>> low = TableRules(ranking=Ranking.LOW_A5)
    >>> a, b = evaluate_rules([[48, 0, 4, 8, 13], [48, 0, 4, 8, 45]], low).tolist()  # A2345, A234K
    >>> a > b
    True
    """
    array = np.asarray(codes, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] < 5:
        raise ValueError(f"expected an array of shape (N, 5 or more) of codes, got {array.shape}")
    if len(array) and (array.min() < 0 or array.max() >= CODES):
        raise ValueError(f"card codes must lie in 0..{CODES - 1}")
    wilds = int((array >= WILD_CODE).sum(axis=1).max()) if len(array) else 0
    rules = rules or TableRules()
    if array.shape[1] in (6, 7):
        # By rank counts, and five by five only where a flush could be played.
        low, high, suits = (a[array].sum(axis=1) for a in seven_code_arrays())
        seven = seven_for(rules, worst, wilds)
        values = np.asarray(seven.values[seven.high[high] + seven.low[low]], dtype=np.int64)
        rows = np.flatnonzero(flush_possible()[suits])
        values[rows] = _five_by_five(array[rows], table_for(rules, worst, wilds), worst)
        return values
    return _five_by_five(array, table_for(rules, worst, wilds), worst)


def _five_by_five(
    array: npt.NDArray[np.int64], table: RuleTable, worst: bool
) -> npt.NDArray[np.int64]:
    """The best (worst) of every five of each row, each valued in ``table``."""
    key, suit = code_arrays()
    positions = _five_positions(array.shape[1])
    values = np.empty(len(array), dtype=np.int64)
    reduce = np.minimum if worst else np.maximum
    for start in range(0, len(array), _BLOCK):
        block = array[start : start + _BLOCK]
        keys, suits = key[block], suit[block]
        best = None
        for five in positions:
            k = keys[:, five[0]] + keys[:, five[1]] + keys[:, five[2]] + keys[:, five[3]]
            k += keys[:, five[4]]
            s = suits[:, five[0]] | suits[:, five[1]] | suits[:, five[2]] | suits[:, five[3]]
            s |= suits[:, five[4]]
            v = five_values(table, k, s)
            best = v if best is None else reduce(best, v, out=best)
        assert best is not None
        values[start : start + _BLOCK] = best
    return values


# -- Six and seven cards under every rule: best five by rank counts, flushes set apart ---------

_COUNT_BITS = 3  # a rank appears at most 7 times in 7 cards (two decks); wild cards likewise
_SEVEN_SPLIT = 7 * _COUNT_BITS  # ranks 2..8 below bit 21; ranks 9..A and wild cards above
_SUIT_FIELD_BITS = 4  # suit counts of up to 7 cards, four fields, then the free wild cards


@functools.cache
def seven_code_arrays() -> tuple[
    npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]
]:
    """Each code's low and high rank-count keys (all wild cards count as one symbol) and its
    suit count (one field per suit, a last one for free wild cards): all three add."""
    low = np.zeros(CODES, dtype=np.int32)
    high = np.zeros(CODES, dtype=np.int32)
    suit = np.zeros(CODES, dtype=np.int32)
    for card in range(52):
        rank = card // 4
        if rank < 7:
            low[card] = 1 << (_COUNT_BITS * rank)
        else:
            high[card] = 1 << (_COUNT_BITS * (rank - 7))
        suit[card] = 1 << (_SUIT_FIELD_BITS * (card % 4))
    high[WILD_CODE:] = 1 << (_COUNT_BITS * 6)
    suit[WILD_CODE] = 1 << (_SUIT_FIELD_BITS * 4)
    for s in range(4):
        suit[WILD_CODE + 1 + s] = 1 << (_SUIT_FIELD_BITS * s)
    for array in (low, high, suit):
        array.flags.writeable = False
    return low, high, suit


@functools.cache
def flush_possible() -> npt.NDArray[np.bool_]:
    """By summed suit count (``seven_code_arrays``) of up to 7 cards: whether some five of them
    could be played in one suit (five of a suit, counting the free wild cards with any)."""
    packed = np.arange(1 << (_SUIT_FIELD_BITS * 4 + _COUNT_BITS))
    field = (1 << _SUIT_FIELD_BITS) - 1
    free = packed >> (_SUIT_FIELD_BITS * 4)
    most = np.max([(packed >> (_SUIT_FIELD_BITS * s)) & field for s in range(4)], axis=0)
    possible = np.asarray(most + free >= 5, dtype=np.bool_)
    possible.flags.writeable = False
    return possible


@dataclass(frozen=True)
class SevenTable:
    """The best (or worst) non-flush five of every 5 to 7 cards by their rank counts and wild
    cards: ``values[high[key_high] + low[key_low]]``, on the ``RuleTable``'s scale (same rules,
    same ``worst``), so the two mix. Valid only where ``flush_possible`` says no."""

    low: npt.NDArray[np.int32]
    high: npt.NDArray[np.int32]
    values: npt.NDArray[np.int32]


def _multisets(size: int, cap: int, wilds: int) -> npt.NDArray[np.int64]:
    """(M, 14): counts of 13 ranks (at most ``cap`` each) and the wild cards (at most
    ``wilds``), summing to ``size``."""
    combos = np.array(list(itertools.combinations_with_replacement(range(14), size)))
    counts = np.zeros((len(combos), 14), dtype=np.int64)
    for column in combos.T:
        counts[np.arange(len(combos)), column] += 1
    keep = (counts[:, :13].max(axis=1) <= cap) & (counts[:, 13] <= wilds)
    return np.asarray(counts[keep], dtype=np.int64)


def _seven_keys(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    low = counts[:, :7] @ (1 << (_COUNT_BITS * np.arange(7)))
    high = counts[:, 7:] @ (1 << (_COUNT_BITS * np.arange(7)))
    return np.asarray(low | (high << _SEVEN_SPLIT), dtype=np.int64)


@functools.cache
def seven_table(ranking: Ranking, wrap: bool, worst: bool, wilds: int, decks: int) -> SevenTable:
    """``SevenTable`` of one rule set: fives from the ``RuleTable``, then each larger multiset
    takes the best (worst) of its multisets one card smaller."""
    five = rule_table(ranking, wrap, worst, wilds)
    cap = min(7, 4 * decks)
    counts5 = _multisets(5, cap, min(wilds, 5))
    keys5 = _seven_keys(counts5)
    # A five's non-flush value: its shape's entry with one_suit False.
    shape_key = {
        (ranks, free + bound): 2 * int(slot)
        for (ranks, free, bound), slot in zip(five.index.shapes, five.index.slots, strict=True)
    }
    values5 = np.array(
        [
            five.values[
                shape_key[(tuple(r for r in range(12, -1, -1) for _ in range(c[r])), c[13])]
            ]
            for c in counts5.tolist()
        ],
        dtype=np.int64,
    )
    all_keys, all_values = [keys5], [values5]
    keys, values = keys5, values5
    unit = _seven_keys(np.eye(14, dtype=np.int64))
    pick = np.minimum if worst else np.maximum
    for size in (6, 7):
        counts = _multisets(size, cap, min(wilds, size))
        bigger = _seven_keys(counts)
        order = np.argsort(keys)
        best = np.full(len(bigger), -1 if not worst else np.iinfo(np.int64).max, dtype=np.int64)
        for symbol in range(14):
            has = counts[:, symbol] > 0
            smaller = bigger[has] - unit[symbol]
            at = order[np.searchsorted(keys, smaller, sorter=order)]
            best[has] = pick(best[has], values[at])
        keys, values = bigger, best
        all_keys.append(keys)
        all_values.append(values)
    every = np.concatenate(all_keys)
    low_key, high_key = every & ((1 << _SEVEN_SPLIT) - 1), every >> _SEVEN_SPLIT
    low, lows = _dense(low_key)
    high, highs = _dense(high_key)
    high *= lows
    table = np.zeros(lows * highs, dtype=np.int32)
    table[high[high_key] + low[low_key]] = np.concatenate(all_values)
    for array in (low, high, table):
        array.flags.writeable = False
    return SevenTable(low, high, table)


def _dense(keys: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int32], int]:
    """A map from each key below 2**21 to its rank among the distinct ``keys``, and their count
    (marking and counting: no sort)."""
    seen = np.zeros(1 << _SEVEN_SPLIT, dtype=np.int32)
    seen[keys] = 1
    index = np.cumsum(seen, dtype=np.int32) - 1
    return np.asarray(index * seen, dtype=np.int32), int(seen.sum())


def seven_for(rules: TableRules, worst: bool = False, wilds: int = 0) -> SevenTable:
    # From two decks on, a rank may fill all 7 cards either way: one table serves them all.
    decks = min(rules.decks, 2)
    return seven_table(rules.ranking, rules.straights is Straights.WRAP, worst, wilds, decks)
