"""History's pictures built from figures without a client: what each drawing holds with no
night, one night and two hundred (bars inside the canvas, few labels that stay apart), the
lean's side, and the numbers under each figure."""

from __future__ import annotations

from typing import Any

import flet.canvas as cv
import pytest

from companion.storage.figures import Figures, Judging, NightScore, PlayerJudging, Success
from companion.ui.history.charts import WIDTH, lean_bar
from companion.ui.history.pictures import pictures_section
from tests.ui.screens import find, texts, walk


def _figures(nights: int, lean: float = 0.5) -> Figures:
    scores = tuple(NightScore(n, n % 4, 3 - n % 4) for n in range(1, nights + 1))
    night = Judging(4, 2, 0.75, lean)
    players = (
        PlayerJudging("Ana", night, tuple((n, night) for n in range(1, nights + 1)), ()),
        PlayerJudging(
            "Bob", Judging(4, 4, 0.0, 0.0), ((1, Judging(4, 4, 0.0, 0.0)),), (("flop", night),)
        ),
    )
    return Figures(scores, (Success("classic", 5, 2),), (Success("lsd", 5, 2),), players)


def _shapes(control: Any) -> list[cv.Shape]:
    canvases = [c for c in walk(control) if isinstance(c, cv.Canvas)]
    assert len(canvases) == 1
    return list(canvases[0].shapes)


def _labels(control: Any) -> list[cv.Text]:
    return [s for s in _shapes(control) if isinstance(s, cv.Text)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_empty_log_says_so_in_a_line(lang: str) -> None:
    for figures in (None, Figures((), (), (), ())):
        view = pictures_section(figures, lang)
        (line,) = [t for t in texts(view) if t != texts(view)[0]]
        assert line == find(view, "pictures-empty").value
        assert not [c for c in walk(view) if isinstance(c, cv.Canvas)]


@pytest.mark.parametrize("nights", [1, 2, 200])
def test_the_nights_figure_holds_its_bars_inside_and_two_labels_at_most(nights: int) -> None:
    view = pictures_section(_figures(nights), "en")
    drawing = find(view, "figure-nights")
    bars = [s for s in _shapes(drawing) if isinstance(s, cv.Rect)]
    assert len(bars) == 2 * nights - sum(1 for n in range(1, nights + 1) if n % 4 in (0, 3))
    assert all(0 <= b.x and b.x + b.width <= WIDTH and b.width >= 1 for b in bars)
    names = [label.value for label in _labels(drawing) if label.value.startswith("#")]
    assert names == (["#1"] if nights == 1 else ["#1", f"#{nights}"])
    numbers = find(view, "numbers-nights")
    assert len(numbers.controls) == nights
    assert f"{nights} night" in find(view, "caption-nights").value


def test_each_player_has_a_line_a_lean_and_numbers_and_streets_when_recorded() -> None:
    view = pictures_section(_figures(3), "en")
    assert (
        find(view, "judging-Ana-row").value
        == "2/4 tokens right, off by 0.75 on average, lean +0.50"
    )
    ana = [t.value for t in find(view, "numbers-judging-Ana").controls]
    assert ana == [f"#{n}: 2/4 right, off by 0.75, lean +0.50" for n in (1, 2, 3)]
    bob = [t.value for t in find(view, "numbers-judging-Bob").controls]
    assert bob[-1] == "flop: off by 0.75, lean +0.50 (2/4 right)"
    assert find(view, "caption-judging").value.startswith("How far each final token")


@pytest.mark.parametrize(("lean", "side"), [(0.5, "right"), (-3.0, "left"), (0.0, "none")])
def test_the_lean_goes_right_when_over_claiming_and_stays_inside(lean: float, side: str) -> None:
    bar = lean_bar("lean", "Ana", lean, 1.0, ("under", "over"))
    rects = [s for s in _shapes(bar) if isinstance(s, cv.Rect)]
    track, drawn = rects
    middle = WIDTH / 2
    assert track.x <= drawn.x and drawn.x + drawn.width <= track.x + track.width
    if side == "right":
        assert drawn.x == middle and drawn.width > 0
    elif side == "left":
        assert drawn.x + drawn.width == middle and drawn.x == track.x  # past the scale: its end
    else:
        assert drawn.width == 0


def test_no_player_judged_says_why() -> None:
    figures = Figures((NightScore(1, 1, 0),), (Success("classic", 1, 1),), (), ())
    view = pictures_section(figures, "fr")
    assert find(view, "no-judging").value.startswith("Aucune manche à juger")
