"""The cut for the first deal (cribbage_rules.txt §2): "Coupez pour le premier donneur : la valeur
la plus basse donne ; recoupez en cas d'égalité". Each player cuts a card; the lower card deals,
ace low and king high; the same rank is a tie, and both cut again.

The cards come from the table, two at a time: player 1's, then player 2's.

>>> from companion.engine.cards import parse_cards
>>> [cut.dealer for cut in cut_for_deal(parse_cards("7h 7d Kc Qs"))]
[None, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine.cards import Card, Place, check_duplicates
from companion.engine.cribbage.score import check_natural, run_order
from companion.errors import TableError
from companion.messages import phrase

__all__ = ["DealCut", "cut_for_deal", "first_dealer"]


@dataclass(frozen=True)
class DealCut:
    """One cut: each player's card, player 1's first."""

    cards: tuple[Card, Card]

    @property
    def dealer(self) -> int | None:
        """The player (0 or 1) who cut the lower card and deals first; None on a tie."""
        first, second = (run_order(card) for card in self.cards)
        if first == second:
            return None
        return 0 if first < second else 1


def _player(n: int) -> Place:
    return phrase("words.crib.player", n=n + 1)


def cut_for_deal(
    cards: Sequence[Card], names: Sequence[Place] | None = None
) -> tuple[DealCut, ...]:
    """The cuts, two cards each, until one decides; each wrong cut is refused, naming it.

    ``names``: the two players as the table calls them (default: player 1 and player 2).
    """
    who = tuple(names) if names is not None else (_player(0), _player(1))
    if not cards or len(cards) % 2:
        raise TableError("cribbage.cut_pairs", n=len(cards))
    cuts: list[DealCut] = []
    for start in range(0, len(cards), 2):
        n = start // 2 + 1
        if cuts and cuts[-1].dealer is not None:
            decided = cuts[-1].dealer
            raise TableError("cribbage.cut_decided", n=n - 1, player=who[decided])
        places = {phrase("place.cut", n=n, player=who[p]): (cards[start + p],) for p in (0, 1)}
        for place, card in places.items():
            check_natural(card, place)
        check_duplicates(places)  # both cut the one deck
        cuts.append(DealCut((cards[start], cards[start + 1])))
    return tuple(cuts)


def first_dealer(cuts: Sequence[DealCut]) -> int | None:
    """Who deals first after these cuts; None while the last cut is a tie."""
    return cuts[-1].dealer if cuts else None
