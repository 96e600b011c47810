"""Corner frames and crops: the one piece of geometry shared by training and inference.

A card corner is described by its origin ``p`` (the sharp corner, image pixels), two unit vectors
``u`` (along the card's short edge, into the card) and ``v`` (along its long edge, into the card)
and the card width ``s`` in pixels. With the corners of a card visited clockwise on screen
(TL, TR, BR, BL), ``u`` points to the next corner and ``v`` to the previous one, so the top-left
and bottom-right corners both give an upright index in the canonical crop, and the other two
corners give a view turned by 90 degrees, which the classifier learns to reject.
"""

from __future__ import annotations

import cv2
import numpy as np

# Crop extent in card widths, measured from the corner: index letters and suit sit inside it for
# every deck we render, jumbo indices included.
CROP_X = (-0.03, 0.35)
CROP_Y = (-0.03, 0.50)
CROP_W, CROP_H = 40, 56
# The whole face seen from an index corner, for the face reader: pips and court pictures are
# several times larger than the index, which on the smallest cards is a few pixels tall.
FACE_X = (-0.03, 1.03)
FACE_Y = (-0.03, 1.50)
# Physical cards are 63 x 88 mm; used to draw a card outline from one corner.
CARD_ASPECT = 1.4


Extent = tuple[tuple[float, float], tuple[float, float]]
CORNER: Extent = (CROP_X, CROP_Y)
FACE: Extent = (FACE_X, FACE_Y)


def corner_affine(p: np.ndarray, u: np.ndarray, v: np.ndarray, s: float,
                  extent: Extent = CORNER) -> np.ndarray:
    """2x3 matrix taking crop pixels (col, row) to image pixels for one corner frame."""
    (x0, x1), (y0, y1) = extent
    sx = s * (x1 - x0) / CROP_W
    sy = s * (y1 - y0) / CROP_H
    origin = p + s * x0 * u + s * y0 * v
    # Pixel centres: crop pixel (0, 0) covers [0, 1); sample at its centre.
    origin = origin + 0.5 * sx * u + 0.5 * sy * v
    return np.array([[u[0] * sx, v[0] * sy, origin[0]],
                     [u[1] * sx, v[1] * sy, origin[1]]], dtype=np.float64)


def crop_corner(image: np.ndarray, p: np.ndarray, u: np.ndarray, v: np.ndarray,
                s: float, extent: Extent = CORNER) -> np.ndarray:
    """The canonical ``CROP_H x CROP_W`` view of one corner (or, with ``FACE``, of the whole
    card seen from that corner), anti-aliased when shrinking.

    Only the bounding box of the crop is read from ``image`` and shrunk with area
    interpolation first, so a 6000x4000 photo costs no more than a webcam frame.
    """
    matrix = corner_affine(p, u, v, s, extent)
    corners = np.array([[0, 0, 1], [CROP_W, 0, 1], [0, CROP_H, 1], [CROP_W, CROP_H, 1]], float)
    pts = corners @ matrix.T
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 2
    h, w = image.shape[:2]
    bx0, by0, bx1, by1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if bx1 - bx0 < 2 or by1 - by0 < 2:
        return np.zeros((CROP_H, CROP_W, 3), np.uint8)
    region = image[by0:by1, bx0:bx1]
    # Shrink so that one crop pixel spans about 1.5 region pixels before the affine warp.
    pixel = s * (extent[0][1] - extent[0][0]) / CROP_W
    factor = min(1.0, 1.5 / pixel)
    fx = fy = 1.0
    if factor < 1.0:
        # At least one pixel each way: a crop lying almost wholly outside the image leaves a
        # sliver of a region that would otherwise shrink to nothing.
        size = (max(1, round(region.shape[1] * factor)), max(1, round(region.shape[0] * factor)))
        fx, fy = size[0] / region.shape[1], size[1] / region.shape[0]
        region = cv2.resize(region, size, interpolation=cv2.INTER_AREA)
    to_region = np.array([[fx, 0, -bx0 * fx], [0, fy, -by0 * fy], [0, 0, 1]])
    full = to_region @ np.vstack([matrix, [0, 0, 1]])
    return cv2.warpAffine(region, full[:2], (CROP_W, CROP_H),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def card_quad(p: np.ndarray, u: np.ndarray, v: np.ndarray, s: float) -> np.ndarray:
    """The outline (4x2) of a card of width ``s`` seen from one of its corners."""
    return np.array([p, p + s * u, p + s * u + CARD_ASPECT * s * v, p + CARD_ASPECT * s * v],
                    dtype=np.float32)
