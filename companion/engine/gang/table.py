"""What a showdown of The Gang holds: the players and their cards, the river(s), shared hands;
and the hands that take tokens.

Plain frozen values: the variant's registry (``variants``) says how a table's cards form hands,
``checks`` whether a table fits its variant.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.cards import Card
from companion.engine.gang.ranking import HandValue, TableRules
from companion.engine.names import same_name

__all__ = ["Player", "SharedHand", "Table", "Hand", "FRANCOIS"]

FRANCOIS = "francois"  # the hand id of the cards given to François (a player name it may not be)


@dataclass(frozen=True)
class Player:
    name: str  # kept in one spelling (``names.same_name``): a hand id and a token key
    cards: tuple[Card, ...]
    francois_card: Card | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", same_name(self.name))


@dataclass(frozen=True)
class SharedHand:
    """A hand lying between two neighbours in the circular variant."""

    between: tuple[str, str]
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "between", tuple(same_name(name) for name in self.between))

    @property
    def id(self) -> str:
        return "+".join(self.between)


@dataclass(frozen=True)
class Table:
    """Everything revealed at a showdown."""

    players: tuple[Player, ...]
    board: tuple[Card, ...]
    variant: str = "classic"
    rules: TableRules = field(default_factory=TableRules)
    two_rivers: bool = False
    board2: tuple[Card, ...] = ()
    shared: tuple[SharedHand, ...] = ()
    burned: tuple[Card, ...] = ()  # the three burned cards, when the table keeps them (le chien)

    @property
    def rivers(self) -> tuple[tuple[Card, ...], ...]:
        """The river, and the second one when the table plays two."""
        return (self.board, self.board2) if self.two_rivers else (self.board,)


@dataclass(frozen=True)
class Hand:
    """One hand that takes a token: its id, whose it is, its value and the river it plays on."""

    id: str
    owner: str
    value: HandValue
    river: int = 1
