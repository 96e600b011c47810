"""Webcam video: reads of recent frames fused into one, and a reader fast enough to feed it.

One frame's read can miss a card under a passing glare or read it wrongly once; the same card
read the same way in several recent frames is far surer. ``FrameFuser`` follows each card by
its place over the last ``WINDOW`` frames and shows it as sure once ``STABLE`` of them read
the same code (and one of those reads was sure on its own). ``LiveReader`` gives it a read of
every frame: a full look for corners every ``LOOK_EVERY`` frames, and in between the cards
already seen, followed with the camera's motion and read again at their corners only.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.engine.cards import Card
from companion.vision.detections import Detections
from companion.vision.merging import merge_reads
from companion.vision.proposals import Proposal, propose_corners

if TYPE_CHECKING:
    from companion.vision.detector import CardDetector

__all__ = ["LOOK_EVERY", "MATCH", "SHOWN", "STABLE", "WINDOW", "FrameFuser", "LiveReader"]

WINDOW = 5  # recent frames whose reads count
STABLE = 3  # reads of one code among them that make a card sure
# Reads of one code a place needs to be shown at all: a code read once in five frames is more
# often a passing misread than a card, and one frame later a real card has its second read.
SHOWN = 2
MATCH = 0.5  # card widths between the centres of two reads of the same card
LOOK_EVERY = 3  # a full look for corners every this many frames; the others follow the cards
# The camera's motion between two frames is measured on this copy of them (long side, pixels).
MOTION_SIZE = 640


@dataclass(frozen=True)
class _Read:
    """One frame's read of a card: its code and how sure the detector was."""

    frame: int
    card: Card
    confidence: float
    check: bool


@dataclass
class _Track:
    """A card's place over recent frames: its latest outline and the reads made there."""

    quad: np.ndarray
    reads: deque[_Read] = field(default_factory=lambda: deque(maxlen=WINDOW))

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.quad.mean(axis=0))

    @property
    def width(self) -> float:
        return float(np.linalg.norm(self.quad[1] - self.quad[0]))


def _width(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad[1] - quad[0]))


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
        track.reads.append(
            _Read(
                self.frame,
                read.cards[row],
                float(read.confidence[row]),
                bool(read.check[row]),
            )
        )

    def places(self) -> list[np.ndarray]:
        """The outlines of the places followed now (shown or not), for the reader to follow."""
        return [t.quad.copy() for t in self._tracks]

    def fused(self) -> Detections:
        """The recent frames' agreed read: one row per place shown, ``check`` where not sure."""
        oldest = self.frame - self.window + 1
        rows: list[tuple[int, Card, float, np.ndarray, bool]] = []
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
            rows.append((count, card, confidence, track.quad, not sure))
        # One deck: a code at two places keeps the place with more votes, then the surer.
        rows.sort(key=lambda row: (-row[0], -row[2]))
        seen: Counter[Card] = Counter()
        kept = []
        for row in rows:
            if seen[row[1]] < self.decks:
                seen[row[1]] += 1
                kept.append(row)
        if not kept:
            return Detections.empty()
        quads = np.array([row[3] for row in kept], np.float64)
        boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
        if self._shape is not None:
            h, w = self._shape
            boxes = np.clip(boxes, 0, [w, h, w, h])
        return Detections(
            tuple(row[1] for row in kept),
            np.array([row[2] for row in kept]),
            boxes,
            quads,
            np.array([row[4] for row in kept], bool),
        )

    def reset(self) -> None:
        """Forget every card (the camera was pointed elsewhere)."""
        self.frame = 0
        self._tracks = []


def corner_frame(quad: np.ndarray) -> Proposal:
    """The corner frame a card's outline was read from (``geometry.card_quad``'s inverse)."""
    p = np.asarray(quad[0], np.float64)
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    s = float(np.linalg.norm(across))
    return Proposal(p, across / max(s, 1e-9), down / max(float(np.linalg.norm(down)), 1e-9), s)


def _grey(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """A small grey copy of ``frame`` for measuring motion, and its scale."""
    scale = min(1.0, MOTION_SIZE / max(frame.shape[:2]))
    small = frame
    if scale < 1.0:
        small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), scale


def _motion(
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


def _moved(frame: Proposal, matrix: np.ndarray) -> Proposal:
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


class LiveReader:
    """Webcam frames in, the fused read of the recent frames out (``read(frame)``).

    Every ``look_every`` frames the whole frame is searched for corners and read once each
    (no second looks: the next frames are the second look). In between, the places already
    followed are carried by the camera's motion (optical flow at their corners) and only
    their read corners are read again, a few crops instead of a few hundred.
    """

    def __init__(
        self,
        detector: CardDetector,
        fuser: FrameFuser | None = None,
        look_every: int = LOOK_EVERY,
    ) -> None:
        self.detector = detector
        self.fuser = fuser if fuser is not None else FrameFuser()
        self.look_every = look_every
        self._count = 0
        self._before: tuple[np.ndarray, float] | None = None
        self.looked = False  # whether the last frame was a full look (for the benchmark)

    def read(self, frame: np.ndarray) -> Detections:
        """The fused read after adding ``frame`` (BGR)."""
        grey = _grey(frame)
        places = self.fuser.places()
        frames: list[Proposal] | None = None
        if places and self._count % self.look_every != 0 and self._before is not None:
            corners = np.concatenate([q[[0, 1, 3]] for q in places])
            matrix = _motion(self._before[0], grey[0], corners, grey[1])
            if matrix is not None:
                frames = [_moved(corner_frame(q), matrix) for q in places]
        self.looked = frames is None
        if frames is None:
            frames, _ = propose_corners(frame)
        reads = self.detector.read_frames(frame, frames)
        self._count += 1
        self._before = grey
        return self.fuser.update(
            merge_reads(reads, frame.shape[:2], self.fuser.decks), frame.shape[:2]
        )

    def fused(self) -> Detections:
        """The fused read of the frames so far (what a capture keeps)."""
        return self.fuser.fused()

    def reset(self) -> None:
        self.fuser.reset()
        self._count = 0
        self._before = None
