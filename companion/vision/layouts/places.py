"""Where the cards of a photo lie: each read as a card with its centre, one read per place.

Pure functions of ``Detections``: no image, no model, no printing (the CLI and app do those).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from companion.engine.cards import Card, format_cards

if TYPE_CHECKING:  # types only: reading positions needs no model
    from companion.vision.base.detections import Detections

__all__ = ["SeenCard", "seen_cards", "card_width", "one_per_place", "unsure", "listed"]

# Reads whose centres are closer than this many card widths are one physical card: the layouts
# read here lay cards side by side, overlapping by half a card at most.
SAME_PLACE = 0.5
# Reads less sure than this are pointed out for the players to check by eye.
UNSURE = 0.8


@dataclass(frozen=True, slots=True)
class SeenCard:
    """One card read on a photo: the card, its centre in pixels, how sure the read is, its
    row in the ``Detections`` (where a screen finds its outline), and whether a player should
    check it (``Detections.check``)."""

    card: Card
    x: float
    y: float
    confidence: float
    index: int
    check: bool = False


def seen_cards(detections: Detections) -> tuple[SeenCard, ...]:
    """The detector's reads with their centres, in the order it gave them."""
    centres = detections.centres
    return tuple(
        SeenCard(card, float(c[0]), float(c[1]), float(conf), i, bool(check))
        for i, (card, c, conf, check) in enumerate(
            zip(detections.cards, centres, detections.confidence, detections.check, strict=True)
        )
    )


def one_per_place(seen: Sequence[SeenCard], width: float) -> tuple[SeenCard, ...]:
    """The surest read of each place: these layouts never lay one face-up card over another.

    The detector keeps one place per card code, but one card misread through its two index
    corners comes out as two codes at the same place; the less sure read is dropped.
    """
    kept: list[SeenCard] = []
    for card in sorted(seen, key=lambda s: -s.confidence):
        if all(np.hypot(card.x - k.x, card.y - k.y) >= SAME_PLACE * width for k in kept):
            kept.append(card)
    return tuple(s for s in seen if s in kept)


def unsure(seen: Sequence[SeenCard], below: float = UNSURE) -> tuple[SeenCard, ...]:
    """The reads players should check by eye, least sure first."""
    return tuple(sorted((s for s in seen if s.confidence < below), key=lambda s: s.confidence))


def card_width(detections: Detections) -> float:
    """The typical card width in pixels: the median short side of the read outlines (each
    outline's first edge, across the card as the reads frame it; ``Detections.card_width``
    takes the shorter of the first two, for outlines given any way round), at least 1."""
    if len(detections) == 0:
        return 1.0
    quads = detections.quads.astype(np.float64)
    sides = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
    return max(float(np.median(sides)), 1.0)


def listed(cards: Sequence[SeenCard]) -> str:
    return format_cards((seen.card for seen in cards), pretty=True) if cards else "—"
