"""Statistics over the game log, as pure functions of the nights and their heists."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.storage.model import HeistDraft, Night, Outcome

__all__ = [
    "BASE_TOKENS",
    "Record",
    "Streaks",
    "VariantDifficulty",
    "Stats",
    "compute_stats",
    "longest_streaks",
    "heist_token_rule",
    "night_token_rule",
]

BASE_TOKENS = "base"  # the token rule of tables saved without one


def _token_rule(rules: object) -> str:
    value = rules.get("tokens", BASE_TOKENS) if isinstance(rules, Mapping) else BASE_TOKENS
    return value if isinstance(value, str) else BASE_TOKENS


def heist_token_rule(heist: HeistDraft) -> str:
    """The token rule a heist was played under: its deal's (``rules.tokens``), else base."""
    return _token_rule(heist.deal.get("rules") if heist.deal is not None else None)


def night_token_rule(night: Night) -> str:
    """The token rule a night started with."""
    return _token_rule(night.rules)


@dataclass(frozen=True)
class Record:
    """Nights won, lost and abandoned; the win rate counts only nights that ended by the score."""

    won: int = 0
    lost: int = 0
    abandoned: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None

    def add(self, outcome: Outcome) -> Record:
        return Record(
            self.won + (outcome is Outcome.WON),
            self.lost + (outcome is Outcome.LOST),
            self.abandoned + (outcome is Outcome.ABANDONED),
        )


@dataclass(frozen=True)
class Streaks:
    """Longest runs of successes and of failures, and the run going on now (+ wins, - losses)."""

    longest_wins: int = 0
    longest_losses: int = 0
    current: int = 0


@dataclass(frozen=True)
class VariantDifficulty:
    """How often the vault opened in a variant under one token rule, over all its heists."""

    variant: str
    heists: int
    vaults: int
    tokens: str = BASE_TOKENS

    @property
    def vault_rate(self) -> float:
        return self.vaults / self.heists


@dataclass(frozen=True)
class Stats:
    """Everything the history screen shows."""

    overall: Record
    by_variant: Mapping[str, Record]
    by_group: Mapping[tuple[str, ...], Record]
    group_names: Mapping[tuple[str, ...], tuple[str, ...]]  # key -> names as last written
    night_streaks: Streaks
    heist_streaks: Streaks
    hardest_variants: tuple[VariantDifficulty, ...]


def longest_streaks(results: Sequence[bool]) -> Streaks:
    """Runs in a sequence of successes (True) and failures (False).

    >>> longest_streaks([True, True, False, True, True, True, False])
    Streaks(longest_wins=3, longest_losses=1, current=-1)
    """
    wins = losses = current = 0
    for success in results:
        if success:
            current = current + 1 if current > 0 else 1
            wins = max(wins, current)
        else:
            current = current - 1 if current < 0 else -1
            losses = max(losses, -current)
    return Streaks(wins, losses, current)


def compute_stats(nights: Sequence[tuple[Night, Sequence[HeistDraft]]]) -> Stats:
    """Stats of ``(night, its heists in order)`` pairs, in any order."""
    ordered = sorted(nights, key=lambda pair: (pair[0].created_at, pair[0].id))
    overall = Record()
    by_variant: dict[str, Record] = {}
    by_group: dict[tuple[str, ...], Record] = {}
    group_names: dict[tuple[str, ...], tuple[str, ...]] = {}
    heists: dict[tuple[str, str], list[bool]] = {}
    for night, played in ordered:
        for heist in played:
            kind = (night.variant, heist_token_rule(heist))
            heists.setdefault(kind, []).append(heist.verdict.opens)
        if night.outcome is Outcome.OPEN:
            continue
        overall = overall.add(night.outcome)
        by_variant[night.variant] = by_variant.get(night.variant, Record()).add(night.outcome)
        by_group[night.group] = by_group.get(night.group, Record()).add(night.outcome)
        group_names[night.group] = tuple(sorted(night.players, key=str.casefold))
    # Nights count in the order they ended; abandoned ones neither extend nor break a streak.
    ended = sorted(
        (pair[0] for pair in ordered if pair[0].outcome.decided),
        key=lambda night: (night.closed_at or night.created_at, night.id),
    )
    difficulty = [
        VariantDifficulty(variant, len(results), sum(results), tokens)
        for (variant, tokens), results in heists.items()
        if results
    ]
    difficulty.sort(key=lambda d: (d.vault_rate, -d.heists, d.variant, d.tokens))
    return Stats(
        overall=overall,
        by_variant=MappingProxyType(by_variant),
        by_group=MappingProxyType(by_group),
        group_names=MappingProxyType(group_names),
        night_streaks=longest_streaks([night.outcome is Outcome.WON for night in ended]),
        heist_streaks=longest_streaks([h.verdict.opens for _, played in ordered for h in played]),
        hardest_variants=tuple(difficulty),
    )
