"""What the app is given at start (the game log, its data folder, the card reader), and the
shape of an action.

Each action takes the state and the services and returns the next state; the app runs it
(``ui/shell/dispatch.py``). An action is generic in the state: a screen types it with its own
host protocol, never with the app's state.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from companion.errors import ImageDecodeError, ModelLoadError
from companion.messages import phrase
from companion.storage import GameLog
from companion.ui.kit.banner import Banner

if TYPE_CHECKING:  # types only: the app starts without the vision package
    from companion.vision.base.detections import Detections
    from companion.vision.detector import CardDetector
    from companion.vision.layouts.expect import Expect
    from companion.vision.layouts.read import GroupedCards

__all__ = [
    "MAX_UPLOAD_BYTES",
    "LazyDetector",
    "Services",
    "Action",
    "pure",
    "decode_upload",
    "vision_off",
]

MAX_UPLOAD_BYTES = 15 * 1024 * 1024  # a phone photo is 2-8 MB; more is not a table photo


def _load_detector() -> CardDetector:
    # Imported here: the app must start, and typing must work, without the vision package.
    from companion.vision import CardDetector

    return CardDetector()


def _warm_up_photo() -> np.ndarray:
    """A drawn table (white cards with a letter in the corner) read once at start: each model
    session then runs once, gets its memory and kernels ready, and the first real photo is read
    as fast as the next ones (a blank photo would leave the card readers unrun)."""
    import cv2  # with the reader: only called once it loaded

    image = np.full((768, 1024, 3), (40, 110, 30), np.uint8)
    for k, letter in enumerate("AKQJ9"):
        x = 150 + 150 * k
        cv2.rectangle(image, (x, 300), (x + 100, 445), (245, 245, 245), -1)
        ink = (30, 30, 200) if k % 2 == 0 else (20, 20, 20)
        cv2.putText(image, letter, (x + 6, 330), cv2.FONT_HERSHEY_SIMPLEX, 0.9, ink, 2)
    return image


class LazyDetector:
    """The app's card detector, loaded on first use or by ``preload``; ``unavailable`` says why
    it cannot be. ``detect`` and ``read_layout`` read a photo with it (None when it cannot)."""

    def __init__(self, loader: Callable[[], CardDetector] = _load_detector) -> None:
        self._loader = loader
        self._detector: CardDetector | None = None
        self._lock = threading.Lock()  # the preload and a first photo must not load it twice
        self.unavailable: Banner | None = None  # why, in the reader's words

    def loaded(self) -> CardDetector | None:
        """The detector, loaded now if it was not yet; None when it cannot be."""
        with self._lock:
            if self._detector is None and self.unavailable is None:
                try:
                    self._detector = self._loader()
                except ImportError as error:
                    self.unavailable = Banner.of(
                        "app.missing_module", name=error.name or str(error)
                    )
                except ModelLoadError as error:
                    self.unavailable = Banner.of_error(error)
            return self._detector

    def warm_up(self) -> None:
        """Load the detector and read one drawn table with it (the slow first run)."""
        detector = self.loaded()
        if detector is not None:
            from companion.vision.layouts.expect import Expect
            from companion.vision.layouts.read import read_layout

            read_layout(detector, _warm_up_photo(), Expect(5, 4, 2))

    def preload(self) -> threading.Thread:
        """``warm_up`` in a background thread, started now (the app answers meanwhile)."""
        thread = threading.Thread(target=self.warm_up, name="companion-reader", daemon=True)
        thread.start()
        return thread

    def detect(self, image: np.ndarray) -> Detections | None:
        """The cards the detector reads on ``image``, or None when it is unavailable."""
        detector = self.loaded()
        return None if detector is None else detector.detect(image)

    def read_layout(
        self, image: np.ndarray, expect: Expect | None = None, decks: int = 1
    ) -> GroupedCards | None:
        """The cards read on a table photo and their grouping, told the table's layout
        ``expect`` and its ``decks`` (``layouts.read``), or None when the reader is
        unavailable."""
        detector = self.loaded()
        if detector is None:
            return None
        from companion.vision.layouts.read import read_layout  # loaded with the reader

        return read_layout(detector, image, expect, decks)


@dataclass
class Services:
    """What the app is given at start: the game log, its data folder, the card detector, and
    the webcam its live preview opens (``camera.Camera.open``)."""

    log: GameLog
    data_dir: Path
    detector: LazyDetector = field(default_factory=LazyDetector)
    webcam: int | str = 0


S = TypeVar("S")
Action = Callable[[S, Services], S]


def pure(change: Callable[[S], S]) -> Action[S]:
    """An action that needs no service: a state method."""
    return lambda state, _services: change(state)


def vision_off(note: Banner | None) -> Banner:
    """The banner saying photos cannot be read now (``note``: why), and that typing works."""
    reason = note.message if note is not None else phrase("app.reason_unknown")
    return Banner.of("vision_off", reason=reason)


def decode_upload(data: bytes, name: str = "upload") -> np.ndarray:
    """BGR pixels of an uploaded file; too large, empty or not an image is refused by name."""
    if len(data) > MAX_UPLOAD_BYTES:
        limit = MAX_UPLOAD_BYTES // 2**20
        raise ImageDecodeError(name, phrase("image.too_large", limit=limit))
    # Here, not at the top: the app starts without the vision package (it loads with a photo).
    from companion.vision.base.image import decode_image

    return decode_image(data, name)
