"""What a doubtful read shows a player: the crops it was read from, cut upright and enlarged.

    crops = read_crops(image, detections, row)  # ReadCrops: index corner and face, BGR

Each card of ``Detections`` keeps the areas of the photo its surest corner was read from
(``index_quads``, ``face_quads``); cut to a rectangle from the quad's first corner, the index
stands upright as the reader saw it, whichever way the card lies on the table. A player judges
the read by them and by its alternatives (``Detections.alternatives``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.base.cut import cut_quad
from companion.vision.base.detections import Detections

__all__ = ["FACE_HEIGHT", "INDEX_HEIGHT", "ReadCrops", "cut_quad", "read_crops"]

# The crops' heights in pixels: a phone shows them about 120 and 180 points tall, at twice that
# in pixels; the index (a few dozen photo pixels on a table shot) is enlarged, a face of a close
# 6000x4000 photo shrunk.
INDEX_HEIGHT = 240
FACE_HEIGHT = 360


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
