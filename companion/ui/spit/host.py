"""What the Spit screen needs of the app's state (the app's ``AppState`` gives it)."""

from __future__ import annotations

from typing import Protocol, Self, TypeVar

from companion.ui.kit.page import Page
from companion.ui.spit.state import SpitScreen

__all__ = ["SpitHost", "H"]


class SpitHost(Page, Protocol):
    @property
    def spit(self) -> SpitScreen: ...

    def with_spit(self, spit: SpitScreen) -> Self: ...


H = TypeVar("H", bound=SpitHost)
