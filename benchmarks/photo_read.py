"""How often a rendered Spit layout or cribbage show is read exactly, and how long a read takes;
with ``--app``, how long the app takes from an uploaded table photo to its cards on screen.

    PYTHONPATH=. python3 benchmarks/photo_read.py [--count 20] [--model models/card_corners.onnx]
        [--cards cache/cards] [--decks proc_]
    PYTHONPATH=. python3 benchmarks/photo_read.py --app ../shared/real_photos/iapr2022_poker_table
    PYTHONPATH=. python3 benchmarks/photo_read.py --app FOLDER --browser [--megapixels 12]

``--app`` runs, in a fresh process each, the app's photo path (decode, keep, read with the
table's layout, group, seat, draw) on every photo of the folder in turn: once with the reader
loaded on the first photo, once preloaded as ``companion app`` does at start (the preload
finishes before the first photo, as the app is up before a player takes one). It prints the
first photo's time, the same photo's read again at the end, and the median of the others.
With ``--browser``, the same photos go through the real app in Chromium, from the pick to the
cards on the page, step by step (``benchmarks/upload_breakdown.py``).

Random positions are drawn by ``companion.vision.training.render`` (needs the art cache built by
``python -m companion.vision.training.art``); each photo is read by the detector and
``companion.vision.layouts``. A read is exact when every card and its role (pile, stock, hand,
starter) match; the time covers the detector and the layout rules, not the image decoding. Layouts
are turned by up to 17 degrees.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from companion.bench.cpu import describe_cpu
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


def _app_times(folder: Path, preload: bool) -> list[float]:
    """Seconds from upload bytes to the shown state, per photo, in this (fresh) process."""
    from companion.storage import SqliteGameLog
    from companion.ui.kit.services import LazyDetector, Services
    from companion.ui.shell.dispatch import run
    from companion.ui.shell.state import AppState
    from companion.ui.showdown.actions import load_photo
    from companion.ui.showdown.state import ShowdownState

    with tempfile.TemporaryDirectory() as data:
        log = SqliteGameLog.in_folder(Path(data))
        services = Services(log, Path(data), LazyDetector())
        if preload:
            services.detector.preload().join()
        state = AppState(table=ShowdownState(("Ana", "Bob", "Chloé", "Dan")))
        times = []
        paths = sorted(folder.glob("*.jpg"))
        for path in [*paths, paths[0]]:  # the first again last: the same photo, warm
            photo = path.read_bytes()
            start = time.perf_counter()
            shown = run(load_photo(photo, path.name), state, services)
            times.append(time.perf_counter() - start)
            if shown.table.read is None:
                raise SystemExit(f"{path.name}: no cards shown ({shown.banner})")
        log.close()
    return times


def app_benchmark(folder: Path) -> None:
    for preload in (False, True):
        code = (
            "import sys; from pathlib import Path; from benchmarks.photo_read import _app_times;"
            f" print(*_app_times(Path(sys.argv[1]), {preload}))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, str(folder)], capture_output=True, text=True, check=True
        )
        times = [float(v) for v in out.stdout.split()]
        how = "preloaded at start" if preload else "loaded on the first photo"
        print(
            f"reader {how}: first photo {times[0]:.2f} s, the same photo again {times[-1]:.2f}"
            f" s; the others median {statistics.median(times[1:-1]):.2f} s"
            f" ({len(times) - 1} photos, upload to cards shown)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=20, help="photos of each kind")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--cards", type=Path, default=Path("cache/cards"))
    parser.add_argument("--decks", nargs="*", default=["proc_"])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--app", type=Path, help="a folder of table photos: time the app's path")
    parser.add_argument(
        "--browser", action="store_true", help="with --app: in Chromium, step by step"
    )
    parser.add_argument("--megapixels", type=float, help="with --browser: photos scaled to this")
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")
    if args.app is not None and args.browser:
        from benchmarks.upload_breakdown import browser_rows, print_breakdown

        print_breakdown(browser_rows(args.app, args.megapixels))
        return
    if args.app is not None:
        app_benchmark(args.app)
        return
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
