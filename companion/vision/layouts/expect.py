"""What a table of The Gang should hold on a photo: ``5+4x2`` is a river of five and four
hands of two; ``5+3x4`` a 4-card variant. The reader looks again where a read does not fit, and
the layout reports what still does not (``Grouping.missing`` and ``Grouping.extra``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.errors import InputError

__all__ = ["Expect", "Fit", "parse_expect", "MAX_EXPECTED_HANDS", "MAX_HAND_CARDS"]

# A table of The Gang seats at most a dozen players with at most six hole cards each (the
# largest variants); a layout past that is a typo, not a table.
MAX_EXPECTED_HANDS = 12
MAX_HAND_CARDS = 6
_PATTERN = re.compile(r"\s*(\d{1,2})\s*\+\s*(\d{1,2})\s*[xX×]\s*(\d{1,2})\s*")


@dataclass(frozen=True, slots=True)
class Expect:
    """A river of ``river`` cards and ``hands`` hands of ``per_hand`` cards each (no hands: a
    river laid before the showdown; at least one card in all)."""

    river: int
    hands: int
    per_hand: int

    def __post_init__(self) -> None:
        if not (
            0 <= self.river <= 5
            and 0 <= self.hands <= MAX_EXPECTED_HANDS
            and 1 <= self.per_hand <= MAX_HAND_CARDS
            and self.cards > 0
        ):
            raise InputError("vision.bad_expect", text=str(self))

    def __str__(self) -> str:
        return f"{self.river}+{self.hands}x{self.per_hand}"

    @property
    def cards(self) -> int:
        return self.river + self.hands * self.per_hand


@dataclass(frozen=True, slots=True)
class Fit:
    """Cards per place against an ``Expect``: ``river`` and one count per expected hand (a
    hand not found at all counts all its cards), in the grouping's hand order."""

    river: int
    hands: tuple[int, ...]

    def __bool__(self) -> bool:
        return self.river > 0 or any(self.hands)

    def to_json(self) -> dict[str, object]:
        return {"river": self.river, "hands": list(self.hands)}


def parse_expect(text: str) -> Expect:
    """``"5+4x2"`` -> ``Expect(5, 4, 2)``; anything else is an ``InputError`` naming the text.

    >>> parse_expect("5+4x2")
    Expect(river=5, hands=4, per_hand=2)
    """
    match = _PATTERN.fullmatch(text)
    if match is None:
        raise InputError("vision.bad_expect", text=text[:40])
    river, hands, per_hand = (int(g) for g in match.groups())
    return Expect(river, hands, per_hand)
