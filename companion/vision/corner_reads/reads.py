"""What the corner reads give: ``CornerRead``, one corner read as a card, and ``Look``, a frame's
corners and their reads sorted by the read threshold, which the looks after the first extend.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.engine.cards import Card
from companion.vision.base.alternatives import Alternative
from companion.vision.base.detections import SECOND_LOOK
from companion.vision.proposals import Corners, Proposal

__all__ = ["CornerRead", "Look", "sort_reads"]


@dataclass(frozen=True)
class CornerRead:
    """One corner read as a card, before the reads of a card and of a code are merged."""

    card: Card
    confidence: float
    proposal: Proposal
    doubts: tuple[str, ...] = ()
    # ``detections.CLUES`` but the last (``corners``, known once the card's reads are merged).
    clues: tuple[float, ...] = ()
    # Its next likely codes, likeliest first; with ``confidence`` they sum to at most 1.
    alternatives: tuple[Alternative, ...] = ()
    # The frame its crops were cut at (None: ``proposal``, which has unit edges, so that a
    # foreshortened frame's crop is not where ``proposal`` would cut it).
    cut_at: Proposal | None = None

    @property
    def frame(self) -> Proposal:
        """The frame its index and face crops were cut at."""
        return self.proposal if self.cut_at is None else self.cut_at


def sort_reads(
    reads: Sequence[CornerRead], threshold: float
) -> tuple[list[CornerRead], list[CornerRead]]:
    """The reads as sure as ``threshold`` (cards), and the others as spare second looks (a
    told table's gaps may take them), in their order."""
    sure = [r for r in reads if r.confidence >= threshold]
    spare = [
        replace(r, doubts=tuple(dict.fromkeys((*r.doubts, SECOND_LOOK))))
        for r in reads
        if r.confidence < threshold
    ]
    return sure, spare


@dataclass(frozen=True)
class Look:
    """A look at a frame: the frame as read (balanced for its light), its ``corners``, the face
    reader's halvings of it so far (``pyramid``, extended as reads need them), the corners read
    as cards sorted by the read ``threshold`` (``sort_reads``: ``sure`` and ``spare``) and
    those read as no index (``rejected``). The second looks return it with more reads."""

    image: np.ndarray
    corners: Corners
    pyramid: list[np.ndarray]
    sure: list[CornerRead]
    spare: list[CornerRead]
    rejected: list[Proposal]
    threshold: float

    @property
    def shape(self) -> tuple[int, int]:
        """The frame's (height, width) in pixels."""
        return int(self.image.shape[0]), int(self.image.shape[1])

    def seeing(self, reads: Sequence[CornerRead]) -> Look:
        """This look with ``reads`` sorted in (itself when there are none)."""
        if not reads:
            return self
        sure, spare = sort_reads(reads, self.threshold)
        return replace(self, sure=self.sure + sure, spare=self.spare + spare)

    def sparing(self, reads: Sequence[CornerRead]) -> Look:
        """This look with ``reads`` added as spare reads, however sure (itself when there are
        none): the contrast-stretched frame's reads only fill a told table's gaps."""
        if not reads:
            return self
        return replace(self, spare=self.spare + list(reads))
