"""Photos as BGR pixels: a file or an upload decoded once, for the CLI and the app alike."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.errors import ImageDecodeError
from companion.messages import phrase

__all__ = ["MIN_IMAGE_SIDE", "decode_image", "load_image", "refuse_too_small"]

MIN_IMAGE_SIDE = 16  # pixels: a smaller picture cannot show a readable card


def refuse_too_small(image: np.ndarray, name: str) -> np.ndarray:
    """``image``, unless it is too small to show a card: then an ``ImageDecodeError`` naming
    the file (``detect`` only accepts pictures of at least ``MIN_IMAGE_SIDE`` pixels)."""
    height, width = image.shape[:2]
    if min(height, width) < MIN_IMAGE_SIDE:
        raise ImageDecodeError(name, phrase("image.too_small", width=width, height=height))
    return image


def _decoded(data: np.ndarray) -> np.ndarray | None:
    """The BGR pixels of an encoded image's bytes, or None when OpenCV cannot decode them."""
    try:
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error:  # OpenCV refuses some truncated headers by raising, others with None
        return None


def load_image(path: Path) -> np.ndarray:
    """Decode ``path`` as a BGR image, or raise ``ImageDecodeError`` naming it."""
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as error:
        raise ImageDecodeError(
            str(path), phrase("image.cannot_open", reason=error.strerror or "")
        ) from error
    if data.size == 0:
        raise ImageDecodeError(str(path), phrase("image.empty"))
    image = _decoded(data)
    if image is None:
        raise ImageDecodeError(str(path), phrase("image.not_an_image"))
    return refuse_too_small(image, str(path))


def decode_image(data: bytes, name: str) -> np.ndarray:
    """BGR pixels of an uploaded file's bytes; anything that is not an image is refused by
    ``name``."""
    if not data:
        raise ImageDecodeError(name, phrase("image.empty"))
    image = _decoded(np.frombuffer(data, np.uint8))
    if image is None:
        raise ImageDecodeError(name, phrase("image.not_an_image"))
    return refuse_too_small(image, name)
