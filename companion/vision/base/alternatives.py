"""A read's next likely codes (``Alternative``): what a player is offered beside a doubtful read.

The readers' blended rank and suit probabilities give each code of the deck a probability (rank
times suit, as the read's own confidence); the codes after the read, likeliest first, are its
alternatives. The read's confidence and its alternatives' probabilities sum to at most 1, and a
code the deck cannot hold again (read surely at as many other places as there are decks) is no
alternative.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.engine.cards import Card

__all__ = ["ALTERNATIVES", "Alternative", "capped", "likeliest", "plausible"]

# Codes kept per card: a doubt offers two or three as one-tap choices, and "other..." for the rest.
ALTERNATIVES = 4


@dataclass(frozen=True, slots=True)
class Alternative:
    """A code the reader finds likely for a card besides its read, with its probability."""

    card: Card
    probability: float


def likeliest(
    rank_p: np.ndarray, suit_p: np.ndarray, count: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``count`` likeliest codes of each row of rank (N, R) and suit (N, S) probabilities:
    their rank classes, suit classes and probabilities (rank times suit), each (N, ``count``),
    likeliest first (ties in class order)."""
    n_suits = suit_p.shape[1]
    joint = (rank_p[:, :, None] * suit_p[:, None, :]).reshape(
        len(rank_p), rank_p.shape[1] * n_suits
    )
    order = np.argsort(-joint, axis=1, kind="stable")[:, :count]
    return order // n_suits, order % n_suits, np.take_along_axis(joint, order, axis=1)


def capped(alternatives: Sequence[Alternative], confidence: float) -> tuple[Alternative, ...]:
    """``alternatives`` scaled down, where needed, so that with ``confidence`` they sum to at
    most 1: a read's confidence may stand above its code's probability (its other index corner
    read alike, or its suit taken from the ink's colour)."""
    total = sum(a.probability for a in alternatives)
    room = max(0.0, 1.0 - confidence)
    if total <= room:
        return tuple(alternatives)
    scale = room / total
    return tuple(Alternative(a.card, a.probability * scale) for a in alternatives)


def plausible(
    cards: Sequence[Card],
    sure: Sequence[bool],
    alternatives: Sequence[Sequence[Alternative]],
    decks: int,
    keep: int = ALTERNATIVES,
) -> tuple[tuple[Alternative, ...], ...]:
    """Each row's alternatives less the codes read surely (``sure``) at ``decks`` other rows (the
    decks hold no more copies), at most ``keep`` of them."""
    # A row's alternatives never hold its own code: the rows counted are the others.
    held = Counter(card for card, ok in zip(cards, sure, strict=True) if ok)
    return tuple(tuple([a for a in row if held[a.card] < decks][:keep]) for row in alternatives)
