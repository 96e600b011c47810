"""Cards as the app's fields hold them: the text a player typed, normalised when it is a card.

A mistyped card is kept as typed, so that it is flagged where it sits instead of dropped.
"""

from __future__ import annotations

import re

from companion.engine.cards import parse_card
from companion.errors import CardParseError

__all__ = [
    "plain",
    "normalise_card",
    "split_cards",
    "is_card",
]


def normalise_card(token: str) -> str:
    """``"10h"`` -> ``"Th"``; text that is not a card comes back trimmed, to be flagged."""
    token = token.strip()
    try:
        return str(parse_card(token, "ui"))
    except CardParseError:
        return token

def split_cards(text: str) -> tuple[str, ...]:
    """Cards typed in one field, separated by spaces or commas."""
    return tuple(normalise_card(tok) for tok in re.split(r"[\s,;]+", text) if tok)

def is_card(token: str) -> bool:
    try:
        parse_card(token, "ui")
    except CardParseError:
        return False
    return True


_PLAIN = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c", "→": "->"})


def plain(text: str) -> str:
    """Text the web font can draw: ``8♦ → pile 1`` -> ``8d -> pile 1``."""
    return text.translate(_PLAIN)
