"""Webcam frames: reads drawn on a copy, JPEG for the preview, no camera handled."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from companion.ui.actions import decode_image
from companion.ui.camera import PREVIEW_WIDTH, Camera, annotate, encode_jpeg


def read_of(quads: list[list[tuple[int, int]]], codes: tuple[str, ...]) -> SimpleNamespace:
    """The shape of vision's TableRead that ``annotate`` uses (codes and quads)."""
    return SimpleNamespace(detections=SimpleNamespace(codes=codes, quads=np.array(quads)))


def test_annotate_draws_on_a_copy() -> None:
    frame = np.zeros((200, 300, 3), np.uint8)
    out = annotate(frame, read_of([[(50, 50), (120, 50), (120, 150), (50, 150)]], ("As",)))
    assert not frame.any()
    assert out[50, 80].tolist() == [0, 200, 255]  # on the outline's top edge
    assert not out[100, 85].any()  # inside the card, untouched


def test_annotate_without_a_read_is_the_frame() -> None:
    frame = np.full((10, 10, 3), 7, np.uint8)
    assert np.array_equal(annotate(frame, None), frame)


def test_preview_jpeg_is_shrunk_and_capture_is_not() -> None:
    frame = np.full((720, 1280, 3), 128, np.uint8)
    assert decode_image(encode_jpeg(frame)).shape == (360, PREVIEW_WIDTH, 3)
    assert decode_image(encode_jpeg(frame, width=None)).shape == (720, 1280, 3)


def test_a_missing_camera_is_none() -> None:
    assert Camera.open(97) is None
