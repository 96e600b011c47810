"""The spot model's training targets (``spot_train``), made with numpy alone: the index
corners of a rendered frame (``outline_data.index_corners``: point, edge vector, width) as a
heat map with the vector and the log width beside it, on crops turned a quarter at random.
"""

from __future__ import annotations

import numpy as np

from companion.vision.proposals.spots import WIDTH_UNIT

__all__ = ["SIGMA", "crop_with_corners", "targets", "turned"]

SIGMA = 1.5  # the heat map's peaks, in pixels of the shrunk frame


def turned(points: np.ndarray, width: int) -> np.ndarray:
    """``points`` (N,5) of a frame ``width`` wide as they lie after ``np.rot90`` once."""
    x, y, ux, uy, w = points.T
    return np.stack([y, width - 1 - x, uy, -ux, w], axis=1)


def crop_with_corners(
    image: np.ndarray, points: np.ndarray, rng: np.random.Generator, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """A random ``size`` square of the frame (padded with its edge where smaller), turned a
    random number of quarters, and the index corners inside it."""
    h, w = image.shape[:2]
    ph, pw = max(0, size - h), max(0, size - w)
    if ph or pw:
        image = np.pad(image, ((0, ph), (0, pw), (0, 0)), mode="edge")
        h, w = image.shape[:2]
    y, x = int(rng.integers(h - size + 1)), int(rng.integers(w - size + 1))
    image = image[y : y + size, x : x + size]
    points = points - np.array([x, y, 0, 0, 0], np.float32)
    for _ in range(int(rng.integers(4))):
        image, points = np.rot90(image), turned(points, size)
    return np.ascontiguousarray(image), points


def targets(points: np.ndarray, size: int) -> np.ndarray:
    """4 x size x size: the heat (a Gaussian of ``SIGMA`` at each corner, the nearest pixel
    exactly 1), the edge vector and the log width at each corner's pixels."""
    out = np.zeros((4, size, size), np.float32)
    reach = int(np.ceil(4 * SIGMA))
    for x, y, ux, uy, w in points.tolist():
        xi, yi = round(x), round(y)
        x0, x1 = max(0, xi - reach), min(size, xi + reach + 1)
        y0, y1 = max(0, yi - reach), min(size, yi + reach + 1)
        if x0 >= x1 or y0 >= y1:
            continue
        gx = np.arange(x0, x1, dtype=np.float32) - x
        gy = np.arange(y0, y1, dtype=np.float32) - y
        heat = np.exp(-(gx[None, :] ** 2 + gy[:, None] ** 2) / (2 * SIGMA**2))
        if 0 <= xi < size and 0 <= yi < size:
            heat[yi - y0, xi - x0] = 1.0
        window = out[:, y0:y1, x0:x1]
        mine = heat > window[0]
        window[0] = np.maximum(window[0], heat)
        window[1][mine], window[2][mine] = ux, uy
        window[3][mine] = np.log(max(w, 1.0) / WIDTH_UNIT)
    return out
