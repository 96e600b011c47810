"""Coloured and dim light: such a frame is balanced before anything is read.

The readers learned from tables lit in mildly warm or cold light (a channel at most about 1.7
times another on the cards' paper). Under a red party bulb or a blue screen glow the paper is
two to four times redder than it is blue: the index crops show ink and paper in colours the
readers never saw, and on the shared dev photos turned that red almost no card was read. A
white-patch balance (the gain that makes the brightest pixels grey: cards are the whitest
things on a table) gives such a frame its daylight colours back. A dim room's frame, whose
paper is a quarter as bright as in daylight, is lifted likewise: its indices lie within a few
grey levels of their paper. Frames in ordinary light are read as they are: balanced, the
held-out rendered tables lost cards.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.base.paper import brightest

__all__ = ["CAST_LIMIT", "DIM", "DIM_TARGET", "MOST_GAIN", "balanced"]

# A frame whose white gain spreads further than this (largest channel gain over smallest) is
# balanced: a coloured light, while nearly every frame in ordinary light is read as it is.
CAST_LIMIT = 1.5
# A frame whose brightest pixels (its cards' paper) are darker than this is lifted until they
# reach DIM_TARGET: a dim room's webcam frame, darker than any photo the readers read well.
DIM = 100.0
DIM_TARGET = 200.0
# The most a channel is amplified: under a deep red light the blue of the paper is a third of
# its red; past four times, the amplified noise and JPEG blocks are read as ink.
MOST_GAIN = 4.0


def balanced(image: np.ndarray) -> np.ndarray:
    """``image`` (BGR, uint8) white-balanced on its brightest pixels when its light is
    coloured past ``CAST_LIMIT``, and lifted when they are darker than ``DIM``; else
    ``image`` itself."""
    bright = np.maximum(brightest(image), 1.0)
    top = float(bright.max())
    target = DIM_TARGET if top < DIM else top
    gain = np.clip(target / bright, 1.0, MOST_GAIN)
    if top >= DIM and float(gain.max() / gain.min()) < CAST_LIMIT:
        return image
    # Saturating per-channel gain on uint8: the brightest pixels were the ones made grey.
    return np.asarray(cv2.transform(image, np.diag(gain.astype(np.float64))))
