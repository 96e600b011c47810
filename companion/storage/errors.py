"""Storage errors that reach players, coded like every ``companion.errors`` error.

The database-level ones (``DatabaseVersionError``, ``DatabaseDamagedError``) live in
``companion.errors``; their words, and these, in ``companion.messages`` (``log.*``).
"""

from __future__ import annotations

from typing import Any

from companion.errors import CompanionError
from companion.messages import Phrase, phrase

__all__ = [
    "NightFinishedError",
    "NotFoundError",
    "NothingToUndoError",
    "InvalidRecordError",
    "OutsideDataFolderError",
    "DatabaseUnavailableError",
]


class NightFinishedError(CompanionError, ValueError):
    """A heist sent to a night that already ended (3 vaults, 3 alarms, or closed by hand)."""

    def __init__(self, night: int, outcome: str) -> None:
        super().__init__("log.night_over", night=night, outcome=phrase(f"log.outcome_{outcome}"))


class NotFoundError(CompanionError, LookupError):
    """A night, preset, photo or game that the log does not hold; ``what`` is one of
    ``night``, ``preset``, ``photo``, ``game``."""

    def __init__(self, what: str, key: object) -> None:
        super().__init__("log.not_found", what=phrase(f"log.what_{what}"), key=key)


class NothingToUndoError(CompanionError, ValueError):
    """Undo asked on a night that has no heist."""

    def __init__(self, night: int) -> None:
        super().__init__("log.nothing_to_undo", night=night)


class InvalidRecordError(CompanionError, ValueError):
    """A night, heist, preset or game that cannot be saved as given: ``field`` says which
    field, the code and its parameters why."""

    def __init__(self, code: str, field: Phrase | str, **params: Any) -> None:
        super().__init__(code, field=field, **params)


class OutsideDataFolderError(CompanionError, ValueError):
    """A path that would lead outside the app's data folder: never read, never written."""

    def __init__(self, path: str, folder: str) -> None:
        super().__init__("log.outside_data_folder", path=path, folder=folder)


class DatabaseUnavailableError(CompanionError):
    """The game log exists but cannot be opened now (permissions, busy, missing folder);
    ``reason`` is SQLite's or the OS's words, or a ``log.*`` phrase."""

    def __init__(self, path: str, reason: Phrase | str) -> None:
        super().__init__("log.unavailable", path=path, reason=reason)
