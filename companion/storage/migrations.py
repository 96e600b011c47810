"""Opening the game log file safely and bringing its schema up to date.

The schema version is SQLite's ``PRAGMA user_version``; ``MIGRATIONS`` lists, in order, what
takes a file from one version to the next. A file written by a newer Companion, or one SQLite
cannot read, raises a typed error before anything is written to it: never a reset.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from companion.errors import DatabaseDamagedError, DatabaseVersionError
from companion.messages import phrase
from companion.storage.errors import (
    DatabaseUnavailableError,
    MigrationRefusedError,
    UnreadableRowError,
)
from companion.storage.hands import backfill_whole_hands
from companion.storage.legacy import backfill_deals

__all__ = [
    "Migration",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "APPLICATION_ID",
    "open_database",
    "open_for_reading",
]

# "Cmpn": marks the file as a Companion game log, so another program's database is refused.
APPLICATION_ID = 0x436D706E
_SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Migration:
    """The statements that take the schema from ``version - 1`` to ``version``."""

    version: int
    summary: str
    statements: tuple[str, ...]
    # Run after the statements, in the same transaction: data the new schema derives from old rows.
    backfill: Callable[[sqlite3.Connection], None] | None = None


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "game nights and their heists",
        (
            """CREATE TABLE nights (
                id INTEGER PRIMARY KEY,
                players TEXT NOT NULL,            -- JSON array of names, seating order
                variant TEXT NOT NULL,
                rules TEXT NOT NULL,              -- JSON object of table rules
                preset TEXT,                      -- name of the preset the rules came from
                created_at TEXT NOT NULL,         -- ISO 8601, UTC
                closed_at TEXT,
                outcome TEXT NOT NULL DEFAULT 'open'
                    CHECK (outcome IN ('open', 'won', 'lost', 'abandoned'))
            )""",
            """CREATE TABLE heists (
                id INTEGER PRIMARY KEY,
                night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
                number INTEGER NOT NULL,          -- 1, 2, ... within the night
                river TEXT NOT NULL,              -- JSON array of cards as text
                hands TEXT NOT NULL,              -- JSON {hand id: [cards]}
                owners TEXT NOT NULL,             -- JSON {hand id: player}
                tokens TEXT NOT NULL,             -- JSON {hand id: token number}
                opens INTEGER NOT NULL CHECK (opens IN (0, 1)),
                failures TEXT NOT NULL,           -- JSON array of the engine's reasons
                photo TEXT,                       -- SHA-256 of the photo file
                saved_at TEXT NOT NULL,
                UNIQUE (night_id, number)
            )""",
            "CREATE INDEX nights_outcome ON nights(outcome, created_at)",
        ),
    ),
    Migration(
        2,
        "second board, table-rule presets, cribbage games",
        (
            "ALTER TABLE heists ADD COLUMN board2 TEXT",  # JSON array, NULL: one board
            """CREATE TABLE presets (
                name TEXT PRIMARY KEY,
                rules TEXT NOT NULL,
                saved_at TEXT NOT NULL
            )""",
            """CREATE TABLE cribbage_games (
                id INTEGER PRIMARY KEY,
                players TEXT NOT NULL,
                state TEXT NOT NULL,              -- JSON object owned by the cribbage screen
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1))
            )""",
            "CREATE INDEX heists_photo ON heists(photo)",
        ),
    ),
    Migration(
        3,
        "cribbage games belong to the game night they were played in",
        (
            # NULL: played outside any night (and every game saved before version 3).
            "ALTER TABLE cribbage_games ADD COLUMN night_id INTEGER REFERENCES nights(id)",
            "CREATE INDEX cribbage_games_night ON cribbage_games(night_id)",
        ),
    ),
    Migration(
        4,
        "heists keep their whole deal (every hole card, as the table format)",
        ("ALTER TABLE heists ADD COLUMN deal TEXT",),  # JSON table object; tokens kept apart
        backfill=backfill_deals,
    ),
    Migration(
        5,
        "a night knows where each player sits around the table",
        # JSON {player: degrees around the river's centre, as a photo sees them}; NULL: not yet.
        ("ALTER TABLE nights ADD COLUMN seats TEXT",),
    ),
    Migration(
        6,
        "each saved hand holds every hole card of its player, as its deal shows",
        (),
        backfill=backfill_whole_hands,
    ),
    Migration(
        7,
        "a heist keeps where each read card lay on its photo",
        # JSON [{card, place, corners: 4 [x, y] fractions of the photo}]; NULL: none (typed).
        ("ALTER TABLE heists ADD COLUMN outlines TEXT",),
    ),
)

SCHEMA_VERSION = MIGRATIONS[-1].version


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite before SQLite touches it."""
    if path.is_dir():
        raise DatabaseUnavailableError(str(path), phrase("log.reason_folder"))
    try:
        with path.open("rb") as file:
            head = file.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as error:
        raise DatabaseUnavailableError(str(path), error.strerror or str(error)) from error
    # An empty file is what SQLite itself treats as a new database.
    if head and head != _SQLITE_MAGIC:
        raise DatabaseDamagedError(str(path), phrase("log.reason_not_sqlite"))


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    try:
        # isolation_level=None: transactions are opened explicitly (BEGIN IMMEDIATE), so reads
        # and DDL are never split from the writes that depend on them.
        return sqlite3.connect(
            f"{path.resolve().as_uri()}?mode={mode}",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
            timeout=10.0,
        )
    except sqlite3.Error as error:
        raise DatabaseUnavailableError(str(path), str(error)) from error


@contextmanager
def _typed_errors(path: Path, conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Close ``conn`` on any error, and turn SQLite's errors into the log's typed ones."""
    try:
        yield conn
    except sqlite3.OperationalError as error:
        conn.close()
        raise DatabaseUnavailableError(str(path), str(error)) from error
    except sqlite3.DatabaseError as error:
        conn.close()
        raise DatabaseDamagedError(str(path), str(error)) from error
    except BaseException:
        conn.close()
        raise


def _read_only_checks(conn: sqlite3.Connection, path: Path) -> int:
    """Version, identity and integrity, read before anything is written; returns the version."""
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise DatabaseVersionError(str(path), version, SCHEMA_VERSION)
    app_id: int = conn.execute("PRAGMA application_id").fetchone()[0]
    if app_id not in (0, APPLICATION_ID):
        raise DatabaseDamagedError(str(path), phrase("log.reason_other_program"))
    if version == 0:
        tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        if tables:
            raise DatabaseDamagedError(str(path), phrase("log.reason_foreign_tables"))
    problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise DatabaseDamagedError(str(path), "; ".join(problems[:3]))
    return version


def _backup(path: Path, version: int) -> None:
    """A copy of a file about to be migrated, kept next to it, taken before anything is written.

    Called under the migration's write lock, so one process writes it and no change can come
    in between; the copy is read by a connection of its own (the locked one cannot be the
    source of a backup). The migration is atomic anyway; the copy is for a person wanting the
    old release back.
    """
    target = path.with_name(f"{path.name}.schema-v{version}.bak")
    if target.exists():
        return
    # Named by this process: a killed process's leftover is never written into by another.
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    source = _connect(path, "ro")
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
        finally:
            copy.close()
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)  # a full disk leaves no half copy behind
        raise
    finally:
        source.close()


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Every pending migration in one transaction, under the write lock: concurrent opens
    wait, then find the file up to date; a refused one leaves the file as it was."""
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        # Read under the write lock: another process may have migrated meanwhile.
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        if found >= SCHEMA_VERSION:
            return
        if found > 0:
            _backup(path, found)
        for migration in MIGRATIONS:
            if migration.version <= found:
                continue
            for statement in migration.statements:
                conn.execute(statement)
            if migration.backfill is not None:
                try:
                    migration.backfill(conn)
                except UnreadableRowError as error:
                    raise MigrationRefusedError(str(path), found, SCHEMA_VERSION, error) from None
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {MIGRATIONS[-1].version}")


def _inspect(path: Path) -> None:
    """Check an existing file before writing to it.

    With a write-ahead log left by a killed process, the check runs read-only: closing a
    read-write connection would fold that log into the file, and a newer or damaged file
    would not be left as it was. Without one, read-write leaves no side files behind.
    """
    wal = path.with_name(path.name + "-wal")
    with _typed_errors(path, _connect(path, "ro" if wal.exists() else "rw")) as conn:
        _read_only_checks(conn, path)
    conn.close()


def open_database(path: Path) -> sqlite3.Connection:
    """A connection to an up-to-date game log at ``path`` (created if missing), in WAL mode.

    Raises DatabaseVersionError, DatabaseDamagedError or DatabaseUnavailableError, leaving an
    existing file byte-for-byte as it was.
    """
    _check_header(path)
    exists = path.exists() and path.stat().st_size > 0
    if exists:
        _inspect(path)
    with _typed_errors(path, _connect(path, "rw" if exists else "rwc")) as conn:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise DatabaseUnavailableError(str(path), phrase("log.reason_wal", mode=mode))
        # FULL: a heist reported saved survives a power cut too, not only a killed process.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        _migrate(conn, path)
    return conn


def _on_read_only_disk(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def open_for_reading(path: Path) -> sqlite3.Connection:
    """``open_database``, or, where the log lies on a read-only disk (a write-protected card, a
    read-only mount), a connection that only reads it: SQLite cannot keep its shared-memory
    journal there, and nothing can write to the file meanwhile.

    A folder that is read-only for this user only is refused with why: its owner may be
    writing to the log, so it is not read as if frozen.
    """
    try:
        return open_database(path)
    except DatabaseUnavailableError:
        if not path.is_file():
            raise
        if not _on_read_only_disk(path.parent):
            if os.access(path.parent, os.W_OK):
                raise
            reason = phrase("log.reason_folder_read_only")
            raise DatabaseUnavailableError(str(path), reason) from None
    with _typed_errors(path, _connect(path, "ro&immutable=1")) as conn:
        found = _read_only_checks(conn, path)
        if found < SCHEMA_VERSION:
            raise DatabaseUnavailableError(
                str(path), phrase("log.reason_old_read_only", found=found, known=SCHEMA_VERSION)
            )
    return conn
