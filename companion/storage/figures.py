"""The numbers History draws: the group's nights, its success by variant and by token rule,
and how well each player judges their hand.

Judging a token needs the engine's order, which the log never imports: the caller gives a
``Judge`` (``companion.formats.judging.judge_deal``) that reads a heist's deal and tokens into
fits (a hand's token and the tokens that would have fit it). A token's *miss* is how far it lay
outside its fits: 0 inside them (tied hands may take theirs in any order), positive when it
claimed a stronger hand than the hand was (over-claiming), negative when weaker
(under-claiming). A night's figure for a player is the mean over their tokens that night; a
player's figure over the log is the mean of their nights' figures, each night counting once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any, Protocol

from companion.storage.model import HeistDraft, NightStatus
from companion.storage.stats import heist_token_rule

__all__ = [
    "SHOWDOWN",
    "Fit",
    "Judge",
    "miss",
    "Judging",
    "NightScore",
    "Success",
    "PlayerJudging",
    "Figures",
    "night_judging",
    "compute_figures",
]

SHOWDOWN = "showdown"  # engine.gang.judging.SHOWDOWN (storage imports no engine): final tokens
STREETS = ("preflop", "flop", "turn", "river")


class Fit(Protocol):
    """A hand's token at a street and the lowest and highest tokens that fit the hand."""

    @property
    def hand_id(self) -> str: ...
    @property
    def street(self) -> str: ...
    @property
    def token(self) -> int: ...
    @property
    def lowest(self) -> int: ...
    @property
    def highest(self) -> int: ...


Judge = Callable[[Mapping[str, Any] | None, Mapping[str, int]], Sequence[Fit]]


def miss(token: int, lowest: int, highest: int) -> int:
    """How far ``token`` lies outside ``lowest..highest``: + over-claiming, - under-claiming.

    >>> miss(2, 2, 3), miss(5, 2, 3), miss(1, 2, 3)
    (0, 2, -1)
    """
    return token - highest if token > highest else min(token - lowest, 0)


@dataclass(frozen=True)
class Judging:
    """A player's tokens judged: how many, how many fit, the mean distance and the lean."""

    judged: int
    right: int
    distance: float  # mean of |miss|
    lean: float  # mean of miss: > 0 over-claims, < 0 under-claims

    @classmethod
    def of(cls, misses: Sequence[int]) -> Judging:
        return cls(len(misses), misses.count(0), fmean(map(abs, misses)), fmean(misses))

    @classmethod
    def over_nights(cls, nights: Sequence[Judging]) -> Judging:
        """Nights' figures together, each night counting once."""
        return cls(
            sum(n.judged for n in nights),
            sum(n.right for n in nights),
            fmean(n.distance for n in nights),
            fmean(n.lean for n in nights),
        )


@dataclass(frozen=True)
class NightScore:
    """A night's vaults and alarms, in the order the nights were played."""

    night_id: int
    vaults: int
    alarms: int


@dataclass(frozen=True)
class Success:
    """How often the vault opened for one variant, or under one token rule."""

    name: str
    heists: int
    vaults: int

    @property
    def rate(self) -> float:
        return self.vaults / self.heists


@dataclass(frozen=True)
class PlayerJudging:
    """One player's judging: over the log, night by night, and street by street."""

    player: str
    overall: Judging
    nights: tuple[tuple[int, Judging], ...]  # (night id, figure) in the order played
    streets: tuple[tuple[str, Judging], ...]  # only the streets some heist recorded


@dataclass(frozen=True)
class Figures:
    nights: tuple[NightScore, ...]
    by_variant: tuple[Success, ...]
    by_tokens: tuple[Success, ...]
    players: tuple[PlayerJudging, ...]


def night_judging(
    players: Sequence[str], heists: Sequence[HeistDraft], judge: Judge
) -> dict[str, dict[str, Judging]]:
    """A night's figures, by player (as the night wrote the name) and street: each hand a
    player owns is judged on its own token; a player sitting out a heist has no hand there."""
    names = {name.casefold(): name for name in players}
    misses: dict[str, dict[str, list[int]]] = {}
    for heist in heists:
        for fit in judge(heist.deal, heist.tokens):
            owner = heist.owners.get(fit.hand_id)
            name = names.get(owner.casefold()) if owner is not None else None
            if name is not None:
                by_street = misses.setdefault(name, {})
                by_street.setdefault(fit.street, []).append(
                    miss(fit.token, fit.lowest, fit.highest)
                )
    return {
        name: {street: Judging.of(found) for street, found in streets.items()}
        for name, streets in misses.items()
    }


def _success(counts: Mapping[str, list[bool]]) -> tuple[Success, ...]:
    found = [Success(name, len(opens), sum(opens)) for name, opens in counts.items()]
    return tuple(sorted(found, key=lambda s: (-s.heists, s.name)))


def _player(name: str, nights: Sequence[tuple[int, Mapping[str, Judging]]]) -> PlayerJudging:
    by_night = tuple((night, f[SHOWDOWN]) for night, f in nights if SHOWDOWN in f)
    streets = tuple(
        (street, Judging.over_nights([f[street] for _, f in nights if street in f]))
        for street in STREETS
        if any(street in f for _, f in nights)
    )
    overall = Judging.over_nights([f for _, f in by_night]) if by_night else Judging(0, 0, 0, 0)
    return PlayerJudging(name, overall, by_night, streets)


def compute_figures(
    logs: Sequence[tuple[NightStatus, Sequence[HeistDraft]]], judge: Judge | None
) -> Figures:
    """The figures of ``(night's status, its heists)`` pairs, in any order; without a judge,
    no player's judging."""
    ordered = sorted(logs, key=lambda pair: (pair[0].night.created_at, pair[0].night.id))
    by_variant: dict[str, list[bool]] = {}
    by_tokens: dict[str, list[bool]] = {}
    judged: dict[str, list[tuple[int, Mapping[str, Judging]]]] = {}
    spelled: dict[str, str] = {}  # a player as their last night wrote the name
    for status, heists in ordered:
        for heist in heists:
            by_variant.setdefault(status.night.variant, []).append(heist.verdict.opens)
            by_tokens.setdefault(heist_token_rule(heist), []).append(heist.verdict.opens)
        if judge is None:
            continue
        for name, figures in night_judging(status.night.players, heists, judge).items():
            judged.setdefault(name.casefold(), []).append((status.night.id, figures))
            spelled[name.casefold()] = name
    players = [_player(spelled[key], nights) for key, nights in judged.items()]
    return Figures(
        nights=tuple(NightScore(s.night.id, s.vaults, s.alarms) for s, _ in ordered),
        by_variant=_success(by_variant),
        by_tokens=_success(by_tokens),
        players=tuple(sorted(players, key=lambda p: p.player.casefold())),
    )
