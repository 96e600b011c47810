"""The corners a first look reads: the whiteness levels' and the outline model's corners
(``levels``), and the spot model's index corners (``spots``) where none of those frames the
corner alike; or, for a quick read, the spot model's alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.vision.base.light import balanced
from companion.vision.proposals.levels import Proposal, propose_corners, work_factor
from companion.vision.proposals.outlines import DEFAULT_OUTLINES, OutlineModel
from companion.vision.proposals.spots import DEFAULT_SPOTS, SpotModel

__all__ = ["SPOT_NEAR", "SPOT_SCALE", "SPOT_TURN", "SPOT_WIDTH", "CornerFinder", "Corners"]

# Spot frames kept: within this share of the lone cards' width (spots' widths are rough).
SPOT_WIDTH = 0.25
# Where a proposal frames a spot's corner alike (distance, edge cosine, log width), it suffices.
SPOT_NEAR = 0.1
SPOT_TURN = 0.985
SPOT_SCALE = 0.15


@dataclass(frozen=True)
class Corners:
    """A frame's candidate index corners (full-resolution pixels), the outline model's card
    faces on the work frame (None without the model, or when the spots alone were asked) and
    the lone cards' typical width (frame pixels; None when no lone card was outlined)."""

    frames: list[Proposal]
    faces: np.ndarray | None = None
    width: float | None = None


class CornerFinder:
    """``CornerFinder().find(image)``: the ``Corners`` of a frame balanced for its light."""

    def __init__(
        self,
        outline_path: Path | str | None = DEFAULT_OUTLINES,
        spot_path: Path | str | None = DEFAULT_SPOTS,
        spots_only: bool = False,
        threads: int = 2,
    ) -> None:
        """``outline_path`` (None: none) outlines the cards the whiteness levels miss;
        ``spot_path`` (None: none) marks the index corners on the whole frame; ``spots_only``:
        those corners alone (a webcam frame found quicker)."""
        self.outlines = OutlineModel(outline_path, threads) if outline_path is not None else None
        self.spots = SpotModel(spot_path, threads) if spot_path is not None else None
        self.spots_only = spots_only and self.spots is not None

    def find(self, image: np.ndarray) -> Corners:
        """The corners of ``image`` (balanced for its light already)."""
        if self.spots_only and self.spots is not None:
            return Corners(self.spots.frames(image))  # the spots give no mask of card faces
        outlines = None if self.outlines is None else _Remembered(self.outlines, self.spots)
        frames, width = propose_corners(image, outlines=outlines)
        frames += _unproposed(self._spotted(image, outlines, width), frames)
        return Corners(frames, None if outlines is None else outlines.mask, width)

    def card_faces(self, image: np.ndarray) -> np.ndarray | None:
        """The outline model's card faces on ``image`` (BGR, balanced here), at the size of
        the work frame the proposals are found on; None without the model."""
        if self.outlines is None:
            return None
        h, w = image.shape[:2]
        f = work_factor(image.shape)
        return self.outlines.card_mask(
            balanced(image), (max(1, round(w * f)), max(1, round(h * f)))
        )

    def _spotted(
        self, image: np.ndarray, outlines: _Remembered | None, width: float | None
    ) -> list[Proposal]:
        """The spot model's frames beside the levels' corners, in ``image``'s pixels: read on
        the work frame alongside the outline model where there is one (a 24-megapixel photo
        is shrunk once). Where the lone cards give a typical ``width``, the spots of a card
        far larger than the model learned (a phone held over one card: spots on its pips at
        a table card's width) are left out, and the others framed at that width: the spots'
        widths are rougher."""
        if self.spots is None:
            return []
        if outlines is None or outlines.mask is None:
            spotted = self.spots.frames(image)
        else:
            spotted = [
                _enlarged(q, image.shape[1] / outlines.mask.shape[1]) for q in outlines.spotted
            ]
        if width is None:
            return spotted
        return [
            Proposal(q.p, q.u, q.v, width)
            for q in spotted
            if abs(q.s - width) <= SPOT_WIDTH * width
        ]


class _Remembered:
    """The outline model, keeping the last card-face mask it gave (the proposals' work frame):
    the second look frames the faces no card read covers (``second_look.frames``). With a spot
    model, the spots of the same work frame too, found in the same worker thread."""

    def __init__(self, model: OutlineModel, spots: SpotModel | None = None) -> None:
        self.model = model
        self.spots = spots
        self.mask: np.ndarray | None = None
        self.spotted: list[Proposal] = []  # in the work frame's pixels

    def card_mask(self, image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        self.mask = self.model.card_mask(image, size)
        if self.spots is not None:
            self.spotted = self.spots.frames(image)
        return self.mask


def _enlarged(q: Proposal, scale: float) -> Proposal:
    """``q``, found on a frame shrunk by ``1 / scale``, in the full frame's pixels (pixel
    centres to pixel centres)."""
    return Proposal((q.p + 0.5) * scale - 0.5, q.u, q.v, q.s * scale)


def _unproposed(spotted: list[Proposal], proposals: list[Proposal]) -> list[Proposal]:
    """The spot frames that no proposal frames alike (``SPOT_NEAR``, ``SPOT_TURN``,
    ``SPOT_SCALE``): where the levels framed the corner well, their frame follows the card's
    own outline and a spot a pixel or two off would only compete with it."""
    if not spotted or not proposals:
        return spotted
    points = np.array([q.p for q in proposals])
    edges = np.array([q.u / np.linalg.norm(q.u) for q in proposals])
    widths = np.array([q.s for q in proposals])
    scales = np.log(widths)
    kept = []
    for q in spotted:
        near = np.hypot(*(points - q.p).T) < SPOT_NEAR * widths
        alike = np.abs(scales - np.log(q.s)) < SPOT_SCALE
        if not np.any(near & alike & (edges @ q.u > SPOT_TURN)):
            kept.append(q)
    return kept
