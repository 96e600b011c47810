"""Reads of recent webcam frames fused into one: ``FrameFuser``.

One frame's read can miss a card under a passing glare or read it wrongly once; the same card
read the same way in several recent frames is far surer. ``FrameFuser`` follows each card by
its place over the last ``WINDOW`` frames and shows it as sure once ``STABLE`` of them read
the same code (and one of those reads was sure on its own).
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from companion.engine.cards import Card
from companion.vision.base.alternatives import Alternative, capped, plausible
from companion.vision.base.detections import Detections

__all__ = ["MATCH", "SHOWN", "STABLE", "WINDOW", "FrameFuser"]

WINDOW = 5  # recent frames whose reads count
STABLE = 3  # reads of one code among them that make a card sure
# Reads of one code a place needs to be shown at all: a code read once in five frames is more
# often a passing misread than a card, and one frame later a real card has its second read.
SHOWN = 2
MATCH = 0.5  # card widths between the centres of two reads of the same card


@dataclass(frozen=True)
class _Read:
    """One frame's read of a card: its code and how sure the detector was."""

    frame: int
    card: Card
    confidence: float
    check: bool
    alternatives: tuple[Alternative, ...] = ()


@dataclass
class _Track:
    """A card's place over recent frames: its latest outline and the crops it was read from
    (index and face, ``Detections.index_quads`` and ``face_quads``), and the reads made there."""

    quad: np.ndarray
    reads: deque[_Read] = field(default_factory=lambda: deque(maxlen=WINDOW))
    crops: np.ndarray = field(default_factory=lambda: np.full((2, 4, 2), np.nan))

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.quad.mean(axis=0))

    @property
    def width(self) -> float:
        return float(np.linalg.norm(self.quad[1] - self.quad[0]))


class _Shown(NamedTuple):
    """A place shown: the votes for its code, its code, how sure, its track, whether to check
    it, and the latest read of its code there."""

    votes: int
    card: Card
    confidence: float
    track: _Track
    check: bool
    latest: _Read


class FrameFuser:
    """The cards of the last ``window`` frames, each followed by its place.

    ``update(read)`` adds one frame's ``Detections``; ``fused()`` is what those frames agree
    on: per place, the code read most often, with ``check`` True until ``stable`` reads of
    that code (one of them not flagged by the detector) are among the last ``window`` frames.
    In a one-deck game (``decks=1``) a code shown at two places keeps the better-read one.
    """

    def __init__(
        self,
        window: int = WINDOW,
        stable: int = STABLE,
        shown: int = SHOWN,
        decks: int = 1,
    ) -> None:
        if not 1 <= shown <= stable <= window:
            raise ValueError(
                f"need 1 <= shown <= stable <= window, got {shown}, {stable}, {window}"
            )
        self.window, self.stable, self.shown, self.decks = window, stable, shown, decks
        self.frame = 0
        self._tracks: list[_Track] = []
        self._shape: tuple[int, int] | None = None

    def update(self, read: Detections, shape: tuple[int, int] | None = None) -> Detections:
        """Add one frame's read (``shape``: the frame's height and width, to clip boxes);
        the fused read of the recent frames."""
        self.frame += 1
        if shape is not None:
            self._shape = shape
        taken: set[int] = set()
        # Nearest pairs first, each track and each read used once: two cards side by side
        # are a card width apart, twice the matching distance.
        pairs = sorted(
            (float(np.linalg.norm(track.centre - centre)), t, r)
            for t, track in enumerate(self._tracks)
            for r, centre in enumerate(read.centres)
        )
        matched: set[int] = set()
        for distance, t, r in pairs:
            track = self._tracks[t]
            if t in matched or r in taken or distance > MATCH * track.width:
                continue
            matched.add(t)
            taken.add(r)
            self._add(track, read, r)
        for r in range(len(read)):
            if r not in taken:
                track = _Track(np.array(read.quads[r], np.float64))
                track.reads = deque(maxlen=self.window)
                self._add(track, read, r)
                self._tracks.append(track)
        oldest = self.frame - self.window + 1
        self._tracks = [t for t in self._tracks if t.reads and t.reads[-1].frame >= oldest]
        return self.fused()

    def _add(self, track: _Track, read: Detections, row: int) -> None:
        track.quad = np.array(read.quads[row], np.float64)
        track.crops = np.array([read.index_quads[row], read.face_quads[row]], np.float64)
        track.reads.append(
            _Read(
                self.frame,
                read.cards[row],
                float(read.confidence[row]),
                bool(read.check[row]),
                read.alternatives[row],
            )
        )

    def places(self) -> list[np.ndarray]:
        """The outlines of the places followed now (shown or not), for the reader to follow."""
        return [t.quad.copy() for t in self._tracks]

    def fused(self) -> Detections:
        """The recent frames' agreed read: one row per place shown, ``check`` where not sure;
        its alternatives those of the latest read of its code there, its crops the latest
        frame's."""
        oldest = self.frame - self.window + 1
        rows: list[_Shown] = []
        for track in self._tracks:
            recent = [r for r in track.reads if r.frame >= oldest]
            votes = Counter(r.card for r in recent)
            if not votes:
                continue
            # Most votes; a tie goes to the code read last.
            last = {r.card: r.frame for r in recent}
            card, count = max(votes.items(), key=lambda kv: (kv[1], last[kv[0]]))
            if count < self.shown:
                continue
            agreeing = [r for r in recent if r.card == card]
            sure = count >= self.stable and any(not r.check for r in agreeing)
            confidence = float(np.mean([r.confidence for r in agreeing]))
            rows.append(_Shown(count, card, confidence, track, not sure, agreeing[-1]))
        # One deck: a code at two places keeps the place with more votes, then the surer.
        rows.sort(key=lambda row: (-row.votes, -row.confidence))
        seen: Counter[Card] = Counter()
        kept = []
        for row in rows:
            if seen[row.card] < self.decks:
                seen[row.card] += 1
                kept.append(row)
        if not kept:
            return Detections.empty()
        quads = np.array([row.track.quad for row in kept], np.float64)
        boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
        if self._shape is not None:
            h, w = self._shape
            boxes = np.clip(boxes, 0, [w, h, w, h])
        cards = tuple(row.card for row in kept)
        check = [row.check for row in kept]
        others = plausible(
            cards, [not c for c in check], [row.latest.alternatives for row in kept], self.decks
        )
        crops = np.array([row.track.crops for row in kept])
        return Detections(
            cards,
            np.array([row.confidence for row in kept]),
            boxes,
            quads,
            np.array(check, bool),
            alternatives=tuple(
                capped(a, row.confidence) for a, row in zip(others, kept, strict=True)
            ),
            index_quads=crops[:, 0],
            face_quads=crops[:, 1],
        )

    def reset(self) -> None:
        """Forget every card (the camera was pointed elsewhere)."""
        self.frame = 0
        self._tracks = []
