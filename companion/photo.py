"""From the cards a photo shows to a game's position: a cribbage show, a Spit layout.

The vision detector says which cards it read and where; this module decides what each card is
in the game from where it lies, with rules simple enough to say to players:

- Cribbage show: the four hand cards side by side in a row, the starter apart from the row:
  above or below it (a card width off its line or more), or past its end with a clear gap.
- Spit, photographed from player 1's side (the camera turned by up to about 45 degrees):
  player 2's stock tops in a row at the top of the photo, the two centre spit piles in the
  middle row (pile 1 on the left), player 1's stock tops in a row at the bottom. The face-up
  stock tops read count from 1, left to right as the photo shows them; face-down tops and
  empty spaces are not seen, and each card read stands for a pile of one.

Pure functions of ``Detections``: no image, no model, no printing (the CLI and app do those).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from companion.engine.cards import Card, format_cards, parse_card
from companion.engine.spit import SpitRules, SpitState
from companion.engine.spit_referee import PileView, typed_position
from companion.errors import TableError

if TYPE_CHECKING:  # types only: reading positions needs no model
    from companion.vision.detections import Detections

__all__ = [
    "SeenCard",
    "ShowPhoto",
    "SpitPhoto",
    "seen_cards",
    "card_width",
    "one_per_place",
    "unsure",
    "read_show",
    "read_spit",
    "spit_position",
]

# A row: every centre within this many card widths of the line fitted through the row.
ROW_RESIDUAL = 0.5
# The starter lies off the hand's row by this many card widths, or past its end by this many
# card widths or row gaps (whichever is wider), so that five cards in a row are refused.
STARTER_OFF_ROW = 1.0
STARTER_PAST_END = 1.5
# Spit rows: centres further apart than this many card widths, read top to bottom, start a row.
ROW_BREAK = 0.9
# Reads whose centres are closer than this many card widths are one physical card: the layouts
# read here lay cards side by side, overlapping by half a card at most.
SAME_PLACE = 0.5
# Reads less sure than this are pointed out for the players to check by eye.
UNSURE = 0.8


@dataclass(frozen=True, slots=True)
class SeenCard:
    """One card read on a photo: the card, its centre in pixels, and how sure the read is."""

    card: Card
    x: float
    y: float
    confidence: float


@dataclass(frozen=True, slots=True)
class ShowPhoto:
    """A cribbage show read from a photo: the hand left to right, and the starter."""

    hand: tuple[SeenCard, ...]
    starter: SeenCard

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(seen.card for seen in self.hand)

    @property
    def seen(self) -> tuple[SeenCard, ...]:
        return (*self.hand, self.starter)


@dataclass(frozen=True, slots=True)
class SpitPhoto:
    """A Spit layout read from a photo: the two spit pile tops and each player's stock tops."""

    piles: tuple[SeenCard, SeenCard]
    stocks: tuple[tuple[SeenCard, ...], tuple[SeenCard, ...]]

    @property
    def seen(self) -> tuple[SeenCard, ...]:
        return (*self.piles, *self.stocks[0], *self.stocks[1])


def seen_cards(detections: Detections, where: str) -> tuple[SeenCard, ...]:
    """The detector's reads as cards, in the order it gave them."""
    centres = detections.centres
    return tuple(
        SeenCard(parse_card(code, where), float(c[0]), float(c[1]), float(conf))
        for code, c, conf in zip(detections.codes, centres, detections.confidence, strict=True)
    )


def one_per_place(seen: Sequence[SeenCard], width: float) -> tuple[SeenCard, ...]:
    """The surest read of each place: these layouts never lay one face-up card over another.

    The detector keeps one place per card code, but one card misread through its two index
    corners comes out as two codes at the same place; the less sure read is dropped.
    """
    kept: list[SeenCard] = []
    for card in sorted(seen, key=lambda s: -s.confidence):
        if all(np.hypot(card.x - k.x, card.y - k.y) >= SAME_PLACE * width for k in kept):
            kept.append(card)
    return tuple(s for s in seen if s in kept)


def unsure(seen: Sequence[SeenCard], below: float = UNSURE) -> tuple[SeenCard, ...]:
    """The reads players should check by eye, least sure first."""
    return tuple(sorted((s for s in seen if s.confidence < below), key=lambda s: s.confidence))


def card_width(detections: Detections) -> float:
    """The typical card width in pixels: the median short side of the read outlines."""
    if len(detections) == 0:
        return 1.0
    quads = detections.quads.astype(np.float64)
    sides = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
    return max(float(np.median(sides)), 1.0)


def _listed(cards: Sequence[SeenCard]) -> str:
    return format_cards((seen.card for seen in cards), pretty=True) if cards else "—"


def _row_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, direction and normal of the line best fitting ``points`` (N, 2)."""
    mean = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - mean)
    return mean, vt[0], vt[1]


def _is_apart(points: np.ndarray, candidate: int, width: float) -> bool:
    """Whether the other cards form a row and ``candidate`` lies apart from it: off the row's
    line, or past its end by clearly more than the row's own gaps."""
    rest = np.delete(points, candidate, axis=0)
    mean, direction, normal = _row_line(rest)
    if np.abs((rest - mean) @ normal).max() > ROW_RESIDUAL * width:
        return False
    offset = points[candidate] - mean
    if abs(float(offset @ normal)) >= STARTER_OFF_ROW * width:
        return True
    along = (rest - mean) @ direction
    gap = float(np.abs(along - float(offset @ direction)).min())
    return gap >= STARTER_PAST_END * max(width, float(np.diff(np.sort(along)).max()))


def read_show(detections: Detections, where: str) -> ShowPhoto:
    """The hand (four cards in a row) and the starter (the card apart) of a cribbage photo."""
    width = card_width(detections)
    seen = one_per_place(seen_cards(detections, where), width)
    if len(seen) != 5:
        listed = _listed(seen)
        raise TableError(
            f"{where}: read {len(seen)} cards ({listed}); a show photo needs 5: the four hand "
            "cards in a row and the starter apart from them",
            f"{where} : {len(seen)} cartes lues ({listed}) ; une photo de compte en demande 5 : "
            "les quatre cartes de la main en rang et la carte de départ à part",
        )
    points = np.array([(s.x, s.y) for s in seen])
    apart = [i for i in range(5) if _is_apart(points, i, width)]
    if len(apart) != 1:
        listed = _listed(seen)
        raise TableError(
            f"{where}: cannot tell the starter among {listed}; lay the four hand cards in a row "
            "and the starter apart from it (e.g. above it)",
            f"{where} : impossible de reconnaître la carte de départ parmi {listed} ; posez les "
            "quatre cartes de la main en rang et la carte de départ à part (par ex. au-dessus)",
        )
    starter = apart[0]
    hand = [s for i, s in enumerate(seen) if i != starter]
    _, direction, _ = _row_line(np.delete(points, starter, axis=0))
    # Left to right as the photo shows them (top to bottom for a row standing upright).
    if abs(direction[0]) >= abs(direction[1]):
        direction = direction if direction[0] > 0 else -direction
    else:
        direction = direction if direction[1] > 0 else -direction
    hand.sort(key=lambda s: s.x * direction[0] + s.y * direction[1])
    return ShowPhoto(tuple(hand), seen[starter])


def _turn(detections: Detections) -> float:
    """How far the photo is turned (radians, within a right angle either way), from the cards'
    short edges; player 2's cards, upside down, agree with player 1's modulo a half turn."""
    if len(detections) == 0:
        return 0.0
    edges = (detections.quads[:, 1] - detections.quads[:, 0]).astype(np.float64)
    doubled = 2 * np.arctan2(edges[:, 1], edges[:, 0])
    return float(np.arctan2(np.sin(doubled).sum(), np.cos(doubled).sum()) / 2)


def _rows(seen: Sequence[SeenCard], width: float, turn: float) -> list[list[SeenCard]]:
    """Cards split into rows, top to bottom, each row left to right, in the photo turned back."""
    c, s = np.cos(turn), np.sin(turn)
    across = {card: -s * card.x + c * card.y for card in seen}
    along = {card: c * card.x + s * card.y for card in seen}
    rows: list[list[SeenCard]] = []
    for card in sorted(seen, key=lambda card: across[card]):
        if rows and across[card] - across[rows[-1][-1]] <= ROW_BREAK * width:
            rows[-1].append(card)
        else:
            rows.append([card])
    return [sorted(row, key=lambda card: along[card]) for row in rows]


def read_spit(detections: Detections, where: str) -> SpitPhoto:
    """Spit pile tops (middle row) and stock tops (player 2 top row, player 1 bottom row)."""
    width = card_width(detections)
    seen = one_per_place(seen_cards(detections, where), width)
    rows = _rows(seen, width, _turn(detections))
    if len(rows) != 3 or len(rows[1]) != 2:
        shape = " / ".join(_listed(row) for row in rows) or "—"
        raise TableError(
            f"{where}: read {len(seen)} cards in {len(rows)} rows ({shape}); a Spit photo needs "
            "three rows: player 2's stocks at the top, the two spit piles in the middle, "
            "player 1's stocks at the bottom",
            f"{where} : {len(seen)} cartes lues en {len(rows)} rangs ({shape}) ; une photo de "
            "Spit en demande trois : les réserves du joueur 2 en haut, les deux tas au milieu, "
            "les réserves du joueur 1 en bas",
        )
    top, middle, bottom = rows
    return SpitPhoto((middle[0], middle[1]), (tuple(bottom), tuple(top)))


def spit_position(
    photo: SpitPhoto,
    rules: SpitRules,
    spit_left: tuple[int, int],
    live: int | None = None,
    side_left: tuple[int, int] = (0, 0),
    face_down: tuple[int, int] = (0, 0),
) -> SpitState:
    """The referee's position for a photo: each face-up card read stands on a pile of one.

    The detector reads faces only, so a face-down stock top looks like an empty space; the
    players say how many each has (``face_down``), and they come after the cards read.
    """
    piles = (PileView(photo.piles[0].card), PileView(photo.piles[1].card))
    stocks = tuple(
        [PileView(seen.card) for seen in side] + [PileView(None)] * down
        for side, down in zip(photo.stocks, face_down, strict=True)
    )
    return typed_position(rules, piles, (stocks[0], stocks[1]), spit_left, live, side_left)
