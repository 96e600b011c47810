"""What the History screen needs of the app's state (the app's ``AppState`` gives it)."""

from __future__ import annotations

from typing import Protocol, Self, TypeVar

from companion.storage import Figures, Heist, NightStatus, Stats
from companion.ui.kit.page import Page

__all__ = ["HistoryHost", "H"]


class HistoryHost(Page, Protocol):
    @property
    def history(self) -> tuple[NightStatus, ...]: ...

    @property
    def stats(self) -> Stats | None: ...

    @property
    def figures(self) -> Figures | None: ...

    @property
    def play_links(self) -> tuple[tuple[int, str], ...]: ...

    @property
    def history_night(self) -> tuple[int, tuple[Heist, ...]] | None:
        """The past night whose heists are shown, with them."""
        ...

    def with_history_night(self, shown: tuple[int, tuple[Heist, ...]] | None) -> Self: ...


H = TypeVar("H", bound=HistoryHost)
