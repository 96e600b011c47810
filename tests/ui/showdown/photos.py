"""Table photos for the seats and doubts tests: a rendered fixture scene, turned, or with a
card covered by a hand (painted over in the table's colour where the reader saw it)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

SCENE = Path(__file__).resolve().parents[2] / "fixtures" / "images" / "scene_0001.jpg"
# What the scene holds (tests/fixtures/images/labels.json), hands as the reader lists them.
RIVER = ("9h", "9s", "6d", "Qc", "Th")
HANDS = (("Jh", "Kd"), ("2h", "2c"), ("6c", "8s"), ("6s", "4c"))
# The same hands clockwise from the photo's bottom edge: a night's first guess at its players.
CLOCKWISE = (("6s", "4c"), ("6c", "8s"), ("Jh", "Kd"), ("2h", "2c"))


def scene() -> np.ndarray:
    image = cv2.imread(str(SCENE))
    if image is None:
        raise FileNotFoundError(SCENE)
    return image


def turned(image: np.ndarray, degrees: float) -> np.ndarray:
    """The photo taken with the phone turned (counter-clockwise by ``degrees``), none cut off."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    size = (int(h * sin + w * cos), int(h * cos + w * sin))
    matrix[0, 2] += size[0] / 2 - w / 2
    matrix[1, 2] += size[1] / 2 - h / 2
    return cv2.warpAffine(image, matrix, size, borderMode=cv2.BORDER_REPLICATE)


def covered(image: np.ndarray, *cards: str) -> np.ndarray:
    """The photo with ``cards`` hidden: their outlines as the reader sees them, 6 % larger,
    painted in the table's colour (a corner of the photo). No larger: the outline read
    follows the card's edges, and the six of clubs' index lies just past the eight of
    spades' edge, under it (10 % larger painted over it too)."""
    out = image.copy()
    colour = tuple(int(v) for v in np.median(image[5:40, 5:40].reshape(-1, 3), axis=0))
    for quad in _outlines_read(image, cards):
        middle = quad.mean(axis=0)
        cv2.fillConvexPoly(out, (middle + (quad - middle) * 1.06).astype(np.int32), colour)
    return out


def hidden_centre(image: np.ndarray, card: str) -> np.ndarray:
    """The centre of ``card`` where the reader reads it on ``image`` (before ``covered``)."""
    (quad,) = _outlines_read(image, (card,))
    return np.asarray(quad, np.float64).mean(axis=0)


def jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise ValueError("not encoded")
    return data.tobytes()


def unindexed(image: np.ndarray, *cards: str) -> np.ndarray:
    """The photo with both index corners of ``cards`` painted over in card white, where the
    reader saw them: faces it sees and cannot read (``tests.helpers.without_indices``)."""
    from tests.helpers import without_indices

    out = image.copy()
    for quad in _outlines_read(image, cards):
        out = without_indices(out, quad)
    return out


def _outlines_read(image: np.ndarray, cards: tuple[str, ...]) -> list[np.ndarray]:
    """The outlines of ``cards`` where the reader reads them on ``image``."""
    from companion.vision import CardDetector

    read = CardDetector().detect(image)
    codes = [str(card) for card in read.cards]
    return [read.quads[codes.index(card)] for card in cards]
