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

import numpy as np

from companion.engine.cards import Card
from companion.vision.base.detections import Detections
from companion.vision.base.geometry import card_quad
from companion.vision.base.light import balanced
from companion.vision.live import follow
from companion.vision.merging.merge import CornerRead, merge_reads
from companion.vision.proposals.levels import (
    WORK_SIZE,
    Proposal,
    first_of_alike,
    frame_table,
    propose_corners,
)

if TYPE_CHECKING:
    from companion.vision.reader import CardReader

__all__ = [
    "LOOK_CARD",
    "LOOK_EVERY",
    "LOOK_SIZE",
    "MATCH",
    "SHOWN",
    "STABLE",
    "WINDOW",
    "FrameFuser",
    "LiveReader",
]

WINDOW = 5  # recent frames whose reads count
STABLE = 3  # reads of one code among them that make a card sure
# Reads of one code a place needs to be shown at all: a code read once in five frames is more
# often a passing misread than a card, and one frame later a real card has its second read.
SHOWN = 2
MATCH = 0.5  # card widths between the centres of two reads of the same card
LOOK_EVERY = 4  # a full look for corners every this many frames; the others follow the cards
# Once cards are followed, the corner search works on a frame where they are this wide
# (pixels), at least LOOK_SIZE on its long side: proposals.WORK_SIZE suits cards a fiftieth of
# the frame wide, a webcam over a table sees them far wider.
LOOK_CARD = 40
LOOK_SIZE = 640


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


class LiveReader:
    """Webcam frames in, the fused read of the recent frames out (``read(frame)``).

    The corner frames that read the cards are carried from frame to frame by the camera's
    motion (optical flow at their corners) and read again there: a few crops per frame, not
    a few hundred. Every ``look_every`` frames (and whenever the motion cannot be measured)
    the whole frame is searched for corners as well: the followed frames move onto the
    outline corners found near them, and corners off the followed cards are read once each
    (no second looks: the next frames are the second look).
    """

    def __init__(
        self,
        detector: CardReader,
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

    def read(self, frame: np.ndarray) -> Detections:
        """The fused read after adding ``frame`` (BGR)."""
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
        self._follow(frames, reads, read)
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

    def _follow(self, frames: list[Proposal], reads: list[CornerRead], read: Detections) -> None:
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
