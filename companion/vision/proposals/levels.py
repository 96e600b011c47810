"""Candidate card corners from card outlines: the whiteness levels, and the outline model's mask.

Cards are the brightest, least coloured things on a table. A white-balanced "whiteness" map of a
shrunken frame is thresholded at several levels (one level never suits every light), and the
outlines are simplified to polygons. Every convex, roughly square polygon corner is a candidate
card corner, seen in the card's own frame (``geometry``). Overlapping cards still show their free
corners on the outline of their union, which is why corners, not whole cards, are read.
Where a light table, glare or touching cards defeat every level, the outline model
(``outlines``) adds its learned card mask, cut into pieces like the seamed masks.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

__all__ = [
    "PAPER_MIN",
    "CardMask",
    "Proposal",
    "first_of_alike",
    "frame_table",
    "paper_whiteness",
    "propose_corners",
    "typical_width",
    "work_factor",
]

WORK_SIZE = 1000  # long side of the frame the outlines are found on
MIN_CARD_FRACTION = 0.02  # smallest card width, as a fraction of the work frame's long side
TYPICAL_SPREAD = 0.5  # lone-card outlines under this fraction of the widest are parts of cards
LONG_SIDE = 1.45  # card height / width used to turn a long edge into a width estimate
TOUCHING_MAX = 7  # most cards laid touching in one row whose hidden corners are proposed
TOUCHING_SLACK = 0.15  # how far (in card widths) a row's cards may be from the typical width
TOUCHING_ROW = 0.15  # how far (in card lengths) the row's other edge may be from one card length
# Seamed masks (``_seamed``): whiteness levels (otsu..top, as ``_masks``; the local mask is
# cut too), Canny thresholds of the seams on the whiteness map, and which pieces count
# (``_card_pieces``): an area of 0.4-2.6 typical cards (one card, or two still joined) filling
# 0.7 of its convex hull: the touching cards' corners, for far fewer proposals than every piece.
SEAMS = True  # whether the seamed masks are made at all
SEAM_LEVELS = (0.35,)
SEAM_EDGE_LOW, SEAM_EDGE_HIGH = 30, 90
SEAM_AREA = (0.4, 2.6)
SEAM_CONVEX = 0.7
# How much of a lone card's outline the outline model must see as card face for its width to
# count (``_is_card_face``).
FACE_COVER = 0.5
# With the outline model, a frame whose index crop the mask does not touch (under a tenth of
# the crop's sample grid on a card face) is left out before any crop is cut: on light, grainy
# wood most proposals lie on the grain, and all were read as no index.
FACE_MIN = 0.1
# A frame whose index crop shows no card paper is read as "no index" and leaves no mark: the
# frames are dropped before any crop is cut. The paper's whiteness (``paper_whiteness``) is
# measured against the frame's card white (``_top_whiteness``); this lies with a margin under
# that of every card read on rendered training scenes.
PAPER_MIN = 0.3
# Where the paper is sampled, in card widths from the corner: inside the index crop
# (``geometry.CROP_X``, ``geometry.CROP_Y``), a 4 x 6 grid.
_GRID_U, _GRID_V = (
    g.ravel() for g in np.meshgrid(np.linspace(0.03, 0.31, 4), np.linspace(0.03, 0.46, 6))
)


# The outline model reads the work frame while the whiteness levels are found on it:
# onnxruntime and OpenCV both release the GIL, so the two overlap. Two workers: a photo may
# be read while the live reader reads a frame.
_ALONGSIDE: ThreadPoolExecutor


def _fresh_workers() -> None:
    global _ALONGSIDE
    _ALONGSIDE = ThreadPoolExecutor(max_workers=2, thread_name_prefix="card-mask")


_fresh_workers()
# A forked child has none of its parent's threads: work queued on their executor would wait
# forever (the ``patches`` pool forks after the parent may have read a frame).
os.register_at_fork(after_in_child=_fresh_workers)


class CardMask(Protocol):
    """What ``propose_corners`` needs of the outline model (``outlines.OutlineModel``)."""

    def card_mask(self, image: np.ndarray, size: tuple[int, int]) -> np.ndarray: ...


@dataclass(frozen=True)
class Proposal:
    """A candidate card corner in full-resolution pixels (see ``geometry``)."""

    p: np.ndarray
    u: np.ndarray
    v: np.ndarray
    s: float


def _whiteness(small: np.ndarray) -> np.ndarray:
    """High where a pixel is bright and grey after a white-patch colour balance."""
    bright = np.percentile(small[::4, ::4].reshape(-1, 3), 99.5, axis=0)
    gain = np.clip(bright.max() / np.maximum(bright, 1.0), 1.0, 2.5)
    img = cv2.transform(small, np.diag(gain))  # saturating uint8 per-channel gain
    b, g, r = cv2.split(img)
    lo, hi = cv2.min(cv2.min(b, g), r), cv2.max(cv2.max(b, g), r)
    return cv2.addWeighted(lo, 1.5, hi, -0.5, 0)  # lo - 0.5 (hi - lo), clipped to 0..255


def _top_whiteness(white: np.ndarray) -> float:
    """The whiteness of the frame's card paper: cards are its whitest things."""
    return float(np.percentile(white[::4, ::4], 99.5))


def paper_whiteness(white: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """How white the paper in each frame's index crop is: the 80th percentile of the whiteness
    map sampled on a grid inside the crop (``frames`` rows: px, py, ux, uy, vx, vy, s in the
    map's pixels). A grid of points, not a cut crop: one lookup for every frame at once."""
    if len(frames) == 0:
        return np.zeros(0)
    return np.asarray(np.percentile(_grid_samples(white, frames), 80, axis=1))


def _grid_samples(plane: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """``plane`` (a map of the work frame) sampled on the grid inside each frame's index
    crop: one row per frame, float64."""
    if len(frames) == 0:
        return np.zeros((0, len(_GRID_U)))
    p, u, v, s = frames[:, None, 0:2], frames[:, None, 2:4], frames[:, None, 4:6], frames[:, 6]
    points = p + s[:, None, None] * (_GRID_U[None, :, None] * u + _GRID_V[None, :, None] * v)
    points = points.astype(np.float32)
    samples = cv2.remap(
        plane, points[:, :, 0], points[:, :, 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(samples, np.float64)


def _masks(white: np.ndarray, otsu: float, top: float) -> list[np.ndarray]:
    """Card masks at several whiteness levels between the map's Otsu level and its card white
    ``top`` (``_top_whiteness``), plus one relative to the local surroundings (the last).

    Otsu splits the frame into its two largest populations, which on a light table are "table
    and cards" against the floor; the higher levels separate cards from a light table, and the
    local mask (brighter than the neighbourhood by a margin) does so when light is uneven.
    """
    levels = {round(otsu - 25)} | {round(otsu + f * (top - otsu)) for f in (0, 0.35, 0.6, 0.8)}
    masks: list[np.ndarray] = [
        (white > t).astype(np.uint8) for t in sorted(levels) if 40 <= t < top
    ]
    block = (max(white.shape) // 6) | 1
    masks.append(
        cv2.adaptiveThreshold(white, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -15)
    )
    return masks


def _seamed(white: np.ndarray, otsu: float, top: float, local: np.ndarray) -> list[np.ndarray]:
    """Card masks cut along the frame's edges: cards laid touching (a river) make one blob at
    every whiteness level, and the shadow or seam between two of them is an edge. Cut there,
    each card has its own outline, with the corners the blob hides. The masks: the levels
    ``SEAM_LEVELS`` and ``local``, the mask relative to the surroundings (``_masks``'s last),
    which holds the cards where glare or shade sets the levels wrong. Not closed afterwards
    (``propose_corners``): closing would fill the cuts again."""
    if not SEAMS:
        return []
    edges = cv2.Canny(cv2.GaussianBlur(white, (3, 3), 0), SEAM_EDGE_LOW, SEAM_EDGE_HIGH)
    apart = cv2.dilate(edges, np.ones((3, 3), np.uint8)) == 0
    levels = [
        white > otsu + f * (top - otsu) for f in SEAM_LEVELS if 40 <= otsu + f * (top - otsu) < top
    ]
    return [(mask & apart).astype(np.uint8) for mask in [*levels, local > 0]]


def _polygon_corners(poly: np.ndarray, min_edge: float) -> list[tuple[float, ...]]:
    """Convex, near-square corners of a polygon: (px, py, ux, uy, vx, vy, |u-edge|, |v-edge|).

    Plain floats, not arrays: a frame's polygons have a handful of vertices each and there are
    dozens of polygons, so array calls would cost more than the arithmetic.
    """
    pts = poly.reshape(-1, 2).astype(np.float64).tolist()
    n = len(pts)
    # Positive shoelace sum = clockwise on screen (y down): TL -> TR -> BR -> BL.
    if sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n)) < 0:
        pts = pts[::-1]
    out: list[tuple[float, ...]] = []
    for i in range(n):
        (x, y), (xn, yn), (xp, yp) = pts[i], pts[(i + 1) % n], pts[i - 1]
        ax, ay, bx, by = xn - x, yn - y, xp - x, yp - y  # to the next and the previous vertex
        la, lb = math.hypot(ax, ay), math.hypot(bx, by)
        # Long enough edges, convex (not reflex), and near a right angle.
        if (
            la < min_edge
            or lb < min_edge
            or ax * by - ay * bx <= 0
            or abs((ax * bx + ay * by) / (la * lb)) > 0.5
        ):
            continue
        out.append((x, y, ax / la, ay / la, bx / lb, by / lb, la, lb))
    return out


def _refine(contour: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Polygon corners moved to the crossings of lines fitted to each edge's outline points.

    Cards have rounded corners, so the simplified polygon's vertices sit on the arcs, inside
    the sharp corner the crops are measured from; fitted edge lines cross at the sharp corner.
    """
    pts = contour.reshape(-1, 2)
    verts = poly.reshape(-1, 2)
    n = len(verts)
    if n < 3:
        return poly
    # The polygon's vertices are outline points: find where each one first appears.
    keys = pts[:, 0].astype(np.int64) * 65536 + pts[:, 1]
    same = keys[None, :] == (verts[:, 0].astype(np.int64) * 65536 + verts[:, 1])[:, None]
    if not same.any(axis=1).all():
        return poly
    idx = same.argmax(axis=1).tolist()
    corners = verts.astype(np.float64).tolist()  # floats, as in _polygon_corners
    lines = []
    for k in range(n):
        a, b = idx[k], idx[(k + 1) % n]
        seg = pts[a : b + 1] if a <= b else np.concatenate([pts[a:], pts[: b + 1]])
        if len(seg) >= 8:
            cut = len(seg) // 5
            seg = seg[cut : len(seg) - cut]
        if len(seg) < 2:
            seg = np.array([verts[k], verts[(k + 1) % n]])
        lines.append(
            cv2.fitLine(seg.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01)
            .ravel()
            .astype(np.float64)
            .tolist()
        )
    out = [list(c) for c in corners]
    for k in range(n):
        (dx1, dy1, x1, y1), (dx2, dy2, x2, y2) = lines[k - 1], lines[k]
        det = dx1 * (-dy2) - dy1 * (-dx2)
        if abs(det) < 0.3:  # nearly parallel edges: keep the vertex
            continue
        t = ((x2 - x1) * (-dy2) - (y2 - y1) * (-dx2)) / det
        cx, cy = x1 + t * dx1, y1 + t * dy1
        (vx, vy), (wx, wy) = corners[k], corners[k - 1]
        if math.hypot(cx - vx, cy - vy) < 0.25 * math.hypot(vx - wx, vy - wy):
            out[k] = [cx, cy]
    return np.array(out, np.float64).reshape(-1, 1, 2)


def _along_touching(raw: list[tuple[float, ...]], typical: float | None) -> list[tuple[float, ...]]:
    """The corners hidden along the edge of cards laid touching in a row (a river): their
    union is one outline whose long edge spans several card widths, with no polygon corner
    where one card meets the next. Each card's index corner lies a whole number of card widths
    along that edge from the outline's corner, in the same frame: the edge is cut evenly into
    as many cards as fit (touching cards, or nearly)."""
    out: list[tuple[float, ...]] = []
    for x, y, ux, uy, vx, vy, la, lb in raw:
        width = typical if typical is not None else lb / LONG_SIDE
        cards = round(la / width)
        if (
            cards < 2
            or cards > TOUCHING_MAX
            or abs(la / cards - width) > TOUCHING_SLACK * width
            or abs(lb - LONG_SIDE * width) > TOUCHING_ROW * LONG_SIDE * width
        ):
            continue
        step = la / cards
        out += [
            (x + j * step * ux, y + j * step * uy, ux, uy, vx, vy, step, lb)
            for j in range(1, cards)
        ]
    return out


_Piece = tuple[float, float, np.ndarray, np.ndarray]  # area, hull area, outline, polygon


def _card_pieces(
    pieces: list[_Piece], typical: float | None, min_width: float
) -> list[tuple[float, ...]]:
    """The corners of the seamed masks' pieces (area, hull area, outline, polygon) that may be
    a card (or two still joined): about as large as cards of the typical width, and nearly
    convex. Cut along every edge, a card's face also falls apart into pips and pictures, and
    glare and a light table into ragged blobs: those are left out (speed). As on every
    outline, a corner's edges must be a quarter of ``min_width`` (the least card width)."""
    out: list[tuple[float, ...]] = []
    for area, hull_area, outline, poly in pieces:
        if area < SEAM_CONVEX * hull_area:
            continue
        if typical is not None and not (
            SEAM_AREA[0] < area / (LONG_SIDE * typical * typical) < SEAM_AREA[1]
        ):
            continue
        out += _polygon_corners(_refine(outline, poly), 0.25 * min_width)
    return out


def _is_card_quad(poly: np.ndarray) -> float | None:
    """Card width when the polygon is a lone card (4 right-ish corners, card proportions)."""
    pts = poly.reshape(-1, 2).astype(np.float64)
    if len(pts) != 4 or not cv2.isContourConvex(pts.astype(np.float32)):
        return None
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    short, long = min(short, long), max(short, long)
    if not 1.2 < long / max(short, 1e-6) < 1.75:
        return None
    return float(short)


def _is_card_face(learned: np.ndarray | None, poly: np.ndarray) -> bool:
    """Whether the outline model (its mask ``learned``; None: no model, no say) sees a card
    face over most of a card-shaped outline: a pale board on a darker floor is card-shaped
    too, and taken for a card it made every corner be read at the board's width."""
    if learned is None:
        return True
    x, y, w, h = cv2.boundingRect(poly)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillPoly(inside, [poly.reshape(-1, 2) - [x, y]], 1)
    seen = learned[y : y + h, x : x + w][inside > 0]
    return bool(seen.size) and float(seen.mean()) >= FACE_COVER


def typical_width(widths: list[float]) -> float | None:
    """The median width of the lone-card outlines, leaving out the much smaller ones.

    At the higher whiteness levels the light parts of a card's face (a court's robe, the
    paper between pips) can come out as card-shaped blobs of their own; on a table of court
    cards they once outnumbered the cards, and a third of the cards' width became the scale
    every corner was read at. Cards on one table differ in size by far less than half.
    """
    if not widths:
        return None
    sizes = np.array(widths)
    return float(np.median(sizes[sizes >= TYPICAL_SPREAD * sizes.max()]))


def frame_table(frames: list[Proposal]) -> np.ndarray:
    """``frames`` as the rows (px, py, ux, uy, vx, vy, s) that ``first_of_alike`` takes."""
    if not frames:
        return np.zeros((0, 7))
    return np.column_stack(
        [
            np.array([q.p for q in frames], np.float64),
            np.array([q.u for q in frames], np.float64),
            np.array([q.v for q in frames], np.float64),
            np.array([q.s for q in frames], np.float64),
        ]
    )


def first_of_alike(
    frames: np.ndarray, near: float = 0.06, turn: float = 0.98, spread: float = 0.1, fixed: int = 0
) -> np.ndarray:
    """Rows of ``frames`` (px, py, ux, uy, vx, vy, s) not alike an earlier row kept.

    A row is alike an earlier one that lies within ``near`` of its width, points the same way
    (``u`` dot product above ``turn``) and has a width within ``spread`` of its own: their
    crops would be alike. The first ``fixed`` rows are kept as they are (frames already read).
    Only pairs whose x are that close are tested: a frame has hundreds of rows.
    """
    n = len(frames)
    x, y, ux, uy, s = frames[:, 0], frames[:, 1], frames[:, 2], frames[:, 3], frames[:, 6]
    order = np.argsort(x, kind="stable")
    reach = near * s * 1.001 + 1e-9  # a little wider than the test: the test decides
    lo = np.searchsorted(x[order], x - reach, "left")
    hi = np.searchsorted(x[order], x + reach, "right")
    count = hi - lo
    later = np.repeat(np.arange(n), count)
    start = np.repeat(lo - np.concatenate([[0], np.cumsum(count)[:-1]]), count)
    earlier = order[np.arange(int(count.sum())) + start]
    pair = (earlier < later) & (later >= fixed)
    later, earlier = later[pair], earlier[pair]
    alike = (
        (np.hypot(x[earlier] - x[later], y[earlier] - y[later]) < near * s[later])
        & (ux[earlier] * ux[later] + uy[earlier] * uy[later] > turn)
        & (np.abs(s[earlier] - s[later]) < spread * s[later])
    )
    later, earlier = later[alike], earlier[alike]
    keep = np.ones(n, bool)
    if len(later):  # pairs come grouped by the later row, in row order
        starts = np.flatnonzero(np.concatenate([[True], np.diff(later) != 0]))
        ends = np.append(starts[1:], len(later))
        for i, a, b in zip(later[starts].tolist(), starts.tolist(), ends.tolist(), strict=True):
            if keep[earlier[a:b]].any():
                keep[i] = False
    return np.flatnonzero(keep)


def work_factor(shape: tuple[int, ...], work_size: int = WORK_SIZE) -> float:
    """The shrink (at most 1) from a frame of ``shape`` to the work frame the outlines, and the
    outline model's card mask, are found on: ``work_size`` pixels on its long side."""
    return min(1.0, work_size / max(shape[:2]))


def propose_corners(
    image: np.ndarray,
    work_size: int = WORK_SIZE,
    paper_min: float = PAPER_MIN,
    outlines: CardMask | None = None,
) -> tuple[list[Proposal], float | None]:
    """Candidate card corners (full-resolution pixels) and the typical card width, if seen.

    The outlines are found on a copy shrunk to ``work_size`` pixels on its long side (smaller
    is faster; a card must stay ``MIN_CARD_FRACTION`` of it wide); frames whose index crop
    shows paper under ``paper_min`` of the card white are left out (0: none is). ``outlines``
    (the outline model) adds the outlines of its card mask to the whiteness levels'."""
    factor = work_factor(image.shape, work_size)
    small = image
    if factor < 1.0:
        # Area averaging is the anti-aliased shrink, but slow at a fractional factor; when each
        # work pixel spans under two frame pixels, bilinear sampling loses nothing the outlines
        # need.
        mild = factor > 0.5
        small = cv2.resize(
            image,
            None,
            fx=factor,
            fy=factor,
            interpolation=cv2.INTER_LINEAR if mild else cv2.INTER_AREA,
        )
    size = (small.shape[1], small.shape[0])
    pending = None if outlines is None else _ALONGSIDE.submit(outlines.card_mask, small, size)
    white = _whiteness(small)
    min_width = MIN_CARD_FRACTION * max(small.shape[:2])
    close, open_ = np.ones((5, 5), np.uint8), np.ones((3, 3), np.uint8)
    raw: list[tuple[float, ...]] = []
    widths: list[float] = []
    otsu, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    top = _top_whiteness(white)
    masks = _masks(white, otsu, top)
    seamed_masks = _seamed(white, otsu, top, masks[-1])
    levels = [(mask, False) for mask in masks] + [(mask, True) for mask in seamed_masks]
    learned = None
    if pending is not None:
        # Its seams between cards must stay open as well, and a pale table can still come out
        # in card-white patches: its pieces too must be card-sized and nearly convex.
        learned = pending.result()
        levels.append((learned, True))
    pieces: list[_Piece] = []  # of the seamed masks and the outline model's
    for mask, seamed in levels:
        # Closing fills the notches that index glyphs near the card edge cut into the mask.
        if not seamed:
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, close)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, open_)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < 0.8 * min_width * min_width:
                continue
            shapes = [contour]
            hull = cv2.convexHull(contour)
            hull_area = cv2.contourArea(hull)
            if area > 0.9 * hull_area:  # a lone card, maybe with a ragged edge
                shapes.append(hull)
            for outline in shapes:
                poly = cv2.approxPolyDP(outline, max(1.5, 0.04 * math.sqrt(area)), True)
                if seamed:  # its corners only, once the typical width is known
                    pieces.append((area, hull_area, outline, poly))
                    continue
                card_w = _is_card_quad(poly)
                # A card-shaped outline on the frame's border is the table (a light one
                # passes the levels whole) or a card cut by the edge, not a lone card.
                x, y, bw, bh = cv2.boundingRect(poly)
                inside = (
                    x > 1 and y > 1 and x + bw < white.shape[1] - 2 and y + bh < white.shape[0] - 2
                )
                if card_w is not None and inside and _is_card_face(learned, poly):
                    widths.append(card_w)
                raw += _polygon_corners(_refine(outline, poly), 0.25 * min_width)
    typical = typical_width(widths)
    raw += _along_touching(raw, typical)
    raw += _card_pieces(pieces, typical, min_width)
    frames: list[tuple[float, ...]] = []  # px, py, ux, uy, vx, vy, s: each scale of each corner
    for *corner, la, lb in raw:
        scales = [la, lb / LONG_SIDE]
        if typical is not None:
            # Lone cards fix the scale; an edge-based width only adds a read when it differs.
            scales = [typical] + [
                s
                for s in scales
                if 0.6 * typical < s < 1.6 * typical and abs(s - typical) > 0.2 * typical
            ]
        frames += [(*corner, s) for s in scales if s >= min_width]
    table = np.array(frames, np.float64).reshape(-1, 7)
    if paper_min > 0:
        table = table[paper_whiteness(white, table) >= paper_min * top]
    if learned is not None:
        table = table[_grid_samples(learned.astype(np.float32), table).mean(axis=1) >= FACE_MIN]
    proposals = [
        Proposal(np.array([x, y]) / factor, np.array([ux, uy]), np.array([vx, vy]), s / factor)
        for x, y, ux, uy, vx, vy, s in table[first_of_alike(table)].tolist()
    ]
    return proposals, (typical / factor if typical is not None else None)
