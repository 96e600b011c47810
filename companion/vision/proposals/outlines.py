"""The outline model: where card faces lie on a frame, learned from rendered tables.

The whiteness levels of ``proposals`` find cards as the whitest things on the table. Where the
table is nearly as light (pale wood), where glare washes a card and the table alike, or where
cards touch in a river with no shadow between them, no level outlines a card on its own. A
small network (``training.outline_train``) reads the frame shrunk to ``INPUT_SIDE`` pixels and
says which pixels are card faces, with a seam cut where one card lies on or against another;
its mask is one more source of outlines for the proposals.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.errors import ModelLoadError
from companion.vision.base.sessions import MODELS, open_session

__all__ = ["DEFAULT_OUTLINES", "INPUT_SIDE", "STRIDE", "OutlineModel", "padded", "shrunk"]

INPUT_SIDE = 512  # long side of the frame the model reads
STRIDE = 8  # the model halves the frame three times: its sides must divide by this
DEFAULT_OUTLINES = MODELS / "card_outlines.onnx"


class OutlineModel:
    """``OutlineModel().card_mask(image, size)``: 1 where the model sees a card face."""

    def __init__(self, path: Path | str = DEFAULT_OUTLINES, threads: int = 2) -> None:
        self._session, meta = open_session(Path(path), threads)
        if "outlines" not in meta:
            raise ModelLoadError(str(path), "not an outline model (no 'outlines' metadata)")

    def card_mask(self, image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """uint8 mask of ``size`` (width, height; the frame's proportions), 1 on card faces,
        from the BGR ``image`` read at ``INPUT_SIDE`` pixels on its long side."""
        small, _ = shrunk(image)
        sh, sw = small.shape[:2]
        (logits,) = self._session.run(None, {"frame": padded(small)[None].astype(np.float32)})
        # Logits, not a thresholded mask, are enlarged: the outline falls between pixels.
        grown = cv2.resize(
            np.ascontiguousarray(logits[0, :sh, :sw]), size, interpolation=cv2.INTER_LINEAR
        )
        return (grown > 0).astype(np.uint8)


def shrunk(image: np.ndarray) -> tuple[np.ndarray, float]:
    """``image`` area-averaged down to ``INPUT_SIDE`` pixels on its long side, as the model
    reads it (and was trained on), and the factor used."""
    h, w = image.shape[:2]
    f = INPUT_SIDE / max(h, w)
    return cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA), f


def padded(frame: np.ndarray) -> np.ndarray:
    """``frame`` with its last row and column repeated until both sides divide by ``STRIDE``."""
    h, w = frame.shape[:2]
    return cv2.copyMakeBorder(frame, 0, -h % STRIDE, 0, -w % STRIDE, cv2.BORDER_REPLICATE)
