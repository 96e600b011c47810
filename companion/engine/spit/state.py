"""Spit's values: variants, the position, the moves, and dealing a layout.

The rules that use them live in ``spit_rules`` (legality) and ``spit`` (applying moves), which
re-exports everything here; import from ``companion.engine.spit``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from enum import Enum

from companion.engine.cards import DECK, Card, Suit
from companion.errors import IllegalMoveError, TableError
from companion.messages import Phrase, phrase

__all__ = [
    "PLAYERS",
    "Piles",
    "PileChoice",
    "SpitRules",
    "CLASSIC",
    "VARIANTS",
    "combined",
    "rules_title",
    "SPEED_HAND",
    "HIDDEN",
    "Phase",
    "Stock",
    "PlayerSide",
    "SpitState",
    "Play",
    "Turn",
    "Shift",
    "Spit",
    "Take",
    "Deal",
    "Recycle",
    "Move",
    "lay_out",
    "start_state",
    "new_game",
    "can_stack",
    "all_cards",
]

PLAYERS = (0, 1)
Piles = tuple[tuple[Card, ...], tuple[Card, ...]]


class PileChoice(Enum):
    """Who decides which centre pile each player takes at a new layout."""

    SLAP = "slap"  # the faster slap takes the pile it lands on (the smaller is the better)
    CHOOSER = "chooser"  # the player who emptied their stock picks


@dataclass(frozen=True, slots=True)
class SpitRules:
    """A Spit variant: each house rule is a switch."""

    name: str
    stock_piles: int = 5
    alternate_colours: bool = False
    pile_choice: PileChoice = PileChoice.SLAP
    speed: bool = False
    speed_cards: int = 15  # Speed: the cards each player gets (5 in hand, the rest to draw)


CLASSIC = SpitRules("classic")
VARIANTS: dict[str, SpitRules] = {
    rules.name: rules
    for rules in (
        CLASSIC,
        SpitRules("four-stocks", stock_piles=4),
        SpitRules("alternate", alternate_colours=True),
        SpitRules("chooser", pile_choice=PileChoice.CHOOSER),
        SpitRules("speed", speed=True),
        SpitRules("speed-20", speed=True, speed_cards=20),
    )
}
# Speed deals no stock row and lays out no new rounds: these switches mean nothing there.
_CLASHES = {
    frozenset({speed, other})
    for speed in ("speed", "speed-20")
    for other in ("four-stocks", "chooser", "speed", "speed-20")
    if speed != other
}


def combined(names: str) -> SpitRules:
    """The variations named, joined by ``+`` (``four-stocks+alternate``), played together.

    >>> rules = combined("alternate+four-stocks")
    >>> rules.name, rules.stock_piles, rules.alternate_colours
    ('four-stocks+alternate', 4, True)
    """
    parts = [part.strip() for part in names.split("+")]
    for part in parts:
        if part not in VARIANTS:
            raise TableError("spit.variant_unknown", variant=part, known=tuple(VARIANTS))
    chosen = [name for name in VARIANTS if name in parts and name != "classic"]
    for a, b in itertools.combinations(chosen, 2):
        if frozenset({a, b}) in _CLASHES:
            raise TableError(
                "spit.variants_clash", a=phrase(f"spit_v_{a}"), b=phrase(f"spit_v_{b}")
            )
    if not chosen:
        return CLASSIC
    switches = {
        field: value
        for name in chosen
        for field, value in asdict(VARIANTS[name]).items()
        if field != "name" and value != getattr(CLASSIC, field)
    }
    return replace(CLASSIC, name="+".join(chosen), **switches)


def rules_title(rules: SpitRules) -> tuple[Phrase, ...]:
    """The variations of ``rules`` in words, for players: ``four stocks and alternate colours``."""
    return tuple(phrase(f"spit_v_{name}") for name in rules.name.split("+"))


# Speed's hand; its deal: ``SpitRules.speed_cards`` each, the rest in two side piles, each topped
# by the centre card the first spit turns up (15 each and 10 + 1 a side, or 20 and 5 + 1).
SPEED_HAND = 5

# An unknown face-down card, for positions typed by hand (the referee); never in a dealt game.
HIDDEN = Card(None, None)


class Phase(Enum):
    PLAY = "play"
    TAKE = "take"  # the round is over: piles are slapped for (or chosen)
    DEAL = "deal"  # chance: each player shuffles their cards and lays out
    RECYCLE = "recycle"  # chance (Speed): the centre is shuffled into new side piles
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Stock:
    """One stock space: cards bottom to top; only the top card can be face up."""

    cards: tuple[Card, ...] = ()
    face_up: bool = False

    @property
    def top(self) -> Card | None:
        """The face-up top card, or None when the space is empty or its top is face down."""
        return self.cards[-1] if self.cards and self.face_up else None


@dataclass(frozen=True, slots=True)
class PlayerSide:
    """One player's cards: stock spaces (Speed: the hand) and spit cards (Speed: the draw pile)."""

    stocks: tuple[Stock, ...]
    spit: tuple[Card, ...] = ()  # face down; the next one is the last

    @property
    def stock_count(self) -> int:
        return sum(len(stock.cards) for stock in self.stocks)


@dataclass(frozen=True, slots=True)
class SpitState:
    """A whole Spit position. ``live`` is the only live pile once a player spits alone."""

    rules: SpitRules
    players: tuple[PlayerSide, PlayerSide]
    piles: Piles = ((), ())
    phase: Phase = Phase.PLAY
    live: int | None = None
    side_piles: Piles = ((), ())
    emptied: int | None = None  # who emptied their stock, ending the round
    gathered: Piles = ((), ())  # DEAL: cards to lay out
    winner: int | None = None
    round: int = 1


@dataclass(frozen=True, slots=True)
class Play:
    """Play the face-up top of stock space ``stock`` onto centre pile ``pile``."""

    player: int
    stock: int
    pile: int


@dataclass(frozen=True, slots=True)
class Turn:
    """Turn up the face-down top card of a stock space."""

    player: int
    stock: int


@dataclass(frozen=True, slots=True)
class Shift:
    """Move a face-up top card to an empty stock space, uncovering the card below."""

    player: int
    source: int
    target: int


@dataclass(frozen=True, slots=True)
class Spit:
    """Both stuck: each player flips a spit card; ``pile`` is where a lone spitter spits."""

    pile: int | None = None


@dataclass(frozen=True, slots=True)
class Take:
    """Round over: ``player`` won the slap for (or chose) ``pile``; the other takes the other."""

    player: int
    pile: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: each player's gathered cards in their shuffled order, dealt into a new layout."""

    orders: Piles


@dataclass(frozen=True, slots=True)
class Recycle:
    """Chance (Speed): the centre cards under the tops, shuffled, become the two side piles."""

    order: tuple[Card, ...]


Move = Play | Turn | Shift | Spit | Take | Deal | Recycle


# ---------------------------------------------------------------------------------------------
# Dealing


def lay_out(cards: tuple[Card, ...], rules: SpitRules) -> PlayerSide:
    """Deal one player's cards: stock row by row, the rest as spit cards (Speed: hand + draw)."""
    n = rules.stock_piles
    if rules.speed:
        hand = tuple(Stock((card,), True) for card in cards[:n])
        return PlayerSide(hand + (Stock(),) * (n - len(hand)), cards[n:])
    spaces: list[list[Card]] = [[] for _ in range(n)]
    dealt = 0
    for row in range(n):
        for space in range(row, n):
            if dealt < len(cards):
                spaces[space].append(cards[dealt])
                dealt += 1
    stocks = tuple(Stock(tuple(space), bool(space)) for space in spaces)
    return PlayerSide(stocks, cards[dealt:])


def start_state(rules: SpitRules, deck: Iterable[Card]) -> SpitState:
    """The first position from a shuffled deck: dealt alternately, as at the table.

    >>> state = start_state(VARIANTS["classic"], DECK)
    >>> [len(side.spit) for side in state.players], state.players[0].stocks[0].top
    ([11, 11], Card(rank=<Rank.TWO: 0>, suit=<Suit.SPADES: 0>))
    """
    order = tuple(deck)
    if len(order) != 52 or frozenset(order) != frozenset(DECK):
        raise IllegalMoveError("spit", "deal_cards", words="spit.deal_deck")
    if not rules.speed:
        players = (lay_out(order[0::2], rules), lay_out(order[1::2], rules))
        return SpitState(rules, players)
    per_player = rules.speed_cards
    players = (
        lay_out(order[:per_player], rules),
        lay_out(order[per_player : 2 * per_player], rules),
    )
    rest = order[2 * per_player :]
    side = len(rest) // 2  # each side pile's top is the centre card the first spit turns up
    return SpitState(rules, players, side_piles=(rest[:side], rest[side:]))


def new_game(rules: SpitRules, rng: random.Random) -> SpitState:
    """A freshly shuffled game."""
    deck = list(DECK)
    rng.shuffle(deck)
    return start_state(rules, deck)


def _is_red(card: Card) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS)


def can_stack(card: Card, on: Card, rules: SpitRules) -> bool:
    """Whether ``card`` may go on ``on``: one rank apart, turning the corner (A on K or 2).

    >>> from companion.engine.cards import parse_card as c
    >>> can_stack(c("Ks"), c("Ah"), CLASSIC), can_stack(c("2s"), c("Ah"), CLASSIC)
    (True, True)
    >>> can_stack(c("Ks"), c("Kh"), CLASSIC), can_stack(c("5s"), c("4c"), VARIANTS["alternate"])
    (False, False)
    """
    if card.rank is None or on.rank is None:
        return False
    if (card.rank - on.rank) % 13 not in (1, 12):
        return False
    return not rules.alternate_colours or _is_red(card) != _is_red(on)


def all_cards(state: SpitState) -> tuple[Card, ...]:
    """Every card in the position, wherever it lies (the simulator checks there are 52)."""
    cards: list[Card] = []
    for side in state.players:
        for stock in side.stocks:
            cards.extend(stock.cards)
        cards.extend(side.spit)
    for group in (state.piles, state.side_piles, state.gathered):
        for pile in group:
            cards.extend(pile)
    return tuple(cards)
