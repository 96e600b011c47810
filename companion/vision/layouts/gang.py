"""The Gang table on a photo: the river (a row of up to five) and hands (clusters of the rest)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from companion.vision.layouts.expect import Expect, Fit
from companion.vision.layouts.gaps import Gap, table_gaps
from companion.vision.layouts.places import SeenCard, card_width, seen_cards

if TYPE_CHECKING:  # types only: grouping positions needs no model
    from companion.vision.base.detections import Detections

__all__ = ["Grouping", "group_table"]

# Cards of one hand overlap (centres closer than this many card widths); river cards lie side
# by side, about one card width or more apart.
HAND_LINK = 0.85
# Two lone cards left outside the river this close together are one hand laid loosely, or one
# whose centres were read off (a card's centre is drawn from one index corner; measured on the
# dev set: 0.09 card widths off at the median, 0.2 at the 90th percentile, 0.4 at the 99th).
PAIR_LINK = 1.5
# Told the number of hands, hands past it join up when this near, closest first, as long as
# they hold no more cards together than a hand: a hand's two cards read with their centres off
# (a frame a third too wide on a steep view, or one cut by a neighbour) lay 1.7-2.0 card widths
# apart on the hard synthetic tables, where a lone card was otherwise set aside as stray and
# its hand left short; a cascade of four cards with a card between unread falls apart in two.
# Cards cut by the photo's edge are stray before this.
PAIR_REACH = 2.0
# A row: every centre within ROW_RESIDUAL card widths of the fitted line, neighbours between
# ROW_MIN_GAP and ROW_MAX_GAP card widths apart (a missed river card still leaves a row).
ROW_RESIDUAL = 0.45
ROW_MIN_GAP = 0.65
ROW_MAX_GAP = 2.8
# A river of five may take up to this many cards that lie close to another card (a hand
# dropped against the river, or two river cards laid nearly touching).
ROW_BORROW = 2
# Past that, any cards laid parallel may make the row, on photos of up to this many cards (the
# rows tried grow as the fifth power of the cards). Parallel: the mean of exp(4i angle) over the
# row's cards at least ROW_ALIGNED (0.9: edges within about 10 degrees). Such a row's cards may
# lie ROW_TOUCHING_GAP apart: river cards laid touching lie a card width apart, but a centre
# drawn from one corner's frame can be off by a fifth of a width or more (touching rows read
# 0.53-0.65 apart at their closest on the hard synthetic tables). Not in the rows before it:
# there, a hand's two cards borrowed into a river of lone cards pass at 0.5.
ROW_SEARCH_MAX = 18
ROW_ALIGNED = 0.9
ROW_TOUCHING_GAP = 0.5
# A card whose outline reaches within this many card widths of the photo's edge (or past it) is
# cut by it: a lone one lies off the table (a card dropped, a neighbour's table), not in a
# player's hand. Its outline is drawn from the corner read, whose frame can come from the cut
# outline's own edges and stop at the edge (hard synthetic set: 42 -> 41 silent errors at
# 0.02 inside the edge against 0.15 past it).
EDGE_CUT = -0.02


@dataclass(frozen=True, slots=True)
class Grouping:
    """Cards split into the river (a row of five) and the hands, with a confidence in 0..1.

    ``stray``: cards read but not in play (away from the table's layout, or one hand too many
    for the ``expect``-ed table). With an ``Expect``, ``missing`` and ``extra`` count the cards
    short and over per place (``Fit``: the river, then each expected hand in ``hands`` order; a
    hand not found counts all its cards missing); without one they are None. ``gaps``: where
    the cards ``missing`` counts should lie on the photo, a ``Gap`` per place short of cards
    (none without an ``Expect``).
    """

    river: tuple[SeenCard, ...]
    hands: tuple[tuple[SeenCard, ...], ...]
    confidence: float
    stray: tuple[SeenCard, ...] = ()
    missing: Fit | None = None
    extra: Fit | None = None
    gaps: tuple[Gap, ...] = ()

    @property
    def misfit(self) -> int:
        """Cards missing, over and stray against the expected table (0 without an ``Expect``)."""
        missing, extra = self.missing, self.extra
        if missing is None or extra is None:
            return 0
        over = extra.river + sum(extra.hands)
        return missing.river + sum(missing.hands) + over + len(self.stray)

    @property
    def fits(self) -> bool:
        """True when nothing is missing, over or stray (always False without an ``Expect``)."""
        return self.missing is not None and not self.missing and not self.extra and not self.stray


def _components(centres: np.ndarray, link: float) -> list[list[int]]:
    n = len(centres)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if np.linalg.norm(centres[i] - centres[j]) < link:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _row_scores(points: np.ndarray, width: float, min_gap: float = ROW_MIN_GAP) -> np.ndarray:
    """Straightness of rows of centres (K, M, 2), lower is better; inf where not a row."""
    centred = points - points.mean(axis=1, keepdims=True)
    vt = np.linalg.svd(centred)[2]  # (K, 2, 2): the row's direction, then its normal
    residual = np.abs(np.einsum("kmd,kd->km", centred, vt[:, 1])).max(axis=1) / width
    along = np.sort(np.einsum("kmd,kd->km", centred, vt[:, 0]), axis=1)
    gaps = np.diff(along, axis=1) / width
    ok = (
        (residual <= ROW_RESIDUAL)
        & (gaps.max(axis=1) <= ROW_MAX_GAP)
        & (gaps.min(axis=1) >= min_gap)
    )
    return np.where(ok, residual + 0.1 * (gaps.max(axis=1) - gaps.min(axis=1)), np.inf)


def _best_row(
    candidates: list[tuple[int, ...]],
    centres: np.ndarray,
    width: float,
    min_gap: float = ROW_MIN_GAP,
) -> tuple[int, ...] | None:
    if not candidates:
        return None
    scores = _row_scores(centres[np.array(candidates)], width, min_gap)
    best = int(np.argmin(scores))
    return candidates[best] if np.isfinite(scores[best]) else None


def _parallel(rows: list[tuple[int, ...]], turns: np.ndarray) -> list[tuple[int, ...]]:
    """The rows whose cards lie parallel (edges within ROW_TURN of each other, modulo a
    quarter turn): river cards are laid square to the row, hands at any angle."""
    if not rows:
        return rows
    phase = np.exp(4j * turns[np.array(rows)])  # a quarter turn is a full period
    return [r for r, ok in zip(rows, np.abs(phase.mean(axis=1)) >= ROW_ALIGNED, strict=True) if ok]


def _find_river(
    clusters: list[list[int]],
    centres: np.ndarray,
    width: float,
    size: int = 5,
    turns: np.ndarray | None = None,
    aligned: bool = True,
) -> tuple[int, ...]:
    """The straightest row of ``size`` lone cards; else of ``size`` borrowing a clustered card
    or two; else, when the cards' ``turns`` (radians) are known, of any cards laid parallel
    (river cards laid nearly touching pair up as "hands": two pairs in one river once left no
    row at all; not ``aligned``: of any cards), and of cards laid parallel whose neighbours
    lie as near as ``ROW_TOUCHING_GAP`` (a river laid touching, its centres read off); else a
    row of one or two cards fewer, of lone cards (a river card missed)."""
    if size == 0:
        return ()
    lone = [c[0] for c in clusters if len(c) == 1]
    clustered = [i for c in clusters if len(c) > 1 for i in c]

    def borrowing(ks: range) -> list[tuple[int, ...]]:
        return [
            a + b
            for k in ks
            for b in combinations(clustered, k)
            for a in combinations(lone, size - k)
        ]

    row = _best_row(list(combinations(lone, size)), centres, width)
    few: list[tuple[int, ...]] = []
    if row is None:
        few = borrowing(range(1, ROW_BORROW + 1))
        row = _best_row(few, centres, width)
    if row is None and turns is not None and len(centres) <= ROW_SEARCH_MAX:
        rows = borrowing(range(ROW_BORROW + 1, size + 1))
        if aligned:
            rows = _parallel(rows, turns)
        row = _best_row(rows, centres, width)
        if row is None and aligned:
            # The same parallel rows, borrowing any number of cards, in the same order.
            touching = _parallel(few, turns) + rows
            row = _best_row(touching, centres, width, ROW_TOUCHING_GAP)
    for fewer in (size - 1, size - 2):
        if row is None and fewer >= 3:
            row = _best_row(list(combinations(lone, fewer)), centres, width)
    return row or ()


def _join_hands(
    hands: list[list[int]], centres: np.ndarray, reach: float, size: int, most: int
) -> list[list[int]]:
    """Hands joined two at a time, the two whose nearest cards lie closest first, while those
    lie nearer than ``reach`` and the two hold no more than ``size`` cards together; at most
    ``most`` joins (with ``size`` 2: lone cards paired, closest first)."""
    hands = [list(h) for h in hands]
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    for _ in range(most):
        joins = [
            (float(apart[np.ix_(a, b)].min()), i, j)
            for (i, a), (j, b) in combinations(enumerate(hands), 2)
            if len(a) + len(b) <= size
        ]
        if not joins or min(joins)[0] >= reach:
            break
        _, i, j = min(joins)
        hands[i] = sorted(hands[i] + hands.pop(j))
    return hands


def _cut_by_edge(detections: Detections, width: float) -> np.ndarray:
    """(N,) True where a card's outline reaches the photo's edge (none when its size is
    unknown)."""
    w, h = detections.frame
    if w <= 0 or h <= 0:
        return np.zeros(len(detections), bool)
    quads = detections.quads.astype(np.float64)
    margin = EDGE_CUT * width
    low = quads.min(axis=1) < -margin
    high = quads.max(axis=1) > np.array([w, h]) + margin
    return np.asarray((low | high).any(axis=1))


def _surplus_hands(
    hands: list[list[int]], centres: np.ndarray, expect: Expect
) -> tuple[list[list[int]], list[int]]:
    """The expected number of hands, and the cards of the hands past it: the smallest hands,
    farthest from the table's middle first (a card dropped, a neighbour's)."""
    if len(hands) <= expect.hands:
        return hands, []
    middle = centres.mean(axis=0)
    ranked = sorted(
        range(len(hands)),
        key=lambda h: (len(hands[h]), -float(np.linalg.norm(centres[hands[h]].mean(0) - middle))),
    )
    surplus = set(ranked[: len(hands) - expect.hands])
    kept = [h for i, h in enumerate(hands) if i not in surplus]
    return kept, sorted(i for h in surplus for i in hands[h])


def _fits(river: int, hands: list[int], expect: Expect) -> tuple[Fit, Fit]:
    """Cards missing and over, per place, against ``expect``."""
    sizes = hands + [0] * (expect.hands - len(hands))
    missing = Fit(max(0, expect.river - river), tuple(max(0, expect.per_hand - n) for n in sizes))
    extra = Fit(max(0, river - expect.river), tuple(max(0, n - expect.per_hand) for n in sizes))
    return missing, extra


def group_table(detections: Detections, expect: Expect | None = None) -> Grouping:
    """River = the straightest row of up to five cards (``_find_river``); hands = clusters of
    the others, lone cards paired when close. Distances are in card widths of the reads.
    A lone card cut by the photo's edge is ``stray``. With ``expect``, hands past the expected
    number become ``stray`` too and what does not fit is counted in ``missing`` and
    ``extra``."""
    if len(detections) == 0:
        if expect is None:
            return Grouping((), (), 0.0)
        missing, extra = _fits(0, [], expect)
        # No card read: each place short of cards could be anywhere.
        gaps = table_gaps(missing, (), (), np.zeros((0, 4, 2)), 1.0, 0.0)
        return Grouping((), (), 0.0, (), missing, extra, gaps)
    grouping = _grouped(detections, expect)
    if expect is None or grouping.fits or len(detections) > ROW_SEARCH_MAX:
        return grouping
    # In a steep view the outlines of cards in one row turn by more than ROW_ALIGNED allows:
    # told the layout, a row of any cards is taken where the table then fits it better.
    loose = _grouped(detections, expect, aligned=False)
    return loose if loose.misfit < grouping.misfit else grouping


def _grouped(detections: Detections, expect: Expect | None, aligned: bool = True) -> Grouping:
    """``group_table`` of a frame with cards, its river's row of parallel cards (``aligned``)
    or of any cards."""
    centres = detections.centres.astype(np.float64)
    # The read outlines' width, not the lone-card outlines the proposals measure: one of those
    # can be two river cards touching, and the reads' frames were confirmed by the reader.
    width = card_width(detections)
    clusters = _components(centres, HAND_LINK * width)
    edges = detections.quads[:, 1] - detections.quads[:, 0]
    turns = np.arctan2(edges[:, 1], edges[:, 0]).astype(np.float64)
    size = 5 if expect is None else expect.river
    river = _find_river(clusters, centres, width, size, turns, aligned)
    # River cards in reading order along the row.
    if river:
        pts = centres[list(river)]
        direction = np.linalg.svd(pts - pts.mean(axis=0))[2][0]
        if abs(direction[0]) < abs(direction[1]):
            direction = direction if direction[1] > 0 else -direction
        else:
            direction = direction if direction[0] > 0 else -direction
        river = tuple(sorted(river, key=lambda i: float(centres[i] @ direction)))
    hands = [sorted(set(c) - set(river)) for c in clusters if set(c) - set(river)]
    hands = _join_hands(hands, centres, PAIR_LINK * width, 2, len(hands))
    # A lone card cut by the photo's edge is off the table, even where a hand is short (its
    # cards missed); a hand of two there is a player's, seated at the edge of the picture.
    cut = _cut_by_edge(detections, width)
    stray = [h[0] for h in hands if len(h) == 1 and cut[h[0]]]
    hands = [h for h in hands if not (len(h) == 1 and cut[h[0]])]
    if expect is not None and expect.per_hand >= 2 and len(hands) > expect.hands:
        hands = _join_hands(
            hands, centres, PAIR_REACH * width, expect.per_hand, len(hands) - expect.hands
        )
    hands.sort(key=lambda c: (float(centres[c].mean(axis=0)[1]), float(centres[c].mean(axis=0)[0])))
    if expect is not None:
        hands, surplus = _surplus_hands(hands, centres, expect)
        stray += surplus
    seen = seen_cards(detections)
    confidence = float(np.mean(detections.confidence))
    if len(river) != (5 if expect is None else expect.river):
        confidence *= 0.4
    if any(len(h) != (2 if expect is None else expect.per_hand) for h in hands):
        confidence *= 0.6
    missing: Fit | None = None
    extra: Fit | None = None
    gaps: tuple[Gap, ...] = ()
    if expect is not None:
        missing, extra = _fits(len(river), [len(h) for h in hands], expect)
        quads = np.asarray(detections.quads, np.float64)
        # A hand's cards lie up to PAIR_REACH apart, as told the hands they are joined.
        reach = PAIR_REACH * width
        gaps = table_gaps(missing, river, hands, quads, width, reach, detections.frame)
    return Grouping(
        tuple(seen[i] for i in river),
        tuple(tuple(seen[i] for i in h) for h in hands),
        round(confidence, 3),
        tuple(seen[i] for i in stray),
        missing,
        extra,
        gaps,
    )
