"""How often a rendered Spit layout or cribbage show is read exactly, and how long a read takes.

    PYTHONPATH=. python3 benchmarks/photo_read.py [--count 20] [--model models/card_corners.onnx]
        [--cards cache/cards] [--decks proc_]

Random positions are drawn by ``companion.vision.training.render`` (needs the art cache built by
``python -m companion.vision.training.art``); each photo is read by the detector and
``companion.vision.layouts``. A read is exact when every card and its role (pile, stock, hand,
starter) match; the time covers the detector and the layout rules, not the image decoding. Layouts
are turned by up to 17 degrees.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from companion.errors import CompanionError
from companion.vision import DEFAULT_MODEL, CardDetector
from companion.vision.layouts.cribbage import read_show
from companion.vision.layouts.spit import read_spit
from companion.vision.training.render import render_show, render_spit
from companion.vision.training.scenes import DeckStore

CODES = [r + s for r in "23456789TJQKA" for s in "shdc"]


def _spit_case(rng: np.random.Generator, store: DeckStore) -> tuple[object, np.ndarray]:
    drawn = [CODES[i] for i in rng.permutation(52)[:12]]
    p1: list[str | None] = list(drawn[2:7])
    if rng.random() < 0.5:
        p1[int(rng.integers(5))] = None
    turn = float(rng.uniform(-0.3, 0.3))
    image = render_spit(rng, store, (drawn[0], drawn[1]), p1, drawn[7:12], turn=turn).image
    truth = (drawn[:2], [c for c in p1 if c], drawn[7:12])
    return truth, image


def _show_case(rng: np.random.Generator, store: DeckStore) -> tuple[object, np.ndarray]:
    drawn = [CODES[i] for i in rng.permutation(52)[:5]]
    turn = float(rng.uniform(-0.3, 0.3))
    return (drawn[:4], drawn[4]), render_show(rng, store, drawn[:4], drawn[4], turn=turn).image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=20, help="photos of each kind")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--cards", type=Path, default=Path("cache/cards"))
    parser.add_argument("--decks", nargs="*", default=["proc_"])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    detector = CardDetector(args.model)
    store = DeckStore(args.cards, held_out=False, only=tuple(args.decks))
    rng = np.random.default_rng(args.seed)
    for kind, make in (("spit", _spit_case), ("show", _show_case)):
        exact = 0
        times: list[float] = []
        failures: list[str] = []
        for _ in range(args.count):
            truth, image = make(rng, store)
            start = time.perf_counter()
            try:
                detections = detector.detect(image)
                if kind == "spit":
                    photo = read_spit(detections, "bench")
                    got: object = (
                        [str(s.card) for s in photo.piles],
                        [str(s.card) for s in photo.stocks[0]],
                        [str(s.card) for s in photo.stocks[1]],
                    )
                else:
                    show = read_show(detections, "bench")
                    got = ([str(s.card) for s in show.hand], str(show.starter.card))
            except CompanionError as error:
                got = error.message("en")
            times.append(time.perf_counter() - start)
            exact += got == truth
            if got != truth and len(failures) < 3:
                failures.append(f"    want {truth}\n    got  {got}")
        print(
            f"{kind}: {exact}/{args.count} read exactly ({exact / args.count:.0%}), "
            f"median {statistics.median(times) * 1000:.0f} ms per photo (1024x768)"
        )
        for failure in failures:
            print(failure)


if __name__ == "__main__":
    main()
