"""The game log: nights, heists, presets, photos, stats and exports, kept in SQLite.

>>> from companion.storage import SqliteGameLog, database_path  # doctest: +SKIP
>>> log = SqliteGameLog(database_path())                         # doctest: +SKIP
"""

from __future__ import annotations

from companion.storage.errors import (
    DatabaseUnavailableError,
    InvalidRecordError,
    NightFinishedError,
    NotFoundError,
    NothingToUndoError,
    OutsideDataFolderError,
)
from companion.storage.export import CsvExport
from companion.storage.log import SqliteGameLog
from companion.storage.migrations import SCHEMA_VERSION
from companion.storage.model import (
    ALARMS_TO_LOSE,
    VAULTS_TO_WIN,
    CribbageGame,
    Heist,
    HeistDraft,
    Night,
    NightStatus,
    Outcome,
    Preset,
    Verdict,
)
from companion.storage.paths import database_path, default_data_dir
from companion.storage.photos import PhotoStore
from companion.storage.protocol import GameLog
from companion.storage.stats import Record, Stats, Streaks, VariantDifficulty

__all__ = [
    "GameLog",
    "SqliteGameLog",
    "SCHEMA_VERSION",
    "VAULTS_TO_WIN",
    "ALARMS_TO_LOSE",
    "Night",
    "NightStatus",
    "Outcome",
    "Heist",
    "HeistDraft",
    "Verdict",
    "Preset",
    "CribbageGame",
    "PhotoStore",
    "CsvExport",
    "Stats",
    "Record",
    "Streaks",
    "VariantDifficulty",
    "default_data_dir",
    "database_path",
    "NightFinishedError",
    "NotFoundError",
    "NothingToUndoError",
    "InvalidRecordError",
    "OutsideDataFolderError",
    "DatabaseUnavailableError",
]
