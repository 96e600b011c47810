"""The Showdown screen's state, in three parts: the table and its rules (``table_part``), the
photo, its reads and the seats (``photo_part``), and here the tokens and the verdict.

Plain frozen dataclasses, no Flet: every change returns a new value. Each state is checked
once, by the engine's own validation, and judged once (``check``), whatever the screen asks of
it; a card fixed keeps the tokens given (chips on the table), and the verdict is judged again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Self

from companion.engine.gang.showdown import Showdown
from companion.engine.gang.table import Table
from companion.engine.gang.variants import VARIANTS
from companion.errors import CompanionError
from companion.ui.showdown.check import Checked, checked, table_of
from companion.ui.showdown.photo_part import PhotoPart
from companion.ui.showdown.places import RIVER, RIVER2, STRAY
from companion.ui.showdown.table_part import MAX_PLAYERS
from companion.ui.showdown.tokens import numbered, tapped, typed_order

__all__ = ["RIVER", "RIVER2", "STRAY", "UI_VARIANTS", "MAX_PLAYERS", "Checked", "ShowdownState"]

UI_VARIANTS = tuple(VARIANTS)


@dataclass(frozen=True)
class ShowdownState(PhotoPart):
    """One table being read: its setup and cards, its photo and seats, and the tokens given."""

    tokens: tuple[str, ...] = ()  # hand ids in the order the tokens were tapped: 1, 2, ...

    @classmethod
    def new(cls, players: Sequence[str] = ()) -> ShowdownState:
        """A table of ``players``: none until they are typed (the field shows how), so that
        no placeholder name has to be deleted first."""
        return cls(players=tuple(players))

    def _new_hands(self) -> Self:
        return replace(self, tokens=())

    # -- the engine (``check``) -------------------------------------------------------------

    def table(self) -> Table:
        """The engine's table of what the fields hold, the text that is no card left out."""
        return table_of(self)

    @cached_property
    def check(self) -> Checked:
        """The table checked by the engine's validation, and judged: once per state."""
        return checked(self)

    def problems(self) -> tuple[CompanionError, ...]:
        """Everything that stops a verdict, as the engine says it."""
        return self.check.problems

    def showdown(self) -> Showdown | None:
        """The engine's reading of the table (with a verdict once every hand has a token)."""
        return self.check.showdown

    # -- the tokens -----------------------------------------------------------------------

    def hand_ids(self) -> tuple[tuple[str, str], ...]:
        """(hand id, owner) of every hand that takes a token, in seating order."""
        result = self.showdown()
        return tuple((h.id, h.owner) for h in result.hands) if result else ()

    def token_map(self) -> dict[str, int]:
        return numbered(self.tokens)

    def tap_hand(self, hand_id: str) -> ShowdownState:
        """Give the hand the next token; tapping a hand that has one takes it back."""
        return replace(self, tokens=tapped(self.tokens, hand_id))

    def with_tokens_text(self, text: str) -> ShowdownState:
        """Numbers typed in seating order ("2 1 3"): hand k gets the k-th number; unreadable
        or incomplete input leaves the tokens empty."""
        return replace(self, tokens=typed_order(text, [hid for hid, _ in self.hand_ids()]))

    def clear_tokens(self) -> ShowdownState:
        return replace(self, tokens=())
