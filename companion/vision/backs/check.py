"""The back check: whether a read was read at a corner of a card's back, not of a face.

The corner reader reads any corner that looks like an index: a pair of red backs, whose fine
lattice makes a red blotch at a corner, once read as a nine of diamonds. The card outline
drawn from such a corner may lie anywhere (on the bare table beside the backs); the corner
read does not. A small classifier (``training.back_check``) looks at the area around the
corner a read was read at (``corner_area``: its index crop doubled about its middle), cut
upright and shrunk to ``CROP_HEIGHT`` x ``CROP_WIDTH`` pixels, and gives the chance that it
lies on a card's back; ``back_rows`` asks it of each read the reader doubts (a sure read is
never taken for a back).

No back check ships: its two trainings failed the rule written before them (``docs/journal.md``,
2026-12-07, the back check), so the detector does not call it; ``BackCheck(path)`` loads one to
measure (``training.back_eval --check``).

    check = BackCheck(path)
    backs = back_rows(image, detections.check, detections.index_quads, check)
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.errors import ModelLoadError
from companion.vision.base.cut import cut_quad
from companion.vision.base.sessions import open_session

__all__ = [
    "BACK_CHECK",
    "CROP_HEIGHT",
    "CROP_WIDTH",
    "BackCheck",
    "back_rows",
    "card_crop",
    "check_input",
    "corner_area",
    "crops_batch",
]

CROP_HEIGHT, CROP_WIDTH = 72, 48  # a card's crop as the check reads it, standing upright
BACK_CHECK = 0.9  # a back's chance from which a read is one (set on the dev sets 1706, 1707)
AREA = 2.0  # the index crop grown this much about its middle: the index and what lies round it


def card_crop(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card outlined by ``quad`` (4x2 image pixels, corners in order round it) cut from
    the BGR ``image`` upright, ``CROP_HEIGHT`` x ``CROP_WIDTH`` (black beyond the photo's
    edge and where the outline is unknown)."""
    cut = cut_quad(image, quad, CROP_HEIGHT)
    if cut is None:
        return np.zeros((CROP_HEIGHT, CROP_WIDTH, 3), np.uint8)
    if cut.shape[1] > cut.shape[0]:  # an outline given from its long side: stand it up
        cut = cv2.rotate(cut, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(cut, (CROP_WIDTH, CROP_HEIGHT), interpolation=cv2.INTER_AREA)


def corner_area(index_quads: np.ndarray) -> np.ndarray:
    """The areas the check reads (N x 4 x 2): each index crop of ``index_quads`` (N x 4 x 2,
    as ``Detections.index_quads``) grown ``AREA`` times about its middle."""
    quads = np.asarray(index_quads, np.float64).reshape(-1, 4, 2)
    middle = quads.mean(axis=1, keepdims=True)
    return np.asarray(middle + AREA * (quads - middle))


def check_input(crops: np.ndarray) -> np.ndarray:
    """Crops (N x H x W x 3, uint8, as ``card_crop`` cuts them) as the check reads them:
    N x 3 x H x W, float32, 0-1 (the trainer feeds its network the same)."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255.0


def crops_batch(image: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """The cards of ``quads`` (N x 4 x 2) as the check's input (``check_input``)."""
    crops = [card_crop(image, quad) for quad in np.asarray(quads, np.float64).reshape(-1, 4, 2)]
    if not crops:
        return np.zeros((0, 3, CROP_HEIGHT, CROP_WIDTH), np.float32)
    return check_input(np.stack(crops))


class BackCheck:
    """``BackCheck(path).chances(image, quads)``: each outlined area's chance of lying on a
    card's back."""

    def __init__(self, path: Path | str, threads: int = 2) -> None:
        self._session, meta = open_session(Path(path), threads)
        if meta.get("back_check") != f"{CROP_HEIGHT}x{CROP_WIDTH}":
            raise ModelLoadError(str(path), "not a back check (no 'back_check' metadata)")

    def chances(self, image: np.ndarray, quads: np.ndarray) -> np.ndarray:
        """For each card outline of ``quads`` (N x 4 x 2, image pixels) on the BGR ``image``,
        the chance (0-1) that it shows a card back."""
        batch = crops_batch(image, quads)
        if not len(batch):
            return np.zeros(0)
        (logits,) = self._session.run(None, {"crops": batch})
        return np.asarray(1.0 / (1.0 + np.exp(-np.asarray(logits, np.float64).reshape(-1))))


def back_rows(
    image: np.ndarray,
    doubted: np.ndarray,
    index_quads: np.ndarray,
    check: BackCheck,
    level: float = BACK_CHECK,
) -> np.ndarray:
    """Which reads (their ``doubted`` flags and ``index_quads``, as ``Detections`` keeps
    them) on the BGR ``image`` are backs: doubted, their index crop known, and the area
    round it a back by the ``check`` (a chance of ``level`` or more)."""
    quads = np.asarray(index_quads, np.float64).reshape(-1, 4, 2)
    judged = np.flatnonzero(np.asarray(doubted, bool) & np.isfinite(quads).all(axis=(1, 2)))
    found = np.zeros(len(quads), bool)
    if len(judged):
        found[judged] = check.chances(image, corner_area(quads[judged])) >= level
    return found
