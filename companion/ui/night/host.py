"""What the Game night screen needs of the app's state (the app's ``AppState`` gives it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

from companion.storage import CribbageGame, Heist, NightStatus
from companion.ui.kit.page import Page

__all__ = ["NightHost", "NightLog", "TableSetup", "H"]


@dataclass(frozen=True)
class TableSetup:
    """The table a night starts with: its players, its variant and its house rules (as saved)."""

    players: tuple[str, ...]
    variant: str
    rules: dict[str, Any]


@dataclass(frozen=True)
class NightLog:
    """A night as the log has it: its status, heists and cribbage games, its photos' thumbnails."""

    status: NightStatus
    heists: tuple[Heist, ...]
    games: tuple[CribbageGame, ...]
    thumbnails: tuple[tuple[str, bytes], ...]


class NightHost(Page, Protocol):
    @property
    def heists(self) -> tuple[Heist, ...]: ...

    @property
    def thumbnails(self) -> tuple[tuple[str, bytes], ...]: ...

    @property
    def night_cribbage(self) -> tuple[CribbageGame, ...]: ...

    def table_setup(self) -> TableSetup:
        """The table as set up now, for a night started with it."""
        ...

    def with_night_log(self, log: NightLog, fresh_table: bool) -> Self:
        """The night shown as ``log`` has it; a ``fresh_table`` takes its players and rules."""
        ...

    def without_night(self) -> Self: ...

    @property
    def closing_night(self) -> bool:
        """ "Close the night" was tapped: the screen asks whether to, before it does."""
        ...

    def with_closing_night(self, asked: bool) -> Self: ...


H = TypeVar("H", bound=NightHost)
