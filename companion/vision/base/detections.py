"""Immutable results of one ``CardDetector.detect`` call, and the words of their doubts."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from companion.engine.cards import Card
from companion.vision.base.alternatives import Alternative

__all__ = [
    "CHECK_BELOW",
    "CLUES",
    "COLOUR",
    "COURT",
    "MODELS",
    "READABLE_WIDTH",
    "SECOND_LOOK",
    "TWICE",
    "UNSURE",
    "Detections",
]

# Reads under this are for a player to check: the real photos' wrong reads all lay under it.
CHECK_BELOW = 0.95
# Cards narrower than this in the photo show an index of a few soft pixels, often misread.
READABLE_WIDTH = 50.0
# Why a read is doubtful (``Detections.doubts``): a player should check the card. The corner
# reads name ``colour``, ``models`` and ``court``, the merging ``unsure`` and ``twice``, the
# second look ``second_look``.
UNSURE = "unsure"  # a confidence under ``CHECK_BELOW``
COLOUR = "colour"  # the suit read contradicts the colour of the index ink
MODELS = "models"  # the corner, index and face readers do not all read the same card
SECOND_LOOK = "second_look"  # found only on a second look (rejected or implied corners)
TWICE = "twice"  # the same card read at two places in a one-deck game
COURT = "court"  # a court card's index, the pip beside it and its other corner differ in suit
# What the reader knows of each card (``Detections.clues``, one column each), NaN where unknown.
CLUES = (
    "agree",  # how many readers (corner, index, face) read its code at its surest corner
    "rank_margin",  # the readers' blended rank probability, best less second
    "suit_margin",  # and suit probability
    "ink_against",  # the index ink's redness against the suit read: above 0, it contradicts
    "sharpness",  # log(1 + variance of the Laplacian) of its surest corner's crop
    "width",  # its surest corner's card width, image pixels
    "corners",  # its opposite index corner: 1 read alike, -1 read as another suit, 0 unread
)


def _readonly(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


def _check_shape(name: str, array: np.ndarray, shape: tuple[int | None, ...]) -> None:
    ok = array.ndim == len(shape) and all(
        want is None or got == want for got, want in zip(array.shape, shape, strict=True)
    )
    if not ok:
        expected = "(" + ", ".join("N" if d is None else str(d) for d in shape) + ")"
        raise ValueError(f"Detections.{name} must have shape {expected}, got {array.shape}")


def _check_cards(cards: tuple[Card, ...], name: str = "cards") -> None:
    for i, card in enumerate(cards):
        if not isinstance(card, Card) or card.rank is None or card.suit is None:
            raise ValueError(
                f"Detections.{name} must hold natural cards (a Card with a rank and a suit), "
                f"got {card!r} at row {i}"
            )


def _check_alternatives(
    cards: tuple[Card, ...],
    confidence: np.ndarray,
    alternatives: tuple[tuple[Alternative, ...], ...],
) -> None:
    if len(alternatives) != len(cards):
        raise ValueError(
            f"Detections.alternatives must have {len(cards)} rows, got {len(alternatives)}"
        )
    for i, (card, conf, row) in enumerate(zip(cards, confidence, alternatives, strict=True)):
        if not all(isinstance(a, Alternative) for a in row):
            raise ValueError(f"Detections.alternatives must hold Alternative values, row {i}")
        _check_cards(tuple(a.card for a in row), f"alternatives of row {i}")
        if any(a.card == card for a in row) or any(a.probability < 0 for a in row):
            raise ValueError(
                f"Detections.alternatives of row {i} must be other codes than {card} with "
                "probabilities of at least 0"
            )
        # float32 confidences: a sum of exactly 1 may round a little over it.
        if float(conf) + sum(a.probability for a in row) > 1.0 + 1e-4:
            raise ValueError(
                f"Detections.alternatives of row {i} ({card}) and its confidence sum over 1"
            )


@dataclass(frozen=True)
class Detections:
    """Parallel arrays, one row per card read.

    ``cards`` are natural cards (no wild card is ever read); ``xyxy`` (N,4) boxes and ``quads``
    (N,4,2) outlines are in original image pixels; ``confidence`` is the probability of the read.
    ``check`` (N,) is True where the reader is not sure of the card and a player should look:
    by default, a confidence under ``CHECK_BELOW`` or any ``doubts``. ``doubts`` names, per row,
    why (``unsure``, ``colour``, ``models``, ``second_look``, ``twice``; ``court`` with
    ``CardDetector(courts=True)``); by default ``unsure`` where the confidence is under
    ``CHECK_BELOW``. ``frame`` is the photo's
    (width, height), (0, 0) when unknown: the layouts tell a card cut by the photo's edge by it.
    ``unread`` (M,4,2) outlines, in image pixels, card faces seen where no card was read: a
    card whose index the reader could not read (an odd design, a smear), for a player to look
    at, since no hand or river count points at it in a photo read without a layout.
    ``clues`` (N, len(``CLUES``)) what the reader knows of each card besides its confidence.
    ``alternatives``, per row, the card's next likely codes (``alternatives.Alternative``),
    likeliest first, from its surest corner's read: natural cards other than the read, never
    a code the decks cannot hold again; the row's confidence and their probabilities sum to
    at most 1; empty where none is known. ``index_quads`` and ``face_quads`` (N, 4, 2) are
    the crops the card was read from at its surest corner (``geometry.CORNER``: the index
    corner, ``geometry.FACE``: the whole face seen from it), in original image pixels, each
    from the crop's top left clockwise (cut to a rectangle, the index stands upright); NaN
    where unknown.
    """

    cards: tuple[Card, ...]
    confidence: np.ndarray
    xyxy: np.ndarray
    quads: np.ndarray
    # Empty (the default): computed from the confidences.
    check: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    doubts: tuple[tuple[str, ...], ...] = ()
    frame: tuple[int, int] = (0, 0)
    unread: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))
    # Empty (the default): unknown (NaN).
    clues: np.ndarray = field(default_factory=lambda: np.zeros((0, len(CLUES)), np.float32))
    # Empty (the defaults): none known.
    alternatives: tuple[tuple[Alternative, ...], ...] = ()
    index_quads: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))
    face_quads: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))
        _check_cards(self.cards)
        n = len(self.cards)
        object.__setattr__(self, "confidence", _readonly(np.asarray(self.confidence, np.float32)))
        object.__setattr__(self, "xyxy", _readonly(np.asarray(self.xyxy, np.float32)))
        object.__setattr__(self, "quads", _readonly(np.asarray(self.quads, np.float32)))
        _check_shape("confidence", self.confidence, (n,))
        _check_shape("xyxy", self.xyxy, (n, 4))
        _check_shape("quads", self.quads, (n, 4, 2))
        doubts = tuple(tuple(row) for row in self.doubts)
        if not doubts:
            doubts = tuple((UNSURE,) if c < CHECK_BELOW else () for c in self.confidence)
        if len(doubts) != n:
            raise ValueError(f"Detections.doubts must have {n} rows, got {len(doubts)}")
        object.__setattr__(self, "doubts", doubts)
        check = np.asarray(self.check, bool)
        if check.size == 0:
            check = (self.confidence < CHECK_BELOW) | np.array([bool(d) for d in doubts], bool)
        object.__setattr__(self, "check", _readonly(check.reshape(-1)))
        _check_shape("check", self.check, (n,))
        object.__setattr__(self, "frame", (int(self.frame[0]), int(self.frame[1])))
        object.__setattr__(self, "unread", _readonly(np.asarray(self.unread, np.float32)))
        _check_shape("unread", self.unread, (None, 4, 2))
        clues = np.asarray(self.clues, np.float32)
        if clues.size == 0:
            clues = np.full((n, len(CLUES)), np.nan, np.float32)
        object.__setattr__(self, "clues", _readonly(clues))
        _check_shape("clues", self.clues, (n, len(CLUES)))
        alternatives = tuple(tuple(row) for row in self.alternatives) or ((),) * n
        _check_alternatives(self.cards, self.confidence, alternatives)
        object.__setattr__(self, "alternatives", alternatives)
        for name in ("index_quads", "face_quads"):
            quads = np.asarray(getattr(self, name), np.float32)
            if quads.size == 0:
                quads = np.full((n, 4, 2), np.nan, np.float32)
            object.__setattr__(self, name, _readonly(quads))
            _check_shape(name, getattr(self, name), (n, 4, 2))

    @classmethod
    def empty(cls) -> Detections:
        return cls((), np.zeros(0), np.zeros((0, 4)), np.zeros((0, 4, 2)))

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __getitem__(self, mask: np.ndarray) -> Detections:
        """Rows selected by a boolean mask or an index array, as a new object."""
        index = np.arange(len(self))[np.asarray(mask)]
        return Detections(
            tuple(self.cards[i] for i in index),
            self.confidence[index],
            self.xyxy[index],
            self.quads[index],
            self.check[index],
            tuple(self.doubts[i] for i in index),
            self.frame,
            self.unread,
            self.clues[index],
            tuple(self.alternatives[i] for i in index),
            self.index_quads[index],
            self.face_quads[index],
        )

    @property
    def centres(self) -> np.ndarray:
        return self.quads.mean(axis=1) if len(self) else np.zeros((0, 2), np.float32)

    def card_width(self) -> float | None:
        """The read cards' median width in image pixels (each outline's shorter side), None
        when no card was read."""
        if not len(self):
            return None
        edges = np.linalg.norm(self.quads - np.roll(self.quads, -1, axis=1), axis=2)
        return float(np.median(np.minimum(edges[:, 0], edges[:, 1])))

    def small_cards(self) -> bool:
        """Whether the cards are too small in this photo to be read surely: a player should
        take it closer (or at a higher resolution), or check every card."""
        width = self.card_width()
        return width is not None and width < READABLE_WIDTH
