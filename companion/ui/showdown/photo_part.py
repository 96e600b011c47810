"""The Showdown screen's second part: the photo, its reads and the seats.

On the table's part (``table_part.TablePart``): the photo kept, each card's outline following
the cards' fixes (``ShownPhoto``), the doubts confirmed, who sits where and who sits out, and the
table a photo replaced (one tap brings it back). Plain frozen values, no Flet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Self, cast

from companion.engine.cards import Card
from companion.ui.kit.photo.read import ShownPhoto
from companion.ui.kit.photo.seats import angle, mean_point, turned_seats
from companion.ui.kit.text import t
from companion.ui.showdown.places import RIVER
from companion.ui.showdown.table_part import MAX_PLAYERS, TablePart

__all__ = ["PhotoPart"]


@dataclass(frozen=True)
class PhotoPart(TablePart):
    """The photo and what was read on it, the doubts answered, the seats."""

    photo: str | None = None  # the stored photo's reference
    read: ShownPhoto | None = None  # the photo's outlines, following the cards' fixes
    confirmed: frozenset[str] = frozenset()  # the doubts (``doubts.Doubt.key``) confirmed
    out: tuple[str, ...] = ()  # the night's players sitting this heist out
    seats_order: tuple[str, ...] = ()  # everyone in seat order, kept while some sit out
    seating: bool = False  # the question "which hand is whose" is open
    seat_hand: int = 0  # the hand that question is about (tapped on the photo)
    seats_named: bool = False  # a name was given: the next ones swap two hands
    on_photo: bool = False  # the picked card was tapped on the photo (its fixes show there)
    zoom: bool = False  # the photo takes pinch and wheel (else the wheel scrolls the page)
    # The table a photo's reading replaced, kept so that one tap brings it back: a table fixed
    # by hand is never lost to another upload. None once it had no card or after saving.
    before: PhotoPart | None = None

    # -- a photo in, a photo undone -------------------------------------------------------

    def with_read(
        self,
        river: Sequence[Card],
        hands: Sequence[Sequence[Card]],
        photo: str | None,
        lang: str,
        *,
        players: Sequence[str] | None = None,
        stray: Sequence[Card] = (),
        read: ShownPhoto | None = None,
        seating: bool = False,
    ) -> Self:
        """A photo's reading: the river, then hands given to ``players`` (the table's own when
        None) in that order, and the cards not in play; the setup and the burned cards (never
        on a photo) are kept.

        More hands than players adds players; the table then gets checked and fixed by hand.
        """
        names = list(players if players is not None else self.everyone())
        while len(names) < min(len(hands), MAX_PLAYERS):
            names.append(t("player_default", lang, n=len(names) + 1))
        return type(self)(
            players=tuple(names),
            river=tuple(river),
            hands=tuple(tuple(h) for h in hands[:MAX_PLAYERS]),
            variant=self.variant,
            rules=self.rules,
            two_rivers=self.two_rivers,
            burned=self.burned,
            dealt=self.dealt,
            stray=tuple(stray),
            edition=self.edition,
            photo=photo,
            read=read,
            seating=seating,
            before=self.kept(),
        )

    def cleared(self) -> Self:
        """The same players (those sitting out back in) and rules, an empty table."""
        return type(self)(
            self.everyone(),
            variant=self.variant,
            rules=self.rules,
            two_rivers=self.two_rivers,
            dealt=self.dealt,
            edition=self.edition + 1,
        )

    def kept(self) -> PhotoPart | None:
        """This table as a new photo's ``before``: None when it holds no card to lose."""
        has_cards = any(self.cards_at(place) for place in self.places()) or bool(self.stray)
        return replace(self, before=None, selected=None, on_photo=False) if has_cards else None

    def back_before_photo(self) -> Self:
        """The table the last photo replaced, as it was (or this one when there is none)."""
        if self.before is None:
            return self
        # ``before`` is always a table of this type: ``kept`` made it.
        return cast(Self, replace(self.before, edition=self.edition + 1))

    def photos(self) -> frozenset[str]:
        """The stored photos this table keeps: its own and the one its ``before`` holds."""
        kept = {self.photo, self.before.photo if self.before is not None else None}
        return frozenset(ref for ref in kept if ref is not None)

    # -- the outlines follow the cards ----------------------------------------------------

    def with_cards_text(self, place: int, text: str) -> Self:
        changed = super().with_cards_text(place, text)
        if changed is self or self.read is None:
            return changed
        return replace(changed, read=self.read.retyped(place, len(changed.cards_at(place))))

    def remove_selected(self) -> Self:
        if self.selected is None or self.read is None:
            return super().remove_selected()
        place, index = self.selected
        read = self.read.removed(place, index, len(self.cards_at(place)))
        return replace(super().remove_selected(), read=read)

    def move_selected(self, to: int) -> Self:
        moved = super().move_selected(to)
        if moved is self or self.read is None or self.selected is None:
            return moved
        place, index = self.selected
        size, to_size = len(self.cards_at(place)), len(self.cards_at(to))
        return replace(moved, read=self.read.moved(place, index, size, to, to_size))

    def select(self, place: int, index: int) -> Self:
        return replace(super().select(place, index), on_photo=False)

    def select_spot(self, spot: int) -> Self:
        """Pick the card a tap on the photo landed on (nothing, if it was taken off)."""
        if self.read is None or not 0 <= spot < len(self.read.spots):
            return self
        at = self.read.spots[spot].at
        if at is None:
            return self
        if self.seating and at[0] >= 0:  # while seats are asked, a tap picks a hand
            return replace(self, seat_hand=at[0], selected=None, on_photo=False)
        return replace(self.select(*at), on_photo=True)

    def with_zoom(self, on: bool) -> Self:
        return replace(self, zoom=on)

    def confirm(self, *keys: str) -> Self:
        """Doubts the players looked at and found right: they no longer hold the verdict."""
        return replace(self, confirmed=self.confirmed | set(keys))

    # -- the seats ------------------------------------------------------------------------

    def with_seating(self, on: bool) -> Self:
        return replace(self, seating=on, seats_named=False)

    def asked_hand(self) -> int | None:
        """The hand the seat question is about: the one tapped, else the first with cards."""
        if 0 <= self.seat_hand < len(self.hands) and self.hands[self.seat_hand]:
            return self.seat_hand
        return next((i for i, held in enumerate(self.hands) if held), None)

    def hand_angles(self) -> dict[int, float]:
        """Each hand's angle on the photo around the river's centre, by place (hands with no
        card from the photo left out)."""
        if self.read is None:
            return {}
        middle = self.read.centres(RIVER) or [s.centre for s in self.read.spots]
        if not middle:
            return {}
        centre = mean_point(middle)
        return {
            place: angle(centre, mean_point(self.read.centres(place)))
            for place in range(len(self.players))
            if self.read.centres(place)
        }

    def give_hand(self, place: int, name: str) -> Self:
        """The hand at ``place`` is ``name``'s: it swaps with the one ``name`` had."""
        if name not in self.players or not 0 <= place < len(self.players):
            return self
        other = self.players.index(name)
        if other == place:
            return self
        hands = list(self.hands)
        hands[place], hands[other] = hands[other], hands[place]
        read = self.read.renumbered({place: other, other: place}) if self.read else None
        return replace(self, hands=tuple(hands), read=read, selected=None)._new_hands()

    def name_hand(self, place: int, name: str, clockwise: Sequence[str]) -> Self:
        """``name`` says the hand at ``place`` is theirs. The first answer seats everyone: the
        other hands follow clockwise on the photo in ``clockwise`` (the players' seat order);
        a later one swaps two hands, so that an answer never undoes another."""
        if name not in self.players:
            return self
        angles = self.hand_angles()
        typed_only = any(held and i not in angles for i, held in enumerate(self.hands))
        if self.seats_named or typed_only:
            named = self.give_hand(place, name)
        else:
            owners = turned_seats(angles, place, name, [n for n in clockwise if n in self.players])
            named = self._seated({self.players.index(n): p for p, n in owners.items()})
        return replace(named, seats_named=True, seat_hand=self.players.index(name))

    def _seated(self, taken: dict[int, int]) -> Self:
        """Each player (by seat) takes the hand at the place ``taken`` gives; the others none."""
        hands = tuple(self.hands[taken[i]] if i in taken else () for i in range(len(self.players)))
        places: dict[int, int | None] = {p: None for p in range(len(self.players))}
        places |= {old: new for new, old in taken.items()}
        read = self.read.renumbered(places) if self.read is not None else None
        return replace(self, hands=hands, read=read, selected=None)._new_hands()

    def everyone(self) -> tuple[str, ...]:
        """The table's players with those sitting out, in seat order."""
        everyone = self.players + self.out
        kept = self.seats_order
        return kept if sorted(kept) == sorted(everyone) else everyone

    def sit_out(self, name: str) -> Self:
        """``name`` sits this heist out: absent from the table (their cards, if any, go)."""
        if name not in self.players:
            return self
        seat = self.players.index(name)
        keep = [i for i in range(len(self.players)) if i != seat]
        places: dict[int, int | None] = {i: keep.index(i) for i in keep} | {seat: None}
        read = self.read.renumbered(places) if self.read is not None else None
        return replace(
            self,
            players=tuple(self.players[i] for i in keep),
            hands=tuple(self.hands[i] for i in keep),
            francois=tuple(self.francois[i] for i in keep),
            shared=(),
            out=self.out + (name,),
            seats_order=self.everyone(),
            read=read,
            selected=None,
        )._new_hands()

    def back_in(self, name: str) -> Self:
        """``name`` plays this heist after all: back in their seat, with no cards yet."""
        if name not in self.out:
            return self
        players = tuple(n for n in self.everyone() if n in self.players or n == name)
        old = {n: i for i, n in enumerate(self.players)}
        places: dict[int, int | None] = {old[n]: i for i, n in enumerate(players) if n in old}
        read = self.read.renumbered(places) if self.read is not None else None
        return replace(
            self,
            players=players,
            hands=tuple(self.hands[old[n]] if n in old else () for n in players),
            francois=tuple(self.francois[old[n]] if n in old else None for n in players),
            shared=(),
            out=tuple(n for n in self.out if n != name),
            read=read,
            selected=None,
        )._new_hands()

    def seat_of(self, place: int) -> int:
        """A hand's seat among everyone, those sitting out included: what stays the same for
        a player when another sits out (their colour on the photo, say)."""
        everyone = self.everyone()
        name = self.players[place]
        return everyone.index(name) if name in everyone else place
