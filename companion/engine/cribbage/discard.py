"""The discard advisor: which 2 of the 6 dealt cards to lay away, by exact expectation.

For each of the 15 discards it averages the kept hand over the 46 unseen starters, and the crib
over every opponent discard (2 of the 46 unseen cards) and every starter among the 44 left, that
is 45,540 cribs per discard, all weighted equally. His heels is left out: it does not depend on
the discard.

>>> from companion.engine.cards import parse_cards
>>> advice = advise_discard(parse_cards("5c 5d Jh Qs 4c 9h"), dealer=True)
>>> best = advice.by_net[0]
>>> " ".join(card.pretty() for card in best.discard), round(float(best.net), 2)
('4♣ 9♥', 16.86)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from companion.engine.cards import Card
from companion.engine.cribbage.score import check_cards, show_points_many
from companion.messages import phrase

__all__ = ["DiscardOption", "DiscardAdvice", "advise_discard"]

DEALT = 6
UNSEEN = 52 - DEALT


@dataclass(frozen=True)
class DiscardOption:
    """One way to split the deal: expected hand, expected crib, and their sum or difference."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand: Fraction
    crib: Fraction
    net: Fraction


@dataclass(frozen=True)
class DiscardAdvice:
    """The 15 options ranked by expected hand alone and by hand plus (dealer) or minus the crib."""

    dealt: tuple[Card, ...]
    dealer: bool
    by_hand: tuple[DiscardOption, ...]
    by_net: tuple[DiscardOption, ...]


@cache
def _opponent_deals() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Positions among the 46 unseen cards of every (opponent discard, starter): 1035 x 44 rows."""
    pairs = np.array(list(combinations(range(UNSEEN), 2)), dtype=np.intp)
    starters = np.broadcast_to(np.arange(UNSEEN), (len(pairs), UNSEEN))
    free = (starters != pairs[:, :1]) & (starters != pairs[:, 1:])
    rows = np.repeat(np.arange(len(pairs)), UNSEEN - 2)
    return pairs[rows, 0], pairs[rows, 1], starters[free]


def advise_discard(dealt: Sequence[Card], dealer: bool) -> DiscardAdvice:
    """Rank the 15 discards of a 6-card deal; ``dealer`` says whose crib it is."""
    dealt = tuple(dealt)
    check_cards(dealt, DEALT, phrase("place.deal"))
    ids = np.array([card.id for card in dealt])
    unseen = np.setdiff1d(np.arange(52), ids)
    splits = [
        (keep, tuple(i for i in range(DEALT) if i not in keep))
        for keep in combinations(range(DEALT), DEALT - 2)
    ]
    keeps = ids[np.array([keep for keep, _ in splits])]
    throws = ids[np.array([throw for _, throw in splits])]

    hand_totals = (
        show_points_many(np.repeat(keeps, UNSEEN, axis=0), np.tile(unseen, len(splits)))
        .reshape(len(splits), UNSEEN)
        .sum(axis=1, dtype=np.int64)
    )

    first, second, starter = (unseen[positions] for positions in _opponent_deals())
    deals = len(starter)
    cribs = np.empty((len(splits) * deals, 4), dtype=np.int64)
    cribs[:, 0] = np.repeat(throws[:, 0], deals)
    cribs[:, 1] = np.repeat(throws[:, 1], deals)
    cribs[:, 2] = np.tile(first, len(splits))
    cribs[:, 3] = np.tile(second, len(splits))
    crib_totals = show_points_many(cribs, np.tile(starter, len(splits)), crib=True)
    crib_totals = crib_totals.reshape(len(splits), deals).sum(axis=1, dtype=np.int64)

    sign = 1 if dealer else -1
    options = []
    for (keep, throw), hand_total, crib_total in zip(splits, hand_totals, crib_totals, strict=True):
        hand = Fraction(int(hand_total), UNSEEN)
        crib = Fraction(int(crib_total), deals)
        options.append(
            DiscardOption(
                keep=tuple(dealt[i] for i in keep),
                discard=tuple(dealt[i] for i in throw),
                hand=hand,
                crib=crib,
                net=hand + sign * crib,
            )
        )
    # Stable sorts: ties keep the order of the deal, so the advice never depends on chance.
    by_hand = tuple(sorted(options, key=lambda option: (-option.hand, -option.net)))
    by_net = tuple(sorted(options, key=lambda option: (-option.net, -option.hand)))
    return DiscardAdvice(dealt, dealer, by_hand, by_net)
