"""A cribbage show on a photo: the four hand cards side by side in a row, the starter apart from
the row (above or below it, a card width off its line or more, or past its end with a clear gap).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from companion.engine.cards import Card
from companion.errors import PhotoLayoutError
from companion.vision.layouts.places import SeenCard, card_width, listed, one_per_place, seen_cards

if TYPE_CHECKING:
    from companion.vision.base.detections import Detections

__all__ = ["ShowPhoto", "read_show", "read_row"]

# A row: every centre within this many card widths of the line fitted through the row.
ROW_RESIDUAL = 0.5
# The starter lies off the hand's row by this many card widths, or past its end by this many
# card widths or row gaps (whichever is wider), so that five cards in a row are refused.
STARTER_OFF_ROW = 1.0
STARTER_PAST_END = 1.5


@dataclass(frozen=True, slots=True)
class ShowPhoto:
    """A cribbage show read from a photo: the hand left to right, and the starter."""

    hand: tuple[SeenCard, ...]
    starter: SeenCard

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(seen.card for seen in self.hand)

    @property
    def seen(self) -> tuple[SeenCard, ...]:
        return (*self.hand, self.starter)


def _row_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, direction and normal of the line best fitting ``points`` (N, 2)."""
    mean = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - mean)
    return mean, vt[0], vt[1]


def _is_apart(points: np.ndarray, candidate: int, width: float) -> bool:
    """Whether the other cards form a row and ``candidate`` lies apart from it: off the row's
    line, or past its end by clearly more than the row's own gaps."""
    rest = np.delete(points, candidate, axis=0)
    mean, direction, normal = _row_line(rest)
    if np.abs((rest - mean) @ normal).max() > ROW_RESIDUAL * width:
        return False
    offset = points[candidate] - mean
    if abs(float(offset @ normal)) >= STARTER_OFF_ROW * width:
        return True
    along = (rest - mean) @ direction
    gap = float(np.abs(along - float(offset @ direction)).min())
    return gap >= STARTER_PAST_END * max(width, float(np.diff(np.sort(along)).max()))


def _five(detections: Detections, where: str) -> tuple[list[SeenCard], float]:
    """The photo's five cards (one per place) and their width; another count is refused."""
    width = card_width(detections)
    seen = one_per_place(seen_cards(detections), width)
    if len(seen) != 5:
        shown = listed(seen)
        raise PhotoLayoutError("photo.show_count", where=where, n=len(seen), cards=shown)
    return list(seen), width


def _along(cards: list[SeenCard]) -> tuple[SeenCard, ...]:
    """``cards`` left to right along their row (top to bottom for a row standing upright)."""
    _, direction, _ = _row_line(np.array([(s.x, s.y) for s in cards]))
    if abs(direction[0]) >= abs(direction[1]):
        direction = direction if direction[0] > 0 else -direction
    else:
        direction = direction if direction[1] > 0 else -direction
    return tuple(sorted(cards, key=lambda s: s.x * direction[0] + s.y * direction[1]))


def read_show(detections: Detections, where: str) -> ShowPhoto:
    """The hand (four cards in a row) and the starter (the card apart) of a cribbage photo."""
    seen, width = _five(detections, where)
    points = np.array([(s.x, s.y) for s in seen])
    apart = [i for i in range(5) if _is_apart(points, i, width)]
    if len(apart) != 1:
        shown = listed(seen)
        raise PhotoLayoutError("photo.show_starter", where=where, cards=shown)
    starter = apart[0]
    hand = _along([s for i, s in enumerate(seen) if i != starter])
    return ShowPhoto(hand, seen[starter])


def read_row(detections: Detections, where: str) -> tuple[SeenCard, ...]:
    """The five cards of a show photo in the order they lie, for the players to say which is
    the starter where no card lies apart (five in a row)."""
    seen, _ = _five(detections, where)
    return _along(seen)
