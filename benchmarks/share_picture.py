"""The verdict's picture (#56): how long one takes to draw, and what its text costs.

Draws the two fixture heists (``tests/share/heists.py``: a 960x640 photo, 13 and 11 outlines,
one with two reasons) as ``companion log image`` does, and times, in the same process:
``heist_picture`` whole; its words alone (every line of the alarm's picture drawn with
``share.glyphs``, the app's TrueType font filled by OpenCV); and, as the reference, the same
lines drawn with OpenCV's own ``putText`` (Hershey: no suits, no accents), the ratio beside.
The first picture of a process also reads and parses the font: timed apart.

Run: ``PYTHONPATH=. python3 benchmarks/share_picture.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.bench.cpu import describe_cpu
from companion.share.glyphs import load_font
from companion.share.picture import font, heist_picture
from companion.storage import SqliteGameLog
from tests.share.heists import save_two_heists

LINES = (
    "Manche 2 : l'alarme sonne",
    "Rivière  A♥ 10♣ 4♦ 4♠ 3♦",
    "n°1 Bob  A♦ 7♥",
    "n°2 Zoë  8♦ 2♠",
    "n°3 Chloé  7♠ 8♠",
    "• Bob (deux paires, as et quatre) bat Zoë (paire de quatre) : deux paires bat paire",
    "• Bob (deux paires, as et quatre) bat Chloé (paire de quatre) : deux paires bat paire",
)


def _median_ms(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    repeat = parser.parse_args().repeat
    print(f"CPU: {describe_cpu()}")
    start = time.perf_counter()
    face = font()
    print(f"font read and parsed once: {1000 * (time.perf_counter() - start):.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        heists = save_two_heists(data)
        with SqliteGameLog.in_folder(data, for_reading=True) as log:
            for heist in heists:
                photo = log.photos.read(heist.photo or "")
                ms = _median_ms(lambda h=heist, p=photo: heist_picture(h, "fr", p), repeat)
                size = len(heist_picture(heist, "fr", photo))
                print(f"heist {heist.number}: {ms:.1f} ms a picture, {size / 1024:.0f} KiB PNG")
    canvas = np.full((700, 1080, 3), 255, np.uint8)

    def glyphs() -> None:
        for i, line in enumerate(LINES):
            face.draw(canvas, line, (20, 60 + 90 * i), 34, (0, 0, 0))

    def hershey() -> None:
        for i, line in enumerate(LINES):
            cv2.putText(
                canvas,
                line,
                (20, 60 + 90 * i),
                cv2.FONT_HERSHEY_SIMPLEX,
                1.0,
                (0, 0, 0),
                2,
                cv2.LINE_AA,
            )

    ours, theirs = _median_ms(glyphs, repeat), _median_ms(hershey, repeat)
    print(f"{len(LINES)} lines, TrueType glyphs filled: {ours:.2f} ms")
    print(f"the same with cv2.putText (Hershey, suits and accents lost): {theirs:.2f} ms")
    print(f"ratio: {ours / theirs:.1f}x")
    load_font.cache_clear()


if __name__ == "__main__":
    main()
