"""Corner reads merged into cards: one read per physical corner, then one place per card.

Reads of the same physical corner are merged, then reads of the same card: a one-deck game never
shows a card twice, so each card keeps its best-supported place.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.engine.cards import Card
from companion.vision.base import geometry
from companion.vision.base.alternatives import capped, plausible
from companion.vision.base.detections import (
    CHECK_BELOW,
    CLUES,
    COURT,
    MODELS,
    SECOND_LOOK,
    TWICE,
    UNSURE,
    Detections,
)
from companion.vision.base.geometry import SAME_CORNER
from companion.vision.corner_reads import SURE, CornerRead
from companion.vision.proposals import Proposal

__all__ = ["SPAN_ASPECT", "merge_reads"]

# Length to width of a card outline spanned by its two index corners (``_spanned``): a card is
# 1.4 (63 x 88 mm); a steep view shortens it, and a phone held over the table but turned
# stretches the cards near the photo's edge to nearly the upper bound.
SPAN_ASPECT = (0.9, 2.6)
_EVERY_READ = (MODELS, SECOND_LOOK, COURT)  # doubts a place has only when all its reads have them


def _one_suit_per_card(reads: list[CornerRead]) -> tuple[list[CornerRead], set[int]]:
    """Drop an unsure read whose rank matches a surer read at the card's opposite corner; the
    reads kept, and (``id``) those whose opposite corner was so read as another suit.

    In a revealed hand the upper card often covers the lower card's suit pip with one of its
    own, so one index corner reads "7 of hearts", unsurely, while the free one reads "7 of
    spades": the same card, whose surer read is kept. A sure read is kept: two cards of a pair
    can lie head to foot on each other. Reads arrive surest first.
    """

    def centre(q: Proposal) -> np.ndarray:
        return np.asarray(geometry.card_quad(q.p, q.u, q.v, q.s).mean(axis=0))

    kept: list[CornerRead] = []
    contested: set[int] = set()
    for read in reads:
        q = read.proposal
        rivals = [
            k
            for k in kept
            if k.card.rank == read.card.rank
            and k.card != read.card
            and float(q.u @ k.proposal.u) < -0.9  # opposite corners of one card
            and np.linalg.norm(centre(q) - centre(k.proposal)) < 0.35 * min(q.s, k.proposal.s)
        ]
        if read.confidence < SURE and rivals:
            contested.update(id(k) for k in rivals)
            continue
        kept.append(read)
    return kept, contested


@dataclass
class _Place:
    """Where a card lies: the support of all its reads, their doubts (``_place_doubts``) and
    their frames, surest first (``_outline``); its surest read (``surest``: its clues, its
    alternatives, the frame its crops were cut at)."""

    support: float
    reads: list[tuple[str, ...]]
    corners: list[Proposal]
    surest: CornerRead
    rivals: int = 0  # reads of the same card elsewhere, past the decks in play
    contested: bool = False  # its opposite corner read as another suit

    @property
    def quad(self) -> np.ndarray:
        """The outline of its surest read: the reads of a place are matched by it."""
        q = self.corners[0]
        return geometry.card_quad(q.p, q.u, q.v, q.s)


def _place_doubts(place: _Place) -> tuple[str, ...]:
    """A place's doubts. Ink against the suit: any read's (a suit misread through both
    corners shows it at both). The readers disagreeing, a second look or a court's sources
    disputing its suit: only when every read there has it, as a second corner read the same
    way by all three readers is evidence of its own."""
    doubts = [d for read in place.reads for d in read if d not in _EVERY_READ]
    doubts += [d for d in _EVERY_READ if all(d in read for read in place.reads)]
    if place.support < CHECK_BELOW:
        doubts.insert(0, UNSURE)
    if place.rivals:
        doubts.append(TWICE)
    return tuple(dict.fromkeys(doubts))


def _spanned(corners: list[Proposal]) -> np.ndarray | None:
    """The outline (4x2) between the surest read's corner and the card's opposite index
    corner, where that corner is read too; else None.

    One corner's frame gives the card's width only as well as the frame read was scaled, and
    a crop can read an index at a frame a third too small or too large: the outline drawn from
    it then covers part of the card, or more than the card. The opposite index corner is the
    other end of the card's diagonal, whatever the scale; the other two corners lie where each
    frame's edges meet the other's (in a steep view a card's opposite edges are not parallel).
    """
    first = corners[0]
    for q in corners[1:]:
        if float(first.u @ q.u) > -0.9 or float(first.v @ q.v) > -0.9:
            continue  # not the opposite corner
        along_u = _meet(first.p, first.u, q.p, q.v)  # the far end of the first frame's u edge
        along_v = _meet(first.p, first.v, q.p, q.u)
        if along_u is None or along_v is None:
            continue
        wide = float(np.linalg.norm(along_u - first.p))
        long = float(np.linalg.norm(along_v - first.p))
        if not (0.5 < wide / first.s < 2.0 and SPAN_ASPECT[0] < long / wide < SPAN_ASPECT[1]):
            continue  # the corners of two cards, or a misplaced frame
        return np.array([first.p, along_u, q.p, along_v], dtype=np.float32)
    return None


def _meet(p: np.ndarray, d: np.ndarray, q: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    """Where the ray from ``p`` along ``d`` meets the ray from ``q`` along ``e`` (both ahead
    of their origins); None when they are nearly parallel or meet behind either."""
    matrix = np.column_stack([d, -e])
    if abs(float(np.linalg.det(matrix))) < 0.1:
        return None
    t, r = np.linalg.solve(matrix, q - p)
    if t <= 0 or r <= 0:
        return None
    return np.asarray(p + t * d)


def _outline(place: _Place) -> np.ndarray:
    """A place's card outline: spanned by its two index corners where both are read."""
    spanned = _spanned(place.corners)
    return place.quad if spanned is None else spanned


def merge_reads(reads: list[CornerRead], shape: tuple[int, int], decks: int = 1) -> Detections:
    """One row per card: best read per physical corner, then best place per card (``decks``
    places per card when the game is played with that many decks)."""
    kept: list[CornerRead] = []
    for read in sorted(reads, key=lambda r: -r.confidence):
        q = read.proposal
        # The same corner proposed at another threshold or scale: keep the surest read.
        if any(
            np.linalg.norm(q.p - k.proposal.p) < SAME_CORNER * min(q.s, k.proposal.s)
            and float(q.u @ k.proposal.u) > 0.8
            for k in kept
        ):
            continue
        kept.append(read)
    places: dict[Card, list[_Place]] = {}
    merged, contested = _one_suit_per_card(kept)
    for read in merged:
        card, conf, q = read.card, read.confidence, read.proposal
        quad = geometry.card_quad(q.p, q.u, q.v, q.s)
        known = places.setdefault(card, [])
        near = [p for p in known if np.linalg.norm(quad.mean(axis=0) - p.quad.mean(axis=0)) < q.s]
        if near:
            # The card's other index corner agrees: more support, same place.
            near[0].support = 1 - (1 - near[0].support) * (1 - conf)
            near[0].reads.append(read.doubts)
            near[0].corners.append(q)
            near[0].contested |= id(read) in contested
        elif len(known) < decks:
            known.append(_Place(conf, [read.doubts], [q], read, contested=id(read) in contested))
        else:
            # One more copy than the decks hold: one of the reads is of another card, and
            # the surer copy kept may be the wrong one.
            known[-1].rivals += 1
    rows = [(card, p) for card, ps in places.items() for p in ps]
    if not rows:
        return Detections.empty()
    cards = tuple(card for card, _ in rows)
    quads = np.array([_outline(p) for _, p in rows])
    h, w = shape
    boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
    boxes = np.clip(boxes, 0, [w, h, w, h])
    doubts = tuple(_place_doubts(p) for _, p in rows)
    support = np.array([p.support for _, p in rows], np.float64)
    frames = [p.surest.frame for _, p in rows]
    p, u, v = (np.array([getattr(q, k) for q in frames]) for k in "puv")
    s = np.array([q.s for q in frames])
    # A card read without a doubt is a copy the decks hold: no other card is offered as it.
    others = plausible(
        cards, [not d for d in doubts], [p.surest.alternatives for _, p in rows], decks
    )
    return Detections(
        cards,
        support,
        boxes,
        quads,
        doubts=doubts,
        frame=(w, h),
        clues=np.array([_place_clues(p) for _, p in rows], np.float32),
        alternatives=tuple(capped(a, float(c)) for a, c in zip(others, support, strict=True)),
        index_quads=geometry.extent_quads(p, u, v, s, geometry.CORNER),
        face_quads=geometry.extent_quads(p, u, v, s, geometry.FACE),
    )


def _place_clues(place: _Place) -> list[float]:
    """``detections.CLUES`` of a place: its surest read's, then its opposite corner's."""
    read = list(place.surest.clues) or [float("nan")] * (len(CLUES) - 1)
    return [*read, -1.0 if place.contested else float(len(place.corners) > 1)]
