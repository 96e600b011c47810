"""What a heist replay answers: streets, settings, and the odds, tokens and mistakes it reports.

Plain frozen records, shared by the replay itself, its text (``replay_text``), the CLI and the
app, so none of them needs the enumeration code to read a result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from companion.engine.cards import Card
from companion.engine.gang.table import Hand

__all__ = [
    "Street",
    "Settings",
    "Method",
    "HandOdds",
    "StreetOdds",
    "BestTokens",
    "Mistake",
    "StoodHand",
    "StoodStreet",
    "Replay",
]


class Street(Enum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"

    @property
    def known(self) -> int:
        """How many cards of each river are public at this street."""
        return {"preflop": 0, "flop": 3, "turn": 4, "river": 5}[self.value]


@dataclass(frozen=True)
class Settings:
    """How hard to work: the Monte Carlo seed and sample cap, and the time budget per answer."""

    seed: int = 0
    samples: int = 30_000  # the most Monte Carlo samples per answer
    min_samples: int = 30  # fewest samples on the general path, however slow the variant
    budget_s: float = 2.0  # estimated seconds one answer may take on the general path
    fast_exact_limit: int = 2_200_000  # river completions the numpy path enumerates at most
    own_exact_limit: int = 200_000  # deals of unknown cards the numpy path enumerates at most
    numpy: bool = True  # False: every table through the variant's hand former (for checks)
    # Off the standard rules (``rule_path``): fives valued for an exact answer at most.
    rules_exact_limit: int = 3_000_000
    # The standard errors the numpy paths' sampling keeps within (up to ``samples``), knowing
    # every hole card and knowing one hand's own cards.
    everyone_error: float = 0.003
    own_error: float = 0.005


@dataclass(frozen=True)
class Method:
    """How a distribution was obtained: exact over ``count`` deals, or ``count`` seeded samples."""

    exact: bool
    count: int
    std_error: float  # largest standard error of any of its probabilities; 0 when exact
    seed: int | None = None


@dataclass(frozen=True)
class HandOdds:
    """A hand's final position (1 = weakest) as a probability per position."""

    hand_id: str
    owner: str
    positions: tuple[float, ...]  # positions[k] = P(final position k + 1)
    method: Method

    @property
    def expected(self) -> float:
        return sum((k + 1) * p for k, p in enumerate(self.positions))

    @property
    def most_likely(self) -> int:
        """The most likely final position (the lowest one on equal chances)."""
        best = max(self.positions)
        return next(k + 1 for k, p in enumerate(self.positions) if p >= best - 1e-12)


@dataclass(frozen=True)
class StreetOdds:
    street: Street
    board: tuple[Card, ...]  # the public cards of the river at this street
    board2: tuple[Card, ...]  # and of the second river, with two rivers
    everyone: tuple[HandOdds, ...]  # knowing every hole card
    own: tuple[HandOdds, ...]  # knowing only the hand's own cards
    tokens: Mapping[str, int] | None = None  # the tokens recorded at this street
    best: BestTokens | None = None  # the tokens likeliest to open the vault, knowing every card


@dataclass(frozen=True)
class BestTokens:
    """The token assignment likeliest to open the vault at a street, knowing every hole card.

    The vault opens when the hands, revealed by token, never get weaker (ties either way round);
    ``p_open`` is its chance over the street's deals, ``method`` how they were counted (its
    ``std_error`` is that of ``p_open``). ``complete`` is False when the search could not prove
    it best (``replay_tokens``: too many tied final orders to list). ``recorded_p_open``: the
    chance the tokens recorded at this street had, if any.
    """

    tokens: Mapping[str, int]
    p_open: float
    method: Method
    complete: bool = True
    recorded_p_open: float | None = None


@dataclass(frozen=True)
class Mistake:
    """A token far from the hand's most likely position at a street (knowing every hole card)."""

    street: Street
    hand_id: str
    token: int
    most_likely: int
    p_most_likely: float
    p_token: float
    own_p_token: float  # the token's chance from the hand's own cards alone

    @property
    def gap(self) -> float:
        return self.p_most_likely - self.p_token


@dataclass(frozen=True)
class StoodHand:
    """A hand as it stood at a street ("on ne joue pas au potentiel"), and its token's fit.

    ``lowest``..``highest`` are the tokens that fit it: tied hands may take their tokens in
    any order. ``should`` is the token it should have taken when its own does not fit.
    """

    hand: Hand  # its value as it stood
    lowest: int
    highest: int
    token: int | None = None
    should: int | None = None

    @property
    def agrees(self) -> bool:
        """Whether its token (if any) fits the hands as they stood."""
        return self.token is None or self.lowest <= self.token <= self.highest


@dataclass(frozen=True)
class StoodStreet:
    """The order of the hands as they stood at a street, and the tokens judged against it."""

    street: Street
    board: tuple[Card, ...]  # the public cards of the river at this street
    board2: tuple[Card, ...]  # and of the second river, with two rivers
    hands: tuple[StoodHand, ...]  # weakest first, tied hands in seating order
    tokens: Mapping[str, int] | None = None

    @property
    def disagreements(self) -> tuple[StoodHand, ...]:
        return tuple(h for h in self.hands if not h.agrees)

    def taker(self, token: int) -> StoodHand | None:
        """The hand that should have taken ``token`` in place of the one that did."""
        return next((h for h in self.hands if h.should == token), None)


@dataclass(frozen=True)
class Replay:
    hands: tuple[Hand, ...]  # the final hands, as at the showdown
    streets: tuple[StreetOdds, ...]
    mistakes: tuple[Mistake, ...]  # biggest first
    stood: tuple[StoodStreet, ...] = ()  # the hands as they stood, street by street
