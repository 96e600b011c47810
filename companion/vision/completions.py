"""Second-look frames: rejected corners at the read cards' width, and the corners they imply."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from companion.vision import geometry
from companion.vision.proposals import Proposal, first_of_alike

if TYPE_CHECKING:
    from companion.vision.merging import CornerRead

__all__ = ["CARD_LENGTHS", "completions"]

COMPLETE_KNOWN = 0.1  # card widths: a rejected corner this near a read card's corner is its
COMPLETE_SAME = 0.08  # card widths: an implied corner this near a proposal adds nothing
COMPLETE_RESCALE = 0.2  # a frame whose width is this far from the read cards' is cut again
# Card length / width of the decks people own: poker 1.40, bridge 1.56 (the rendered decks span
# 1.35-1.67). An index corner implied along a card's long edge is tried at both.
CARD_LENGTHS = (1.4, 1.56)


def completions(
    rejected: list[Proposal], reads: list[CornerRead], proposals: list[Proposal]
) -> list[Proposal]:
    """Frames worth reading after a first read: rejected corners at the read cards' width, and
    the index corners a rejected corner implies if it is a card's other corner.

    The width of a corner frame comes from lone-card outlines or the corner's own edges, and
    both can mislead: two river cards touching make one card-shaped outline 1.5 cards wide,
    and a blob's edges run along several cards. The cards read first show the true width.
    In a hand whose upper card lies nearly parallel on the lower one, the upper card's index
    corner can sit inside the pair's outline, where no outline corner marks it; its free
    corners still do. A corner read as no index may be a card's top-right or bottom-left
    corner (the clockwise frame's ``u`` then runs along the long edge): its neighbours along
    ``v`` (one card width) and along ``u`` (one card length, poker or bridge) are index
    corners. Corners of cards already read are left out: their neighbours are read already.
    """
    width = float(np.median([r.proposal.s for r in reads])) if reads else None
    known = np.array(
        [
            c
            for r in reads
            for c in geometry.card_quad(r.proposal.p, r.proposal.u, r.proposal.v, r.proposal.s)
        ]
    ).reshape(-1, 2)
    candidates: list[Proposal] = []
    for q in rejected:
        s = q.s if width is None or abs(q.s - width) <= COMPLETE_RESCALE * width else width
        if len(known) and np.min(np.linalg.norm(known - q.p, axis=1)) < COMPLETE_KNOWN * s:
            continue
        candidates += [Proposal(q.p, q.u, q.v, s), Proposal(q.p + s * q.v, -q.v, q.u, s)] + [
            Proposal(q.p + length * s * q.u, q.v, -q.u, s) for length in CARD_LENGTHS
        ]
    # A frame alike one already read, or one kept before it, adds nothing.
    table = np.array([[*q.p, *q.u, *q.v, q.s] for q in proposals + candidates]).reshape(-1, 7)
    kept = first_of_alike(table, COMPLETE_SAME, 0.95, COMPLETE_RESCALE, fixed=len(proposals))
    return [candidates[i - len(proposals)] for i in kept.tolist() if i >= len(proposals)]
