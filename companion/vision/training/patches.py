"""Corner crops cut from synthetic scenes: the classifier's training and validation sets.

Crops are taken with the same ``crop_corner`` the detector uses, around the true corner frames
jittered by the error of the corner finder (origin, angle, scale). Index corners (top-left and
bottom-right) that stay visible carry the card's rank and suit; the other two corners, covered
index corners and random spots on the table are the "no index" class.

    python -m companion.vision.training.patches --out cache/patches_train.npz --scenes 1200
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.vision.base.geometry import CORNER, CROP_H, CROP_W, FACE, Extent, crop_corner
from companion.vision.training.scenes import (
    BACKGROUND_FAMILIES,
    HELD_OUT_BACKGROUND,
    DeckStore,
    Hard,
    Scene,
    make_scene,
)
from companion.vision.training.views import (
    motion_argument,
    smeared,
    webcam,
    webcam_argument,
)

RANKS = "23456789TJQKA"
SUITS = "shdc"
NO_INDEX = len(RANKS)  # rank class 13: not an index
# A scene's seed, held-out split?, cards folder, hard cases?, the longest motion blur (a share
# of the long side; 0: none), the shortest webcam frame's long side (0: none) and the card
# widths (frame pixels, least and most) whose crops are kept.
Job = tuple[int, bool, str, bool, float, int, tuple[float, float]]
ALL_WIDTHS = (0.0, float("inf"))


def widths_argument(text: str) -> tuple[float, float]:
    """Card widths in frame pixels as an argparse ``type``: ``LEAST,MOST``, 0 <= LEAST < MOST."""
    try:
        lo, hi = (float(part) for part in text.split(","))
    except ValueError:
        lo, hi = -1.0, -1.0
    if not 0 <= lo < hi:
        raise argparse.ArgumentTypeError(
            f"--widths takes the least and the most card width in pixels, e.g. 18,66: got {text!r}"
        )
    return lo, hi


def corner_frame(quad: np.ndarray, corner: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Origin, u, v, width of corner ``corner`` (0..3 = TL, TR, BR, BL) of a clockwise quad."""
    p = quad[corner]
    nxt, prv = quad[(corner + 1) % 4], quad[(corner - 1) % 4]
    u = (nxt - p) / np.linalg.norm(nxt - p)
    v = (prv - p) / np.linalg.norm(prv - p)
    edge = quad[1] - quad[0] if corner % 2 == 0 else quad[2] - quad[1]
    width = np.linalg.norm(edge)
    return p, u, v, float(width)


def _rotate(vec: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * vec[0] - s * vec[1], s * vec[0] + c * vec[1]])


def _jittered_crop(
    rng: np.random.Generator,
    image: np.ndarray,
    p: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    s: float,
    extent: Extent = CORNER,
) -> np.ndarray:
    angle = rng.normal(0, 0.07)
    s2 = s * float(np.exp(rng.normal(0, 0.12)))
    # The corner finder lands slightly inside the card, so the jitter is centred inwards.
    p2 = p + (rng.normal(0.02, 0.045) * u + rng.normal(0.01, 0.03) * v) * s
    return crop_corner(
        image, p2, _rotate(u, angle), _rotate(v, angle + rng.normal(0, 0.03)), s2, extent
    )


def _crop_set(
    crops: list[np.ndarray], ranks: list[int], suits: list[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One scene's crops and labels as arrays (a scene may give none)."""
    if not crops:
        return (
            np.zeros((0, CROP_H, CROP_W, 3), np.uint8),
            np.zeros(0, np.int8),
            np.zeros(0, np.int8),
        )
    return np.array(crops, np.uint8), np.array(ranks, np.int8), np.array(suits, np.int8)


def _scene(args: Job) -> tuple[np.random.Generator, Scene]:
    """The random scene of one job (``Job``). A motion blur and a webcam are drawn from
    generators of their own, so the scenes are the same as without them."""
    seed, held_out, cards_dir, hard, motion, side, _ = args
    rng = np.random.default_rng(seed)
    store = DeckStore(Path(cards_dir), held_out)
    families = (
        (HELD_OUT_BACKGROUND,)
        if held_out
        else tuple(f for f in BACKGROUND_FAMILIES if f != HELD_OUT_BACKGROUND)
    )
    scene = make_scene(rng, store, families, hard=Hard() if hard else None)
    if motion > 0:
        shake = np.random.default_rng((seed, 1))
        length = motion * shake.uniform(0.25, 1.0)
        scene = replace(scene, image=smeared(scene.image, length, shake.uniform(0.0, 180.0)))
    if side > 0:
        scene = _through_webcam(scene, side, np.random.default_rng((seed, 2)))
    return rng, scene


def _through_webcam(scene: Scene, side: int, draw: np.random.Generator) -> Scene:
    """``scene`` as a webcam streams it, its long side drawn from ``side`` to its own (a frame
    that small is never enlarged), with a soft lens, sensor noise and JPEG drawn around the
    ``views.webcam`` defaults; its cards' corners scaled with it."""
    own = max(scene.image.shape[:2])
    long_side = int(draw.integers(min(side, own), own + 1))
    image = webcam(
        scene.image,
        long_side,
        seed=int(draw.integers(2**31)),
        soften=float(draw.uniform(0.5, 1.2)),
        noise=float(draw.uniform(1.0, 5.0)),
        quality=int(draw.integers(45, 90)),
    )
    # The frame's pixels are whole: the scale each way is its size over the scene's.
    (h, w), (sh, sw) = image.shape[:2], scene.image.shape[:2]
    scale = np.array([w / sw, h / sh])
    return replace(
        scene,
        image=image,
        cards=[replace(card, quad=card.quad * scale) for card in scene.cards],
        backs=[quad * scale for quad in scene.backs],
    )


def scene_patches(args: Job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng, scene = _scene(args)
    lo, hi = args[6]
    crops, ranks, suits = [], [], []
    for card in scene.cards:
        if np.linalg.norm(card.quad[1] - card.quad[0]) < 25:
            continue
        for corner in range(4):
            p, u, v, s = corner_frame(card.quad, corner)
            if not lo <= s <= hi:
                continue
            if corner in (0, 2):
                if not card.visible[corner // 2]:
                    continue
                rank, suit = RANKS.index(card.code[0]), SUITS.index(card.code[1])
            else:
                rank, suit = NO_INDEX, -1
            for _ in range(2):
                crops.append(_jittered_crop(rng, scene.image, p, u, v, s))
                ranks.append(rank)
                suits.append(suit)
    h, w = scene.image.shape[:2]
    s_typ = float(np.median([np.linalg.norm(c.quad[1] - c.quad[0]) for c in scene.cards]))
    for _ in range(8):  # random spots: table, chips, card backs, card middles
        p = rng.uniform([0, 0], [w, h])
        u = _rotate(np.array([1.0, 0.0]), rng.uniform(0, 2 * np.pi))
        s = s_typ * rng.uniform(0.7, 1.4)
        if not lo <= s <= hi:
            continue
        crops.append(crop_corner(scene.image, p, u, _rotate(u, np.pi / 2), s))
        ranks.append(NO_INDEX)
        suits.append(-1)
    return _crop_set(crops, ranks, suits)


def face_patches(args: Job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Whole-card crops (``geometry.FACE``) seen from each index corner in view, jittered like
    the corner finder's frames, for the face reader. A hand's lower card is included: its
    face is mostly covered, and the reader must learn to fall back on the index."""
    rng, scene = _scene(args)
    lo, hi = args[6]
    crops, ranks, suits = [], [], []
    for card in scene.cards:
        if np.linalg.norm(card.quad[1] - card.quad[0]) < 25:
            continue
        for corner in (0, 2):
            if not card.visible[corner // 2]:
                continue
            p, u, v, s = corner_frame(card.quad, corner)
            if not lo <= s <= hi:
                continue
            for _ in range(2):
                crops.append(_jittered_crop(rng, scene.image, p, u, v, s, FACE))
                ranks.append(RANKS.index(card.code[0]))
                suits.append(SUITS.index(card.code[1]))
    return _crop_set(crops, ranks, suits)


def proposal_patches(args: Job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops at the detector's own corner proposals, labelled by matching the true corners.

    This gives the classifier exactly the framing errors and the non-card corners (chips, card
    backs, unions of overlapping cards) it meets at run time.
    """
    return _matched_patches(args, reframe=False)


def reframed_patches(args: Job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Like ``proposal_patches``, plus the nearby frames the detector tries on doubtful reads.

    Those frames are turned, shifted and rescaled, and land on table texture, card backs and
    card middles more often than the proposals: the hard negatives of the re-framing step.
    """
    return _matched_patches(args, reframe=True)


def _matched_patches(args: Job, reframe: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from companion.vision.corner_reads.reframe import reframes
    from companion.vision.proposals.levels import propose_corners

    rng, scene = _scene(args)
    proposals, _ = propose_corners(scene.image)
    if reframe:
        # An index read 8 or more degrees off is taught neither way. The run-time turns are
        # 6, 11 and 17 degrees; this build's re-framed crops were cut with the first two, and
        # before the foreshortened frames existed (whose labels the matching below would not
        # know: it compares corners and widths only).
        proposals = proposals + [f for q in proposals for f in reframes(q, foreshortened=False)]
    truth = []  # (p, u, s, label or None for "ambiguous", is_index)
    for card in scene.cards:
        for corner in range(4):
            p, u, _, s = corner_frame(card.quad, corner)
            index = corner in (0, 2) and card.visible[corner // 2]
            truth.append((p, u, s, card.code if index else None))
    lo, hi = args[6]
    pos, neg = [], []
    for q in proposals:
        if not lo <= q.s <= hi:
            continue
        label: str | None = "-"
        for p, u, s, code in truth:
            if np.linalg.norm(q.p - p) < 0.15 * s and float(q.u @ u) > 0.95:
                ratio = q.s / s
                if code is None:
                    label = "-"
                elif (
                    0.75 < ratio < 1.33
                    and np.linalg.norm(q.p - p) < 0.1 * s
                    and float(q.u @ u) > (0.99 if reframe else 0.95)
                ):
                    label = code
                else:
                    label = None  # an index read at a doubtful frame: teach neither way
                break
        if label is None:
            continue
        crop = crop_corner(scene.image, q.p, q.u, q.v, q.s)
        if label == "-":
            neg.append(crop)
        else:
            pos.append((crop, RANKS.index(label[0]), SUITS.index(label[1])))
    rng.shuffle(neg)
    neg = neg[: max(8, 2 * len(pos))]
    crops = [c for c, _, _ in pos] + neg
    ranks = [r for _, r, _ in pos] + [NO_INDEX] * len(neg)
    suits = [s for _, _, s in pos] + [-1] * len(neg)
    return _crop_set(crops, ranks, suits)


def build(
    out: Path,
    scenes: int,
    held_out: bool,
    seed: int,
    cards_dir: Path,
    workers: int,
    source: str = "truth",
    hard: bool = False,
    motion: float = 0.0,
    webcam_side: int = 0,
    widths: tuple[float, float] = ALL_WIDTHS,
) -> None:
    jobs = [
        (seed * 100_003 + i, held_out, str(cards_dir), hard, motion, webcam_side, widths)
        for i in range(scenes)
    ]
    work = {"proposals": proposal_patches, "reframed": reframed_patches, "faces": face_patches}.get(
        source, scene_patches
    )
    crops, ranks, suits = [], [], []
    with multiprocessing.Pool(workers) as pool:
        for i, (c, r, s) in enumerate(pool.imap_unordered(work, jobs, chunksize=4)):
            crops.append(c)
            ranks.append(r)
            suits.append(s)
            if (i + 1) % 100 == 0:
                print(f"{i + 1}/{scenes} scenes, {sum(len(x) for x in ranks)} crops", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        out, crops=np.concatenate(crops), ranks=np.concatenate(ranks), suits=np.concatenate(suits)
    )
    print(f"wrote {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="cut corner crops from synthetic scenes")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--held-out", action="store_true")
    parser.add_argument("--cards", type=Path, default=Path("cache/cards"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--source",
        default="truth",
        choices=("truth", "proposals", "reframed", "faces"),
        help="crop at jittered true corners, at the detector's proposals, or at "
        "the proposals and their re-framings; or whole cards (the face reader)",
    )
    parser.add_argument(
        "--hard",
        action="store_true",
        help="tables with the real tables' hard cases (scenes --hard): touching river cards, "
        "light wood, steep views, stray cards, two decks, glare",
    )
    parser.add_argument(
        "--motion",
        type=motion_argument,
        default=0.0,
        help="smear each scene by a motion blur of up to this share of its long side (a "
        "quarter of it to all of it, along a random direction), e.g. 0.01",
    )
    parser.add_argument(
        "--webcam",
        type=webcam_argument,
        default=0,
        help="stream each scene as a webcam would, its long side drawn from this many pixels "
        "to its own (shrunk, softened, noisy, JPEG), e.g. 640",
    )
    parser.add_argument(
        "--widths",
        type=widths_argument,
        default=ALL_WIDTHS,
        help="keep only the crops of cards this wide in the frame, in pixels: LEAST,MOST, "
        "e.g. 18,66 (with --webcam 400: small cards only; models/MODEL_CARD.md, "
        "'A small-card model')",
    )
    args = parser.parse_args(argv)
    build(
        args.out,
        args.scenes,
        args.held_out,
        args.seed,
        args.cards,
        args.workers,
        args.source,
        args.hard,
        args.motion,
        args.webcam,
        args.widths,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
