"""Numpy fast path of the heist replay for the classic game under standard rules.

Every board completion is evaluated for every hand without a Python loop per board. The work that
depends on the board alone (its rank key, its suit masks, its own flush) is done once per board and
shared by all hands: a hand then adds its one or two hole cards to the board's rank key (rank keys
are sums of per-rank digits, so they add) and looks up at most two flush masks.

The lookup tables are those behind ``companion.engine.gang.batch_values.evaluate_many`` (its
``lookup_tables``); the tests hold the two to exact agreement.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from companion.engine.gang import batch_values
from companion.engine.gang.ranking import TableRules

__all__ = [
    "combinations_array",
    "SharedBoards",
    "card_masks",
    "values_from_masks",
    "position_counts",
    "order_patterns",
    "pattern_position_counts",
    "subset_values",
    "best_three_split",
    "RuleRivers",
]

_SUIT_BITS = 13
_SUIT_FIELD = (1 << _SUIT_BITS) - 1

IntArray = npt.NDArray[np.int64]
IntArray32 = npt.NDArray[np.int32]
_Totals = tuple[IntArray32, IntArray32, npt.NDArray[np.uint8]]  # low keys, high keys, suit bits
_Sevens = tuple[IntArray32, IntArray32, IntArray32]  # ``seven_code_arrays`` totals


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
    return np.asarray(
        batch_values.lookup_tables().rank_table[batch_values.rank_slots(key)], dtype=np.int64
    )


def values_from_masks(masks: IntArray) -> IntArray:
    """``evaluate_many`` values of card sets given as 52-bit masks of 5 to 7 cards (one deck)."""
    t = batch_values.lookup_tables()
    suits = _suits(masks)
    key = sum((t.suit_rank_key[s] for s in suits), np.zeros_like(masks))
    values = _rank_values(key)
    for s in suits:
        np.maximum(values, t.flush_table[s], out=values)
    return values


@functools.cache
def _board_multisets() -> tuple[IntArray, npt.NDArray[np.int32], IntArray]:
    """Rank keys of every 5-card rank multiset, a map from a rank-table slot to its index, and
    the multisets' rank counts."""
    counts = batch_values.rank_multisets(5)
    keys = batch_values.rank_key(counts)
    index = np.full(len(batch_values.lookup_tables().rank_table), -1, dtype=np.int32)
    index[batch_values.rank_slots(keys)] = np.arange(len(keys), dtype=np.int32)
    for array in (keys, index, counts):
        array.flags.writeable = False
    return keys, index, counts


class SharedBoards:
    """Many 5-card boards, prepared once, to be valued with each hand's hole cards.

    A board is reduced to the index of its rank multiset (6,175 of them) and the cards of the one
    suit it holds three or more of: a hand's value is then one look-up in a small table made for
    its hole ranks, and one flush look-up.
    """

    def __init__(self, masks: IntArray) -> None:
        t = batch_values.lookup_tables()
        _, index, _ = _board_multisets()
        suits = _suits(masks)
        key = sum((t.suit_rank_key[s] for s in suits), np.zeros_like(masks))
        self.multiset = index[batch_values.rank_slots(key)]
        self.flush_suit = np.zeros(len(masks), dtype=np.int8)
        self.flush_cards = np.zeros_like(masks)
        for s, bits in enumerate(suits):
            many = np.bitwise_count(bits) >= 3  # two hole cards need three of the suit on board
            self.flush_suit[many] = s
            self.flush_cards[many] = bits[many]

    def values_with(self, hole_ids: tuple[int, ...]) -> IntArray:
        """Each board's value together with these hole cards (at most 2, none on any board)."""
        t = batch_values.lookup_tables()
        keys, _, counts = _board_multisets()
        hole_suits = np.zeros(4, dtype=np.int64)
        hole_counts = np.zeros(13, dtype=np.int64)
        for card in hole_ids:
            hole_suits[card % 4] |= 1 << (card // 4)
            hole_counts[card // 4] += 1
        hole_key = sum(int(t.suit_rank_key[m]) for m in hole_suits)
        # Multisets holding a hole rank four times cannot occur with this hole: value them 0.
        possible = (counts + hole_counts).max(axis=1) <= 4
        column = np.zeros(len(keys), dtype=np.int64)
        column[possible] = t.rank_table[batch_values.rank_slots(keys[possible] + hole_key)]
        values = column[self.multiset]
        flush = t.flush_table[self.flush_cards | hole_suits[self.flush_suit]]
        return np.asarray(np.maximum(values, flush), dtype=np.int64)


def _weaker_equal(values: IntArray) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """(H, B) each: how many hands each hand beats, and equals (itself included), per row."""
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
    return weaker, equal


def position_counts(
    values: IntArray, weights: npt.NDArray[np.float64] | None = None
) -> npt.NDArray[np.float64]:
    """For values (B, H): counts (H, H*H) of how often hand h had L weaker and E equal hands.

    Entry ``[h, L * H + E - 1]`` sums the weights (1 each by default) of the rows where hand h
    was strictly stronger than L hands and equal to E hands, itself included.
    """
    hands = values.shape[1]
    weaker, equal = _weaker_equal(values)
    codes = weaker * hands + equal - 1
    return np.stack(
        [
            np.bincount(codes[h], weights=weights, minlength=hands * hands).astype(np.float64)
            for h in range(hands)
        ]
    )


def order_patterns(values: IntArray) -> tuple[IntArray, npt.NDArray[np.float64]]:
    """The distinct final orders of values (B, H) and how many rows end in each.

    An order is a row of how many hands each hand beats: two hands tie when they beat as many,
    and one is stronger when it beats more. Rows with the same order are counted once.
    """
    hands = values.shape[1]
    weaker = _weaker_equal(values)[0].T.astype(np.int64)
    if hands**hands <= 1 << 22:  # small enough to count every possible code directly
        codes = weaker @ (hands ** np.arange(hands))
        counts = np.bincount(codes)
        seen = np.flatnonzero(counts)
        patterns = (seen[:, None] // hands ** np.arange(hands)) % hands
        return patterns, counts[seen].astype(np.float64)
    patterns, counts = np.unique(weaker, axis=0, return_counts=True)
    return patterns, counts.astype(np.float64)


def pattern_position_counts(
    patterns: IntArray, weights: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """``position_counts`` of rows given as ``order_patterns`` (each weighed by its count)."""
    hands = patterns.shape[1]
    equal = (patterns[:, :, None] == patterns[:, None, :]).sum(axis=2)
    codes = patterns * hands + equal - 1
    return np.stack(
        [np.bincount(codes[:, h], weights=weights, minlength=hands * hands) for h in range(hands)]
    ).astype(np.float64)


def count_deals(pool: int, sizes: tuple[int, ...]) -> int:
    """How many ways to deal groups of these sizes, in order, from ``pool`` distinct cards."""
    total = 1
    for size in sizes:
        total *= math.comb(pool, size)
        pool -= size
    return total


_ROWS = 4096  # rows valued at once by ``subset_values``: its temporaries stay a few MiB


def _subset_totals(per_card: IntArray, combine: np.ufunc) -> IntArray:
    """(B, 2**k): ``combine`` folded over every subset of each row's k entries (bit i: entry i)."""
    totals = np.zeros((len(per_card), 1 << per_card.shape[1]), dtype=np.int64)
    for i in range(per_card.shape[1]):
        combine(totals[:, : 1 << i], per_card[:, i : i + 1], out=totals[:, 1 << i : 2 << i])
    return totals


@functools.cache
def _card_keys() -> tuple[IntArray, IntArray]:
    """Each card's rank key (rank keys of distinct cards add) and its suit as one bit of four."""
    card = np.arange(52, dtype=np.int64)
    unit = batch_values.rank_key(np.eye(13, dtype=np.int64))
    return np.asarray(unit[card // 4]), np.left_shift(1, card % 4)


def _five_values(ids: IntArray, holes: IntArray, board_at: IntArray, hole_at: IntArray) -> IntArray:
    """Values of the fives made of river subset ``board_at`` and hole subset ``hole_at`` (column
    by column) of each row: rank keys add, and only a five of one suit needs a flush look-up."""
    keys, suit_bits = _card_keys()
    t = batch_values.lookup_tables()
    board_keys, hole_keys = (_subset_totals(keys[x], np.add) for x in (ids, holes))
    board_suits, hole_suits = (_subset_totals(suit_bits[x], np.bitwise_or) for x in (ids, holes))
    values = _rank_values(board_keys[:, board_at] + hole_keys[:, hole_at])
    suits = board_suits[:, board_at] | hole_suits[:, hole_at]
    rows, columns = np.nonzero((suits & (suits - 1)) == 0)
    if len(rows):
        bits = _card_bits()
        masks = (
            _subset_totals(bits[ids], np.bitwise_or)[rows, board_at[columns]]
            | _subset_totals(bits[holes], np.bitwise_or)[rows, hole_at[columns]]
        )
        suit = np.log2(suits[rows, columns]).astype(np.int64)
        flush = t.flush_table[(masks >> (_SUIT_BITS * suit)) & _SUIT_FIELD]
        values[rows, columns] = np.maximum(values[rows, columns], flush)
    return values


@functools.cache
def _subset_plan(holes: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every five of (hole + 5 river) cards as (hole positions, river positions), grouped by
    hole positions in increasing subset order (the order ``np.maximum.reduceat`` needs)."""
    plan: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for used in range(0, min(5, holes) + 1):
        for held in itertools.combinations(range(holes), used):
            plan.extend((held, shared) for shared in itertools.combinations(range(5), 5 - used))
    return tuple(sorted(plan, key=lambda item: sum(1 << i for i in item[0])))


def subset_values(boards: IntArray, holes: IntArray) -> IntArray:
    """(B, 2**h): for each row, the value of the best five of its 5 river cards (``boards``, B x 5
    card ids) and each subset of its hole cards (``holes``, B x h or h ids; bit i of the column:
    hole card i), as ``evaluate_many`` values (one deck, standard rules).

    Each five is valued once, credited to the hole subset it uses, then every subset takes the
    best credited to any of its subsets.
    """
    boards = np.asarray(boards, dtype=np.int64)
    holes = np.broadcast_to(np.asarray(holes, dtype=np.int64), (len(boards), np.shape(holes)[-1]))
    h = holes.shape[1]
    plan = _subset_plan(h)
    hole_masks = np.array([sum(1 << i for i in held) for held, _ in plan])
    board_masks = np.array([sum(1 << i for i in shared) for _, shared in plan])
    starts = np.flatnonzero(np.diff(hole_masks, prepend=-1))
    result = np.zeros((len(boards), 1 << h), dtype=np.int64)
    for start in range(0, len(boards), _ROWS):
        block = slice(start, start + _ROWS)
        values = _five_values(boards[block], holes[block], board_masks, hole_masks)
        result[block, hole_masks[starts]] = np.maximum.reduceat(values, starts, axis=1)
    for bit in range(h):
        above = [m for m in range(1 << h) if m >> bit & 1]
        below = [m ^ (1 << bit) for m in above]
        result[:, above] = np.maximum(result[:, above], result[:, below])
    return result


@functools.cache
def _three_way_splits(holes: int) -> npt.NDArray[np.int64]:
    """(P, 3): every split of ``holes`` cards into three groups (some maybe empty), as masks, each
    split once whatever the order of its groups."""
    splits = set()
    for labels in itertools.product(range(3), repeat=holes):
        masks = sorted(sum(1 << i for i, lab in enumerate(labels) if lab == g) for g in range(3))
        splits.add(tuple(masks))
    return np.array(sorted(splits), dtype=np.int64)


def best_three_split(subsets: npt.NDArray[np.integer[Any]]) -> IntArray:
    """(B, 3): from ``subset_values`` (B, 2**h), the three hands of the split of the hole cards
    that makes the strongest hand as strong as possible, then the second, then the third;
    strongest first."""
    splits = _three_way_splits(int(subsets.shape[1]).bit_length() - 1)
    # Splits by rows: each split's values lie together, and every pass below is contiguous.
    by_subset = np.ascontiguousarray(subsets.T, dtype=np.int32)  # values stay below 2**24
    a, b, c = (by_subset[splits[:, k]] for k in range(3))  # (P, B) each
    # Each split's three values sorted with five comparisons, in place.
    high = np.maximum(a, b)
    low = np.minimum(a, b, out=a)
    strongest = np.maximum(high, c, out=b)
    middle = np.maximum(low, np.minimum(high, c, out=high), out=high)
    weakest = np.minimum(low, c, out=low)
    # (strongest, middle) packs into one comparable integer; the weakest decides among the
    # splits that tie on both.
    top = strongest.astype(np.int64) << 24
    top |= middle
    best = top.max(axis=0)
    third = np.where(top == best, weakest, -1).max(axis=0)
    return np.column_stack([best >> 24, best & ((1 << 24) - 1), third])


@functools.cache
def _rule_plan(holes: int, top: int) -> tuple[tuple[IntArray, IntArray], ...]:
    """Per number of hole cards used (at most ``top``): the masks of the hole subsets and of
    the river subsets that make fives with them."""
    return tuple(
        (
            np.array(
                [sum(1 << i for i in held) for held in itertools.combinations(range(holes), used)]
            ),
            np.array(
                [
                    sum(1 << i for i in shared)
                    for shared in itertools.combinations(range(5), 5 - used)
                ]
            ),
        )
        for used in range(min(5, holes, top) + 1)
    )


class RuleRivers:
    """Rows of 5-card rivers (card codes, ``batch_values.card_code``), prepared once to value
    any hole cards with under any table rule, wild cards and decks included.

    Each river's and each hand's subsets are summed once (keys add, suit bits or); a five is
    then a sum of the two (broadcast, hole subsets by river subsets), an or, and one look-up in
    the rules' table (``batch_values.rule_table``). Keys are split in two int32 halves and suits
    kept in bytes: the passes over the fives move half the memory.
    """

    def __init__(self, rivers: IntArray, rules: TableRules, wilds: int) -> None:
        low, high, suit = batch_values.split_code_arrays()
        self.rows = len(rivers)
        self.rules = rules
        self.wilds = wilds
        self.best_table = batch_values.table_for(rules, False, wilds)
        self._rivers = rivers
        self._totals = _rule_totals(low[rivers], high[rivers], suit[rivers])
        self._sums = tuple(a[rivers].sum(axis=1) for a in batch_values.seven_code_arrays())

    def _seven(self, holes: IntArray, worst: bool) -> IntArray:
        """Best (worst) five of at most 2 hole cards and the river: one look-up by rank counts
        (``batch_values.seven_table``), the five by five way only where a flush could be played."""
        low, high, suit = (
            total + a[holes].sum(axis=-1)
            for total, a in zip(self._sums, batch_values.seven_code_arrays(), strict=True)
        )
        table = batch_values.seven_for(self.rules, worst, self.wilds)
        values = np.asarray(table.values[table.high[high] + table.low[low]], dtype=np.int64)
        rows = np.flatnonzero(batch_values.flush_possible()[suit])
        if len(rows):
            parts = self._fives(holes, 2, worst, rows)
            reduce = np.minimum if worst else np.maximum
            values[rows] = reduce.reduce(
                [reduce.reduce(p.reshape(len(rows), -1), axis=1) for p in parts]
            )
        return values

    def _fives(
        self,
        holes: IntArray,
        top: int,
        worst: bool,
        rows: IntArray | None = None,
        skip: int = 0,
    ) -> list[npt.NDArray[np.int32]]:
        """Per number of hole cards used (from ``skip`` on): the fives' values (rows, hole
        subsets, river subsets), on every row or on ``rows``."""
        low, high, suit = batch_values.split_code_arrays()
        holes = np.broadcast_to(holes, (self.rows, holes.shape[-1]))
        totals = self._totals
        if rows is not None:
            holes = holes[rows]
            totals = (totals[0][rows], totals[1][rows], totals[2][rows])
        hole = _rule_totals(low[holes], high[holes], suit[holes])
        # The worst values' table is built only for the rules that ask for it (high-low).
        table = batch_values.table_for(self.rules, True, self.wilds) if worst else self.best_table
        found = []
        for hole_at, board_at in _rule_plan(holes.shape[-1], top)[skip:]:
            found.append(
                _five_values_of(
                    table,
                    tuple(t[:, hole_at, None] for t in hole),
                    tuple(t[:, None, board_at] for t in totals),
                )
            )
        return found

    def best(self, holes: IntArray, top: int = 5, worst: bool = False) -> IntArray:
        """Each row's best five (``worst``: its worst) of the hole cards (rows x h codes, or h)
        and its river, using at most ``top`` hole cards."""
        holes = np.asarray(holes, dtype=np.int64)
        reduce = np.minimum if worst else np.maximum
        h = holes.shape[-1]
        if h <= 2:
            return self._seven(holes, worst)
        # Fives using at most two hole cards: the best (worst) of every pair's look-up (fewer
        # hole cards are in some pair); only those using three or more go five by five.
        pairs = itertools.combinations(range(h), 2)
        paired = reduce.reduce([self._seven(holes[..., list(pair)], worst) for pair in pairs])
        if top <= 2:
            return np.asarray(paired, dtype=np.int64)
        parts = self._fives(holes, top, worst, skip=3)
        flat = [reduce.reduce(p.reshape(self.rows, -1), axis=1) for p in parts]
        return np.asarray(reduce.reduce([paired, *flat]), dtype=np.int64)

    def subsets(self, holes: IntArray) -> IntArray32:
        """(rows, 2**h): the best five of the river and each subset of the hole cards (bit i:
        hole card i), as ``subset_values`` gives it under standard rules.

        Subsets of at most three cards are looked up as sevens (``_by_sevens``); larger ones
        take the best of their fives using four or five of their cards and of their smaller
        subsets.
        """
        holes = np.broadcast_to(np.asarray(holes, dtype=np.int64), (self.rows, holes.shape[-1]))
        h = holes.shape[-1]
        # Everything here is laid out by subset, then row: each subset's values are contiguous
        # for the passes below (the transpose returned is a view, and ``best_three_split``
        # reads it without a copy).
        by_card = holes.T
        low, high, suit = batch_values.split_code_arrays()
        fives = (
            _subset_fold_t(low[by_card], np.add),
            _subset_fold_t(high[by_card], np.add),
            _subset_fold_t(suit[by_card], np.bitwise_or),
        )
        low7, high7, suit7 = batch_values.seven_code_arrays()
        sevens = (
            _subset_fold_t(low7[by_card], np.add),
            _subset_fold_t(high7[by_card], np.add),
            _subset_fold_t(suit7[by_card], np.add),
        )
        result = np.zeros((1 << h, self.rows), dtype=np.int32)
        small = np.array([m for m in range(1 << h) if m.bit_count() <= 3])
        result[small] = self._by_sevens(fives, sevens, small)
        for used in range(4, min(5, h) + 1):
            hole_at, board_at = _rule_plan(h, 5)[used]
            result[hole_at] = self._held_fives(fives, hole_at, board_at).max(axis=1)
        for bit in range(h):
            # Subsets with the bit (second half of each block of 2**(bit+1)) take the best of
            # their own value and that of the subset without it.
            blocks = result.reshape(-1, 2, 1 << bit, self.rows)
            np.maximum(blocks[:, 1], blocks[:, 0], out=blocks[:, 1])
        return result.T

    @functools.cached_property
    def _river_sevens(self) -> tuple[IntArray32, IntArray32]:
        """(3, rows) low and high seven keys of the river less each of its first three cards."""
        low7, high7, _ = batch_values.seven_code_arrays()
        r_low, r_high, _ = self._sums
        first = self._rivers[:, :3].T
        return (r_low - low7[first], r_high - high7[first])

    @functools.cached_property
    def _totals_t(self) -> _Totals:
        """``_totals`` by river subset, then row."""
        low, high, suit = self._totals
        return (
            np.ascontiguousarray(low.T),
            np.ascontiguousarray(high.T),
            np.ascontiguousarray(suit.T),
        )

    def _by_sevens(self, fives: _Totals, sevens: _Sevens, held: IntArray) -> IntArray32:
        """(S, rows): for subsets ``held`` of at most three hole cards, the best five of their
        cards and the river, by rank counts where no flush can be made. A subset of at most two
        with the river is a seven. A five of three hole cards leaves out three river cards, one
        of them among the river's first three, so it lies in one of the 3 sevens that drop one
        of those (fives of fewer hole cards are their subsets', which the fold over subsets
        adds). Where the cards could hold a flush, the value is the best five using every card
        of the subset."""
        table = batch_values.seven_for(self.rules, False, self.wilds)
        s_low, s_high, s_suit = (t[held] for t in sevens)
        r_low, r_high, r_suit = self._sums
        sizes = np.array([int(m).bit_count() for m in held])
        three = sizes == 3
        best = np.empty(s_low.shape, dtype=np.int32)
        slot = table.high[s_high[~three] + r_high]
        slot += table.low[s_low[~three] + r_low]
        best[~three] = table.values[slot]
        # Three cards: their sevens, each leaving out one of the river's first three cards.
        d_low, d_high = self._river_sevens
        slot = table.high[s_high[three, None] + d_high]
        slot += table.low[s_low[three, None] + d_low]
        best[three] = table.values[slot].max(axis=1)
        # Eight cards' suit counts still fit ``flush_possible``'s fields (four bits a suit);
        # eight free wild cards pass its three-bit field: seven already make any flush.
        columns, rows = np.nonzero(batch_values.flush_possible()[_capped_free(s_suit + r_suit)])
        for used in np.unique(sizes[columns]).tolist():
            of = sizes[columns] == used
            best[columns[of], rows[of]] = self._entry_fives(
                fives, rows[of], held[columns[of]], used
            )
        return best

    def _entry_fives(self, fives: _Totals, rows: IntArray, held: IntArray, used: int) -> IntArray32:
        """For each (row, hole subset of ``used`` cards) entry, the best of the fives made of
        those cards and 5 - ``used`` river cards (the rules' table of fives, flushes included)."""
        board_at = _rule_plan(5, 5)[5 - used][0]
        values = _five_values_of(
            self.best_table,
            tuple(t[held, rows][:, None] for t in fives),
            tuple(t[rows][:, board_at] for t in self._totals),
        )
        return np.asarray(values.max(axis=1), dtype=np.int32)

    def _held_fives(self, fives: _Totals, hole_at: IntArray, board_at: IntArray) -> IntArray32:
        """(hole subsets, river subsets, rows): the value of each five of a hole subset and a
        river subset, from their totals (by subset, then row)."""
        return _five_values_of(
            self.best_table,
            tuple(t[hole_at, None] for t in fives),
            tuple(t[None, board_at] for t in self._totals_t),
        )


def _capped_free(suits: IntArray) -> IntArray:
    """Summed suit counts (``batch_values.seven_code_arrays``) with the free wild cards' count,
    their last field, capped at 7: the most ``batch_values.flush_possible``'s field holds."""
    # one free wild card's count
    unit = int(batch_values.seven_code_arrays()[2][batch_values.WILD_CODE])
    return np.asarray(suits % unit + np.minimum(suits // unit, 7) * unit, dtype=suits.dtype)


def _five_values_of(
    table: batch_values.RuleTable,
    hole: tuple[npt.NDArray[Any], ...],
    board: tuple[npt.NDArray[Any], ...],
) -> IntArray32:
    """The rules' value of each five made of hole and river subsets, from their totals (low
    keys, high keys, suit bits; shapes that broadcast together): the keys add, the suits or."""
    (h_low, h_high, h_suit), (b_low, b_high, b_suit) = hole, board
    slot = table.index.high2[h_high + b_high]
    slot += table.index.low2[h_low + b_low]
    suits = h_suit | b_suit
    slot += (suits & (suits - 1)) == 0  # a five of one suit: the table's flush column
    return np.asarray(table.values32[slot], dtype=np.int32)


def _rule_totals(
    low: npt.NDArray[np.int32], high: npt.NDArray[np.int32], suit: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.uint8]]:
    """Low keys, high keys and suit bits of every subset of each row's cards (bit i: card i)."""
    return (
        _subset_fold(low, np.add),
        _subset_fold(high, np.add),
        _subset_fold(suit, np.bitwise_or),
    )


def _subset_fold_t(per_card: npt.NDArray[Any], combine: np.ufunc) -> npt.NDArray[Any]:
    """``_subset_fold`` of (cards, rows) per-card values, laid out (2**cards, rows)."""
    totals = np.zeros((1 << per_card.shape[0], per_card.shape[1]), dtype=per_card.dtype)
    for i in range(per_card.shape[0]):
        combine(totals[: 1 << i], per_card[i], out=totals[1 << i : 2 << i])
    return totals


def _subset_fold(per_card: npt.NDArray[Any], combine: np.ufunc) -> npt.NDArray[Any]:
    """``_subset_totals`` in the per-card array's own dtype."""
    totals = np.zeros((len(per_card), 1 << per_card.shape[1]), dtype=per_card.dtype)
    for i in range(per_card.shape[1]):
        combine(totals[:, : 1 << i], per_card[:, i : i + 1], out=totals[:, 1 << i : 2 << i])
    return totals
