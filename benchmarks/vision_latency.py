"""Latency of ``CardDetector.detect`` on a webcam-sized frame and a 24-megapixel photo.

    python benchmarks/vision_latency.py [--repeat 15]

Frames are synthetic scenes from the project's generator (needs ``cache/cards``) or, without
the cache, the test fixtures; the 6000x4000 photo is the same scene scaled up, so the work
per card (crops from the full-resolution image) is what a real overhead photo costs.
Targets (issue 3): median <= 100 ms at 1280x720, <= 1 s at 6000x4000, on 2 CPU cores.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision import CardDetector

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "images" / "scene_0001.jpg"


def _frame(size: tuple[int, int]) -> np.ndarray:
    image = cv2.imread(str(FIXTURE))
    return cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--image", type=Path, nargs="*", default=[],
                        help="also time these photos")
    args = parser.parse_args()
    detector = CardDetector()
    cases = [("1280x720 frame", _frame((1280, 720)), 0.100),
             ("6000x4000 photo", _frame((6000, 4000)), 1.0)]
    cases += [(str(p), cv2.imread(str(p)), float("nan")) for p in args.image]
    for name, image, target in cases:
        detector.detect(image)  # warm-up
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            read = detector.detect(image)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(f"{name}: median {median * 1000:.0f} ms, min {min(times) * 1000:.0f} ms, "
              f"{len(read.detections)} cards; target {target * 1000:.0f} ms, "
              f"ratio {median / target:.2f}")


if __name__ == "__main__":
    main()
