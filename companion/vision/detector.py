"""``CardDetector``: the reader's stages composed into the cards of a photo.

A frame balanced for its light (``base.light``) goes through the stages of the pipeline
(``models/MODEL_CARD.md``, "Pipeline"): its candidate corners are found (``proposals``) and
read (``corner_reads``), the frames those reads imply are read on a second look
(``second_look``), and the reads are merged into cards (``merging``), with the card faces left
unread. Each look is a ``Look``: the first look's corners and reads, which the second looks
return with more reads.

The detector knows no table: told a layout, ``layouts.read`` calls the same looks (first,
second near the short places, contrasted) to look again where the read does not fit.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.vision.base.detections import Detections
from companion.vision.base.image import MIN_IMAGE_SIDE
from companion.vision.base.light import balanced
from companion.vision.base.sessions import DEFAULT_FACE, DEFAULT_MODEL, DEFAULT_READER
from companion.vision.corner_reads import (
    DEFAULT_GATE,
    READ_THRESHOLD,
    CornerRead,
    CornerReader,
    Look,
    sort_reads,
)
from companion.vision.merging import merge_reads
from companion.vision.proposals import (
    DEFAULT_OUTLINES,
    DEFAULT_SPOTS,
    CornerFinder,
    Proposal,
    SpotModel,
)
from companion.vision.second_look import (
    contrasted_look,
    look_again,
    unread_left,
    unread_outlines,
)

__all__ = ["CardDetector"]


class CardDetector:
    """``CardDetector().detect(image_bgr)`` -> ``Detections``: the cards, with their outlines."""

    def __init__(
        self,
        model_path: Path | str = DEFAULT_MODEL,
        threshold: float = READ_THRESHOLD,
        threads: int = 2,
        reframe: bool = True,
        reader_path: Path | str | None = DEFAULT_READER,
        complete: bool = True,
        face_path: Path | str | None = DEFAULT_FACE,
        outline_path: Path | str | None = DEFAULT_OUTLINES,
        gate_path: Path | str | None = DEFAULT_GATE,
        spot_path: Path | str | None = DEFAULT_SPOTS,
        spots_only: bool = False,
        clues: bool = False,
        courts: bool = False,
    ) -> None:
        """``model_path`` finds indices among the corner crops and reads them;
        ``reader_path`` (None: none) reads again the crops that may hold an index, and
        ``face_path`` (None: none) reads the whole card seen from those corners;
        ``outline_path`` (None: none) outlines the cards the whiteness levels miss;
        ``gate_path`` (None: none) tells which crops ``model_path`` need not read;
        ``spot_path`` (None: none) marks the index corners on the whole frame, a frame each
        beside the whiteness levels' corners; ``spots_only``: those frames alone (a webcam
        frame read quicker; with ``complete=False`` and no outline model, the quick read of
        ``benchmarks/vision_latency.py``). ``reframe``: whether doubtful reads
        are framed again; ``complete``: whether a frame gets its second looks (the corners
        its rejected ones imply, those beside its cards, its unread faces, and for a told
        layout, the contrast-stretched frame). ``clues``: whether each card keeps
        ``Detections.clues`` (for ``training/doubt_model.py``; no decision reads them, so the
        app's reads skip measuring them). ``courts``: whether a court card's suit, unsure at
        its index, is read again from the pip beside the index and its other index corner
        (``corner_reads.court``; measured and not kept: ``docs/journal.md``, the twenty-fifth
        session)."""
        self.reader = CornerReader(
            model_path,
            reader_path,
            face_path,
            gate_path,
            threshold,
            reframe,
            clues,
            courts,
            threads,
        )
        self.finder = CornerFinder(outline_path, spot_path, spots_only, threads)
        self.complete = complete

    @property
    def threshold(self) -> float:
        """Least confidence of a read kept as a card."""
        return self.reader.threshold

    @property
    def spots(self) -> SpotModel | None:
        """The model marking index corners on a whole frame, if any (the live path's corners)."""
        return self.finder.spots

    def detect(self, image: np.ndarray, decks: int = 1) -> Detections:
        """The cards read on a BGR image, one row per card, surest place of each (up to
        ``decks`` places per card), after the first look and the whole second look. Told a
        table's layout, ``layouts.read.read_layout`` looks again where the read does not fit."""
        look = self.second_look(self.first_look(image))
        return self.finish(look, merge_reads(look.sure, look.shape, decks))

    def first_look(self, image: np.ndarray) -> Look:
        """The first look at a BGR image: its corners found and read once each. A frame in
        strongly coloured or dim light is balanced first (``light.balanced``); ``Look.image``
        is the frame as read."""
        if (
            image is None
            or image.ndim != 3
            or image.shape[2] != 3
            or min(image.shape[:2]) < MIN_IMAGE_SIDE
        ):
            raise ValueError(
                f"detect() expects a BGR image of shape (H, W, 3), at least {MIN_IMAGE_SIDE} px"
            )
        return self._look(balanced(image))

    def second_look(
        self, look: Look, near: np.ndarray | None = None, cascades: bool = False
    ) -> Look:
        """``look`` with the reads of its second look (``second_look.look_again``: ``near``
        points, pixels, or away from its cards; ``cascades``: also between a cascade's ends);
        ``look`` itself when nothing more was read, or without ``complete``."""
        if not self.complete:
            return look
        return look.seeing(look_again(self.reader, look, near, cascades))

    def contrasted_look(self, look: Look, near: np.ndarray | None = None) -> Look:
        """``look`` with the reads of the contrast-stretched frame's corners as spare reads
        (``second_look.contrasted_look``; ``near``: only those near these points or away from
        its cards); ``look`` itself when none was read, or without ``complete``."""
        if not self.complete:
            return look
        return look.sparing(contrasted_look(self.reader, look, near))

    def finish(self, look: Look, found: Detections) -> Detections:
        """``found`` (the cards read after ``look``) with the card faces the outline model saw
        on the look's frame where no card of ``found`` lies (``Detections.unread``)."""
        return unread_left(look, found)

    def read_corners(self, image: np.ndarray) -> list[CornerRead]:
        """Every corner read as a card after the whole second look, before merging (a frame
        in coloured light balanced first, as ``detect`` does)."""
        return self.second_look(self._look(balanced(image))).sure

    def read_frames(self, image: np.ndarray, frames: list[Proposal]) -> list[CornerRead]:
        """``frames`` read as cards once each (the live path's frames; ``image`` balanced)."""
        return self.reader.read_frames(image, frames)

    def with_unread(self, image: np.ndarray, read: Detections) -> Detections:
        """``read`` (cards read on the BGR ``image`` elsewhere: the live path's fused read of
        recent frames) with the card faces the outline model sees on ``image`` where none of
        its cards lies (``Detections.unread``), as ``detect`` gives them. Unchanged without an
        outline model or a card read."""
        faces = self.finder.card_faces(image) if len(read) else None
        if faces is None:
            return read
        scale = image.shape[1] / faces.shape[1]
        return replace(read, unread=unread_outlines(faces, scale, np.asarray(read.quads)))

    def _look(self, image: np.ndarray) -> Look:
        """``first_look`` of a frame balanced already."""
        corners = self.finder.find(image)
        pyramid = [image]
        reads, rejected = self.reader.read(image, corners.frames, pyramid)
        sure, spare = sort_reads(reads, self.threshold)
        return Look(image, corners, pyramid, sure, spare, rejected, self.threshold)
