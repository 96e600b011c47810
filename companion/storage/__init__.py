"""The game log: nights, heists, presets, photos, stats and exports, kept in SQLite.

>>> import tempfile
>>> log = SqliteGameLog.in_folder(tempfile.mkdtemp())  # the app passes --data, or None
>>> night = log.start_night(["Ann", "Bob", "Cy"], "classic", rules={"decks": 1})
>>> draft = HeistDraft(
...     river=("As", "Kd", "Qh", "7c", "2s"),
...     hands={"h1": ("Ah", "Ad"), "h2": ("10h", "9h"), "h3": ("3c", "2c")},
...     owners={"h1": "Ann", "h2": "Bob", "h3": "Cy"},
...     tokens={"h1": 3, "h2": 2, "h3": 1},
...     verdict=Verdict(opens=True),
...     photo=log.store_photo(b"...jpeg bytes..."),
... )
>>> log.save_heist(night.id, draft).number
1
>>> status = log.night_status(night.id)
>>> status.vaults, status.alarms, status.outcome
(1, 0, <Outcome.OPEN: 'open'>)
>>> log.close()
"""

from __future__ import annotations

from companion.storage.errors import (
    DamagedRecordError,
    DatabaseUnavailableError,
    DataFolderError,
    InvalidRecordError,
    NightFinishedError,
    NotFoundError,
    NothingToUndoError,
    OutsideDataFolderError,
)
from companion.storage.export import CsvExport
from companion.storage.figures import Figures, Judge, Judging, PlayerJudging
from companion.storage.log import SqliteGameLog
from companion.storage.migrations import SCHEMA_VERSION
from companion.storage.model import (
    ALARMS_TO_LOSE,
    VAULTS_TO_WIN,
    CardOutline,
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
    "CardOutline",
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
    "Figures",
    "Judge",
    "Judging",
    "PlayerJudging",
    "default_data_dir",
    "database_path",
    "NightFinishedError",
    "NotFoundError",
    "NothingToUndoError",
    "InvalidRecordError",
    "OutsideDataFolderError",
    "DatabaseUnavailableError",
    "DataFolderError",
    "DamagedRecordError",
]
