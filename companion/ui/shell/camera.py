"""The host computer's webcam: its frames, their reads fused over frames, and JPEG previews."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.ui.kit.services import LazyDetector

if TYPE_CHECKING:
    from companion.vision import Detections
    from companion.vision.layouts.expect import Expect
    from companion.vision.layouts.read import GroupedCards
    from companion.vision.live import CardFollower

__all__ = ["Camera", "FusedDetector", "LazyFollower", "encode_jpeg"]

PREVIEW_WIDTH = 640  # preview frames are shrunk to this width before going to the browser


class Camera:
    """One opened webcam: a camera's number (0: the first), a stream's URL (a phone's camera
    app streaming over the network) or a recorded video, which plays again from its start when
    it ends; ``open`` returns None when there is no such camera."""

    def __init__(self, capture: Any, loop: bool = False) -> None:
        self._capture = capture
        self._loop = loop

    @classmethod
    def open(cls, source: int | str = 0) -> Camera | None:
        capture = cv2.VideoCapture(source)
        if not capture.isOpened():
            capture.release()
            return None
        return cls(capture, loop=isinstance(source, str) and Path(source).is_file())

    def frame(self) -> np.ndarray | None:
        """The camera's next frame (BGR), or None when it gives none."""
        ok, frame = self._capture.read()
        if not ok and self._loop:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
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


class LazyFollower:
    """The webcam's frames followed one after the other with the app's card detector, their
    reads fused over the recent frames (``companion.vision.live``): each card is shown as sure
    once read the same way in several frames. Made before the vision package is loaded; it
    loads on the first frame."""

    def __init__(self, detector: LazyDetector) -> None:
        self._detector = detector
        self._live: CardFollower | None = None

    def follow(self, frame: np.ndarray) -> Detections | None:
        """The fused read after this frame, or None when the detector is unavailable."""
        if self._live is None:
            detector = self._detector.loaded()
            if detector is None:
                return None
            from companion.vision.live import CardFollower

            self._live = CardFollower(detector)
        return self._live.follow(frame)

    def fused(self) -> Detections | None:
        """The fused read of the frames so far (None before any was read)."""
        return None if self._live is None else self._live.fused()


class FusedDetector(LazyDetector):
    """The app's detector for a captured frame: its read is the webcam's fused read, as a
    capture keeps what the recent frames agreed on, not one frame's read. Given the app's
    detector, it adds the card faces seen on the captured frame where no fused card lies
    (``unread``)."""

    def __init__(self, fused: Detections, detector: LazyDetector | None = None) -> None:
        super().__init__()
        self._fused = fused
        self._app = detector

    def detect(self, image: np.ndarray) -> Detections:
        detector = None if self._app is None else self._app.loaded()
        if detector is None:
            return self._fused
        return detector.with_unread(image, self._fused)

    def read_layout(
        self, image: np.ndarray, expect: Expect | None = None, decks: int = 1
    ) -> GroupedCards:
        # The live path already read the frames with the table's decks; a layout that
        # does not fit is then reported by the grouping.
        from companion.vision.layouts.read import grouped  # loaded with the fused read

        return grouped(self.detect(image), expect)
