"""What a card reader offers: a whole read (``detect``) and the looks it is made of, which a
layout step (``layouts.read``) combines to look again where a table's read does not fit.

``CardDetector`` is the reader; the UI, the CLI and the layout step know it by this protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:  # types only: the protocol loads no model
    from companion.vision.base.detections import Detections
    from companion.vision.merging.merge import CornerRead
    from companion.vision.proposals.levels import Proposal
    from companion.vision.proposals.spots import SpotModel

__all__ = ["CardReader", "Look"]


@dataclass
class Look:
    """A first look at a frame: the frame as read (balanced for its light), its proposals,
    its pyramid so far (the face reader's halvings), the reads, the corners read as no index,
    the outline model's card faces (None without it) and the lone cards' typical width (frame
    pixels; None when no lone card was outlined)."""

    image: np.ndarray
    proposals: list[Proposal]
    pyramid: list[np.ndarray]
    reads: list[CornerRead]
    rejected: list[Proposal]
    faces: np.ndarray | None = None
    width: float | None = None

    @property
    def shape(self) -> tuple[int, int]:
        """The frame's (height, width) in pixels."""
        return int(self.image.shape[0]), int(self.image.shape[1])


class CardReader(Protocol):
    """Reads the cards of a photo or a webcam frame (``CardDetector``)."""

    @property
    def threshold(self) -> float:
        """Least confidence of a read kept as a card."""
        ...

    @property
    def complete(self) -> bool:
        """Whether a frame gets its second looks."""
        ...

    @property
    def spots(self) -> SpotModel | None:
        """The model marking index corners on a whole frame, if any (the live reader's
        corners)."""
        ...

    def detect(self, image: np.ndarray, decks: int = 1) -> Detections:
        """The cards read on a BGR image, up to ``decks`` places per card."""
        ...

    def first_look(self, image: np.ndarray) -> Look:
        """The first look at a BGR image (checked, then balanced for its light)."""
        ...

    def second_look(
        self, look: Look, near: np.ndarray | None = None, cascades: bool = False
    ) -> list[CornerRead]:
        """Reads of the frames a first look implies; ``near`` (points): only those near them
        or away from the cards read; ``cascades``: also between a cascade's ends."""
        ...

    def read_contrasted(
        self, image: np.ndarray, near: tuple[list[CornerRead], np.ndarray] | None = None
    ) -> list[CornerRead]:
        """Reads of the corners proposed on ``image`` with its local contrast stretched."""
        ...

    def split(self, reads: list[CornerRead]) -> tuple[list[CornerRead], list[CornerRead]]:
        """The reads as sure as the read threshold, and the spare others."""
        ...

    def merge(self, reads: list[CornerRead], shape: tuple[int, int], decks: int = 1) -> Detections:
        """Corner reads merged into cards on a frame of ``shape`` (height, width)."""
        ...

    def finish(self, look: Look, found: Detections) -> Detections:
        """``found`` with the card faces the first look saw where no card lies."""
        ...

    def read_frames(self, image: np.ndarray, frames: list[Proposal]) -> list[CornerRead]:
        """``frames`` read as cards once each (the live reader's frames)."""
        ...

    def with_unread(self, image: np.ndarray, read: Detections) -> Detections:
        """``read`` (made elsewhere) with the card faces seen on ``image`` where none lies."""
        ...
