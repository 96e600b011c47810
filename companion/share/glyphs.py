"""Text drawn with the app's TrueType font, with OpenCV alone: its glyphs' outlines filled.

OpenCV's own (Hershey) fonts have no suit and no accent, its FreeType module is not in the
headless wheel, and Pillow is not a runtime dependency. A TrueType glyph is a few closed
contours of straight lines and quadratic curves: this module reads the handful of tables that
give them (``cmap`` format 4, ``loca``, ``glyf``, ``hmtx``), flattens the curves and fills the
contours with ``cv2.fillPoly`` by the non-zero rule. No hinting, no kerning: at the sizes a
shared picture uses (20 px and up) neither shows. A variable font is drawn at its default
instance (Arimo: regular); bold is the regular outline inked twice, a little apart.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

__all__ = ["Font", "FontError", "load_font", "text_lines"]

# Glyph flags (``glyf``, simple glyphs).
_ON_CURVE, _X_SHORT, _Y_SHORT, _REPEAT, _X_SAME, _Y_SAME = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
# Component flags (``glyf``, composite glyphs).
_WORDS, _XY_VALUES, _SCALE, _MORE, _XY_SCALE, _TWO_BY_TWO = 0x01, 0x02, 0x08, 0x20, 0x40, 0x80
_CURVE_STEPS = 6  # straight pieces per quadratic curve: smooth at 60 px, cheap at 20
_FINER = 4  # the fill's sub-pixels per pixel each way: 16 levels of coverage
_NESTING = 8  # composite glyphs nest one or two deep; deeper is a damaged file


class FontError(ValueError):
    """The font file is not a TrueType font this reader can draw (named in the message)."""


Contour = np.ndarray  # (n, 2) float64 points in font units, y up


@dataclass(frozen=True)
class _Tables:
    units_per_em: int
    ascender: int
    descender: int
    long_loca: bool
    glyphs: int
    metrics: int


class Font:
    """A TrueType font's outlines, drawn onto BGR images."""

    def __init__(self, data: bytes, name: str = "font") -> None:
        self._data = data
        self.name = name
        try:
            self._tables = self._directory()
            self._info = self._read_info()
            self._cmap = self._read_cmap()
        except (struct.error, KeyError, IndexError) as error:
            raise FontError(f"{name}: not a TrueType font this reader knows ({error})") from None
        self._outline = functools.lru_cache(maxsize=512)(self._glyph_contours)

    # -- the file ------------------------------------------------------------------------

    def _directory(self) -> dict[str, tuple[int, int]]:
        (count,) = struct.unpack_from(">H", self._data, 4)
        found = {}
        for i in range(count):
            tag, _, offset, length = struct.unpack_from(">4sIII", self._data, 12 + 16 * i)
            found[tag.decode("latin-1")] = (offset, length)
        return found

    def _at(self, tag: str) -> int:
        return self._tables[tag][0]

    def _read_info(self) -> _Tables:
        head, hhea, maxp = self._at("head"), self._at("hhea"), self._at("maxp")
        (units,) = struct.unpack_from(">H", self._data, head + 18)
        (loca_format,) = struct.unpack_from(">h", self._data, head + 50)
        ascender, descender = struct.unpack_from(">hh", self._data, hhea + 4)
        (metrics,) = struct.unpack_from(">H", self._data, hhea + 34)
        (glyphs,) = struct.unpack_from(">H", self._data, maxp + 4)
        if "glyf" not in self._tables or units == 0:
            raise KeyError("glyf")  # a CFF (PostScript) font: outlines this reader cannot draw
        return _Tables(units, ascender, descender, loca_format == 1, glyphs, metrics)

    def _read_cmap(self) -> dict[int, int]:
        """Code point -> glyph from the Unicode BMP subtable (format 4)."""
        cmap = self._at("cmap")
        (count,) = struct.unpack_from(">H", self._data, cmap + 2)
        for i in range(count):
            platform, encoding, offset = struct.unpack_from(">HHI", self._data, cmap + 4 + 8 * i)
            start = cmap + offset
            if (platform, encoding) in ((3, 1), (0, 3)) and self._u16(start) == 4:
                return self._format4(start)
        raise KeyError("cmap format 4")

    def _format4(self, start: int) -> dict[int, int]:
        segments = self._u16(start + 6) // 2
        ends = start + 14
        starts = ends + 2 * segments + 2
        deltas = starts + 2 * segments
        ranges = deltas + 2 * segments
        mapping: dict[int, int] = {}
        for s in range(segments):
            end, first = self._u16(ends + 2 * s), self._u16(starts + 2 * s)
            delta, offset = self._u16(deltas + 2 * s), self._u16(ranges + 2 * s)
            for code in range(first, min(end, 0xFFFE) + 1):
                if offset == 0:
                    glyph = (code + delta) & 0xFFFF
                else:
                    at = ranges + 2 * s + offset + 2 * (code - first)
                    glyph = self._u16(at)
                    glyph = (glyph + delta) & 0xFFFF if glyph else 0
                if glyph:
                    mapping[code] = glyph
        return mapping

    def _u16(self, at: int) -> int:
        value: int = struct.unpack_from(">H", self._data, at)[0]
        return value

    def _advance(self, glyph: int) -> int:
        index = min(glyph, self._info.metrics - 1)
        return self._u16(self._at("hmtx") + 4 * index)

    def _glyph_span(self, glyph: int) -> tuple[int, int]:
        loca = self._at("loca")
        if self._info.long_loca:
            a, b = struct.unpack_from(">II", self._data, loca + 4 * glyph)
        else:
            a, b = (2 * v for v in struct.unpack_from(">HH", self._data, loca + 2 * glyph))
        return self._at("glyf") + a, b - a

    def _glyph_contours(self, glyph: int, depth: int = 0) -> tuple[Contour, ...]:
        if not 0 <= glyph < self._info.glyphs or depth > _NESTING:
            return ()
        start, length = self._glyph_span(glyph)
        if length <= 0:
            return ()  # a space
        (contours,) = struct.unpack_from(">h", self._data, start)
        if contours >= 0:
            return self._simple(start, contours)
        return self._composite(start + 10, depth)

    def _simple(self, start: int, contours: int) -> tuple[Contour, ...]:
        at = start + 10
        ends = struct.unpack_from(f">{contours}H", self._data, at)
        at += 2 * contours
        at += 2 + self._u16(at)  # the hinting instructions, not used
        points = ends[-1] + 1 if ends else 0
        flags: list[int] = []
        while len(flags) < points:
            flag = self._data[at]
            at += 1
            flags.append(flag)
            if flag & _REPEAT:
                flags.extend([flag] * self._data[at])
                at += 1
        del flags[points:]
        xs, at = self._coordinates(flags, at, _X_SHORT, _X_SAME)
        ys, _ = self._coordinates(flags, at, _Y_SHORT, _Y_SAME)
        on = np.array([bool(f & _ON_CURVE) for f in flags])
        xy = np.stack([np.cumsum(xs), np.cumsum(ys)], axis=1).astype(np.float64)
        found, first = [], 0
        for end in ends:
            found.append(_flatten(xy[first : end + 1], on[first : end + 1]))
            first = end + 1
        return tuple(c for c in found if len(c) >= 3)

    def _coordinates(
        self, flags: list[int], at: int, short: int, same: int
    ) -> tuple[list[int], int]:
        values = []
        for flag in flags:
            if flag & short:
                step = self._data[at]
                at += 1
                values.append(step if flag & same else -step)
            elif flag & same:
                values.append(0)
            else:
                values.append(struct.unpack_from(">h", self._data, at)[0])
                at += 2
        return values, at

    def _composite(self, at: int, depth: int) -> tuple[Contour, ...]:
        found: list[Contour] = []
        while True:
            flags, glyph = struct.unpack_from(">HH", self._data, at)
            at += 4
            if flags & _WORDS:
                dx, dy = struct.unpack_from(">hh", self._data, at)
                at += 4
            else:
                dx, dy = struct.unpack_from(">bb", self._data, at)
                at += 2
            if not flags & _XY_VALUES:
                dx = dy = 0  # components placed by matching points: rare; drawn unmoved
            matrix = np.eye(2)
            if flags & _SCALE:
                matrix *= self._f2dot14(at)
                at += 2
            elif flags & _XY_SCALE:
                matrix = np.diag([self._f2dot14(at), self._f2dot14(at + 2)])
                at += 4
            elif flags & _TWO_BY_TWO:
                a, b, c, d = (self._f2dot14(at + 2 * k) for k in range(4))
                matrix = np.array([[a, b], [c, d]])
                at += 8
            for contour in self._outline(glyph, depth + 1):
                found.append(contour @ matrix + (dx, dy))
            if not flags & _MORE:
                return tuple(found)

    def _f2dot14(self, at: int) -> float:
        value: int = struct.unpack_from(">h", self._data, at)[0]
        return value / 16384.0

    # -- drawing -------------------------------------------------------------------------

    def _glyph(self, char: str) -> int:
        return self._cmap.get(ord(char), 0)

    def has(self, char: str) -> bool:
        """Whether the font draws ``char`` (else it shows as the font's empty box)."""
        return char.isspace() or ord(char) in self._cmap

    def width(self, text: str, size: float) -> float:
        """How wide ``text`` is drawn at ``size`` pixels to the em."""
        units = sum(self._advance(self._glyph(ch)) for ch in text)
        return units * size / self._info.units_per_em

    def line_height(self, size: float) -> float:
        return (self._info.ascender - self._info.descender) * size / self._info.units_per_em

    def ascent(self, size: float) -> float:
        return self._info.ascender * size / self._info.units_per_em

    def draw(
        self,
        image: np.ndarray,
        text: str,
        origin: tuple[float, float],
        size: float,
        colour: tuple[int, int, int],
        bold: bool = False,
    ) -> float:
        """Draw ``text`` on ``image`` (in place) with its baseline's left end at ``origin``;
        returns where the text ends (x)."""
        x, y = origin
        scale = size / self._info.units_per_em
        contours: list[tuple[np.ndarray, int]] = []
        for ch in text:
            glyph = self._glyph(ch)
            for contour in self._outline(glyph):
                points = np.empty_like(contour)
                points[:, 0] = x + contour[:, 0] * scale
                points[:, 1] = y - contour[:, 1] * scale  # font units go up, pixels down
                contours.append((points, _turn(contour)))
            x += self._advance(glyph) * scale
        if contours:
            _fill_nonzero(image, contours, colour)
            if bold:  # the same ink again a little to the right: thicker stems, edges crisp
                step = np.array([max(1.0, size / 28), 0.0])
                _fill_nonzero(image, [(p + step, turn) for p, turn in contours], colour)
        return x


def _turn(contour: Contour) -> int:
    """+1 or -1: which way the contour turns (twice its signed area's sign)."""
    x, y = contour[:, 0], contour[:, 1]
    return 1 if float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) >= 0 else -1


def _fill_nonzero(
    image: np.ndarray, contours: list[tuple[np.ndarray, int]], colour: tuple[int, int, int]
) -> None:
    """Fill the contours (image pixels) by TrueType's rule, non-zero winding, anti-aliased.

    One ``fillPoly`` of them all fills by parity: where two contours of one glyph overlap (the
    ring of an Å on its apex: a variable font keeps its overlaps) it would leave a hole. Each
    contour is filled alone, 4x finer, adding its turn (+1 or -1) where it covers; the text
    is inked where the sum is not 0, and the coverage, averaged back, is the ink's opacity.
    """
    every = np.concatenate([points for points, _ in contours])
    h, w = image.shape[:2]
    left, top = (max(0, int(np.floor(v)) - 1) for v in every.min(axis=0))
    right = min(w, int(np.ceil(every[:, 0].max())) + 2)
    bottom = min(h, int(np.ceil(every[:, 1].max())) + 2)
    if left >= right or top >= bottom:
        return  # wholly off the image
    fine = np.zeros(((bottom - top) * _FINER, (right - left) * _FINER), np.int16)
    for points, turn in contours:
        q = np.round((points - (left, top)) * _FINER).astype(np.int32)
        x0, y0 = np.maximum(q.min(axis=0), 0)
        x1 = min(fine.shape[1], int(q[:, 0].max()) + 1)
        y1 = min(fine.shape[0], int(q[:, 1].max()) + 1)
        if x0 >= x1 or y0 >= y1:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [q - (x0, y0)], 1)
        fine[y0:y1, x0:x1] += turn * mask.astype(np.int16)
    cover = cv2.resize(
        (fine != 0).astype(np.float32), (right - left, bottom - top), interpolation=cv2.INTER_AREA
    )[..., None]
    region = image[top:bottom, left:right].astype(np.float32)
    inked = region * (1 - cover) + np.asarray(colour, np.float32) * cover
    image[top:bottom, left:right] = np.round(inked).astype(image.dtype)


def _flatten(points: np.ndarray, on: np.ndarray) -> Contour:
    """A closed contour of on-curve and off-curve points as straight pieces: two off-curve
    points in a row have an on-curve point implied half way between them."""
    n = len(points)
    if n == 0:
        return points
    full: list[tuple[np.ndarray, bool]] = []
    for i in range(n):
        full.append((points[i], bool(on[i])))
        j = (i + 1) % n
        if not on[i] and not on[j]:
            full.append(((points[i] + points[j]) / 2, True))
    start = next((i for i, (_, is_on) in enumerate(full) if is_on), None)
    if start is None:  # all off-curve (a circle, say): the implied points were added above
        return np.array([p for p, _ in full])
    full = full[start:] + full[:start]
    out = [full[0][0]]
    steps = np.linspace(0, 1, _CURVE_STEPS + 1)[1:, None]
    k = 1
    while k <= len(full):
        point, is_on = full[k % len(full)]
        if is_on:
            out.append(point)
            k += 1
        else:
            end = full[(k + 1) % len(full)][0]
            begin = out[-1]
            out.extend((1 - steps) ** 2 * begin + 2 * (1 - steps) * steps * point + steps**2 * end)
            k += 2
    return np.array(out[:-1])  # the last point is the first again


@functools.cache
def load_font(path: Path) -> Font:
    """The font at ``path``, read once a process."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise FontError(f"{path}: {error.strerror or error}") from None
    return Font(data, str(path))


def text_lines(font: Font, text: str, size: float, width: float) -> Sequence[str]:
    """``text`` cut into lines no wider than ``width`` at ``size``, between words (a word
    wider than the line is cut where it must be)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            tried = f"{line} {word}" if line else word
            if font.width(tried, size) <= width or not line:
                line = tried
            else:
                lines.append(line)
                line = word
            while font.width(line, size) > width and len(line) > 1:
                cut = len(line) - 1
                while cut > 1 and font.width(line[:cut], size) > width:
                    cut -= 1
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
    return lines
