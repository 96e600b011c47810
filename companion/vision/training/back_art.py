"""Card backs for rendered scenes: the card art's own backs and procedural designs.

The art's backs (the GNOME sheets', the npm decks') are rendered into ``cache/backs`` by
``art``. Most real backs are a fine red or blue lattice or pattern inside a white border, or a
plain colour with a logo or a word; ``procedural_back`` draws those in many variants, and any
back may come out worn (faded, scuffed, its edges whitened) or glossy (a specular streak).

Some designs are held out, as the deck ``tigullio`` is (``--held-out`` draws only those): the
held-out deck's own back, five other art backs (among them a red fine lattice with a white
border, as real tables' backs often are, and a picture back) and two procedural styles.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

__all__ = [
    "BACK_WIDTH",
    "HELD_OUT_ART",
    "HELD_OUT_STYLES",
    "STYLES",
    "BackStore",
    "glossy",
    "procedural_back",
    "worn",
]

BACK_WIDTH = 200  # pixels across a back as drawn, as the faces in ``cache/cards``
STYLES = ("lattice", "diamonds", "checker", "stripes", "plaid", "logo", "text", "dots", "waves")
HELD_OUT_STYLES = ("dots", "waves")
HELD_OUT_ART = (
    "gnome_tigullio",
    "cardsjs_red",
    "gnome_berlin",
    "gnome_lattmann",
    "gnome_tango_2",
    "gnome_dondorf",
)
ART_SHARE = 0.45  # of the designs drawn, where art backs are at hand
# Back colours (BGR): real backs are mostly red or blue.
_REDS = ((40, 30, 170), (50, 40, 200), (30, 20, 130), (60, 50, 150))
_BLUES = ((150, 60, 20), (120, 40, 10), (190, 110, 40), (110, 50, 30))
_OTHERS = ((40, 110, 30), (20, 20, 20), (110, 30, 90), (30, 70, 120), (40, 150, 190))
_WORDS = ("CASINO", "POKER", "ROYAL", "CLUB", "ACE", "BRIDGE", "GRAND", "DECK")


def _colour(rng: np.random.Generator) -> np.ndarray:
    pick = rng.random()
    family = _REDS if pick < 0.4 else _BLUES if pick < 0.75 else _OTHERS
    base = np.array(family[int(rng.integers(len(family)))], np.float32)
    return np.clip(base * rng.uniform(0.8, 1.2) + rng.normal(0, 8, 3), 0, 255)


def _light(rng: np.random.Generator) -> np.ndarray:
    """A pattern's light ink: white or a pale tint."""
    return np.array(rng.uniform(205, 250, 3), np.float32)


def _grid(w: int, h: int, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates turned by ``angle``."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    c, s = np.cos(angle), np.sin(angle)
    return xx * c + yy * s, -xx * s + yy * c


def _frac(a: np.ndarray) -> np.ndarray:
    """Distance to the nearest whole number, 0..0.5."""
    return np.asarray(np.abs(a - np.round(a)))


def _pattern(rng: np.random.Generator, style: str, w: int, h: int) -> np.ndarray:
    """The design's field (no border): H x W x 3 float BGR."""
    ink, light = _colour(rng), _light(rng)
    if style not in ("logo", "text") and rng.random() < 0.2:
        ink, light = light, ink  # dark lines on a light ground, as some lattices are printed
    period = w * rng.uniform(0.03, 0.1)
    angle = float(rng.choice([np.pi / 4, np.pi / 3, np.pi / 6, 0.0], p=[0.55, 0.15, 0.15, 0.15]))
    u, v = _grid(w, h, angle)
    a, b = u / period, v / period
    if style == "lattice":  # thin lines along two directions
        mark = np.minimum(_frac(a), _frac(b)) < rng.uniform(0.06, 0.18)
        if rng.random() < 0.4:  # a second, finer lattice
            mark |= np.minimum(_frac(2 * a + 0.5), _frac(2 * b + 0.5)) < 0.05
    elif style == "diamonds":
        mark = _frac(a) + _frac(b) < rng.uniform(0.3, 0.6)
    elif style == "checker":
        mark = (np.floor(a) + np.floor(b)) % 2 == 0
    elif style == "stripes":
        mark = _frac(a) < rng.uniform(0.1, 0.3)
    elif style == "plaid":
        second = _colour(rng)
        field = np.broadcast_to(light, (h, w, 3)).copy()
        field[_frac(a / 3) < 0.12] = ink
        field[_frac(b / 3) < 0.12] = 0.5 * ink + 0.5 * second
        field[(_frac(a) < 0.05) | (_frac(b) < 0.05)] = second
        return field
    elif style == "dots":
        mark = np.hypot(_frac(a), _frac(b)) < rng.uniform(0.15, 0.35)
    elif style == "waves":
        bend = np.sin(u / (period * rng.uniform(1.5, 4))) * rng.uniform(0.2, 0.6)
        mark = _frac(b + bend) < rng.uniform(0.1, 0.25)
    else:  # logo, text: a plain colour (the emblem comes after)
        return np.broadcast_to(ink, (h, w, 3)).copy()
    return np.where(mark[..., None], light, ink)


def _emblem(rng: np.random.Generator, field: np.ndarray, style: str) -> None:
    """A logo (ellipses, a ring of dots, a star) or a word in the middle of ``field``."""
    h, w = field.shape[:2]
    ink = tuple(float(v) for v in (_light(rng) if rng.random() < 0.7 else _colour(rng)))
    centre = (w // 2, h // 2)
    thick = max(1, int(w * rng.uniform(0.01, 0.03)))
    if style == "text":
        word = _WORDS[int(rng.integers(len(_WORDS)))]
        font = int(rng.choice([cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX]))
        (tw, th), _ = cv2.getTextSize(word, font, 1.0, 2)
        upright = rng.random() < 0.5  # written along the card's long side, or across it
        span = (h if upright else w) * rng.uniform(0.5, 0.8)
        scale = span / tw
        layer = np.zeros((int(th * scale * 2) + 4, int(span) + 4), np.uint8)
        cv2.putText(layer, word, (2, int(th * scale * 1.4)), font, scale, 255, thick, cv2.LINE_AA)
        if upright:
            layer = np.ascontiguousarray(np.rot90(layer))
        lh, lw = layer.shape
        y0, x0 = max(0, (h - lh) // 2), max(0, (w - lw) // 2)
        part = layer[: h - y0, : w - x0].astype(np.float32)[..., None] / 255.0
        region = field[y0 : y0 + part.shape[0], x0 : x0 + part.shape[1]]
        region[:] = region * (1 - part) + np.array(ink) * part
        return
    kind = int(rng.integers(3))
    size = w * rng.uniform(0.2, 0.38)
    if kind == 0:
        axes = (int(size), int(size * rng.uniform(1.0, 1.5)))
        cv2.ellipse(field, centre, axes, 0, 0, 360, ink, thick, cv2.LINE_AA)
        inner = (int(axes[0] * 0.6), int(axes[1] * 0.6))
        cv2.ellipse(field, centre, inner, 0, 0, 360, ink, -1, cv2.LINE_AA)
    elif kind == 1:
        for k in range(12):
            t = k * np.pi / 6
            spot = (int(centre[0] + size * np.cos(t)), int(centre[1] + size * np.sin(t)))
            cv2.circle(field, spot, max(2, int(size * 0.15)), ink, -1, cv2.LINE_AA)
    else:
        turns = np.arange(10) * np.pi / 5 - np.pi / 2
        r = np.where(np.arange(10) % 2 == 0, size, size * 0.45)
        star = np.stack([centre[0] + r * np.cos(turns), centre[1] + r * np.sin(turns)], 1)
        cv2.fillPoly(field, [star.astype(np.int32)], ink, cv2.LINE_AA)


def _rounded_alpha(w: int, h: int, radius: int) -> np.ndarray:
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for x, y in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius)):
        cv2.circle(alpha, (x, y), radius, 255, -1, cv2.LINE_AA)
    cv2.circle(alpha, (w - 1 - radius, h - 1 - radius), radius, 255, -1, cv2.LINE_AA)
    return alpha


def procedural_back(
    rng: np.random.Generator, style: str, aspect: float, width: int = BACK_WIDTH
) -> np.ndarray:
    """A back of ``style`` (one of ``STYLES``), ``width`` pixels wide and ``aspect`` times as
    tall, BGRA: its field, a white border (or none, or a coloured one) and rounded corners."""
    if style not in STYLES:
        raise ValueError(f"unknown back style {style!r}: one of {', '.join(STYLES)}")
    w, h = width, round(width * aspect)
    field = _pattern(rng, style, w, h)
    if style in ("logo", "text") or rng.random() < 0.15:
        _emblem(rng, field, "text" if style == "text" else "logo")
    edge = rng.random()
    if edge < 0.65:  # a white border, sometimes with a thin frame line inside it
        border = max(2, int(w * rng.uniform(0.04, 0.1)))
        paper = np.array(rng.uniform(228, 252, 3), np.float32)
        frame = np.broadcast_to(paper, (h, w, 3)).copy()
        frame[border : h - border, border : w - border] = field[
            border : h - border, border : w - border
        ]
        if rng.random() < 0.4:
            inset = border + max(1, border // 3)
            line = tuple(float(c) for c in field[h // 2, w // 2])
            cv2.rectangle(frame, (inset, inset), (w - inset, h - inset), line, 1, cv2.LINE_AA)
        field = frame
    elif edge < 0.8:  # a coloured frame inside a thin white edge
        rim = max(1, int(w * 0.015))
        band = max(2, int(w * rng.uniform(0.04, 0.08)))
        colour = _colour(rng)
        framed = np.broadcast_to(colour, (h, w, 3)).copy()
        framed[band : h - band, band : w - band] = field[band : h - band, band : w - band]
        framed[:rim], framed[-rim:], framed[:, :rim], framed[:, -rim:] = 240, 240, 240, 240
        field = framed
    # else: the pattern runs to the card's edge (a borderless back)
    bgr = np.clip(field, 0, 255).astype(np.uint8)
    alpha = _rounded_alpha(w, h, max(2, int(w * rng.uniform(0.03, 0.08))))
    return np.dstack([bgr, alpha])


def worn(rng: np.random.Generator, back: np.ndarray) -> np.ndarray:
    """``back`` (BGRA) faded towards grey paper, scuffed with pale specks and scratches, its
    edges whitened where fingers rub them."""
    h, w = back.shape[:2]
    bgr = back[:, :, :3].astype(np.float32)
    bgr = bgr * (1 - rng.uniform(0.0, 0.3)) + rng.uniform(150, 230) * rng.uniform(0.0, 0.3)
    dotted = (rng.random((h, w)) < rng.uniform(0.002, 0.02)).astype(np.float32)
    specks = np.asarray(cv2.GaussianBlur(dotted, (3, 3), 0) * 3, np.float32)
    for _ in range(int(rng.integers(0, 4))):
        p = rng.uniform(0, 1, 2) * [w, h]
        q = p + rng.normal(0, 0.3, 2) * w
        cv2.line(specks, tuple(p.astype(int)), tuple(q.astype(int)), 0.6, 1, cv2.LINE_AA)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    to_edge = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy))
    rub = np.exp(-to_edge / max(1.0, w * rng.uniform(0.01, 0.04))) * rng.uniform(0.2, 0.6)
    pale = np.clip(specks + rub, 0, 1)[..., None]
    bgr = bgr * (1 - pale) + 235 * pale
    return np.dstack([np.clip(bgr, 0, 255).astype(np.uint8), back[:, :, 3]])


def glossy(rng: np.random.Generator, back: np.ndarray) -> np.ndarray:
    """``back`` (BGRA) with a specular streak across it: a broad band lightened towards white,
    as a glossy card catches a lamp."""
    h, w = back.shape[:2]
    u, _ = _grid(w, h, rng.uniform(0, np.pi))
    centre = rng.uniform(u.min(), u.max())
    band = np.exp(-(((u - centre) / (w * rng.uniform(0.08, 0.35))) ** 2))
    shine = (band * rng.uniform(0.35, 0.9))[..., None]
    bgr = back[:, :, :3].astype(np.float32) * (1 - shine) + 250 * shine
    return np.dstack([np.clip(bgr, 0, 255).astype(np.uint8), back[:, :, 3]])


class BackStore:
    """Back designs for one split: the art backs of ``backs_dir`` (none where it does not
    exist: procedural backs only) and the procedural styles, the held-out ones or the rest."""

    def __init__(self, backs_dir: Path | None, held_out: bool) -> None:
        files = sorted(backs_dir.glob("*.png")) if backs_dir is not None else []
        self.art = [p for p in files if (p.stem in HELD_OUT_ART) == held_out]
        self.styles = tuple(s for s in STYLES if (s in HELD_OUT_STYLES) == held_out)
        self._cache: dict[Path, np.ndarray] = {}

    def _art(self, path: Path) -> np.ndarray:
        if path not in self._cache:
            image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if image is None or image.ndim != 3 or image.shape[2] != 4:
                raise FileNotFoundError(f"{path}: no readable BGRA card back")
            self._cache[path] = image
        return self._cache[path]

    def design(self, rng: np.random.Generator, aspect: float) -> np.ndarray:
        """A fresh design, BGRA, ``BACK_WIDTH`` wide and ``aspect`` times as tall (a table's
        backs share one: draw it once, then ``finish`` each card)."""
        if self.art and rng.random() < ART_SHARE:
            art = self._art(self.art[int(rng.integers(len(self.art)))])
            size = (BACK_WIDTH, round(BACK_WIDTH * aspect))
            return cv2.resize(art, size, interpolation=cv2.INTER_AREA)
        style = self.styles[int(rng.integers(len(self.styles)))]
        return procedural_back(rng, style, aspect)

    @staticmethod
    def finish(rng: np.random.Generator, design: np.ndarray) -> np.ndarray:
        """One card of ``design``: as printed, worn, glossy, or both."""
        back = design
        if rng.random() < 0.3:
            back = worn(rng, back)
        if rng.random() < 0.3:
            back = glossy(rng, back)
        return back
