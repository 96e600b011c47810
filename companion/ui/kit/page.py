"""What every screen reads of the app's state and the changes it may ask of it, as a Protocol.

The app's state (``ui/shell/state.py``) sits above the screens and holds each one's own state;
a screen knows it only through this and its own host protocol (``ui/<screen>/host.py``), so
that no screen imports the app or another screen.
"""

from __future__ import annotations

from typing import Protocol, Self

from companion.storage import GameLog, NightStatus
from companion.ui.kit.banner import Banner

__all__ = ["Page"]


class Page(Protocol):
    """The page as every screen sees it: its language, its banner, the game night under way."""

    @property
    def lang(self) -> str: ...

    @property
    def banner(self) -> Banner | None: ...

    @property
    def vision_note(self) -> Banner | None:
        """Why photos cannot be read now, when they cannot."""
        ...

    @property
    def night(self) -> NightStatus | None: ...

    def with_banner(self, banner: Banner | None) -> Self: ...

    def with_night_status(self, status: NightStatus | None) -> Self:
        """The night under way as the log now says it (its seats, its score)."""
        ...

    def with_history_of(self, log: GameLog) -> Self:
        """The past nights and the stats as ``log`` has them now (another phone may have
        saved a heist meanwhile)."""
        ...

    def with_vision_off(self, note: Banner | None) -> Self:
        """Photos cannot be read now (``note``: why): kept, and said in the banner."""
        ...

    def go(self, screen: str) -> Self: ...
