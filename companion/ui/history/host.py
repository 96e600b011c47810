"""What the History screen needs of the app's state (the app's ``AppState`` gives it)."""

from __future__ import annotations

from typing import Protocol, TypeVar

from companion.storage import NightStatus, Stats
from companion.ui.page import Page

__all__ = ["HistoryHost", "H"]


class HistoryHost(Page, Protocol):
    @property
    def history(self) -> tuple[NightStatus, ...]: ...

    @property
    def stats(self) -> Stats | None: ...

    @property
    def play_links(self) -> tuple[tuple[int, str], ...]: ...


H = TypeVar("H", bound=HistoryHost)
