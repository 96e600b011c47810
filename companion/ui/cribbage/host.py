"""What the cribbage screen needs of the app's state (the app's ``AppState`` gives it)."""

from __future__ import annotations

from typing import Protocol, Self, TypeVar

from companion.ui.cribbage.state import CribbageState
from companion.ui.kit.page import Page

__all__ = ["CribbageHost", "H"]


class CribbageHost(Page, Protocol):
    @property
    def cribbage(self) -> CribbageState: ...

    def with_cribbage(self, cribbage: CribbageState) -> Self:
        """The screen's state changed, the banner cleared."""
        ...


H = TypeVar("H", bound=CribbageHost)
