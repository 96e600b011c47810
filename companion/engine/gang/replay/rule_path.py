"""The replay's numpy path under every table rule: lowball rankings, around-the-corner straights,
wild cards (free and suit-bound), two decks, any number of hole cards, every variant's hands.

Each deal is a row; every five a hand could play is valued at once for all rows through the
rules' table of fives (``batch_values.rule_table``), and each variant's hand former is rebuilt from
those values (``NumpyForm``): the best five, the best of at most two hole cards, high-low's
worst, the split of four cards in two pairs, six-three-hands' splits in three. The tests hold
it to the variants' own hand formers on random deals.

Whether a street is enumerated or sampled follows an estimate of its work (fives valued),
never a clock. Sampled deals are uniform positions in the pool of unseen cards, each reused for
every hand; their count is the fewest that keeps every probability's standard error within the
target whatever the probabilities (a share's variance is at most 1/4).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping

import numpy as np
import numpy.typing as npt

from companion.engine.cards import Card
from companion.engine.gang import batch_values
from companion.engine.gang.replay import board_values
from companion.engine.gang.replay.deals import Deal, Key, joint_combinations, sampled_positions
from companion.engine.gang.replay.records import Settings, Street
from companion.engine.gang.table import FRANCOIS, Table
from companion.engine.gang.variants import NumpyForm, fives_valued, variant_of

__all__ = [
    "rule_values",
    "fives_per_deal",
    "deal_rows",
    "deal_values",
    "samples_for",
    "RowDeals",
]

IntArray = npt.NDArray[np.int64]
Groups = Mapping[Key, IntArray]  # each group's card codes on every row (rows x cards)

# bits of a card code (``batch_values.card_code``): 6
_CODE_BITS = (batch_values.CODES - 1).bit_length()
_CHUNK = 8192  # rows valued at once: the temporaries stay a few tens of MiB


def samples_for(std_error: float) -> int:
    """The fewest samples that keep any probability's standard error within ``std_error``."""
    return math.ceil(0.25 / std_error**2)


def codes(cards: tuple[Card, ...]) -> IntArray:
    return np.array([batch_values.card_code(c) for c in cards], dtype=np.int64).reshape(len(cards))


def _form(table: Table) -> NumpyForm:
    form = variant_of(table).numpy
    if form is None:
        raise ValueError(f"{table.variant} has no numpy path")  # a bug: uses_fast_path said so
    return form


_LOOKUP = 2  # a look-up by rank counts (at most 2 hole cards) costs about two fives


def _cost(cards: int, top: int | None = None) -> int:
    """The work of one hand of ``cards`` hole cards (at most ``top`` used), in fives."""
    if cards <= 2:
        return _LOOKUP
    paired = _LOOKUP * math.comb(cards, 2)  # fives of at most two hole cards: one per pair
    if top == 2:
        return paired
    return paired + fives_valued(cards, top) - fives_valued(cards, 2)


def fives_per_deal(table: Table) -> int:
    """How many fives' work valuing one deal takes (the estimate behind exact or sampled)."""
    form = _form(table)
    rivers = len(table.rivers)
    total = 0
    for p in table.players:
        h = len(p.cards)
        if form is NumpyForm.ALL_CARDS:
            total += rivers * _cost(h)
        elif form is NumpyForm.BEST_PAIR:
            total += _cost(h, 2)
        elif form is NumpyForm.HIGH_LOW:
            total += 2 * _cost(h, 2)
        elif form is NumpyForm.PAIR_SPLIT:
            total += 3 * 2 * rivers * _LOOKUP
        else:
            total += fives_valued(h)
    given = sum(p.francois_card is not None for p in table.players)
    total += _cost(given) if given else 0
    total += sum(_cost(len(s.cards)) for s in table.shared)
    return total


def _wilds(table: Table) -> int:
    """The most wild cards a five can hold: every wild card at the table, at most five."""
    seen = [c for p in table.players for c in p.cards]
    seen += [p.francois_card for p in table.players if p.francois_card is not None]
    seen += [c for s in table.shared for c in s.cards] + list(table.board) + list(table.board2)
    return min(5, sum(c.is_wild for c in seen))


def _pair_splits(
    name: str,
    rivers: list[board_values.RuleRivers],
    hole: IntArray,
    splits: list[tuple[list[int], list[int]]],
) -> dict[str, IntArray]:
    """The split (and placement on two rivers) that maximises the stronger hand, then the weaker,
    as ``variants`` chooses it: values stay below 2**24, so both pack in one integer."""
    placements = [(0, 1), (1, 0)] if len(rivers) == 2 else [(0, 0)]
    best = np.zeros(rivers[0].rows, dtype=np.int64)
    for first, second in splits:
        for r1, r2 in placements:
            a, b = rivers[r1].best(hole[:, first]), rivers[r2].best(hole[:, second])
            np.maximum(best, (np.maximum(a, b) << 24) | np.minimum(a, b), out=best)
    return {f"{name}/1": best >> 24, f"{name}/2": best & ((1 << 24) - 1)}


def _player(
    form: NumpyForm, name: str, rivers: list[board_values.RuleRivers], hole: IntArray
) -> dict[str, IntArray]:
    """A player's hands on every row, formed as the variant forms them."""
    every = list(range(hole.shape[1]))
    river = rivers[0]
    if form is NumpyForm.BEST_PAIR:
        return {name: river.best(hole, top=2)}
    if form is NumpyForm.HIGH_LOW:
        return {f"{name}/high": river.best(hole, top=2), f"{name}/low": river.best(hole, 2, True)}
    if form is NumpyForm.THREE_SPLIT:
        three = board_values.best_three_split(river.subsets(hole))
        return {f"{name}/{k + 1}": three[:, k] for k in range(3)}
    if form is NumpyForm.PAIR_SPLIT:
        splits = [([0, j], [c for c in (1, 2, 3) if c != j]) for j in (1, 2, 3)]
        return _pair_splits(name, rivers, hole, splits)
    if len(rivers) == 2:  # classic: the same cards play on each river
        return _pair_splits(name, rivers, hole, [(every, every)])
    return {name: river.best(hole)}


def _distinct_boards(
    table: Table, rivers: list[IntArray]
) -> tuple[list[board_values.RuleRivers], IntArray] | None:
    """The distinct boards of the rows prepared once, and each row's board among them, when
    boards repeat enough to halve the work (a street sampled late: at the river one board, at
    the turn at most 46); else None."""
    # A board's value does not depend on the order of its cards: each river's codes (below
    # 2**6) sorted and packed in one integer, two rivers in 60 bits, so that finding the
    # distinct boards sorts integers, not rows.
    keys = np.zeros(len(rivers[0]), dtype=np.int64)
    for river in rivers:
        for column in np.sort(river, axis=1).T:
            keys = (keys << _CODE_BITS) | column
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if 2 * len(first) > len(inverse):
        return None
    boards = [board_values.RuleRivers(r[first], table.rules, _wilds(table)) for r in rivers]
    return boards, inverse.reshape(-1)


def rule_values(table: Table, rivers: list[IntArray], groups: Groups) -> dict[str, IntArray]:
    """Each hand's value on every row: ``rivers`` holds each river's 5 card codes per row,
    ``groups`` each player's cards (``("cards", i)``), François's (``("francois", i)``) and
    the shared hands' (``("shared", j)``) per row."""
    form = _form(table)
    prepared = [board_values.RuleRivers(r, table.rules, _wilds(table)) for r in rivers]
    values: dict[str, IntArray] = {}
    distinct: tuple[list[board_values.RuleRivers], IntArray] | None = None
    looked = False  # the distinct boards are found once, for the first hand that can use them
    for i, p in enumerate(table.players):
        hole = groups[("cards", i)]
        # Cards the same on every row (the view's own hand, or every hand when all are known):
        # valued once per distinct board.
        fixed = len(hole) > 1 and bool((hole == hole[:1]).all())
        if fixed and not looked:
            distinct, looked = _distinct_boards(table, rivers), True
        if fixed and distinct is not None:
            boards, inverse = distinct
            on_few = _player(form, p.name, boards, hole[:1].repeat(boards[0].rows, axis=0))
            values.update({key: v[inverse] for key, v in on_few.items()})
        else:
            values.update(_player(form, p.name, prepared, hole))
    given = [
        groups[("francois", i)] for i, p in enumerate(table.players) if p.francois_card is not None
    ]
    if given:
        values[FRANCOIS] = prepared[0].best(np.concatenate(given, axis=1))
    for j, s in enumerate(table.shared):
        values[s.id] = prepared[0].best(groups[("shared", j)])
    return values


class RowDeals:
    """The deals of one view at one street, as rows of positions in the deal's pool."""

    def __init__(self, deal: Deal, chosen: npt.NDArray[np.integer], exact: bool) -> None:
        self.deal = deal
        self.chosen = chosen
        self.exact = exact

    @property
    def count(self) -> int:
        return len(self.chosen)

    def chunks(self) -> Iterator[tuple[list[IntArray], dict[Key, IntArray]]]:
        """(rivers, groups) of codes for each block of rows (``rule_values``' arguments)."""
        pool = codes(self.deal.pool)
        starts = list(itertools.accumulate(self.deal.sizes, initial=0))
        for begin in range(0, max(1, self.count), _CHUNK):
            cards = pool[np.asarray(self.chosen[begin : begin + _CHUNK], dtype=np.int64)]
            rows = len(cards)
            groups: dict[Key, IntArray] = {
                key: np.broadcast_to(codes(fixed), (rows, len(fixed)))
                for key, fixed in self.deal.fixed.items()
            }
            for (key, size), at in zip(self.deal.unknown, starts, strict=False):
                dealt = cards[:, at : at + size]
                known = groups.get(key)
                groups[key] = dealt if known is None else np.concatenate([known, dealt], axis=1)
            rivers = [groups.pop(k) for k in sorted(k for k in groups if k[0] == "board")]
            yield rivers, groups


def deal_rows(
    table: Table,
    deal: Deal,
    settings: Settings,
    street: Street,
    samples: int,
    draws: dict[tuple[int, int], npt.NDArray[np.integer]] | None = None,
) -> RowDeals:
    """Every deal when their fives fit ``settings.rules_exact_limit``, else ``samples`` uniform
    ones (drawn once per pool size in ``draws``, so every view at the street shares them)."""
    if deal.count * fives_per_deal(table) <= settings.rules_exact_limit:
        return RowDeals(deal, joint_combinations(len(deal.pool), deal.sizes), True)
    shape = (len(deal.pool), sum(deal.sizes))
    store = {} if draws is None else draws
    if shape not in store:
        rng = np.random.default_rng([settings.seed, list(Street).index(street), *shape, samples])
        store[shape] = sampled_positions(rng, samples, *shape)
    return RowDeals(deal, store[shape], False)


def deal_values(table: Table, rows: RowDeals, hand_ids: tuple[str, ...]) -> IntArray:
    """(rows, hands): each hand's value on every deal, in ``hand_ids`` order."""
    blocks = [
        np.stack([values[h] for h in hand_ids], axis=1)
        for values in (rule_values(table, rivers, groups) for rivers, groups in rows.chunks())
    ]
    return np.concatenate(blocks, axis=0)
