"""Where cards lie on the Showdown screen: the river(s), the hands (0..n-1), the stray cards."""

from __future__ import annotations

from collections.abc import Sequence

from companion.messages import Phrase, phrase

__all__ = ["RIVER", "RIVER2", "STRAY", "place_phrase"]

RIVER = -1  # the river's place; hands are places 0..n-1, in seating order
RIVER2 = -2  # the second river, when the table plays two
STRAY = -3  # cards a photo showed that are not in play (not part of the table)


def place_phrase(place: int, players: Sequence[str]) -> Phrase:
    """A river or a hand as messages name it ("the river", "Ana's hand")."""
    if place == RIVER:
        return phrase("place.river")
    if place == RIVER2:
        return phrase("place.river2")
    return phrase("place.hand", name=players[place])
