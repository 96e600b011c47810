"""What a doubtful read shows a player: the crops it was read from, cut upright and enlarged.

    crops = read_crops(image, detections, row)  # ReadCrops: index corner and face, BGR

Each card of ``Detections`` keeps the areas of the photo its surest corner was read from
(``index_quads``, ``face_quads``); cut to a rectangle from the quad's first corner, the index
stands upright as the reader saw it, whichever way the card lies on the table. A player judges
the read by them and by its alternatives (``Detections.alternatives``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.base.detections import Detections

__all__ = ["FACE_HEIGHT", "INDEX_HEIGHT", "ReadCrops", "cut_quad", "read_crops"]

# The crops' heights in pixels: a phone shows them about 120 and 180 points tall, at twice that
# in pixels; the index (a few dozen photo pixels on a table shot) is enlarged, a face of a close
# 6000x4000 photo shrunk.
INDEX_HEIGHT = 240
FACE_HEIGHT = 360
# Shrinking by more than this, a region is first averaged down (as the reader's crops are).
SHRINK_FIRST = 1.5


@dataclass(frozen=True)
class ReadCrops:
    """A read's crops (BGR, uint8, upright): its index corner and its whole face seen from
    that corner; None where the read keeps no crop (the quads unknown)."""

    index: np.ndarray | None
    face: np.ndarray | None


def read_crops(
    image: np.ndarray,
    detections: Detections,
    row: int,
    index_height: int = INDEX_HEIGHT,
    face_height: int = FACE_HEIGHT,
) -> ReadCrops:
    """The crops card ``row`` of ``detections`` was read from, cut from ``image`` (the photo
    it was read on, BGR, original pixels): the index corner ``index_height`` pixels tall and
    the face ``face_height``, their widths as the crops' own proportions."""
    if not 0 <= row < len(detections):
        raise IndexError(f"no card {row}: the read has {len(detections)}")
    return ReadCrops(
        cut_quad(image, detections.index_quads[row], index_height),
        cut_quad(image, detections.face_quads[row], face_height),
    )


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
