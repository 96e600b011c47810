"""Synthetic table scenes with exact labels: the project's only source of training data.

A scene is a table texture with a river of five cards, two-card hands whose cards overlap like
real revealed hands, single cards, face-down cards and chips, seen under a random perspective,
light colour, glare, shadow, blur, noise and JPEG. Every card keeps its four corners in image
pixels and which of its index corners (top-left, bottom-right) stay visible. ``--backs`` lays
face-down hands (pairs and single backs of many designs, ``back_art``) at free hand places
and face-down cards among loose ones, and labels every back's outline and each face-down hand.

    python -m companion.vision.training.scenes --out cache/heldout --count 200 --held-out
    python -m companion.vision.training.scenes --out cache/hard --count 100 --hard
    python -m companion.vision.training.scenes --out cache/backs --count 100 --backs
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.vision.backs import card_points
from companion.vision.training.art import HELD_OUT_DECK
from companion.vision.training.back_art import BackStore
from companion.vision.training.views import in_light, light_argument, motion_argument, smeared

BACKGROUND_FAMILIES = ("wood", "felt", "cloth", "plain", "stone")
HELD_OUT_BACKGROUND = "stone"
# An index corner counts as visible when this much of it is in view (11 of its 12 sample
# points); a card whose best corner shows between PARTLY and VISIBLE of its index may or may
# not be readable, and the labels list it apart so that neither reading it nor missing it counts.
VISIBLE = 0.9
PARTLY = 0.5


@dataclass
class PlacedCard:
    code: str
    quad: np.ndarray  # 4x2 float: TL, TR, BR, BL in image pixels
    shown: tuple[float, float] = (1.0, 1.0)  # fraction of the TL, BR index corners in view

    @property
    def visible(self) -> tuple[bool, bool]:
        """Whether each index corner (TL, BR) counts as in view."""
        return (self.shown[0] > VISIBLE, self.shown[1] > VISIBLE)


@dataclass
class Scene:
    image: np.ndarray
    cards: list[PlacedCard]
    river: list[str]
    hands: list[list[str]]
    # Quads (4x2, image pixels, TL TR BR BL) of the face-down cards in the order laid (all
    # under the face-up cards); ``backs_shown`` the share of each in view.
    backs: list[np.ndarray] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)  # cards off the table, at the frame's edge
    decks: int = 1
    cases: tuple[str, ...] = ()  # the ``Hard`` cases drawn
    printed: bool = False  # a casino layout printed on the felt (``make_scene``'s felt_print)
    backs_shown: list[float] = field(default_factory=list)
    # The face-down hands (``FaceDown``): each the indices of its cards in ``backs``.
    face_down: list[list[int]] = field(default_factory=list)


@dataclass
class FaceDown:
    """Face-down cards to lay in a scene, drawn from ``rng`` alone (so the face-up cards, the
    table and the light are those of the same scene without them): a table gets 0-2 face-down
    hands at hand places no face-up hand holds (a pair overlapping as revealed hands do, a
    pair squared, or one card), loose cards 0-3 backs or pairs among them; the scene's own
    stray face-down cards take its design. Every back lies under the face-up cards."""

    store: BackStore
    rng: np.random.Generator


@dataclass(frozen=True)
class Hard:
    """The real tables' hard cases, each drawn with its own probability in a table scene:
    river cards laid touching, a light wooden table, a steep (seated) view, a stray card cut
    by the frame's edge, a second deck (one card twice), a strong glare; and, off unless
    asked for, a pale board with hardly any grain laid on a darker floor (a light table seen
    whole, as bright as the cards and larger than any). A case asked for with probability 0
    draws no random number, so sets rendered before it existed are rendered the same."""

    touching: float = 0.4
    light_wood: float = 0.3
    oblique: float = 0.4
    stray: float = 0.4
    two_decks: float = 0.3
    glare: float = 0.4
    light_board: float = 0.0


class DeckStore:
    """Card faces loaded lazily from ``cache/cards``."""

    def __init__(self, cards_dir: Path, held_out: bool, only: tuple[str, ...] = ()) -> None:
        decks = sorted(p for p in cards_dir.iterdir() if p.is_dir())
        if only:
            decks = [d for d in decks if d.name.startswith(only)]
        elif held_out:
            decks = [d for d in decks if d.name == HELD_OUT_DECK]
        else:
            decks = [d for d in decks if d.name != HELD_OUT_DECK]
        if not decks:
            raise FileNotFoundError(
                f"no card decks in {cards_dir}; run companion.vision.training.art"
            )
        self.decks = decks
        self._cache: dict[tuple[str, str], np.ndarray] = {}

    def face(self, deck: Path, code: str) -> np.ndarray:
        key = (deck.name, code)
        if key not in self._cache:
            path = deck / f"{code}.png"
            image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if image is None:
                raise FileNotFoundError(f"{path}: no readable card face")
            if image.shape[2] == 3:
                image = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
            self._cache[key] = image
        return self._cache[key]


def _noise_field(rng: np.random.Generator, h: int, w: int, scale: int) -> np.ndarray:
    small = rng.random((max(2, h // scale), max(2, w // scale))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(
    rng: np.random.Generator, family: str, h: int, w: int, light: bool = False
) -> np.ndarray:
    """A table texture; ``light`` draws a pale wood (birch, pine, light oak) as bright as the
    cards' darker parts."""
    if family == "wood":
        low, high = (
            ([150, 185, 205], [205, 225, 245]) if light else ([20, 60, 110], [110, 170, 230])
        )
        base = np.array(rng.uniform(low, high), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(0, np.pi)
        coord = xx * np.cos(angle) + yy * np.sin(angle)
        warp = _noise_field(rng, h, w, 64) * rng.uniform(10, 60)
        grain = np.sin((coord + warp) / rng.uniform(3, 12)) * 0.5 + 0.5
        shade = 0.75 + 0.25 * grain + 0.1 * _noise_field(rng, h, w, 8)
        if rng.random() < 0.4:  # parquet planks
            plank = (
                np.floor(
                    (coord * 0 + yy * np.cos(angle) - xx * np.sin(angle)) / rng.uniform(40, 160)
                )
                % 3
            ) * 0.07
            shade = shade - plank
        img = base[None, None, :] * shade[..., None]
    elif family == "felt":
        base = np.array(rng.uniform([30, 40, 10], [140, 140, 120]), np.float32)
        if rng.random() < 0.5:
            base = base[[1, 0, 2]] if rng.random() < 0.5 else base[[2, 1, 0]]
        shade = 0.85 + 0.15 * _noise_field(rng, h, w, 4) + 0.1 * _noise_field(rng, h, w, 80)
        img = base[None, None, :] * shade[..., None]
    elif family == "cloth":
        base = np.array(rng.uniform(10, 200, 3), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(3, 9)
        weave = (np.sin(xx / period) * np.sin(yy / period)) * 0.08
        folds = _noise_field(rng, h, w, 120) * 0.35
        img = base[None, None, :] * (0.75 + weave + folds)[..., None]
    elif family == "plain":
        base = np.array(rng.uniform(0, 235, 3), np.float32)
        img = base[None, None, :] * (0.9 + 0.1 * _noise_field(rng, h, w, 50))[..., None]
    else:  # stone: blotchy multi-scale noise (held out)
        base = np.array(rng.uniform(40, 200, 3), np.float32)
        shade = 0.6 + 0.25 * _noise_field(rng, h, w, 30) + 0.15 * _noise_field(rng, h, w, 6)
        img = base[None, None, :] * shade[..., None]
    img = img + rng.normal(0, 3, img.shape)
    return np.asarray(np.clip(img, 0, 255).astype(np.uint8))


def _lay_board(canvas: np.ndarray, rng: np.random.Generator, homography: np.ndarray) -> None:
    """A pale, nearly plain board over most of the table plane (``Hard.light_board``)."""
    h, w = canvas.shape[:2]
    x0, y0 = rng.uniform(0.0, 0.2, 2) * [w, h]
    x1, y1 = rng.uniform(0.8, 1.0, 2) * [w, h]
    rect = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32)
    quad = cv2.perspectiveTransform(rect, homography)[0]
    colour = np.array(rng.uniform([165, 195, 210], [225, 238, 250]), np.float32)
    shade = 0.93 + 0.05 * _noise_field(rng, h, w, 40) + 0.02 * _noise_field(rng, h, w, 4)
    board = np.clip(colour[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
    canvas[inside > 0] = board[inside > 0]


# What a casino layout prints on its felt: a real blackjack or baccarat table carries ranks
# and numbers (A K Q J 10, 21, 3 TO 2) that are neither cards nor on card paper.
_FELT_LINES = (
    "BLACKJACK PAYS 3 TO 2",
    "DEALER MUST DRAW TO 16 AND STAND ON ALL 17S",
    "INSURANCE PAYS 2 TO 1",
    "2 TO 1",
    "21",
    "A K Q J 10",
    "PLAYER",
    "BANKER",
    "TIE PAYS 8 TO 1",
)
_FELT_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)


def _print_felt(
    canvas: np.ndarray, ink_rng: np.random.Generator, homography: np.ndarray, card: float
) -> None:
    """A casino layout printed on the table plane under the cards: arcs, payout lines and
    card-sized betting boxes in white or gold, ``card`` the cards' width on that plane."""
    h, w = canvas.shape[:2]
    layer = np.zeros((h, w), np.uint8)
    for _ in range(int(ink_rng.integers(1, 4))):
        centre = (int(ink_rng.uniform(0.2, 0.8) * w), int(ink_rng.uniform(-0.2, 0.4) * h))
        axes = (int(ink_rng.uniform(0.3, 0.7) * w), int(ink_rng.uniform(0.3, 0.8) * h))
        cv2.ellipse(layer, centre, axes, 0, 0, 180, 255, int(ink_rng.integers(2, 6)), cv2.LINE_AA)
    for _ in range(int(ink_rng.integers(2, 6))):
        text = _FELT_LINES[int(ink_rng.integers(len(_FELT_LINES)))]
        # Capitals 0.18-0.5 card widths tall (a Hershey capital is about 22 px at scale 1).
        scale = ink_rng.uniform(0.25, 0.7) * card / 30.0
        origin = (int(ink_rng.uniform(-0.1, 0.7) * w), int(ink_rng.uniform(0.05, 1.0) * h))
        font = _FELT_FONTS[int(ink_rng.integers(len(_FELT_FONTS)))]
        thick = max(1, int(round(scale * 2.5)))
        cv2.putText(layer, text, origin, font, scale, 255, thick, cv2.LINE_AA)
    for _ in range(int(ink_rng.integers(0, 5))):
        centre = (ink_rng.uniform(0.05, 0.95) * w, ink_rng.uniform(0.05, 0.95) * h)
        size = (card * ink_rng.uniform(1.0, 1.3), card * ink_rng.uniform(1.3, 1.7))
        box = cv2.boxPoints((centre, size, ink_rng.uniform(0, 180))).astype(np.int32)
        cv2.polylines(layer, [box], True, 255, int(ink_rng.integers(2, 5)), cv2.LINE_AA)
    seen = cv2.warpPerspective(layer, homography, (w, h)).astype(np.float32)[..., None] / 255.0
    ink = np.array([(230, 235, 235), (70, 190, 225), (90, 215, 245)][int(ink_rng.integers(3))])
    strength = ink_rng.uniform(0.6, 0.95)  # worn print lets the felt through
    canvas[:] = (canvas * (1 - strength * seen) + ink * strength * seen).astype(np.uint8)


def _paste(canvas: np.ndarray, rgba: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Warp ``rgba`` with the 3x3 ``matrix`` onto ``canvas``; returns the warped alpha mask."""
    h, w = canvas.shape[:2]
    warped = cv2.warpPerspective(
        rgba,
        matrix,
        (w, h),
        flags=cv2.INTER_AREA if np.linalg.det(matrix[:2, :2]) < 1 else cv2.INTER_LINEAR,
    )
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    canvas[:] = (canvas * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)
    return alpha[:, :, 0]


def _card_back(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A face-down card: a faint checker, or the high-contrast lattices and diamonds of real
    decks (light lines on a dark blue or red), any period, inside a white border."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    style = rng.choice(["checker", "lattice", "diamonds"])
    if style == "checker":
        colour = np.array(rng.uniform(20, 200, 3), np.float32)
        pattern = (np.sin((xx + yy) / 3.0) * np.sin((xx - yy) / 3.0) > 0).astype(np.float32)
        img = colour[None, None, :] * (0.7 + 0.3 * pattern[..., None])
    else:
        colour = np.array(rng.uniform(10, 90, 3), np.float32)
        colour[int(rng.choice([0, 2]))] = rng.uniform(110, 200)  # blue or red, dark
        period = max(3.0, w * rng.uniform(0.04, 0.12))
        a, b = (xx + yy) / period, (xx - yy) / period
        if style == "lattice":  # thin light lines along both diagonals
            line = np.minimum(np.abs(a - np.round(a)), np.abs(b - np.round(b)))
            pattern = (line < rng.uniform(0.08, 0.2)).astype(np.float32)
        else:  # light diamonds on the colour
            pattern = (
                np.abs(a - np.round(a)) + np.abs(b - np.round(b)) < rng.uniform(0.3, 0.6)
            ).astype(np.float32)
        light = np.array(rng.uniform(200, 250, 3), np.float32)
        img = colour * (1 - pattern[..., None]) + light * pattern[..., None]
    border = max(2, w // 14)
    img[:border] = img[-border:] = img[:, :border] = img[:, -border:] = 245
    rgba = np.dstack([np.clip(img, 0, 255).astype(np.uint8), np.full((h, w), 255, np.uint8)])
    return rgba


def _chip(canvas: np.ndarray, rng: np.random.Generator, centre: tuple[int, int], r: int) -> None:
    colour = tuple(int(c) for c in rng.uniform(20, 240, 3))
    cv2.circle(canvas, centre, r, colour, -1, cv2.LINE_AA)
    for k in range(8):
        a = k * np.pi / 4
        q = (int(centre[0] + 0.8 * r * np.cos(a)), int(centre[1] + 0.8 * r * np.sin(a)))
        cv2.circle(canvas, q, max(1, r // 7), (245, 245, 245), -1, cv2.LINE_AA)


def _rot(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    cross: np.ndarray = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]  # a scalar for two vectors
    return cross


def _quad_contains(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which of ``points`` (N,2) lie inside the convex ``quad`` (4,2)."""
    inside = np.ones(len(points), bool)
    sign = np.sign(_cross(quad[1] - quad[0], quad[2] - quad[1]))
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        inside &= np.sign(_cross(b - a, points - a)) == sign
    return inside


# Index region in card-width units from the top-left corner, for the visibility test.
_INDEX_SAMPLES = np.array([[x, y] for x in (0.05, 0.12, 0.2) for y in (0.05, 0.15, 0.25, 0.35)])


def _index_points(quad: np.ndarray, corner: int) -> np.ndarray:
    order = [(0, 1, 3), (2, 3, 1)][corner]
    p, a, b = quad[order[0]], quad[order[1]], quad[order[2]]
    u, s = a - p, np.linalg.norm(a - p)
    v = (b - p) / np.linalg.norm(b - p) * s
    return np.asarray(p + _INDEX_SAMPLES[:, :1] * u + _INDEX_SAMPLES[:, 1:] * v)


def make_scene(
    rng: np.random.Generator,
    store: DeckStore,
    families: tuple[str, ...],
    size: tuple[int, int] | None = None,
    layout: str | None = None,
    hard: Hard | None = None,
    hand_cards: int = 2,
    felt_print: np.random.Generator | None = None,
    face_down: FaceDown | None = None,
) -> Scene:
    """One random scene; ``layout`` is ``table`` (river + hands) or ``loose`` (1-4 single cards).
    ``hard`` (tables only) adds the real tables' hard cases; without it no more random numbers
    are drawn than before it existed, so earlier sets are rendered the same. A table's hands
    hold ``hand_cards`` cards each, from the third on laid in a cascade (each a step further
    along the second card's offset, a 4-card variant's hand or a blackjack hand); with 2, no
    more random numbers are drawn than before it existed. ``felt_print`` prints a casino
    layout on a table's felt under its cards (``_print_felt``), drawing only from that
    generator, so the scene is otherwise the same as without it; ``face_down`` lays
    face-down cards (``FaceDown``), drawing only from its own generator too."""
    if size is None:
        size = [(1280, 720), (960, 640), (1024, 768), (720, 960), (1200, 800)][rng.integers(5)]
    w, h = size
    family = families[rng.integers(len(families))]
    cases: set[str] = set()
    if hard is not None:
        layout = "table"
        cases = {name for name, p in vars(hard).items() if p > 0 and rng.random() < p}
        if "light_wood" in cases:
            family = "wood"
    canvas = background(rng, family, h, w, light="light_wood" in cases)
    deck = store.decks[rng.integers(len(store.decks))]
    layout = layout or ("table" if rng.random() < 0.6 else "loose")
    codes = [r + s for r in "23456789TJQKA" for s in "shdc"]
    order = rng.permutation(52)
    draw = [codes[i] for i in order]
    aspect = store.face(deck, "As").shape[0] / store.face(deck, "As").shape[1]

    # Card placements in a flat "table plane" (pixels), perspective applied at the end.
    placements: list[tuple[str, np.ndarray, float]] = []  # code, centre, angle
    river: list[str] = []
    hands: list[list[str]] = []
    free_places: list[np.ndarray] = []  # a table's hand places no face-up hand holds
    if layout == "table":
        s = rng.uniform(0.5, 1.0) * min(w / 9.0, h / 6.5)
        gap = s * (rng.uniform(0.99, 1.03) if "touching" in cases else rng.uniform(1.05, 1.35))
        base_angle = rng.uniform(-0.15, 0.15) + (np.pi if rng.random() < 0.3 else 0)
        centre = np.array([w / 2, h / 2]) + rng.uniform(-0.1, 0.1, 2) * [w, h]
        row = _rot(base_angle) @ np.array([1.0, 0])
        for k in range(5):
            c = centre + (k - 2) * gap * row
            code = draw.pop()
            placements.append((code, c, base_angle + rng.normal(0, 0.04)))
            river.append(code)
        n_hands = int(rng.integers(1, 5))
        spots = [
            centre + _rot(base_angle) @ np.array(o) * s
            for o in [(-3.5, -2.4), (3.5, -2.4), (-3.6, 2.3), (3.6, 2.3), (0, -2.6), (0, 2.6)]
        ]
        places = rng.permutation(len(spots))
        for j in places[:n_hands]:
            c0 = spots[j] + rng.normal(0, 0.25, 2) * s
            a0 = rng.uniform(0, 2 * np.pi)
            offset = _rot(a0) @ np.array([rng.uniform(0.2, 0.55), rng.uniform(-0.25, 0.25)]) * s
            a1 = a0 + rng.normal(0, 0.25)
            hand = [draw.pop() for _ in range(hand_cards)]
            if "two_decks" in cases and len(hands) == 0:
                hand[1] = river[int(rng.integers(5))]  # the same card from the second deck
            if hand_cards > 2:
                offset = offset * 0.7  # a cascade of many cards stays within a hand's spot
            placements.append((hand[0], c0, a0))
            placements.append((hand[1], c0 + offset, a1))
            for k, code in enumerate(hand[2:], start=2):
                placements.append((code, c0 + k * offset, a1 + rng.normal(0, 0.08)))
            hands.append(hand)
        free_places = [spots[j] for j in places[n_hands:]]
        if "stray" in cases:
            # Half off the photo, across one edge (placed in the photo, past the perspective),
            # its inner index corner in view or not.
            side = int(rng.integers(4))
            along = rng.uniform(0.15, 0.85)
            depth = s * rng.uniform(0.05, 0.35)
            edges = ((along * w, depth), (w - depth, along * h), (along * w, h - depth))
            spot = (depth, along * h) if side == 3 else edges[side]
            placements.append((draw.pop(), np.array(spot), rng.uniform(0, 2 * np.pi)))
    else:
        s = rng.uniform(0.06, 0.3) * min(w, h)
        for _ in range(int(rng.integers(1, 4))):
            c = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h])
            placements.append((draw.pop(), c, rng.uniform(0, 2 * np.pi)))

    # Perspective of the whole table plane: a camera tilt and small random corner shifts (a
    # seated player's steep view: the far side shrunk much more).
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = rng.uniform(-1, 1, (4, 2)) * [w, h] * rng.uniform(0, 0.12)
    if "oblique" in cases:
        squeeze = rng.uniform(0.15, 0.3) * w
        far = [0, 1] if rng.random() < 0.5 else [3, 2]
        jitter[far[0]] += [squeeze, 0]
        jitter[far[1]] -= [squeeze, 0]
    homography = cv2.getPerspectiveTransform(src, (src + jitter).astype(np.float32))
    if "light_board" in cases:
        _lay_board(canvas, rng, homography)
    printed = False
    if felt_print is not None and layout == "table":
        _print_felt(canvas, felt_print, homography, s)
        printed = True

    # Distractors under the cards: face-down cards and chips.
    backs: list[np.ndarray] = []
    design = None if face_down is None else face_down.store.design(face_down.rng, aspect)
    for _ in range(int(rng.integers(0, 3))):
        bw = int(max(8, s))
        back = _card_back(rng, bw, int(bw * aspect))
        c = np.array([rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, 0.95) * h])
        turn = rng.uniform(0, 2 * np.pi)
        if face_down is not None and design is not None:  # the table's own design instead
            back = face_down.store.finish(face_down.rng, design)
        m = _placement_matrix(back.shape, bw, c, turn)
        _paste(canvas, back, homography @ m)
        backs.append(_quad(back.shape, homography @ m))
    chips = canvas.copy()
    for _ in range(int(rng.integers(0, 7))):
        spot = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        _chip(chips, rng, spot, int(s * rng.uniform(0.15, 0.3)))
    canvas[:] = chips
    hands_down: list[list[int]] = []
    if face_down is not None and design is not None:
        laid = _face_down_places(face_down.rng, free_places, s, (w, h), hand_cards)
        for group in laid:
            indices = []
            for c, angle in group:
                back = face_down.store.finish(face_down.rng, design)
                m = homography @ _placement_matrix(back.shape, s, c, angle)
                _shadow(canvas, _quad(back.shape, m), s, face_down.rng.uniform(0.2, 0.5))
                _paste(canvas, back, m)
                indices.append(len(backs))
                backs.append(_quad(back.shape, m))
            if free_places:  # a table: the group is a hand laid face down
                hands_down.append(indices)

    shadow_dir = rng.normal(0, 1, 2)
    shadow_dir = shadow_dir / np.linalg.norm(shadow_dir) * s * rng.uniform(0.0, 0.06)
    placed: list[PlacedCard] = []
    for k, (code, c, angle) in enumerate(placements):
        face = store.face(deck, code)
        m = _placement_matrix(face.shape, s, c, angle)
        # The stray card's spot is at the photo's edge, not on the table plane.
        if not ("stray" in cases and k == len(placements) - 1):
            m = homography @ m
        # Soft shadow under the card.
        mask = np.zeros((h, w), np.float32)
        quad = cv2.perspectiveTransform(_face_corners(face.shape)[None], m)[0]
        cv2.fillConvexPoly(mask, (quad + shadow_dir).astype(np.int32), 1.0)
        k = int(max(3, s * 0.08)) | 1
        mask = cv2.GaussianBlur(mask, (k, k), 0) * rng.uniform(0.2, 0.5)
        canvas[:] = (canvas * (1 - mask[..., None])).astype(np.uint8)
        _paste(canvas, face, m)
        placed.append(PlacedCard(code, quad.astype(np.float64)))

    # Which index corners stay visible under the cards drawn later.
    for i, card in enumerate(placed):
        shown = []
        for corner in (0, 1):
            pts = _index_points(card.quad, corner)
            covered = np.zeros(len(pts), bool)
            for later in placed[i + 1 :]:
                covered |= _quad_contains(later.quad, pts)
            inside = (pts[:, 0] > 1) & (pts[:, 0] < w - 2) & (pts[:, 1] > 1) & (pts[:, 1] < h - 2)
            shown.append(float(np.mean(~covered & inside)))
        card.shown = (shown[0], shown[1])

    canvas = _photometric(rng, canvas, s, glare="glare" in cases)
    stray = [placed[-1].code] if "stray" in cases else []
    decks = 2 if "two_decks" in cases else 1
    covers = backs + [card.quad for card in placed]
    shown = [_shown(quad, covers[k + 1 :], (w, h)) for k, quad in enumerate(backs)]
    return Scene(
        canvas,
        placed,
        river,
        hands,
        backs,
        stray,
        decks,
        tuple(sorted(cases)),
        printed,
        shown,
        hands_down,
    )


def _quad(shape: tuple[int, ...], matrix: np.ndarray) -> np.ndarray:
    """The outline (4x2, TL TR BR BL) of an image of ``shape`` placed by ``matrix``."""
    quad: np.ndarray = cv2.perspectiveTransform(_face_corners(shape)[None], matrix)[0]
    return quad.astype(np.float64)


def _shadow(canvas: np.ndarray, quad: np.ndarray, s: float, strength: float) -> None:
    """A soft shadow under a card about to be laid at ``quad``, as the face-up cards cast."""
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(mask, (quad + s * 0.02).astype(np.int32), 1.0)
    k = int(max(3, s * 0.08)) | 1
    mask = cv2.GaussianBlur(mask, (k, k), 0) * strength
    canvas[:] = (canvas * (1 - mask[..., None])).astype(np.uint8)


def _shown(quad: np.ndarray, later: list[np.ndarray], size: tuple[int, int]) -> float:
    """The share of the card at ``quad`` that the ``later`` quads leave in view in the frame."""
    pts = card_points(quad)
    seen = (pts[:, 0] >= 0) & (pts[:, 0] < size[0]) & (pts[:, 1] >= 0) & (pts[:, 1] < size[1])
    for other in later:
        seen &= ~_quad_contains(other, pts)
    return float(np.mean(seen))


def _face_down_places(
    rng: np.random.Generator,
    free_places: list[np.ndarray],
    s: float,
    size: tuple[int, int],
    hand_cards: int,
) -> list[list[tuple[np.ndarray, float]]]:
    """Where face-down cards lie (centre and angle on the table plane), by group: on a
    table, 0-2 hands at ``free_places`` (a hand of ``hand_cards`` overlapping as revealed
    hands do, the same squared up, or one card); among loose cards, 0-3 single backs or pairs
    anywhere."""
    groups = []
    if free_places:
        count = min(len(free_places), int(rng.choice(3, p=[0.2, 0.5, 0.3])))
        centres = free_places[:count]
    else:
        w, h = size
        centres = [rng.uniform(0.15, 0.85, 2) * [w, h] for _ in range(int(rng.integers(0, 4)))]
    for place in centres:
        c0 = place + rng.normal(0, 0.25, 2) * s
        a0 = rng.uniform(0, 2 * np.pi)
        shape = rng.random()
        if shape < 0.6:  # overlapping as a revealed hand
            offset = _rot(a0) @ np.array([rng.uniform(0.2, 0.55), rng.uniform(-0.25, 0.25)]) * s
            a1 = a0 + rng.normal(0, 0.25)
        elif shape < 0.8:  # squared up: the upper card nearly hides the lower
            offset = rng.normal(0, 0.04, 2) * s
            a1 = a0 + rng.normal(0, 0.04)
        else:
            groups.append([(c0, a0)])
            continue
        cards = hand_cards if free_places else 2
        step = offset * (0.7 if cards > 2 else 1.0)
        groups.append([(c0 + k * step, a0 if k == 0 else a1) for k in range(cards)])
    return groups


def _face_corners(shape: tuple[int, ...]) -> np.ndarray:
    fh, fw = shape[:2]
    return np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)


def _placement_matrix(
    shape: tuple[int, ...], s: float, centre: np.ndarray, angle: float
) -> np.ndarray:
    fh, fw = shape[:2]
    k = s / fw
    r = _rot(angle) * k
    t = centre - r @ np.array([fw / 2, fh / 2])
    return np.array([[r[0, 0], r[0, 1], t[0]], [r[1, 0], r[1, 1], t[1]], [0, 0, 1]])


def _photometric(
    rng: np.random.Generator, img: np.ndarray, s: float, glare: bool = False
) -> np.ndarray:
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    # Light colour (warm/cold) and an uneven illumination gradient.
    cast = rng.uniform([0.7, 0.85, 0.9], [1.1, 1.05, 1.2])
    if rng.random() < 0.5:
        cast = cast[::-1]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = rng.normal(0, 1, 2)
    grad = 1 + rng.uniform(0, 0.35) * ((xx / w - 0.5) * g[0] + (yy / h - 0.5) * g[1])
    out = out * cast[None, None, :] * grad[..., None] * rng.uniform(0.6, 1.15)
    if glare or rng.random() < 0.4:  # glare; a strong one washes out a card's index
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.25) * min(w, h)
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        out = out + blob[..., None] * rng.uniform(*((120, 220) if glare else (40, 160)))
    out = np.clip(out, 0, 255)
    if rng.random() < 0.6:
        k = rng.uniform(0.3, 1.6) * max(1.0, s / 150)
        out = cv2.GaussianBlur(out, (0, 0), k)
    out = out + rng.normal(0, rng.uniform(0, 8), out.shape)
    img = np.clip(out, 0, 255).astype(np.uint8)
    quality = int(rng.uniform(35, 95))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    photo = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if photo is None:
        raise ValueError(f"a {w}x{h} scene did not survive its JPEG round trip")
    return photo


def write_set(
    out: Path,
    count: int,
    held_out: bool,
    seed: int,
    cards_dir: Path,
    size: tuple[int, int] | None = None,
    only: tuple[str, ...] = (),
    empty: int = 0,
    quality: int = 90,
    hard: Hard | None = None,
    light: tuple[float, float, float] | None = None,
    motion: float = 0.0,
    hand_cards: int = 2,
    printed: float = 0.0,
    backs: Path | None = None,
    backs_share: float = 1.0,
) -> None:
    """Write ``count`` scenes as JPEG files plus a ``labels.json`` in the real-photo format.

    ``only`` restricts the decks by name prefix (the test fixtures use the project's own
    procedural decks and the CC0 npm deck, so no GPL art lands in the repository); ``empty``
    adds that many tables without cards; ``hard`` renders tables with the real tables' hard
    cases (``Hard``), whose labels also give the ``stray`` cards and the ``decks`` in play;
    ``light`` (B, G, R gains) lights every scene in a coloured light, such as a red bulb, past
    the mild casts the scenes draw themselves (the same scenes as without it, otherwise);
    ``motion`` smears every scene by a motion blur that long (a share of the long side) along
    a direction drawn apart, so the scenes are the same as without it otherwise; a table's
    hands hold ``hand_cards`` cards each (``make_scene``); ``printed`` is the share of tables
    whose felt carries a casino layout (drawn apart too: the same scenes under the print,
    labelled ``"printed": true``); ``backs``, a folder of art backs (``art``; one that does
    not exist gives procedural backs only), lays face-down cards in ``backs_share`` of the
    scenes (``FaceDown``, drawn apart too; the held-out designs with ``held_out``) and labels
    every scene's backs (its own stray ones too): ``backs`` (each back's outline, image
    pixels, in the order laid, all under the face-up cards), ``backs_shown`` (the share of
    each in view), ``face_down`` (each face-down hand's place, named as the hands are and
    ``null`` in ``groups``, with its cards' indices in ``backs``), ``face_quads`` and
    ``face_codes`` (every face-up card's outline and code, in the order laid). A table whose
    grouping cannot be answered (an index of its river or hands hidden) has no ``groups`` but
    its ``layout`` (``R+NxK``), the number of its cards ``hidden`` and their codes
    (``hidden_cards``).
    """
    rng = np.random.default_rng(seed)
    shake = np.random.default_rng((seed, 1))
    ink = np.random.default_rng((seed, 2))
    face_down = (
        None
        if backs is None
        else FaceDown(BackStore(backs, held_out), np.random.default_rng((seed, 3)))
    )
    store = DeckStore(cards_dir, held_out, only)
    families = (
        (HELD_OUT_BACKGROUND,)
        if held_out
        else tuple(f for f in BACKGROUND_FAMILIES if f != HELD_OUT_BACKGROUND)
    )
    out.mkdir(parents=True, exist_ok=True)
    labels = []
    for i in range(count):
        felt_print = ink if printed > 0 and ink.random() < printed else None
        lay = face_down if face_down is not None and face_down.rng.random() < backs_share else None
        scene = make_scene(
            rng,
            store,
            families,
            size,
            hard=hard,
            hand_cards=hand_cards,
            felt_print=felt_print,
            face_down=lay,
        )
        name = f"scene_{i:04d}.jpg"
        image = scene.image if light is None else in_light(scene.image, light)
        if motion > 0:
            image = smeared(image, motion, shake.uniform(0.0, 180.0))
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        visible = [c.code for c in scene.cards if any(c.visible)]
        partly = [c.code for c in scene.cards if not any(c.visible) and max(c.shown) >= PARTLY]
        groups = None
        hidden: list[str] = []
        if scene.river:
            groups = {"table": scene.river}
            groups.update({f"P{k + 1}": hand for k, hand in enumerate(scene.hands)})
            laid = Counter(scene.river + sum(scene.hands, []))
            hidden = sorted((laid - Counter(visible)).elements())
            if hidden:
                groups = None  # a hidden index makes the grouping unanswerable
        entry: dict[str, object] = {
            "image": name,
            "cards": visible,
            "partly_hidden": partly,
            "groups": groups,
            "source": "synthetic" if hard is None else "synthetic_hard",
        }
        if hidden:
            # Still a table: a player reads it with its layout (the app always does), and
            # the layout's cards whose index is hidden are counted missing by right.
            per_hand = max((len(hand) for hand in scene.hands), default=2)
            entry["layout"] = f"{len(scene.river)}+{len(scene.hands)}x{per_hand}"
            entry["hidden"] = len(hidden)
            # By code: a partly hidden one (``partly_hidden``) may still be read, and then
            # the missing count stands for another card.
            entry["hidden_cards"] = hidden
        if scene.printed:
            entry["printed"] = True
        if face_down is not None:
            _label_backs(entry, scene)
        if hard is not None:
            entry["stray"] = [c for c in scene.stray if c in visible]
            entry["decks"] = scene.decks
            entry["cases"] = list(scene.cases)
        labels.append(entry)
    for i in range(empty):
        name = f"empty_{i:02d}.jpg"
        w, h = size or (960, 640)
        image = _photometric(rng, background(rng, families[i % len(families)], h, w), 100.0)
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        labels.append({"image": name, "cards": [], "groups": None, "source": "synthetic"})
    (out / "labels.json").write_text(json.dumps(labels, indent=1))


def _label_backs(entry: dict[str, object], scene: Scene) -> None:
    """A label ``entry``'s backs, their shares in view and its face-down hands' places (the
    places after the face-up hands', ``null`` in its ``groups``)."""
    entry["backs"] = [np.round(quad, 1).tolist() for quad in scene.backs]
    entry["backs_shown"] = [round(share, 3) for share in scene.backs_shown]
    entry["face_quads"] = [np.round(card.quad, 1).tolist() for card in scene.cards]
    entry["face_codes"] = [card.code for card in scene.cards]
    places = {f"P{len(scene.hands) + k + 1}": hand for k, hand in enumerate(scene.face_down)}
    entry["face_down"] = places
    groups = entry["groups"]
    if isinstance(groups, dict):
        groups.update(dict.fromkeys(places))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write synthetic scenes with labels")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--held-out", action="store_true", help="held-out deck and background")
    parser.add_argument("--cards", type=Path, default=Path("cache/cards"))
    parser.add_argument("--size", type=str, default=None, help="WxH, e.g. 640x400")
    parser.add_argument("--decks", nargs="*", default=(), help="deck name prefixes to use")
    parser.add_argument("--empty", type=int, default=0, help="extra tables without cards")
    parser.add_argument("--quality", type=int, default=90, help="JPEG quality")
    parser.add_argument(
        "--hard",
        action="store_true",
        help="tables with the real tables' hard cases: touching river cards, light wood, steep "
        "views, a stray card at the edge, two decks, strong glare",
    )
    parser.add_argument(
        "--board",
        type=float,
        default=0.0,
        help="with --hard: the share of tables laid on a pale board on a darker floor",
    )
    parser.add_argument(
        "--light",
        type=light_argument,
        default=None,
        help="B,G,R gains of a coloured light over every scene, e.g. 0.45,0.55,1 (a red bulb)",
    )
    parser.add_argument(
        "--motion",
        type=motion_argument,
        default=0.0,
        help="smear every scene by a motion blur this long (a share of the long side, along a "
        "random direction), e.g. 0.005",
    )
    parser.add_argument(
        "--hand-cards",
        type=int,
        choices=range(2, 7),
        default=2,
        metavar="K",
        help="cards in each table hand, 2-6 (from the third on laid in a cascade, as a 4-card "
        "variant's or a blackjack hand)",
    )
    parser.add_argument(
        "--printed",
        type=float,
        default=0.0,
        metavar="P",
        help="the share of tables whose felt is printed like a casino layout (payout lines, "
        "arcs, betting boxes) under the cards, e.g. 1",
    )
    parser.add_argument(
        "--backs",
        type=float,
        default=None,
        metavar="P",
        help="face-down cards in this share of the scenes (face-down hands at free hand "
        "places, backs among loose cards; art backs of --backs-dir and procedural designs, held "
        "out with --held-out), and every scene's backs labelled, e.g. 1 (0: the scenes' own "
        "stray backs only, labelled)",
    )
    parser.add_argument(
        "--backs-dir",
        type=Path,
        default=Path("cache/backs"),
        help="the art backs (companion.vision.training.art); without them, procedural only",
    )
    args = parser.parse_args(argv)
    if not 0.0 <= args.printed <= 1.0:
        parser.error(f"--printed takes a share between 0 and 1: got {args.printed}")
    if args.backs is not None and not 0.0 <= args.backs <= 1.0:
        parser.error(f"--backs takes a share between 0 and 1: got {args.backs}")
    size = tuple(int(v) for v in args.size.split("x")) if args.size else None
    write_set(
        args.out,
        args.count,
        args.held_out,
        args.seed,
        args.cards,
        size,  # type: ignore[arg-type]
        tuple(args.decks),
        args.empty,
        args.quality,
        Hard(light_board=args.board) if args.hard else None,
        args.light,
        args.motion,
        args.hand_cards,
        args.printed,
        None if args.backs is None else args.backs_dir,
        1.0 if args.backs is None else args.backs,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
