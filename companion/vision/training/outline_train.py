"""Train the outline model (``vision.proposals.outlines``) on rendered frames and export it.

    python -m companion.vision.training.outline_train --train cache/outlines_train.npz \
        --val cache/outlines_val.npz --out cache/card_outlines_fp32.onnx --minutes 40

A small encoder-decoder reads a frame shrunk to ``INPUT_SIDE`` pixels on its long side and
says, for every pixel, whether a card face lies there (``outline_data``'s target: cards laid
touching are cut apart). Trained on 256x256 crops, flipped and turned a quarter at random,
with their light and colour jittered; the pixels next to an outline weigh five times the
others, since the outline is what the proposals need.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from companion.vision.proposals.outlines import INPUT_SIDE, padded
from companion.vision.training.outline_data import read_frames

CROP = 256
EDGE_WEIGHT = 4.0  # extra weight of the pixels within one of an outline


def _conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class FrameNet(nn.Module):  # type: ignore[misc,unused-ignore]  # torch: untyped where types are checked
    """BGR frame (N x H x W x 3, 0..255; H and W multiples of ``STRIDE``) -> N x ``outputs``
    x H x W maps. Three halvings, two dilated layers (a receptive field of about 90 input
    pixels: a card's paper against glare or a light table), two skip connections back up,
    ``up`` channels wide at half size."""

    def __init__(self, outputs: int, up: int) -> None:
        super().__init__()
        self.down1 = _conv(3, 16, stride=2)  # 1/2
        self.down2 = nn.Sequential(_conv(16, 24, stride=2), _conv(24, 32))  # 1/4
        self.down3 = nn.Sequential(
            _conv(32, 48, stride=2), _conv(48, 48, dilation=2), _conv(48, 48, dilation=4)
        )  # 1/8
        self.lift3 = nn.Conv2d(48, 32, 1)
        self.up2 = _conv(32, 24)
        self.lift2 = nn.Conv2d(24, up, 1)
        self.skip1 = nn.Conv2d(16, up, 1)
        self.up1 = _conv(up, up)
        self.head = nn.Conv2d(up, outputs, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.permute(0, 3, 1, 2) / 255.0 - 0.5
        f1 = self.down1(x)
        f2 = self.down2(f1)
        f3 = self.down3(f2)
        g2 = self.up2(F.interpolate(self.lift3(f3), scale_factor=2.0, mode="nearest") + f2)
        g1 = self.up1(
            F.interpolate(self.lift2(g2), scale_factor=2.0, mode="nearest") + self.skip1(f1)
        )
        return F.interpolate(self.head(g1), scale_factor=2.0, mode="bilinear", align_corners=False)


class OutlineNet(FrameNet):
    """BGR frame -> card logits (N x H x W): ``FrameNet`` with one output, 12 channels up."""

    def __init__(self) -> None:
        super().__init__(outputs=1, up=12)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return super().forward(x)[:, 0]


def load_frames(
    paths: list[Path], beside: str = "target"
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The frames ``outline_data`` wrote to ``paths``, each with its ``beside`` array (its
    ``target``, or its index ``corners``)."""
    images: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    for path in paths:
        more, their = read_frames(path, beside)
        images, targets = images + more, targets + their
    return images, targets


def _crop(
    image: np.ndarray, target: np.ndarray, rng: np.random.Generator, size: int = CROP
) -> tuple[np.ndarray, np.ndarray]:
    """A random ``size`` square (padded with the frame's edge where the frame is smaller),
    flipped and turned at random."""
    h, w = target.shape
    ph, pw = max(0, size - h), max(0, size - w)
    if ph or pw:
        image = np.pad(image, ((0, ph), (0, pw), (0, 0)), mode="edge")
        target = np.pad(target, ((0, ph), (0, pw)))
        h, w = target.shape
    y, x = int(rng.integers(h - size + 1)), int(rng.integers(w - size + 1))
    image, target = image[y : y + size, x : x + size], target[y : y + size, x : x + size]
    turns = int(rng.integers(4))
    image, target = np.rot90(image, turns), np.rot90(target, turns)
    if rng.random() < 0.5:
        image, target = image[:, ::-1], target[:, ::-1]
    return np.ascontiguousarray(image), np.ascontiguousarray(target)


def _jitter(batch: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Light and colour jitter: a gain per channel and per crop, and an offset."""
    n, at = batch.shape[0], batch.device
    gain = 0.75 + 0.5 * torch.rand(n, 1, 1, 1, generator=gen)
    cast = 0.9 + 0.2 * torch.rand(n, 1, 1, 3, generator=gen)
    offset = 30 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    return (batch * gain.to(at) * cast.to(at) + offset.to(at)).clamp(0, 255)


def _weights(target: torch.Tensor) -> torch.Tensor:
    """1, plus ``EDGE_WEIGHT`` on pixels whose 3x3 neighbourhood holds both card and not."""
    t = target[:, None]
    near_card = F.max_pool2d(t, 3, 1, 1)
    near_table = 1 - F.max_pool2d(1 - t, 3, 1, 1)
    return (1 + EDGE_WEIGHT * (near_card - near_table))[:, 0]


def iou(net: OutlineNet, images: list[np.ndarray], targets: list[np.ndarray]) -> float:
    """Intersection over union of the card pixels over whole frames (padded to ``STRIDE``)."""
    net.eval()
    inter = union = 0
    with torch.no_grad():
        for image, target in zip(images, targets, strict=True):
            h, w = target.shape
            out = net(torch.from_numpy(padded(image)[None]).float())[0, :h, :w].numpy() > 0
            inter += int(np.sum(out & (target > 0)))
            union += int(np.sum(out | (target > 0)))
    net.train()
    return inter / max(union, 1)


def export(
    net: FrameNet, out: Path, info: dict[str, object], key: str = "outlines", name: str = "cards"
) -> None:
    """ONNX with a free batch, height and width, its output ``name``, and ``info`` in its
    metadata under ``key``."""
    import onnx  # only needed here

    net.eval()
    dummy = torch.zeros(1, 288, INPUT_SIDE, 3)
    free = {0: "n", 1: "h", 2: "w"}
    maps = free if net(dummy).dim() == 3 else {0: "n", 2: "h", 3: "w"}
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net,
        (dummy,),
        str(out),
        input_names=["frame"],
        output_names=[name],
        dynamic_axes={"frame": free, name: maps},
        opset_version=17,
        dynamo=False,
    )
    model = onnx.load(str(out))
    entry = model.metadata_props.add()
    entry.key, entry.value = key, json.dumps(info)
    onnx.save(model, str(out))


PROBE = 50  # steps timed at the start of a fitted run (the first few warm a GPU up)


def probe_rate(
    step: Callable[[], object], opt: torch.optim.Optimizer, max_lr: float, probe: int = PROBE
) -> float:
    """Seconds a training ``step`` takes: ``probe`` steps run at the one-cycle's starting rate,
    the first ten (warming a GPU up) not timed."""
    for group in opt.param_groups:
        group["lr"] = max_lr / 25  # OneCycleLR's starting rate (its div_factor)
    timed = time.monotonic()
    for k in range(probe):
        if k == 10:
            timed = time.monotonic()
        step()
    return (time.monotonic() - timed) / (probe - 10)


def one_cycle(
    net: FrameNet,
    step_losses: Callable[[], dict[str, torch.Tensor]],
    steps: int,
    minutes: float,
    max_lr: float,
    fit: bool = False,
) -> int:
    """Train ``net`` on the sum of ``step_losses()`` (named terms, a fresh batch each call)
    for ``steps`` one-cycle AdamW steps or ``minutes``, whichever ends first, printing each
    term's mean every 100 steps; returns the steps done.

    ``fit``: time the first ``PROBE`` steps (at the cycle's starting rate) and cut ``steps`` to
    what fits in ``minutes``, so that a run on a machine lent for a fixed time ends its cycle
    at a low rate instead of being stopped at a high one."""
    opt = torch.optim.AdamW(net.parameters(), lr=max_lr, weight_decay=1e-4)
    start, history = time.monotonic(), []
    names: list[str] = []

    def step() -> None:
        terms = step_losses()
        names[:] = list(terms)
        loss = sum(terms.values(), torch.zeros(()))
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call,unused-ignore]  # torch: as FrameNet
        opt.step()
        history.append([t.item() for t in terms.values()])

    done = 0
    if fit:
        per_step = probe_rate(step, opt, max_lr)
        left = minutes * 60 - (time.monotonic() - start)
        steps = PROBE + max(10, min(steps - PROBE, int(0.97 * left / per_step)))
        print(f"fitted: {steps} steps at {1000 * per_step:.1f} ms a step", flush=True)
        done = PROBE
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps - done)
    while done < steps:
        step()
        sched.step()
        done += 1
        if done % 100 == 0:
            elapsed = time.monotonic() - start
            means = np.mean(history[-100:], axis=0)
            said = ", ".join(f"{k} {m:.4f}" for k, m in zip(names, means, strict=True))
            print(f"step {done}/{steps}: {said}, {elapsed:.0f} s", flush=True)
            if elapsed > minutes * 60:
                break
    return done


def train(
    images: list[np.ndarray],
    targets: list[np.ndarray],
    val: tuple[list[np.ndarray], list[np.ndarray]] | None,
    minutes: float,
    steps: int,
    batch: int,
    seed: int,
    max_lr: float,
    crop: int = CROP,
    fit: bool = False,
) -> tuple[OutlineNet, dict[str, object]]:
    """The net after ``steps`` one-cycle steps (or ``minutes``, whichever ends first; with
    ``fit``, the cycle cut to what fits in them: ``one_cycle``), on ``crop`` squares."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    net = OutlineNet()

    def step_losses() -> dict[str, torch.Tensor]:
        picks = rng.integers(len(images), size=batch)
        pairs = [_crop(images[i], targets[i], rng, crop) for i in picks.tolist()]
        x = _jitter(torch.from_numpy(np.stack([p[0] for p in pairs])).float(), gen)
        y = torch.from_numpy(np.stack([p[1] for p in pairs])).float()
        bce = F.binary_cross_entropy_with_logits(net(x), y, reduction="none")
        return {"loss": (bce * _weights(y)).mean()}

    done = one_cycle(net, step_losses, steps, minutes, max_lr, fit)
    info: dict[str, object] = {"steps": done, "batch": batch, "crop": crop, "seed": seed}
    if val is not None:
        info["val_iou"] = round(iou(net, *val), 4)
        print(f"held-out IoU {info['val_iou']}")
    return net, info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=Path, nargs="+", default=[Path("cache/outlines_train.npz")])
    parser.add_argument("--val", type=Path, nargs="+", default=[Path("cache/outlines_val.npz")])
    parser.add_argument("--out", type=Path, default=Path("cache/card_outlines_fp32.onnx"))
    parser.add_argument("--minutes", type=float, default=40.0)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-lr", type=float, default=3e-3)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    for path in (*args.train, *args.val):
        if not path.is_file():
            print(f"outline_train: {path}: no such file; run outline_data first", file=sys.stderr)
            return 2
    images, targets = load_frames(args.train)
    net, info = train(
        images,
        targets,
        load_frames(args.val),
        args.minutes,
        args.steps,
        args.batch,
        args.seed,
        args.max_lr,
    )
    info["frames"] = len(images)
    export(net, args.out, info)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
