"""Webcam frames: JPEG for the preview, no camera handled (the reads' drawing: vision.draw)."""

from __future__ import annotations

import numpy as np

from companion.ui.camera import PREVIEW_WIDTH, Camera, encode_jpeg
from companion.ui.services import decode_upload


def test_preview_jpeg_is_shrunk_and_capture_is_not() -> None:
    frame = np.full((720, 1280, 3), 128, np.uint8)
    assert decode_upload(encode_jpeg(frame)).shape == (360, PREVIEW_WIDTH, 3)
    assert decode_upload(encode_jpeg(frame, width=None)).shape == (720, 1280, 3)


def test_a_missing_camera_is_none() -> None:
    assert Camera.open(97) is None
