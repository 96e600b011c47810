"""Storage errors that reach players, in English and French.

They extend ``companion.errors``; the database-level ones (``DatabaseVersionError``,
``DatabaseDamagedError``) live there already.
"""

from __future__ import annotations

from companion.errors import CompanionError

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

    code = "night_finished"
    templates = {
        "en": "game night {night} is over ({outcome}); start a new night to log more heists",
        "fr": "la soirée {night} est terminée ({outcome_fr}) ; commencez une nouvelle soirée "
        "pour noter d'autres casses",
    }

    def __init__(self, night: int, outcome: str, outcome_fr: str) -> None:
        super().__init__(night=night, outcome=outcome, outcome_fr=outcome_fr)


class NotFoundError(CompanionError, LookupError):
    """A night, preset, photo or game that the log does not hold."""

    code = "not_found"
    templates = {
        "en": "no {what} {key!r} in the game log",
        "fr": "aucun·e {what_fr} {key!r} dans le journal des parties",
    }

    def __init__(self, what: str, what_fr: str, key: object) -> None:
        super().__init__(what=what, what_fr=what_fr, key=key)


class NothingToUndoError(CompanionError, ValueError):
    """Undo asked on a night that has no heist."""

    code = "nothing_to_undo"
    templates = {
        "en": "game night {night} has no heist to undo",
        "fr": "la soirée {night} n'a aucun casse à annuler",
    }

    def __init__(self, night: int) -> None:
        super().__init__(night=night)


class InvalidRecordError(CompanionError, ValueError):
    """A night, heist, preset or game that cannot be saved as given; says which field and why."""

    code = "invalid_record"
    templates = {"en": "{field}: {detail}", "fr": "{field} : {detail_fr}"}

    def __init__(self, field: str, detail: str, detail_fr: str) -> None:
        super().__init__(field=field, detail=detail, detail_fr=detail_fr)


class OutsideDataFolderError(CompanionError, ValueError):
    """A path that would lead outside the app's data folder: never read, never written."""

    code = "outside_data_folder"
    templates = {
        "en": "{path} is outside the data folder {folder}; it was not touched",
        "fr": "{path} est hors du dossier de données {folder} ; il n'a pas été touché",
    }

    def __init__(self, path: str, folder: str) -> None:
        super().__init__(path=path, folder=folder)


class DatabaseUnavailableError(CompanionError):
    """The game log exists but cannot be opened now (permissions, busy, missing folder)."""

    code = "database_unavailable"
    templates = {
        "en": "cannot open the game log {path} ({reason})",
        "fr": "impossible d'ouvrir le journal des parties {path} ({reason})",
    }

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path=path, reason=reason)
