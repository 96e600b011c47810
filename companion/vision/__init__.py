"""Card reading from photos and webcam frames: ``CardDetector().detect(image_bgr)``."""

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
