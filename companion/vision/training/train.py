"""Train the corner-index classifier on synthetic crops and export it to ONNX.

Resumable: a checkpoint is written after every epoch and picked up again on the next run.
The time budget (``--minutes``) stops training after the epoch that crosses it. On a lent GPU
(``--device cuda``) the crops are held and jittered on the GPU, and ``--fit`` sizes the
one-cycle schedule to ``--minutes`` (timed at the start), so that the run ends its cycle at a
low rate instead of being cut off at a high one (``corner_gpu.sh``).

    python -m companion.vision.training.train --minutes 40 --epochs 3
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from companion.vision.base.geometry import CORNER, CROP_H, CROP_W, FACE, Extent
from companion.vision.training.net import CornerNet
from companion.vision.training.outline_train import probe_rate
from companion.vision.training.patches import NO_INDEX, RANKS, SUITS


class Exported(nn.Module):  # type: ignore[misc,unused-ignore]  # as CornerNet
    def __init__(self, net: CornerNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        rank, suit = self.net(x)
        return torch.softmax(rank, 1), torch.softmax(suit, 1)


def augment(batch: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Cheap photometric changes on top of the scene-level ones (N,H,W,3 float), drawn from
    ``gen`` on the batch's device."""
    n, at = batch.shape[0], batch.device
    gain = torch.empty(n, 1, 1, 3, device=at).uniform_(0.75, 1.25, generator=gen)
    bias = torch.empty(n, 1, 1, 1, device=at).uniform_(-30, 30, generator=gen)
    batch = batch * gain + bias
    # Four-colour decks and odd light: sometimes swap colour channels or drop colour.
    perm = torch.rand(n, generator=gen, device=at) < 0.15
    if perm.any():
        order = torch.randperm(3, generator=gen, device=at)
        batch[perm] = batch[perm][..., order]
    grey = torch.rand(n, generator=gen, device=at) < 0.1
    if grey.any():
        batch[grey] = batch[grey].mean(dim=3, keepdim=True).expand(-1, -1, -1, 3)
    sigma = torch.rand(n, 1, 1, 1, generator=gen, device=at) * 8
    batch = batch + torch.randn(batch.shape, generator=gen, device=at) * sigma
    return batch.clamp(0, 255)


def load(paths: list[Path]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    parts = [np.load(path) for path in paths]
    return (
        torch.from_numpy(np.concatenate([d["crops"] for d in parts])),
        torch.from_numpy(np.concatenate([d["ranks"] for d in parts]).astype(np.int64)),
        torch.from_numpy(np.concatenate([d["suits"] for d in parts]).astype(np.int64)),
    )


def evaluate(
    net: CornerNet, crops: torch.Tensor, ranks: torch.Tensor, suits: torch.Tensor
) -> dict[str, float]:
    net.eval()
    preds_r, preds_s = [], []
    with torch.no_grad():
        for i in range(0, len(crops), 512):
            r, s = net(crops[i : i + 512].float())
            preds_r.append(r.argmax(1))
            preds_s.append(s.argmax(1))
    pr, ps = torch.cat(preds_r), torch.cat(preds_s)
    pos = ranks != NO_INDEX
    card_ok = (pr == ranks) & (ps == suits)
    return {
        "card_acc": float(card_ok[pos].float().mean()),
        "rank_acc": float((pr == ranks)[pos].float().mean()),
        "suit_acc": float((ps == suits)[pos].float().mean()),
        "neg_acc": float((pr == ranks)[~pos].float().mean()),
    }


def export(net: CornerNet, out: Path, info: dict[str, object], extent: Extent = CORNER) -> None:
    import onnx

    net.eval()
    dummy = torch.zeros(1, CROP_H, CROP_W, 3)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        Exported(net),
        (dummy,),
        str(out),
        input_names=["crops"],
        output_names=["rank", "suit"],
        opset_version=17,
        dynamo=False,
        dynamic_axes={"crops": {0: "n"}, "rank": {0: "n"}, "suit": {0: "n"}},
    )
    model = onnx.load(str(out))
    meta = {"ranks": RANKS, "suits": SUITS, "no_index": "-", **crop_metadata(extent)}
    add_metadata(model, {**meta, "training": json.dumps(info)})
    onnx.save(model, str(out))
    print(f"exported {out}")


def crop_metadata(extent: Extent) -> dict[str, str]:
    """The crop geometry a model is trained on, as the runtime checks it (``sessions``)."""
    return {
        "crop_w": str(CROP_W),
        "crop_h": str(CROP_H),
        "crop_x": json.dumps(extent[0]),
        "crop_y": json.dumps(extent[1]),
    }


def add_metadata(model: Any, meta: dict[str, str]) -> None:
    """``meta`` added to an ONNX ``model``'s metadata properties."""
    for key, value in meta.items():
        prop = model.metadata_props.add()
        prop.key, prop.value = key, value


# Steps timed by ``--fit`` at the cycle's starting rate (``outline_train.probe_rate``).
PROBE = 60


def _fitted_steps(
    step: Callable[[], object], opt: torch.optim.Optimizer, max_lr: float, seconds: float
) -> int:
    """Run ``PROBE`` steps at the one-cycle's starting rate and return how many more steps
    fit in ``seconds`` (at least ten)."""
    start = time.monotonic()
    per_step = probe_rate(step, opt, max_lr, PROBE)
    left = seconds - (time.monotonic() - start)
    return max(10, int(0.95 * left / per_step))


def _blended(
    start: dict[str, torch.Tensor], trained: dict[str, torch.Tensor], share: float
) -> dict[str, torch.Tensor]:
    """``share`` of each trained weight plus the rest of its starting value (counters, such as
    a norm's batch count, stay as trained)."""
    return {
        k: share * v + (1.0 - share) * start[k] if v.is_floating_point() else v
        for k, v in trained.items()
    }


def _train_mode(net: CornerNet, frozen_norms: bool) -> None:
    """``net`` set to train, its norms kept as loaded when ``frozen_norms`` (``onnx_init``)."""
    net.train()
    if frozen_norms:
        for norm in net.modules():
            if isinstance(norm, nn.BatchNorm2d):
                norm.eval()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="train the corner-index classifier")
    parser.add_argument(
        "--train",
        type=Path,
        nargs="+",
        default=[Path("cache/patches_train.npz"), Path("cache/patches_prop_train.npz")],
    )
    parser.add_argument("--val", type=Path, nargs="*", default=[Path("cache/patches_prop_val.npz")])
    parser.add_argument("--out", type=Path, default=Path("models/card_corners.onnx"))
    parser.add_argument("--checkpoint", type=Path, default=Path("cache/corner_ckpt.pt"))
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-lr", type=float, default=3e-3)
    parser.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start from this checkpoint's weights (fine-tuning, fresh schedule)",
    )
    parser.add_argument(
        "--init-onnx",
        type=Path,
        default=None,
        help="start from a shipped int8 model's weights, dequantized (fine-tuning, norms frozen)",
    )
    parser.add_argument("--width", type=float, default=1.0, help="channel multiplier")
    parser.add_argument("--patch", action="store_true", help="a 4x4 patch stem (CornerNet)")
    parser.add_argument(
        "--index-only",
        action="store_true",
        help="train on index crops only (a rank/suit reader behind the first)",
    )
    parser.add_argument(
        "--face",
        action="store_true",
        help="the crops show whole cards (patches --source faces): the face reader",
    )
    parser.add_argument(
        "--blend",
        type=float,
        default=1.0,
        help="export this share of the trained weights, the rest the starting ones (--init or "
        "--init-onnx): 0.5 keeps half of what a fine-tune moved, and more of what it forgot",
    )
    parser.add_argument("--device", default="cpu", help="cpu, or cuda where a GPU is lent")
    parser.add_argument(
        "--fit",
        action="store_true",
        help="fit the one-cycle schedule to --minutes, timed at the start (a fresh run only)",
    )
    args = parser.parse_args(argv)
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        parser.error(f"--device {args.device}: no CUDA GPU here (train with --device cpu)")
    if args.fit and args.checkpoint.exists():
        parser.error(f"--fit times a fresh run: remove {args.checkpoint} first")
    if not 0.0 < args.blend <= 1.0:
        parser.error(f"--blend takes a share above 0 and at most 1: got {args.blend}")
    if args.blend < 1.0 and args.init is None and args.init_onnx is None:
        parser.error("--blend mixes the trained weights with the starting ones: give --init")

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    gen = torch.Generator(device=device).manual_seed(args.seed)
    crops, ranks, suits = (t.to(device) for t in load(args.train))
    val = tuple(t.to(device) for t in load(args.val)) if args.val else None
    if args.index_only:
        keep = ranks != NO_INDEX
        crops, ranks, suits = crops[keep], ranks[keep], suits[keep]
        if val is not None:
            keep = val[1] != NO_INDEX
            val = (val[0][keep], val[1][keep], val[2][keep])
    print(f"{len(crops)} training crops ({int((ranks != NO_INDEX).sum())} indices)", flush=True)

    if args.init_onnx is not None:
        from companion.vision.training.onnx_init import net_of

        net = net_of(args.init_onnx)
        print(f"weights from {args.init_onnx} (dequantized; norms frozen)", flush=True)
    else:
        net = CornerNet(args.width, patch=args.patch)
    if args.init is not None:
        net.load_state_dict(torch.load(args.init, weights_only=False, map_location="cpu")["net"])
        print(f"weights from {args.init}", flush=True)
    net = net.to(device)
    start_weights = {k: v.detach().clone() for k, v in net.state_dict().items()}
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps_per_epoch = len(crops) // args.batch
    suit_loss = nn.CrossEntropyLoss(ignore_index=-1)
    rank_loss = nn.CrossEntropyLoss(label_smoothing=0.05)

    def train_on(idx: torch.Tensor) -> float:
        x = augment(crops[idx].float(), gen)
        r_logits, s_logits = net(x)
        loss = rank_loss(r_logits, ranks[idx]) + suit_loss(s_logits, suits[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        return float(loss)

    total_steps = args.epochs * steps_per_epoch
    if args.fit:
        _train_mode(net, frozen_norms=args.init_onnx is not None)
        total_steps = _fitted_steps(
            lambda: train_on(
                torch.randint(len(crops), (args.batch,), generator=gen, device=device)
            ),
            opt,
            args.max_lr,
            args.minutes * 60,
        )
        args.epochs = -(-total_steps // steps_per_epoch)
        print(f"fitted: {total_steps} steps ({args.epochs} epochs)", flush=True)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.max_lr, total_steps=total_steps, pct_start=0.15
    )
    epoch, elapsed, history, done = 0, 0.0, [], 0
    if args.checkpoint.exists():
        state = torch.load(args.checkpoint, weights_only=False, map_location=device)
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        epoch, elapsed, history = state["epoch"], state["elapsed"], state["history"]
        done = epoch * steps_per_epoch
        print(f"resumed at epoch {epoch} ({elapsed / 60:.1f} min so far)", flush=True)

    while epoch < args.epochs and elapsed < args.minutes * 60:
        _train_mode(net, frozen_norms=args.init_onnx is not None)
        start = time.time()
        order = torch.randperm(len(crops), generator=gen, device=device)
        total, steps = 0.0, min(steps_per_epoch, total_steps - done)
        for step in range(steps):
            total += train_on(order[step * args.batch : (step + 1) * args.batch])
            sched.step()
            done += 1
            if step % 100 == 0:
                print(
                    f"epoch {epoch + 1} step {step}/{steps_per_epoch} "
                    f"loss {total / (step + 1):.4f} "
                    f"({(time.time() - start) / (step + 1) * 1000:.0f} ms/step)",
                    flush=True,
                )
        epoch += 1
        elapsed += time.time() - start
        scores = evaluate(net, *val) if val else {}
        history.append({"epoch": epoch, "loss": total / max(1, steps), **scores})
        print(f"epoch {epoch} done, {elapsed / 60:.1f} min, {history[-1]}", flush=True)
        args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
        torch.save(
            {
                "net": net.state_dict(),
                "opt": opt.state_dict(),
                "sched": sched.state_dict(),
                "epoch": epoch,
                "elapsed": elapsed,
                "history": history,
            },
            args.checkpoint,
        )
    if args.blend < 1.0:
        net.load_state_dict(_blended(start_weights, net.state_dict(), args.blend))
    export(
        net.cpu(),
        args.out,
        {
            "blend": args.blend,
            "epochs": epoch,
            "minutes": round(elapsed / 60, 1),
            "train_crops": len(crops),
            "history": history[-1:] if history else [],
        },
        FACE if args.face else CORNER,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
