"""Latency of ``CardDetector.detect`` on a webcam-sized frame and a 24-megapixel photo.

    python benchmarks/vision_latency.py [--repeat 15]

Frames are synthetic scenes from the project's generator (needs ``cache/cards``) or, without
the cache, the test fixtures; the 6000x4000 photo is the same scene scaled up, so the work
per card (crops from the full-resolution image) is what a real overhead photo costs.
Each frame is also timed without the re-framing of doubtful reads (``reframe=False``),
without the second-stage reader (``reader_path=None``), without the face reader
(``face_path=None``) and without the second look at rejected corners (``complete=False``),
reference runs in the same process, so their costs show as ratios however busy the machine is.
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
    parser.add_argument("--image", type=Path, nargs="*", default=[], help="also time these photos")
    args = parser.parse_args()
    runs = {
        "full": CardDetector(),
        "without completions": CardDetector(complete=False),
        "without re-framing": CardDetector(reframe=False),
        "without the face reader": CardDetector(face_path=None),
        "without the reader": CardDetector(reader_path=None),
    }
    cases = [
        ("1280x720 frame", _frame((1280, 720)), 0.100),
        ("6000x4000 photo", _frame((6000, 4000)), 1.0),
    ]
    for path in args.image:
        image = cv2.imread(str(path))
        if image is None:
            parser.error(f"{path}: not a readable image")
        cases.append((str(path), image, float("nan")))
    for name, image, target in cases:
        times: dict[str, list[float]] = {key: [] for key in runs}
        cards = dict.fromkeys(runs, 0)
        for who in runs.values():
            who.detect(image)  # warm-up
        for _ in range(args.repeat):  # interleaved, so all see the same machine load
            for key, who in runs.items():
                start = time.perf_counter()
                read = who.detect(image)
                times[key].append(time.perf_counter() - start)
                cards[key] = len(read)
        median = statistics.median(times["full"])
        line = (
            f"{name}: median {median * 1000:.0f} ms, min {min(times['full']) * 1000:.0f} ms, "
            f"{cards['full']} cards; target {target * 1000:.0f} ms, "
            f"ratio {median / target:.2f}"
        )
        for key in list(runs)[1:]:
            base = statistics.median(times[key])
            line += f"; {key} {base * 1000:.0f} ms, {cards[key]} cards (x{median / base:.2f})"
        print(line)


if __name__ == "__main__":
    main()
