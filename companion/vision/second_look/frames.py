"""Second-look frames: rejected corners at the read cards' width, the corners they imply, the
corners beside the cards read (``beside``) and those between the ends of a cascade
(``between``). The frames at card faces no card read covers are ``unread.unread_faces``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from companion.vision.base import geometry
from companion.vision.proposals import Proposal, first_of_alike, frame_table

if TYPE_CHECKING:
    from companion.vision.corner_reads import CornerRead

__all__ = ["CARD_LENGTHS", "beside", "between", "completions"]

COMPLETE_KNOWN = 0.1  # card widths: a rejected corner this near a read card's corner is its
COMPLETE_SAME = 0.08  # card widths: an implied corner this near a proposal adds nothing
COMPLETE_RESCALE = 0.2  # a frame whose width is this far from the read cards' is cut again
# Card length / width of the decks people own: poker 1.40, bridge 1.56 (the rendered decks span
# 1.35-1.67). An index corner implied along a card's long edge is tried at both.
CARD_LENGTHS = (1.4, 1.56)
# Card widths: a frame beside a read card whose card's centre lies this near a read card's
# centre is not cut (``beside``): the card there is read already. A wider limit drops frames of
# cards truly beside it.
BESIDE_FREE = 0.3
# A hand of three cards or more laid in a cascade (each card a step along the same offset)
# shows its first and last cards whole; the index corners of the cards between them lie on the
# line between those two cards' like corners, evenly spaced (``between``). Two reads are
# taken for a cascade's ends when their frames point the same way (``BETWEEN_TURN``, a
# cosine), their widths are alike (``BETWEEN_SCALE``, a log ratio) and their corners lie
# ``BETWEEN_REACH`` card widths apart; the cards between are framed for 1 to 4 of them.
BETWEEN_TURN = 0.95
BETWEEN_SCALE = 0.15
BETWEEN_REACH = (0.25, 2.0)
BETWEEN_CARDS = (1, 2, 3, 4)


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
    widths = [
        q.s if width is None or abs(q.s - width) <= COMPLETE_RESCALE * width else width
        for q in rejected
    ]
    free = [True] * len(rejected)
    if len(known) and rejected:
        gap = np.linalg.norm(known[None] - np.array([q.p for q in rejected])[:, None], axis=2)
        free = (gap.min(axis=1) >= COMPLETE_KNOWN * np.array(widths)).tolist()
    candidates: list[Proposal] = []
    for q, s, keep in zip(rejected, widths, free, strict=True):
        if not keep:
            continue
        candidates += [Proposal(q.p, q.u, q.v, s), Proposal(q.p + s * q.v, -q.v, q.u, s)] + [
            Proposal(q.p + length * s * q.u, q.v, -q.u, s) for length in CARD_LENGTHS
        ]
    return _unlike(candidates, proposals)


def _unlike(candidates: list[Proposal], fixed: list[Proposal]) -> list[Proposal]:
    """``candidates`` less those alike one of ``fixed`` (read, or to be read, already) or one
    kept before them: such a frame adds nothing."""
    if not candidates:
        return []
    table = frame_table(fixed + candidates)
    kept = first_of_alike(table, COMPLETE_SAME, 0.95, COMPLETE_RESCALE, fixed=len(fixed))
    return [candidates[i - len(fixed)] for i in kept.tolist() if i >= len(fixed)]


def beside(
    reads: list[CornerRead], fixed: list[Proposal], read_before: Sequence[CornerRead] = ()
) -> list[Proposal]:
    """The index corners of the cards that would lie touching each read card in a row: one
    card width either way along the edge its index corner starts (``u``), in the same frame.
    Left out: frames alike one of ``fixed`` (read or to be read already), frames whose card
    lies where a card was read (``BESIDE_FREE``), and the neighbours of a read lying where a
    card of ``read_before`` lies (framed already).

    River cards laid touching make one outline; where no lone card gives the typical width,
    its inner corners are not proposed (``proposals._along_touching``), and in a steep view
    the outline's own edges give the width wrong. A card read in the row shows where its
    neighbours' index corners lie. Each is framed at the read card's width, and also at the
    median width of the cards read when its own is ``COMPLETE_RESCALE`` off (a read can be
    sure at a frame a card and a half wide).
    """
    if not reads:
        return []
    every = [*read_before, *reads]
    width = float(np.median([r.proposal.s for r in every]))
    seeds = _where_no_card_is([r.proposal for r in reads], read_before, width)
    candidates: list[Proposal] = []
    for q in seeds:
        widths = [q.s] if abs(q.s - width) <= COMPLETE_RESCALE * width else [q.s, width]
        candidates += [
            Proposal(q.p + side * s * q.u, q.u, q.v, s) for s in widths for side in (1, -1)
        ]
    return _unlike(_where_no_card_is(candidates, every, width), fixed)


def between(reads: list[CornerRead], fixed: list[Proposal]) -> list[Proposal]:
    """The index corners of the cards between two read cards that may be a cascade's ends
    (``BETWEEN_TURN``, ``BETWEEN_SCALE``, ``BETWEEN_REACH``): evenly spaced on the line
    between their corners, for each count of cards between (``BETWEEN_CARDS``), framed the
    way the two are. Each read stands for its card's opposite index corner too (at each of
    ``CARD_LENGTHS``): the two ends may be read at unlike corners. Left out: frames alike one
    of ``fixed``."""
    frames = [(k, r.proposal) for k, r in enumerate(reads)]
    frames += [
        (k, _opposite(r.proposal, length)) for k, r in enumerate(reads) for length in CARD_LENGTHS
    ]
    candidates: list[Proposal] = []
    steps = sorted({k / (n + 1) for n in BETWEEN_CARDS for k in range(1, n + 1)})
    for i, (card, a) in enumerate(frames):
        for other, b in frames[i + 1 :]:
            if other == card:
                continue
            width = (a.s + b.s) / 2
            gap = float(np.linalg.norm(b.p - a.p)) / width
            alike = abs(np.log(a.s / b.s)) <= BETWEEN_SCALE
            parallel = float(a.u @ b.u) >= BETWEEN_TURN and float(a.v @ b.v) >= BETWEEN_TURN
            if not (alike and parallel and BETWEEN_REACH[0] <= gap <= BETWEEN_REACH[1]):
                continue
            u, v = geometry.unit(a.u + b.u), geometry.unit(a.v + b.v)
            candidates += [Proposal(a.p + t * (b.p - a.p), u, v, width) for t in steps]
    return _unlike(candidates, fixed)


def _opposite(frame: Proposal, length: float) -> Proposal:
    """The frame of the index corner diagonally opposite ``frame``'s on a card ``length``
    widths long."""
    p = frame.p + frame.s * frame.u + length * frame.s * frame.v
    return Proposal(p, -frame.u, -frame.v, frame.s)


def _where_no_card_is(
    frames: list[Proposal], reads: Sequence[CornerRead], width: float
) -> list[Proposal]:
    """The frames whose card's centre lies over ``BESIDE_FREE`` card widths from the centre of
    every card read: nearer, the card there is read already (a river's neighbour, a hand's
    other card)."""
    if not frames or not reads:
        return frames
    gap = np.linalg.norm(
        _centres(frames)[:, None] - _centres([r.proposal for r in reads])[None], axis=2
    )
    far = gap.min(axis=1) > BESIDE_FREE * width
    return [f for f, keep in zip(frames, far.tolist(), strict=True) if keep]


def _centres(frames: list[Proposal]) -> np.ndarray:
    table = frame_table(frames)
    return geometry.card_centres(table[:, 0:2], table[:, 2:4], table[:, 4:6], table[:, 6])
