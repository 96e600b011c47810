"""The colour of a corner's index ink: red, black, or neither (a four-colour deck's blue or
green, or too little ink to tell).

A suit read is contradicted by its own index when the ink is red and the suit black, or the
ink black and the suit red: the rank glyph and the suit pip beside it are printed in the suit's
colour on every two-colour deck, and four-colour decks only add blue and green. The crop is
white-balanced on its own paper first, so warm or cold light does not tint the ink.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from companion.vision.base import geometry

__all__ = ["Ink", "RED_SUITS", "contradicts", "ink_colours", "ink_reads", "ink_redness"]

RED_SUITS = frozenset("hd")
# The index (rank glyph and suit pip) lies within this many card widths of the corner's long
# edge on the rendered decks; past it, a court card's picture (red, blue, yellow) begins. The
# crop's first pixels lie on the table, just outside the card (a red cloth is no red ink).
INDEX_REACH = 0.17
INDEX_FROM = 0.035
# Relative to the paper (1.0): black ink is dark in every channel and nearly grey; red ink is
# dark in green and blue but keeps its red. A brown wood grain between the two is neither.
PAPER_LEVEL = 0.8
PAPER_SPREAD = 0.2
BLACK_LEVEL = 0.45
BLACK_SPREAD = 0.12
RED_LEVEL = 0.55
RED_DARK = 0.5
RED_MARGIN = 0.3
# One colour decides when it has this many times the other's pixels, and enough of them.
DOMINANCE = 3.0
MIN_INK = 12  # pixels
# The ink's redness: pixels darker than this in green and blue are ink, this many at least.
LEAN_DARK = 0.6
LEAN_INK = 6  # pixels


class Ink(IntEnum):
    UNKNOWN = 0  # neither clearly: blue or green ink, or too little of it
    RED = 1
    BLACK = 2


def _band(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The index band of corner crops, white-balanced on its own paper: its B, G, R relative
    to the paper (1.0), and which pixels lie on the card (paper on both sides along the row)."""
    n = len(crops)
    (x0, x1), (y0, y1) = geometry.CORNER
    first = round((INDEX_FROM - x0) / (x1 - x0) * geometry.CROP_W)
    top = round((INDEX_FROM - y0) / (y1 - y0) * geometry.CROP_H)
    cols = round((INDEX_REACH - x0) / (x1 - x0) * geometry.CROP_W)
    band = crops[:, top:, first:cols].astype(np.float32)
    # Channel by channel: numpy reduces a last axis of three slowly, and a frame has dozens of
    # reads to judge.
    b, g, r = band[..., 0], band[..., 1], band[..., 2]
    # White balance on the paper: the mean colour of the band's brightest 30 %.
    level = np.maximum(np.maximum(b, g), r).reshape(n, -1)
    cut = np.partition(level, int(0.7 * level.shape[1]), axis=1)[:, int(0.7 * level.shape[1])]
    bright = level >= cut[:, None]
    counts = np.maximum(np.count_nonzero(bright, axis=1), 1)
    b, g, r = (
        c / np.maximum((c.reshape(n, -1) * bright).sum(axis=1) / counts, 1.0)[:, None, None]
        for c in (b, g, r)
    )
    high, low = np.maximum(np.maximum(b, g), r), np.minimum(np.minimum(b, g), r)
    # Ink lies on the card: paper on both sides of it along its row. A table showing past a
    # misframed card's edge (black or red cloth, dark wood) has paper on one side only.
    on_paper = (high > PAPER_LEVEL) & (high - low < PAPER_SPREAD)
    inside = (
        np.maximum.accumulate(on_paper, axis=2)
        & np.maximum.accumulate(on_paper[:, :, ::-1], axis=2)[:, :, ::-1]
    )
    return b, g, r, inside


def ink_colours(crops: np.ndarray) -> np.ndarray:
    """(N,) ``Ink`` of the index ink in corner crops (N, H, W, 3) BGR (``geometry.CORNER``)."""
    return ink_reads(crops, lean=False)[0]


def ink_redness(crops: np.ndarray) -> np.ndarray:
    """(N,) how red the index ink of corner crops leans, NaN where too little ink shows: the
    median, over the band's pixels dark in green and blue, of red above the other two. Red ink
    leans far above 0 and black ink near 0, also where the clear-cut pixels ``ink_colours``
    counts are too few (a washed-out, small or soft index); a four-colour deck's blue leans
    below 0."""
    return ink_reads(crops)[1]


def ink_reads(crops: np.ndarray, lean: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``ink_colours`` and ``ink_redness`` of corner crops, their band balanced once; with
    ``lean`` False the redness is left NaN (not measured)."""
    n = len(crops)
    colours, redness = np.full(n, Ink.UNKNOWN, np.int8), np.full(n, np.nan)
    if n == 0:
        return colours, redness
    b, g, r, inside = _band(crops)
    high, low = np.maximum(np.maximum(b, g), r), np.minimum(np.minimum(b, g), r)
    spread = high - low
    black = np.count_nonzero(inside & (high < BLACK_LEVEL) & (spread < BLACK_SPREAD), axis=(1, 2))
    dark_gb = np.maximum(g, b)
    red = inside & (r > RED_LEVEL) & (dark_gb < RED_DARK) & (r - dark_gb > RED_MARGIN)
    red = np.count_nonzero(red, axis=(1, 2))
    colours[(red >= MIN_INK) & (red > DOMINANCE * black)] = Ink.RED
    colours[(black >= MIN_INK) & (black > DOMINANCE * red)] = Ink.BLACK
    if not lean:
        return colours, redness
    dark = inside & (np.minimum(g, b) < LEAN_DARK)
    leaning = r - dark_gb
    for i in np.flatnonzero(np.count_nonzero(dark, axis=(1, 2)) >= LEAN_INK).tolist():
        redness[i] = float(np.median(leaning[i][dark[i]]))
    return colours, redness


def contradicts(suit: str, ink: int) -> bool:
    """True when the ink's colour cannot print ``suit`` (red ink, black suit, or the reverse)."""
    if ink == Ink.RED:
        return suit not in RED_SUITS
    if ink == Ink.BLACK:
        return suit in RED_SUITS
    return False
