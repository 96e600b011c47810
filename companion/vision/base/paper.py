"""How white a crop's card paper is, under the frame's own light: a test cheaper than a model.

Cards are the whitest things on a table. After a white-patch balance of the frame (the gain that
makes its brightest pixels grey), paper is bright and grey, a light wooden table bright but
coloured: ``whiteness`` = darkest channel - half the channel spread, as ``proposals`` finds card
outlines with.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = [
    "PAPER_OF_TOP",
    "brightest",
    "crop_whiteness",
    "paper_saturation",
    "paper_saturations",
    "paper_share",
    "white_gain",
]

PAPER_OF_TOP = 0.85  # a pixel this white, of the frame's card white, is paper
_SHARE_SIDE = 400  # pixels along the long side: the share of a frame needs no more


def brightest(image: np.ndarray) -> np.ndarray:
    """(3,) the level of each channel (BGR) that 0.5 % of ``image``'s pixels pass: on a table,
    the cards' paper."""
    # About 250 samples along the long side: a percentile over every pixel of a large photo
    # is slow, and the paper's level needs no more.
    step = max(1, max(image.shape[:2]) // 250)
    sample = image[::step, ::step].reshape(-1, 3)
    return np.asarray(np.percentile(sample, 99.5, axis=0))


def white_gain(image: np.ndarray, most: float = 2.5) -> np.ndarray:
    """The per-channel gain (1..``most``) that makes the brightest pixels of ``image`` (BGR)
    grey."""
    bright = brightest(image)
    return np.asarray(np.clip(bright.max() / np.maximum(bright, 1.0), 1.0, most))


def crop_whiteness(crops: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """Median whiteness (0..255) of the brighter 40 % of each crop's pixels (its paper, if a
    card), after ``gain``. ``crops`` is (N, H, W, 3) BGR, uint8."""
    n = len(crops)
    if n == 0:
        return np.zeros(0)
    # OpenCV on uint8 as ``proposals`` computes its map: a second look has a few hundred
    # crops, and float arrays, reductions over the colour axis and masked medians cost tens
    # of milliseconds there.
    # Every other pixel each way: a median over a few hundred paper pixels is as good.
    pixels = np.ascontiguousarray(crops[:, ::2, ::2], np.uint8).reshape(n, -1, 3)
    balanced = cv2.transform(pixels, np.diag(gain.astype(np.float64)))
    b, g, r = cv2.split(balanced)
    lo, hi = cv2.min(cv2.min(b, g), r), cv2.max(cv2.max(b, g), r)
    white = cv2.addWeighted(lo, 1.5, hi, -0.5, 0).astype(np.int64)
    hi = hi.astype(np.int64)
    # Order statistics from per-crop histograms (whiteness is a byte): sorting a few hundred
    # rows of two thousand pixels cost more than the rest together.
    rows = (np.arange(n) * 257)[:, None]
    cut = _order_statistic(
        np.bincount((hi + rows).ravel(), minlength=257 * n), n, (6 * (hi.shape[1] - 1)) // 10
    )
    bright = hi >= cut[:, None]
    counts = np.bincount((np.where(bright, white, 256) + rows).ravel(), minlength=257 * n)
    count = bright.sum(axis=1)
    lower, upper = (
        _order_statistic(counts, n, (count - 1) // 2),
        _order_statistic(counts, n, count // 2),
    )
    return np.asarray((lower + upper) / 2.0)


def paper_saturations(crops: np.ndarray) -> np.ndarray:
    """Median saturation (0..1) of the brighter 40 % of each crop's pixels: its paper, if a
    card. ``crops`` is (N, H, W, 3) BGR."""
    n = len(crops)
    if n == 0:
        return np.zeros(0)
    hsv = cv2.cvtColor(
        np.ascontiguousarray(crops).reshape(-1, crops.shape[2], 3), cv2.COLOR_BGR2HSV
    ).reshape(n, -1, 3)
    value, saturation = hsv[:, :, 2], hsv[:, :, 1].astype(np.int16)
    bright = value >= np.percentile(value, 60, axis=1)[:, None]
    # Each crop's median over its bright pixels: the others sort past every saturation.
    ranked = np.sort(np.where(bright, saturation, 256), axis=1)
    count = bright.sum(axis=1)
    rows = np.arange(n)
    middle = (ranked[rows, (count - 1) // 2] + ranked[rows, count // 2]) / 2.0
    return np.asarray(middle / 255.0)


def paper_saturation(crop: np.ndarray) -> float:
    """Median saturation (0..1) of the brighter 40 % of a crop's pixels: its paper, if a card."""
    return float(paper_saturations(crop[None])[0])


def _order_statistic(counts: np.ndarray, n: int, k: np.ndarray | int) -> np.ndarray:
    """The ``k``-th smallest value (0-based) of each of ``n`` rows, from their flattened
    histograms over 0..256."""
    cumulative = counts.reshape(n, 257).cumsum(axis=1)
    return np.asarray((cumulative > np.reshape(k, (-1, 1))).argmax(axis=1), np.float64)


def paper_share(image: np.ndarray) -> float:
    """The share (0..1) of ``image`` (BGR) that is as white as its card paper: after the frame's
    white balance (``white_gain``), a whiteness of at least ``PAPER_OF_TOP`` of its whitest
    0.5 %. A table photo shows the table between its cards (a fifth of it paper at most, a
    close-up of one card a third); a screenshot of an app or a page is mostly paper."""
    h, w = image.shape[:2]
    step = max(1, max(h, w) // _SHARE_SIDE)
    small = np.ascontiguousarray(image[::step, ::step], np.uint8)
    balanced = cv2.transform(small, np.diag(white_gain(small).astype(np.float64)))
    b, g, r = cv2.split(balanced)
    lo, hi = cv2.min(cv2.min(b, g), r), cv2.max(cv2.max(b, g), r)
    white = cv2.addWeighted(lo, 1.5, hi, -0.5, 0)
    top = float(np.percentile(white, 99.5))
    return float(np.mean(white >= PAPER_OF_TOP * top)) if top > 0 else 0.0
