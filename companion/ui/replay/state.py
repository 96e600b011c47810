"""The heist replay screen's state: which saved heist, how far the replay has run, its result.

Plain frozen dataclasses, no Flet: every change returns a new value. A saved heist keeps the
cards of each hand, the river(s) and the final tokens; the night keeps the variant and the rules.
``heist_table_json`` puts them back together as ``companion showdown``'s table.

>>> state = ReplayState(heist_id=7, number=2, night_id=1)
>>> state.running, state.progress
(True, 0.0)
>>> state.with_streets_done(2).progress
0.5
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.gang.replay.odds import (
    BestTokens,
    HandOdds,
    Method,
    Mistake,
    Replay,
    Street,
    chart_data,
)
from companion.engine.gang.variants import VARIANTS
from companion.errors import CompanionError, TableError
from companion.storage import Heist, Night

__all__ = ["VIEWS", "STREETS", "StreetBars", "HandChart", "ReplayState", "heist_table_json"]

VIEWS = ("everyone", "own")  # knowing every hole card / only the hand's own cards
STREETS = tuple(Street)
_RULE_KEYS = ("ranking", "straights", "decks")


def _player_cards(heist: Heist, player: str) -> list[str]:
    """The cards of every hand the player owns, each card as often as one hand holds it.

    Split variants store only the cards each hand used, so a card two hands share (high-low)
    is the same card, and a card no hand used is lost (the caller checks the count).
    """
    held: Counter[str] = Counter()
    order: list[str] = []
    for hand_id, owner in heist.owners.items():
        if owner != player:
            continue
        for card, n in Counter(heist.hands[hand_id]).items():
            if card not in held:
                order.append(card)
            held[card] = max(held[card], n)
    return [card for card in order for _ in range(held[card])]


def heist_table_json(heist: Heist, night: Night) -> dict[str, Any]:
    """The saved heist as ``companion showdown``'s JSON table (without tokens).

    Raises ``TableError`` naming the player when the heist no longer holds all their cards
    (a split variant where a card played in no hand): the replay would be of another deal.
    """
    two_rivers = bool(night.rules.get("two_rivers", False))
    table: dict[str, Any] = {
        "variant": night.variant,
        "rules": {k: night.rules[k] for k in _RULE_KEYS if k in night.rules},
        "board": list(heist.river),
        "players": [{"name": p, "cards": _player_cards(heist, p)} for p in night.players],
    }
    want = VARIANTS[night.variant].hole_cards if night.variant in VARIANTS else None
    if two_rivers and night.variant == "classic":
        want = 2
    for player in table["players"]:
        if want is not None and len(player["cards"]) != want:
            name, n = player["name"], len(player["cards"])
            raise TableError(
                f"heist {heist.number} keeps {n} of {name}'s {want} cards (only those a hand "
                "used): it cannot be replayed",
                f"la manche {heist.number} ne garde que {n} des {want} cartes de {name} (celles "
                "qu'une main utilisait) : impossible de la rejouer",
            )
    if night.variant == "francois":
        given = heist.hands.get("francois", ())
        for player, card in zip(table["players"], given, strict=False):
            player["francois_card"] = card
    shared = [
        {"between": hand_id.split("+"), "cards": list(cards)}
        for hand_id, cards in heist.hands.items()
        if "+" in hand_id
    ]
    if shared:
        table["shared"] = shared
    if two_rivers:
        table["two_rivers"] = True
        table["board2"] = list(heist.board2 or ())
    return table


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
    replay: Replay | None = None
    error: tuple[tuple[str, str], ...] = ()  # (lang, message) of what stopped the replay
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
        return self.replay is None and not self.error

    @property
    def progress(self) -> float:
        return 1.0 if not self.running else self.streets_done / len(STREETS)

    def with_streets_done(self, n: int) -> ReplayState:
        return replace(self, streets_done=n)

    def finished(self, replay: Replay) -> ReplayState:
        return replace(self, replay=replay, streets_done=len(replay.streets))

    def failed(self, error: CompanionError) -> ReplayState:
        return replace(self, error=(("en", error.message("en")), ("fr", error.message("fr"))))

    def error_text(self, lang: str) -> str:
        return dict(self.error).get(lang, "") if self.error else ""

    def with_view(self, view: str) -> ReplayState:
        return replace(self, view=view if view in VIEWS else "everyone")

    def recorded_tokens(self, hand_ids: Mapping[str, object]) -> dict[str, int] | None:
        """The saved tokens, when every hand has one (else the replay shows no mistakes)."""
        tokens = dict(self.tokens)
        return tokens if tokens and set(tokens) == set(hand_ids) else None

    def charts(self) -> tuple[HandChart, ...]:
        """One chart per hand in seating order, for the chosen view (from ``chart_data``)."""
        if self.replay is None:
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
        if self.replay is None:
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
