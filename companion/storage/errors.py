"""Storage errors that reach players, coded like every ``companion.errors`` error.

The database-level ones (``DatabaseVersionError``, ``DatabaseDamagedError``) live in
``companion.errors``; their words, and these, in ``companion.messages`` (``log.*``).
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.errors import CompanionError, DatabaseDamagedError
from companion.messages import Phrase, phrase

__all__ = [
    "NightFinishedError",
    "NotFoundError",
    "NothingToUndoError",
    "InvalidRecordError",
    "OutsideDataFolderError",
    "DatabaseUnavailableError",
    "DataFolderError",
    "DamagedRecordError",
    "UnreadableRowError",
    "MigrationRefusedError",
    "StorageWriteError",
    "storage_errors",
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


class DataFolderError(CompanionError):
    """A data folder that cannot be made or used (a file of that name, a read-only disk)."""

    def __init__(self, folder: str, reason: Phrase | str) -> None:
        super().__init__("log.folder_unusable", path=folder, reason=reason, env="COMPANION_DATA")


class DamagedRecordError(CompanionError, ValueError):
    """A row SQLite reads but Companion cannot (a field that is not JSON, a date that is not
    one): ``what`` is ``night``, ``heist`` or ``game``, ``field`` the column."""

    def __init__(self, what: str, key: object, field: Phrase | str) -> None:
        super().__init__(
            "log.damaged_record", what=phrase(f"log.what_{what}"), key=key, field=field
        )


class UnreadableRowError(CompanionError, ValueError):
    """A row that a migration must rewrite and cannot read: JSON of the right kinds holding
    what neither a release wrote nor the formats allow (cards that are a number)."""

    def __init__(self, what: str, key: object, field: Phrase | str) -> None:
        super().__init__(
            "log.unreadable_row", what=phrase(f"log.what_{what}"), key=key, field=field
        )


class MigrationRefusedError(CompanionError):
    """A migration stopped by an unreadable row: rolled back whole, the file left as it was."""

    def __init__(self, path: str, found: int, known: int, row: UnreadableRowError) -> None:
        super().__init__(
            "log.migration_refused", path=path, found=found, known=known, row=row.phrase
        )


class StorageWriteError(CompanionError, OSError):
    """A change the game log could not make (disk full, read-only file, I/O error): it was
    rolled back whole, and everything saved before it is kept; ``reason`` is a ``log.*``
    phrase or the system's words."""

    def __init__(self, path: str, reason: Phrase | str) -> None:
        super().__init__("log.write_failed", path=path, reason=reason)


# SQLite's primary result codes (the low byte of an extended one) said in words.
_SQLITE_REASONS = {
    sqlite3.SQLITE_FULL: "log.reason_full",
    sqlite3.SQLITE_READONLY: "log.reason_readonly",
    sqlite3.SQLITE_BUSY: "log.reason_busy",
    sqlite3.SQLITE_LOCKED: "log.reason_busy",
    sqlite3.SQLITE_IOERR: "log.reason_io",
    sqlite3.SQLITE_CANTOPEN: "log.reason_cannot_open",
    sqlite3.SQLITE_PERM: "log.reason_readonly",
}
_OS_REASONS = {
    errno.ENOSPC: "log.reason_full",
    errno.EDQUOT: "log.reason_full",
    errno.EROFS: "log.reason_readonly",
    errno.EACCES: "log.reason_readonly",
    errno.EPERM: "log.reason_readonly",
    errno.EIO: "log.reason_io",
}


def _reason(key: str | None, words: str) -> Phrase | str:
    return phrase(key) if key is not None else words


@contextmanager
def storage_errors(path: str) -> Iterator[None]:
    """The one place where SQLite's and the OS's storage failures become coded errors.

    Bugs (a wrong query, a broken constraint) are not translated: they must surface as such.
    """
    try:
        yield
    except sqlite3.OperationalError as error:
        code = getattr(error, "sqlite_errorcode", None)
        key = _SQLITE_REASONS.get(code & 0xFF) if isinstance(code, int) else None
        raise StorageWriteError(path, _reason(key, str(error))) from error
    except sqlite3.DatabaseError as error:
        if type(error) is not sqlite3.DatabaseError:
            raise  # IntegrityError, ProgrammingError...: a bug, not the disk
        raise DatabaseDamagedError(path, str(error)) from error
    except OSError as error:
        if isinstance(error, CompanionError) or error.errno not in _OS_REASONS:
            raise
        raise StorageWriteError(path, phrase(_OS_REASONS[error.errno])) from error
