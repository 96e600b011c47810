"""A cribbage show photographed with its five cards in a row: the fixture show
(``crib_show_01.jpg``, the starter above the hand) with the starter moved to the row's end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "images"
SHOW = "crib_show_01.jpg"
ROOM = 256  # pixels of table added at the right, where the starter goes


def label() -> dict[str, Any]:
    entries = json.loads((FIXTURES / "photo_labels.json").read_text())
    found: dict[str, Any] = next(e for e in entries if e["image"] == SHOW)
    return found


def five_in_a_row() -> np.ndarray:
    """The show's photo, wider, its starter cut out (painted in the table's colour) and put
    back one card step after the hand's last card, on the hand's line."""
    from companion.vision import CardDetector

    image = cv2.imread(str(FIXTURES / SHOW))
    read = CardDetector().detect(image)
    codes = [str(card) for card in read.cards]
    starter = read.quads[codes.index(label()["starter"])]
    hand = sorted(
        (read.quads[codes.index(c)].mean(axis=0) for c in label()["hand"]), key=lambda p: p[0]
    )
    to = hand[-1] + (hand[-1] - hand[0]) / (len(hand) - 1)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(starter).astype(np.int32), 1)
    ys, xs = np.nonzero(inside)
    dx, dy = np.round(to - starter.mean(axis=0)).astype(int)
    out = cv2.copyMakeBorder(image, 0, 0, 0, ROOM, cv2.BORDER_REPLICATE)
    table = tuple(int(v) for v in np.median(image[5:40, 5:40].reshape(-1, 3), axis=0))
    middle = starter.mean(axis=0)
    cv2.fillConvexPoly(out, np.round(middle + (starter - middle) * 1.1).astype(np.int32), table)
    out[ys + dy, xs + dx] = image[ys, xs]
    return out
