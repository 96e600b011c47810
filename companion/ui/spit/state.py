"""The Spit screen's state: a position as the table typed it (or a photo read it), and a dispute.

Plain frozen dataclasses, no Flet. Piles and stock spaces are kept as the tokens players type
(``7h``, ``7h/3`` for a pile of three, ``?`` face down, ``-`` empty), the same tokens as
``companion spit referee``; the engine reads them only when the ruling is asked for, so a
mistyped token stays on screen where it was typed and the referee names it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.engine.cards import parse_card
from companion.engine.spit import VARIANTS
from companion.engine.spit.referee import Ruling, Situation, referee, typed_position
from companion.errors import CardParseError
from companion.formats.spit import parse_move, parse_pile

if TYPE_CHECKING:  # the photo reader loads vision, which the app imports only when used
    from companion.vision.layouts.spit import SpitPhoto

__all__ = ["SPIT_VARIANTS", "STUCK", "SpitScreen"]

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


# The engine's words print suit glyphs and arrows, which the web client's bundled font lacks
# (see views/common.py): it would draw empty boxes.
def _token(text: str) -> str:
    """A typed pile token, its card normalised (``10h/3`` -> ``Th/3``); others left as typed."""
    card, slash, size = text.strip().partition("/")
    try:
        # Not ui.state's normalise_card: that module holds this one in AppState.
        return str(parse_card(card, "spit")) + slash + size
    except CardParseError:
        return text.strip()


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_token(tok) for tok in re.split(r"[\s,;]+", text) if tok)


def _count(text: str, old: int) -> int:
    """A typed card count; anything that is not a count keeps the old one."""
    digits = text.strip()
    return min(int(digits), MAX_COUNT) if digits.isdigit() else old


@dataclass(frozen=True)
class SpitScreen:
    """One Spit position being refereed.

    Players count from 0 here (player 1 is index 0); ``live`` is the only pile left once a
    player spits alone, None while both piles are open. In Speed, ``stocks`` are the hands and
    ``spit_left`` the draw piles, as in the engine.
    """

    variant: str = "classic"
    piles: tuple[str, str] = ("", "")
    stocks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    spit_left: tuple[int, int] = (1, 1)
    side_left: tuple[int, int] = (0, 0)
    live: int | None = None
    move: str = ""  # the disputed move as typed, e.g. "p1 8d -> pile 1"
    photo: str = ""  # the cards a photo read, as one line to check by eye ("" when typed)
    edition: int = 0  # bumped by a reset: the fields then drop what was being typed

    # -- setup ----------------------------------------------------------------------------

    def with_variant(self, variant: str) -> SpitScreen:
        return replace(self, variant=variant if variant in VARIANTS else self.variant)

    def with_pile_text(self, pile: int, text: str) -> SpitScreen:
        tokens = _tokens(text)
        piles = list(self.piles)
        piles[pile] = tokens[0] if tokens else ""
        return replace(self, piles=(piles[0], piles[1]))

    def with_stock_text(self, player: int, text: str) -> SpitScreen:
        stocks = list(self.stocks)
        stocks[player] = _tokens(text)
        return replace(self, stocks=(stocks[0], stocks[1]))

    def with_spit_text(self, player: int, text: str) -> SpitScreen:
        left = list(self.spit_left)
        left[player] = _count(text, left[player])
        return replace(self, spit_left=(left[0], left[1]))

    def with_side_text(self, player: int, text: str) -> SpitScreen:
        left = list(self.side_left)
        left[player] = _count(text, left[player])
        return replace(self, side_left=(left[0], left[1]))

    def with_live(self, live: int | None) -> SpitScreen:
        return replace(self, live=live if live in (0, 1) else None)

    def with_move_text(self, text: str) -> SpitScreen:
        return replace(self, move=" ".join(text.split()))

    def with_photo(self, photo: SpitPhoto) -> SpitScreen:
        """A photo's reading: the two pile tops and each player's face-up stock tops.

        The spit cards left are not on the photo; the counts already typed are kept. A face-down
        stock top looks like an empty space to the detector: the players add a ``?`` for it.
        """
        piles = (str(photo.piles[0].card), str(photo.piles[1].card))
        stocks = tuple(tuple(str(seen.card) for seen in side) for side in photo.stocks)
        line = " / ".join(
            " ".join(str(seen.card) for seen in row) or "-"
            for row in (photo.stocks[1], photo.piles, photo.stocks[0])
        )
        return replace(self, piles=piles, stocks=(stocks[0], stocks[1]), move="", photo=line)

    def cleared(self) -> SpitScreen:
        """An empty table under the same rules."""
        return SpitScreen(self.variant, edition=self.edition + 1)

    # -- engine ---------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Whether both spit piles are typed: the least the referee needs."""
        return all(self.piles)

    def ruling(self) -> Ruling | None:
        """The referee's ruling, None until both piles are typed.

        Raises the engine's errors (a bad token, a card twice, a move that cannot be read), each
        with its French and English message, for the screen to show.
        """
        if not self.ready:
            return None
        rules = VARIANTS[self.variant]
        piles = [parse_pile(token, f"pile {i + 1}") for i, token in enumerate(self.piles)]
        stocks = [
            [parse_pile(token, f"p{p + 1} stock {i + 1}") for i, token in enumerate(side)]
            for p, side in enumerate(self.stocks)
        ]
        state = typed_position(
            rules,
            (piles[0], piles[1]),
            (stocks[0], stocks[1]),
            self.spit_left,
            live=self.live,
            side_left=self.side_left,
        )
        disputed = parse_move(self.move, rules.stock_piles) if self.move else None
        return referee(state, disputed)
