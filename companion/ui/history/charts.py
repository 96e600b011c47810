"""History's figures drawn on Flet's canvas: drawn by the page itself, so nothing is asked of
any other host (Flet 1.0.5's web client has no chart control; ``flet-charts`` is a separate
package whose Flutter part the served client does not hold).

Each figure is 340 px wide, a phone's width less the padding, and scales its data to that
width: one night is one bar, two hundred nights are two hundred thin ones. Labels are few
and fixed in place (the first and last night, the scale's ends), so they never overlap.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

import flet as ft
import flet.canvas as cv

from companion.ui.kit.fonts import FAMILY

__all__ = [
    "WIDTH",
    "VAULT",
    "ALARM",
    "score_bars",
    "rate_bar",
    "lean_bar",
    "sparkline",
    "MANY",
    "smoothing",
    "running_mean",
]

WIDTH = 340.0
VAULT = ft.Colors.GREEN_700
ALARM = ft.Colors.RED_700
OVER = ft.Colors.ORANGE_800
UNDER = ft.Colors.BLUE_700
TRACK = ft.Colors.BLUE_GREY_100
INK = ft.Colors.BLUE_GREY_700
FAINT = ft.Colors.BLUE_GREY_200
MOST = 3  # a night's vaults or alarms: the game ends at three of either
MANY = 40  # past this many nights, a line's dots touch: it is smoothed


def smoothing(nights: int) -> int:
    """How many nights a smoothed line's mean covers: a twentieth of them, at least 5."""
    return max(5, nights // 20)


def running_mean(values: Sequence[float]) -> list[float]:
    """Each value's mean with those before it, over ``smoothing(len(values))`` at most.

    >>> running_mean([0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0])
    [0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0]
    """
    window = smoothing(len(values))
    return [fmean(values[max(0, i + 1 - window) : i + 1]) for i in range(len(values))]


def _fill(colour: str) -> ft.Paint:
    return ft.Paint(color=colour, style=ft.PaintingStyle.FILL)


def _stroke(colour: str, width: float = 1.0) -> ft.Paint:
    return ft.Paint(color=colour, style=ft.PaintingStyle.STROKE, stroke_width=width)


def _label(
    x: float, y: float, value: str, colour: str = INK, alignment: ft.Alignment | None = None
) -> cv.Text:
    style = ft.TextStyle(size=10, color=colour, font_family=FAMILY)  # canvases skip the theme
    return cv.Text(x, y, value, style=style, alignment=alignment or ft.Alignment.TOP_LEFT)


def _canvas(
    key: str, label: str, shapes: list[cv.Shape], width: float, height: float
) -> ft.Control:
    """The drawing, said to screen readers by ``label`` and found by tests by ``key``."""
    drawn = cv.Canvas(shapes=shapes, width=width, height=height)
    box = ft.Container(drawn, width=width, height=height)
    return ft.Semantics(content=box, key=key, label=label, identifier=key)


def score_bars(
    key: str, label: str, scores: Sequence[tuple[int, int]], first: str, last: str
) -> ft.Control:
    """Each night's vaults up from the middle line and its alarms down, oldest on the left;
    the scale's ends (3) at the left, the first and last night's names under the line."""
    left, top, half, height = 16.0, 6.0, 40.0, 104.0
    middle = top + half
    step = (WIDTH - left) / max(len(scores), 1)
    bar = max(min(step * 0.7, 24.0), 1.0)
    shapes: list[cv.Shape] = [
        cv.Line(left, middle, WIDTH, middle, paint=_stroke(INK)),
        _label(0, top - 4, str(MOST), VAULT),
        _label(0, middle + half - 10, str(MOST), ALARM),
    ]
    for i, (vaults, alarms) in enumerate(scores):
        x = left + i * step + (step - bar) / 2
        up, down = half * min(vaults, MOST) / MOST, half * min(alarms, MOST) / MOST
        if up:
            shapes.append(cv.Rect(x, middle - up, bar, up, paint=_fill(VAULT)))
        if down:
            shapes.append(cv.Rect(x, middle, bar, down, paint=_fill(ALARM)))
    under = middle + half + 4
    if len(scores) == 1:  # one bar, in the middle: its name under it
        shapes.append(_label(left + step / 2, under, first, alignment=ft.Alignment.TOP_CENTER))
    else:
        shapes.append(_label(left, under, first))
        shapes.append(_label(WIDTH, under, last, alignment=ft.Alignment.TOP_RIGHT))
    return _canvas(key, label, shapes, WIDTH, height)


def rate_bar(key: str, label: str, rate: float, width: float = 150.0) -> ft.Control:
    """A share (0 to 1) as a filled part of a track."""
    shapes: list[cv.Shape] = [
        cv.Rect(0, 2, width, 12, border_radius=3, paint=_fill(TRACK)),
        cv.Rect(0, 2, width * min(max(rate, 0.0), 1.0), 12, border_radius=3, paint=_fill(VAULT)),
    ]
    return _canvas(key, label, shapes, width, 16)


def lean_bar(key: str, label: str, lean: float, scale: float, sides: tuple[str, str]) -> ft.Control:
    """The lean from the middle line: to the right (over-claiming) or the left (under), as far
    as ``lean`` is of ``scale``; the two sides (under, over) named at the ends."""
    under, over = sides
    width, middle = WIDTH, WIDTH / 2
    reach = (middle - 40) * max(min(lean / scale, 1.0), -1.0) if scale else 0.0
    shapes: list[cv.Shape] = [
        cv.Rect(40, 4, width - 80, 10, border_radius=3, paint=_fill(TRACK)),
        cv.Rect(
            min(middle, middle + reach),
            4,
            abs(reach),
            10,
            paint=_fill(OVER if reach > 0 else UNDER),
        ),
        cv.Line(middle, 0, middle, 18, paint=_stroke(INK, 2)),
        _label(0, 3, under, UNDER),
        _label(width, 3, over, OVER, alignment=ft.Alignment.TOP_RIGHT),
    ]
    return _canvas(key, label, shapes, width, 18)


def sparkline(
    key: str, label: str, values: Sequence[float], top: float, top_label: str
) -> ft.Control:
    """A value per night on a line, oldest on the left, from 0 (bottom) to ``top``; one night
    is a dot. The scale's top named at the left. Past ``MANY`` nights each night's value is a
    light line under a dark one, the mean of the last ``smoothing(n)`` nights."""
    left, height, room = 28.0, 40.0, 32.0
    base = 4 + room
    step = (WIDTH - left - 4) / max(len(values) - 1, 1)

    def line(points: Sequence[float], colour: str, width: float) -> cv.Shape:
        ys = [base - room * min(v / top, 1.0) if top else base for v in points]
        moves: list[cv.Path.PathElement] = [cv.Path.MoveTo(left, ys[0])]
        moves += [cv.Path.LineTo(left + i * step, y) for i, y in enumerate(ys) if i]
        return cv.Path(moves, paint=_stroke(colour, width))

    shapes: list[cv.Shape] = [
        cv.Line(left, base, WIDTH, base, paint=_stroke(TRACK)),
        cv.Line(left, 4, WIDTH, 4, paint=_stroke(TRACK)),
        _label(0, 0, top_label),
        _label(0, base - 10, "0"),
    ]
    if len(values) > MANY:
        shapes += [line(values, FAINT, 1.0), line(running_mean(values), INK, 2.0)]
    else:  # few nights: each one a dot, joined
        if len(values) > 1:
            shapes.append(line(values, INK, 1.5))
        shapes += [
            cv.Circle(
                left + i * step,
                base - room * min(v / top, 1.0) if top else base,
                2.5,
                paint=_fill(INK),
            )
            for i, v in enumerate(values)
        ]
    return _canvas(key, label, shapes, WIDTH, height)
