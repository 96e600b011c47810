"""The card faces no read card covers, on the outline model's mask: framed for the second look
(``unread_faces``: a face washed out by glare), and, once every look is done, reported as
unread faces (``unread_outlines``, ``Detections.unread``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.vision.base import geometry
from companion.vision.proposals import Proposal

if TYPE_CHECKING:
    from companion.vision.corner_reads import CornerRead

__all__ = ["FACE_LEAST", "unread_faces", "unread_outlines"]

# Card areas: a piece of the outline model's card faces that no card read covers is framed
# (``unread_faces``) when at least this large. A card half under another shows about half.
FACE_LEAST = 0.5
# A piece left once every look is done counts as an unread card face (``unread_outlines``)
# when it fills this much of its rotated rectangle and of its convex hull. On the real table
# photos of the dev set the pieces left were chips, a chip rack and a card cut by the edge,
# all ragged, and none passes.
UNREAD_FILL = 0.75
UNREAD_SOLID = 0.85
# A card read is drawn from one corner at the length of a poker card: seen at a slant, or a
# bridge card, it reaches further. Its outline is lengthened by this share at each end before
# what it covers is taken away, so that the rest of a read card is no unread face; a longer
# reach would also take the half-covered card beside it.
UNREAD_REACH = 0.25
# A piece the photo's edge cuts is a card's visible part clipped by a straight line: it fills
# less of its rotated rectangle, and may show less than half a card (a stray card lying off
# the table at the photo's edge). Such a piece counts from EDGE_LEAST card areas up to
# EDGE_MOST (larger ones are lit or pale patches of the table) when it is this convex: loose
# enough for a stray card beside a hand, whose lengthened outline takes part of its piece.
EDGE_LEAST = 0.3
EDGE_MOST = 2.5
EDGE_FILL = 0.45
EDGE_SOLID = 0.75


def unread_faces(
    mask: np.ndarray, scale: float, reads: Sequence[CornerRead], least: float = FACE_LEAST
) -> list[Proposal]:
    """Frames at the corners of the card faces that ``mask`` (the outline model's, ``scale``
    frame pixels per mask pixel) shows where no card of ``reads`` lies: the rotated rectangle
    around each uncovered piece of at least ``least`` card areas, each of its corners framed
    at the read cards' width. A face washed out by glare, or on a table as light as the cards,
    has no outline a whiteness level finds; the model still marks it, if raggedly."""
    if not reads:
        return []
    width = float(np.median([r.proposal.s for r in reads]))
    quads = [
        geometry.card_quad(r.proposal.p, r.proposal.u, r.proposal.v, r.proposal.s) for r in reads
    ]
    out: list[Proposal] = []
    for contour in _uncovered(mask, scale, quads, width, least):
        box = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64) * scale
        # Clockwise on screen (y down), as the proposals' frames: u to the next corner.
        (ax, ay), (bx, by) = box[1] - box[0], box[2] - box[1]
        if ax * by - ay * bx < 0:
            box = box[::-1]
        for i in range(4):
            p, after, before = box[i], box[(i + 1) % 4], box[i - 1]
            u, v = after - p, before - p
            out.append(Proposal(p, geometry.unit(u), geometry.unit(v), width))
    return out


def unread_outlines(
    mask: np.ndarray, scale: float, quads: np.ndarray, width: float | None = None
) -> np.ndarray:
    """(M, 4, 2) outlines (frame pixels) of the card faces ``mask`` shows where none of the
    cards read (``quads``, (N, 4, 2)) lies, once every look is done: uncovered pieces of at
    least ``FACE_LEAST`` card areas shaped like a card or a card's visible part (a convex
    piece filling most of its rotated rectangle, ``UNREAD_FILL`` and ``UNREAD_SOLID``), or,
    where the photo's edge cuts the piece, a convex one of ``EDGE_LEAST`` to ``EDGE_MOST``
    card areas. The model also marks chips, racks and light patches of the table, raggedly;
    those do not pass. The read cards give the size of a card; with none read, ``width``
    does (the lone cards' outlines, ``proposals.propose_corners``), and without it nothing
    is reported."""
    if len(quads):
        width = float(np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)))
    if width is None:
        return np.zeros((0, 4, 2), np.float32)
    along = (quads[:, 3] - quads[:, 0])[:, None] * np.array([-1, -1, 1, 1])[None, :, None]
    grown = quads + UNREAD_REACH * along
    card_area = geometry.CARD_ASPECT * (width / scale) ** 2
    out = []
    for contour in _uncovered(mask, scale, list(grown), width, min(FACE_LEAST, EDGE_LEAST)):
        area = cv2.contourArea(contour)
        rect = cv2.minAreaRect(contour)
        box = rect[1][0] * rect[1][1]
        hull = cv2.contourArea(cv2.convexHull(contour))
        if _at_edge(contour, mask.shape):
            shaped = EDGE_LEAST * card_area <= area <= EDGE_MOST * card_area
            shaped &= area >= EDGE_FILL * box and area >= EDGE_SOLID * hull
        else:
            shaped = area >= FACE_LEAST * card_area
            shaped &= area >= UNREAD_FILL * box and area >= UNREAD_SOLID * hull
        if shaped:
            out.append(cv2.boxPoints(rect) * scale)
    return np.array(out, np.float32).reshape(-1, 4, 2)


def _at_edge(contour: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a contour (mask pixels) reaches the border of a mask of ``shape``."""
    x, y, w, h = cv2.boundingRect(contour)
    return x <= 1 or y <= 1 or x + w >= shape[1] - 1 or y + h >= shape[0] - 1


def _uncovered(
    mask: np.ndarray, scale: float, quads: Sequence[np.ndarray], width: float, least: float
) -> list[np.ndarray]:
    """The contours (mask pixels) of the pieces of ``mask`` that no card outline of ``quads``
    (frame pixels) covers, of at least ``least`` card areas of ``width`` frame pixels."""
    cover = np.zeros_like(mask)
    for quad in quads:
        cv2.fillConvexPoly(cover, np.round(np.asarray(quad) / scale).astype(np.int32), 1)
    cover = cv2.dilate(cover, np.ones((5, 5), np.uint8))
    left = cv2.morphologyEx(mask & (1 - cover), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    card_area = geometry.CARD_ASPECT * (width / scale) ** 2
    contours, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [c for c in contours if cv2.contourArea(c) >= least * card_area]
