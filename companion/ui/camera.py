"""The host computer's webcam: its frames, and JPEG previews of them."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

__all__ = ["Camera", "encode_jpeg"]

PREVIEW_WIDTH = 640  # preview frames are shrunk to this width before going to the browser


class Camera:
    """One opened webcam; ``open`` returns None when the computer has none."""

    def __init__(self, capture: Any) -> None:
        self._capture = capture

    @classmethod
    def open(cls, index: int = 0) -> Camera | None:
        capture = cv2.VideoCapture(index)
        if not capture.isOpened():
            capture.release()
            return None
        return cls(capture)

    def read(self) -> np.ndarray | None:
        ok, frame = self._capture.read()
        return frame if ok else None

    def close(self) -> None:
        self._capture.release()


def encode_jpeg(frame: np.ndarray, width: int | None = PREVIEW_WIDTH, quality: int = 80) -> bytes:
    """JPEG bytes of ``frame``, shrunk to ``width`` when wider (None keeps the full size)."""
    if width is not None and frame.shape[1] > width:
        scale = width / frame.shape[1]
        frame = cv2.resize(
            frame, (width, max(1, round(frame.shape[0] * scale))), interpolation=cv2.INTER_AREA
        )
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"frame of shape {frame.shape} cannot be encoded as JPEG")
    return data.tobytes()
