"""What each doubt of a photo shows a player, cut while the photo is read (its full-size image
is let go once the table is shown): the crops each doubtful or stray read was read from, with
the reader's next likely reads, and, for each place short of cards, a crop of the photo around
where its card should lie with that place marked.

Imported with the reader (it needs OpenCV and the vision package); what it makes is plain
values (``photo.read.Evidence``, ``PlaceShown``) for the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.ui.kit.photo.read import Evidence
from companion.vision.base.detections import Detections
from companion.vision.evidence import cut_quad, read_crops
from companion.vision.layouts.gaps import CardPlace, Gap
from companion.vision.layouts.read import GroupedCards

__all__ = ["CROP_HEIGHT", "PlaceShown", "PhotoEvidence", "photo_evidence", "narrowed", "jpeg"]

# The crops' height in pixels: shown about 120 points tall on a phone, sharp at twice that.
CROP_HEIGHT = 240
# A missing card's region: shown across the doubts' panel (about 330 points), 4:3.
PLACE_SIZE = (480, 360)
WHOLE_WIDTH = 480  # the whole photo, for a hand nothing of which was read
PLACES_MARKED = 2  # a gap's likeliest places marked on its crop (the first thicker)
JPEG_QUALITY = 80
_MARK = (0, 200, 255)  # amber (BGR), over a dark edge that shows on white cards and felt
_EDGE = (30, 30, 30)


@dataclass(frozen=True)
class PlaceShown:
    """A place of the read short of cards (``hand``: the grouping's hand, None for the river),
    how many, its region's crop with the places marked (None: no place known), and those
    places' centres and radii in the original photo's pixels."""

    hand: int | None
    count: int
    crop: bytes | None
    marks: tuple[tuple[float, float, float], ...]


@dataclass(frozen=True)
class PhotoEvidence:
    """A photo's evidence: per row of its read (doubtful and stray cards), and per gap."""

    reads: dict[int, Evidence]
    gaps: tuple[PlaceShown, ...]


def jpeg(image: np.ndarray, quality: int = JPEG_QUALITY) -> bytes:
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise ValueError("an image could not be encoded")
    return bytes(encoded.tobytes())


def photo_evidence(image: np.ndarray, told: GroupedCards) -> PhotoEvidence:
    """The evidence of every read a player is asked to judge (doubtful, or not in play) and
    of every place short of cards, from ``image``, the photo as it was read."""
    found, groups = told.detections, told.grouping
    placed = (s for part in (groups.river, *groups.hands) for s in part if s.check)
    rows = sorted({s.index for s in placed} | {s.index for s in groups.stray})
    return PhotoEvidence(
        {row: read_evidence(image, found, row) for row in rows},
        tuple(_gap_shown(image, gap) for gap in groups.gaps),
    )


def narrowed(image: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """``image`` at most ``width`` pixels wide (never enlarged), and the scale it took."""
    h, w = image.shape[:2]
    scale = min(1.0, width / w)
    if scale == 1:
        return image, scale
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale


def read_evidence(image: np.ndarray, found: Detections, row: int) -> Evidence:
    """Card ``row``'s crops (index corner, face) as small JPEGs, and its alternatives."""
    crops = read_crops(image, found, row, CROP_HEIGHT, CROP_HEIGHT)
    return Evidence(
        None if crops.index is None else jpeg(crops.index),
        None if crops.face is None else jpeg(crops.face),
        tuple(a.card for a in found.alternatives[row]),
    )


def _gap_shown(image: np.ndarray, gap: Gap) -> PlaceShown:
    places = gap.places[:PLACES_MARKED]
    marks = tuple((p.x, p.y, p.radius) for p in places)
    crop = _place_crop(image, places) if places else None
    return PlaceShown(gap.hand, gap.count, crop, marks)


def _extent(places: Sequence[CardPlace]) -> tuple[float, float, float, float]:
    """The box around the places' circles and outlines (left, top, right, bottom)."""
    xs: list[float] = []
    ys: list[float] = []
    for p in places:
        xs += [p.x - p.radius, p.x + p.radius]
        ys += [p.y - p.radius, p.y + p.radius]
        if p.quad is not None:
            xs += [x for x, _ in p.quad]
            ys += [y for _, y in p.quad]
    return min(xs), min(ys), max(xs), max(ys)


def _place_crop(image: np.ndarray, places: Sequence[CardPlace]) -> bytes:
    """The photo around ``places`` (a quarter more on each side, widened to 4:3 so that the
    cards beside show), each place marked: its outline where known, its circle."""
    left, top, right, bottom = _extent(places)
    width, height = PLACE_SIZE
    cx, cy = (left + right) / 2, (top + bottom) / 2
    span_x, span_y = (right - left) * 1.5, (bottom - top) * 1.5
    span_x = max(span_x, span_y * width / height)
    span_y = span_x * height / width
    # Inside the photo where it is large enough: nothing of the region lost to its edge.
    h, w = image.shape[:2]
    x0 = min(max(cx - span_x / 2, 0.0), max(w - span_x, 0.0)) if span_x <= w else cx - span_x / 2
    y0 = min(max(cy - span_y / 2, 0.0), max(h - span_y, 0.0)) if span_y <= h else cy - span_y / 2
    box = np.array([[x0, y0], [x0 + span_x, y0], [x0 + span_x, y0 + span_y], [x0, y0 + span_y]])
    region = cut_quad(image, box, height)
    if region is None:  # pragma: no cover - the places' box always has an area
        region = np.zeros((height, width, 3), np.uint8)
    scale = region.shape[0] / span_y

    def at(x: float, y: float) -> tuple[int, int]:
        return round((x - x0) * scale), round((y - y0) * scale)

    for k, p in enumerate(places):
        thick = 4 if k == 0 else 2
        shapes: list[np.ndarray] = []
        if p.quad is not None:
            shapes.append(np.array([at(x, y) for x, y in p.quad], np.int32))
        for colour, width_px in ((_EDGE, thick + 3), (_MARK, thick)):
            cv2.polylines(region, shapes, True, colour, width_px, cv2.LINE_AA)
            radius = max(4, round(p.radius * scale))
            cv2.circle(region, at(p.x, p.y), radius, colour, max(1, width_px - 1), cv2.LINE_AA)
    return jpeg(region)
