"""A rendered webcam video replayed through ``CardFollower``: frames per second and frames to sure.

    PYTHONPATH=. python3 benchmarks/live_video.py [--frames 60] [--seed 5] [--cards cache/cards]
        [--light 0.45,0.55,1] [--motion 0.005]

A table (a river of five and two hands of two) is rendered once by the project's training
renderer (``companion.vision.training.render``, art cache from ``companion.vision.training.art``)
at twice the video's size, and again with a third hand laid on it; the camera pans, turns and
zooms slowly over it at 1280x720, and the third hand appears half-way through (``--light``: in a
coloured light, each channel scaled; ``--motion``: each frame smeared along the camera's pan
by that share of its long side, as a webcam's exposure smears a moving view). Each frame is
read by ``CardFollower`` (the detector plus ``FrameFuser``) as the webcam preview reads it.

Printed: frames per second (median frame time and its 90th percentile, full looks apart; and
the processor time per frame, all threads together, which a machine shared with other work does
not inflate as it does the wall-clock time), for
each card the frames from its first appearance to its first sure read, and whether the fused
read of the last frame is the truth (every card in view, none flagged).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from companion.bench.cpu import describe_cpu
from companion.vision import CardDetector
from companion.vision.live import CardFollower
from companion.vision.training.render import Placement, render_table
from companion.vision.training.scenes import DeckStore
from companion.vision.training.views import light_argument, motion_argument, smeared

SIZE = (1280, 720)  # the video's frames
TABLE = (2560, 1440)  # the rendered table the camera moves over
CARD = 150.0  # card width on the rendered table, pixels (about 100 px in the video)


def _layout(rng: np.random.Generator) -> tuple[list[Placement], list[Placement]]:
    """The cards on the table from the start (river and two hands), and the hand laid later."""
    codes = [r + s for r in "23456789TJQKA" for s in "shdc"]
    drawn = [codes[i] for i in rng.permutation(52)[:11]]
    w, h = TABLE
    cx, cy = w / 2, h / 2
    first = [
        Placement(drawn[k], cx + (k - 2) * 1.15 * CARD, cy, rng.normal(0, 0.03)) for k in range(5)
    ]
    hands = [(cx - 2.6 * CARD, cy - 2.0 * CARD), (cx + 2.6 * CARD, cy - 2.0 * CARD)]
    later_at = (cx, cy + 2.1 * CARD)
    for k, (x, y) in enumerate(hands):
        angle = rng.uniform(-0.4, 0.4)
        first.append(Placement(drawn[5 + 2 * k], x, y, angle))
        first.append(Placement(drawn[6 + 2 * k], x + 0.4 * CARD, y + 0.1 * CARD, angle + 0.15))
    angle = rng.uniform(-0.4, 0.4)
    x, y = later_at
    later = [
        Placement(drawn[9], x, y, angle),
        Placement(drawn[10], x + 0.4 * CARD, y + 0.1 * CARD, angle + 0.15),
    ]
    return first, later


def _camera(t: float) -> np.ndarray:
    """The homography from the table to the frame at time ``t`` (0..1): a slow pan, turn and
    zoom of a camera looking down."""
    tw, th = TABLE
    fw, fh = SIZE
    zoom = 0.62 + 0.06 * np.sin(2 * np.pi * t)
    turn = 0.08 * np.sin(np.pi * t)
    cx = tw / 2 + 120 * np.sin(2 * np.pi * t)
    cy = th / 2 + 60 * np.cos(2 * np.pi * t)
    c, s = np.cos(turn) * zoom, np.sin(turn) * zoom
    # Table point (x, y) -> frame: rotate and scale about the camera centre, centre in frame.
    return np.array(
        [[c, -s, fw / 2 - c * cx + s * cy], [s, c, fh / 2 - s * cx - c * cy], [0, 0, 1]]
    )


def _frame(
    table: np.ndarray,
    cards: tuple[tuple[str, np.ndarray], ...],
    t: float,
    rng: np.random.Generator,
    light: np.ndarray,
    motion: float = 0.0,
) -> tuple[np.ndarray, set[str]]:
    """One video frame, in a light of ``light`` (B, G, R gains) and smeared by ``motion`` of
    its long side along the way the table moves in it, and the codes of the cards wholly in
    it."""
    h = _camera(t)
    frame = cv2.warpPerspective(table, h, SIZE, flags=cv2.INTER_AREA)
    if motion > 0:
        centre = np.array([[[TABLE[0] / 2, TABLE[1] / 2]]], np.float32)
        now, soon = (cv2.perspectiveTransform(centre, _camera(u))[0, 0] for u in (t, t + 1e-3))
        frame = smeared(frame, motion, float(np.degrees(np.arctan2(*(soon - now)[::-1]))))
    noisy = frame.astype(np.float32) * light + rng.normal(0, 2.0, frame.shape)
    frame = np.clip(noisy, 0, 255).astype(np.uint8)
    inside = set()
    for code, quad in cards:
        q = cv2.perspectiveTransform(quad[None].astype(np.float32), h)[0]
        if (q >= 0).all() and (q[:, 0] < SIZE[0]).all() and (q[:, 1] < SIZE[1]).all():
            inside.add(code)
    return frame, inside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--cards", type=Path, default=Path("cache/cards"))
    parser.add_argument("--decks", nargs="*", default=["proc_"], help="deck name prefixes")
    parser.add_argument(
        "--light",
        type=light_argument,
        default=(1.0, 1.0, 1.0),
        help="B,G,R gains of the room's light, e.g. 0.45,0.55,1 for a red bulb (default 1,1,1)",
    )
    parser.add_argument(
        "--motion",
        type=motion_argument,
        default=0.0,
        help="smear each frame along the camera's pan by this share of its long side, e.g. 0.005",
    )
    parser.add_argument(
        "--no-spots",
        action="store_true",
        help="full looks by the whiteness levels' corners, not the spot model's",
    )
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")
    light = np.array(args.light, np.float32)
    store = DeckStore(args.cards, held_out=False, only=tuple(args.decks))
    first, later = _layout(np.random.default_rng(args.seed))
    # Same seed: the same table, deck, light and noise, with and without the later hand.
    before = render_table(np.random.default_rng(args.seed), store, first, CARD, TABLE, tilt=0.0)
    after = render_table(
        np.random.default_rng(args.seed), store, first + later, CARD, TABLE, tilt=0.0
    )
    reader = CardFollower(CardDetector(spot_path=None) if args.no_spots else CardDetector())
    rng = np.random.default_rng(args.seed + 1)
    reader.follow(_frame(before.image, before.cards, 0.0, rng, light)[0])  # warm-up
    reader.reset()
    times: list[float] = []
    looks: list[float] = []
    cpus: list[float] = []  # processor time, all threads: what a busy machine does not inflate
    appeared: dict[str, int] = {}
    sure_at: dict[str, int] = {}
    truth: set[str] = set()
    fused_codes: set[str] = set()
    flagged: set[str] = set()
    for i in range(args.frames):
        scene = before if i < args.frames // 2 else after
        frame, truth = _frame(scene.image, scene.cards, i / args.frames, rng, light, args.motion)
        for code in truth:
            appeared.setdefault(code, i)
        start, cpu = time.perf_counter(), time.process_time()
        fused = reader.follow(frame)
        elapsed = time.perf_counter() - start
        cpus.append(time.process_time() - cpu)
        (looks if reader.looked else times).append(elapsed)
        fused_codes = {str(c) for c in fused.cards}
        flagged = {str(c) for c, check in zip(fused.cards, fused.check, strict=True) if check}
        for code in fused_codes - flagged:
            if code in truth:
                sure_at.setdefault(code, i)
    every = times + looks
    median = statistics.median(every)
    p90 = float(np.percentile(every, 90))
    print(
        f"{args.frames} frames at {SIZE[0]}x{SIZE[1]}: {1 / statistics.mean(every):.1f} frames/s "
        f"(median frame {median * 1000:.0f} ms, 90th percentile {p90 * 1000:.0f} ms; "
        f"full looks {len(looks)} at median {statistics.median(looks) * 1000:.0f} ms, "
        f"followed frames {len(times)} at median "
        f"{(statistics.median(times) if times else float('nan')) * 1000:.0f} ms); "
        f"processor time per frame: mean {statistics.mean(cpus) * 1000:.0f} ms"
    )
    for code in sorted(appeared, key=lambda c: (appeared[c], c)):
        got = sure_at.get(code)
        took = "never sure" if got is None else f"{got - appeared[code] + 1} frames to sure"
        print(f"  {code}: in view from frame {appeared[code]}, {took}")
    exact = fused_codes == truth and not flagged
    wrong = sorted(fused_codes - truth)
    missing = sorted(truth - fused_codes)
    print(
        f"last frame: fused read {'equals' if exact else 'differs from'} the truth "
        f"({len(truth)} cards; extra {wrong}, missing {missing}, flagged {sorted(flagged)})"
    )


if __name__ == "__main__":
    main()
