"""Train the spot model (``companion.vision.proposals.spots``) on rendered frames and export it.

    python -m companion.vision.training.spot_train --train cache/spots/train.npz \
        --val cache/spots/val.npz --out cache/card_spots_fp32.onnx --steps 4000

The outline model's encoder-decoder, with four outputs per pixel of the frame shrunk to
``INPUT_SIDE`` pixels: a heat map peaking on every card's index corner in view (the TL and BR
corners ``outline_data.index_corners`` lists), and at those peaks the unit vector along the
card's edge away from the corner and the log of the card's width. Those are the frames the
corner reader needs, without the whiteness levels' hundreds of candidate corners.
Trained on 256x256 crops turned a quarter at random (never mirrored: a mirrored card's index
corner is not an index corner), with their light and colour jittered. On a GPU (``--device
cuda``) worker processes cut the crops (``--workers``) and ``--fit`` sizes the cycle to the
minutes given.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch

from companion.vision.proposals.outlines import padded
from companion.vision.proposals.spots import SPOT_LEVEL
from companion.vision.training import outline_train
from companion.vision.training.outline_train import FrameNet, _jitter, export, one_cycle
from companion.vision.training.spot_targets import SIGMA, crop_with_corners, targets

CROP = 256
REGRESS_AT = 0.5  # the vector and width are learned where the heat target is this high


class SpotNet(FrameNet):
    """BGR frame (N x H x W x 3, 0..255; H and W multiples of 8) -> N x 4 x H x W: the index
    corners' heat logit, the edge vector (x, y) and the log width over ``WIDTH_UNIT``; the
    outline model's network, 16 channels wide on the way up."""

    def __init__(self) -> None:
        super().__init__(outputs=4, up=16)
        bias = self.head.bias
        if bias is not None:  # a Conv2d made with bias=True has one
            with torch.no_grad():  # peaks are rare: start the heat near 0, not at 0.5 everywhere
                bias[0] = -4.0


def load_frames(paths: list[Path]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The frames and their index corners (``outline_data.index_corners``) in ``paths``."""
    return outline_train.load_frames(paths, beside="corners")


def loss_of(pred: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The heat map's focal loss (peaks against the rest, the rest near a peak weighing
    less) per peak, and the vector's and width's L1 loss where the heat target is high."""
    heat, t = torch.sigmoid(pred[:, 0]).clamp(1e-4, 1 - 1e-4), target[:, 0]
    peak = (t >= 1.0).float()
    pos = -(torch.log(heat) * (1 - heat) ** 2 * peak).sum()
    neg = -(torch.log(1 - heat) * heat**2 * (1 - t) ** 4 * (1 - peak)).sum()
    focal = (pos + neg) / peak.sum().clamp(min=1.0)
    near = (t >= REGRESS_AT).float()
    l1 = (pred[:, 1:] - target[:, 1:]).abs().sum(dim=1)
    regress = (l1 * near).sum() / near.sum().clamp(min=1.0)
    return focal, regress


def val_loss(net: SpotNet, images: list[np.ndarray], corners: list[np.ndarray]) -> float:
    """The mean of both losses over whole held-out frames."""
    net.eval()
    total, at = 0.0, next(net.parameters()).device
    with torch.no_grad():
        for image, points in zip(images, corners, strict=True):
            frame = padded(image)
            size = max(frame.shape[:2])
            square = np.zeros((size, size, 3), np.uint8)
            square[: frame.shape[0], : frame.shape[1]] = frame
            pred = net(torch.from_numpy(square[None]).float().to(at))
            focal, regress = loss_of(pred, torch.from_numpy(targets(points, size)[None]).to(at))
            total += float(focal + regress)
    net.train()
    return total / max(len(images), 1)


def crop_batch(
    images: list[np.ndarray], corners: list[np.ndarray], rng: np.random.Generator, batch: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """``batch`` random crops of random frames (uint8, N x CROP x CROP x 3) and their targets
    (float16, N x 4 x CROP x CROP: half the bytes to hand between processes)."""
    picks = rng.integers(len(images), size=batch)
    pairs = [crop_with_corners(images[i], corners[i], rng, CROP) for i in picks.tolist()]
    x = torch.from_numpy(np.stack([p[0] for p in pairs]))
    y = torch.from_numpy(np.stack([targets(p[1], CROP) for p in pairs]).astype(np.float16))
    return x, y


class _Batches(torch.utils.data.IterableDataset[tuple[torch.Tensor, torch.Tensor]]):  # type: ignore[misc,unused-ignore]  # torch: untyped in CI
    """Endless ``crop_batch`` batches, each worker process drawing from its own stream."""

    def __init__(
        self, images: list[np.ndarray], corners: list[np.ndarray], batch: int, seed: int
    ) -> None:
        self.images, self.corners, self.batch, self.seed = images, corners, batch, seed

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        worker = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.seed, 0 if worker is None else worker.id])
        while True:
            yield crop_batch(self.images, self.corners, rng, self.batch)


def batches(
    images: list[np.ndarray], corners: list[np.ndarray], batch: int, seed: int, workers: int
) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """Training batches: cut in this process (``workers`` 0, one seeded stream), or by
    ``workers`` processes ahead of the GPU."""
    if workers == 0:
        rng = np.random.default_rng(seed)
        while True:
            yield crop_batch(images, corners, rng, batch)
    loader = torch.utils.data.DataLoader(
        _Batches(images, corners, batch, seed),
        batch_size=None,
        num_workers=workers,
        pin_memory=torch.cuda.is_available(),
        prefetch_factor=4,
        persistent_workers=True,
    )
    yield from loader


def train(
    images: list[np.ndarray],
    corners: list[np.ndarray],
    minutes: float,
    steps: int,
    batch: int,
    seed: int,
    max_lr: float,
    device: str = "cpu",
    workers: int = 0,
    fit: bool = False,
) -> tuple[SpotNet, dict[str, object]]:
    """The net after ``steps`` one-cycle steps (or ``minutes``, whichever ends first), on
    ``device``; ``fit``: as many steps as fit in ``minutes`` (``one_cycle``)."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = SpotNet().to(device)
    source = batches(images, corners, batch, seed, workers)

    def step_losses() -> dict[str, torch.Tensor]:
        x, y = next(source)
        x = _jitter(x.to(device, non_blocking=True).float(), gen)
        focal, regress = loss_of(net(x), y.to(device, non_blocking=True).float())
        return {"focal": focal, "regress": regress}

    done = one_cycle(net, step_losses, steps, minutes, max_lr, fit)
    return net, {
        "steps": done,
        "batch": batch,
        "crop": CROP,
        "seed": seed,
        "sigma": SIGMA,
        "device": device,
        "widths": "own edge",
    }


def spot_recall(
    model: Path, images: list[np.ndarray], corners: list[np.ndarray], level: float
) -> dict[str, float]:
    """How well the exported ``model`` (run by onnxruntime, as the detector runs it) finds the
    index corners of frames already at its input size: the share of corners with a spot
    within 0.15 card widths, 20 degrees and 25 % of the width, the spots that match none per
    frame, and the median distance of the matched spots, in card widths."""
    from companion.vision.proposals.spots import SpotModel

    spots = SpotModel(model, threads=2)
    found = total = false = 0
    errors: list[float] = []
    for image, points in zip(images, corners, strict=True):
        frames = spots.frames(image, level)
        used = np.zeros(len(frames), bool)
        for x, y, ux, uy, w in points.tolist():
            total += 1
            for k, q in enumerate(frames):
                far = float(np.hypot(q.p[0] - x, q.p[1] - y)) / w
                if (
                    not used[k]
                    and far < 0.15
                    and float(q.u[0] * ux + q.u[1] * uy) > np.cos(np.radians(20))
                    and abs(q.s - w) < 0.25 * w
                ):
                    used[k] = True
                    found += 1
                    errors.append(far)
                    break
        false += int((~used).sum())
    return {
        "recall": found / max(total, 1),
        "corners": float(total),
        "false_per_frame": false / max(len(images), 1),
        "median_error": float(np.median(errors)) if errors else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=Path, nargs="+", default=[])
    parser.add_argument("--val", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, default=Path("cache/card_spots_fp32.onnx"))
    parser.add_argument("--minutes", type=float, default=40.0)
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-lr", type=float, default=3e-3)
    parser.add_argument("--device", default="cpu", help="cpu, or cuda where a GPU is lent")
    parser.add_argument("--workers", type=int, default=0, help="processes cutting the crops")
    parser.add_argument(
        "--fit", action="store_true", help="fit the cycle's steps to --minutes (timed at start)"
    )
    parser.add_argument(
        "--check", type=Path, default=None, help="measure this exported model on --val only"
    )
    parser.add_argument(
        "--level", type=float, default=SPOT_LEVEL, help="with --check: the spot level"
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.check is not None:
        print(json.dumps(spot_recall(args.check, *load_frames(args.val), args.level)))
        return 0
    if not args.train:
        parser.error("--train: give the training frames (outline_data's)")
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        parser.error(f"--device {args.device}: no CUDA GPU here (train with --device cpu)")
    if args.workers < 0:
        parser.error(f"--workers takes 0 or more processes: got {args.workers}")
    for path in (*args.train, *args.val):
        if not path.is_file():
            print(f"spot_train: {path}: no such file; run outline_data first", file=sys.stderr)
            return 2
    images, corners = load_frames(args.train)
    net, info = train(
        images,
        corners,
        args.minutes,
        args.steps,
        args.batch,
        args.seed,
        args.max_lr,
        args.device,
        args.workers,
        args.fit,
    )
    info["frames"] = len(images)
    info["val_loss"] = round(val_loss(net, *load_frames(args.val)), 4)
    print(f"held-out loss {info['val_loss']}")
    export(net.cpu(), args.out, info, key="spots", name="spots")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
