"""Tiny builders shared by the tests."""

from __future__ import annotations

from pathlib import Path

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
