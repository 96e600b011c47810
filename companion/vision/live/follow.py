"""Cards followed from one webcam frame to the next: the camera's motion, and corner frames
carried by it, so that a card read once is read again at its corner without a new search."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.base.geometry import card_quad
from companion.vision.proposals import Proposal

__all__ = ["Grey", "anchored", "corner_frame", "grey", "inside", "motion", "moved"]

# Corners within this fraction of a side of a followed card's outline belong to it.
INSIDE_MARGIN = 0.1
# A followed frame is moved onto a proposal within this many card widths of it (the same
# corner, as ``merging`` counts one).
ANCHOR = 0.15
# The camera's motion between two frames is measured on this copy of them (long side, pixels).
MOTION_SIZE = 640

Grey = tuple[np.ndarray, float]  # a small grey copy of a frame, and its scale


def corner_frame(quad: np.ndarray) -> Proposal:
    """The corner frame a card's outline was read from (``geometry.card_quad``'s inverse)."""
    p = np.asarray(quad[0], np.float64)
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    s = float(np.linalg.norm(across))
    return Proposal(p, across / max(s, 1e-9), down / max(float(np.linalg.norm(down)), 1e-9), s)


def grey(frame: np.ndarray) -> Grey:
    """A small grey copy of ``frame`` for measuring motion, and its scale."""
    scale = min(1.0, MOTION_SIZE / max(frame.shape[:2]))
    small = frame
    if scale < 1.0:
        small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), scale


def motion(
    before: np.ndarray, after: np.ndarray, points: np.ndarray, scale: float
) -> np.ndarray | None:
    """The 2x3 similarity taking ``points`` (frame pixels) from ``before`` to ``after`` (the
    small grey copies, ``scale`` of the frame), or None when it cannot be measured."""
    if len(points) < 3:
        return None
    start = (points * scale).astype(np.float32).reshape(-1, 1, 2)
    moved, status, _ = cv2.calcOpticalFlowPyrLK(
        before, after, start, start.copy(), winSize=(21, 21), maxLevel=3
    )
    ok = status.ravel() == 1
    if ok.sum() < 3:
        return None
    matrix, inliers = cv2.estimateAffinePartial2D(
        start[ok], moved[ok], method=cv2.RANSAC, ransacReprojThreshold=2.0
    )
    if matrix is None or inliers is None or int(inliers.sum()) < 3:
        return None
    # Back to frame pixels: x_frame = x_small / scale.
    matrix = np.asarray(matrix, np.float64)
    matrix[:, 2] /= scale
    return matrix


def moved(frame: Proposal, matrix: np.ndarray) -> Proposal:
    """``frame`` carried by the similarity ``matrix``."""
    turn = matrix[:, :2]
    stretch = float(np.sqrt(abs(np.linalg.det(turn))))
    u, v = turn @ frame.u, turn @ frame.v
    return Proposal(
        turn @ frame.p + matrix[:, 2],
        u / max(float(np.linalg.norm(u)), 1e-9),
        v / max(float(np.linalg.norm(v)), 1e-9),
        frame.s * stretch,
    )


def inside(point: np.ndarray, frames: list[Proposal], margin: float = INSIDE_MARGIN) -> bool:
    """Whether ``point`` lies on one of the cards seen from ``frames`` (their outlines grown
    by ``margin`` of their sides)."""
    for frame in frames:
        quad = card_quad(frame.p, frame.u, frame.v, frame.s)
        across, down = quad[1] - quad[0], quad[3] - quad[0]
        offset = point - quad[0]
        a = float(offset @ across) / max(float(across @ across), 1e-9)
        b = float(offset @ down) / max(float(down @ down), 1e-9)
        if -margin <= a <= 1 + margin and -margin <= b <= 1 + margin:
            return True
    return False


def anchored(frame: Proposal, proposals: list[Proposal]) -> Proposal:
    """The proposal at ``frame``'s corner (the nearest within ``ANCHOR`` of a card width,
    pointing the same way), else ``frame``: a followed frame drifts with each measured
    motion, an outline's corner does not."""
    best, nearest = frame, ANCHOR * frame.s
    for q in proposals:
        distance = float(np.linalg.norm(q.p - frame.p))
        if distance < nearest and float(q.u @ frame.u) > 0.8 and abs(q.s - frame.s) < 0.2 * frame.s:
            best, nearest = q, distance
    return best
