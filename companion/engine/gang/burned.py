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

from companion.engine.cards import Card
from companion.engine.gang.ranking import HandValue, partial_value
from companion.errors import TableCode, TableError

__all__ = ["DOG_CARDS", "value_dog"]

DOG_CARDS = 3  # the cards burned in a heist: one before the flop, the turn and the river


def value_dog(burned: tuple[Card, ...]) -> HandValue:
    """The value of the three burned cards (a partial hand); wild cards take their best rank."""
    if len(burned) != DOG_CARDS:
        raise TableError(TableCode.BURNED_SIZE, n=len(burned))
    return partial_value(burned)
