"""The reads drawn on a copy of their picture (``draw.draw_reads``)."""

from dataclasses import replace

import cv2
import numpy as np

from companion.vision import CardDetector, Detections, draw_reads
from companion.vision.draw import SURE_COLOUR, TEXT_COLOUR, UNREAD_COLOUR, UNSURE_COLOUR
from tests.helpers import FIXTURES, cards


def _one_card(confidence: float) -> Detections:
    quad = np.array([[[50, 50], [120, 50], [120, 150], [50, 150]]], np.float32)
    box = np.concatenate([quad.min(axis=1), quad.max(axis=1)], axis=1)
    return Detections(cards("As"), np.array([confidence]), box, quad)


def test_reads_are_drawn_on_a_copy_and_the_picture_is_left_as_it_was() -> None:
    frame = np.zeros((200, 300, 3), np.uint8)
    out = draw_reads(frame, _one_card(0.95))
    assert not frame.any()
    assert out is not frame and out.shape == frame.shape
    assert out[50, 80].tolist() == list(SURE_COLOUR)  # on the outline's top edge
    assert not out[60, 60].any()  # inside the card, away from the label: untouched


def test_unsure_reads_are_drawn_in_their_own_colour() -> None:
    out = draw_reads(np.zeros((200, 300, 3), np.uint8), _one_card(0.5))
    assert out[50, 80].tolist() == list(UNSURE_COLOUR)


def test_a_sure_read_with_a_doubt_is_drawn_as_one_to_check() -> None:
    sure = _one_card(0.99)
    doubted = Detections(sure.cards, sure.confidence, sure.xyxy, sure.quads, doubts=(("colour",),))
    frame = np.zeros((200, 300, 3), np.uint8)
    assert draw_reads(frame, sure)[50, 80].tolist() == list(SURE_COLOUR)
    assert draw_reads(frame, doubted)[50, 80].tolist() == list(UNSURE_COLOUR)


def test_no_reads_draw_nothing() -> None:
    frame = np.full((10, 10, 3), 7, np.uint8)
    out = draw_reads(frame, Detections.empty())
    assert np.array_equal(out, frame) and out is not frame


def test_a_photos_reads_are_drawn_where_the_detector_found_them() -> None:
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    before = image.copy()
    detections = CardDetector().detect(image)
    out = draw_reads(image, detections)
    assert np.array_equal(image, before)
    changed = np.any(out != image, axis=2)
    for x0, y0, x1, y1 in detections.xyxy.astype(int):
        assert changed[y0 : y1 + 1, x0 : x1 + 1].any()


def test_unread_card_faces_are_outlined_in_red() -> None:
    face = np.array([[[150, 50], [220, 50], [220, 150], [150, 150]]], np.float32)
    read = _one_card(0.99)
    out = draw_reads(np.zeros((200, 300, 3), np.uint8), replace(read, unread=face))
    assert out[50, 180].tolist() == list(UNREAD_COLOUR)
    assert out[50, 80].tolist() == list(SURE_COLOUR)


def test_the_label_of_a_small_card_stays_over_its_card() -> None:
    # Cards 40 px wide side by side in a small frame: each label fits over its own card.
    quad = np.array([[[50, 50], [90, 50], [90, 106], [50, 106]]], np.float32)
    box = np.concatenate([quad.min(axis=1), quad.max(axis=1)], axis=1)
    small = Detections(cards("Td"), np.array([0.99]), box, quad)
    out = draw_reads(np.zeros((200, 300, 3), np.uint8), small)
    ys, xs = np.nonzero(np.all(out == TEXT_COLOUR, axis=2))
    assert len(xs) and xs.min() >= 45 and xs.max() <= 95 and 50 < ys.mean() < 106
    # A large card's label keeps the frame's size.
    big = _one_card(0.99)
    out = draw_reads(np.zeros((200, 300, 3), np.uint8), big)
    _, xs = np.nonzero(np.all(out == TEXT_COLOUR, axis=2))
    assert xs.max() - xs.min() > 60
