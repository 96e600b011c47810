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
# Two frames whose corners lie closer than this (card widths) and whose edges agree frame the
# same physical corner: merging keeps the surest read of it.
SAME_CORNER = 0.15


Extent = tuple[tuple[float, float], tuple[float, float]]
CORNER: Extent = (CROP_X, CROP_Y)
FACE: Extent = (FACE_X, FACE_Y)


def corner_affines(
    p: np.ndarray, u: np.ndarray, v: np.ndarray, s: np.ndarray, extent: Extent = CORNER
) -> np.ndarray:
    """(N, 2, 3) matrices taking crop pixels (col, row) to image pixels, one per corner frame
    (``p``, ``u``, ``v``: (N, 2); ``s``: (N,))."""
    (x0, x1), (y0, y1) = extent
    s = np.asarray(s, np.float64)[:, None]
    sx = s * (x1 - x0) / CROP_W
    sy = s * (y1 - y0) / CROP_H
    origin = p + s * x0 * u + s * y0 * v
    # Pixel centres: crop pixel (0, 0) covers [0, 1); sample at its centre.
    origin = origin + 0.5 * sx * u + 0.5 * sy * v
    return np.stack(
        [
            np.stack([u[:, 0] * sx[:, 0], v[:, 0] * sy[:, 0], origin[:, 0]], axis=1),
            np.stack([u[:, 1] * sx[:, 0], v[:, 1] * sy[:, 0], origin[:, 1]], axis=1),
        ],
        axis=1,
    )


def crop_corners(
    image: np.ndarray,
    p: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    s: np.ndarray,
    extent: Extent = CORNER,
) -> np.ndarray:
    """(N, ``CROP_H``, ``CROP_W``, 3) canonical views of N corners (or, with ``FACE``, of the
    whole cards seen from them), anti-aliased when shrinking; see ``crop_corner``.

    The frames' matrices and bounding boxes are computed together: a frame has a few hundred
    corners, and one at a time the array calls cost more than the warps.
    """
    p, u, v = (np.asarray(a, np.float64).reshape(-1, 2) for a in (p, u, v))
    s = np.asarray(s, np.float64).reshape(-1)
    out = np.zeros((len(s), CROP_H, CROP_W, 3), np.uint8)
    if len(s) == 0:
        return out
    m = corner_affines(p, u, v, s, extent)
    cols = np.array([0, CROP_W, 0, CROP_W], np.float64)
    rows = np.array([0, 0, CROP_H, CROP_H], np.float64)
    xs = cols * m[:, 0, :1] + rows * m[:, 0, 1:2] + m[:, 0, 2:]
    ys = cols * m[:, 1, :1] + rows * m[:, 1, 1:2] + m[:, 1, 2:]
    h, w = image.shape[:2]
    boxes = np.stack(
        [
            np.maximum(np.floor(xs.min(axis=1)).astype(int) - 2, 0),
            np.maximum(np.floor(ys.min(axis=1)).astype(int) - 2, 0),
            np.minimum(np.ceil(xs.max(axis=1)).astype(int) + 2, w),
            np.minimum(np.ceil(ys.max(axis=1)).astype(int) + 2, h),
        ],
        axis=1,
    )
    # Shrink so that one crop pixel spans about 1.5 region pixels before the affine warp.
    factors = np.minimum(1.0, 1.5 / (s * (extent[0][1] - extent[0][0]) / CROP_W))
    for i, ((bx0, by0, bx1, by1), factor) in enumerate(
        zip(boxes.tolist(), factors.tolist(), strict=True)
    ):
        if bx1 - bx0 < 2 or by1 - by0 < 2:
            continue  # the crop lies (almost) wholly outside the image: left black
        region = image[by0:by1, bx0:bx1]
        fx = fy = 1.0
        if factor < 1.0:
            # At least one pixel each way: a crop lying almost wholly outside the image leaves
            # a sliver of a region that would otherwise shrink to nothing.
            size = (
                max(1, round(region.shape[1] * factor)),
                max(1, round(region.shape[0] * factor)),
            )
            fx, fy = size[0] / region.shape[1], size[1] / region.shape[0]
            region = cv2.resize(region, size, interpolation=cv2.INTER_AREA)
        (a, b, c), (d, e, f) = m[i].tolist()
        to_region = np.array(
            [[fx * a, fx * b, fx * c - bx0 * fx], [fy * d, fy * e, fy * f - by0 * fy]]
        )
        cv2.warpAffine(
            region,
            to_region,
            (CROP_W, CROP_H),
            dst=out[i],
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return out


def crop_corner(
    image: np.ndarray,
    p: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    s: float,
    extent: Extent = CORNER,
) -> np.ndarray:
    """The canonical ``CROP_H x CROP_W`` view of one corner (or, with ``FACE``, of the whole
    card seen from that corner), anti-aliased when shrinking.

    Only the bounding box of the crop is read from ``image`` and shrunk with area
    interpolation first, so a 6000x4000 photo costs no more than a webcam frame.
    """
    return np.asarray(crop_corners(image, p, u, v, np.array([s]), extent)[0])


def extent_quads(
    p: np.ndarray, u: np.ndarray, v: np.ndarray, s: np.ndarray, extent: Extent = CORNER
) -> np.ndarray:
    """(N, 4, 2) the image area each crop of ``crop_corners`` covers (``p``, ``u``, ``v``:
    (N, 2); ``s``: (N,)), from the crop's top left clockwise: its corners (0, 0), (W, 0),
    (W, H) and (0, H) in crop pixels."""
    (x0, x1), (y0, y1) = extent
    p, u, v = (np.asarray(a, np.float64).reshape(-1, 2) for a in (p, u, v))
    s = np.asarray(s, np.float64).reshape(-1, 1, 1)
    xs = np.array([x0, x1, x1, x0])[None, :, None]
    ys = np.array([y0, y0, y1, y1])[None, :, None]
    return np.asarray(p[:, None] + s * (xs * u[:, None] + ys * v[:, None]), np.float32)


def unit(vector: np.ndarray) -> np.ndarray:
    """``vector`` scaled to length 1 (a zero vector stays zero)."""
    return np.asarray(vector / max(float(np.linalg.norm(vector)), 1e-9), np.float64)


def card_quad(p: np.ndarray, u: np.ndarray, v: np.ndarray, s: float) -> np.ndarray:
    """The outline (4x2) of a card of width ``s`` seen from one of its corners."""
    return np.array(
        [p, p + s * u, p + s * u + CARD_ASPECT * s * v, p + CARD_ASPECT * s * v], dtype=np.float32
    )


def card_centres(p: np.ndarray, u: np.ndarray, v: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The centres (N, 2) of N cards seen from a corner each (``p``, ``u``, ``v``: (N, 2);
    ``s``: (N,)): the mean of each ``card_quad``, for many frames at once."""
    return np.asarray(p + 0.5 * np.asarray(s)[:, None] * (u + CARD_ASPECT * v), np.float64)
