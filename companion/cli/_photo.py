"""Reading the cards of one photo for the game commands' ``--photo`` option."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.messages import text
from companion.vision import CardDetector, Detections
from companion.vision.base.image import load_image
from companion.vision.layouts.places import SeenCard, unsure

__all__ = ["read_photo", "seen_json", "unsure_note", "MODEL_HELP"]

MODEL_HELP = "with --photo: the ONNX card model (default: the shipped one)"


def read_photo(path: Path, model: Path | None) -> Detections:
    """The cards the detector reads on the photo at ``path`` (errors name the file)."""
    image = load_image(path)
    detector = CardDetector(model) if model is not None else CardDetector()
    return detector.detect(image)


def seen_json(seen: SeenCard) -> dict[str, Any]:
    return {
        "card": str(seen.card),
        "confidence": round(seen.confidence, 3),
        "centre": [round(seen.x, 1), round(seen.y, 1)],
    }


def unsure_note(seen: Sequence[SeenCard], lang: str) -> str:
    """`` — check 5♣ (62%)`` after the line of what was read, when a read is unsure."""
    doubtful = unsure(seen)
    if not doubtful:
        return ""
    listed = tuple(
        text("cli.photo_card_sure", lang, card=s.card, percent=round(100 * s.confidence))
        for s in doubtful
    )
    return text("cli.photo_check", lang, cards=listed)
