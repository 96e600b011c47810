"""A photo's reads as the Showdown screen keeps them: the photo, small, and each card's outline
with where that card lies in the table now (it follows the fixes, moves and removals).

Plain frozen values, no Flet and no vision: places are the screen's ints (the river, the hands
0..n-1, the cards not in play), given by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from companion.engine.cards import Card

if TYPE_CHECKING:  # types only: the app starts without the vision package
    from companion.vision.base.detections import Detections

__all__ = [
    "Spot",
    "ShownPhoto",
    "Point",
    "Quad",
    "small_width",
    "hull",
    "not_a_table",
    "SURE_SHARE",
    "PAPER_PAGE",
]

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


@dataclass(frozen=True)
class Spot:
    """One card the reader saw: its outline (4 corners, in the shown photo's pixels), what it
    read, whether it doubts the read, and where the card lies now ((place, index), None once
    taken off the table)."""

    quad: Quad
    read: Card
    check: bool
    at: tuple[int, int] | None

    @property
    def centre(self) -> Point:
        return (sum(p[0] for p in self.quad) / 4, sum(p[1] for p in self.quad) / 4)

    def contains(self, x: float, y: float) -> bool:
        """Whether (x, y) lies inside the outline (a convex quadrilateral, either winding)."""
        signs = []
        for (ax, ay), (bx, by) in zip(self.quad, self.quad[1:] + self.quad[:1], strict=True):
            signs.append((bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0)
        return all(signs) or not any(signs)


@dataclass(frozen=True)
class ShownPhoto:
    """The photo as shown (a small JPEG, ``width`` x ``height``), its cards' outlines, the
    outlines of the card faces seen where no card was read (``unread``, shown pixels), and the
    cards' width in the original photo's pixels when they are too small there to be read
    surely (``small``; None when they are not)."""

    image: bytes
    width: int
    height: int
    spots: tuple[Spot, ...]
    unread: tuple[Quad, ...] = ()
    small: int | None = None

    def spot_at(self, place: int, index: int) -> int | None:
        """The spot whose card lies at (place, index), if that card came from the photo."""
        return next((i for i, s in enumerate(self.spots) if s.at == (place, index)), None)

    def tapped(self, x: float, y: float) -> int | None:
        """The spot under (x, y) in the shown photo's pixels; the nearest centre among
        overlapping outlines (the card on top shows its index corner there)."""
        inside = [i for i, s in enumerate(self.spots) if s.contains(x, y)]
        if not inside:
            return None
        return min(
            inside,
            key=lambda i: (self.spots[i].centre[0] - x) ** 2 + (self.spots[i].centre[1] - y) ** 2,
        )

    def _moved(self, change: dict[tuple[int, int], tuple[int, int] | None]) -> ShownPhoto:
        spots = tuple(
            replace(s, at=change[s.at]) if s.at is not None and s.at in change else s
            for s in self.spots
        )
        return replace(self, spots=spots)

    def removed(self, place: int, index: int, size: int) -> ShownPhoto:
        """The card at (place, index) taken off a place of ``size`` cards: those after it
        move up one."""
        change: dict[tuple[int, int], tuple[int, int] | None] = {(place, index): None}
        change |= {(place, i): (place, i - 1) for i in range(index + 1, size)}
        return self._moved(change)

    def moved(self, place: int, index: int, size: int, to: int, to_size: int) -> ShownPhoto:
        """The card at (place, index) moved to the end of place ``to`` (``to_size`` cards)."""
        change: dict[tuple[int, int], tuple[int, int] | None] = {(place, index): (to, to_size)}
        change |= {(place, i): (place, i - 1) for i in range(index + 1, size)}
        return self._moved(change)

    def retyped(self, place: int, size: int) -> ShownPhoto:
        """A place's cards typed again, ``size`` of them: outlines past the end are let go."""
        gone = [s.at for s in self.spots if s.at and s.at[0] == place and s.at[1] >= size]
        change: dict[tuple[int, int], tuple[int, int] | None] = dict.fromkeys(gone)
        return self._moved(change)

    def renumbered(self, places: dict[int, int | None]) -> ShownPhoto:
        """Places given new numbers (a player sitting out, hands swapped); None: let go."""
        change: dict[tuple[int, int], tuple[int, int] | None] = {}
        for s in self.spots:
            if s.at is not None and s.at[0] in places:
                new = places[s.at[0]]
                change[s.at] = None if new is None else (new, s.at[1])
        return self._moved(change)

    def centres(self, place: int) -> Sequence[Point]:
        return [s.centre for s in self.spots if s.at is not None and s.at[0] == place]

    def outline(self, place: int) -> list[Point]:
        """The hull around every corner of a place's cards (not their centres: two or three
        centres make a line or a thin triangle across the hand)."""
        held = [s for s in self.spots if s.at is not None and s.at[0] == place]
        return hull([corner for s in held for corner in s.quad])


def _turn(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(points: Sequence[Point]) -> list[Point]:
    """The convex hull of ``points``, counter-clockwise in image axes, no point repeated."""
    ordered = sorted(set(points))
    if len(ordered) < 3:
        return ordered

    def half(chain: Sequence[Point]) -> list[Point]:
        kept: list[Point] = []
        for p in chain:
            while len(kept) >= 2 and _turn(kept[-2], kept[-1], p) <= 0:
                kept.pop()
            kept.append(p)
        return kept[:-1]

    return half(ordered) + half(ordered[::-1])


def small_width(read: Detections | None) -> int | None:
    """The read cards' width in the photo's pixels, where they are too small there to be read
    surely (the player should take the photo, or hold the webcam, closer); else None."""
    if read is None or not read.small_cards():
        return None
    width = read.card_width()
    return None if width is None else round(width)


# A photo whose reads are mostly doubted (under this share sure) on a frame mostly paper
# is a page, not a table: measured in docs/journal.md (#51).
SURE_SHARE = 0.5
PAPER_PAGE = 0.4


def not_a_table(read: Detections, paper: float) -> str | None:
    """Why a photo is not of a table, as the reader reports it (a message key), or None.

    ``paper``: the share of the frame as white as card paper (``vision.paper.paper_share``).
    A table's photo shows cards read surely, most of them, on a table: a fifth of the frame is
    paper at most. A screenshot of the app or a photo of a page is mostly paper, and its
    chips, text and small photos are read as cards the reader doubts: both must hold, so
    that a table read badly is still shown, its doubts listed. A photo with no card read and
    no card face seen holds no card at all; faces seen and none read (an odd deck) are shown
    for the players to type.
    """
    if len(read) == 0:
        return None if len(read.unread) else "photo.no_cards"
    sure = float(np.mean(~read.check))
    return "photo.not_a_table" if sure < SURE_SHARE and paper > PAPER_PAGE else None
