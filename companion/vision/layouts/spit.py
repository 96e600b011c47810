"""A Spit layout on a photo, taken from player 1's side (the camera turned by up to about 45
degrees): player 2's stock tops in a row at the top, the two centre spit piles in the middle row
(pile 1 on the left), player 1's stock tops in a row at the bottom. The face-up stock tops read
count from 1, left to right as the photo shows them; face-down tops and empty spaces are not
seen, and each card read stands for a pile of one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from companion.engine.spit import SpitRules, SpitState
from companion.engine.spit.referee import PileView, typed_position
from companion.errors import PhotoLayoutError
from companion.vision.layouts.places import SeenCard, card_width, listed, one_per_place, seen_cards

if TYPE_CHECKING:
    from companion.vision.base.detections import Detections

__all__ = ["SpitPhoto", "read_spit", "spit_position"]

# Spit rows: centres further apart than this many card widths, read top to bottom, start a row.
ROW_BREAK = 0.9


@dataclass(frozen=True, slots=True)
class SpitPhoto:
    """A Spit layout read from a photo: the two spit pile tops and each player's stock tops."""

    piles: tuple[SeenCard, SeenCard]
    stocks: tuple[tuple[SeenCard, ...], tuple[SeenCard, ...]]

    @property
    def seen(self) -> tuple[SeenCard, ...]:
        return (*self.piles, *self.stocks[0], *self.stocks[1])


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
    seen = one_per_place(seen_cards(detections), width)
    rows = _rows(seen, width, _turn(detections))
    if len(rows) != 3 or len(rows[1]) != 2:
        shape = " / ".join(listed(row) for row in rows) or "—"
        code = "photo.spit_rows" if len(rows) != 3 else "photo.spit_middle"
        in_middle = len(rows[1]) if len(rows) > 1 else 0
        raise PhotoLayoutError(
            code, where=where, n=len(seen), rows=len(rows), shape=shape, middle=in_middle
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
