"""Doubtful reads framed again: a crop that may hold an index, read unsurely, is cut again at
sixteen nearby frames (turned, shifted, rescaled, foreshortened), and the surest of those
replaces it when enough of them agree.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from companion.vision.base.geometry import SAME_CORNER
from companion.vision.corner_reads.crops import cut
from companion.vision.proposals import Proposal

__all__ = ["REFRAME_FLOOR", "REFRAME_VOTES", "SURE", "reframe_doubtful", "reframes"]

# Confidence from which a read is sure: it is not framed again, and merging keeps it even when
# a surer read of its rank with another suit lies at the card's opposite corner.
SURE = 0.7
# Overlapping cards' outlines put some corners further off than the reader learned to frame.
REFRAME_FLOOR = 0.4  # index probability (1 - p(no index)) from which a read is doubtful
REFRAME_VOTES = 3  # nearby frames (of 16) that must give the same code
_TURNS = (-0.3, -0.2, -0.1, 0.1, 0.2, 0.3)  # radians: about 6, 11 and 17 degrees
_SHIFTS = ((0.04, 0.0), (-0.04, 0.0), (0.0, 0.04), (0.0, -0.04))  # card widths along u, v
_SCALES = (0.88, 1.12)
# A card seen at a slant is foreshortened along one edge (about 37 or 50 degrees from overhead).
_SQUASHES = (0.8, 0.65)

# Rank (N, ranks + no index) and suit (N, 4) probabilities of BGR crops.
Classify = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def _turn(vec: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * vec[0] - s * vec[1], s * vec[0] + c * vec[1]])


def reframes(q: Proposal, foreshortened: bool = True) -> list[Proposal]:
    """Frames near ``q``: turned about its corner, shifted along its edges, rescaled, and
    (``foreshortened``) shortened along one edge: their ``u`` or ``v`` is not a unit vector."""
    out = [Proposal(q.p, _turn(q.u, a), _turn(q.v, a), q.s) for a in _TURNS]
    out += [Proposal(q.p + (du * q.u + dv * q.v) * q.s, q.u, q.v, q.s) for du, dv in _SHIFTS]
    out += [Proposal(q.p, q.u, q.v, q.s * f) for f in _SCALES]
    for f in _SQUASHES if foreshortened else ():
        out += [Proposal(q.p, q.u, q.v * f, q.s), Proposal(q.p, q.u * f, q.v, q.s)]
    return out


def reframe_doubtful(
    classify: Classify,
    image: np.ndarray,
    proposals: list[Proposal],
    crops: np.ndarray,
    rank_p: np.ndarray,
    suit_p: np.ndarray,
) -> tuple[list[Proposal], np.ndarray, np.ndarray, np.ndarray]:
    """Doubtful reads (with their frames and crops) replaced by the surest read among
    nearby frames, each read by ``classify``."""
    n_ranks = rank_p.shape[1] - 1
    index_p = 1.0 - rank_p[:, n_ranks]
    confidence = rank_p[:, :n_ranks].max(axis=1, initial=0.0) * suit_p.max(axis=1, initial=0.0)
    doubtful = (index_p >= REFRAME_FLOOR) & (confidence < SURE)
    doubtful = np.flatnonzero(doubtful & ~_read_surely_elsewhere(proposals, confidence))
    if len(doubtful) == 0:
        return proposals, crops, rank_p, suit_p
    frames = [reframes(proposals[i]) for i in doubtful]
    flat = [f for group in frames for f in group]
    near = cut(image, flat)
    r2, s2 = classify(near)
    k = len(frames[0])
    proposals, crops = list(proposals), crops.copy()
    rank_p, suit_p = rank_p.copy(), suit_p.copy()
    for j, i in enumerate(doubtful):
        rr, ss = r2[j * k : (j + 1) * k], s2[j * k : (j + 1) * k]
        conf = rr[:, :n_ranks].max(axis=1) * ss.max(axis=1) * (rr.argmax(axis=1) < n_ranks)
        best = int(np.argmax(conf))
        code = (rr[best].argmax(), ss[best].argmax())
        # A texture looks like an index at one lucky frame, a misframed index at several.
        mean = (
            (rank_p[i] + rr.sum(axis=0))[:n_ranks].argmax(),
            (suit_p[i] + ss.sum(axis=0)).argmax(),
        )
        votes = int(np.sum((rr.argmax(axis=1) == code[0]) & (ss.argmax(axis=1) == code[1])))
        if conf[best] > confidence[i] and votes >= REFRAME_VOTES and mean == code:
            proposals[i], crops[i] = frames[j][best], near[j * k + best]
            rank_p[i], suit_p[i] = rr[best], ss[best]
    return proposals, crops, rank_p, suit_p


def _read_surely_elsewhere(proposals: list[Proposal], confidence: np.ndarray) -> np.ndarray:
    """(N,) bool: whether another frame at the same corner (as merging counts one) is read
    at least ``SURE``. Merging keeps the surest read of a corner, so a doubtful read there
    is not framed again (speed; see ``REFRAME_FLOOR``)."""
    sure = np.flatnonzero(confidence >= SURE)
    if len(sure) == 0 or len(proposals) == 0:
        return np.zeros(len(proposals), bool)
    p = np.array([q.p for q in proposals])
    u = np.array([q.u for q in proposals])
    s = np.array([q.s for q in proposals])
    near = np.linalg.norm(p[:, None] - p[None, sure], axis=2) < SAME_CORNER * np.minimum(
        s[:, None], s[None, sure]
    )
    return np.asarray((near & (u @ u[sure].T > 0.8)).any(axis=1) & (confidence < SURE))
