"""A court card's suit read from more than its index, where the index is unsure of it.

A jack, queen or king (and a tarot deck's knight) has no pips in its middle: its suit shows
only at its two index corners and, on most court designs, in a larger suit pip printed beside
the index inside the picture's frame. Where the readers are unsure of the suit at one index,
the reader cuts that pip framed where an index's own suit pip lies (at a few sizes: decks
print it at different places) and the card's other index corner, and reads both with the
readers it already has. The other corner's suit probabilities multiply the index's; the pips
only break a near tie, as the index reader reads them less surely than an index. A source that
reads another suit than the one kept is a doubt (``detections.COURT``). ``CardDetector`` does this
only when asked (``courts=True``): measured, it changed no read (``docs/journal.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.base.geometry import CARD_ASPECT
from companion.vision.proposals import Proposal

__all__ = [
    "COURT_RANKS",
    "PIP_FRAMES",
    "SUIT_UNSURE",
    "CourtSuit",
    "court_suit",
    "opposite_frame",
    "pip_frames",
]

# Court ranks: a tarot deck's knight is "C", a class the shipped models do not have.
COURT_RANKS = frozenset("JQKC")
# A court read whose blended suit probability is under this looks beyond its index.
SUIT_UNSURE = 0.9
# The big pip beside the index, brought where the index's own suit pip lies: the frame's corner
# moved along the card's edges (card widths) and the frame enlarged by the pip's size over the
# index pip's. Three guesses, as court designs print the pip a little higher or lower.
PIP_FRAMES = ((0.11, -0.19, 1.9), (0.12, -0.15, 1.6), (0.13, -0.12, 1.4))
# The pip frames count only when every one reads the same suit, at least this surely on average.
PIP_SURE = 0.95
# ... and then only to break a near tie: the index's probability of the pip's suit within this
# of its best suit's. The index reads a court's suit right far more often than its pip does.
PIP_TIE = 0.1


def pip_frames(q: Proposal) -> list[Proposal]:
    """The frames that bring the larger suit pip beside ``q``'s index where an index's own
    suit pip lies, one per ``PIP_FRAMES`` guess."""
    return [
        Proposal(q.p + (du * q.u + dv * q.v) * q.s, q.u, q.v, q.s * k) for du, dv, k in PIP_FRAMES
    ]


def opposite_frame(q: Proposal) -> Proposal:
    """The frame of the card's other index corner (diagonally across it, turned half a turn)."""
    return Proposal(q.p + q.s * (q.u + CARD_ASPECT * q.v), -q.u, -q.v, q.s)


@dataclass(frozen=True)
class CourtSuit:
    """The suit kept for a court read (an index of the readers' suits) and whether a source
    beyond the index reads another suit than it."""

    suit: int
    suit_p: float  # its probability, the sources' together, normalised
    disputed: bool


def court_suit(index_p: np.ndarray, pip_p: np.ndarray, opposite_p: np.ndarray | None) -> CourtSuit:
    """The suit of a court read from its index's suit probabilities, its pip frames' (one row
    each) and, where the other index corner shows the same rank, that corner's: the index's
    and the other corner's multiply, and the pips, read alike by every frame, break a near
    tie between them. A source that reads another suit than the one kept disputes it."""
    together = np.asarray(index_p, np.float64)
    if opposite_p is not None:
        together = together * np.maximum(opposite_p, 1e-6)
    together = together / max(float(together.sum()), 1e-12)
    suit = int(np.argmax(together))
    pip = int(np.argmax(pip_p.mean(axis=0)))
    pip_sure = bool(
        np.all(pip_p.argmax(axis=1) == pip) and float(pip_p.mean(axis=0)[pip]) >= PIP_SURE
    )
    if pip_sure and pip != suit and together[suit] - together[pip] < PIP_TIE:
        suit = pip
    disputed = pip_sure and pip != suit
    disputed |= opposite_p is not None and int(np.argmax(opposite_p)) != suit
    disputed |= int(np.argmax(index_p)) != suit
    return CourtSuit(suit, float(together[suit]), bool(disputed))
