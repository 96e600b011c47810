"""Webcam video: a reader fast enough to read every frame, its reads fused (``fuse``).

``CardFollower`` gives ``FrameFuser`` a read of every frame: a full look for corners every
``LOOK_EVERY`` frames, and in between the cards already seen, followed with the camera's
motion (``follow``) and read again at their corners only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from companion.vision.base.detections import Detections
from companion.vision.base.geometry import card_quad
from companion.vision.base.light import balanced
from companion.vision.live import follow
from companion.vision.live.fuse import MATCH, FrameFuser
from companion.vision.merging import merge_reads
from companion.vision.proposals import (
    WORK_SIZE,
    Proposal,
    SpotModel,
    first_of_alike,
    frame_table,
    propose_corners,
)

if TYPE_CHECKING:
    from companion.vision.corner_reads import CornerRead

__all__ = ["LOOK_CARD", "LOOK_EVERY", "LOOK_SIZE", "FrameReading", "CardFollower"]

LOOK_EVERY = 4  # a full look for corners every this many frames; the others follow the cards
# Once cards are followed, the corner search works on a frame where they are this wide
# (pixels), at least LOOK_SIZE on its long side: proposals.WORK_SIZE suits cards a fiftieth of
# the frame wide, a webcam over a table sees them far wider.
LOOK_CARD = 40
LOOK_SIZE = 640


class FrameReading(Protocol):
    """What the live path asks of the detector (``CardDetector``): the frames it brings read
    once each, and the spot model, if any, for its corners."""

    @property
    def spots(self) -> SpotModel | None:
        """The model marking index corners on a whole frame, if any."""
        ...

    def read_frames(self, image: np.ndarray, frames: list[Proposal]) -> list[CornerRead]:
        """``frames`` read as cards once each (``image`` balanced for its light)."""
        ...


@dataclass(frozen=True)
class _Followed:
    """A corner frame that read a card shown, and the last frame it did so."""

    frame: Proposal
    seen: int


def _shown_read(read: CornerRead, shown: Detections) -> bool:
    """Whether ``read`` is the card of a row of ``shown`` at that row's place."""
    q = read.proposal
    centre = card_quad(q.p, q.u, q.v, q.s).mean(axis=0)
    return any(
        card == read.card and float(np.linalg.norm(centre - c)) < MATCH * q.s
        for card, c in zip(shown.cards, shown.centres, strict=True)
    )


class CardFollower:
    """Webcam frames in, the fused read of the recent frames out (``follow(frame)``).

    The corner frames that read the cards are carried from frame to frame by the camera's
    motion (optical flow at their corners) and read again there: a few crops per frame, not
    a few hundred. Every ``look_every`` frames (and whenever the motion cannot be measured)
    the whole frame is searched for corners as well: the followed frames move onto the
    outline corners found near them, and corners off the followed cards are read once each
    (no second looks: the next frames are the second look).
    """

    def __init__(
        self,
        detector: FrameReading,
        fuser: FrameFuser | None = None,
        look_every: int = LOOK_EVERY,
    ) -> None:
        self.detector = detector
        self.fuser = fuser if fuser is not None else FrameFuser()
        self.look_every = look_every
        self._count = 0
        self._before: follow.Grey | None = None
        self._followed: list[_Followed] = []
        self.looked = False  # whether the last frame was searched whole (for the benchmark)

    def follow(self, frame: np.ndarray) -> Detections:
        """The fused read after following the cards into ``frame`` (BGR) and reading it."""
        grey = follow.grey(frame)
        # After the grey image is taken: a balance that varies a little from frame to frame
        # must not look like motion to the flow.
        frame = balanced(frame)
        frames = [f.frame for f in self._followed]
        matrix = None
        if frames and self._before is not None:
            points = np.array([p for q in frames for p in (q.p, q.p + q.s * q.u, q.p + q.s * q.v)])
            matrix = follow.motion(self._before[0], grey[0], points, grey[1])
        if matrix is not None:
            frames = [follow.moved(q, matrix) for q in frames]
        self.looked = matrix is None or self._count % self.look_every == 0
        if self.looked:
            proposals = self._corners(frame, frames)
            frames = [follow.anchored(q, proposals) for q in frames]
            # Corners on the followed cards are read at the followed frames: only corners
            # elsewhere are new (a card laid down, one missed so far).
            frames += [q for q in proposals if not follow.inside(q.p, frames)]
        reads = self.detector.read_frames(frame, frames)
        shape = (int(frame.shape[0]), int(frame.shape[1]))
        read = merge_reads(reads, shape, self.fuser.decks)
        self._keep_followed(frames, reads, read)
        self._count += 1
        self._before = grey
        return self.fuser.update(read, shape)

    def _corners(self, frame: np.ndarray, followed: list[Proposal]) -> list[Proposal]:
        """The corners of a full look: the spot model's index corners where the detector has
        one (a webcam over a table: a few dozen frames, where the whiteness levels give
        hundreds), else the levels' corners on a work frame sized for the cards followed."""
        if self.detector.spots is not None:
            return self.detector.spots.frames(frame)
        proposals, _ = propose_corners(frame, self._work_size(frame, followed))
        return proposals

    @staticmethod
    def _work_size(frame: np.ndarray, followed: list[Proposal]) -> int:
        """The work frame's long side for the corner search: the full ``WORK_SIZE`` until
        cards are followed, then small enough that they stay ``LOOK_CARD`` pixels wide
        (down to ``LOOK_SIZE``): the search costs about its pixels."""
        if not followed:
            return WORK_SIZE
        width = float(np.median([q.s for q in followed]))
        size = round(max(frame.shape[:2]) * LOOK_CARD / max(width, 1.0))
        return int(min(WORK_SIZE, max(LOOK_SIZE, size)))

    def _keep_followed(
        self, frames: list[Proposal], reads: list[CornerRead], read: Detections
    ) -> None:
        """The frames to follow into the next frame: those whose read this frame's merge kept,
        and those followed before that had one within the fuser's window."""
        by_frame = {id(r.proposal): r for r in reads}
        oldest = self.fuser.frame + 1 - self.fuser.window + 1
        kept: list[_Followed] = []
        for i, q in enumerate(frames):
            hit = by_frame.get(id(q))
            if hit is not None and _shown_read(hit, read):
                kept.append(_Followed(q, self.fuser.frame + 1))
            elif i < len(self._followed) and self._followed[i].seen >= oldest:
                kept.append(_Followed(q, self._followed[i].seen))
        # One frame per corner: the most recently useful.
        kept.sort(key=lambda f: -f.seen)
        table = frame_table([f.frame for f in kept])
        self._followed = [kept[i] for i in first_of_alike(table, 0.15, 0.8, 0.2)]

    def fused(self) -> Detections:
        """The fused read of the frames so far (what a capture keeps)."""
        return self.fuser.fused()

    def reset(self) -> None:
        self.fuser.reset()
        self._count = 0
        self._before = None
        self._followed = []
