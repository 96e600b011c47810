"""The crops of corner frames, cut from the full-resolution frame (``geometry.crop_corners``)."""

from __future__ import annotations

import numpy as np

from companion.vision.base import geometry
from companion.vision.proposals import Proposal

__all__ = ["cut"]


def cut(
    image: np.ndarray,
    frames: list[Proposal],
    extent: geometry.Extent = geometry.CORNER,
    scale: float = 1.0,
) -> np.ndarray:
    """The crops of ``frames`` from ``image``, whose pixels are ``scale`` of the frames'."""
    p = np.array([q.p for q in frames], np.float64).reshape(-1, 2) * scale
    u = np.array([q.u for q in frames], np.float64).reshape(-1, 2)
    v = np.array([q.v for q in frames], np.float64).reshape(-1, 2)
    s = np.array([q.s for q in frames], np.float64) * scale
    return geometry.crop_corners(image, p, u, v, s, extent)
