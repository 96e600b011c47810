"""Where a judged table's cards lay on its photo, as the heist keeps them (``CardOutline``)."""

from __future__ import annotations

from companion.engine.cards import Card
from companion.storage import CardOutline
from companion.ui.showdown.places import RIVER, RIVER2
from companion.ui.showdown.state import ShowdownState

__all__ = ["photo_outlines"]


def photo_outlines(table: ShowdownState) -> tuple[CardOutline, ...]:
    """Each card of the table that came from its photo: the card now at that place (a fix
    keeps the outline), whose it is, and its corners as fractions of the photo."""
    read = table.read
    if read is None or table.photo is None or read.width <= 0 or read.height <= 0:
        return ()
    found = []
    for spot in read.spots:
        if spot.at is None:
            continue
        place, index = spot.at
        if place in (RIVER, RIVER2):
            owner = CardOutline.RIVER if place == RIVER else CardOutline.RIVER2
        elif 0 <= place < len(table.players):
            owner = table.players[place]
        else:
            continue  # not in play (the cards set aside)
        cards = table.cards_at(place)
        card = cards[index] if index < len(cards) else None
        if not isinstance(card, Card):
            continue  # typed over with text that is no card: no card to outline
        corners = tuple((x / read.width, y / read.height) for x, y in spot.quad)
        found.append(CardOutline(str(card), owner, corners))
    return tuple(found)
