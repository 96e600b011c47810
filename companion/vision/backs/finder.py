"""The back finder: face-down cards on a photo, so that no back is ever read as a face.

The corner reader reads any corner that looks like an index; a pair of red backs, whose fine
lattice makes a red blotch at a corner, once read as a nine of diamonds. A small network
(``training.back_train``: the outline model's encoder-decoder) reads the photo shrunk to
``side`` pixels (the model's metadata says how many) and says which pixels are card backs;
each piece of that mask large and compact enough to be face-down cards is a ``Back``. Cards
laid touching face down (a face-down hand, a squared pile) make one piece, hence one ``Back``.

``find_backs(image)`` gives the backs; ``on_backs(quads, backs)`` says which card outlines
(a read's ``Detections.quads``) lie mostly on one, so a read there can be dropped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.errors import ModelLoadError
from companion.vision.base.sessions import MODELS, open_session
from companion.vision.proposals import padded

__all__ = [
    "BACK_LEVEL",
    "DEFAULT_BACKS",
    "DEFAULT_SIDE",
    "SURE",
    "Back",
    "BackModel",
    "card_points",
    "find_backs",
    "on_backs",
]

DEFAULT_BACKS = MODELS / "card_backs.onnx"
DEFAULT_SIDE = 384  # long side of the frame the model reads, unless its metadata says other
BACK_LEVEL = 0.5  # a pixel's back probability from which it counts
SURE = 0.75  # a piece's mean back probability from which it is backs
CARD_ASPECT = 1.45  # a card's height over its width
# A piece is face-down cards when, in the model's frame: its short side spans MIN_SIDE pixels
# (a back too small for the model to tell from a chip), it fills FILL of the rectangle around
# it (one back fills nearly all; a hand of two fanned, about two thirds), and it is no longer
# than MAX_ASPECT times its width (a strip along a table's edge is not a card).
MIN_SIDE = 5.0
FILL = 0.55
MAX_ASPECT = 3.2
# Told the cards' width (image pixels), a piece is backs from a third of a card's area to
# four cards' (a hand of four fanned), its short side from half a card's width.
AREA_RANGE = (0.35, 4.0)
ON_BACK = 0.5  # the share of a card outline lying on a back from which it is on the back


@dataclass(frozen=True)
class Back:
    """One piece of face-down cards: ``quad`` (4x2, image pixels) the rectangle around it,
    ``outline`` (Kx2, image pixels) its contour, ``score`` its pixels' mean probability and
    ``area`` its area in image pixels (a lone back, about ``1.45 * width**2``)."""

    quad: np.ndarray
    outline: np.ndarray
    score: float
    area: float


class BackModel:
    """``BackModel().back_map(image)``: each pixel's probability of showing a card back."""

    def __init__(self, path: Path | str = DEFAULT_BACKS, threads: int = 2) -> None:
        self._session, meta = open_session(Path(path), threads)
        if "backs" not in meta:
            raise ModelLoadError(str(path), "not a back model (no 'backs' metadata)")
        try:
            self.side = int(json.loads(meta["backs"]).get("side", DEFAULT_SIDE))
        except (ValueError, TypeError, AttributeError) as error:
            raise ModelLoadError(str(path), f"unreadable 'backs' metadata: {error}") from error

    def back_map(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The back probability of each pixel of ``image`` (BGR) shrunk to the model's side,
        and the factor it was shrunk by."""
        h, w = image.shape[:2]
        f = self.side / max(h, w)
        small = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        sh, sw = small.shape[:2]
        (logits,) = self._session.run(None, {"frame": padded(small)[None].astype(np.float32)})
        probability = 1.0 / (1.0 + np.exp(-logits[0, :sh, :sw].astype(np.float64)))
        return probability, f


@cache
def _default_model() -> BackModel:
    return BackModel()


def find_backs(
    image: np.ndarray,
    model: BackModel | None = None,
    card_width: float | None = None,
    level: float = BACK_LEVEL,
    sure: float = SURE,
) -> list[Back]:
    """The pieces of face-down cards on the BGR ``image``, largest first. ``card_width``
    (image pixels: the read cards' width, ``Detections.card_width()``) keeps only pieces of
    a card's size; without it, any card-shaped piece large enough for the model counts. A
    piece is the pixels from ``level`` that touch; it is backs if its mean is ``sure`` or
    more (a face or a patch of table the model hesitates on stays under it)."""
    if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 8:
        raise ValueError(
            f"find_backs needs a BGR image 8 pixels a side or more, got shape {image.shape}"
        )
    probability, f = (model or _default_model()).back_map(image)
    mask = (probability >= level).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    backs = []
    for k in range(1, count):
        piece = (labels == k).astype(np.uint8)
        contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contour = max(contours, key=cv2.contourArea)
        area = float(stats[k, cv2.CC_STAT_AREA])
        if not _card_like(contour, area, None if card_width is None else card_width * f):
            continue
        score = float(probability[piece > 0].mean())
        if score < sure:
            continue
        box = cv2.boxPoints(cv2.minAreaRect(contour))
        backs.append(
            Back(
                quad=_to_image(box, f),
                outline=_to_image(contour[:, 0, :].astype(np.float64), f),
                score=score,
                area=area / (f * f),
            )
        )
    return sorted(backs, key=lambda back: -back.area)


def _card_like(contour: np.ndarray, area: float, width: float | None) -> bool:
    """Whether a mask piece (its contour and pixel count, model pixels) is shaped like one
    or a few face-down cards, told their ``width`` in model pixels or not."""
    (_, _), (a, b), _ = cv2.minAreaRect(contour)
    short, long = min(a, b), max(a, b)
    if short < MIN_SIDE or long > MAX_ASPECT * short or area < FILL * short * long:
        return False
    if width is None:
        return True
    card = CARD_ASPECT * width * width
    return AREA_RANGE[0] * card <= area <= AREA_RANGE[1] * card and short >= 0.5 * width


def _to_image(points: np.ndarray, f: float) -> np.ndarray:
    """Model-frame pixel positions as image pixels (a model pixel covers 1/f of them)."""
    return np.asarray((np.asarray(points, np.float64) + 0.5) / f - 0.5)


# Points over a card (5 across, 7 down), as shares of its edges from its first corner.
_SAMPLES = np.array([[x, y] for x in np.linspace(0.1, 0.9, 5) for y in np.linspace(0.1, 0.9, 7)])


def card_points(quad: np.ndarray) -> np.ndarray:
    """35 points spread over the card outlined by ``quad`` (4x2, corners in order round it)."""
    p, u, v = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    return np.asarray(p + _SAMPLES[:, :1] * u + _SAMPLES[:, 1:] * v)


def on_backs(quads: np.ndarray, backs: Sequence[Back], share: float = ON_BACK) -> np.ndarray:
    """For each card outline of ``quads`` (N x 4 x 2, image pixels, corners in order round
    the card, as ``Detections.quads``), whether ``share`` of it or more lies on the
    ``backs``' outlines: a read there is a back read as a face."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    found = np.zeros(len(quads), bool)
    if not backs or not len(quads):
        return found
    contours = [back.outline.astype(np.float32).reshape(-1, 1, 2) for back in backs]
    for i, quad in enumerate(quads):
        inside = [
            any(cv2.pointPolygonTest(c, (float(x), float(y)), False) >= 0 for c in contours)
            for x, y in card_points(quad)
        ]
        found[i] = np.mean(inside) >= share
    return found
