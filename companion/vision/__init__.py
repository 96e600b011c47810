"""Card reading from photos and webcam frames.

    from companion.vision import CardDetector, load_image

    found = CardDetector().detect(load_image(path))  # Detections: cards, outlines, doubts

A table of The Gang told its layout: ``layouts.read.read_layout(detector, image, expect)``,
the cards and their grouping; webcam frames: ``live.CardFollower(detector).follow(frame)``.
A doubtful read's evidence: its ``Detections.alternatives`` and the crops it was read from,
cut by ``evidence.read_crops(image, found, row)``; a told table's missing places:
``Grouping.gaps``.

The reader is laid out by the stages of its pipeline (``models/MODEL_CARD.md``, "Pipeline"),
each a folder: ``base`` (what every stage shares: pixels, light, paper, geometry, model
sessions, ``Detections``), then ``proposals``, ``corner_reads``, ``merging`` and
``second_look``; ``detector`` composes them, and ``layouts`` and ``live`` read with it;
``training`` renders, trains and measures, apart.
"""

from companion.vision.base.detections import Detections
from companion.vision.base.image import decode_image, load_image
from companion.vision.base.sessions import DEFAULT_MODEL
from companion.vision.detector import CardDetector
from companion.vision.draw import draw_reads

__all__ = [
    "CardDetector",
    "DEFAULT_MODEL",
    "Detections",
    "decode_image",
    "draw_reads",
    "load_image",
]
