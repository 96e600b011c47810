"""A heist as one picture for the table's group chat: the verdict, the photo with each read
card's outline and its owner's name, the hands by their red token, and the reasons.

A pure function of the heist, its photo's bytes and a language: PNG bytes out, nothing read
or written elsewhere. A heist without a photo (typed), or whose photo cannot be decoded (a
phone's HEIC), is drawn with its cards as tiles alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from companion.engine.cards import Suit, parse_card
from companion.engine.gang.showdown import run_showdown
from companion.errors import CompanionError
from companion.formats.table import table_from_json
from companion.messages import text
from companion.share.glyphs import Font, load_font, text_lines
from companion.storage import CardOutline, Heist, HeistDraft
from companion.storage.model import thaw

__all__ = [
    "WIDTH",
    "BANNER",
    "HAND_COLOURS",
    "RIVER_HEX",
    "PALETTE",
    "RIVER_COLOUR",
    "VAULT_COLOUR",
    "ALARM_COLOUR",
    "correct_order",
    "draw_outlines",
    "heist_picture",
    "font",
]

WIDTH = 1080  # pixels: what chat apps show whole on a phone without scaling it up
MAX_PHOTO_HEIGHT = 1440  # a tall photo is shrunk to this, the picture stays a phone's shape
MARGIN = 36
BANNER = 120  # the verdict's band
# The photo's colours as the Showdown screen draws them (its ``photo_view`` takes them from
# here): each hand's by its player's seat, the river's yellow. RGB, as the web page writes them.
HAND_COLOURS = ("#00B0FF", "#FF4081", "#C6FF00", "#FFAB40", "#EA80FC", "#1DE9B6")
RIVER_HEX = "#FFEA00"


def _bgr(rgb: str) -> tuple[int, int, int]:
    return (int(rgb[5:7], 16), int(rgb[3:5], 16), int(rgb[1:3], 16))


PALETTE = tuple(_bgr(rgb) for rgb in HAND_COLOURS)  # BGR, for OpenCV
RIVER_COLOUR = _bgr(RIVER_HEX)
VAULT_COLOUR = (40, 140, 30)
ALARM_COLOUR = (30, 30, 200)
INK = (30, 30, 30)
GREY = (120, 120, 120)
RED_SUIT = (30, 30, 200)
PAPER = (255, 255, 255)
_RED_SUITS = {Suit.HEARTS.glyph, Suit.DIAMONDS.glyph}


def font() -> Font:
    """The app's font (Arimo, package ``fontpkg-arimo``, installed with the app)."""
    folder = resources.files("fontpkg_arimo") / "files"
    return load_font(Path(str(folder / "Arimo[wght].ttf")))


@dataclass(frozen=True)
class _Hand:
    name: str
    token: int | None
    cards: tuple[str, ...]
    colour: tuple[int, int, int]


def _pretty(card: str) -> str:
    """``As`` as ``A♠``; a text no card reader takes (a damaged entry) as it was saved."""
    try:
        return parse_card(card).pretty()
    except CompanionError:
        return card


def _hands(heist: HeistDraft, seating: Sequence[str]) -> list[_Hand]:
    """Each hand with its owner's name (the hand's id for a shared hand), by red token;
    hands without a token last, in their saved order. A hand's colour is its player's seat's
    in ``seating`` (the app's colour for that player), else its place in the heist."""
    seats = {name.casefold(): i for i, name in enumerate(seating)}
    hands = []
    for i, (hid, cards) in enumerate(heist.hands.items()):
        name = heist.owners.get(hid, hid)
        seat = seats.get(name.casefold(), i)
        hands.append(_Hand(name, heist.tokens.get(hid), tuple(cards), PALETTE[seat % len(PALETTE)]))
    return sorted(hands, key=lambda h: (h.token is None, h.token or 0))


def _photo(data: bytes | None) -> np.ndarray | None:
    if not data:
        return None
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:  # some truncated or damaged headers raise instead of giving None
        image = None
    if image is None or image.size == 0:
        return None
    h, w = image.shape[:2]
    scale = min(WIDTH / w, MAX_PHOTO_HEIGHT / h)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.resize(image, size, interpolation=interpolation)


def _label(
    image: np.ndarray, face: Font, words: str, at: tuple[float, float], colour: tuple[int, ...]
) -> None:
    """``words`` on a dark plate whose bottom centre is ``at``, kept inside the image."""
    size = 34.0
    h, w = image.shape[:2]
    words = _fitted(face, words, size, w / 2)
    width = face.width(words, size)
    pad = 10
    x = min(max(0.0, at[0] - width / 2 - pad), max(0.0, w - width - 2 * pad))
    y = min(max(0.0, at[1] - size - 2 * pad), max(0.0, h - size - 2 * pad))
    top_left = (int(x), int(y))
    bottom_right = (int(x + width + 2 * pad), int(y + size + 2 * pad))
    cv2.rectangle(image, top_left, bottom_right, (20, 20, 20), cv2.FILLED)
    cv2.rectangle(image, top_left, bottom_right, tuple(int(c) for c in colour), 3)
    face.draw(image, words, (x + pad, y + pad + face.ascent(size) * 0.92), size, PAPER, bold=True)


Colour = tuple[int, int, int]


def draw_outlines(
    image: np.ndarray,
    outlines: Sequence[CardOutline],
    places: Mapping[str, tuple[str, Colour]],
    face: Font,
) -> None:
    """Each card's outline in its place's colour, and each place's name once, above its
    cards (``places``: a place, case-folded, to its words and colour; others in grey)."""
    h, w = image.shape[:2]
    thick = max(3, round(w / 300))
    held: dict[str, list[np.ndarray]] = {}
    for outline in outlines:
        corners = np.array(outline.corners) * (w, h)
        key = outline.place.casefold()
        colour = places.get(key, (outline.place, GREY))[1]
        cv2.polylines(image, [np.round(corners).astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        held.setdefault(key, []).append(corners)
    for key, quads in held.items():
        points = np.concatenate(quads)
        top = float(points[:, 1].min())
        centre = float(points[:, 0].mean())
        words, colour = places.get(key, (key, GREY))
        _label(image, face, words, (centre, top - 6), colour)


class _Page:
    """The text part, drawn line by line downward; measured first with ``canvas`` None."""

    def __init__(self, face: Font, canvas: np.ndarray | None, y: float) -> None:
        self.face = face
        self.canvas = canvas
        self.y = y

    def words(
        self,
        words: str,
        size: float,
        colour: tuple[int, int, int] = INK,
        bold: bool = False,
        indent: float = 0.0,
    ) -> None:
        width = WIDTH - 2 * MARGIN - indent
        for line in text_lines(self.face, words, size, width):
            self.y += self.face.line_height(size)
            if self.canvas is not None:
                origin = (MARGIN + indent, self.y - self.face.line_height(size) * 0.22)
                self.face.draw(self.canvas, line, origin, size, colour, bold)

    def gap(self, pixels: float) -> None:
        self.y += pixels

    def cards(self, title: str, cards: Sequence[str], colour: tuple[int, int, int]) -> None:
        """A row: a coloured mark, its title, then each card as a tile (wrapping); a title
        wider than half the picture is cut to the line (…) and its tiles go under it."""
        size, tile_h, pad = 34.0, 62, 10
        title = _fitted(self.face, title, size, WIDTH - 2 * MARGIN - 26)
        start = MARGIN + 26 + self.face.width(title, size) + 18
        top = self.y + 8
        if self.canvas is not None:
            middle = int(top + tile_h / 2)
            cv2.circle(self.canvas, (MARGIN + 9, middle), 9, colour, cv2.FILLED, cv2.LINE_AA)
            cv2.circle(self.canvas, (MARGIN + 9, middle), 9, INK, 1, cv2.LINE_AA)
            baseline = middle + self.face.ascent(size) * 0.36
            self.face.draw(self.canvas, title, (MARGIN + 26, baseline), size, INK, bold=True)
        if start > WIDTH / 2:  # a long name: its cards on the lines under it
            start = MARGIN + 26
            top += tile_h + 8
        x = start
        for card in cards:
            shown = _pretty(card)
            tile_w = max(58.0, self.face.width(shown, size) + 2 * pad)
            if x + tile_w > WIDTH - MARGIN and x > start:
                x = start
                top += tile_h + 8
            if self.canvas is not None:
                corner, far = (int(x), int(top)), (int(x + tile_w), int(top + tile_h))
                cv2.rectangle(self.canvas, corner, far, (245, 245, 245), cv2.FILLED)
                cv2.rectangle(self.canvas, corner, far, GREY, 2, cv2.LINE_AA)
                ink = RED_SUIT if shown[-1:] in _RED_SUITS else INK
                left = x + (tile_w - self.face.width(shown, size)) / 2
                baseline = top + tile_h / 2 + self.face.ascent(size) * 0.36
                self.face.draw(self.canvas, shown, (left, baseline), size, ink)
            x += tile_w + 8
        self.y = top + tile_h + 8


def _fitted(face: Font, words: str, size: float, width: float) -> str:
    """``words`` cut with an ellipsis to fit ``width`` at ``size`` (whole when they fit)."""
    if face.width(words, size) <= width:
        return words
    while words and face.width(words + "…", size) > width:
        words = words[:-1]
    return words + "…"


def correct_order(heist: HeistDraft) -> tuple[tuple[str, ...], ...] | None:
    """The engine's order of the heist's hands from its saved deal, tied hands grouped,
    weakest first; None where no deal was kept (heists saved before) or it no longer reads."""
    if heist.deal is None:
        return None
    try:
        return run_showdown(table_from_json(thaw(heist.deal))).order
    except CompanionError:
        return None


def _order_words(heist: HeistDraft, lang: str) -> str | None:
    order = correct_order(heist)
    if not order:
        return None
    names = " < ".join(" = ".join(heist.owners.get(h, h) for h in group) for group in order)
    return text("correct_order", lang, order=names)


def _reasons(heist: HeistDraft, lang: str) -> list[str]:
    key = "reason_fr" if lang == "fr" else "reason"
    found = [str(f.get(key) or f.get("reason") or "") for f in heist.verdict.failures]
    return [reason for reason in found if reason]


def _body(page: _Page, heist: HeistDraft, hands: Sequence[_Hand], lang: str) -> None:
    page.gap(24)
    page.cards(text("river", lang), heist.river, RIVER_COLOUR)
    if heist.board2:
        page.cards(text("river2", lang), heist.board2, RIVER_COLOUR)
    page.gap(12)
    page.words(text("share.by_token", lang), 30, GREY)
    page.gap(6)
    for hand in hands:
        token = "?" if hand.token is None else str(hand.token)
        page.cards(text("share.hand", lang, token=token, name=hand.name), hand.cards, hand.colour)
    order = _order_words(heist, lang)
    if order is not None:
        page.gap(6)
        page.words(order, 30, INK)
    page.gap(16)
    if heist.verdict.opens:
        page.words(text("share.all_right", lang), 34, VAULT_COLOUR, bold=True)
    else:
        reasons = _reasons(heist, lang) or [text("share.no_reason", lang)]
        for reason in reasons:
            page.words(f"• {reason}", 32, ALARM_COLOUR)
            page.gap(6)
    page.gap(20)
    if isinstance(heist, Heist):
        when = heist.saved_at.astimezone().strftime("%Y-%m-%d %H:%M")  # the table's clock
        page.words(text("share.footer", lang, night=heist.night_id, when=when), 24, GREY)
    else:
        page.words(text("share.footer_unsaved", lang), 24, GREY)
    page.gap(MARGIN)


def _title(heist: HeistDraft, lang: str) -> str:
    verdict = text("share.vault" if heist.verdict.opens else "share.alarm", lang)
    if isinstance(heist, Heist):
        return text("heist_line", lang, n=heist.number, verdict=verdict)
    return verdict[:1].upper() + verdict[1:]


def heist_picture(
    heist: HeistDraft, lang: str, photo: bytes | None, seating: Sequence[str] = ()
) -> bytes:
    """The heist as a PNG, in ``lang``: its verdict, its photo (``photo``: the stored bytes)
    with the read cards' outlines and owners, its hands by red token and the reasons.
    ``seating``: everyone at the table in seat order, for each player's colour."""
    face = font()
    hands = _hands(heist, seating)
    image = _photo(photo) if heist.outlines or photo else None
    photo_h = 0 if image is None else image.shape[0]
    measured = _Page(face, None, BANNER + photo_h)
    _body(measured, heist, hands, lang)
    canvas = np.full((int(np.ceil(measured.y)), WIDTH, 3), PAPER, np.uint8)
    colour = VAULT_COLOUR if heist.verdict.opens else ALARM_COLOUR
    cv2.rectangle(canvas, (0, 0), (WIDTH - 1, BANNER - 1), colour, cv2.FILLED)
    title = _title(heist, lang)
    size = 56.0
    while face.width(title, size) > WIDTH - 2 * MARGIN and size > 28:
        size -= 2
    baseline = BANNER / 2 + face.ascent(size) * 0.36
    face.draw(canvas, title, (MARGIN, baseline), size, PAPER, bold=True)
    if image is not None:
        _draw_photo(canvas, image, heist, hands, face, lang)
    _body(_Page(face, canvas, BANNER + photo_h), heist, hands, lang)
    # Level 3: half level 6's time for 9 % more bytes (benchmarks/share_picture.py, journal).
    ok, encoded = cv2.imencode(".png", canvas, [cv2.IMWRITE_PNG_COMPRESSION, 3])
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise ValueError("the picture could not be encoded")
    return encoded.tobytes()


def _draw_photo(
    canvas: np.ndarray,
    image: np.ndarray,
    heist: HeistDraft,
    hands: Sequence[_Hand],
    face: Font,
    lang: str,
) -> None:
    photo = image.copy()
    places = {
        CardOutline.RIVER: (text("river", lang), RIVER_COLOUR),
        CardOutline.RIVER2: (text("river2", lang), RIVER_COLOUR),
    }
    places |= {hand.name.casefold(): (hand.name, hand.colour) for hand in hands}
    draw_outlines(photo, heist.outlines, places, face)
    h, w = photo.shape[:2]
    left = (WIDTH - w) // 2
    canvas[BANNER : BANNER + h, left : left + w] = photo
