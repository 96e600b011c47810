"""The Spit screen's state: a position as the table typed it (or a photo read it), and a dispute.

Plain frozen dataclasses, no Flet. Each pile and stock space is held as the engine's
``PileView`` (its face-up top, how many cards): read once, from a photo's cards as they are, or
from a token as it is typed (``7h``, ``7h/3`` for a pile of three, ``?`` face down, ``-``
empty, the same tokens as ``companion spit referee``). A token that does not read is kept as
typed, so that it stays on screen where it was typed and the ruling names it there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.engine.cards import Card
from companion.engine.spit import VARIANTS, Move
from companion.engine.spit.referee import (
    CardPlay,
    CardShift,
    PileView,
    Ruling,
    Situation,
    referee,
    typed_position,
)
from companion.engine.spit.tally import SpeedTally
from companion.errors import CardParseError, CompanionError, InputError
from companion.formats.spit import parse_move, parse_pile
from companion.messages import Phrase, phrase
from companion.ui.kit.cards import entry_text

if TYPE_CHECKING:  # the photo reader loads vision, which the app imports only when used
    from companion.vision.layouts.spit import SpitPhoto

__all__ = ["SPIT_VARIANTS", "STUCK", "Pile", "pile_token", "SpitScreen"]

SPIT_VARIANTS = tuple(VARIANTS)
# Situations in which nobody may play a card: the screen says so in large print.
STUCK = frozenset(
    {
        Situation.BOTH_SPIT,
        Situation.SPIT_ALONE,
        Situation.FLIP_SIDE,
        Situation.RECYCLE,
        Situation.NO_SPIT,
    }
)
MAX_COUNT = 52
_SEPARATORS = re.compile(r"[\s,;]+")

Pile = PileView | str  # a pile read, or a token that does not read, kept as typed


def _pile_place(pile: int) -> Phrase:
    return phrase("spit.place_pile", n=pile + 1)


def _stock_place(player: int, stock: int) -> Phrase:
    return phrase("spit_place_stock", player=player + 1, n=stock + 1)


def _typed(token: str, where: Phrase) -> Pile:
    try:
        return parse_pile(token, where)
    except CompanionError:
        return token.strip()


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(token for token in _SEPARATORS.split(text) if token)


def _view(pile: Pile, where: Phrase) -> PileView:
    """The pile to rule on; a token that did not read is refused now, naming where it sits.

    Said in the piles' words: the cards' general message offers ``*`` for a wild card, which
    Spit does not have. A wild card's own message already says so.
    """
    if isinstance(pile, PileView):
        return pile
    try:
        return parse_pile(pile, where)
    except CardParseError:
        raise InputError("spit_not_a_pile", token=pile, where=where) from None


def _move(text: str, stocks: int) -> Move | CardPlay | CardShift:
    """The disputed move; one that cannot be read is refused in the screen's words (the
    engine's own point at the command line's ``--help``)."""
    try:
        return parse_move(text, stocks)
    except InputError as error:
        if error.code != "spit.move_unreadable":
            raise  # a pile or stock that does not exist: the engine's words name it
        raise InputError("spit_move_unreadable", move=text) from None


def pile_token(pile: Pile) -> str:
    """A pile as its field shows it, in the tokens players type: ``7h``, ``7h/3``, ``?``, ``-``."""
    if isinstance(pile, str):
        return pile
    if pile.top is None and pile.size == 0:
        return "-"
    top = "?" if pile.top is None else entry_text(pile.top)
    return top if pile.size == 1 else f"{top}/{pile.size}"


def _count(text: str, old: int) -> int:
    """A typed card count; anything that is not a count keeps the old one."""
    digits = text.strip()
    return min(int(digits), MAX_COUNT) if digits.isdigit() else old


def _number(text: str) -> int:
    """A typed whole number, or the screen's error naming what was typed."""
    digits = text.strip()
    if not digits.isdigit() or len(digits) > 6:  # six digits: past any score, and bounded
        raise InputError("spit_tally_not_number", text=digits)
    return int(digits)


def _with(pair: tuple[int, int], index: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


@dataclass(frozen=True)
class SpitScreen:
    """One Spit position being refereed.

    Players count from 0 here (player 1 is index 0); ``live`` is the only pile left once a
    player spits alone, None while both piles are open. In Speed, ``stocks`` are the hands and
    ``spit_left`` the draw piles, as in the engine. A pile not typed yet is None.
    """

    variant: str = "classic"
    piles: tuple[Pile | None, Pile | None] = (None, None)
    stocks: tuple[tuple[Pile, ...], tuple[Pile, ...]] = ((), ())
    spit_left: tuple[int, int] = (1, 1)
    side_left: tuple[int, int] = (0, 0)
    live: int | None = None
    move: str = ""  # the disputed move as typed, e.g. "p1 8d -> pile 1"
    # The cards a photo read, its rows top to bottom (player 2, piles, player 1), to check by
    # eye; empty when the position was typed.
    photo: tuple[tuple[Card, ...], ...] = ()
    edition: int = 0  # bumped by a reset: the fields then drop what was being typed
    tally: SpeedTally = SpeedTally()  # Speed's match, game after game (a new table keeps it)

    # -- setup ----------------------------------------------------------------------------

    def with_variant(self, variant: str) -> SpitScreen:
        """Other rules for the table. Between Spit and Speed the position means other things
        (stocks or a hand, spit cards or a draw pile): it is cleared with its dispute and
        ruling, the match's tally kept; between two Spit rules it is ruled again as it is."""
        if variant not in VARIANTS or variant == self.variant:
            return self
        if VARIANTS[variant].speed != VARIANTS[self.variant].speed:
            return replace(self.cleared(), variant=variant)
        return replace(self, variant=variant)

    def with_pile_text(self, pile: int, text: str) -> SpitScreen:
        tokens = _tokens(text)
        typed = _typed(tokens[0], _pile_place(pile)) if tokens else None
        piles = (typed, self.piles[1]) if pile == 0 else (self.piles[0], typed)
        return replace(self, piles=piles)

    def with_stock_text(self, player: int, text: str) -> SpitScreen:
        typed = tuple(_typed(tok, _stock_place(player, i)) for i, tok in enumerate(_tokens(text)))
        stocks = (typed, self.stocks[1]) if player == 0 else (self.stocks[0], typed)
        return replace(self, stocks=stocks)

    def with_spit_text(self, player: int, text: str) -> SpitScreen:
        left = _count(text, self.spit_left[player])
        return replace(self, spit_left=_with(self.spit_left, player, left))

    def with_side_text(self, player: int, text: str) -> SpitScreen:
        left = _count(text, self.side_left[player])
        return replace(self, side_left=_with(self.side_left, player, left))

    def with_live(self, live: int | None) -> SpitScreen:
        return replace(self, live=live if live in (0, 1) else None)

    def with_move_text(self, text: str) -> SpitScreen:
        return replace(self, move=" ".join(text.split()))

    def with_photo(self, photo: SpitPhoto) -> SpitScreen:
        """A photo's reading: the two pile tops and each player's face-up stock tops, as read.

        The spit cards left are not on the photo; the counts already typed are kept. A face-down
        stock top looks like an empty space to the detector: the players add a ``?`` for it.
        """
        piles = (PileView(photo.piles[0].card), PileView(photo.piles[1].card))
        stocks = tuple(tuple(PileView(seen.card) for seen in side) for side in photo.stocks)
        rows = tuple(
            tuple(seen.card for seen in row)
            for row in (photo.stocks[1], photo.piles, photo.stocks[0])
        )
        return replace(self, piles=piles, stocks=(stocks[0], stocks[1]), move="", photo=rows)

    def cleared(self) -> SpitScreen:
        """An empty table under the same rules, the match's tally kept."""
        return SpitScreen(self.variant, edition=self.edition + 1, tally=self.tally)

    # -- Speed's tally ----------------------------------------------------------------------

    def with_target_text(self, text: str) -> SpitScreen:
        return replace(self, tally=self.tally.with_target(_number(text)))

    def scored(self, winner: int, text: str) -> SpitScreen:
        """A game won by ``winner``, the loser holding the typed number of cards."""
        points = _number(text)
        return replace(self, tally=self.tally.scored(winner, points, VARIANTS[self.variant]))

    def with_tally(self, tally: SpeedTally) -> SpitScreen:
        return replace(self, tally=tally)

    # -- engine ---------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Whether both spit piles are typed: the least the referee needs."""
        return all(pile is not None for pile in self.piles)

    def ruling(self) -> Ruling | None:
        """The referee's ruling, None until both piles are typed.

        Raises the engine's errors (a bad token, a card twice, a move that cannot be read), for
        the screen to show in the players' language.
        """
        first, second = self.piles
        if first is None or second is None:
            return None
        rules = VARIANTS[self.variant]
        piles = (_view(first, _pile_place(0)), _view(second, _pile_place(1)))
        stocks = [
            [_view(pile, _stock_place(p, i)) for i, pile in enumerate(side)]
            for p, side in enumerate(self.stocks)
        ]
        state = typed_position(
            rules,
            piles,
            (stocks[0], stocks[1]),
            self.spit_left,
            live=self.live,
            side_left=self.side_left,
        )
        disputed = _move(self.move, rules.stock_piles) if self.move else None
        return referee(state, disputed)
