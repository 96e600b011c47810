"""The photo with its reads: every card's outline and code drawn over it, each group named by
its owner, doubtful and stray cards marked, card faces seen and not read outlined in red and
numbered, where a short place's missing card should lie circled, cards seen face down outlined
as such; a tap on a card picks it for the fix panel.

Drawn by the client (a canvas over the image), so a fix redraws only the outlines, never the
photo; once its zoom button is tapped, pinch (or the mouse wheel) zooms it, and the same button
brings the whole photo back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft
import flet.canvas as cv

from companion.share.picture import HAND_COLOURS, RIVER_HEX
from companion.ui.kit.cards import card_face
from companion.ui.kit.fonts import FAMILY
from companion.ui.kit.photo.read import Point, ShownPhoto, Spot
from companion.ui.kit.text import t
from companion.ui.kit.widgets import Dispatch
from companion.ui.showdown.doubts import doubts
from companion.ui.showdown.host import H
from companion.ui.showdown.setup_view import table_action
from companion.ui.showdown.state import RIVER, RIVER2, STRAY, ShowdownState

__all__ = ["photo_panel", "PHOTO_WIDTH", "place_colour"]

PHOTO_WIDTH = 366  # a 390-pixel phone less the page's padding
# Flet's light blue, pink, lime, orange, purple and teal accents, and its yellow accent for the
# river, as RGB: the same colours as the picture to share draws (``companion.share``).
_HANDS = HAND_COLOURS
_GONE = ft.Colors.GREY_500
_UNREAD = ft.Colors.RED_ACCENT_400
_MISSING = ft.Colors.AMBER_ACCENT_400
_FACE_DOWN = ft.Colors.WHITE


def place_colour(table: ShowdownState, place: int) -> str:
    """One colour per place, the same on the photo and beside its name below it; a hand's by
    its player's seat, so that it stays when another player sits out or comes back."""
    if place in (RIVER, RIVER2):
        return RIVER_HEX
    if place == STRAY:
        return ft.Colors.RED_ACCENT_400
    return _HANDS[table.seat_of(place) % len(_HANDS)]


def _outline(quad: Sequence[Point], k: float, colour: str, width: float, dashed: bool) -> cv.Shape:
    (x0, y0), *rest = quad
    elements: list[cv.Path.PathElement] = [cv.Path.MoveTo(x0 * k, y0 * k)]
    elements += [cv.Path.LineTo(x * k, y * k) for x, y in rest]
    elements.append(cv.Path.Close())
    paint = ft.Paint(
        color=colour,
        stroke_width=width,
        style=ft.PaintingStyle.STROKE,
        stroke_dash_pattern=[6, 4] if dashed else None,
    )
    return cv.Path(elements, paint=paint)


def _label(x: float, y: float, words: str, colour: str, size: int = 11) -> cv.Shape:
    return cv.Text(
        x,
        y,
        words,
        style=ft.TextStyle(
            size=size,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.BLACK,
            bgcolor=colour,
            font_family=FAMILY,  # painted on a canvas: the theme's font is not applied there
        ),
        alignment=ft.Alignment.CENTER,
    )


HULL_MARGIN = 6.0  # screen pixels between a hand's outline and its cards' edges


def _grown(points: Sequence[Point], by: float) -> list[Point]:
    """``points`` pushed away from their middle by ``by`` (an outline around, not on, cards)."""
    mx, my = sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)
    grown = []
    for x, y in points:
        d = max(((x - mx) ** 2 + (y - my) ** 2) ** 0.5, 1e-6)
        grown.append((x + (x - mx) / d * by, y + (y - my) / d * by))
    return grown


def _hands(table: ShowdownState, read: ShownPhoto, k: float) -> list[cv.Shape]:
    """While seats are asked: each hand outlined, the one asked about thicker."""
    asked = table.asked_hand()
    shapes = []
    for place in range(len(table.players)):
        outline = read.outline(place)
        if len(outline) >= 3:
            width = 4 if place == asked else 1.5
            grown = _grown(outline, HULL_MARGIN / k)
            shapes.append(_outline(grown, k, place_colour(table, place), width, place != asked))
    return shapes


def _missing(table: ShowdownState, read: ShownPhoto, k: float, lang: str) -> list[cv.Shape]:
    """Where each place still short of cards should have its card: circled, dashed."""
    short = {d.place for d in doubts(table) if d.missing}
    shapes: list[cv.Shape] = []
    for place in (m for m in read.missing if m.place in short):
        for n, (x, y, radius) in enumerate(place.marks):
            paint = ft.Paint(
                color=_MISSING,
                stroke_width=3 if n == 0 else 1.5,
                style=ft.PaintingStyle.STROKE,
                stroke_dash_pattern=[6, 4],
            )
            shapes.append(cv.Circle(x * k, y * k, radius * k, paint))
        if place.marks:  # at the circle's top: its middle is where the card would show
            x, y, radius = place.marks[0]
            top = max(8.0, (y - radius) * k)
            shapes.append(_label(x * k, top, t("photo.missing", lang), _MISSING))
    return shapes


def _face_down(read: ShownPhoto, k: float, lang: str) -> list[cv.Shape]:
    """The cards the reader saw face down (``ShownPhoto.backs``): outlined, never read."""
    shapes: list[cv.Shape] = []
    for quad in read.backs:
        shapes.append(_outline(quad, k, _FACE_DOWN, 2, True))
        cx, cy = sum(x for x, _ in quad) / 4, sum(y for _, y in quad) / 4
        shapes.append(_label(cx * k, cy * k, t("photo.face_down", lang), _FACE_DOWN))
    return shapes


def _shapes(table: ShowdownState, read: ShownPhoto, k: float, lang: str) -> list[cv.Shape]:
    shapes: list[cv.Shape] = _hands(table, read, k) if table.seating else []
    shapes += _face_down(read, k, lang) + _missing(table, read, k, lang)
    groups: dict[int, list[Spot]] = {}
    for spot in read.spots:
        if spot.at is None:  # taken off the table: a thin grey outline, no code
            shapes.append(_outline(spot.quad, k, _GONE, 1, True))
            continue
        place, index = spot.at
        groups.setdefault(place, []).append(spot)
        selected = table.selected == spot.at
        doubtful = spot.check and table.cards_at(place)[index] == spot.read
        colour = ft.Colors.BLUE_700 if selected else place_colour(table, place)
        shapes.append(
            _outline(spot.quad, k, colour, 4 if selected or doubtful else 2, place == STRAY)
        )
        # Between the middle and the first corner (the index corner read): the codes of
        # overlapping cards then part instead of piling up at one middle.
        (cx, cy), (qx, qy) = spot.centre, spot.quad[0]
        cx, cy = (cx + qx) / 2, (cy + qy) / 2
        code = card_face(table.cards_at(place)[index]) + (" ?" if doubtful else "")
        shapes.append(_label(cx * k, cy * k, code, ft.Colors.AMBER_300 if doubtful else colour))
    for place, spots in groups.items():
        top = min(y for s in spots for _, y in s.quad)
        middle = sum(s.centre[0] for s in spots) / len(spots)
        name = table.place_name(place, lang)
        if table.seating and place >= 0:
            name = f"{t('seat.hand', lang, n=place + 1)} · {name}"
        shapes.append(
            _label(middle * k, max(8.0, top * k - 9), name, place_colour(table, place), 12)
        )
    # Last, over the hands' names: a face cut by the photo's edge lies beside a hand's name,
    # and its number is what the doubts list names it by ("card face 1 outlined in red").
    for n, quad in enumerate(read.unread, 1):
        shapes.append(_outline(quad, k, _UNREAD, 3, True))
        cx, cy = sum(x for x, _ in quad) / 4, sum(y for _, y in quad) / 4
        cy = min(max(cy * k, 8.0), read.height * k - 8.0)  # its centre may lie at the edge
        shapes.append(_label(cx * k, cy, f"{n} ? {t('photo.unread', lang)}", _UNREAD))
    return shapes


def photo_panel(table: ShowdownState, lang: str, dispatch: Dispatch[H]) -> ft.Control | None:
    read = table.read
    if read is None:
        return None
    k = PHOTO_WIDTH / read.width
    height = round(read.height * k)

    def tapped(e: Any) -> None:
        spot = read.tapped(e.local_position.x / k, e.local_position.y / k)
        if spot is not None:
            dispatch(table_action(lambda tb: tb.select_spot(spot)))

    picture = ft.Stack(
        [
            ft.Image(src=read.image, width=PHOTO_WIDTH, height=height, fit=ft.BoxFit.FILL),
            cv.Canvas(_shapes(table, read, k, lang), width=PHOTO_WIDTH, height=height),
        ],
        width=PHOTO_WIDTH,
        height=height,
    )
    touched = ft.GestureDetector(content=picture, on_tap_down=tapped)
    # Zoomed only once asked: a wheel over an unzoomed photo scrolls the page past it.
    viewer: ft.Control = (
        ft.InteractiveViewer(
            content=touched,
            min_scale=1.0,
            max_scale=6.0,
            width=PHOTO_WIDTH,
            height=height,
            key="photo-zoomed",
        )
        if table.zoom
        else touched
    )
    return ft.Column(
        [
            # Its descendants left out: a screen reader says the photo, and a tap on it reaches
            # the card under the finger, not the middle of the photo (a semantics tap would).
            ft.Semantics(
                label=t("photo.label", lang),
                content=viewer,
                key="photo-read",
                exclude_semantics=True,
            ),
            ft.Row(
                [
                    ft.Text(
                        t("seat.hint" if table.seating else "photo.hint", lang),
                        size=12,
                        italic=True,
                        expand=True,
                    ),
                    _zoom_button(table.zoom, lang, dispatch),
                ],
                spacing=4,
            ),
        ],
        spacing=4,
        key="photo-panel",
    )


def _zoom_button(zoomed: bool, lang: str, dispatch: Dispatch[H]) -> ft.Control:
    """Zoom in (pinch or wheel over the photo then), or back to the whole photo."""
    return ft.TextButton(
        key="photo-unzoom" if zoomed else "photo-zoom",
        content=t("photo.unzoom" if zoomed else "photo.zoom", lang),
        icon=ft.Icons.ZOOM_OUT_MAP if zoomed else ft.Icons.ZOOM_IN,
        on_click=lambda e: dispatch(table_action(lambda tb: tb.with_zoom(not zoomed))),
    )
