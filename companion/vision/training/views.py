"""A photo seen otherwise: in a coloured or dim light, or from a seated player's steep angle.

Rendered sets are lit so (``scenes --light``) and labelled photos are read so
(``evaluate --light``, ``--tilt``): the real photos measure the reader in a room's light and
from a chair without new photos being taken, and without anything being tuned on them.
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np

__all__ = ["in_light", "light_argument", "parse_light", "tilted"]

# A camera's focal length in frame sides: a phone's main camera sees about 50 degrees across.
_FOCAL = 1.2
_FLOOR = (40, 40, 40)  # what lies beyond the photo's edge once it is turned


def parse_light(text: str) -> tuple[float, float, float] | None:
    """The B, G, R gains written ``B,G,R``; None when ``text`` is not three gains 0..4."""
    try:
        b, g, r = (float(v) for v in text.split(","))
    except ValueError:
        return None
    return (b, g, r) if all(0.0 <= v <= 4.0 for v in (b, g, r)) else None


def light_argument(text: str) -> tuple[float, float, float]:
    """``parse_light`` as an argparse ``type``: a bad light is a usage error naming it."""
    light = parse_light(text)
    if light is None:
        raise argparse.ArgumentTypeError(
            f"--light takes three gains from 0 to 4, B,G,R: got {text!r}"
        )
    return light


def in_light(image: np.ndarray, light: tuple[float, float, float]) -> np.ndarray:
    """``image`` (BGR) with each channel scaled by ``light``."""
    return np.asarray(np.clip(image * np.array(light, np.float32), 0, 255), np.uint8)


def tilted(image: np.ndarray, degrees: float) -> np.ndarray:
    """``image`` as a camera turned ``degrees`` about the frame's horizontal axis would see
    it (the top recedes), scaled to fit the same frame."""
    h, w = image.shape[:2]
    f = _FOCAL * max(w, h)
    camera = np.array([[f, 0.0, w / 2], [0.0, f, h / 2], [0.0, 0.0, 1.0]])
    t = -np.radians(degrees)  # the top turned away from the camera
    turn = np.array([[1.0, 0.0, 0.0], [0.0, np.cos(t), -np.sin(t)], [0.0, np.sin(t), np.cos(t)]])
    seen = camera @ turn @ np.linalg.inv(camera)
    frame = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32)
    corners = cv2.perspectiveTransform(frame, seen)[0]
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    k = min(w / (x1 - x0), h / (y1 - y0))
    fit = np.array(
        [
            [k, 0.0, -x0 * k + (w - (x1 - x0) * k) / 2],
            [0.0, k, -y0 * k + (h - (y1 - y0) * k) / 2],
            [0.0, 0.0, 1.0],
        ]
    )
    return np.asarray(
        cv2.warpPerspective(image, fit @ seen, (w, h), flags=cv2.INTER_AREA, borderValue=_FLOOR)
    )
