"""A hand's outline on the photo: the hull of every corner of its cards, checked against
OpenCV's own hull, on random points (duplicates, lines, a lone card) and on the real reader's
hands of the fixture photos."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.ui.kit.photo.read import Point, hull
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.shell.dispatch import run
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo
from companion.ui.showdown.state import ShowdownState

IMAGES = Path(__file__).resolve().parents[2] / "fixtures" / "images"
PHOTOS = ("scene_0001.jpg", "scene_0002.jpg", "scene_0004.jpg", "hand_of_four.jpg")


def area(points: list[Point]) -> float:
    return 0.0 if len(points) < 3 else float(cv2.contourArea(np.float32(points)))


def opencv_area(points: list[Point]) -> float:
    return float(cv2.contourArea(cv2.convexHull(np.float32(points))))


def inside(outline: list[Point], point: Point) -> bool:
    return cv2.pointPolygonTest(np.float32(outline), point, True) >= -1e-3


coordinate = st.integers(-50, 50).map(float)  # small ints: duplicates and lines come often
points = st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=40)


@given(points)
def test_the_hull_holds_every_point_and_matches_opencv(found: list[Point]) -> None:
    outline = hull(found)
    assert len(outline) == len(set(outline))
    if len(outline) >= 3:
        assert abs(area(outline) - opencv_area(found)) < 1e-6
        assert all(inside(outline, p) for p in found)
        assert cv2.isContourConvex(np.float32(outline))


def test_a_line_and_a_point_give_no_polygon() -> None:
    assert hull([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (1.0, 1.0)]) == [(0.0, 0.0), (2.0, 2.0)]
    assert hull([(3.0, 4.0)] * 3) == [(3.0, 4.0)]


@pytest.fixture
def reading(services: Services) -> Services:
    return replace(services, detector=LazyDetector())


@pytest.mark.parametrize("name", PHOTOS)
def test_each_hand_of_a_real_read_is_outlined_around_all_its_cards(
    name: str, reading: Services
) -> None:
    players = ("Ana", "Bob", "Chloé", "Dan")
    state = AppState(lang="en", table=ShowdownState(players))
    data = (IMAGES / name).read_bytes()
    state = run(load_photo(data, name), state, reading)
    read = state.table.read
    assert read is not None
    outlined = 0
    for place, held in enumerate(state.table.hands):
        if not held:
            continue
        outline = read.outline(place)
        quads = [s.quad for s in read.spots if s.at is not None and s.at[0] == place]
        corners = [p for q in quads for p in q]
        # Around every corner of every card, not a line or a triangle through the centres.
        assert len(outline) >= 4, (name, place, outline)
        assert all(inside(outline, p) for p in corners)
        assert abs(area(outline) - opencv_area(corners)) < 1e-3 * opencv_area(corners)
        assert area(outline) >= max(area(list(q)) for q in quads)
        outlined += 1
    assert outlined >= 1
