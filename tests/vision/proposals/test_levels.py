"""Corner proposals from card outlines (``proposals.propose_corners`` and its steps)."""

import multiprocessing
import sys

import cv2
import numpy as np
import pytest

from companion.vision.proposals import levels as proposals_module
from companion.vision.proposals.levels import (
    Proposal,
    _polygon_corners,
    _refine,
    _whiteness,
    first_of_alike,
    frame_table,
    paper_whiteness,
    propose_corners,
    typical_width,
)
from companion.vision.proposals.outlines import OutlineModel
from tests.helpers import FIXTURES, turned_card


def _frame(x: float, y: float, angle: float, s: float) -> list[float]:
    u = [np.cos(angle), np.sin(angle)]
    return [x, y, *u, -u[1], u[0], s]


def test_a_frame_alike_an_earlier_kept_one_is_dropped_and_only_kept_ones_count() -> None:
    frames = np.array(
        [
            _frame(100, 100, 0.0, 50),  # kept
            _frame(102, 100, 0.05, 52),  # alike the first: dropped
            _frame(104.5, 100, 0.0, 50),  # alike the second only, which was dropped: kept
            _frame(100, 100, np.pi / 2, 50),  # same place, turned a quarter: kept
            _frame(100, 100, 0.0, 60),  # same place, a fifth wider: kept
            _frame(300, 100, 0.0, 50),  # elsewhere: kept
            _frame(101, 101, 0.0, 49),  # alike the first: dropped
        ]
    )
    assert first_of_alike(frames).tolist() == [0, 2, 3, 4, 5]
    assert first_of_alike(frames[:0]).tolist() == []


def test_frames_already_read_are_kept_and_drop_later_frames_alike_them() -> None:
    frames = np.array(
        [
            _frame(100, 100, 0.0, 50),  # read already
            _frame(101, 100, 0.0, 50),  # read already, though alike the first
            _frame(103, 100, 0.0, 50),  # alike a read frame: dropped
            _frame(200, 100, 0.0, 50),  # new: kept
        ]
    )
    assert first_of_alike(frames, fixed=2).tolist() == [0, 1, 3]
    # A looser test (the second look's) also drops a frame turned 15 degrees.
    turned = np.array([_frame(100, 100, 0.0, 50), _frame(102, 100, np.radians(15), 50)])
    assert first_of_alike(turned, fixed=1).tolist() == [0, 1]
    assert first_of_alike(turned, 0.08, 0.95, 0.2, fixed=1).tolist() == [0]


@pytest.mark.parametrize("order", [1, -1])
def test_polygon_corners_frame_a_card_clockwise_whichever_way_its_outline_runs(order: int) -> None:
    card = np.array([[10, 10], [60, 10], [60, 80], [10, 80]], np.int32)[::order].reshape(-1, 1, 2)
    corners = {
        (x, y): (ux, uy, vx, vy, la, lb)
        for x, y, ux, uy, vx, vy, la, lb in _polygon_corners(card, 5.0)
    }
    assert set(corners) == {(10, 10), (60, 10), (60, 80), (10, 80)}
    # Top-left: u runs along the top edge, v down the left edge, both into the card.
    assert corners[(10, 10)] == pytest.approx((1, 0, 0, 1, 50, 70))
    assert corners[(60, 10)] == pytest.approx((0, 1, -1, 0, 70, 50))
    assert _polygon_corners(card, 60.0) == []  # the short edges are too short


def test_a_reflex_corner_is_no_card_corner() -> None:
    ell = np.array([[0, 0], [40, 0], [40, 20], [20, 20], [20, 40], [0, 40]], np.int32)
    found = {(x, y) for x, y, *_ in _polygon_corners(ell.reshape(-1, 1, 2), 5.0)}
    assert (20, 20) not in found and len(found) == 5


def test_refined_corners_sit_at_the_sharp_corner_of_a_rounded_card() -> None:
    mask = np.zeros((200, 200), np.uint8)
    (x0, y0), (x1, y1), r = (40, 30), (140, 170), 8  # a card with corners of radius 8
    cv2.rectangle(mask, (x0 + r, y0), (x1 - r, y1), 1, -1)
    cv2.rectangle(mask, (x0, y0 + r), (x1, y1 - r), 1, -1)
    for cx, cy in [(x0 + r, y0 + r), (x1 - r, y0 + r), (x1 - r, y1 - r), (x0 + r, y1 - r)]:
        cv2.circle(mask, (cx, cy), r, 1, -1)
    contour = max(
        cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0], key=cv2.contourArea
    )
    poly = cv2.approxPolyDP(contour, 4.0, True)
    refined = _refine(contour, poly).reshape(-1, 2)
    sharp = np.array([[40, 30], [140, 30], [140, 170], [40, 170]], float)
    nearest = lambda pts: np.min(np.linalg.norm(pts[:, None] - sharp[None], axis=2), axis=0)  # noqa: E731
    assert nearest(refined).max() < 1.5
    assert nearest(poly.reshape(-1, 2).astype(float)).max() > 2.0  # the polygon alone misses


def test_card_shaped_parts_of_card_faces_do_not_set_the_card_width() -> None:
    # A table of court cards: at high whiteness levels the light parts of the faces came out
    # as card-shaped blobs a third of a card wide and outnumbered the one whole card seen.
    assert typical_width([47.6, 15.5, 15.5, 15.5, 15.5]) == pytest.approx(47.6)
    assert typical_width([60.0, 55.0, 70.0, 64.0]) == pytest.approx(62.0)
    assert typical_width([]) is None


def test_proposals_of_a_table_photo_are_unit_frames_in_full_resolution_pixels() -> None:
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    proposals, typical = propose_corners(image)
    assert len(proposals) > 20 and typical is not None
    h, w = image.shape[:2]
    for q in proposals:
        assert -w * 0.1 <= q.p[0] <= w * 1.1 and -h * 0.1 <= q.p[1] <= h * 1.1
        assert abs(np.linalg.norm(q.u) - 1) < 1e-9 and abs(np.linalg.norm(q.v) - 1) < 1e-9
        assert q.s > 0
    # A photo twice as large gives the same corners, twice as far out and twice as wide.
    _, big_typical = propose_corners(cv2.resize(image, (2 * w, 2 * h)))
    assert big_typical == pytest.approx(2 * typical, rel=0.1)


def _table_with_a_card_and_a_beige_tile() -> np.ndarray:
    """A dark table, a white card on the left and a beige card-sized tile on the right."""
    image = np.full((400, 600, 3), 40, np.uint8)
    cv2.rectangle(image, (80, 100), (180, 240), (240, 240, 240), -1)
    cv2.putText(image, "7", (88, 130), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0), 2)
    cv2.rectangle(image, (380, 100), (480, 240), (120, 190, 220), -1)  # BGR: light wood
    return image


def test_paper_whiteness_is_high_at_a_card_corner_and_low_on_a_tile() -> None:
    white = _whiteness(_table_with_a_card_and_a_beige_tile())
    frames = np.array([_frame(80, 100, 0.0, 100), _frame(380, 100, 0.0, 100)])
    card, tile = paper_whiteness(white, frames)
    assert card > 0.9 * white.max() and tile < 0.5 * card
    assert paper_whiteness(white, frames[:0]).tolist() == []


def test_corners_without_card_paper_are_not_proposed() -> None:
    image = _table_with_a_card_and_a_beige_tile()
    everything, _ = propose_corners(image, paper_min=0)
    proposed, _ = propose_corners(image)
    assert any(q.p[0] > 300 for q in everything)  # the tile's outline has corners too
    assert proposed and all(q.p[0] < 300 for q in proposed)


def test_a_smaller_work_frame_finds_the_same_card_corners() -> None:
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    big, typical = propose_corners(image)
    small, small_typical = propose_corners(image, work_size=640)
    assert typical is not None and small_typical == pytest.approx(typical, rel=0.1)
    assert abs(len(small) - len(big)) < 0.3 * len(big)


def test_a_light_table_filling_the_frame_is_not_taken_for_a_card() -> None:
    """On a light table the lowest whiteness level passes the whole frame, whose outline
    (1200x800, card-shaped) once set every corner's scale to 800 px; the frame's border
    outlines no lone card."""
    rng = np.random.default_rng(3)
    image = np.clip(rng.normal((200, 210, 220), 12, (800, 1200, 3)), 0, 255).astype(np.uint8)
    for k, centre in enumerate(((300, 300), (600, 400), (900, 500))):
        card = cv2.boxPoints((centre, (100, 140), 12.0 * k)).astype(np.int32)
        cv2.fillConvexPoly(image, card, (250, 250, 250))
    _, typical = propose_corners(image)
    assert typical is not None and 85 < typical < 115


def test_cards_touching_in_a_row_get_their_hidden_corners_proposed() -> None:
    """Four cards laid edge to edge make one outline 4 card widths long, with polygon corners
    only at its ends; each card's index corner lies one card width further along its edge."""
    image = np.full((600, 900, 3), (40, 90, 30), np.uint8)
    cv2.rectangle(image, (100, 380), (200, 525), (245, 245, 245), -1)  # a lone card: the width
    x0, y0 = 300, 150
    cv2.rectangle(image, (x0, y0), (x0 + 400, y0 + 145), (245, 245, 245), -1)
    for j in range(1, 4):  # the seams between the touching cards
        cv2.line(image, (x0 + 100 * j, y0), (x0 + 100 * j, y0 + 145), (200, 200, 200), 1)
    proposals, typical = propose_corners(image)
    assert typical is not None and 95 < typical < 106
    for j in range(4):
        top_left = np.array([x0 + 100 * j, y0])
        assert any(
            np.linalg.norm(q.p - top_left) < 8 and q.u[0] > 0.95 and 90 < q.s < 110
            for q in proposals
        ), f"card {j}'s top-left corner"
        bottom_right = np.array([x0 + 400 - 100 * j, y0 + 145])
        assert any(np.linalg.norm(q.p - bottom_right) < 8 and q.u[0] < -0.95 for q in proposals), (
            f"card {3 - j}'s bottom-right corner"
        )


def test_a_long_outline_of_another_height_is_no_row_of_cards() -> None:
    # A white bar 4 card widths long but only half a card high: no corners along it.
    image = np.full((600, 900, 3), (40, 90, 30), np.uint8)
    cv2.rectangle(image, (100, 380), (200, 525), (245, 245, 245), -1)
    cv2.rectangle(image, (300, 150), (700, 222), (245, 245, 245), -1)
    proposals, _ = propose_corners(image)
    assert not any(350 < q.p[0] < 650 and abs(q.p[1] - 150) < 8 for q in proposals)


def _river_of_turned_cards(width: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """Four cards laid touching, each turned a few degrees, beside a lone larger card: the
    row's outline is ragged and its cards narrower than the lone card."""
    image = np.full((600, 900, 3), (40, 90, 30), np.uint8)
    cv2.rectangle(image, (100, 380), (200, 525), (245, 245, 245), -1)
    cards = [turned_card((340 + j * (width + 1), 230), width, (-4, 3, -3, 4)[j]) for j in range(4)]
    for quad in cards:
        cv2.fillPoly(image, [quad.round().astype(np.int32)], (245, 245, 245))
        cv2.polylines(image, [quad.round().astype(np.int32)], True, (150, 150, 150), 2)
    return image, cards


def test_cards_touching_each_turned_get_their_corners_from_the_seams_between_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image, cards = _river_of_turned_cards(80)

    def found(proposals: list[Proposal]) -> list[bool]:
        """Whether each card's top-left corner is proposed, its frame along the top edge."""
        out = []
        for quad in cards:
            top = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
            out.append(
                any(
                    np.linalg.norm(q.p - quad[0]) < 6 and float(q.u @ top) > 0.98 for q in proposals
                )
            )
        return out

    assert all(found(propose_corners(image)[0])), "each card's top-left corner"
    monkeypatch.setattr(proposals_module, "SEAMS", False)
    assert not all(found(propose_corners(image)[0])), "the row alone hides some corners"


def test_a_frame_table_has_one_row_per_frame_as_first_of_alike_takes_them() -> None:
    q = Proposal(np.array([1.0, 2.0]), np.array([0.0, 1.0]), np.array([-1.0, 0.0]), 40.0)
    assert frame_table([q, q]).tolist() == [[1.0, 2.0, 0.0, 1.0, -1.0, 0.0, 40.0]] * 2
    assert frame_table([]).shape == (0, 7)


def _proposals_with_outlines(path: str) -> int:
    image = cv2.imread(path)
    found, _ = propose_corners(image, outlines=OutlineModel())
    return len(found)


@pytest.mark.skipif(sys.platform != "linux", reason="fork is Linux's way of starting a process")
def test_a_process_forked_after_a_read_proposes_with_the_outline_model_too() -> None:
    # The outline model runs on a worker thread, which a forked child does not inherit: the
    # child must start its own rather than wait for the parent's (patches.py forks a pool).
    path = str(FIXTURES / "scene_0001.jpg")
    here = _proposals_with_outlines(path)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        there = pool.apply_async(_proposals_with_outlines, (path,)).get(timeout=120)
    assert there == here > 0
