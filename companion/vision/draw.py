"""The reads drawn on a copy of their picture: each card's outline, code and confidence, and
the card faces seen but not read."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.base.detections import Detections

__all__ = ["SURE_COLOUR", "TEXT_COLOUR", "UNREAD_COLOUR", "UNSURE_COLOUR", "draw_reads"]

# BGR. Reads players should check by eye (``Detections.check``) are drawn orange, the others
# green; card faces seen where no card was read (``Detections.unread``) red.
SURE_COLOUR = (0, 200, 0)
UNSURE_COLOUR = (0, 200, 255)
TEXT_COLOUR = (255, 0, 255)
UNREAD_COLOUR = (0, 0, 255)
LABEL_WIDTH = 1.1  # card widths: a card's code and confidence drawn no wider than this
LABEL_LEAST = 0.6  # the font scale under which a card is labelled with its code alone


def draw_reads(image: np.ndarray, detections: Detections) -> np.ndarray:
    """A copy of ``image`` with each card's outline, code and confidence drawn on it; ``image``
    is left as it was."""
    out = image.copy()
    thick = max(2, round(max(image.shape[:2]) / 600))
    for card, conf, quad, check in zip(
        detections.cards, detections.confidence, detections.quads, detections.check, strict=True
    ):
        colour = UNSURE_COLOUR if check else SURE_COLOUR
        cv2.polylines(out, [quad.astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        _label(out, (f"{card} {conf:.2f}", str(card)), quad, 0.6 * thick)
    for quad in detections.unread:
        # A card face seen and not read: red, with a question mark where its code would be.
        cv2.polylines(out, [quad.astype(np.int32)], True, UNREAD_COLOUR, thick, cv2.LINE_AA)
        x, y = quad.mean(axis=0)
        cv2.putText(
            out,
            "?",
            (int(x) - 5 * thick, int(y)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.9 * thick,
            UNREAD_COLOUR,
            thick,
            cv2.LINE_AA,
        )
    return out


def _label(out: np.ndarray, labels: tuple[str, str], quad: np.ndarray, scale: float) -> None:
    """The first of ``labels`` centred on the card, at ``scale`` or smaller: no wider than the
    card, so that the labels of small cards side by side (a far table, a webcam's small frame)
    do not run over each other; the second, shorter, where the first would be too small to
    read (``LABEL_LEAST``)."""
    edges = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    card = float(min(edges[0], edges[1]))
    for label in labels:
        (width, height), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 1)
        fitted = min(scale, LABEL_WIDTH * card / width)
        if fitted >= LABEL_LEAST:
            break
    scale = fitted
    thick = max(1, round(1.6 * scale))
    x, y = quad.mean(axis=0)
    origin = (int(x - width * scale / 2), int(y + height * scale / 2))
    cv2.putText(
        out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, TEXT_COLOUR, thick, cv2.LINE_AA
    )
