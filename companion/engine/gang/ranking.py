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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum

from companion.engine.cards import Card, Rank, Suit
from companion.engine.gang.tokens import TokenRule
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
    "partial_value",
    "stood_hand",
    "five_card_sets",
    "lowest_missing",
    "explained_value",
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
    """The table's rules: those that change how hands compare, and how tokens move
    (``tokens``, which changes no hand's value)."""

    ranking: Ranking = Ranking.HIGH
    straights: Straights = Straights.NORMAL
    decks: int = 1
    tokens: TokenRule = TokenRule.BASE

    @property
    def for_hands(self) -> TableRules:
        """The rules that value hands: the token rule set back to the base one."""
        return replace(self, tokens=TokenRule.BASE)


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
    if category is Category.FLUSH:
        # Flushes compare card by card, a repeated rank (two decks, a joker) counting twice.
        deciding = tuple(sorted(ranks, reverse=True))
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


def _flush_options(five: tuple[Card, ...]) -> tuple[bool, ...]:
    """Whether the five can be played as a flush, as a non-flush, or both.

    Suits do not depend on ranks: naturals and suit-bound wilds have theirs, and only the free
    wilds choose (all in the one suit of the others, or one outside it).
    """
    fixed = {c.suit for c in five if c.suit is not None}
    free = sum(c.is_wild and c.suit is None for c in five)
    if len(fixed) > 1:
        return (False,)
    if not free:
        return (True,)
    return (True, False)


_LOWEST_FIRST = {
    Ranking.LOW_A5: (12, *range(12)),  # the ace is the lowest card
    Ranking.LOW_27: tuple(range(13)),
}


def lowest_missing(ranks: tuple[int, ...], count: int, ranking: Ranking) -> tuple[int, ...]:
    """At lowball, the ranks ``count`` wild cards take: the lowest ones ``ranks`` lack.

    >>> lowest_missing((12, 1, 2), 2, Ranking.LOW_A5), lowest_missing((12, 1, 2), 2, Ranking.LOW_27)
    ((0, 3), (0, 3))
    """
    held = set(ranks)
    return tuple(r for r in _LOWEST_FIRST[ranking] if r not in held)[:count]


@functools.cache
def _wild_search(
    naturals: tuple[int, ...],
    wilds: int,
    flushes: tuple[bool, ...],
    ranking: Ranking,
    wrap: bool,
    worst: bool,
) -> tuple[tuple[tuple[int, ...], Category, tuple[int, ...]], tuple[int, ...], bool]:
    """The best (or worst) value of ``naturals`` (ranks) with ``wilds`` wild cards, the wild
    ranks that give it and whether it is played as a flush.

    Wild cards are interchangeable for the value, which depends only on the multiset of the
    five ranks and on the flush: their ranks are drawn as multisets (at most 6,188 for five
    wilds), never as one rank per wild card (13^5), and each answer is kept. At lowball a wild
    card is the lowest card missing, whatever is best (``lowest_missing``); only its suit is
    chosen.
    """
    found: tuple[tuple[tuple[int, ...], Category, tuple[int, ...]], tuple[int, ...], bool] | None
    found = None
    extras: Iterable[tuple[int, ...]] = (
        itertools.combinations_with_replacement(range(12, -1, -1), wilds)
        if ranking is Ranking.HIGH
        else (lowest_missing(naturals, wilds, ranking),)
    )
    for extra in extras:
        ranks = tuple(sorted(naturals + extra, reverse=True))
        for flush in flushes:
            value = _five_value(ranks, flush, ranking, wrap)
            if (
                found is None
                or (worst and value[0] < found[0][0])
                or (not worst and value[0] > found[0][0])
            ):
                found = (value, extra, flush)
    if found is None:  # no flush option: never, every five has at least one
        raise ValueError("no way to play the wild cards")
    return found


def _wild_value(
    five: tuple[Card, ...], rules: TableRules, worst: bool
) -> tuple[tuple[tuple[int, ...], Category, tuple[int, ...]], tuple[Card, ...]]:
    """The value of five cards holding wild cards, and the five as they are played."""
    naturals = tuple(sorted((int(c.rank) for c in five if c.rank is not None), reverse=True))
    flushes = _flush_options(five)
    wrap = rules.straights is Straights.WRAP
    value, extra, flush = _wild_search(
        naturals, 5 - len(naturals), flushes, rules.ranking, wrap, worst
    )
    fixed = {c.suit for c in five if c.suit is not None}
    suit = next(iter(fixed)) if len(fixed) == 1 else Suit.SPADES
    other = Suit.HEARTS if suit is Suit.SPADES else Suit.SPADES
    played = list(five)
    ranks = iter(extra)
    off_suit = not flush and len(fixed) <= 1  # one free wild leaves the suit: no flush
    for i, card in enumerate(five):
        if card.is_wild:
            if card.suit is not None:
                played[i] = Card(Rank(next(ranks)), card.suit)
            else:
                played[i] = Card(Rank(next(ranks)), other if off_suit else suit)
                off_suit = False
    return value, tuple(played)


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
    return _wild_value(five, rules, worst)[0][0]


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
        (strength, category, deciding), played = _wild_value(five, rules, worst)
    return explained_value((strength, category, deciding), five, played, rules.ranking)


def explained_value(
    value: tuple[tuple[int, ...], Category, tuple[int, ...]],
    cards: tuple[Card, ...],
    played: tuple[Card, ...],
    ranking: Ranking = Ranking.HIGH,
) -> HandValue:
    """The ``HandValue`` of (strength, category, deciding ranks) for ``cards`` played as
    ``played`` (wild cards given ranks), both laid out as players lay them out."""
    strength, category, deciding = value
    order = _display_order(played, category, deciding)
    return HandValue(
        strength=strength,
        category=category,
        deciding=tuple(Rank(r) for r in deciding),
        best=tuple(cards[i] for i in order),
        played_as=tuple(played[i] for i in order),
        ranking=ranking,
    )


def _display_order(
    played: tuple[Card, ...], category: Category, deciding: tuple[int, ...]
) -> list[int]:
    """Positions of the five cards as players lay them out: groups first, straights from the top."""
    ranks = [int(c.rank) for c in played if c.rank is not None]
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = deciding[0]
        return sorted(range(len(played)), key=lambda i: (top - ranks[i]) % 13)
    return sorted(range(len(played)), key=lambda i: deciding.index(ranks[i]))


def five_card_sets(
    hole: tuple[Card, ...], board: tuple[Card, ...], max_hole: int | None = None
) -> Iterator[tuple[Card, ...]]:
    """Every 5-card set of hole + board cards that uses at most ``max_hole`` hole cards."""
    top = len(hole) if max_hole is None else min(max_hole, len(hole))
    for from_hole in range(max(0, 5 - len(board)), min(5, top) + 1):
        for held in itertools.combinations(hole, from_hole):
            for shared in itertools.combinations(board, 5 - from_hole):
                yield held + shared


def _distinct_combinations(cards: tuple[Card, ...], size: int) -> Iterator[tuple[Card, ...]]:
    """``itertools.combinations(cards, size)`` where identical cards (30 ``*``, two ``As`` of
    two decks) are interchangeable: each distinct combination once, at its first place in
    itertools' order, so that the first best five is the one the full enumeration finds.

    >>> from companion.engine.cards import parse_cards
    >>> [" ".join(map(str, c)) for c in _distinct_combinations(parse_cards("* * * As"), 2)]
    ['* *', '* As']
    """
    # Among copies of a card, the earliest ones are taken first: copy j only with copy j-1.
    previous: list[int | None] = []
    last: dict[Card, int] = {}
    for i, card in enumerate(cards):
        previous.append(last.get(card))
        last[card] = i
    chosen: list[int] = []
    taken = [False] * len(cards)

    def extend(start: int) -> Iterator[tuple[Card, ...]]:
        if len(chosen) == size:
            yield tuple(cards[i] for i in chosen)
            return
        for i in range(start, len(cards) - (size - len(chosen)) + 1):
            before = previous[i]
            if before is not None and not taken[before]:
                continue
            chosen.append(i)
            taken[i] = True
            yield from extend(i + 1)
            taken[i] = False
            chosen.pop()

    return extend(0)


def _distinct_five_sets(
    hole: tuple[Card, ...], board: tuple[Card, ...], max_hole: int | None
) -> Iterator[tuple[Card, ...]]:
    """``five_card_sets`` with each distinct five once (identical cards are interchangeable)."""
    top = len(hole) if max_hole is None else min(max_hole, len(hole))
    for from_hole in range(max(0, 5 - len(board)), min(5, top) + 1):
        for held in _distinct_combinations(hole, from_hole):
            for shared in _distinct_combinations(board, 5 - from_hole):
                yield held + shared


POOL_FROM = 11  # cards from which best_hand searches ranks instead of enumerating fives


def _rank_multisets(caps: list[int], size: int, top: int = 12) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks, highest first, holding at most ``caps[r]`` of rank r."""
    if size == 0:
        yield ()
        return
    for rank in range(top, -1, -1):
        for copies in range(min(caps[rank], size), 0, -1):
            for rest in _rank_multisets(caps, size - copies, rank - 1):
                yield (rank,) * copies + rest


@dataclass(frozen=True)
class _Pool:
    """A big hand as counts: the value of a five depends on its ranks and its flush only."""

    cards: tuple[Card, ...]
    by_suit: dict[Suit, list[int]]  # natural cards per suit and rank (at most 5)
    by_rank: list[int]  # natural cards per rank, all suits (at most 5)
    free: int  # free wild cards (at most 5)
    bound: dict[Suit, int]  # wild cards bound to each suit (at most 5)

    @classmethod
    def of(cls, cards: tuple[Card, ...]) -> _Pool:
        by_suit = {suit: [0] * 13 for suit in Suit}
        by_rank = [0] * 13
        bound = dict.fromkeys(Suit, 0)
        free = 0
        for card in cards:
            if card.rank is not None and card.suit is not None:
                by_suit[card.suit][card.rank] = min(5, by_suit[card.suit][card.rank] + 1)
                by_rank[card.rank] = min(5, by_rank[card.rank] + 1)
            elif card.suit is not None:
                bound[card.suit] = min(5, bound[card.suit] + 1)
            else:
                free = min(5, free + 1)
        return cls(cards, by_suit, by_rank, free, bound)

    def can_mix(self, ranks: tuple[int, ...], wilds: int) -> bool:
        """Whether these ranks and wilds can be played as five not all of one suit.

        A free wild can always leave the suit; otherwise, if the cards and bound wilds that
        could be used span two suits, a one-suit choice can swap one card for an unused one of
        another suit (in a one-suit choice, every card of another suit is unused).
        """
        if wilds and self.free:
            return True
        suits = {suit for r in set(ranks) for suit in Suit if self.by_suit[suit][r]}
        if wilds:
            suits |= {suit for suit, n in self.bound.items() if n}
        return len(suits) > 1


def _pool_choices(
    pool: _Pool,
) -> Iterator[tuple[tuple[int, ...], int, Suit | None]]:
    """(ranks, wild count, flush suit or None) of every way to play five of the pool."""
    wilds = min(5, pool.free + sum(pool.bound.values()))
    for w in range(wilds + 1):
        for ranks in _rank_multisets(pool.by_rank, 5 - w):
            if pool.can_mix(ranks, w):
                yield ranks, w, None
    for suit in Suit:
        for w in range(min(5, pool.free + pool.bound[suit]) + 1):
            for ranks in _rank_multisets(pool.by_suit[suit], 5 - w):
                yield ranks, w, suit


def _pool_five(
    pool: _Pool, ranks: tuple[int, ...], wilds: int, suit: Suit | None
) -> tuple[Card, ...]:
    """Five cards of the pool with those ranks and that many wilds: all of ``suit``, or (when
    ``suit`` is None) not all of one suit."""
    left = Counter(pool.cards)
    if suit is not None:
        naturals = [Card(Rank(r), suit) for r in ranks]
        bound = [Card(None, suit)] * min(wilds, left[Card(None, suit)])
        return tuple(naturals + bound + [Card(None, None)] * (wilds - len(bound)))
    # Each natural rank may take any suit it has; wilds are free ones first, then bound.
    options = [[Card(Rank(r), st) for st in Suit if left[Card(Rank(r), st)]] for r in ranks]
    wild_kinds = [Card(None, None), *(Card(None, st) for st in Suit)]
    options += [[c for c in wild_kinds if left[c]]] * wilds
    for five in itertools.product(*options):
        counts = Counter(five)
        if any(counts[c] > left[c] for c in counts):
            continue
        suits = {c.suit for c in five if c.suit is not None}
        if len(suits) > 1 or any(c.is_wild and c.suit is None for c in five):
            return tuple(five)
    raise ValueError("no mixed five: can_mix said otherwise")  # never: see _Pool.can_mix


def _pool_best(cards: tuple[Card, ...], rules: TableRules, worst: bool) -> tuple[Card, ...]:
    """The best (or worst) five of a big hand, searched over ranks and flushes (at most a few
    thousand, whatever the hand's size) instead of every five of its cards."""
    pool = _Pool.of(cards)
    wrap = rules.straights is Straights.WRAP
    chosen: tuple[tuple[int, ...], int, Suit | None] | None = None
    top: tuple[int, ...] | None = None
    for ranks, wilds, suit in _pool_choices(pool):
        flush = (suit is not None,)
        if wilds:
            strength = _wild_search(ranks, wilds, flush, rules.ranking, wrap, worst)[0][0]
        else:
            strength = _five_value(ranks, flush[0], rules.ranking, wrap)[0]
        if top is None or (strength < top if worst else strength > top):
            chosen, top = (ranks, wilds, suit), strength
    if chosen is None:
        raise TableError("hand.too_few_cards", n=len(cards))
    return _pool_five(pool, *chosen)


def best_hand(
    hole: tuple[Card, ...],
    board: tuple[Card, ...],
    rules: TableRules = TableRules(),
    max_hole: int | None = None,
    worst: bool = False,
) -> HandValue:
    """The best (or, with ``worst``, the worst) five of hole + board, using at most ``max_hole``."""
    every_five = max_hole is None or max_hole >= min(5, len(hole))
    if every_five and len(hole) + len(board) >= POOL_FROM:
        # Any five of the cards is allowed: search ranks, not fives (a 20-card hand has 53,130).
        return rank_five(_pool_best(hole + board, rules, worst), rules, worst)
    chosen: tuple[Card, ...] | None = None
    top: tuple[int, ...] | None = None
    for five in _distinct_five_sets(hole, board, max_hole):
        strength = five_strength(five, rules, worst)
        if top is None or (strength < top if worst else strength > top):
            chosen, top = five, strength
    if chosen is None:
        raise TableError("hand.too_few_cards", n=len(hole) + len(board))
    return rank_five(chosen, rules, worst)


def partial_value(
    cards: tuple[Card, ...], rules: TableRules = TableRules(), worst: bool = False
) -> HandValue:
    """The value of fewer than five cards, a hand as it stands before the river is out: groups
    only (high card, pair, two pair, three or four of a kind; straights and flushes need five),
    compared as fives are, a missing card below any card; wild cards as in a five.

    >>> from companion.engine.cards import parse_cards
    >>> partial_value(parse_cards("Kh *")).category.name, partial_value(()).strength
    ('PAIR', (0,))
    """
    if len(cards) >= 5:
        raise TableError("hand.size", n=len(cards))
    if not cards:  # six-three-hands' empty sub-hand at pre-flop: a high card with no card
        return HandValue((int(Category.HIGH_CARD),), Category.HIGH_CARD, (), (), (), rules.ranking)
    naturals = tuple(sorted((int(c.rank) for c in cards if c.rank is not None), reverse=True))
    value, extra, _ = _wild_search(
        naturals, len(cards) - len(naturals), (False,), rules.ranking, False, worst
    )
    ranks = iter(extra)
    # Without flushes a wild card's suit changes nothing: a joker is shown as a spade.
    played = tuple(
        card
        if not card.is_wild
        else Card(Rank(next(ranks)), Suit.SPADES if card.suit is None else card.suit)
        for card in cards
    )
    return explained_value(value, cards, played, rules.ranking)


def stood_hand(
    hole: tuple[Card, ...],
    board: tuple[Card, ...],
    rules: TableRules = TableRules(),
    max_hole: int | None = None,
    worst: bool = False,
) -> HandValue:
    """``best_hand`` of a hand as it stood at a street: when the hole cards it may use and the
    board so far make fewer than five, every one of those cards as a partial hand (pre-flop:
    the two hole cards alone).

    >>> from companion.engine.cards import parse_cards
    >>> stood_hand(parse_cards("7h 7d"), ()).category.name
    'PAIR'
    """
    used = len(hole) if max_hole is None else min(max_hole, len(hole))
    if used + len(board) >= 5:
        return best_hand(hole, board, rules, max_hole, worst)
    values = (
        partial_value(held + board, rules, worst) for held in _distinct_combinations(hole, used)
    )
    return min(values) if worst else max(values)
