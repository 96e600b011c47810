"""The heist replay screen's state: which saved heist, how far the replay has run, its result.

Plain frozen dataclasses, no Flet: every change returns a new value. A saved heist keeps its
whole deal (the table) and the final tokens; the replay is rebuilt from that deal.

>>> state = ReplayState(heist_id=7, number=2, night_id=1)
>>> state.running, state.progress
(True, 0.0)
>>> state.with_streets_done(2).progress
0.5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.engine.gang.replay.odds import (
    BestTokens,
    HandOdds,
    Method,
    Mistake,
    Replay,
    Street,
    chart_data,
)
from companion.engine.gang.replay.records import StoodStreet
from companion.errors import CompanionError
from companion.messages import Phrase
from companion.storage import Heist

__all__ = ["VIEWS", "ODDS_VIEWS", "STREETS", "StreetBars", "HandChart", "ReplayState"]

# By the odds, knowing every hole card / only the hand's own cards; by the hands as they stood.
VIEWS = ("everyone", "own", "stood")
ODDS_VIEWS = ("everyone", "own")
STREETS = tuple(Street)


@dataclass(frozen=True)
class StreetBars:
    """One hand at one street: the chance of each final position 1..N, and how it was found."""

    street: Street
    positions: tuple[float, ...]
    expected: float
    most_likely: int
    method: Method


@dataclass(frozen=True)
class HandChart:
    """What a hand's chart shows: one row of bars per street, and the token it took."""

    hand_id: str
    owner: str
    streets: tuple[StreetBars, ...]
    token: int | None  # the final token recorded, if any


def _bars(odds: HandOdds, street: Street, positions: list[float]) -> StreetBars:
    return StreetBars(street, tuple(positions), odds.expected, odds.most_likely, odds.method)


@dataclass(frozen=True)
class ReplayState:
    """A replay being run or shown: the heist, the streets done, then the replay or the error."""

    heist_id: int
    number: int  # the heist's number in its night
    night_id: int
    tokens: tuple[tuple[str, int], ...] = ()  # the final tokens, as saved
    streets_done: int = 0
    std_error: float = 0.0  # the largest standard error of the streets done (0: all exact)
    replay: Replay | None = None
    error: Phrase | None = None  # what stopped the replay
    view: str = "everyone"
    night_heists: tuple[tuple[int, int, bool], ...] = ()  # (id, number, opened) to pick from

    @classmethod
    def of(cls, heist: Heist, night_heists: tuple[Heist, ...] = ()) -> ReplayState:
        return cls(
            heist.id,
            heist.number,
            heist.night_id,
            tuple(heist.tokens.items()),
            night_heists=tuple((h.id, h.number, h.verdict.opens) for h in night_heists),
        )

    @property
    def running(self) -> bool:
        return self.replay is None and self.error is None

    @property
    def progress(self) -> float:
        return 1.0 if not self.running else self.streets_done / len(STREETS)

    def with_streets_done(self, n: int, std_error: float = 0.0) -> ReplayState:
        return replace(self, streets_done=n, std_error=max(self.std_error, std_error))

    def finished(self, replay: Replay) -> ReplayState:
        return replace(self, replay=replay, streets_done=len(replay.streets))

    def failed(self, error: CompanionError) -> ReplayState:
        return replace(self, error=error.phrase)

    def error_text(self, lang: str) -> str:
        return self.error.text(lang) if self.error is not None else ""

    def with_view(self, view: str) -> ReplayState:
        return replace(self, view=view if view in VIEWS else "everyone")

    def recorded_tokens(self, hand_ids: Mapping[str, object]) -> dict[str, int] | None:
        """The saved tokens, when every hand has one (else the replay shows no mistakes)."""
        tokens = dict(self.tokens)
        return tokens if tokens and set(tokens) == set(hand_ids) else None

    @property
    def by_odds(self) -> bool:
        """Whether the view shown is one of the odds' (else the hands as they stood)."""
        return self.view in ODDS_VIEWS

    def stood(self) -> tuple[StoodStreet, ...]:
        """Each street's hands as they stood, and the final tokens judged at the river."""
        return self.replay.stood if self.replay is not None else ()

    def charts(self) -> tuple[HandChart, ...]:
        """One chart per hand in seating order, for the chosen odds view (from ``chart_data``)."""
        if self.replay is None or not self.by_odds:
            return ()
        data = chart_data(self.replay)
        tokens = dict(self.tokens)
        result = []
        for hand in self.replay.hands:
            per_street = data[hand.id][self.view]
            bars = tuple(
                _bars(
                    next(h for h in getattr(odds, self.view) if h.hand_id == hand.id),
                    odds.street,
                    per_street[odds.street.value],
                )
                for odds in self.replay.streets
            )
            result.append(HandChart(hand.id, hand.owner, bars, tokens.get(hand.id)))
        return tuple(result)

    def methods(self) -> tuple[tuple[Street, Method], ...]:
        """How each street's numbers were found in this view: the least precise hand's."""
        if self.replay is None or not self.by_odds:
            return ()
        return tuple(
            (
                odds.street,
                max(
                    (h.method for h in getattr(odds, self.view)),
                    key=lambda m: (not m.exact, m.std_error),
                ),
            )
            for odds in self.replay.streets
        )

    def best_tokens(self) -> tuple[tuple[Street, BestTokens], ...]:
        """Each street's token assignment likeliest to open the vault (knowing every hole card,
        whichever view is shown), with the chance the recorded tokens had."""
        if self.replay is None:
            return ()
        return tuple(
            (odds.street, odds.best) for odds in self.replay.streets if odds.best is not None
        )

    def mistakes(self) -> tuple[Mistake, ...]:
        return self.replay.mistakes if self.replay is not None else ()
