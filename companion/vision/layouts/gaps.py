"""Where the cards a told table lacks should lie: a ``Gap`` per place short of cards, with the
places (``CardPlace``) on the photo where a player should look for them.

A river short of a card leaves a gap in its row where two neighbours lie a card too far apart,
or lacks it at one end: each candidate place is its neighbour's outline moved along the row by
the river's own spacing. A hand short of a card has it over or beside its cards, as far from
them as the grouping lets a hand's cards lie. A place with no card read could be anywhere on
the photo: its gap has no place, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.vision.base.geometry import unit
from companion.vision.layouts.expect import Fit

__all__ = ["RIVER_REACH", "CardPlace", "Gap", "table_gaps"]

# A missing river card's centre lies within this many card widths of its place in the row: a
# card's centre drawn from one corner is up to 0.4 widths off (``gang.PAIR_LINK``).
RIVER_REACH = 0.5
# Neighbours along a river row this many steps apart (rounded) have that many cards less one
# between them; a step is the row's usual spacing, its gaps up to this many times the smallest.
USUAL_GAP = 1.5
# A river read as a lone card: its row runs across the card (cards laid side by side), about
# this many card widths a step.
LONE_STEP = 1.1

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


@dataclass(frozen=True, slots=True)
class CardPlace:
    """Where a missing card should lie, in image pixels: its centre within ``radius`` of
    (``x``, ``y``); ``quad``, the outline it would have there (from the top left of the card
    beside it, clockwise), when the cards beside it tell; else None."""

    x: float
    y: float
    radius: float
    quad: Quad | None = None


@dataclass(frozen=True, slots=True)
class Gap:
    """A place of a told table short of ``count`` cards: the river (``hand`` None) or the
    hand ``hand`` (its index in ``Fit.hands``, as in ``Grouping.hands``; a hand not found
    has an index past them), and the ``places`` where its cards should lie, likeliest first.
    No place: nothing of it was read, it could be anywhere on the photo."""

    hand: int | None
    count: int
    places: tuple[CardPlace, ...]


def table_gaps(
    missing: Fit,
    river: Sequence[int],
    hands: Sequence[Sequence[int]],
    quads: np.ndarray,
    width: float,
    hand_reach: float,
    frame: tuple[int, int] = (0, 0),
) -> tuple[Gap, ...]:
    """A ``Gap`` per place ``missing`` counts short: ``river`` (rows of ``quads``, (N, 4, 2)
    outlines, in the row's order) and ``hands`` (rows, in ``missing.hands`` order); ``width``,
    the cards' width in pixels; ``hand_reach``, how far apart (pixels) the centres of a hand's
    cards lie at most; ``frame``, the photo's (width, height), (0, 0) unknown."""
    centres = quads.mean(axis=1).astype(np.float64) if len(quads) else np.zeros((0, 2))
    gaps = []
    if missing.river:
        rows = list(river)
        places = _river_places(centres[rows], quads[rows], missing.river, width, frame)
        gaps.append(Gap(None, missing.river, places))
    for h, count in enumerate(missing.hands):
        if count:
            rows = list(hands[h]) if h < len(hands) else []
            gaps.append(Gap(h, count, _hand_places(centres[rows], hand_reach)))
    return tuple(gaps)


def _hand_places(centres: np.ndarray, reach: float) -> tuple[CardPlace, ...]:
    """Where a hand's missing cards lie: over or beside its cards (centres (K, 2)), their
    centres within ``reach`` pixels of one of them."""
    if not len(centres):
        return ()
    middle = centres.mean(axis=0)
    spread = float(np.max(np.linalg.norm(centres - middle, axis=1)))
    return (CardPlace(float(middle[0]), float(middle[1]), spread + reach),)


def _river_places(
    centres: np.ndarray, quads: np.ndarray, count: int, width: float, frame: tuple[int, int]
) -> tuple[CardPlace, ...]:
    """The places of a river row (centres (K, 2) and outlines in the row's order) where its
    ``count`` missing cards may lie: the gaps inside the row, widest first, then the row's
    ends (those on the photo first) for the cards the gaps do not hold."""
    if not len(centres):
        return ()
    if len(centres) == 1:
        direction = unit(quads[0][1] - quads[0][0])
        step = LONE_STEP * width
        spans = np.zeros(0)
    else:
        direction = unit(centres[-1] - centres[0])
        spans = np.linalg.norm(np.diff(centres, axis=0), axis=1)
        step = float(np.median(spans[spans <= USUAL_GAP * spans.min()]))
    inside = []
    for a in np.argsort(-spans, kind="stable").tolist():
        between = round(float(spans[a]) / max(step, 1e-9)) - 1
        for j in range(1, between + 1):
            shift = (centres[a + 1] - centres[a]) * j / (between + 1)
            inside.append(_place(quads[a], shift, width))
    ends: list[tuple[bool, int, CardPlace]] = []
    for j in range(1, count - len(inside) + 1):
        for row, sign in ((0, -1.0), (len(centres) - 1, 1.0)):
            place = _place(quads[row], sign * j * step * direction, width)
            ends.append((not _on_photo(place, frame), j, place))
    ends.sort(key=lambda end: (end[1], end[0]))
    return (*inside, *(place for _, _, place in ends))


def _place(quad: np.ndarray, shift: np.ndarray, width: float) -> CardPlace:
    """A river card's place: ``quad`` (its neighbour's outline) moved by ``shift``."""
    a, b, c, d = ((float(x), float(y)) for x, y in np.asarray(quad, np.float64) + shift)
    x, y = (a[0] + b[0] + c[0] + d[0]) / 4, (a[1] + b[1] + c[1] + d[1]) / 4
    return CardPlace(x, y, RIVER_REACH * width, (a, b, c, d))


def _on_photo(place: CardPlace, frame: tuple[int, int]) -> bool:
    w, h = frame
    return (w <= 0 or h <= 0) or (0 <= place.x <= w and 0 <= place.y <= h)
