"""What a photo leaves in doubt, said before the verdict: cards too small in the photo to be
read surely, hands short of cards or over, a river not of five, cards not in play, reads the
reader doubts, card faces it saw and could not read. The verdict waits until each is fixed or
confirmed (``ShowdownState.confirm``); a place of the wrong size is never confirmed: it is
fixed, or (a hand) its player sits out. Duplicates in a one-deck game are the engine's problems
and hold it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.engine.cards import Card
from companion.messages import Phrase, phrase
from companion.ui.showdown.places import place_phrase
from companion.ui.showdown.state import RIVER, STRAY, ShowdownState

if TYPE_CHECKING:  # types only: the app starts without the vision package
    from companion.vision.layouts.expect import Expect

__all__ = [
    "CHECK",
    "Doubt",
    "doubts",
    "answered",
    "layout",
    "RIVER_CARDS",
]

RIVER_CARDS = 5
CHECK = "check:"  # the key of a doubtful read starts with it


@dataclass(frozen=True)
class Doubt:
    """One thing to look at: its key (what ``confirm`` takes), its words, the place it is
    about, whether one tap can confirm it, the player a tap seats out instead, whether the
    place is short (its row takes the missing card, typed), and the read it is about (its
    index in the photo's reads: where its evidence is).

    A hand or river a card short is never confirmed as it is: it is fixed (typed, or a card
    of the photo moved to it) or, for a hand, its player sits the heist out. Once a doubt is
    confirmed, the verdict shows ``told``: what was confirmed by eye rather than read.
    """

    key: str
    text: Phrase
    place: int | None = None
    confirmable: bool = True
    sits_out: str | None = None  # the player a tap seats out
    missing: bool = False
    spot: int | None = None
    told: Phrase | None = None

    def on_verdict(self) -> Phrase:
        """What the verdict says of this doubt once the players answered it."""
        return self.told or phrase("verdict.confirmed", what=self.text)


def _hand_doubts(table: ShowdownState) -> list[Doubt]:
    """Each hand not of the size the table deals: fixed, or its player sits out."""
    found: list[Doubt] = []
    for seat, (name, held) in enumerate(zip(table.players, table.hands, strict=True)):
        n, want = len(held), table.hand_size(seat)
        if n == want:
            continue
        words = (
            phrase("doubt.hand_none", name=name)
            if n == 0
            else phrase("doubt.hand_count", name=name, n=n, want=want)
        )
        found.append(Doubt(f"hand:{name}:{n}", words, seat, False, name, missing=n < want))
    return found


def _read_doubts(table: ShowdownState) -> list[Doubt]:
    read = table.read
    if read is None:
        return []
    found: list[Doubt] = []
    for i, spot in enumerate(read.spots):
        if not spot.check or spot.at is None or spot.at[0] == STRAY:
            continue
        place, index = spot.at
        if table.cards_at(place)[index] != spot.read:  # fixed already
            continue
        where = place_phrase(place, table.players)
        text = phrase("doubt.check", card=spot.read, place=where)
        told = phrase("verdict.confirmed_read", card=spot.read, place=where)
        owner = table.players[place] if place >= 0 else None
        key = f"{CHECK}{i}:{spot.read}"
        found.append(Doubt(key, text, place, sits_out=owner, spot=i, told=told))
    return found


def _unread_doubts(table: ShowdownState) -> list[Doubt]:
    """The card faces the reader saw and could not read, less one for each card added to the
    table since (typed or added by hand, not taken from the photo): no count may point at a
    face (the hands and the river can be full with a card short elsewhere), so each is said
    on its own until its card is added or it is confirmed."""
    read = table.read
    if read is None or not read.unread:
        return []
    in_play = sum(len(table.cards_at(place)) for place in table.places())
    from_photo = sum(1 for s in read.spots if s.at is not None and s.at[0] != STRAY)
    added = max(0, in_play - from_photo)
    return [
        Doubt(f"unread:{n}", phrase("doubt.unread", n=n))
        for n in range(added + 1, len(read.unread) + 1)
    ]


def _found(table: ShowdownState) -> tuple[Doubt, ...]:
    """Everything a photo's table leaves in doubt, confirmed or not."""
    read = table.read
    if read is None:
        return ()
    found: list[Doubt] = []
    if table.seating:  # answered by keeping the seats: no hand's owner is taken unasked
        found.append(Doubt("seats", phrase("doubt.seats"), confirmable=False))
    if read.small is not None:
        # First: retaking the photo closer fixes most of the lines below at once.
        found.append(Doubt("small", phrase("doubt.small", px=read.small)))
    n = len(table.river)
    if n != RIVER_CARDS:
        words = phrase("doubt.river_count", n=n)
        found.append(Doubt(f"river:{n}", words, RIVER, False, missing=n < RIVER_CARDS))
    found += _hand_doubts(table)
    found += [
        Doubt(f"stray:{card}", phrase("doubt.stray", card=card), STRAY, spot=read.spot_at(STRAY, k))
        for k, card in enumerate(table.stray)
        if isinstance(card, Card)
    ]
    found += _read_doubts(table)
    found += _unread_doubts(table)
    return tuple(found)


def doubts(table: ShowdownState) -> tuple[Doubt, ...]:
    """What is still to fix or confirm on a photo's table (nothing for a typed one)."""
    return tuple(d for d in _found(table) if not d.confirmable or d.key not in table.confirmed)


def answered(table: ShowdownState) -> tuple[Doubt, ...]:
    """The doubts the players confirmed rather than fixed: what the verdict stands on besides
    the reader's own reads (a doubt no tap may confirm is never among them)."""
    return tuple(d for d in _found(table) if d.confirmable and d.key in table.confirmed)


def layout(table: ShowdownState, players: int) -> Expect | None:
    """What the reader should find for this table's variant with ``players`` hands, or None
    where a layout cannot say it (two rivers, shared hands, François's cards)."""
    deals = table.deals
    if table.two_rivers or deals.shared_cards or deals.francois_card or not players:
        return None
    from companion.vision.layouts.expect import MAX_EXPECTED_HANDS, Expect

    want = deals.hole_count(players, False)
    per_hand = table.dealt.each if want is None else want
    return Expect(RIVER_CARDS, min(players, MAX_EXPECTED_HANDS), per_hand)
