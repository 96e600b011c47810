"""The enumeration ``ranking`` used before #17, kept as the test oracle of the wild-card search:
every rank of every wild card tried, every five of hole + board valued. Exact and slow."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from companion.engine.cards import Card, Rank, Suit
from companion.engine.gang.ranking import Ranking, TableRules, _natural_value, five_card_sets


def _lowest_missing(five: tuple[Card, ...], rules: TableRules) -> list[Rank]:
    """At lowball the wild cards are the lowest ranks the five's natural cards lack."""
    order = [Rank.ACE, *list(Rank)[:12]] if rules.ranking is Ranking.LOW_A5 else list(Rank)
    held = {c.rank for c in five}
    return [r for r in order if r not in held][: sum(c.is_wild for c in five)]


def _wild_choices(five: tuple[Card, ...], rules: TableRules) -> Iterator[tuple[Card, ...]]:
    free = [i for i, c in enumerate(five) if c.is_wild and c.suit is None]
    bound = [i for i, c in enumerate(five) if c.is_wild and c.suit is not None]
    fixed_suits = {c.suit for c in five if c.suit is not None}
    suit = next(iter(fixed_suits)) if len(fixed_suits) == 1 else Suit.SPADES
    other = Suit.HEARTS if suit is Suit.SPADES else Suit.SPADES
    suit_patterns = [(suit,) * len(free)]
    if free and len(fixed_suits) <= 1:
        suit_patterns.append((other,) + (suit,) * (len(free) - 1))
    if rules.ranking is not Ranking.HIGH:
        missing = _lowest_missing(five, rules)
        rank_splits = [
            (tuple(p[: len(bound)]), tuple(p[len(bound) :]))
            for p in itertools.permutations(missing)
        ]
    else:
        rank_splits = [
            (b, f)
            for b in itertools.product(Rank, repeat=len(bound))
            for f in itertools.combinations_with_replacement(Rank, len(free))
        ]
    for bound_ranks, free_ranks in rank_splits:
        for suits in suit_patterns:
            played = list(five)
            for i, rank in zip(bound, bound_ranks, strict=True):
                played[i] = Card(rank, five[i].suit)
            for i, rank, free_suit in zip(free, free_ranks, suits, strict=True):
                played[i] = Card(rank, free_suit)
            yield tuple(played)


def oracle_five(five: tuple[Card, ...], rules: TableRules, worst: bool = False) -> tuple[int, ...]:
    """The strength of five cards, wild cards tried at every value."""
    pick = min if worst else max
    return pick(_natural_value(choice, rules)[0] for choice in _wild_choices(five, rules))


def oracle_best(
    hole: tuple[Card, ...],
    board: tuple[Card, ...],
    rules: TableRules,
    max_hole: int | None = None,
    worst: bool = False,
) -> tuple[int, ...]:
    """The strength of the best (or worst) five, every five valued."""
    pick = min if worst else max
    return pick(oracle_five(f, rules, worst) for f in five_card_sets(hole, board, max_hole))
