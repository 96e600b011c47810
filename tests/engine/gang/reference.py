"""A reference for hand values and every variant's hands, written apart from the engine and as
plainly as possible: every five of the cards, every card each wild card may be, each rule of
``docs/rules.md`` read literally. Slow and exact; it shares no code with ``companion.engine``
(engine cards are read only through their ``rank`` and ``suit`` numbers).

A value is ``(category name, key)``: keys compare, larger is better under the table's ranking.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
    "flush_house",
    "flush_five",
)
ACE = 12
HIGH, LOW_A5, LOW_27 = "high", "low-a5", "low-27"

Plain = tuple[int, int]  # (rank 0..12 for 2..A, suit 0..3)
Wild = tuple[None, int | None]  # a joker (None, None) or a knight (None, suit)
Any = tuple[int | None, int | None]
Value = tuple[str, tuple[object, ...]]


class CardLike(Protocol):
    @property
    def rank(self) -> int | None: ...

    @property
    def suit(self) -> int | None: ...


def plain(cards: Iterable[CardLike]) -> tuple[Any, ...]:
    """Engine cards as (rank, suit) pairs of numbers (None: wild, or no suit)."""
    return tuple(
        (None if c.rank is None else int(c.rank), None if c.suit is None else int(c.suit))
        for c in cards
    )


def straights(ranking: str, wrap: bool) -> list[frozenset[int]]:
    """Every straight as a set of ranks, weakest first."""
    runs = [frozenset(range(low, low + 5)) for low in range(9)]  # 2-6 up to 10-A
    if ranking == LOW_A5:
        return []  # ace-to-five lowball has no straights
    if ranking == LOW_27:
        return runs  # the ace is high only, and no straight goes around the corner
    wheel = [frozenset({ACE, 0, 1, 2, 3})]
    corners = [frozenset({9, 10, 11, 12, 0}), frozenset({10, 11, 12, 0, 1})]
    corners.append(frozenset({11, 12, 0, 1, 2}))
    return (corners if wrap else []) + wheel + runs


def order_of(rank: int, ranking: str) -> int:
    """How high a rank counts: the ace lowest at ace-to-five lowball, highest otherwise."""
    return (rank + 1) % 13 if ranking == LOW_A5 else rank


def value_of_natural(five: tuple[Plain, ...], ranking: str, wrap: bool) -> Value:
    """The value of five natural cards: their ranks and whether they share a suit are all that
    count (the values are kept by those, a few tens of thousands, not by the millions of fives)."""
    flush = ranking != LOW_A5 and len({s for _, s in five}) == 1
    return _value_of_ranks(tuple(sorted(r for r, _ in five)), flush, ranking, wrap)


@functools.cache
def _value_of_ranks(ranks: tuple[int, ...], flush: bool, ranking: str, wrap: bool) -> Value:
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    runs = straights(ranking, wrap)
    run = runs.index(frozenset(ranks)) if len(counts) == 5 and set(ranks) in runs else None
    if shape == [5]:
        category = "flush_five" if flush else "five_of_a_kind"
    elif shape == [4, 1]:
        category = "four_of_a_kind"
    elif shape == [3, 2]:
        category = "flush_house" if flush else "full_house"
    elif run is not None:
        category = "straight_flush" if flush else "straight"
    elif flush:
        category = "flush"
    elif shape == [3, 1, 1]:
        category = "three_of_a_kind"
    elif shape == [2, 2, 1]:
        category = "two_pair"
    elif shape == [2, 1, 1, 1]:
        category = "pair"
    else:
        category = "high_card"
    tiebreak: tuple[int, ...]
    if category in ("straight", "straight_flush"):
        tiebreak = (run,) if run is not None else ()
    elif category == "flush":
        tiebreak = tuple(sorted((order_of(r, ranking) for r in ranks), reverse=True))
    else:
        groups = sorted(counts, key=lambda r: (counts[r], order_of(r, ranking)), reverse=True)
        tiebreak = tuple(order_of(r, ranking) for r in groups)
    level = CATEGORIES.index(category)
    if ranking == HIGH:
        return category, (level, tiebreak)
    return category, (-level, tuple(-x for x in tiebreak))  # lowball: the lower, the better


def _multisets(options: Sequence[Plain], size: int) -> Iterator[tuple[Plain, ...]]:
    return itertools.combinations_with_replacement(options, size)


def _high_wild_plays(wilds: list[Wild]) -> Iterator[tuple[Plain, ...]]:
    """Every set of cards the wild cards may be played as: a joker any of the 52 cards, a knight
    any card of its suit (identical wild cards are interchangeable)."""
    kinds = Counter(wilds)
    choices = []
    for (_, suit), n in sorted(kinds.items(), key=lambda item: (item[0][1] is None, item[0][1])):
        options = [(r, s) for r in range(13) for s in range(4) if suit is None or s == suit]
        choices.append(list(_multisets(options, n)))
    for picked in itertools.product(*choices):
        yield tuple(card for group in picked for card in group)


def _low_wild_plays(
    naturals: list[Plain], wilds: list[Wild], ranking: str
) -> Iterator[tuple[Plain, ...]]:
    """At lowball each wild card is the lowest rank the naturals lack (the next lowest for the
    next wild card); only which wild takes which of those ranks and the jokers' suits are free."""
    lowest_first = [ACE, *range(12)] if ranking == LOW_A5 else list(range(13))
    held = {r for r, _ in naturals}
    missing = [r for r in lowest_first if r not in held][: len(wilds)]
    for ranks in set(itertools.permutations(missing)):
        suit_options = [range(4) if suit is None else [suit] for _, suit in wilds]
        for suits in itertools.product(*suit_options):
            yield tuple(zip(ranks, suits, strict=True))


@functools.cache
def value_of_five(five: tuple[Any, ...], ranking: str, wrap: bool, worst: bool) -> Value:
    """The value of five cards; wild cards at their best (their worst with ``worst``)."""
    naturals = [(r, s) for r, s in five if r is not None and s is not None]
    wilds: list[Wild] = [(None, s) for r, s in five if r is None]
    if ranking == HIGH:
        plays = _high_wild_plays(wilds)
    else:
        plays = _low_wild_plays(naturals, wilds, ranking)
    values = [
        value_of_natural(tuple(sorted(naturals + list(play))), ranking, wrap) for play in plays
    ]
    return (min if worst else max)(values, key=lambda v: v[1])


_SHAPES = {
    (4,): "four_of_a_kind",
    (3,): "three_of_a_kind",
    (3, 1): "three_of_a_kind",
    (2, 2): "two_pair",
}


def value_of_partial(cards: tuple[Any, ...], ranking: str, worst: bool) -> Value:
    """The value of fewer than five cards as they stand: the shape of their ranks only (no
    straight, no flush), then the ranks by group; a missing card counts below any card."""
    naturals = [(r, s) for r, s in cards if r is not None and s is not None]
    wilds: list[Wild] = [(None, s) for r, s in cards if r is None]
    if ranking == HIGH:
        plays = list(_high_wild_plays(wilds))
    else:
        plays = list(_low_wild_plays(naturals, wilds, ranking))
    values = []
    for play in plays:
        counts = Counter(r for r, _ in naturals + list(play))
        shape = tuple(sorted(counts.values(), reverse=True))
        category = _SHAPES.get(shape, "pair" if shape[:1] == (2,) else "high_card")
        groups = sorted(counts, key=lambda r: (counts[r], order_of(r, ranking)), reverse=True)
        tiebreak = tuple(order_of(r, ranking) for r in groups)
        level = CATEGORIES.index(category)
        if ranking == HIGH:
            values.append((category, (level, tiebreak)))
        else:
            values.append((category, (-level, tuple(-x for x in tiebreak))))
    return (min if worst else max)(values, key=lambda v: v[1])


def stood_value(
    hole: Sequence[Any],
    board: Sequence[Any],
    ranking: str = HIGH,
    wrap: bool = False,
    max_hole: int | None = None,
    worst: bool = False,
) -> Value:
    """A hand as it stood: ``best_value`` when five can be made, else every card it may use
    (all its hole cards up to ``max_hole``, and the board) as a partial hand."""
    used = len(hole) if max_hole is None else min(max_hole, len(hole))
    if used + len(board) >= 5:
        return best_value(hole, board, ranking, wrap, max_hole, worst)
    values = [
        value_of_partial(tuple(held) + tuple(board), ranking, worst)
        for held in itertools.combinations(hole, used)
    ]
    return (min if worst else max)(values, key=lambda v: v[1])


def best_value(
    hole: Sequence[Any],
    board: Sequence[Any],
    ranking: str = HIGH,
    wrap: bool = False,
    max_hole: int | None = None,
    worst: bool = False,
) -> Value:
    """The best (``worst``: the worst) five of hole + board, at most ``max_hole`` from the hole."""
    hole_sorted = tuple(sorted(hole, key=_sort_key))
    return _best(hole_sorted, tuple(board), ranking, wrap, max_hole, worst)


@functools.cache
def _best(
    hole: tuple[Any, ...],
    board: tuple[Any, ...],
    ranking: str,
    wrap: bool,
    max_hole: int | None,
    worst: bool,
) -> Value:
    values = []
    for used in range(0, len(hole) + 1):
        if (max_hole is not None and used > max_hole) or used > 5 or 5 - used > len(board):
            continue
        for held in itertools.combinations(hole, used):
            for shared in itertools.combinations(board, 5 - used):
                five = tuple(sorted(held + shared, key=_sort_key))
                values.append(value_of_five(five, ranking, wrap, worst))
    if not values:
        raise ValueError("fewer than five cards")
    return (min if worst else max)(values, key=lambda v: v[1])


def _sort_key(card: Any) -> tuple[int, int]:
    rank, suit = card
    return (-1 if rank is None else rank, -1 if suit is None else suit)


# -- Every variant's hands, from ``crack_house_rules.txt`` ---------------------------------------


class Rules(Protocol):
    ranking: str
    wrap: bool


def _ordered(values: list[Value]) -> list[Value]:
    return sorted(values, key=lambda v: v[1], reverse=True)


class Valuer(Protocol):
    def __call__(
        self,
        hole: Sequence[Any],
        board: Sequence[Any],
        ranking: str = HIGH,
        wrap: bool = False,
        max_hole: int | None = None,
        worst: bool = False,
    ) -> Value: ...


def _split_pairs(
    cards: Sequence[Any],
    rivers: Sequence[Sequence[Any]],
    ranking: str,
    wrap: bool,
    value: Valuer = best_value,
) -> list[Value]:
    """Four cards split in two pairs, each pair on a river, using at most its two cards: the
    strongest hand as strong as can be, then the other one."""
    found: list[list[Value]] = []
    for first in itertools.combinations(range(4), 2):
        one = [cards[i] for i in first]
        two = [cards[i] for i in range(4) if i not in first]
        for r1, r2 in itertools.permutations(range(len(rivers))) if len(rivers) == 2 else [(0, 0)]:
            found.append(
                _ordered(
                    [
                        value(one, rivers[r1], ranking, wrap, max_hole=2),
                        value(two, rivers[r2], ranking, wrap, max_hole=2),
                    ]
                )
            )
    return max(found, key=lambda pair: [v[1] for v in pair])


def _three_groups(
    cards: Sequence[Any],
    board: Sequence[Any],
    ranking: str,
    wrap: bool,
    value: Valuer = best_value,
) -> list[Value]:
    """Six cards in three groups (any sizes, empty too), each group with the river: the
    strongest as strong as can be, then the second, then the third."""
    found = []
    for labels in itertools.product(range(3), repeat=len(cards)):
        groups = [[c for c, lab in zip(cards, labels, strict=True) if lab == g] for g in range(3)]
        found.append(_ordered([value(g, board, ranking, wrap) for g in groups]))
    return max(found, key=lambda three: [v[1] for v in three])


def variant_hands(
    variant: str,
    players: Sequence[tuple[str, Sequence[Any]]],
    rivers: Sequence[Sequence[Any]],
    ranking: str = HIGH,
    wrap: bool = False,
    francois: Sequence[Any] = (),
    shared: Sequence[tuple[str, Sequence[Any]]] = (),
    stood: bool = False,
) -> dict[str, Value]:
    """Every hand that takes a token, by hand id (``Ana``, ``Ana/1``, ``Ana/high``,
    ``francois``, ``Ana+Bob``), as the variant forms it; with ``stood``, as the hands stood on
    the river(s) given (cut to a street's cards)."""
    value: Valuer = stood_value if stood else best_value
    hands: dict[str, Value] = {}
    board = rivers[0]
    for name, cards in players:
        if variant == "two-of-four":
            hands[name] = value(cards, board, ranking, wrap, max_hole=2)
        elif variant == "high-low":
            hands[f"{name}/high"] = value(cards, board, ranking, wrap, max_hole=2)
            hands[f"{name}/low"] = value(cards, board, ranking, wrap, max_hole=2, worst=True)
        elif variant == "four-two-hands":
            for i, v in enumerate(_split_pairs(cards, rivers, ranking, wrap, value), start=1):
                hands[f"{name}/{i}"] = v
        elif variant == "six-three-hands":
            for i, v in enumerate(_three_groups(cards, board, ranking, wrap, value), start=1):
                hands[f"{name}/{i}"] = v
        elif len(rivers) == 2:
            each = _ordered([value(cards, r, ranking, wrap) for r in rivers])
            for i, v in enumerate(each, start=1):
                hands[f"{name}/{i}"] = v
        else:
            hands[name] = value(cards, board, ranking, wrap)
    if francois:
        hands["francois"] = value(francois, board, ranking, wrap)
    for hand_id, cards in shared:
        hands[hand_id] = value(cards, board, ranking, wrap)
    return hands


def clear_caches() -> None:
    """Forget every value worked out so far: the caches only speed up the hands one check
    values again, and a long property run would keep millions of them."""
    for cached in (_value_of_ranks, value_of_five, _best):
        cached.cache_clear()
