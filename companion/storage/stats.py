"""Statistics over the game log, as pure functions of the nights and their heists."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.storage.model import Night, Outcome

__all__ = ["Record", "Streaks", "VariantDifficulty", "Stats", "compute_stats", "longest_streaks"]


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
    """How often the vault opened in a variant, over all its heists."""

    variant: str
    heists: int
    vaults: int

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


def compute_stats(nights: Sequence[tuple[Night, Sequence[bool]]]) -> Stats:
    """Stats of ``(night, [vault opened?] per heist in order)`` pairs, in any order."""
    ordered = sorted(nights, key=lambda pair: (pair[0].created_at, pair[0].id))
    overall = Record()
    by_variant: dict[str, Record] = {}
    by_group: dict[tuple[str, ...], Record] = {}
    group_names: dict[tuple[str, ...], tuple[str, ...]] = {}
    heists: dict[str, list[bool]] = {}
    for night, opens in ordered:
        heists.setdefault(night.variant, []).extend(opens)
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
        VariantDifficulty(variant, len(results), sum(results))
        for variant, results in heists.items()
        if results
    ]
    difficulty.sort(key=lambda d: (d.vault_rate, -d.heists, d.variant))
    return Stats(
        overall=overall,
        by_variant=MappingProxyType(by_variant),
        by_group=MappingProxyType(by_group),
        group_names=MappingProxyType(group_names),
        night_streaks=longest_streaks([night.outcome is Outcome.WON for night in ended]),
        heist_streaks=longest_streaks([opened for _, opens in ordered for opened in opens]),
        hardest_variants=tuple(difficulty),
    )
