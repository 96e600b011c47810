"""Le chien: the three cards burned during a heist, valued as a three-card hand at the end.

Crack's rules: "À la fin de la manche, regarder les trois cartes brûlées et évaluer sa valeur en
tant que main à 3 cartes. Il est facilement prouvé que « le chien mog tout le monde »." Three
cards make a high card, a pair or three of a kind (straights and flushes need five), compared
as five-card hands are; a wild card takes its best rank. The dog beats everyone, by decree.

>>> from companion.engine.cards import parse_cards
>>> value_dog(parse_cards("Kh 7d Kc")).category.name
'PAIR'
"""

from __future__ import annotations

import itertools
from collections import Counter

from companion.engine.cards import Card, Rank, Suit
from companion.engine.gang.ranking import Category, HandValue, explained_value
from companion.errors import TableError

__all__ = ["DOG_CARDS", "value_dog"]

DOG_CARDS = 3  # the cards burned in a heist: one before the flop, the turn and the river

_CATEGORY = {3: Category.THREE_OF_A_KIND, 2: Category.PAIR, 1: Category.HIGH_CARD}


def _three_value(ranks: tuple[int, ...]) -> tuple[tuple[int, ...], Category, tuple[int, ...]]:
    counts = Counter(ranks)
    grouped = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    category = _CATEGORY[max(counts.values())]
    return (int(category), *grouped), category, grouped


def value_dog(burned: tuple[Card, ...]) -> HandValue:
    """The value of the three burned cards; wild cards take their best rank."""
    if len(burned) != DOG_CARDS:
        raise TableError("table.burned_size", n=len(burned))
    naturals = tuple(int(c.rank) for c in burned if c.rank is not None)
    wilds = len(burned) - len(naturals)
    best = max(
        (
            (_three_value(tuple(sorted(naturals + extra, reverse=True))), extra)
            for extra in itertools.combinations_with_replacement(range(13), wilds)
        ),
        key=lambda found: found[0][0],
    )
    value, extra = best
    wild_ranks = iter(extra)
    ranks = [int(c.rank) if c.rank is not None else next(wild_ranks) for c in burned]
    # A joker's suit changes nothing without flushes: it is shown as a spade.
    played = tuple(
        Card(Rank(r), Suit.SPADES if c.suit is None else c.suit)
        for r, c in zip(ranks, burned, strict=True)
    )
    return explained_value(value, burned, played)
