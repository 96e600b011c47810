"""Cards as the app's fields hold them: a ``Card`` where a card was typed or read, and the text
a player typed where it is not one, kept as typed so that it is flagged where it sits.

>>> entries("10h zz *")
(Card(rank=<Rank.TEN: 8>, suit=<Suit.HEARTS: 1>), 'zz', Card(rank=None, suit=None))
>>> " ".join(entry_text(e) for e in entries("10h zz"))
'10h zz'
"""

from __future__ import annotations

import re

from companion.engine.cards import Card, Rank, parse_card
from companion.errors import CardParseError

__all__ = [
    "Entry",
    "entry",
    "entries",
    "entry_text",
    "card_face",
    "card_of",
]

Entry = Card | str  # a card, or typed text that is not one
_SEPARATORS = re.compile(r"[\s,;]+")


def entry(token: str) -> Entry:
    """One typed token: its card, or the token itself (trimmed) when it is not a card."""
    token = token.strip()
    try:
        return parse_card(token, "ui")
    except CardParseError:
        return token


def entries(text: str) -> tuple[Entry, ...]:
    """The tokens typed in one field, separated by spaces or commas."""
    return tuple(entry(token) for token in _SEPARATORS.split(text) if token)


def entry_text(value: Entry) -> str:
    """What a field shows for an entry: the card in the app's notation, the ten as ``10``
    as printed on the card (``10h``, ``Qs``, ``*``), or the text as typed. Typing accepts
    ``T`` too."""
    if not isinstance(value, Card):
        return value
    code = str(value)
    return "10" + code[1:] if value.rank == Rank.TEN else code


def card_face(value: Entry) -> str:
    """An entry as printed on the card, for chips and labels: ``10♥``, ``*♠``; text that is
    no card as typed.

    >>> card_face(entry("Th")), card_face(entry("*s")), card_face("zz")
    ('10♥', '*♠', 'zz')
    """
    if not isinstance(value, Card):
        return value
    return value.pretty()


def card_of(value: Entry) -> Card | None:
    return value if isinstance(value, Card) else None
