"""Poker hand values under every table rule: high, ace-to-five and deuce-to-seven lowball,
normal or around-the-corner straights, any number of decks and wild cards.

A ``HandValue`` compares by ``strength`` only (larger is stronger under the table's ranking), so
equal values are perfect ties; its other fields explain the hand and are left out of comparisons.

>>> from companion.engine.cards import parse_cards
>>> best_hand(parse_cards("Ah 2c"), parse_cards("3d 4s 5h Kd Kc")).category.name
'STRAIGHT'
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from companion.engine.cards import Card, Rank, Suit
from companion.errors import TableError

__all__ = [
    "Category",
    "Ranking",
    "Straights",
    "TableRules",
    "HandValue",
    "rank_five",
    "five_strength",
    "best_hand",
    "five_card_sets",
]


class Category(IntEnum):
    """Hand categories under high ranking, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9
    FLUSH_HOUSE = 10
    FLUSH_FIVE = 11

    @property
    def label(self) -> str:
        """The id used in JSON output, e.g. ``two_pair``."""
        return self.name.lower()


class Ranking(Enum):
    HIGH = "high"
    LOW_A5 = "low-a5"
    LOW_27 = "low-27"


class Straights(Enum):
    NORMAL = "normal"
    WRAP = "wrap"


@dataclass(frozen=True)
class TableRules:
    """The table rules that change how hands compare."""

    ranking: Ranking = Ranking.HIGH
    straights: Straights = Straights.NORMAL
    decks: int = 1


@dataclass(frozen=True, order=True)
class HandValue:
    """A hand's value: comparable by ``strength``; the rest explains it."""

    strength: tuple[int, ...]
    category: Category = field(compare=False)
    deciding: tuple[Rank, ...] = field(compare=False)
    best: tuple[Card, ...] = field(compare=False)
    played_as: tuple[Card, ...] = field(compare=False)
    ranking: Ranking = field(compare=False, default=Ranking.HIGH)


_WHEEL = frozenset({12, 0, 1, 2, 3})


def _straight_top(distinct: tuple[int, ...], wrap: bool, wheel: bool) -> int | None:
    """The top card of a straight in sequence order, or None (``distinct``: 5 ranks, high first)."""
    if distinct[0] - distinct[4] == 4:
        return distinct[0]
    ranks = frozenset(distinct)
    if wheel and ranks == _WHEEL:
        return 3
    if wrap:
        # Around the corner: K-A-2-3-4 tops at 4, J-Q-K-A-2 at 2, so all rank below the wheel.
        for start in range(9, 13):
            if ranks == frozenset((start + i) % 13 for i in range(5)):
                return (start + 4) % 13
    return None


def _grouped(
    ranks: tuple[int, ...], order_key: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counts, ranks) grouped by count, then by ``order_key`` of the rank, both descending."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda item: (item[1], order_key[item[0]]), reverse=True)
    return tuple(c for _, c in groups), tuple(r for r, _ in groups)


_HIGH_ORDER = tuple(range(13))
_A5_ORDER = tuple((r + 1) % 13 for r in range(13))  # ace lowest


def _high_category(counts: tuple[int, ...], flush: bool, straight: bool) -> Category:
    if counts[0] == 5:
        return Category.FLUSH_FIVE if flush else Category.FIVE_OF_A_KIND
    if counts[0] == 4:
        return Category.FOUR_OF_A_KIND
    if counts[:2] == (3, 2):
        return Category.FLUSH_HOUSE if flush else Category.FULL_HOUSE
    if straight:
        return Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
    if flush:
        return Category.FLUSH
    if counts[0] == 3:
        return Category.THREE_OF_A_KIND
    if counts[:2] == (2, 2):
        return Category.TWO_PAIR
    if counts[0] == 2:
        return Category.PAIR
    return Category.HIGH_CARD


@functools.cache
def _five_value(
    ranks: tuple[int, ...], flush: bool, ranking: Ranking, wrap: bool
) -> tuple[tuple[int, ...], Category, tuple[int, ...]]:
    """(strength, category, deciding ranks) of five cards given as sorted ranks and a flush flag."""
    if ranking is Ranking.LOW_A5:
        # Straights and flushes do not exist; the ace is the lowest card.
        counts, grouped = _grouped(ranks, _A5_ORDER)
        category = _high_category(counts, flush=False, straight=False)
        badness = (int(category), *(_A5_ORDER[r] for r in grouped))
        return tuple(-x for x in badness), category, grouped
    counts, grouped = _grouped(ranks, _HIGH_ORDER)
    top = None
    if len(counts) == 5:
        # Deuce-to-seven: the ace is high only, so A-2-3-4-5 is no straight.
        low27 = ranking is Ranking.LOW_27
        top = _straight_top(grouped, wrap=wrap and not low27, wheel=not low27)
    category = _high_category(counts, flush, top is not None)
    straight = top is not None and category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
    deciding: tuple[int, ...] = (top,) if straight and top is not None else grouped
    strength = (int(category), *deciding)
    if ranking is Ranking.LOW_27:
        strength = tuple(-x for x in strength)
    return strength, category, deciding


def _natural_value(
    five: tuple[Card, ...], rules: TableRules
) -> tuple[tuple[int, ...], Category, tuple[int, ...]]:
    ranks = tuple(sorted((int(c.rank) for c in five if c.rank is not None), reverse=True))
    flush = len({c.suit for c in five}) == 1
    return _five_value(ranks, flush, rules.ranking, rules.straights is Straights.WRAP)


def _wild_choices(five: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
    """Every distinct way the wild cards of ``five`` can be played, position by position.

    Free wilds are interchangeable, so their ranks are drawn as multisets; of their suits only one
    thing matters: whether all five cards end up in one suit (a flush) or not.
    """
    free = [i for i, c in enumerate(five) if c.is_wild and c.suit is None]
    bound = [i for i, c in enumerate(five) if c.is_wild and c.suit is not None]
    fixed_suits = {c.suit for c in five if c.suit is not None}
    suit = next(iter(fixed_suits)) if len(fixed_suits) == 1 else Suit.SPADES
    other = Suit.HEARTS if suit is Suit.SPADES else Suit.SPADES
    suit_patterns = [(suit,) * len(free)]
    if free and len(fixed_suits) <= 1:
        suit_patterns.append((other,) + (suit,) * (len(free) - 1))
    for bound_ranks in itertools.product(Rank, repeat=len(bound)):
        for free_ranks in itertools.combinations_with_replacement(Rank, len(free)):
            for suits in suit_patterns:
                played = list(five)
                for i, rank in zip(bound, bound_ranks, strict=True):
                    played[i] = Card(rank, five[i].suit)
                for i, rank, free_suit in zip(free, free_ranks, suits, strict=True):
                    played[i] = Card(rank, free_suit)
                yield tuple(played)


def five_strength(
    five: tuple[Card, ...], rules: TableRules = TableRules(), worst: bool = False
) -> tuple[int, ...]:
    """``rank_five(five, rules, worst).strength`` without building the explanation (faster).

    >>> from companion.engine.cards import parse_cards
    >>> five = parse_cards("As Ks * Js Ts")
    >>> five_strength(five) == rank_five(five).strength
    True
    """
    if len(five) != 5:
        return rank_five(five, rules, worst).strength  # raises the usual error
    if not any(c.is_wild for c in five):
        return _natural_value(five, rules)[0]
    pick = min if worst else max
    return pick(_natural_value(choice, rules)[0] for choice in _wild_choices(five))


def rank_five(
    five: tuple[Card, ...], rules: TableRules = TableRules(), worst: bool = False
) -> HandValue:
    """The value of exactly five cards; wild cards take their best value (their worst if ``worst``).

    >>> from companion.engine.cards import parse_cards
    >>> rank_five(parse_cards("As Ks * Js Ts")).category.name
    'STRAIGHT_FLUSH'
    """
    if len(five) != 5:
        raise TableError("hand.size", n=len(five))
    if not any(c.is_wild for c in five):
        strength, category, deciding = _natural_value(five, rules)
        played: tuple[Card, ...] = five
    else:
        pick = min if worst else max
        strength, category, deciding, played = pick(
            ((*_natural_value(choice, rules), choice) for choice in _wild_choices(five)),
            key=lambda item: item[0],
        )
    order = _display_order(played, category, deciding)
    return HandValue(
        strength=strength,
        category=category,
        deciding=tuple(Rank(r) for r in deciding),
        best=tuple(five[i] for i in order),
        played_as=tuple(played[i] for i in order),
        ranking=rules.ranking,
    )


def _display_order(
    played: tuple[Card, ...], category: Category, deciding: tuple[int, ...]
) -> list[int]:
    """Positions of the five cards as players lay them out: groups first, straights from the top."""
    ranks = [int(c.rank) for c in played if c.rank is not None]
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = deciding[0]
        return sorted(range(5), key=lambda i: (top - ranks[i]) % 13)
    return sorted(range(5), key=lambda i: deciding.index(ranks[i]))


def five_card_sets(
    hole: tuple[Card, ...], board: tuple[Card, ...], max_hole: int | None = None
) -> Iterator[tuple[Card, ...]]:
    """Every 5-card set of hole + board cards that uses at most ``max_hole`` hole cards."""
    top = len(hole) if max_hole is None else min(max_hole, len(hole))
    for from_hole in range(max(0, 5 - len(board)), min(5, top) + 1):
        for held in itertools.combinations(hole, from_hole):
            for shared in itertools.combinations(board, 5 - from_hole):
                yield held + shared


def best_hand(
    hole: tuple[Card, ...],
    board: tuple[Card, ...],
    rules: TableRules = TableRules(),
    max_hole: int | None = None,
    worst: bool = False,
) -> HandValue:
    """The best (or, with ``worst``, the worst) five of hole + board, using at most ``max_hole``."""
    sets = five_card_sets(hole, board, max_hole)
    values = (rank_five(five, rules, worst) for five in sets)
    pick = min if worst else max
    try:
        return pick(values)
    except ValueError:
        raise TableError("hand.too_few_cards", n=len(hole) + len(board)) from None
