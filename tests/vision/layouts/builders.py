"""Made-up photos for the layout tests: detections of upright cards at chosen centres."""

from __future__ import annotations

import math

import numpy as np

from companion.vision import Detections
from tests.helpers import cards

WIDTH = 100.0  # card width in these made-up photos, pixels


def reads(
    *placed: tuple[str, float, float],
    turn: float = 0.0,
    scale: float = 1.0,
    shift: tuple[float, float] = (0.0, 0.0),
    conf: float = 0.9,
) -> Detections:
    """Detections of upright cards centred at (x, y), the whole photo turned/scaled/shifted."""
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    corners = np.array([[-0.5, -0.7], [0.5, -0.7], [0.5, 0.7], [-0.5, 0.7]]) * WIDTH
    quads = []
    for _, x, y in placed:
        quad = (corners + [x, y]) @ rot.T * scale + shift
        quads.append(quad)
    quads_a = np.array(quads).reshape(-1, 4, 2)
    boxes = np.concatenate([quads_a.min(axis=1), quads_a.max(axis=1)], axis=1)
    seen = cards(" ".join(code for code, _, _ in placed))
    return Detections(seen, np.full(len(seen), conf), boxes, quads_a)


# A hand in a row at y=500, 120 px apart; the starter above it, on the deck.
ROW = [("4c", 100, 500), ("5d", 220, 500), ("6h", 340, 500), ("Kc", 460, 500)]
ABOVE = ("5s", 280, 250)


def spit_layout(
    top: str, middle: str, bottom: str, dy: float = 250
) -> list[tuple[str, float, float]]:
    """Rows of cards (``-`` leaves a space), 130 px apart, centred on x=400, y=400."""
    placed = []
    for row, text in zip((-1, 0, 1), (top, middle, bottom), strict=True):
        tokens = text.split()
        for k, token in enumerate(tokens):
            if token != "-":
                placed.append((token, 400 + (k - (len(tokens) - 1) / 2) * 130, 400 + row * dy))
    return placed
