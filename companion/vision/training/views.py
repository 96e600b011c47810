"""A photo seen otherwise: in a coloured or dim light, from a seated player's steep angle,
smeared by a hand that moved while the shutter was open, or through a webcam.

Rendered sets are lit and smeared so (``scenes --light``, ``--motion``) and labelled photos are
read so (``evaluate --light``, ``--tilt``, ``--motion``, ``--webcam``): the real photos measure
the reader in a room's light, from a chair, from an unsteady hand and through a webcam without
new photos being taken, and without anything being tuned on them.
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np

from companion.vision.proposals.levels import work_factor

__all__ = [
    "in_light",
    "light_argument",
    "motion_argument",
    "parse_light",
    "smeared",
    "tilted",
    "webcam",
    "webcam_argument",
]

# A camera's focal length in frame sides: a phone's main camera sees about 50 degrees across.
_FOCAL = 1.2
_FLOOR = (40, 40, 40)  # what lies beyond the photo's edge once it is turned
# A webcam's frame: its lens and demosaicing soften each pixel into its neighbours (a Gaussian
# of this many pixels), its small sensor adds noise (this many levels of 255), and its stream
# is JPEG (motion JPEG) at this quality. The long side is the caller's (``_WEBCAM_SIDES``).
_WEBCAM_SOFTEN = 0.8
_WEBCAM_NOISE = 3.0
_WEBCAM_QUALITY = 70
_WEBCAM_SIDES = (320, 4000)


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


def smeared(image: np.ndarray, length: float, degrees: float) -> np.ndarray:
    """``image`` blurred as a camera moving ``length`` (a share of the frame's long side, e.g.
    0.005) along ``degrees`` (0: to the right; y down) during the exposure would see it: the
    mean of the frame shifted evenly along that line."""
    pixels = length * max(image.shape[:2])
    if pixels < 1.0:
        return image
    size = int(np.ceil(pixels)) | 1
    middle = size // 2
    # Drawn at 16x and shrunk, so that a line at any angle keeps its length and its weight.
    big = np.zeros((size * 16, size * 16), np.float32)
    t = np.radians(degrees)
    half = 8 * pixels * np.array([np.cos(t), np.sin(t)])
    centre = np.array([middle * 16 + 8, middle * 16 + 8], np.float64)
    a, b = np.round(centre - half).astype(int), np.round(centre + half).astype(int)
    cv2.line(big, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 1.0, 16)
    shrunk = np.asarray(cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA))
    kernel = shrunk / shrunk.sum()
    return np.asarray(cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REPLICATE))


def motion_argument(text: str) -> float:
    """A motion blur's length as an argparse ``type``: a share of the long side, 0 to 0.05
    (written e.g. 0.005 for half a percent)."""
    try:
        length = float(text)
    except ValueError:
        length = -1.0
    if not 0.0 <= length <= 0.05:
        raise argparse.ArgumentTypeError(
            f"--motion takes a share of the photo's long side from 0 to 0.05: got {text!r}"
        )
    return length


def webcam(
    image: np.ndarray,
    long_side: int,
    seed: int = 0,
    soften: float = _WEBCAM_SOFTEN,
    noise: float = _WEBCAM_NOISE,
    quality: int = _WEBCAM_QUALITY,
) -> np.ndarray:
    """``image`` as a webcam would stream it at ``long_side`` pixels on its long side (never
    enlarged): shrunk, softened (a Gaussian of ``soften`` pixels), noisy (``noise`` levels,
    drawn from ``seed``) and JPEG-compressed at ``quality``."""
    f = work_factor(image.shape, long_side)
    h, w = image.shape[:2]
    size = (max(1, round(w * f)), max(1, round(h * f)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA) if f < 1.0 else image
    soft = cv2.GaussianBlur(small, (0, 0), soften).astype(np.float32)
    grain = np.random.default_rng(seed).normal(0.0, noise, soft.shape)
    noisy = np.clip(soft + grain, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)) if ok else noisy


def webcam_argument(text: str) -> int:
    """A webcam frame's long side as an argparse ``type``: pixels, 320 to 4000."""
    try:
        side = int(text)
    except ValueError:
        side = -1
    if not _WEBCAM_SIDES[0] <= side <= _WEBCAM_SIDES[1]:
        raise argparse.ArgumentTypeError(
            f"--webcam takes the frame's long side in pixels, from {_WEBCAM_SIDES[0]} to "
            f"{_WEBCAM_SIDES[1]}: got {text!r}"
        )
    return side
