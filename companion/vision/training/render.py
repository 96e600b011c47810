"""Render Spit layouts and cribbage shows with known cards, with the project's scene machinery.

The table, card faces, backs and pasting come from ``companion.vision.training.scenes`` (card
art from the cache ``companion.vision.training.art`` builds); this module only decides where
each card lies, following the layouts ``companion.vision.layouts`` reads, and writes labelled
photos:

    python -m companion.vision.training.render --cards cache/cards --out tests/fixtures/images

Only the project's own procedural decks (``proc_*``) are used by default, so the photos can be
committed without third-party card art.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.vision.training import scenes

__all__ = [
    "Placement",
    "Rendered",
    "render_table",
    "render_spit",
    "render_show",
    "FIXTURES",
    "main",
]

CARD_ASPECT = 1.45  # card height / width on the table plane


@dataclass(frozen=True)
class Placement:
    """A card on the table plane: its code (None: face down), centre (pixels) and angle."""

    code: str | None
    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True)
class Rendered:
    """A photo and, for each face-up card, its code and outline (4x2, image pixels)."""

    image: np.ndarray
    cards: tuple[tuple[str, np.ndarray], ...]


def _mild_light(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """A warm or cold light, a little blur and sensor noise: a clear photo, unlike the scene
    generator's training conditions, so that a fixture tests the layout rather than the eyes."""
    cast = rng.uniform([0.85, 0.92, 0.95], [1.05, 1.02, 1.1])
    lit = image.astype(np.float32) * (cast if rng.random() < 0.5 else cast[::-1])
    blurred = np.asarray(cv2.GaussianBlur(lit, (0, 0), rng.uniform(0.4, 0.8)))
    noisy = blurred + rng.normal(0, 2.0, blurred.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def render_table(
    rng: np.random.Generator,
    store: scenes.DeckStore,
    placements: Sequence[Placement],
    card_width: float,
    size: tuple[int, int],
    tilt: float = 0.04,
) -> Rendered:
    """Paste the cards (in order, later ones on top) on a random table seen at a slight angle."""
    w, h = size
    families = tuple(f for f in scenes.BACKGROUND_FAMILIES if f != scenes.HELD_OUT_BACKGROUND)
    canvas = scenes.background(rng, families[rng.integers(len(families))], h, w)
    deck = store.decks[rng.integers(len(store.decks))]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = rng.uniform(-1, 1, (4, 2)) * [w, h] * tilt
    homography = cv2.getPerspectiveTransform(src, (src + jitter).astype(np.float32))
    bw = int(card_width)
    back = scenes._card_back(rng, bw, int(bw * CARD_ASPECT))
    cards: list[tuple[str, np.ndarray]] = []
    for place in placements:
        face = back if place.code is None else store.face(deck, place.code)
        centre = np.array([place.x, place.y])
        matrix = homography @ scenes._placement_matrix(face.shape, card_width, centre, place.angle)
        # A soft shadow under each card, as the scene generator draws one.
        quad = cv2.perspectiveTransform(scenes._face_corners(face.shape)[None], matrix)[0]
        mask = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(mask, (quad + card_width * 0.02).astype(np.int32), 1.0)
        k = int(max(3, card_width * 0.08)) | 1
        mask = cv2.GaussianBlur(mask, (k, k), 0) * 0.35
        canvas[:] = (canvas * (1 - mask[..., None])).astype(np.uint8)
        scenes._paste(canvas, face, matrix)
        if place.code is not None:
            cards.append((place.code, quad.astype(np.float64)))
    return Rendered(_mild_light(rng, canvas), tuple(cards))


def _turned(placements: Sequence[Placement], size: tuple[int, int], turn: float) -> list[Placement]:
    """The whole layout turned by ``turn`` radians about the middle of the photo."""
    cx, cy = size[0] / 2, size[1] / 2
    c, s = np.cos(turn), np.sin(turn)
    return [
        Placement(
            p.code,
            cx + c * (p.x - cx) - s * (p.y - cy),
            cy + s * (p.x - cx) + c * (p.y - cy),
            p.angle + turn,
        )
        for p in placements
    ]


def _pile(
    rng: np.random.Generator, code: str, x: float, y: float, s: float, under: int, flip: bool
) -> list[Placement]:
    """A pile: ``under`` face-down cards slightly askew, the face-up ``code`` on top."""
    base = np.pi if flip else 0.0
    cards = [
        Placement(
            None,
            x + rng.normal(0, 0.02) * s,
            y + rng.normal(0, 0.02) * s,
            base + rng.normal(0, 0.03),
        )
        for _ in range(under)
    ]
    return [*cards, Placement(code, x, y, base + rng.normal(0, 0.03))]


def render_spit(
    rng: np.random.Generator,
    store: scenes.DeckStore,
    piles: tuple[str, str],
    p1: Sequence[str | None],
    p2: Sequence[str | None],
    size: tuple[int, int] = (1024, 768),
    turn: float = 0.0,
) -> Rendered:
    """Player 2's stocks on top (turned to face them), the spit piles in the middle, player 1's
    stocks at the bottom; ``None`` leaves an empty stock space; ``turn`` turns the layout."""
    w, h = size
    s = min(w / 7.2, h / 7.6)
    pitch = 1.3 * s
    rows = (h / 2 - 2.45 * s, h / 2, h / 2 + 2.45 * s)
    placements: list[Placement] = []
    for row_y, stocks, flip in ((rows[0], p2, True), (rows[2], p1, False)):
        for k, code in enumerate(stocks):
            if code is not None:
                x = w / 2 + (k - 2) * pitch
                placements += _pile(rng, code, x, row_y, s, int(rng.integers(0, 3)), flip)
    # Each player's face-down spit cards beside the centre piles, as they are laid in play.
    placements.append(Placement(None, w / 2 - 2.6 * pitch, rows[1], np.pi + rng.normal(0, 0.1)))
    placements.append(Placement(None, w / 2 + 2.6 * pitch, rows[1], rng.normal(0, 0.1)))
    for k, code in enumerate(piles):
        placements += _pile(rng, code, w / 2 + (k - 0.5) * 1.5 * pitch, rows[1], s, 0, False)
    return render_table(rng, store, _turned(placements, size, turn), s, size)


def render_show(
    rng: np.random.Generator,
    store: scenes.DeckStore,
    hand: Sequence[str],
    starter: str,
    size: tuple[int, int] = (1024, 768),
    turn: float = 0.0,
) -> Rendered:
    """The four hand cards in a row near the bottom, the starter on the deck above them."""
    w, h = size
    s = min(w / 6.5, h / 5.0)
    pitch = 1.25 * s
    row_y, deck_y = h / 2 + 1.0 * s, h / 2 - 1.2 * s
    placements = [
        Placement(code, w / 2 + (k - 1.5) * pitch, row_y, rng.normal(0, 0.04))
        for k, code in enumerate(hand)
    ]
    placements += _pile(rng, starter, w / 2 + rng.normal(0, 0.2) * s, deck_y, s, 3, False)
    return render_table(rng, store, _turned(placements, size, turn), s, size)


# The committed fixtures: positions chosen for what they test, not at random.
FIXTURES: tuple[dict[str, Any], ...] = (
    {
        # Plays on both sides, an empty stock space for player 1.
        "image": "spit_layout_01.jpg",
        "kind": "spit",
        "piles": ["7h", "Kc"],
        "p1": ["8d", "2s", None, "Ac", "9c"],
        "p2": ["Qh", "5c", "Td", "6s", "3h"],
    },
    {
        # Nothing goes on 9s or 4d: both must spit.
        "image": "spit_layout_02.jpg",
        "kind": "spit",
        "piles": ["9s", "4d"],
        "p1": ["Kh", "Jc", "6c", "2d", "Qs"],
        "p2": ["7d", "Ad", "Jh", "Kd", "Qc"],
        "turn": 0.07,
    },
    {
        # The camera turned by 17 degrees; player 2 has emptied a stock space.
        "image": "spit_layout_03.jpg",
        "kind": "spit",
        "piles": ["Ts", "2h"],
        "p1": ["9d", "4s", "8c", "Ah", "6d"],
        "p2": ["3c", None, "Kd", "7s", "5h"],
        "turn": 0.3,
    },
    {
        # The rules' example: 16 (fifteens 8, pair 2, runs 6).
        "image": "crib_show_01.jpg",
        "kind": "show",
        "hand": ["4c", "5d", "6h", "Kc"],
        "starter": "5s",
        "total": 16,
    },
    {
        # The best hand there is: 29 (three fives and nobs with the fourth five turned).
        "image": "crib_show_02.jpg",
        "kind": "show",
        "hand": ["5h", "Js", "5c", "5d"],
        "starter": "5s",
        "total": 29,
        "turn": -0.09,
    },
)


def write_fixtures(
    out: Path, cards: Path, seed: int, decks: tuple[str, ...], quality: int
) -> list[dict[str, Any]]:
    """Render every entry of ``FIXTURES`` into ``out`` and write ``photo_labels.json``."""
    rng = np.random.default_rng(seed)
    store = scenes.DeckStore(cards, held_out=False, only=decks)
    out.mkdir(parents=True, exist_ok=True)
    labels = []
    for entry in FIXTURES:
        if entry["kind"] == "spit":
            rendered = render_spit(
                rng,
                store,
                tuple(entry["piles"]),
                entry["p1"],
                entry["p2"],
                turn=entry.get("turn", 0.0),
            )
        else:
            rendered = render_show(
                rng, store, entry["hand"], entry["starter"], turn=entry.get("turn", 0.0)
            )
        cv2.imwrite(str(out / entry["image"]), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        labels.append({**entry, "source": "companion.vision.training.render"})
    (out / "photo_labels.json").write_text(json.dumps(labels, indent=1) + "\n")
    return labels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="render labelled Spit and cribbage photos")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--cards", type=Path, default=Path("cache/cards"))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--decks", nargs="*", default=["proc_"], help="deck name prefixes")
    parser.add_argument("--quality", type=int, default=85, help="JPEG quality")
    args = parser.parse_args(argv)
    for label in write_fixtures(args.out, args.cards, args.seed, tuple(args.decks), args.quality):
        print(f"{args.out / label['image']}: {label['kind']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
