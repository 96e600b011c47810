"""The back finder's measure: backs found, false backs and reads on backs, from the labels."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.backs import Back
from companion.vision.training.back_eval import BackCount, count_image, share_on


def _rect(x: float, y: float, w: float = 40, h: float = 58) -> list[list[float]]:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def _back(outline: list[list[float]]) -> Back:
    points = np.array(outline, np.float64)
    return Back(points, points, 0.9, 40 * 58)


ENTRY = {
    "cards": ["As", "Kd"],
    "backs": [_rect(10, 10), _rect(30, 20), _rect(200, 10)],
    "backs_shown": [0.6, 1.0, 1.0],
    "face_down": {"P3": [0, 1]},
    "face_quads": [_rect(100, 10), _rect(200, 100)],
    "face_codes": ["As", "Kd"],
}


def test_a_hand_found_whole_and_a_lone_back_missed() -> None:
    hand = _back([[10, 10], [70, 10], [70, 78], [10, 78]])
    count = count_image(ENTRY, [hand], (200, 300))
    assert (count.backs, count.backs_found) == (3, 2)
    assert (count.hands, count.hands_found) == (1, 1)
    assert (count.found, count.false) == (1, 0)


def test_a_back_found_on_a_court_card_is_false_and_on_a_face() -> None:
    on_king = _back(_rect(200, 100))
    count = count_image(ENTRY, [on_king], (200, 300))
    assert (count.false, count.false_on_faces, count.false_on_courts) == (1, 1, 1)
    assert count.photos_with_false == 1


def test_reads_on_backs_are_phantoms_and_reads_elsewhere_faces() -> None:
    found = [_back(_rect(200, 10)), _back(_rect(100, 10))]  # the second lies on the ace
    reads = np.array([_rect(201, 11), _rect(100, 10), _rect(200, 100)], np.float64)
    count = count_image(ENTRY, found, (200, 300), (reads, ["9d", "As", "Kd"]))
    assert (count.reads, count.phantoms, count.phantoms_removed) == (3, 1, 1)
    assert (count.faces_removed, count.right_removed) == (1, 1)


def test_a_photo_without_back_labels_counts_its_found_backs_as_false() -> None:
    count = count_image({"cards": []}, [_back(_rect(5, 5))], (100, 100))
    assert (count.backs, count.found, count.false, count.false_on_faces) == (0, 1, 1, 0)
    total = count + count
    assert total.photos == 2 and total.false == 2 and isinstance(total, BackCount)


def test_share_on_is_the_area_of_each_outline_on_the_mask() -> None:
    mask = np.zeros((100, 100), np.uint8)
    mask[:, :50] = 1
    shares = share_on(np.array([_rect(10, 10, 20, 20), _rect(40, 10, 20, 20)]), mask)
    np.testing.assert_allclose(shares, [1.0, 0.5], atol=0.06)


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "images" / "backs"


@pytest.mark.parametrize("name", ["face_down_01.jpg", "face_down_02.jpg"])
def test_on_rendered_labels_the_labelled_backs_are_all_found_and_faces_all_false(
    name: str,
) -> None:
    entry = next(
        e for e in json.loads((FIXTURES / "labels.json").read_text()) if e["image"] == name
    )
    image = cv2.imread(str(FIXTURES / name))
    assert image is not None
    shape = image.shape[:2]
    # The backs half in view or more, found exactly as labelled.
    shown = [
        _back(q) for q, s in zip(entry["backs"], entry["backs_shown"], strict=True) if s >= 0.5
    ]
    count = count_image(entry, shown, shape)
    assert count.backs == count.backs_found == len(shown) > 0
    assert count.hands == count.hands_found == len(entry["face_down"]) > 0
    assert count.false == 0
    faces = [_back(quad) for quad in entry["face_quads"]]
    count = count_image(entry, faces, shape)
    assert (count.backs_found, count.false) == (0, len(faces))
    assert count.false_on_faces == len(faces)
