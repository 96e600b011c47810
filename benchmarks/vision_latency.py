"""Latency of ``CardDetector.detect`` on a webcam-sized frame and a 24-megapixel photo.

    python benchmarks/vision_latency.py [--repeat 15]

Frames are synthetic scenes from the project's generator (needs ``cache/cards``) or, without
the cache, the test fixtures; the 6000x4000 photo is the same scene scaled up, so the work
per card (crops from the full-resolution image) is what a real overhead photo costs.
Each frame is also timed without the re-framing of doubtful reads (``reframe=False``), the
reference run in the same process, so its cost shows as a ratio however busy the machine is.
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
    reference = CardDetector(reframe=False)
    cases = [("1280x720 frame", _frame((1280, 720)), 0.100),
             ("6000x4000 photo", _frame((6000, 4000)), 1.0)]
    cases += [(str(p), cv2.imread(str(p)), float("nan")) for p in args.image]
    for name, image, target in cases:
        times: dict[str, list[float]] = {"full": [], "reference": []}
        cards = {"full": 0, "reference": 0}
        for who in (detector, reference):
            who.detect(image)  # warm-up
        for _ in range(args.repeat):  # interleaved, so both see the same machine load
            for key, who in (("full", detector), ("reference", reference)):
                start = time.perf_counter()
                read = who.detect(image)
                times[key].append(time.perf_counter() - start)
                cards[key] = len(read.detections)
        median = statistics.median(times["full"])
        base = statistics.median(times["reference"])
        print(f"{name}: median {median * 1000:.0f} ms, min {min(times['full']) * 1000:.0f} ms, "
              f"{cards['full']} cards; target {target * 1000:.0f} ms, "
              f"ratio {median / target:.2f}; without re-framing {base * 1000:.0f} ms, "
              f"{cards['reference']} cards "
              f"(re-framing costs x{median / base:.2f})")


if __name__ == "__main__":
    main()
