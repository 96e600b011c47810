"""Card reading from photos and webcam frames: ``CardDetector().detect(image_bgr)``."""

from companion.vision.detections import Detections
from companion.vision.detector import CardDetector
from companion.vision.draw import draw_reads
from companion.vision.image import decode_image, load_image
from companion.vision.sessions import DEFAULT_MODEL

__all__ = [
    "CardDetector",
    "DEFAULT_MODEL",
    "Detections",
    "decode_image",
    "draw_reads",
    "load_image",
]
