"""A parallelogram of a photo cut upright: a read's crops as a player sees them
(``vision.evidence``) and a card as the back check reads it (``vision.backs.check``)."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["SHRINK_FIRST", "cut_quad"]

# Shrinking by more than this, a region is first averaged down (as the reader's crops are).
SHRINK_FIRST = 1.5


def cut_quad(image: np.ndarray, quad: np.ndarray, height: int) -> np.ndarray | None:
    """The parallelogram ``quad`` (4x2 image pixels, from the top left clockwise) of a BGR
    ``image`` as an upright ``height``-pixel-tall picture (black beyond the photo's edge);
    None when ``quad`` is unknown (NaN) or has no area."""
    q = np.asarray(quad, np.float64)
    across, down = q[1] - q[0], q[3] - q[0]
    tall, wide = float(np.linalg.norm(down)), float(np.linalg.norm(across))
    if not np.isfinite(q).all() or tall < 1e-6 or wide < 1e-6 or height < 1:
        return None
    width = max(1, round(height * wide / tall))
    h, w = image.shape[:2]
    x0, y0 = (int(v) - 2 for v in np.floor(q.min(axis=0)))
    x1, y1 = (int(v) + 2 for v in np.ceil(q.max(axis=0)))
    left, top, right, bottom = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if right - left < 1 or bottom - top < 1:
        return np.zeros((height, width, 3), np.uint8)  # wholly beyond the photo's edge
    region = image[top:bottom, left:right]
    # The image pixels each picture pixel spans: past SHRINK_FIRST, average them first.
    shrink = min(1.0, SHRINK_FIRST * height / tall)
    if shrink < 1.0:
        size = (max(1, round(region.shape[1] * shrink)), max(1, round(region.shape[0] * shrink)))
        region = cv2.resize(region, size, interpolation=cv2.INTER_AREA)
    scale = np.array([region.shape[1] / (right - left), region.shape[0] / (bottom - top)])
    # Picture pixel (c, r) samples the quad at its centre, ((c + 0.5) / width, (r + 0.5) /
    # height) of the way along its edges, as ``geometry.crop_corners`` samples the reader's.
    step = np.column_stack([across * scale / width, down * scale / height])
    origin = (q[0] - [left, top]) * scale + 0.5 * step.sum(axis=1)
    return np.asarray(
        cv2.warpAffine(
            region,
            np.column_stack([step, origin]),
            (width, height),
            flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0),
        )
    )
