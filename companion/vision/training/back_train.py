"""Train the back finder (``companion.vision.backs``) on rendered frames and export it.

    python -m companion.vision.training.back_train --train cache/backs_train.npz \
        --val cache/backs_val.npz --out cache/card_backs_fp32.onnx --steps 4000

The outline model's encoder-decoder (``outline_train.OutlineNet``, trained the same way) reads
a frame shrunk to ``--side`` pixels on its long side (384: about half the outline model's
pixels, where a back among the smallest table cards is still about 12 pixels wide) and says
for every pixel whether a face-down card lies there (``outline_data.back_target``: face-down
cards that touch make one piece; a face-up card over a back hides it). Trained on ``CROP``
squares of the frames ``outline_data --backs`` wrote (shrunk from 512 to ``--side``), flipped
and turned a quarter at random (a back has no up), their light and colour jittered.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
import torch

from companion.vision.backs import DEFAULT_SIDE
from companion.vision.training.outline_train import export, load_frames, train

CROP = 192


def at_side(
    images: list[np.ndarray], targets: list[np.ndarray], side: int
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The frames area-averaged to ``side`` pixels on their long side (as ``backs`` reads a
    photo), their targets with them (a pixel is a back where half of it was)."""
    shrunk_images, shrunk_targets = [], []
    for image, target in zip(images, targets, strict=True):
        h, w = target.shape
        f = side / max(h, w)
        size = (round(w * f), round(h * f))
        shrunk_images.append(cv2.resize(image, size, interpolation=cv2.INTER_AREA))
        share = cv2.resize(target.astype(np.float32), size, interpolation=cv2.INTER_AREA)
        shrunk_targets.append((share >= 0.5).astype(np.uint8))
    return shrunk_images, shrunk_targets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=Path, nargs="+", required=True)
    parser.add_argument("--val", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, default=Path("cache/card_backs_fp32.onnx"))
    parser.add_argument("--side", type=int, default=DEFAULT_SIDE)
    parser.add_argument("--crop", type=int, default=CROP, help="square crops this wide")
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-lr", type=float, default=3e-3)
    parser.add_argument(
        "--fit",
        action="store_true",
        help="time the first steps and cut the cycle to what fits in --minutes (a busy machine)",
    )
    args = parser.parse_args(argv)
    if args.side % 8 or not 128 <= args.side <= 512:
        parser.error(f"--side must be a multiple of 8 from 128 to 512: got {args.side}")
    torch.set_num_threads(args.threads)
    for path in (*args.train, *args.val):
        if not path.is_file():
            print(f"back_train: {path}: no such file; run outline_data --backs", file=sys.stderr)
            return 2
    try:
        images, targets = at_side(*load_frames(args.train, beside="backs"), args.side)
        val = at_side(*load_frames(args.val, beside="backs"), args.side)
    except KeyError as error:
        print(f"back_train: {error}: frames written without --backs", file=sys.stderr)
        return 2
    net, info = train(
        images,
        targets,
        val,
        args.minutes,
        args.steps,
        args.batch,
        args.seed,
        args.max_lr,
        args.crop,
        args.fit,
    )
    info.update(frames=len(images), side=args.side)
    export(net, args.out, info, key="backs", name="backs")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
