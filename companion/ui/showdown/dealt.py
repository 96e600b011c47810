"""How many hole cards each player holds where the variant lets hand sizes differ (classic on
one river: Crack's "changement du nombre de cartes en main"): the setup says it, and the check
before the verdict counts each hand against it.

Typed as one number for everyone, then a name and a number for each player dealt otherwise:

>>> sizes = HandSizes.of_text("2, Bob 3", ("Ana", "Bob"))
>>> sizes.of("Ana"), sizes.of("Bob"), sizes.text()
(2, 3, '2, Bob 3')
>>> HandSizes.of_text("", ("Ana",)) == HandSizes()
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import InputError

__all__ = ["HOLE_CARDS", "MOST_CARDS", "HandSizes"]

HOLE_CARDS = 2  # what The Gang deals each player
MOST_CARDS = 10  # past this no hand of The Gang is dealt; a typo, not a house rule
_PART = re.compile(r"^(?:(?P<name>.*\S)\s+)?(?P<n>\d+)$")


@dataclass(frozen=True)
class HandSizes:
    """Everyone's hole cards (``each``), and the players dealt another number (by name)."""

    each: int = HOLE_CARDS
    by_player: tuple[tuple[str, int], ...] = ()

    def of(self, name: str) -> int:
        return dict(self.by_player).get(name, self.each)

    def text(self) -> str:
        """As the setup's field shows it: ``2``, or ``2, Bob 3``."""
        return ", ".join([str(self.each), *(f"{name} {n}" for name, n in self.by_player)])

    @classmethod
    def of_text(cls, text: str, players: Sequence[str]) -> HandSizes:
        """The sizes typed; empty text: The Gang's two each. A part that is no count, a name
        that is no player's or a count out of 1..``MOST_CARDS`` is refused by name."""
        each, by_player = HOLE_CARDS, dict[str, int]()
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            match = _PART.match(part)
            if match is None or not 1 <= int(match["n"]) <= MOST_CARDS:
                raise InputError("dealt.unreadable", part=part, most=MOST_CARDS)
            name, n = match["name"], int(match["n"])
            if name is None:
                each = n
            elif name not in players:
                raise InputError("dealt.no_player", name=name, players=", ".join(players))
            else:
                by_player[name] = n
        kept = tuple((name, n) for name, n in by_player.items() if n != each)
        return cls(each, kept)
