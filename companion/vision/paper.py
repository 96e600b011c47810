"""How white a crop's card paper is, under the frame's own light: a test cheaper than a model.

Cards are the whitest things on a table. After a white-patch balance of the frame (the gain that
makes its brightest pixels grey), paper is bright and grey, a light wooden table bright but
coloured: ``whiteness`` = darkest channel - half the channel spread, as ``proposals`` finds card
outlines with.
"""

from __future__ import annotations

import numpy as np

__all__ = ["crop_whiteness", "white_gain"]


def white_gain(image: np.ndarray) -> np.ndarray:
    """The per-channel gain (1..2.5) that makes the brightest pixels of ``image`` (BGR) grey."""
    sample = image[::8, ::8].reshape(-1, 3)
    bright = np.percentile(sample, 99.5, axis=0)
    return np.asarray(np.clip(bright.max() / np.maximum(bright, 1.0), 1.0, 2.5))


def crop_whiteness(crops: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """Median whiteness (0..255) of the brighter 40 % of each crop's pixels (its paper, if a
    card), after ``gain``. ``crops`` is (N, H, W, 3) BGR."""
    n = len(crops)
    if n == 0:
        return np.zeros(0)
    pixels = np.minimum(crops.reshape(n, -1, 3).astype(np.float32) * gain.astype(np.float32), 255)
    lo, hi = pixels.min(axis=2), pixels.max(axis=2)
    white = np.clip(1.5 * lo - 0.5 * hi, 0, 255)
    bright = hi >= np.percentile(hi, 60, axis=1)[:, None]
    return np.asarray(np.nanmedian(np.where(bright, white, np.nan), axis=1))
