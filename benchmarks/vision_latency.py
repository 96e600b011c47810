"""Latency of ``CardDetector.detect``: a real table photo at webcam size and at full size.

    PYTHONPATH=. python3 benchmarks/vision_latency.py [--repeat 15] [--image IMG ...]

Cases: the shared real photo ``iapr2022_poker_table/train_08.jpg`` (light, grainy wood, 13 cards)
scaled to 1280x720 and at its own 6000x4000, and the test fixture ``scene_0001.jpg`` scaled to
the same two sizes (``--image`` adds photos of your own). Each case prints the median and the
90th percentile, and the same figures for the detector without each optional step
(``complete=False``, ``reframe=False``, ``face_path=None``, ``reader_path=None``,
``outline_path=None``, ``gate_path=None``, ``spot_path=None``), the quick read (the spot
model's index corners alone, no second look, no outline model: ``spots_only=True``), the
full detector told the table's layout (``layouts.read.read_layout``, grouped once: a table
that holds it after the first look gets its second look only away from its cards), and the
webcam's own path: ``CardFollower`` reading the same photo frame after frame, as a webcam held
still over the table streams it (the cards followed from frame to frame, the whole frame
searched again every 4th frame: the median is a followed frame, the 90th percentile a
searched one). ``--backs MODEL`` times the back finder (``backs.find_backs`` with that back
model, not part of the read: no back model ships) against the full read and the read told the
layout only.

The machine may be shared: every run is interleaved with a reference run in the same process,
a fixed job that uses none of the project's code or models (OpenCV's edges and a float
filter of a fixed 720p frame, on OpenCV's threads; no BLAS, whose idle threads spin), and each
median is also printed as a ratio to the reference's median, which moves far less with the
machine's load than milliseconds do. (Before 2026-12-02 the reference was the corner model on
166 crops, so a faster corner model could not show in the ratio.) Targets (issue 15), medians
on 2 CPU cores: train_08 at 1280x720 <= 50 ms, a 6000x4000 photo <= 500 ms; each case is
printed against its size's target.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from companion.bench.cpu import describe_cpu
from companion.vision import CardDetector, Detections
from companion.vision.backs import BackModel, find_backs
from companion.vision.layouts.expect import Expect
from companion.vision.layouts.read import read_layout
from companion.vision.live import CardFollower

ROOT = Path(__file__).resolve().parents[1]
LIVE = "live (the webcam's CardFollower, frame after frame of this photo)"
BACKS = "the back finder (find_backs)"
FIXTURE = ROOT / "tests" / "fixtures" / "images" / "scene_0001.jpg"
TRAIN_08 = ROOT.parent / "shared" / "real_photos" / "iapr2022_poker_table" / "train_08.jpg"


def _told(detector: CardDetector, image: np.ndarray) -> Detections:
    """The cards read told the table's layout, grouped once, as the app reads a photo."""
    return read_layout(detector, image, Expect(5, 4, 2)).detections


class _Reference:
    """The reference job: the same fixed work on every call."""

    def __init__(self) -> None:
        rng = np.random.default_rng(0)
        self._frame = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
        self._kernel = rng.standard_normal((9, 9)).astype(np.float32)

    def __call__(self) -> float:
        grey = cv2.cvtColor(self._frame, cv2.COLOR_BGR2GRAY)
        edges = cv2.Canny(cv2.GaussianBlur(grey, (7, 7), 0), 40, 120)
        filtered = cv2.filter2D(self._frame.astype(np.float32), -1, self._kernel)
        return float(edges.mean()) + float(filtered[0, 0, 0])


def _cases(extra: list[Path]) -> list[tuple[str, np.ndarray, float]]:
    """(name, image, target seconds) of each case whose photo is here."""
    cases = []
    for name, path in (("train_08", TRAIN_08), ("fixture scene_0001", FIXTURE)):
        image = cv2.imread(str(path))
        if image is None:
            print(f"{path}: not here, left out")
            continue
        small = cv2.resize(image, (1280, 720), interpolation=cv2.INTER_AREA)
        large = image
        if image.shape[:2] != (4000, 6000):
            large = cv2.resize(image, (6000, 4000), interpolation=cv2.INTER_CUBIC)
        cases += [(f"{name} 1280x720", small, 0.050), (f"{name} 6000x4000", large, 0.500)]
    for path in extra:
        image = cv2.imread(str(path))
        if image is None:
            raise SystemExit(f"{path}: not a readable image")
        cases.append((str(path), image, float("nan")))
    return cases


def _ms(values: list[float]) -> str:
    median, p90 = statistics.median(values), float(np.percentile(values, 90))
    return f"median {median * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--image", type=Path, nargs="*", default=[], help="also time these photos")
    parser.add_argument(
        "--backs",
        type=Path,
        default=None,
        metavar="MODEL",
        help="the back finder (this back model) against the full read only",
    )
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")
    backs = None if args.backs is None else BackModel(args.backs)
    runs: dict[str, CardDetector] = {"full": CardDetector()}
    if backs is None:  # the back finder is timed against the full read only
        runs |= {
            "without completions": CardDetector(complete=False),
            "without re-framing": CardDetector(reframe=False),
            "without the face reader": CardDetector(face_path=None),
            "without the reader": CardDetector(reader_path=None),
            "without the outline model": CardDetector(outline_path=None),
            "without the gate": CardDetector(gate_path=None),
            "without the spot model": CardDetector(spot_path=None),
            "quick (the spot model's corners alone, no second look)": CardDetector(
                spots_only=True, complete=False, outline_path=None
            ),
        }
    reference = _Reference()
    for name, image, target in _cases(args.image):
        jobs: dict[str, Callable[[], object]] = {
            key: partial(who.detect, image) for key, who in runs.items()
        }
        # Both named tables hold a river of five and four hands of two (as the app reads them);
        # a photo added with --image is timed against the same layout.
        jobs["with --expect 5+4x2"] = partial(_told, runs["full"], image)
        if backs is None:
            jobs[LIVE] = partial(CardFollower(runs["full"]).follow, image)
        else:
            jobs[BACKS] = partial(find_backs, image, backs)
        jobs["reference"] = reference
        times: dict[str, list[float]] = {key: [] for key in jobs}
        cards = dict.fromkeys(jobs, 0)
        for job in jobs.values():
            job()  # warm-up
        for _ in range(args.repeat):  # interleaved, so all see the same machine load
            for key, job in jobs.items():
                start = time.perf_counter()
                out = job()
                times[key].append(time.perf_counter() - start)
                if isinstance(out, Detections):
                    cards[key] = len(out)
        ref = statistics.median(times["reference"])
        median = statistics.median(times["full"])
        print(
            f"{name}: {_ms(times['full'])}, {cards['full']} cards; target "
            f"{target * 1000:.0f} ms ({median / target:.2f} of it); "
            f"x{median / ref:.2f} the reference ({ref * 1000:.1f} ms)"
        )
        for key in [*list(runs)[1:], "with --expect 5+4x2", LIVE if backs is None else BACKS]:
            base = statistics.median(times[key])
            print(
                f"    {key}: {_ms(times[key])}, {cards[key]} cards, "
                f"x{base / ref:.2f} the reference (full: x{median / base:.2f} of this)"
            )


if __name__ == "__main__":
    main()
