"""Card reading from photos and webcam frames: ``CardDetector().detect(image_bgr)``."""

from companion.vision.detections import Detections, Grouping, TableRead
from companion.vision.detector import DEFAULT_MODEL, CardDetector

__all__ = ["CardDetector", "DEFAULT_MODEL", "Detections", "Grouping", "TableRead"]
