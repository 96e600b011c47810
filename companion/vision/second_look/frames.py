"""Second-look frames: rejected corners at the read cards' width, the corners they imply, the
corners beside the cards read (``beside``) and those between the ends of a cascade
(``between``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.vision.base import geometry
from companion.vision.proposals.levels import Proposal, first_of_alike, frame_table

if TYPE_CHECKING:
    from companion.vision.merging.merge import CornerRead

__all__ = [
    "CARD_LENGTHS",
    "FACE_LEAST",
    "beside",
    "between",
    "completions",
    "unread_faces",
    "unread_outlines",
]

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
# Card areas: a piece of the outline model's card faces that no card read covers is framed
# (``unread_faces``) when at least this large. A card half under another shows about half.
FACE_LEAST = 0.5
# A piece left once every look is done counts as an unread card face (``unread_outlines``)
# when it fills this much of its rotated rectangle and of its convex hull. On the real table
# photos of the dev set the pieces left were chips, a chip rack and a card cut by the edge,
# all ragged, and none passes.
UNREAD_FILL = 0.75
UNREAD_SOLID = 0.85
# A card read is drawn from one corner at the length of a poker card: seen at a slant, or a
# bridge card, it reaches further. Its outline is lengthened by this share at each end before
# what it covers is taken away, so that the rest of a read card is no unread face; a longer
# reach would also take the half-covered card beside it.
UNREAD_REACH = 0.25
# A piece the photo's edge cuts is a card's visible part clipped by a straight line: it fills
# less of its rotated rectangle, and may show less than half a card (a stray card lying off
# the table at the photo's edge). Such a piece counts from EDGE_LEAST card areas up to
# EDGE_MOST (larger ones are lit or pale patches of the table) when it is this convex: loose
# enough for a stray card beside a hand, whose lengthened outline takes part of its piece.
EDGE_LEAST = 0.3
EDGE_MOST = 2.5
EDGE_FILL = 0.45
EDGE_SOLID = 0.75


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
            u, v = _unit(a.u + b.u), _unit(a.v + b.v)
            candidates += [Proposal(a.p + t * (b.p - a.p), u, v, width) for t in steps]
    return _unlike(candidates, fixed)


def _opposite(frame: Proposal, length: float) -> Proposal:
    """The frame of the index corner diagonally opposite ``frame``'s on a card ``length``
    widths long."""
    p = frame.p + frame.s * frame.u + length * frame.s * frame.v
    return Proposal(p, -frame.u, -frame.v, frame.s)


def _unit(vector: np.ndarray) -> np.ndarray:
    return np.asarray(vector / max(float(np.linalg.norm(vector)), 1e-9), np.float64)


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


def unread_faces(
    mask: np.ndarray, scale: float, reads: Sequence[CornerRead], least: float = FACE_LEAST
) -> list[Proposal]:
    """Frames at the corners of the card faces that ``mask`` (the outline model's, ``scale``
    frame pixels per mask pixel) shows where no card of ``reads`` lies: the rotated rectangle
    around each uncovered piece of at least ``least`` card areas, each of its corners framed
    at the read cards' width. A face washed out by glare, or on a table as light as the cards,
    has no outline a whiteness level finds; the model still marks it, if raggedly."""
    if not reads:
        return []
    width = float(np.median([r.proposal.s for r in reads]))
    quads = [
        geometry.card_quad(r.proposal.p, r.proposal.u, r.proposal.v, r.proposal.s) for r in reads
    ]
    out: list[Proposal] = []
    for contour in _uncovered(mask, scale, quads, width, least):
        box = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64) * scale
        # Clockwise on screen (y down), as the proposals' frames: u to the next corner.
        (ax, ay), (bx, by) = box[1] - box[0], box[2] - box[1]
        if ax * by - ay * bx < 0:
            box = box[::-1]
        for i in range(4):
            p, after, before = box[i], box[(i + 1) % 4], box[i - 1]
            u, v = after - p, before - p
            out.append(Proposal(p, _unit(u), _unit(v), width))
    return out


def unread_outlines(
    mask: np.ndarray, scale: float, quads: np.ndarray, width: float | None = None
) -> np.ndarray:
    """(M, 4, 2) outlines (frame pixels) of the card faces ``mask`` shows where none of the
    cards read (``quads``, (N, 4, 2)) lies, once every look is done: uncovered pieces of at
    least ``FACE_LEAST`` card areas shaped like a card or a card's visible part (a convex
    piece filling most of its rotated rectangle, ``UNREAD_FILL`` and ``UNREAD_SOLID``), or,
    where the photo's edge cuts the piece, a convex one of ``EDGE_LEAST`` to ``EDGE_MOST``
    card areas. The model also marks chips, racks and light patches of the table, raggedly;
    those do not pass. The read cards give the size of a card; with none read, ``width``
    does (the lone cards' outlines, ``proposals.propose_corners``), and without it nothing
    is reported."""
    if len(quads):
        width = float(np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)))
    if width is None:
        return np.zeros((0, 4, 2), np.float32)
    along = (quads[:, 3] - quads[:, 0])[:, None] * np.array([-1, -1, 1, 1])[None, :, None]
    grown = quads + UNREAD_REACH * along
    card_area = geometry.CARD_ASPECT * (width / scale) ** 2
    out = []
    for contour in _uncovered(mask, scale, list(grown), width, min(FACE_LEAST, EDGE_LEAST)):
        area = cv2.contourArea(contour)
        rect = cv2.minAreaRect(contour)
        box = rect[1][0] * rect[1][1]
        hull = cv2.contourArea(cv2.convexHull(contour))
        if _at_edge(contour, mask.shape):
            shaped = EDGE_LEAST * card_area <= area <= EDGE_MOST * card_area
            shaped &= area >= EDGE_FILL * box and area >= EDGE_SOLID * hull
        else:
            shaped = area >= FACE_LEAST * card_area
            shaped &= area >= UNREAD_FILL * box and area >= UNREAD_SOLID * hull
        if shaped:
            out.append(cv2.boxPoints(rect) * scale)
    return np.array(out, np.float32).reshape(-1, 4, 2)


def _at_edge(contour: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a contour (mask pixels) reaches the border of a mask of ``shape``."""
    x, y, w, h = cv2.boundingRect(contour)
    return x <= 1 or y <= 1 or x + w >= shape[1] - 1 or y + h >= shape[0] - 1


def _uncovered(
    mask: np.ndarray, scale: float, quads: Sequence[np.ndarray], width: float, least: float
) -> list[np.ndarray]:
    """The contours (mask pixels) of the pieces of ``mask`` that no card outline of ``quads``
    (frame pixels) covers, of at least ``least`` card areas of ``width`` frame pixels."""
    cover = np.zeros_like(mask)
    for quad in quads:
        cv2.fillConvexPoly(cover, np.round(np.asarray(quad) / scale).astype(np.int32), 1)
    cover = cv2.dilate(cover, np.ones((5, 5), np.uint8))
    left = cv2.morphologyEx(mask & (1 - cover), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    card_area = geometry.CARD_ASPECT * (width / scale) ** 2
    contours, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [c for c in contours if cv2.contourArea(c) >= least * card_area]
