"""What the replay screen needs of the app's state (the app's ``AppState`` gives it)."""

from __future__ import annotations

from typing import Protocol, Self, TypeVar

from companion.ui.kit.page import Page
from companion.ui.replay.state import ReplayState

__all__ = ["ReplayHost", "H"]


class ReplayHost(Page, Protocol):
    @property
    def replay(self) -> ReplayState | None: ...

    def with_replay(self, replay: ReplayState | None) -> Self: ...


H = TypeVar("H", bound=ReplayHost)
