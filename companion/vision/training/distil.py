"""Distil the shipped corner model into a ``CornerNet`` with a patch stem (``patch=True``).

The patch net keeps the corner model's layers after 14x10 pixels and replaces those before
(``CornerNet.front``), which take half of its int8 time. So the student starts with the
teacher's later layers, dequantized (``onnx_init``, their folded norms frozen), and learns
in two phases:

1. its front alone, to give the teacher's features at 14x10 and, through the teacher's
   later layers, the teacher's reads;
2. every layer, on the teacher's reads and the crops' labels together.

The teacher's reads (its probabilities, at temperature 1) carry what its seven stages
learnt on hard and blurred tables; matched at temperature 1, the student's confidences stay
calibrated as the detector's thresholds expect. The labels keep the student from copying the
teacher's mistakes where the crop says otherwise. Resumable: a checkpoint every
``CHECKPOINT_STEPS`` steps.

    python -m companion.vision.training.distil --teacher models/card_corners.onnx \\
        --train cache/kd/refr.npz ... --val cache/kd/hard_val.npz --out cache/student.onnx
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from companion.vision.training.net import CornerNet
from companion.vision.training.onnx_init import net_of
from companion.vision.training.patches import NO_INDEX
from companion.vision.training.train import augment, evaluate, export, load

__all__ = ["distil_loss", "student_of", "main"]

CHECKPOINT_STEPS = 500
# The labels' share of the loss (the teacher's reads have the rest).
LABEL_SHARE = 0.3


def student_of(teacher: CornerNet) -> CornerNet:
    """A patch-stem net of the teacher's width holding a copy of its layers after the front,
    and its heads."""
    student = CornerNet(width=teacher.width, patch=True)
    later = list(teacher.features)[teacher.front :]
    for mine, theirs in zip(list(student.features)[student.front :], later, strict=True):
        mine.load_state_dict(theirs.state_dict())
    student.rank.load_state_dict(teacher.rank.state_dict())
    student.suit.load_state_dict(teacher.suit.state_dict())
    return student


def distil_loss(
    student: tuple[torch.Tensor, torch.Tensor],
    teacher: tuple[torch.Tensor, torch.Tensor],
    ranks: torch.Tensor,
    suits: torch.Tensor,
) -> torch.Tensor:
    """The teacher's reads (Kullback-Leibler, rank over every crop, suit over the index
    crops) and the labels (cross-entropy), ``LABEL_SHARE`` to the labels."""
    (rank_s, suit_s), (rank_t, suit_t) = student, teacher
    index = ranks != NO_INDEX
    kd = F.kl_div(F.log_softmax(rank_s, 1), F.softmax(rank_t, 1), reduction="batchmean")
    if index.any():
        kd = kd + F.kl_div(
            F.log_softmax(suit_s[index], 1), F.softmax(suit_t[index], 1), reduction="batchmean"
        )
    labels = F.cross_entropy(rank_s, ranks, label_smoothing=0.05) + F.cross_entropy(
        suit_s, suits, ignore_index=-1
    )
    return (1.0 - LABEL_SHARE) * kd + LABEL_SHARE * labels


def _freeze_loaded_norms(student: CornerNet) -> None:
    """The norms after the front hold the teacher's folded biases: batch statistics would
    undo the fold (``onnx_init``)."""
    for layer in list(student.features)[student.front :]:
        for norm in layer.modules():
            if isinstance(norm, nn.BatchNorm2d):
                norm.eval()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teacher", type=Path, required=True, help="the int8 corner model")
    parser.add_argument("--train", type=Path, nargs="+", required=True)
    parser.add_argument("--val", type=Path, nargs="*", default=[])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--checkpoint", type=Path, default=Path("cache/student_ckpt.pt"))
    parser.add_argument(
        "--student",
        type=Path,
        default=None,
        help="start the student from this checkpoint's weights (a further run; --front-steps 0 "
        "skips the first phase)",
    )
    parser.add_argument("--front-steps", type=int, default=3000)
    parser.add_argument("--steps", type=int, default=12000, help="both phases together")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--max-lr", type=float, default=2e-3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not 0 <= args.front_steps < args.steps:
        parser.error(f"--front-steps must lie from 0 to below --steps: got {args.front_steps}")

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    crops, ranks, suits = load(args.train)
    val = load(args.val) if args.val else None
    print(f"{len(crops)} training crops ({int((ranks != NO_INDEX).sum())} indices)", flush=True)

    teacher = net_of(args.teacher)
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    student = student_of(teacher)
    if args.student is not None:
        student.load_state_dict(torch.load(args.student, weights_only=False)["net"])
        print(f"student from {args.student}", flush=True)
    front = [p for layer in list(student.features)[: student.front] for p in layer.parameters()]
    phases = [
        (torch.optim.AdamW(front, lr=args.max_lr, weight_decay=1e-4), args.front_steps),
        (
            torch.optim.AdamW(student.parameters(), lr=args.max_lr / 4, weight_decay=1e-4),
            args.steps - args.front_steps,
        ),
    ]
    scheds = [
        torch.optim.lr_scheduler.OneCycleLR(
            opt, max_lr=opt.param_groups[0]["lr"], total_steps=max(n, 1), pct_start=0.1
        )
        for opt, n in phases
    ]
    step, elapsed, history = 0, 0.0, []
    if args.checkpoint.exists():
        state = torch.load(args.checkpoint, weights_only=False)
        student.load_state_dict(state["net"])
        for (opt, _), sched, o, s in zip(
            phases, scheds, state["opts"], state["scheds"], strict=True
        ):
            opt.load_state_dict(o)
            sched.load_state_dict(s)
        step, elapsed, history = state["step"], state["elapsed"], state["history"]
        print(f"resumed at step {step} ({elapsed / 60:.1f} min so far)", flush=True)

    total, start = 0.0, time.time()
    while step < args.steps:
        phase = 0 if step < args.front_steps else 1
        opt, sched = phases[phase][0], scheds[phase]
        student.train()
        _freeze_loaded_norms(student)
        idx = torch.randint(len(crops), (args.batch,), generator=gen)
        x = augment(crops[idx].float(), gen)
        with torch.no_grad():
            features = teacher.front_features(x)
            taught = teacher.read_front(features)
        mine = student.front_features(x)
        loss = distil_loss(student.read_front(mine), taught, ranks[idx], suits[idx])
        if phase == 0:
            loss = loss + F.mse_loss(mine, features) / features.var()
        opt.zero_grad()
        torch.autograd.backward(loss)
        opt.step()
        sched.step()
        step += 1
        total += loss.item()
        if step % 100 == 0:
            took = time.time() - start
            print(
                f"step {step}/{args.steps} phase {phase + 1} loss {total / 100:.4f} "
                f"({took * 10:.0f} ms/step)",
                flush=True,
            )
            elapsed, total, start = elapsed + took, 0.0, time.time()
        if step % CHECKPOINT_STEPS == 0 or step == args.steps:
            scores = evaluate(student, *val) if val else {}
            history.append({"step": step, **scores})
            print(f"step {step}: {elapsed / 60:.1f} min, {history[-1]}", flush=True)
            args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
            torch.save(
                {
                    "net": student.state_dict(),
                    "opts": [opt.state_dict() for opt, _ in phases],
                    "scheds": [s.state_dict() for s in scheds],
                    "step": step,
                    "elapsed": elapsed,
                    "history": history,
                },
                args.checkpoint,
            )
            start = time.time()
    export(
        student,
        args.out,
        {
            "distilled_from": args.teacher.name,
            "steps": step,
            "minutes": round(elapsed / 60, 1),
            "train_crops": len(crops),
            "history": history[-1:],
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
