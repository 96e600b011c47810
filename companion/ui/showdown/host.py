"""What the Showdown screen needs of the app's state (the app's ``AppState`` gives it)."""

from __future__ import annotations

from typing import Protocol, Self, TypeVar

from companion.storage import NightStatus, Preset
from companion.ui.kit.page import Page
from companion.ui.kit.services import Services
from companion.ui.showdown.state import ShowdownState

__all__ = ["ShowdownHost", "H"]


class ShowdownHost(Page, Protocol):
    @property
    def table(self) -> ShowdownState: ...

    @property
    def presets(self) -> tuple[Preset, ...]: ...

    def with_table(self, table: ShowdownState) -> Self:
        """The table changed, the banner cleared."""
        ...

    def with_presets(self, presets: tuple[Preset, ...]) -> Self: ...

    def with_next_night(self, services: Services) -> Self:
        """The group's next night started, once theirs is over (the Game night screen's:
        the same players, the table's variant and rules, the group's seats carried)."""
        ...

    def with_night_read(self, services: Services, status: NightStatus) -> Self:
        """The night as the log has it now, once a heist of it was saved (the Game night
        screen's reading: its heists, games and photos)."""
        ...


H = TypeVar("H", bound=ShowdownHost)
