"""The gate: a network about a tenth of the corner model's cost that tells which crops need it.

On a 720p frame the corner model reads about 450-600 crops, and about three quarters of them
it calls "no index" surely (index probability under ``REFRAME_FLOOR``): table texture, chips,
the other corners of a card. Such a crop changes nothing downstream but being a rejected
corner, so the gate learns to recognise them from the corner model's own reads, and the
detector sends on only the crops the gate passes (``CornerReader.classify``).

Taught by the shipped corner model, with no labels of its own: ``collect`` runs the detector
on rendered scenes and keeps every crop the corner model reads, with its index probability
(``1 - p(no index)``); ``main`` trains the gate on them and picks the gate's pass level on
held-out scenes so that it passes all but ``MISS_BUDGET`` of the crops the corner model finds
index-like (the level is stored in the model's metadata, ``pass_at``).

    python -m companion.vision.training.gate collect cache/gate/train.npz cache/gate/s1601 ...
    python -m companion.vision.training.gate train --train cache/gate/train.npz \\
        --val cache/gate/val.npz --out cache/card_gate_fp32.onnx
    python -m companion.vision.training.quantize cache/card_gate_fp32.onnx \\
        models/card_gate.onnx --calibration cache/gate/train.npz
    python -m companion.vision.training.gate level models/card_gate.onnx --val cache/gate/val.npz

Quantizing moves the gate's scores by up to about 0.08, so its pass level is chosen again on
the int8 model's own scores (``level``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from companion.errors import CompanionError
from companion.vision.base.geometry import CORNER, CROP_H, CROP_W
from companion.vision.base.image import load_image
from companion.vision.corner_reads.gate import Gate
from companion.vision.corner_reads.reader import CornerReader
from companion.vision.corner_reads.reframe import REFRAME_FLOOR
from companion.vision.detector import CardDetector
from companion.vision.training.train import add_metadata, augment, crop_metadata

__all__ = ["GateNet", "collect", "pass_level", "main"]

# The corner model's reads that matter: an index probability of at least this much is framed
# again or read; under it a crop is only a rejected corner.
MATTERS = REFRAME_FLOOR
# Of the held-out crops that matter, the share the gate may stop: the most that costs no card.
MISS_BUDGET = 0.00025
# The patch stem's channels, then those of each layer at stride 2.
CHANNELS = (16, 32, 48)


def _layer(cin: int, cout: int, size: int, stride: int, padding: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, size, stride, padding, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class GateNet(nn.Module):  # type: ignore[misc,unused-ignore]  # torch: untyped where types are checked
    """A 56x40 BGR crop -> the logit that the corner model finds it index-like. Three layers
    (a 4x4 patch stem to 14x10, then two at stride 2), about 0.6 MFLOP: onnxruntime's int8
    convolutions are slow on few channels, so few wide layers beat many narrow ones."""

    def __init__(self, channels: tuple[int, ...] = CHANNELS) -> None:
        super().__init__()
        self.channels = channels
        layers = [_layer(3, channels[0], 4, 4, 0)]
        layers += [_layer(a, b, 3, 2, 1) for a, b in zip(channels, channels[1:], strict=False)]
        self.features = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.out = nn.Linear(channels[-1], 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # Input: uint8-range BGR as float, N x H x W x 3, as the corner model takes it.
        logit: torch.Tensor = self.out(self.features(x.permute(0, 3, 1, 2) / 255.0 - 0.5))
        return logit[:, 0]


class _Exported(nn.Module):  # type: ignore[misc,unused-ignore]  # as GateNet
    def __init__(self, net: GateNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.net(x))


class _Recording(CornerReader):
    """The corner reader without a gate, keeping every crop its corner model reads."""

    def __init__(self) -> None:
        super().__init__(gate_path=None)
        self.crops: list[np.ndarray] = []
        self.index_p: list[np.ndarray] = []

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rank, suit = super().classify(crops)
        self.crops.append(crops.astype(np.uint8))
        self.index_p.append((1.0 - rank[:, -1]).astype(np.float32))
        return rank, suit


def collect(out: Path, scene_dirs: list[Path]) -> int:
    """Every crop the shipped corner model reads on the scenes of ``scene_dirs`` (rendered by
    ``scenes``; every other photo read with its layout, as the app reads both ways), with its
    index probability, saved to ``out``; returns how many."""
    from companion.vision.layouts.expect import parse_expect
    from companion.vision.layouts.read import read_layout
    from companion.vision.training.evaluate import expect_of

    # Without the spot model, as the shipped gate was taught before there was one.
    detector, recording = CardDetector(gate_path=None, spot_path=None), _Recording()
    detector.reader = recording
    for folder in scene_dirs:
        entries = json.loads((folder / "labels.json").read_text())
        for n, entry in enumerate(entries):
            image = load_image(folder / entry["image"])
            groups, layout = entry.get("groups"), entry.get("layout")
            expect = expect_of(groups) if groups else parse_expect(layout) if layout else None
            read_layout(detector, image, expect if n % 2 == 0 else None)
        print(f"{folder}: {sum(len(c) for c in recording.crops)} crops so far", flush=True)
    crops = np.concatenate(recording.crops)
    np.savez(out, crops=crops, index_p=np.concatenate(recording.index_p))
    return len(crops)


def _scores(net: GateNet, crops: torch.Tensor) -> np.ndarray:
    net.eval()
    with torch.no_grad():
        batches = range(0, len(crops), 1024)
        parts = [torch.sigmoid(net(crops[i : i + 1024].float())) for i in batches]
    # np.asarray types the result the same whether or not torch's stubs are installed.
    return np.asarray(torch.cat(parts).numpy())


def pass_level(scores: np.ndarray, index_p: np.ndarray) -> float:
    """The highest gate level that stops at most ``MISS_BUDGET`` of the crops that matter."""
    matter = np.sort(scores[index_p >= MATTERS])
    if len(matter) == 0:
        return 0.0
    return float(matter[int(np.floor(MISS_BUDGET * len(matter)))])


def set_level(model_path: Path, val: list[Path]) -> float:
    """Choose the pass level of the gate ``model_path`` (as run by onnxruntime, so int8 once
    quantized) on the held-out crops of ``val`` and store it in its metadata."""
    import onnx

    gate = Gate(model_path)
    crops, index_p = _load(val)
    batches = range(0, len(crops), 1024)
    scores = np.concatenate([gate.scores(crops[i : i + 1024].numpy()) for i in batches])
    level = pass_level(scores, index_p)
    model = onnx.load(str(model_path))
    for prop in model.metadata_props:
        if prop.key == "pass_at":
            prop.value = repr(level)
    onnx.save(model, str(model_path))
    passed = float((scores >= level).mean())
    print(f"{model_path}: pass at {level:.4f}, passes {passed:.3f} of {len(crops)} held-out crops")
    return level


def export(net: GateNet, out: Path, level: float, info: dict[str, object]) -> None:
    import onnx

    net.eval()
    torch.onnx.export(
        _Exported(net),
        (torch.zeros(1, CROP_H, CROP_W, 3),),
        str(out),
        input_names=["crops"],
        output_names=["index"],
        opset_version=17,
        dynamo=False,
        dynamic_axes={"crops": {0: "n"}, "index": {0: "n"}},
    )
    model = onnx.load(str(out))
    meta = {"kind": "gate", "pass_at": repr(level), **crop_metadata(CORNER)}
    add_metadata(model, {**meta, "training": json.dumps(info)})
    onnx.save(model, str(out))


def _load(paths: list[Path]) -> tuple[torch.Tensor, np.ndarray]:
    parts = [np.load(path) for path in paths]
    crops = torch.from_numpy(np.concatenate([p["crops"] for p in parts]))
    return crops, np.concatenate([p["index_p"] for p in parts])


def train(args: argparse.Namespace) -> int:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    crops, index_p = _load(args.train)
    val_crops, val_p = _load(args.val)
    # Soft targets: a crop half as index-like as one that matters counts half, which ranks the
    # borderline crops better than a hard target does.
    target = torch.from_numpy(np.clip(index_p / MATTERS, 0.0, 1.0).astype(np.float32))
    print(f"{len(crops)} crops, {int((index_p >= MATTERS).sum())} index-like", flush=True)
    net = GateNet(tuple(int(c) for c in args.channels.split(",")))
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = len(crops) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.max_lr, epochs=args.epochs, steps_per_epoch=steps, pct_start=0.15
    )
    # Stopping an index-like crop can lose a card; passing a plain one costs a corner read.
    loss_of = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(args.pos_weight))
    start = time.time()
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(crops), generator=gen)
        for step in range(steps):
            idx = order[step * args.batch : (step + 1) * args.batch]
            loss = loss_of(net(augment(crops[idx].float(), gen)), target[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        scores = _scores(net, val_crops)
        level = pass_level(scores, val_p)
        passed = float((scores >= level).mean())
        print(
            f"epoch {epoch + 1}: loss {loss.item():.4f}, pass level {level:.4f} passes "
            f"{passed:.3f} of the held-out crops ({time.time() - start:.0f} s)",
            flush=True,
        )
    info = {
        "teacher": "models/card_corners.onnx",
        "train": [str(p) for p in args.train],
        "val": [str(p) for p in args.val],
        "epochs": args.epochs,
        "channels": list(net.channels),
        "crops": len(crops),
        "passes": passed,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(net, args.out, level, info)
    print(f"exported {args.out} (pass at {level:.4f})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gather = sub.add_parser("collect", help="the corner model's crops of rendered scenes")
    gather.add_argument("out", type=Path)
    gather.add_argument("scenes", type=Path, nargs="+", help="folders written by scenes")
    learn = sub.add_parser("train", help="train the gate and export it (float)")
    learn.add_argument("--train", type=Path, nargs="+", required=True)
    learn.add_argument("--val", type=Path, nargs="+", required=True)
    learn.add_argument("--out", type=Path, required=True)
    learn.add_argument("--epochs", type=int, default=6)
    learn.add_argument("--batch", type=int, default=256)
    learn.add_argument("--max-lr", type=float, default=4e-3)
    learn.add_argument("--pos-weight", type=float, default=4.0)
    learn.add_argument("--threads", type=int, default=2)
    learn.add_argument("--seed", type=int, default=0)
    learn.add_argument(
        "--channels", default=",".join(map(str, CHANNELS)), help="the stem's, then each layer's"
    )
    choose = sub.add_parser("level", help="choose a gate model's pass level (after quantizing)")
    choose.add_argument("model", type=Path)
    choose.add_argument("--val", type=Path, nargs="+", required=True)
    args = parser.parse_args(argv)
    try:
        if args.command == "level":
            set_level(args.model, args.val)
            return 0
        if args.command == "collect":
            count = collect(args.out, args.scenes)
            print(f"{count} crops -> {args.out}")
            return 0
        return train(args)
    except CompanionError as error:
        print(f"gate: {error.message()}", file=sys.stderr)
    except OSError as error:  # a crop set or a scene folder that is not there
        print(f"gate: {error.filename}: {error.strerror}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
