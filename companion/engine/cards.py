"""Cards as immutable values, and the one place where text becomes cards.

Ranks and suits are numbered so that a natural card's id is ``4 * rank + suit``
(ranks 2..A = 0..12, suits s h d c = 0..3), the layout ``evaluate_many`` reads.

>>> [str(card) for card in parse_cards("As 10d, q♥ *")]
['As', 'Td', 'Qh', '*']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeVar

from companion.errors import CardParseError, DuplicateCardError
from companion.messages import Phrase

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "DECK",
    "parse_card",
    "parse_cards",
    "format_cards",
    "check_duplicates",
    "duplicates",
    "Place",
    "TAROT_TRUMPS",
]

Place = Phrase | str  # where cards lie or were read: a phrase for players, or literal text
PlaceT = TypeVar("PlaceT", bound=Place)


class Rank(IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def symbol(self) -> str:
        return "23456789TJQKA"[self]


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "shdc"[self]

    @property
    def glyph(self) -> str:
        return "♠♥♦♣"[self]


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card; ``rank`` None means a wild card, bound to ``suit`` when that is set."""

    rank: Rank | None
    suit: Suit | None

    @property
    def is_wild(self) -> bool:
        return self.rank is None

    @property
    def id(self) -> int:
        """``4 * rank + suit`` for a natural card."""
        if self.rank is None or self.suit is None:
            raise ValueError(f"{self} is wild and has no card id")
        return 4 * int(self.rank) + int(self.suit)

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        return cls(Rank(card_id // 4), Suit(card_id % 4))

    def __str__(self) -> str:
        rank = "*" if self.rank is None else self.rank.symbol
        suit = "" if self.suit is None else self.suit.letter
        return rank + suit

    def pretty(self) -> str:
        """The card with a suit glyph, as players write it: ``A♠``, ``*♥``."""
        rank = "*" if self.rank is None else ("10" if self.rank == Rank.TEN else self.rank.symbol)
        suit = "" if self.suit is None else self.suit.glyph
        return rank + suit


DECK: tuple[Card, ...] = tuple(Card.from_id(i) for i in range(52))

_RANKS = {
    **{str(n): Rank(n - 2) for n in range(2, 10)},
    "T": Rank.TEN,
    "10": Rank.TEN,
    "J": Rank.JACK,
    "Q": Rank.QUEEN,
    "K": Rank.KING,
    "A": Rank.ACE,
    # French court letters: roi, dame, valet. None collides with a suit letter in rank position.
    "R": Rank.KING,
    "D": Rank.QUEEN,
    "V": Rank.JACK,
}
_SUITS = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_card(token: str, where: Place = "input") -> Card:
    """Read one card; ``where`` names the place for the error message.

    >>> str(parse_card("10h")), str(parse_card("*c")), str(parse_card("Rd"))
    ('Th', '*c', 'Kd')
    """
    text = token.strip().upper().replace("\ufe0f", "")
    if text == "*":
        return Card(None, None)
    if len(text) < 2:
        raise CardParseError(token, where)
    rank_text, suit_text = text[:-1], text[-1]
    suit = _SUITS.get(suit_text)
    if suit is None:
        raise CardParseError(token, where)
    if rank_text == "*":
        return Card(None, suit)
    rank = _RANKS.get(rank_text)
    if rank is None:
        raise CardParseError(token, where)
    return Card(rank, suit)


def parse_cards(text: str | Iterable[str], where: Place = "input") -> tuple[Card, ...]:
    """Read cards separated by spaces or commas, or a list of card tokens."""
    tokens = _SEPARATORS.split(text.strip()) if isinstance(text, str) else list(text)
    cards = []
    for token in tokens:
        if not isinstance(token, str):
            raise CardParseError(repr(token), where)
        if token.strip():
            cards.append(parse_card(token, where))
    return tuple(cards)


def format_cards(cards: Iterable[Card], pretty: bool = False) -> str:
    """Cards as text, space separated."""
    return " ".join(card.pretty() if pretty else str(card) for card in cards)


# The tarot's trumps, the excuse included: the jokers one deck holds (Crack, "Joker/Tarot").
TAROT_TRUMPS = 22


def duplicates(
    places: Mapping[PlaceT, Iterable[Card]], decks: int = 1
) -> tuple[DuplicateCardError, ...]:
    """One error per natural card or knight seen more than ``decks`` times, naming every place,
    and one when the jokers outnumber the ``decks`` tarot decks' trumps.

    A deck holds one of each natural card, one knight per suit (``*s``) and 22 jokers (``*``).
    """
    seen: dict[Card, list[PlaceT]] = {}
    for place, cards in places.items():
        for card in cards:
            seen.setdefault(card, []).append(place)
    return tuple(
        DuplicateCardError(card, tuple(where), decks, knight=card.is_wild)
        if card.suit is not None
        else DuplicateCardError(card, tuple(where), decks, joker=TAROT_TRUMPS * decks)
        for card, where in seen.items()
        if len(where) > (decks if card.suit is not None else TAROT_TRUMPS * decks)
    )


def check_duplicates(places: Mapping[PlaceT, Iterable[Card]], decks: int = 1) -> None:
    """Raise the first of ``duplicates(places, decks)``, if any."""
    found = duplicates(places, decks)
    if found:
        raise found[0]
