"""Tiny builders shared by the tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.engine.cards import Card, parse_cards

ROOT = Path(__file__).resolve().parents[1]  # the repository
FIXTURES = ROOT / "tests" / "fixtures" / "images"
CODES = [r + s for r in "23456789TJQKA" for s in "shdc"]


def cards(text: str) -> tuple[Card, ...]:
    """``cards("As Kd")`` -> the parsed cards."""
    return parse_cards(text, "test")


def draw_plain_deck(folder: Path) -> Path:
    """A deck of plain faces (the code printed in the corner) in ``folder/plain``, in the
    layout ``DeckStore`` reads; the rendered art cache is a build product, not in git."""
    import cv2
    import numpy as np

    deck = folder / "plain"
    deck.mkdir(parents=True)
    for code in CODES:
        face = np.full((145, 100, 4), 255, np.uint8)
        cv2.putText(face, code, (8, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0, 255), 2)
        cv2.imwrite(str(deck / f"{code}.png"), face)
    return folder


def without_indices(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A copy of ``image`` with both index corners of the card outlined by ``quad`` (4x2, as
    ``Detections.quads``: the index corners first and third) painted over in card white: a
    card face the reader cannot read, as an odd design or a smear leaves it."""
    import cv2

    out = image.copy()
    for a in (0, 2):
        p = quad[a]
        u, v = quad[(a + 1) % 4] - p, quad[(a - 1) % 4] - p
        corner = np.array([p, p + 0.4 * u, p + 0.4 * u + 0.45 * v, p + 0.45 * v])
        cv2.fillConvexPoly(out, corner.astype(np.int32), (235, 235, 235))
    return out


def turned_card(centre: tuple[float, float], width: float, angle: float) -> np.ndarray:
    """The outline (TL, TR, BR, BL) of a card of ``width`` turned by ``angle`` degrees."""
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (width / 2, 1.45 * width / 2)
    return np.asarray(centre) + half @ np.array([[c, s], [-s, c]])


def clear_engine_tables() -> None:
    """Drop the engine's numpy tables of each rule set (``batch_values.rule_table`` and
    ``seven_table``, cached): tens of MB each, rebuilt in a fraction of a second when next asked
    for, and a test process that kept every rule set's would hold gigabytes. The tables that no
    rule changes (the standard lookup tables, the index of fives) stay: they are few."""
    from companion.engine.gang import batch_values

    batch_values.rule_table.cache_clear()
    batch_values.seven_table.cache_clear()
