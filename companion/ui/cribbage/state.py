"""The cribbage screen's state: a show to count, a pegging count, the board, discard advice.

Plain frozen dataclasses, like the rest of the app's state, tested without Flet. Cards are held
as ``Card`` values, read once: from a photo's cards as they are, from a field when it is typed.
A token that is no card is kept as the text typed (an ``Entry`` is either), so that the field
and its chip still show it where it sits, and counting names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from companion.engine.cards import Card, Place
from companion.engine.cribbage.discard import DiscardAdvice, advise_discard
from companion.engine.cribbage.score import Rule, ScoreItem, Show, peg_count, score_peg, score_show
from companion.errors import CompanionError, IllegalMoveError, InputError
from companion.messages import phrase
from companion.ui.cribbage.board import IMPOSSIBLE_SHOWS, KINDS, CribBoard, ScoreEntry
from companion.ui.kit.banner import Banner
from companion.ui.kit.cards import Entry, entries

if TYPE_CHECKING:  # the photo's types: vision loads only when a photo is read
    from companion.vision.layouts.cribbage import ShowPhoto

__all__ = [
    "KINDS",
    "IMPOSSIBLE_SHOWS",
    "ScoreEntry",
    "CribBoard",
    "ShowCount",
    "PegCount",
    "PEG_ENDS",
    "CribbageState",
]


def _cards(typed: Sequence[Entry], where: Place) -> tuple[Card, ...]:
    """The cards of a field; its first token that is no card is refused, naming where.

    In cribbage's words: the cards' general message offers ``*`` for a wild card, which
    cribbage then refuses.
    """
    for entry in typed:
        if isinstance(entry, str):
            raise InputError("crib_count.not_a_card", token=entry, where=where)
    return tuple(entry for entry in typed if isinstance(entry, Card))


@dataclass(frozen=True)
class ShowCount:
    """A show typed or read from a photo: four cards, the starter, and whether it is the crib."""

    hand: tuple[Entry, ...] = ()
    starter: Entry | None = None
    crib: bool = False
    unsure: tuple[Card, ...] = ()  # cards a photo read with little confidence, to check by eye
    asked: bool = False  # a photo's five cards lay in a row: which is the starter is asked

    @classmethod
    def of_row(cls, cards: Sequence[Card], unsure: Sequence[Card], crib: bool) -> ShowCount:
        """A photo's five cards in a row: all in the hand's field, the starter asked."""
        return cls(tuple(cards), None, crib, tuple(unsure), asked=True)

    @property
    def asking(self) -> bool:
        """Whether the players are asked which card is the starter (one tap on it)."""
        return self.asked and self.starter is None and len(self.hand) == 5

    def starter_at(self, index: int) -> ShowCount:
        """The hand's card at ``index`` is the starter: it leaves the hand for its own field."""
        if not 0 <= index < len(self.hand):
            return self
        hand = self.hand[:index] + self.hand[index + 1 :]
        return replace(self, hand=hand, starter=self.hand[index], asked=False)

    @classmethod
    def of_photo(cls, photo: ShowPhoto, unsure: Sequence[Card], crib: bool) -> ShowCount:
        """The photo's cards as they were read: nothing is written out and parsed again."""
        return cls(photo.cards, photo.starter.card, crib, tuple(unsure))

    def with_hand_text(self, text: str) -> ShowCount:
        hand = entries(text)
        return self if hand == self.hand else replace(self, hand=hand, unsure=())

    def with_starter_text(self, text: str) -> ShowCount:
        starter = next(iter(entries(text)), None)
        return self if starter == self.starter else replace(self, starter=starter, unsure=())

    def with_crib(self, on: bool) -> ShowCount:
        return replace(self, crib=on)

    def show(self) -> Show | None:
        """The count once cards are typed; a wrong card or count raises, naming it."""
        if (not self.hand and self.starter is None) or self.asking:
            return None
        hand = _cards(self.hand, phrase("place.crib" if self.crib else "place.hand_cards"))
        if self.starter is None:
            raise InputError("crib_count.starter_missing")
        (starter,) = _cards((self.starter,), phrase("place.starter"))
        return score_show(hand, starter, crib=self.crib)


PEG_ENDS = ("", "go", "last_card")


@dataclass(frozen=True)
class PegCount:
    """A pegging count typed card by card since the last reset, and whether its last card
    closed it (a go, or the last card of the hand)."""

    cards: tuple[Entry, ...] = ()
    end: str = ""  # a PEG_ENDS name

    def with_cards_text(self, text: str) -> PegCount:
        cards = entries(text)
        return self if cards == self.cards else replace(self, cards=cards)

    def with_end(self, end: str) -> PegCount:
        if end not in PEG_ENDS:
            raise ValueError(f"unknown end of count {end!r}")  # a bug: the screen offers these
        return replace(self, end=end)

    def items(self) -> tuple[ScoreItem, ...]:
        """What the last card scores; a wrong card or a count past 31 raises, naming it."""
        cards = _cards(self.cards, phrase("place.count"))
        return score_peg(cards, Rule(self.end) if self.end else None)

    def total(self) -> int:
        return peg_count(_cards(self.cards, phrase("place.count")))


@dataclass(frozen=True)
class CribbageState:
    """The whole cribbage screen."""

    count: ShowCount = field(default_factory=ShowCount)
    peg: PegCount = field(default_factory=PegCount)
    board: CribBoard = field(default_factory=CribBoard.new)
    deal: tuple[Entry, ...] = ()
    dealer: bool = False
    advice: DiscardAdvice | None = None
    advice_error: Banner | None = None

    def with_count(self, count: ShowCount) -> CribbageState:
        return replace(self, count=count)

    def with_peg(self, peg: PegCount) -> CribbageState:
        return replace(self, peg=peg)

    def with_board(self, board: CribBoard) -> CribbageState:
        return replace(self, board=board)

    def with_deal_text(self, text: str) -> CribbageState:
        deal = entries(text)
        # Leaving the field unchanged (blur) must not work the advice out again.
        return self if deal == self.deal else self._advised(deal, self.dealer)

    def with_dealer(self, dealer: bool) -> CribbageState:
        return self._advised(self.deal, dealer)

    def _advised(self, deal: tuple[Entry, ...], dealer: bool) -> CribbageState:
        """Work the advice out once, here, rather than at every redraw (about 0.1 s)."""
        if not deal:
            return replace(self, deal=deal, dealer=dealer, advice=None, advice_error=None)
        try:
            advice = advise_discard(_cards(deal, phrase("place.deal")), dealer)
        except CompanionError as error:
            return replace(
                self, deal=deal, dealer=dealer, advice=None, advice_error=Banner.of_error(error)
            )
        return replace(self, deal=deal, dealer=dealer, advice=advice, advice_error=None)

    def count_to(self, player: int) -> CribbageState:
        """Peg the counted show for ``player`` (as a crib when the count is one)."""
        show = self.count.show()
        if show is None:
            raise InputError("crib_count.nothing_counted")
        return replace(
            self, board=self.board.add(player, "crib" if show.crib else "show", show.total)
        )

    def peg_to(self, player: int) -> CribbageState:
        """Peg what the last card of the pegging count scores, for ``player``."""
        points = sum(item.points for item in self.peg.items())
        if not points:
            raise IllegalMoveError("crib_board", "nothing_pegged")
        return replace(self, board=self.board.add(player, "peg", points))
