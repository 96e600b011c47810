"""The outline model's targets: card faces in view, cut apart where cards touch."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision.training.outline_data import (
    back_target,
    index_corners,
    outline_target,
    read_frames,
    write_frames,
)
from companion.vision.training.scenes import PlacedCard, Scene
from tests.helpers import draw_plain_deck


def _card(x: float, y: float, w: float = 40, h: float = 58) -> PlacedCard:
    quad = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)
    return PlacedCard("As", quad)


def _pieces(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (x, y, w, h) of the 4-connected pieces, left to right."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    return sorted(tuple(int(v) for v in stats[k, :4]) for k in range(1, count))  # type: ignore[misc]


def test_cards_laid_touching_come_out_as_one_piece_each() -> None:
    cards = [_card(10, 10), _card(50, 10), _card(90, 10)]  # each edge on the next one's
    pieces = _pieces(outline_target(cards, (80, 150), 1.0))
    assert len(pieces) == 3
    # The last card laid keeps its whole face (a quad from x 90 to 130 fills 41 pixel
    # columns); each earlier one loses the column the next card covers and the seam's.
    assert pieces[2] == (90, 10, 41, 59)
    assert [p[2] for p in pieces[:2]] == [39, 39]


def test_a_card_keeps_its_whole_face_against_the_table_and_scales_with_the_frame() -> None:
    target = outline_target([_card(20, 20)], (100, 100), 0.5)
    assert _pieces(target) == [(10, 10, 21, 30)]


def test_a_card_laid_across_another_hides_it_there() -> None:
    under, over = _card(10, 10), _card(30, 30)
    target = outline_target([under, over], (120, 120), 1.0)
    assert target[50, 50] == 1  # the upper card, where both lie
    assert target[15, 15] == 1 and target[85, 65] == 1  # each card's free corner
    pieces = _pieces(target)
    assert len(pieces) == 2
    assert (30, 30, 41, 59) in pieces


def test_index_corners_are_the_top_left_and_bottom_right_in_view() -> None:
    covered = PlacedCard("Kd", _card(60, 10).quad, shown=(1.0, 0.2))
    rows = index_corners([_card(10, 10), covered], 0.5)
    assert rows.shape == (3, 5)
    np.testing.assert_allclose(rows[0], [5, 5, 1, 0, 20], atol=1e-5)  # TL: along the top, right
    np.testing.assert_allclose(rows[1], [25, 34, -1, 0, 20], atol=1e-5)  # BR: along the bottom
    np.testing.assert_allclose(rows[2], [30, 5, 1, 0, 20], atol=1e-5)  # the covered BR is left out


def test_each_index_corner_has_the_width_of_its_own_edge() -> None:
    # Seen steeply: the top edge (far) is 30 long, the bottom edge (near) 40.
    quad = np.array([[15, 10], [45, 10], [50, 60], [10, 60]], np.float64)
    rows = index_corners([PlacedCard("As", quad)], 1.0)
    np.testing.assert_allclose(rows[:, 4], [30, 40], atol=1e-5)


def test_the_back_target_is_the_backs_in_view_one_piece_a_face_down_hand() -> None:
    pair = [_card(10, 10).quad, _card(30, 20).quad]  # a face-down hand, overlapping
    lone = _card(120, 10).quad
    face = _card(140, 40)  # a face-up card laid over the lone back's corner
    scene = Scene(np.zeros((1, 1, 3), np.uint8), [face], [], [], backs=[*pair, lone])
    target = back_target(scene, (110, 200), 1.0)
    assert len(_pieces(target)) == 2
    assert _pieces(target)[0] == (10, 10, 61, 69)  # the hand: both backs, whole
    assert target[50, 130] == 1 and target[60, 150] == 0  # the face hides the back under it
    assert target[5, 5] == 0 and target[100, 100] == 0  # the table


def test_frames_with_backs_carry_the_back_target(tmp_path: Path) -> None:
    cards = draw_plain_deck(tmp_path / "cards")
    out = tmp_path / "frames.npz"
    write_frames(out, 4, 5, cards, held_out=False, backs=tmp_path / "no_art")
    images, backs = read_frames(out, beside="backs")
    assert len(images) == 4 and all(
        b.shape == i.shape[:2] for i, b in zip(images, backs, strict=True)
    )
    assert sum(int(b.sum()) for b in backs) > 0
    plain = tmp_path / "plain.npz"
    write_frames(plain, 1, 5, cards, held_out=False)
    assert not any(key.startswith("backs_") for key in np.load(plain).files)
