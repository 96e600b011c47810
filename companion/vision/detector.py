"""Read every card on a table: corner proposals from the card outlines, a learned index reader.

1. Cards are the brightest, least coloured things on a table. A white-balanced "whiteness" map
   of a shrunken frame is thresholded at several levels (one level never suits every light),
   and the outlines are simplified to polygons. Every convex, roughly square polygon corner is a
   candidate card corner, seen in the card's own frame (``geometry``). Overlapping cards still
   show their free corners on the outline of their union, which is why corners, not whole
   cards, are read.
2. Each candidate is cut from the full-resolution image into a small canonical crop and read by
   the ONNX classifier (13 ranks + "no index", 4 suits). Crops make small indices in big photos
   sharp, and the "no index" class turns the classifier into the verifier of the proposals.
   The crops that may hold an index are read again by a wider reader trained on indices only.
   A doubtful read is read again at nearby frames, and a crop without card paper is no card.
   A corner read as no index is read again at the width of the cards read (when its frame's
   width differs), and it may be a card's other corner: the index corners it implies are read
   too, which finds a hand's upper card whose index corner is no corner of the outline.
3. Reads of the same physical corner are merged, then reads of the same card: a one-deck game
   never shows a card twice, so each code keeps its best-supported place.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.errors import ImageDecodeError, ModelLoadError
from companion.vision import geometry
from companion.vision.detections import Detections, TableRead
from companion.vision.layouts.gang import group_cards

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

__all__ = [
    "CardDetector",
    "CornerRead",
    "DEFAULT_MODEL",
    "DEFAULT_READER",
    "MIN_IMAGE_SIDE",
    "Proposal",
    "propose_corners",
    "refuse_too_small",
    "typical_width",
]

DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "models" / "card_corners.onnx"
DEFAULT_READER = DEFAULT_MODEL.with_name("card_reader.onnx")
DEFAULT_FACE = DEFAULT_MODEL.with_name("card_face.onnx")

WORK_SIZE = 1000  # long side of the frame the outlines are found on
MIN_IMAGE_SIDE = 16  # pixels: a smaller picture cannot show a readable card
MIN_CARD_FRACTION = 0.02  # smallest card width, as a fraction of the work frame's long side
TYPICAL_SPREAD = 0.5  # lone-card outlines under this fraction of the widest are parts of cards
LONG_SIDE = 1.45  # card height / width used to turn a long edge into a width estimate
# A proposal whose crop looks like an index but is not read surely is cut again at nearby frames
# (turned, shifted, scaled): outlines of overlapping cards put some corners 10-20 degrees or a few
# percent of a card off, and the reader is trained on framings within about half that.
REFRAME_FLOOR = 0.4  # index probability (1 - p(no index)) from which a read is doubtful
REFRAME_SURE = 0.7  # confidence from which a read is kept as it is
REFRAME_VOTES = 3  # nearby frames (of 12) that must give the same code
_TURNS = (-0.3, -0.2, -0.1, 0.1, 0.2, 0.3)  # radians: about 6, 11 and 17 degrees
_SHIFTS = ((0.04, 0.0), (-0.04, 0.0), (0.0, 0.04), (0.0, -0.04))  # card widths along u, v
_SCALES = (0.88, 1.12)
# Card paper is grey or lightly tinted: the brighter half of every index crop cut from the
# rendered training scenes has a median saturation under 0.4 (0.39 at most over 2,600 crops).
# Coloured cloth can still look like an index to the reader (a red felt read as "10").
PAPER_MAX_SATURATION = 0.55
# The second reader saw index crops only, so it is sure of a rank even on a crop that is no
# index; averaged with the corner model's read, a crop both find unclear stays unclear.
READER_WEIGHT = 0.5
FACE_WEIGHT = 0.5
# Least confidence (rank x suit probability) of a read kept as a card. With the face reader in,
# extra cards became rare (2 on the dev and 150-scene held-out sets together, at 0.5), and 0.4
# kept 13 more right cards for 6 more extras there.
READ_THRESHOLD = 0.4
COMPLETE_KNOWN = 0.1  # card widths: a rejected corner this near a read card's corner is its
COMPLETE_SAME = 0.08  # card widths: an implied corner this near a proposal adds nothing
COMPLETE_RESCALE = 0.2  # a frame whose width is this far from the read cards' is cut again
# Card length / width of the decks people own: poker 1.40, bridge 1.56 (the rendered decks span
# 1.35-1.67). An index corner implied along a card's long edge is tried at both.
CARD_LENGTHS = (1.4, 1.56)


def refuse_too_small(image: np.ndarray, name: str) -> np.ndarray:
    """``image``, unless it is too small to show a card: then an ``ImageDecodeError`` naming
    the file (``detect`` only accepts pictures of at least ``MIN_IMAGE_SIDE`` pixels)."""
    height, width = image.shape[:2]
    if min(height, width) < MIN_IMAGE_SIDE:
        raise ImageDecodeError(name, f"{width}x{height} px, too small to show a card")
    return image


@dataclass(frozen=True)
class Proposal:
    """A candidate card corner in full-resolution pixels (see ``geometry``)."""

    p: np.ndarray
    u: np.ndarray
    v: np.ndarray
    s: float


@dataclass(frozen=True)
class CornerRead:
    """One corner read as a card, before the reads of a card and of a code are merged."""

    code: str
    confidence: float
    proposal: Proposal


def _turn(vec: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * vec[0] - s * vec[1], s * vec[0] + c * vec[1]])


def reframes(q: Proposal) -> list[Proposal]:
    """Frames near ``q``: turned about its corner, shifted along its edges, and rescaled."""
    out = [Proposal(q.p, _turn(q.u, a), _turn(q.v, a), q.s) for a in _TURNS]
    out += [Proposal(q.p + (du * q.u + dv * q.v) * q.s, q.u, q.v, q.s) for du, dv in _SHIFTS]
    out += [Proposal(q.p, q.u, q.v, q.s * f) for f in _SCALES]
    return out


def _cut(
    image: np.ndarray,
    frames: list[Proposal],
    extent: geometry.Extent = geometry.CORNER,
    scale: float = 1.0,
) -> np.ndarray:
    """The crops of ``frames`` from ``image``, whose pixels are ``scale`` of the frames'."""
    p = np.array([q.p for q in frames], np.float64).reshape(-1, 2) * scale
    u = np.array([q.u for q in frames], np.float64).reshape(-1, 2)
    v = np.array([q.v for q in frames], np.float64).reshape(-1, 2)
    s = np.array([q.s for q in frames], np.float64) * scale
    return geometry.crop_corners(image, p, u, v, s, extent)


def paper_saturations(crops: np.ndarray) -> np.ndarray:
    """Median saturation (0..1) of the brighter 40 % of each crop's pixels: its paper, if a
    card. ``crops`` is (N, H, W, 3) BGR."""
    n = len(crops)
    if n == 0:
        return np.zeros(0)
    hsv = cv2.cvtColor(
        np.ascontiguousarray(crops).reshape(-1, crops.shape[2], 3), cv2.COLOR_BGR2HSV
    ).reshape(n, -1, 3)
    value, saturation = hsv[:, :, 2], hsv[:, :, 1].astype(np.int16)
    bright = value >= np.percentile(value, 60, axis=1)[:, None]
    # Each crop's median over its bright pixels: the others sort past every saturation.
    ranked = np.sort(np.where(bright, saturation, 256), axis=1)
    count = bright.sum(axis=1)
    rows = np.arange(n)
    middle = (ranked[rows, (count - 1) // 2] + ranked[rows, count // 2]) / 2.0
    return np.asarray(middle / 255.0)


def paper_saturation(crop: np.ndarray) -> float:
    """Median saturation (0..1) of the brighter 40 % of a crop's pixels: its paper, if a card."""
    return float(paper_saturations(crop[None])[0])


def _whiteness(small: np.ndarray) -> np.ndarray:
    """High where a pixel is bright and grey after a white-patch colour balance."""
    bright = np.percentile(small[::4, ::4].reshape(-1, 3), 99.5, axis=0)
    gain = np.clip(bright.max() / np.maximum(bright, 1.0), 1.0, 2.5)
    img = cv2.transform(small, np.diag(gain))  # saturating uint8 per-channel gain
    b, g, r = cv2.split(img)
    lo, hi = cv2.min(cv2.min(b, g), r), cv2.max(cv2.max(b, g), r)
    return cv2.addWeighted(lo, 1.5, hi, -0.5, 0)  # lo - 0.5 (hi - lo), clipped to 0..255


def _masks(white: np.ndarray) -> list[np.ndarray]:
    """Card masks at several whiteness levels, plus one relative to the local surroundings.

    Otsu splits the frame into its two largest populations, which on a light table are "table
    and cards" against the floor; the higher levels separate cards from a light table, and the
    local mask (brighter than the neighbourhood by a margin) does so when light is uneven.
    """
    otsu, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    top = float(np.percentile(white[::4, ::4], 99.5))
    levels = {round(otsu - 25)} | {round(otsu + f * (top - otsu)) for f in (0, 0.35, 0.6, 0.8)}
    masks: list[np.ndarray] = [
        (white > t).astype(np.uint8) for t in sorted(levels) if 40 <= t < top
    ]
    block = (max(white.shape) // 6) | 1
    masks.append(
        cv2.adaptiveThreshold(white, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -15)
    )
    return masks


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


def _first_of_alike(
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


def propose_corners(image: np.ndarray) -> tuple[list[Proposal], float | None]:
    """Candidate card corners (full-resolution pixels) and the typical card width, if seen."""
    h, w = image.shape[:2]
    factor = min(1.0, WORK_SIZE / max(h, w))
    small = image
    if factor < 1.0:
        # Area averaging is the anti-aliased shrink, but at a fractional factor it costs 5 ms
        # on a webcam frame; when each work pixel spans under two frame pixels, bilinear
        # sampling loses nothing the outlines need (dev set: the same cards, one more read).
        mild = factor > 0.5
        small = cv2.resize(
            image,
            None,
            fx=factor,
            fy=factor,
            interpolation=cv2.INTER_LINEAR if mild else cv2.INTER_AREA,
        )
    white = _whiteness(small)
    min_width = MIN_CARD_FRACTION * max(small.shape[:2])
    close, open_ = np.ones((5, 5), np.uint8), np.ones((3, 3), np.uint8)
    raw: list[tuple[float, ...]] = []
    widths: list[float] = []
    for mask in _masks(white):
        # Closing fills the notches that index glyphs near the card edge cut into the mask.
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, close)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, open_)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < 0.8 * min_width * min_width:
                continue
            outlines = [contour]
            hull = cv2.convexHull(contour)
            if area > 0.9 * cv2.contourArea(hull):  # a lone card, maybe with a ragged edge
                outlines.append(hull)
            for outline in outlines:
                poly = cv2.approxPolyDP(outline, max(1.5, 0.04 * math.sqrt(area)), True)
                card_w = _is_card_quad(poly)
                if card_w is not None:
                    widths.append(card_w)
                raw += _polygon_corners(_refine(outline, poly), 0.25 * min_width)
    typical = typical_width(widths)
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
    proposals = [
        Proposal(np.array([x, y]) / factor, np.array([ux, uy]), np.array([vx, vy]), s / factor)
        for x, y, ux, uy, vx, vy, s in table[_first_of_alike(table)].tolist()
    ]
    return proposals, (typical / factor if typical is not None else None)


def _load(
    model_path: Path | str, threads: int, extent: geometry.Extent = geometry.CORNER
) -> tuple[InferenceSession, str, str]:
    """An onnxruntime session on a corner-crop model, with its rank and suit names."""
    import onnxruntime as ort

    path = Path(model_path)
    if not path.is_file():
        raise ModelLoadError(str(path), "file not found")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Between runs onnxruntime's worker threads busy-wait for the next one by default. The
    # detector runs its networks between stretches of OpenCV and numpy work, and a spinning
    # worker takes a core from that work: on 2 cores a 720p frame took about twice as long.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        meta = session.get_modelmeta().custom_metadata_map
        ranks, suits = meta["ranks"], meta["suits"]
        crop = (
            int(meta["crop_w"]),
            int(meta["crop_h"]),
            tuple(json.loads(meta["crop_x"])),
            tuple(json.loads(meta["crop_y"])),
        )
    except Exception as error:  # onnxruntime raises its own exception types
        raise ModelLoadError(str(path), str(error)) from error
    expected = (geometry.CROP_W, geometry.CROP_H, *extent)
    if crop != expected:
        raise ModelLoadError(str(path), f"crop geometry {crop} differs from {expected}")
    return session, ranks, suits


class CardDetector:
    """``CardDetector().detect(image_bgr)`` -> ``TableRead`` (cards + river/hands)."""

    def __init__(
        self,
        model_path: Path | str = DEFAULT_MODEL,
        threshold: float = READ_THRESHOLD,
        threads: int = 2,
        reframe: bool = True,
        reader_path: Path | str | None = DEFAULT_READER,
        complete: bool = True,
        face_path: Path | str | None = DEFAULT_FACE,
    ) -> None:
        """``model_path`` finds indices among the corner crops and reads them;
        ``reader_path`` (None: none) reads again the crops that may hold an index, and
        ``face_path`` (None: none) reads the whole card seen from those corners."""
        self._session, self.ranks, self.suits = _load(model_path, threads)
        self._reader: InferenceSession | None = None
        self._face: InferenceSession | None = None
        if reader_path is not None:
            self._reader, ranks, suits = _load(reader_path, threads)
            if (ranks, suits) != (self.ranks, self.suits):
                raise ModelLoadError(str(reader_path), "its classes differ from the corner model's")
        if face_path is not None:
            self._face, ranks, suits = _load(face_path, threads, geometry.FACE)
            if (ranks, suits) != (self.ranks, self.suits):
                raise ModelLoadError(str(face_path), "its classes differ from the corner model's")
        self.threshold = threshold
        self.reframe = reframe
        self.complete = complete

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank (N, 14: ranks + no index) and suit (N, 4) probabilities of BGR crops, by the
        corner model."""
        if len(crops) == 0:
            return np.zeros((0, len(self.ranks) + 1)), np.zeros((0, len(self.suits)))
        rank, suit = self._session.run(None, {"crops": crops.astype(np.float32)})
        return rank, suit

    def read_again(
        self, crops: np.ndarray, rank: np.ndarray, suit: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rank`` and ``suit`` averaged with the reader's where the corner model reads an
        index (it alone says whether a crop holds one)."""
        rows = np.flatnonzero(rank.argmax(axis=1) < len(self.ranks))
        if self._reader is None or len(rows) == 0:
            return rank, suit
        rank2, suit2 = self._reader.run(None, {"crops": crops[rows].astype(np.float32)})
        return _blend(rank, suit, rows, rank2, suit2, READER_WEIGHT)

    def read_face(
        self,
        image: np.ndarray,
        proposals: list[Proposal],
        rank: np.ndarray,
        suit: np.ndarray,
        pyramid: list[np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rank`` and ``suit`` averaged with the face reader's where the corner model reads an
        index: the whole card, seen from that corner, shows pips and pictures several times
        larger than the index. ``pyramid`` (``image`` and its halvings so far) is extended as
        needed, so a second call on the same frame halves it no more."""
        rows = np.flatnonzero(rank.argmax(axis=1) < len(self.ranks))
        if self._face is None or len(rows) == 0:
            return rank, suit
        # A whole card is shrunk a lot, and shrinking each card's region on its own costs more
        # than the face reader itself: the frame is halved (Gaussian pyramid, anti-aliased) until
        # a crop pixel spans about 1.5 of its pixels, once for all cards.
        (x0, x1), _ = geometry.FACE
        pixel = float(np.median([proposals[i].s for i in rows])) * (x1 - x0) / geometry.CROP_W
        pyramid = pyramid if pyramid is not None else [image]
        halvings = max(0, round(np.log2(pixel / 1.5)))
        while len(pyramid) <= halvings:
            pyramid.append(cv2.pyrDown(pyramid[-1]))
        small, f = pyramid[halvings], 0.5**halvings
        crops = _cut(small, [proposals[i] for i in rows], geometry.FACE, f).astype(np.float32)
        rank2, suit2 = self._face.run(None, {"crops": crops})
        return _blend(rank, suit, rows, rank2, suit2, FACE_WEIGHT)

    def read_corners(self, image: np.ndarray) -> tuple[list[CornerRead], float | None]:
        """Every proposal read as a card, before merging."""
        proposals, typical = propose_corners(image)
        pyramid = [image]
        reads, rejected = self._read(image, proposals, pyramid)
        if self.complete:
            more, _ = self._read(image, completions(rejected, reads, proposals), pyramid)
            reads += more
        return reads, typical

    def _read(
        self, image: np.ndarray, proposals: list[Proposal], pyramid: list[np.ndarray]
    ) -> tuple[list[CornerRead], list[Proposal]]:
        """The proposals read as cards, and those read as no index."""
        crops = _cut(image, proposals)
        rank_p, suit_p = self.classify(crops)
        if self.reframe:
            proposals, crops, rank_p, suit_p = self._reframe_doubtful(
                image, proposals, crops, rank_p, suit_p
            )
        rank_p, suit_p = self.read_again(crops, rank_p, suit_p)
        rank_p, suit_p = self.read_face(image, proposals, rank_p, suit_p, pyramid)
        r, s = rank_p.argmax(axis=1), suit_p.argmax(axis=1)
        rows = np.arange(len(proposals))
        index = r < len(self.ranks)
        confidence = rank_p[rows, r] * suit_p[rows, s]
        sure = np.flatnonzero(index & (confidence >= self.threshold))
        paper = sure[paper_saturations(crops[sure]) <= PAPER_MAX_SATURATION]
        reads = [
            CornerRead(self.ranks[r[i]] + self.suits[s[i]], float(confidence[i]), proposals[i])
            for i in paper.tolist()
        ]
        return reads, [proposals[i] for i in np.flatnonzero(~index).tolist()]

    def _reframe_doubtful(
        self,
        image: np.ndarray,
        proposals: list[Proposal],
        crops: np.ndarray,
        rank_p: np.ndarray,
        suit_p: np.ndarray,
    ) -> tuple[list[Proposal], np.ndarray, np.ndarray, np.ndarray]:
        """Doubtful reads (with their frames and crops) replaced by the surest read among
        nearby frames."""
        n_ranks = len(self.ranks)
        index_p = 1.0 - rank_p[:, n_ranks]
        confidence = rank_p[:, :n_ranks].max(axis=1, initial=0.0) * suit_p.max(axis=1, initial=0.0)
        doubtful = np.flatnonzero((index_p >= REFRAME_FLOOR) & (confidence < REFRAME_SURE))
        if len(doubtful) == 0:
            return proposals, crops, rank_p, suit_p
        frames = [reframes(proposals[i]) for i in doubtful]
        flat = [f for group in frames for f in group]
        near = _cut(image, flat)
        r2, s2 = self.classify(near)
        k = len(frames[0])
        proposals, crops = list(proposals), crops.copy()
        rank_p, suit_p = rank_p.copy(), suit_p.copy()
        for j, i in enumerate(doubtful):
            rr, ss = r2[j * k : (j + 1) * k], s2[j * k : (j + 1) * k]
            conf = rr[:, :n_ranks].max(axis=1) * ss.max(axis=1) * (rr.argmax(axis=1) < n_ranks)
            best = int(np.argmax(conf))
            code = (rr[best].argmax(), ss[best].argmax())
            # A texture can look like an index at one lucky frame; a misframed index is read
            # the same at several, and the frames together must favour the same card.
            mean = (
                (rank_p[i] + rr.sum(axis=0))[:n_ranks].argmax(),
                (suit_p[i] + ss.sum(axis=0)).argmax(),
            )
            votes = int(np.sum((rr.argmax(axis=1) == code[0]) & (ss.argmax(axis=1) == code[1])))
            if conf[best] > confidence[i] and votes >= REFRAME_VOTES and mean == code:
                proposals[i], crops[i] = frames[j][best], near[j * k + best]
                rank_p[i], suit_p[i] = rr[best], ss[best]
        return proposals, crops, rank_p, suit_p

    def detect(self, image: np.ndarray) -> TableRead:
        if (
            image is None
            or image.ndim != 3
            or image.shape[2] != 3
            or min(image.shape[:2]) < MIN_IMAGE_SIDE
        ):
            raise ValueError(
                f"detect() expects a BGR image of shape (H, W, 3), at least {MIN_IMAGE_SIDE} px"
            )
        reads, typical = self.read_corners(image)
        detections = merge_reads(reads, image.shape[:2])
        return TableRead(detections, group_cards(detections, card_width(detections, typical)))


def _blend(
    rank: np.ndarray,
    suit: np.ndarray,
    rows: np.ndarray,
    rank2: np.ndarray,
    suit2: np.ndarray,
    weight: float,
) -> tuple[np.ndarray, np.ndarray]:
    """``rank`` and ``suit`` with ``rows`` averaged with a second read (weight ``weight``) of
    the same crops. The second reader knows no "no index": the index probability stays."""
    n = rank.shape[1] - 1
    rank, suit = rank.copy(), suit.copy()
    ranks_only = rank2[:, :n] / np.maximum(rank2[:, :n].sum(axis=1, keepdims=True), 1e-9)
    rank[rows, :n] = weight * ranks_only * (1.0 - rank[rows, n:]) + (1 - weight) * rank[rows, :n]
    suit[rows] = weight * suit2 + (1 - weight) * suit[rows]
    return rank, suit


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
    kept = _first_of_alike(table, COMPLETE_SAME, 0.95, COMPLETE_RESCALE, fixed=len(proposals))
    return [candidates[i - len(proposals)] for i in kept.tolist() if i >= len(proposals)]


def card_width(detections: Detections, typical: float | None) -> float:
    """The card width the grouping measures distances in: the read cards' own, when any.

    ``typical`` (the lone card outlines) can come from a blob that is not one card, such as
    two river cards touching; the reads' frames were confirmed by the reader.
    """
    if len(detections):
        quads = detections.quads
        return float(np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)))
    return typical if typical is not None else 1.0


def _one_suit_per_card(reads: list[CornerRead]) -> list[CornerRead]:
    """Drop an unsure read whose rank matches a surer read at the card's opposite corner.

    In a revealed hand the upper card often covers the lower card's suit pip with one of its
    own, so one index corner reads "7 of hearts", unsurely, while the free one reads "7 of
    spades": the same card, whose surer read is kept. A sure read is kept: two cards of a pair
    can lie head to foot on each other. Reads arrive surest first.
    """

    def centre(q: Proposal) -> np.ndarray:
        return geometry.card_quad(q.p, q.u, q.v, q.s).mean(axis=0)

    kept: list[CornerRead] = []
    for read in reads:
        q = read.proposal
        if read.confidence < REFRAME_SURE and any(
            k.code[0] == read.code[0]
            and k.code != read.code
            and float(q.u @ k.proposal.u) < -0.9  # opposite corners of one card
            and np.linalg.norm(centre(q) - centre(k.proposal)) < 0.35 * min(q.s, k.proposal.s)
            for k in kept
        ):
            continue
        kept.append(read)
    return kept


def merge_reads(reads: list[CornerRead], shape: tuple[int, int]) -> Detections:
    """One row per card: best read per physical corner, then best place per card code."""
    kept: list[CornerRead] = []
    for read in sorted(reads, key=lambda r: -r.confidence):
        q = read.proposal
        # The same corner proposed at another threshold or scale: keep the surest read.
        if any(
            np.linalg.norm(q.p - k.proposal.p) < 0.15 * min(q.s, k.proposal.s)
            and float(q.u @ k.proposal.u) > 0.8
            for k in kept
        ):
            continue
        kept.append(read)
    corners = [(r.code, r.confidence, r.proposal) for r in _one_suit_per_card(kept)]
    best: dict[str, tuple[float, np.ndarray]] = {}
    support: dict[str, float] = {}
    for code, conf, q in corners:
        quad = geometry.card_quad(q.p, q.u, q.v, q.s)
        if code not in best:
            best[code] = (conf, quad)
            support[code] = conf
        elif np.linalg.norm(quad.mean(axis=0) - best[code][1].mean(axis=0)) < q.s:
            # The card's other index corner agrees: more support, same place.
            support[code] = 1 - (1 - support[code]) * (1 - conf)
    if not best:
        return Detections.empty()
    codes = tuple(best)
    quads = np.array([best[c][1] for c in codes])
    h, w = shape
    boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
    boxes = np.clip(boxes, 0, [w, h, w, h])
    return Detections(codes, np.array([support[c] for c in codes]), boxes, quads)
