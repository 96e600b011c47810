"""Train the back check (``companion.vision.backs.check``) on rendered scenes, and export it.

    python -m companion.vision.training.back_check --train cache/bc/train_a/labels.json \
        --val cache/eval/1706/labels.json --out cache/bc/card_back_check.onnx

Scenes written with ``scenes --backs`` label every back's outline and every face-up card's.
From each scene come the areas the check reads (``check.corner_area``: an index crop doubled
about its middle), cut as it cuts them (``check.card_crop``), round corner frames: at the
face-up cards' corners, moved and turned a little as a read's corner strays (not a back: the
index crop half or more on faces); at the backs' corners and inside them, turned any way (a
back: the index crop a third or more on backs in view, hardly on faces); on bare table (not a
back). A small network of four convolutions reads the crop and says back or not; trained with
flips and light jitter, exported to ONNX with ``back_check`` in its metadata.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
from torch import nn

from companion.bench.cpu import describe_cpu
from companion.vision.backs import (
    CROP_HEIGHT,
    CROP_WIDTH,
    card_crop,
    card_points,
    check_input,
    corner_area,
)
from companion.vision.base.geometry import CORNER
from companion.vision.training.back_eval import back_pixels

__all__ = ["CheckNet", "card_corners", "index_quad", "jitter", "main", "scene_samples"]

BACK_SHARE = 0.3  # an index area this much on backs in view is a back's (the read's corner)
FACE_SHARE = 0.5  # an index area this much on face-up cards is a face's
STRAY = 0.1  # and the other of the two this much at most
TABLE_SHARE = 0.95  # an index area this much off every card is bare table's


class CheckNet(nn.Module):  # type: ignore[misc,unused-ignore]  # torch: untyped where types are checked
    """Four 3x3 convolutions (16-64 channels, pooled), a mean over the crop, one logit."""

    def __init__(self) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        channels = 3
        for width, pool in ((16, True), (32, True), (64, True), (64, False)):
            layers += [nn.Conv2d(channels, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU()]
            if pool:
                layers.append(nn.MaxPool2d(2))
            channels = width
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(channels, 1)

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.body(crops).mean(dim=(2, 3)))
        return logits.squeeze(1)


def _turned(u: np.ndarray, degrees: float) -> np.ndarray:
    a = np.deg2rad(degrees)
    return np.asarray([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]] @ u)


def index_quad(p: np.ndarray, u: np.ndarray, v: np.ndarray, s: float) -> np.ndarray:
    """The index crop of the corner frame (``p``; unit ``u`` along the card's short side,
    ``v`` along its long side; ``s`` the card's width), as ``Detections.index_quads`` keeps it:
    from its top left clockwise."""
    (x0, x1), (y0, y1) = CORNER
    return np.array([p + s * (x * u + y * v) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))])


def card_corners(
    quad: np.ndarray,
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """The four corner frames of a card outline (4x2, corners in order round it): each
    corner, the unit vectors to its neighbours along the short and the long side, the width."""
    q = np.asarray(quad, np.float64)
    frames = []
    for k in range(4):
        a, b = q[k - 1] - q[k], q[(k + 1) % 4] - q[k]
        short, long = (a, b) if np.linalg.norm(a) <= np.linalg.norm(b) else (b, a)
        width = float(np.linalg.norm(short))
        if width < 1e-6 or np.linalg.norm(long) < 1e-6:
            continue
        frames.append((q[k], short / width, long / np.linalg.norm(long), width))
    return frames


def jitter(
    frame: tuple[np.ndarray, np.ndarray, np.ndarray, float],
    rng: np.random.Generator,
    move: float,
    turn: float,
) -> np.ndarray:
    """The index crop of a corner ``frame`` moved (``move`` card widths' deviation), turned
    (up to ``turn`` degrees) and scaled, as a read's corner strays from the card's."""
    p, u, v, s = frame
    degrees = rng.uniform(-turn, turn)
    s *= rng.uniform(0.85, 1.15)
    return index_quad(p + rng.normal(0, move * s, 2), _turned(u, degrees), _turned(v, degrees), s)


def _shares(quad: np.ndarray, backs: np.ndarray, faces: np.ndarray) -> tuple[float, float]:
    """The shares of ``quad``'s area on backs in view and on face-up cards (sampled)."""
    h, w = backs.shape
    points = np.round(card_points(quad)).astype(int)
    inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
    x, y = points[inside, 0], points[inside, 1]
    on_back = np.zeros(len(points), bool)
    on_face = np.zeros(len(points), bool)
    on_back[inside] = backs[y, x] > 0
    on_face[inside] = faces[y, x] > 0
    return float(on_back.mean()), float(on_face.mean())


def _any_frame(
    p: np.ndarray, width: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """A corner frame at ``p`` turned any way (either hand: a back has no side)."""
    u = _turned(np.array([1.0, 0.0]), rng.uniform(0, 360))
    v = np.array([-u[1], u[0]]) * (1 if rng.random() < 0.5 else -1)
    return p, u, v, width


def scene_samples(
    entry: dict[str, Any], image: np.ndarray, rng: np.random.Generator, jitters: int = 2
) -> tuple[list[np.ndarray], list[int]]:
    """One labelled scene's crops (the area round an index crop, as the check reads a read)
    and their labels (1: a back's), ``jitters`` per corner."""
    ids, faces = back_pixels(entry, image.shape[:2])
    quads: list[np.ndarray] = []
    labels: list[int] = []

    def keep(index: np.ndarray, want: int) -> None:
        back, face = _shares(index, ids, faces)
        if want == 1 and back >= BACK_SHARE and face <= STRAY:
            quads.append(index)
            labels.append(1)
        elif want == 0 and face >= FACE_SHARE and back <= STRAY:
            quads.append(index)
            labels.append(0)
        elif want == 0 and 1.0 - back - face >= TABLE_SHARE:
            quads.append(index)
            labels.append(0)

    for face_quad in entry.get("face_quads", []):
        for frame in card_corners(np.array(face_quad)):
            for _ in range(jitters):
                keep(jitter(frame, rng, 0.05, 8), 0)
    widths = []
    for back_quad in entry.get("backs", []):
        corners = card_corners(np.array(back_quad))
        for p, _, _, width in corners:  # a back's corner read as an index, any way round
            widths.append(width)
            for _ in range(jitters):
                keep(jitter(_any_frame(p, width, rng), rng, 0.1, 0), 1)
        if corners:  # and inside it, where a lattice's crossing looks like an index's corner
            width = corners[0][3]
            middle = np.asarray(back_quad, np.float64).mean(axis=0)
            for _ in range(2 * jitters):
                p = middle + rng.normal(0, 0.35 * width, 2)
                keep(jitter(_any_frame(p, width, rng), rng, 0.0, 0), 1)
    h, w = image.shape[:2]
    if widths:
        for _ in range(jitters):  # bare table
            p = np.array([rng.uniform(0, w), rng.uniform(0, h)])
            keep(jitter(_any_frame(p, float(np.median(widths)), rng), rng, 0.0, 0), 0)
    crops = [card_crop(image, area) for area in corner_area(np.array(quads))] if quads else []
    return crops, labels


def load_samples(paths: list[Path], seed: int, jitters: int) -> tuple[np.ndarray, np.ndarray]:
    """The crops (N x H x W x 3, uint8) and labels of every scene of the label files."""
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for path in paths:
        for entry in json.loads(path.read_text()):
            image = cv2.imread(str(path.parent / entry["image"]), cv2.IMREAD_COLOR)
            if image is None or "backs" not in entry:
                continue
            more, marks = scene_samples(entry, image, rng, jitters)
            crops += more
            labels += marks
    if not crops:
        return np.zeros((0, CROP_HEIGHT, CROP_WIDTH, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(crops), np.array(labels, np.int64)


def _as_batch(crops: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(check_input(crops))


def _augment(batch: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Flips and a jitter of light and colour, per crop."""
    n = batch.shape[0]
    flip = torch.rand(n, generator=gen) < 0.5
    batch = torch.where(flip[:, None, None, None], batch.flip(3), batch)
    flip = torch.rand(n, generator=gen) < 0.5
    batch = torch.where(flip[:, None, None, None], batch.flip(2), batch)
    gain = 0.6 + 0.7 * torch.rand(n, 1, 1, 1, generator=gen)
    tint = 0.9 + 0.2 * torch.rand(n, 3, 1, 1, generator=gen)
    shift = 0.15 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    return (batch * gain * tint + shift).clamp(0, 1)


def train(
    crops: np.ndarray, labels: np.ndarray, epochs: int, seed: int, batch: int = 128
) -> CheckNet:
    """A ``CheckNet`` fitted to the crops (one-cycle Adam, backs weighted to the faces' count)."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = CheckNet()
    x, y = _as_batch(crops), torch.from_numpy(labels.astype(np.float32))
    steps = epochs * max(1, len(x) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    weight = torch.tensor(max(1.0, float((labels == 0).sum()) / max(1, int(labels.sum()))))
    loss_of = nn.BCEWithLogitsLoss(pos_weight=weight)
    net.train()
    for step in range(steps):
        pick = torch.randint(len(x), (batch,), generator=gen)
        loss = loss_of(net(_augment(x[pick], gen)), y[pick])
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call,unused-ignore]  # torch: as CheckNet
        opt.step()
        sched.step()
        if step % 200 == 0:
            print(f"step {step}/{steps}: loss {loss.item():.4f}", flush=True)
    net.eval()
    return net


def chances(net: CheckNet, crops: np.ndarray) -> np.ndarray:
    """The net's back chances for ``crops`` (N x H x W x 3, uint8)."""
    with torch.no_grad():
        logits = net(_as_batch(crops))
    return np.asarray(torch.sigmoid(logits).numpy(), np.float64)


def export(net: CheckNet, out: Path, info: dict[str, object]) -> None:
    """ONNX with a free batch, input ``crops`` (N x 3 x H x W, 0-1), output ``back`` logits,
    the crop's size under ``back_check`` and ``info`` under ``back_check_info``."""
    import onnx  # only needed here

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net.eval(),
        (torch.zeros(1, 3, CROP_HEIGHT, CROP_WIDTH),),
        str(out),
        input_names=["crops"],
        output_names=["back"],
        dynamic_axes={"crops": {0: "n"}, "back": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    model = onnx.load(str(out))
    for key, value in (("back_check", f"{CROP_HEIGHT}x{CROP_WIDTH}"), ("back_check_info", info)):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value if isinstance(value, str) else json.dumps(value)
    onnx.save(model, str(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=Path, nargs="+", required=True)
    parser.add_argument("--val", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, default=Path("cache/bc/card_back_check.onnx"))
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--jitters", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    print(f"CPU: {describe_cpu()}")
    start = time.perf_counter()
    crops, labels = load_samples(args.train, args.seed, args.jitters)
    val_crops, val_labels = load_samples(args.val, args.seed + 1, 1)
    print(
        f"crops: train {len(crops)} ({int(labels.sum())} backs), val {len(val_crops)} "
        f"({int(val_labels.sum())} backs), {time.perf_counter() - start:.0f} s"
    )
    if not len(crops) or not labels.any() or labels.all():
        print("no backs or no faces among the training crops", file=sys.stderr)
        return 2
    net = train(crops, labels, args.epochs, args.seed)
    p = chances(net, val_crops)
    for level in (0.5, 0.9, 0.99):
        backs, faces = val_labels == 1, val_labels == 0
        print(
            f"val at {level}: backs {int(np.sum(p[backs] >= level))}/{int(backs.sum())}, "
            f"not backs called backs {int(np.sum(p[faces] >= level))}/{int(faces.sum())}"
        )
    info = {"train": [str(p) for p in args.train], "epochs": args.epochs, "seed": args.seed}
    export(net, args.out, info)
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
