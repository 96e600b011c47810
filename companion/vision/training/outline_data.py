"""Training frames for the outline model: rendered scenes shrunk to the model's input size,
each with its target, the card faces in view, cut apart where one card lies on another.

    python -m companion.vision.training.outline_data --out cache/outlines_train.npz \
        --scenes 2400 --seed 61

Half the scenes are tables with the real tables' hard cases (``scenes.Hard``: touching river
cards, light wood, glare, steep views, stray cards), a quarter plain tables and a quarter loose
cards; the held-out deck and background are never drawn (``--held-out`` draws only those, for
validation). ``--board P`` lays that share of the hard tables on a pale, nearly plain board.
``--backs DIR`` lays face-down cards too (``scenes.FaceDown``, art backs from ``DIR``; held out
with ``--held-out``) in all but a share of the scenes, and saves beside each frame the back
finder's target (``back_target``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.vision.proposals.outlines import shrunk
from companion.vision.training.back_art import BackStore
from companion.vision.training.patches import corner_frame
from companion.vision.training.scenes import (
    BACKGROUND_FAMILIES,
    HELD_OUT_BACKGROUND,
    DeckStore,
    FaceDown,
    Hard,
    PlacedCard,
    Scene,
    make_scene,
)

__all__ = ["back_target", "index_corners", "outline_target", "read_frames", "write_frames"]

BARE = 0.15  # the share of scenes rendered without ``FaceDown`` in a set with backs


def back_target(scene: Scene, shape: tuple[int, int], scale: float) -> np.ndarray:
    """1 where a face-down card is in view, 0 elsewhere (uint8, ``shape``), the scene's quads
    scaled by ``scale``: its backs, then its face-up cards over them. Backs that touch or
    overlap make one piece (a face-down hand is one piece)."""
    mask = np.zeros(shape, np.uint8)
    for quad, value in [(q, 1) for q in scene.backs] + [(c.quad, 0) for c in scene.cards]:
        points = np.round(quad * scale * 16).astype(np.int32)  # 4 fractional bits
        cv2.fillConvexPoly(mask, points, value, lineType=cv2.LINE_8, shift=4)
    return mask


def outline_target(cards: list[PlacedCard], shape: tuple[int, int], scale: float) -> np.ndarray:
    """1 where a card face is in view, 0 elsewhere (uint8, ``shape``), for ``cards`` in the
    order they were laid (later on top), their quads scaled by ``scale``.

    Where a card lies on an earlier one the earlier card loses a pixel along the seam, so that
    cards laid touching come out as separate pieces, each with its own corners; a card keeps
    its full extent against the table."""
    ids = np.zeros(shape, np.int32)
    for k, card in enumerate(cards, start=1):
        quad = np.round(card.quad * scale * 16).astype(np.int32)  # 4 fractional bits
        cv2.fillConvexPoly(ids, quad, k, lineType=cv2.LINE_8, shift=4)
    # A pixel is on a seam when a neighbour shows a later card: the 3x3 maximum of the ids.
    later = cv2.dilate(ids.astype(np.float32), np.ones((3, 3), np.uint8)) > ids
    return ((ids > 0) & ~later).astype(np.uint8)


def index_corners(cards: list[PlacedCard], scale: float) -> np.ndarray:
    """(N,5) float32: each index corner in view (a card's TL and BR), its point, the unit
    vector along the card's top (or bottom) edge away from it, and the length of that edge,
    all in the frame scaled by ``scale``.

    The width is the corner's own edge, not the top edge for both: seen steeply, a card's
    far edge is up to a third shorter than its near one, and only the near one shows at the
    corner (the spot model learns the width from what it sees there)."""
    rows = []
    for card in cards:
        quad = card.quad * scale
        for corner, shown in zip((0, 2), card.visible, strict=True):
            if shown:
                p, u, _, _ = corner_frame(quad, corner)
                width = float(np.linalg.norm(quad[corner + 1] - quad[corner]))
                rows.append((p[0], p[1], u[0], u[1], width))
    return np.asarray(rows, np.float32).reshape(-1, 5)


def read_frames(path: Path, beside: str = "target") -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The frames ``write_frames`` wrote to ``path``, in the order written, and beside each its
    ``beside`` array: its ``target`` (the outline model's) or its index ``corners``."""
    data = np.load(path)
    count = sum(1 for key in data.files if key.startswith("image_"))
    return [data[f"image_{k}"] for k in range(count)], [data[f"{beside}_{k}"] for k in range(count)]


def write_frames(
    out: Path,
    scenes: int,
    seed: int,
    cards_dir: Path,
    held_out: bool,
    board: float = 0.0,
    backs: Path | None = None,
) -> None:
    """``scenes`` rendered frames and their targets, as ``image_K`` / ``target_K`` arrays;
    ``board``: how often a hard table lies on a pale board (``Hard.light_board``); ``backs``
    (a folder of art backs): face-down cards in all but ``BARE`` of the scenes, and each
    frame's ``back_target`` as ``backs_K``."""
    rng = np.random.default_rng(seed)
    face_down = None
    if backs is not None:
        face_down = FaceDown(BackStore(backs, held_out), np.random.default_rng((seed, 3)))
    store = DeckStore(cards_dir, held_out)
    families = (
        (HELD_OUT_BACKGROUND,)
        if held_out
        else tuple(f for f in BACKGROUND_FAMILIES if f != HELD_OUT_BACKGROUND)
    )
    arrays: dict[str, np.ndarray] = {}
    start = time.monotonic()
    for k in range(scenes):
        kind = k % 4
        scene = make_scene(
            rng,
            store,
            families,
            layout=("table", "table", "table", "loose")[kind],
            hard=Hard(light_board=board) if kind < 2 else None,
            face_down=None if face_down is None or face_down.rng.random() < BARE else face_down,
        )
        image, f = shrunk(scene.image)
        arrays[f"image_{k}"] = image
        arrays[f"target_{k}"] = outline_target(scene.cards, image.shape[:2], f)
        arrays[f"corners_{k}"] = index_corners(scene.cards, f)
        if face_down is not None:
            arrays[f"backs_{k}"] = back_target(scene, image.shape[:2], f)
        if (k + 1) % 200 == 0:
            print(f"{k + 1}/{scenes} scenes, {time.monotonic() - start:.0f} s", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    save: Any = np.savez_compressed  # numpy's stubs take ** for its own flag only
    save(out, **arrays)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=int, default=2400)
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument("--cards", type=Path, default=Path("cache/cards"))
    parser.add_argument("--held-out", action="store_true")
    parser.add_argument(
        "--board", type=float, default=0.0, help="share of hard tables on a pale board"
    )
    parser.add_argument(
        "--backs",
        type=Path,
        default=None,
        metavar="DIR",
        help="lay face-down cards (art backs from DIR, e.g. cache/backs) and save the back "
        "finder's targets",
    )
    args = parser.parse_args(argv)
    try:
        write_frames(
            args.out, args.scenes, args.seed, args.cards, args.held_out, args.board, args.backs
        )
    except FileNotFoundError as exc:
        print(f"outline_data: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
