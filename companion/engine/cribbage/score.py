"""Cribbage counting: the show of a hand or crib, his heels, and pegging points for one card.

Every score is a tuple of ``ScoreItem`` (rule, points, cards) and the total is their sum, so
players can check each combination. Text for players lives in ``cribbage_text``.

>>> from companion.engine.cards import parse_cards
>>> show = score_show(parse_cards("4c 5d 6h Kc"), parse_cards("5s")[0])
>>> show.total, show.fifteens, show.pairs, show.runs
(16, 8, 2, 6)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import combinations, product

import numpy as np
import numpy.typing as npt

from companion.engine.cards import Card, Place, Rank, check_duplicates
from companion.errors import IllegalMoveError, TableError
from companion.messages import phrase

__all__ = [
    "Rule",
    "ScoreItem",
    "Show",
    "PEG_LIMIT",
    "card_value",
    "run_order",
    "score_show",
    "score_heels",
    "score_peg",
    "peg_count",
    "show_points_many",
    "check_natural",
    "check_cards",
]

PEG_LIMIT = 31
HAND_SIZE = 4


class Rule(StrEnum):
    """Why points were scored; the values are the stable ids of the JSON output."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"
    HEELS = "heels"
    THIRTY_ONE = "thirty_one"
    PAIR_ROYAL = "pair_royal"
    DOUBLE_PAIR_ROYAL = "double_pair_royal"
    GO = "go"
    LAST_CARD = "last_card"


@dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: ``points`` for ``cards`` under ``rule``."""

    rule: Rule
    points: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Show:
    """The count of a hand or crib with the starter; ``total`` is the sum of the items."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[ScoreItem, ...]

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def points_for(self, *rules: Rule) -> int:
        return sum(item.points for item in self.items if item.rule in rules)

    @property
    def fifteens(self) -> int:
        return self.points_for(Rule.FIFTEEN)

    @property
    def pairs(self) -> int:
        return self.points_for(Rule.PAIR)

    @property
    def runs(self) -> int:
        return self.points_for(Rule.RUN)

    @property
    def flush(self) -> int:
        return self.points_for(Rule.FLUSH)

    @property
    def nobs(self) -> int:
        return self.points_for(Rule.NOBS)


def run_order(card: Card) -> int:
    """Position in a cribbage run: ace 0 (always low), two 1, ..., king 12."""
    return (int(_rank(card)) + 1) % 13


def card_value(card: Card) -> int:
    """Counting value: ace 1, two to ten at face value, court cards 10."""
    return min(run_order(card) + 1, 10)


def _rank(card: Card) -> Rank:
    if card.rank is None:
        raise TableError("cribbage.wild", card=card)
    return card.rank


def check_natural(cards: Iterable[Card], where: Place) -> None:
    """Refuse wild cards, naming the card and where it was seen."""
    for card in cards:
        if card.rank is None or card.suit is None:
            raise TableError("cribbage.wild_in", card=card, where=where)


@cache
def _subsets(size: int) -> tuple[tuple[int, ...], ...]:
    """Positions of every 2+ card subset, in the order of the cards, as players count them."""
    return tuple(sorted(sub for k in range(2, size + 1) for sub in combinations(range(size), k)))


def _fifteen_items(cards: Sequence[Card]) -> list[ScoreItem]:
    return [
        ScoreItem(Rule.FIFTEEN, 2, tuple(cards[i] for i in subset))
        for subset in _subsets(len(cards))
        if sum(card_value(cards[i]) for i in subset) == 15
    ]


def _pair_items(cards: Sequence[Card]) -> list[ScoreItem]:
    return [
        ScoreItem(Rule.PAIR, 2, pair)
        for pair in combinations(cards, 2)
        if pair[0].rank == pair[1].rank
    ]


def _run_items(cards: Sequence[Card]) -> list[ScoreItem]:
    """Each combination of the longest run (3+), so a double run of three is two items."""
    by_order: dict[int, list[Card]] = {}
    for card in cards:
        by_order.setdefault(run_order(card), []).append(card)
    best: list[int] = []
    segment: list[int] = []
    for order in range(14):
        if order in by_order:
            segment.append(order)
            continue
        if len(segment) > len(best):
            best = segment
        segment = []
    if len(best) < 3:
        return []
    # A hand of five cards holds at most one run of three or more, so ``best`` is the only one.
    return [
        ScoreItem(Rule.RUN, len(best), combo) for combo in product(*(by_order[o] for o in best))
    ]


def _flush_item(hand: Sequence[Card], starter: Card, crib: bool) -> list[ScoreItem]:
    suits = {card.suit for card in hand}
    if len(suits) != 1:
        return []
    if starter.suit in suits:
        return [ScoreItem(Rule.FLUSH, 5, (*hand, starter))]
    # The crib only scores a flush that the starter completes.
    return [] if crib else [ScoreItem(Rule.FLUSH, 4, tuple(hand))]


def _nobs_item(hand: Sequence[Card], starter: Card) -> list[ScoreItem]:
    return [
        ScoreItem(Rule.NOBS, 1, (card,))
        for card in hand
        if card.rank == Rank.JACK and card.suit == starter.suit
    ]


def check_cards(cards: Sequence[Card], size: int, where: Place) -> None:
    """Refuse a wrong number of cards, wild cards and repeats, naming ``where`` they were read."""
    if len(cards) != size:
        raise TableError("cribbage.card_count", where=where, size=size, n=len(cards), cards=cards)
    check_natural(cards, where)
    check_duplicates({where: cards})


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> Show:
    """Count a 4-card hand (or the crib, ``crib=True``) with the starter, item by item."""
    hand = tuple(hand)
    where = phrase("place.crib" if crib else "place.hand_cards")
    check_cards(hand, HAND_SIZE, where)
    check_natural((starter,), phrase("place.starter"))
    check_duplicates({where: hand, phrase("place.starter"): (starter,)})
    five = (*hand, starter)
    items = [
        *_fifteen_items(five),
        *_pair_items(five),
        *_run_items(five),
        *_flush_item(hand, starter, crib),
        *_nobs_item(hand, starter),
    ]
    return Show(hand, starter, crib, tuple(items))


def score_heels(starter: Card) -> tuple[ScoreItem, ...]:
    """A jack turned as starter gives the dealer 2 (his heels), outside any show."""
    check_natural((starter,), phrase("place.starter"))
    return (ScoreItem(Rule.HEELS, 2, (starter,)),) if starter.rank == Rank.JACK else ()


def peg_count(cards: Iterable[Card]) -> int:
    """The running total of a count sequence."""
    return sum(card_value(card) for card in cards)


def score_peg(count_cards: Sequence[Card], end: Rule | None = None) -> tuple[ScoreItem, ...]:
    """Points for the last card of a count sequence (cards played since the last reset).

    ``end`` is ``Rule.GO`` or ``Rule.LAST_CARD`` when that card also closes the count and
    nobody can follow; it scores 1, but never on top of 31.

    >>> from companion.engine.cards import parse_cards
    >>> [(i.rule.value, i.points) for i in score_peg(parse_cards("5h 5d 5s"))]
    [('fifteen', 2), ('pair_royal', 6)]
    """
    cards = tuple(count_cards)
    if not cards:
        return ()
    check_natural(cards, phrase("place.count"))
    check_duplicates({phrase("place.count"): cards})
    total = 0
    for card in cards:
        total += card_value(card)
        if total > PEG_LIMIT:
            raise IllegalMoveError("cribbage", "count_over_31", card=card, total=total)
    items: list[ScoreItem] = []
    if total == 15:
        items.append(ScoreItem(Rule.FIFTEEN, 2, cards))
    if total == PEG_LIMIT:
        items.append(ScoreItem(Rule.THIRTY_ONE, 2, cards))
    items.extend(_peg_pair_items(cards))
    items.extend(_peg_run_items(cards))
    if end is not None and total != PEG_LIMIT:
        if end not in (Rule.GO, Rule.LAST_CARD):
            raise ValueError(f"end must be go or last_card, not {end}")
        items.append(ScoreItem(end, 1, cards[-1:]))
    return tuple(items)


_PEG_PAIRS = {2: (Rule.PAIR, 2), 3: (Rule.PAIR_ROYAL, 6), 4: (Rule.DOUBLE_PAIR_ROYAL, 12)}


def _peg_pair_items(cards: tuple[Card, ...]) -> list[ScoreItem]:
    same = 1
    while same < len(cards) and cards[-same - 1].rank == cards[-1].rank:
        same += 1
    if same < 2:
        return []
    rule, points = _PEG_PAIRS[same]
    return [ScoreItem(rule, points, cards[-same:])]


def _peg_run_items(cards: tuple[Card, ...]) -> list[ScoreItem]:
    # Only the longest tail that forms a run counts; check from the longest down.
    for length in range(len(cards), 2, -1):
        tail = cards[-length:]
        orders = {run_order(card) for card in tail}
        if len(orders) == length and max(orders) - min(orders) == length - 1:
            return [ScoreItem(Rule.RUN, length, tail)]
    return []


# --- Fast path: many shows at once, over card ids (4 * rank + suit) -----------------------------

_JACK_IDS = np.array([4 * int(Rank.JACK) + suit for suit in range(4)])


@cache
def _rank_table() -> npt.NDArray[np.int8]:
    """Points from fifteens, pairs and runs for every ordered 5-tuple of run orders (13**5).

    A second, array-wise implementation of the rules: the tests hold it to the itemized scorer
    on every multiset of ranks, and to the published distribution of all hands.
    """
    orders = np.indices((13,) * 5, dtype=np.int8).reshape(5, -1).T
    values = np.minimum(orders + 1, 10).astype(np.int16)
    subsets = np.array(
        [[int(i in subset) for i in range(5)] for size in range(2, 6)
         for subset in combinations(range(5), size)],
        dtype=np.int16,
    )  # fmt: skip
    points = 2 * ((values @ subsets.T) == 15).sum(axis=1)
    for first, second in combinations(range(5), 2):
        points += 2 * (orders[:, first] == orders[:, second])
    counts = np.zeros((len(orders), 13), dtype=np.int16)
    present = np.zeros(len(orders), dtype=np.int32)
    for column in range(5):
        counts[np.arange(len(orders)), orders[:, column]] += 1
        present |= 1 << orders[:, column].astype(np.int32)
    # Only the longest run counts; five cards hold at most one run of three or more.
    scored = np.zeros(len(orders), dtype=bool)
    for length in (5, 4, 3):
        for low in range(14 - length):
            window = ((1 << length) - 1) << low
            rows = np.flatnonzero(((present & window) == window) & ~scored)
            # Each choice of one card per rank is a run: the product of the multiplicities.
            points[rows] += length * counts[rows, low : low + length].prod(axis=1)
            scored[rows] = True
    table: npt.NDArray[np.int8] = points.astype(np.int8)
    table.flags.writeable = False
    return table


def _base13_many(orders: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    key = np.zeros(orders.shape[0], dtype=np.int64)
    for column in range(orders.shape[1]):
        key = key * 13 + orders[:, column]
    return key


def show_points_many(
    hands: npt.NDArray[np.integer], starters: npt.NDArray[np.integer], crib: bool = False
) -> npt.NDArray[np.int16]:
    """Show totals for N hands ``(N, 4)`` and starters ``(N,)`` given as card ids; no checks.

    The caller promises distinct natural cards; ``score_show`` is the checked, explained path.
    """
    hands = np.asarray(hands)
    starters = np.asarray(starters)
    orders = (hands // 4 + 1) % 13
    start_order = (starters // 4 + 1) % 13
    key = _base13_many(orders) * 13 + start_order
    points = _rank_table()[key].astype(np.int16)
    suits = hands % 4
    start_suit = starters % 4
    one_suit = (suits == suits[:, :1]).all(axis=1)
    with_starter = one_suit & (suits[:, 0] == start_suit)
    points += 5 * with_starter if crib else 4 * one_suit + with_starter
    points += (hands == (_JACK_IDS[start_suit])[:, None]).any(axis=1)
    return points
