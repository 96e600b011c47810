"""Storage failures said in words (#17): a full disk, a read-only file, a damaged page; what
was saved before is kept."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from companion.errors import CompanionError, DatabaseDamagedError
from companion.storage import SqliteGameLog
from companion.storage.errors import StorageWriteError, storage_errors
from tests.storage.builders import heist, ticking_clock


def _fill(log: SqliteGameLog) -> None:
    """Make the database "full": no page may be added beyond those it has now."""
    pages = log._conn.execute("PRAGMA page_count").fetchone()[0]
    log._conn.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_database_is_said_in_words_and_keeps_what_was_saved(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        night = log.start_night(["Ann", "Bob", "Cy"], "classic")
        log.save_heist(night.id, heist(True))
        _fill(log)
        with pytest.raises(StorageWriteError) as caught:
            for _ in range(500):  # each night takes room; the page limit stops one of them
                more = log.start_night(["Ann", "Bob", "Cy"], "classic")
                log.save_heist(more.id, heist(False))
        message = caught.value.message("en")
        assert "full" in message and str(path) in message and "\n" not in message
        assert "plein" in caught.value.message("fr")
        kept = log.list_nights()
        assert len(log.heists(night.id)) == 1
    with SqliteGameLog(path) as again:
        assert again.list_nights() == kept


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files")
def test_a_read_only_file_is_said_in_words(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        night = log.start_night(["Ann", "Bob", "Cy"], "classic")
        log.save_heist(night.id, heist(True))
    path.chmod(stat.S_IRUSR)
    try:
        with pytest.raises(CompanionError) as caught:
            with SqliteGameLog(path, clock=ticking_clock()) as log:
                log.save_heist(night.id, heist(True))
        message = caught.value.message("en")
        assert "\n" not in message and str(path) in message
        assert "read-only" in message or "readonly" in message
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    with SqliteGameLog(path) as log:
        assert len(log.heists(night.id)) == 1


def test_a_read_only_connection_refuses_writes_in_words(tmp_path: Path) -> None:
    """SQLite's "attempt to write a readonly database", as a read-only open gives it."""
    path = tmp_path / "plain.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(StorageWriteError) as caught:
        with storage_errors(str(path)):
            conn.execute("INSERT INTO t VALUES (1)")
    assert "read-only" in caught.value.message("en")
    conn.close()


@pytest.mark.parametrize(
    ("raised", "words"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), "full"),
        (OSError(errno.EROFS, "Read-only file system"), "read-only"),
    ],
)
def test_os_storage_errors_are_said_in_words(raised: OSError, words: str) -> None:
    with pytest.raises(StorageWriteError) as caught:
        with storage_errors("/data/photos"):
            raise raised
    assert words in caught.value.message("en") and "/data/photos" in caught.value.message("en")


def test_bugs_are_not_dressed_as_storage_errors(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "x.sqlite")
    conn.execute("CREATE TABLE t (x UNIQUE)")
    conn.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(sqlite3.IntegrityError):
        with storage_errors("x"):
            conn.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(FileNotFoundError):
        with storage_errors("x"):
            raise FileNotFoundError(errno.ENOENT, "gone")


def test_a_damage_report_is_one_short_line() -> None:
    report = "\n".join(f"*** in database main ***\nPage {n}: btree is corrupt" for n in range(130))
    message = DatabaseDamagedError("/data/log.sqlite", report).message("en")
    assert "\n" not in message and len(message) < 300 and "Page 0" in message


def test_a_database_that_refuses_writes_is_said_in_words_and_keeps_what_was_saved(
    tmp_path: Path,
) -> None:
    """SQLite's "attempt to write a readonly database" (as a read-only file gives it; here the
    connection is made read-only, which root cannot override as it does file permissions)."""
    path = tmp_path / "log.sqlite"
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        night = log.start_night(["Ann", "Bob", "Cy"], "classic")
        saved = log.save_heist(night.id, heist(True))
        log._conn.execute("PRAGMA query_only = ON")
        with pytest.raises(StorageWriteError) as caught:
            log.save_heist(night.id, heist(False))
        assert "read-only" in caught.value.message("en") and str(path) in str(caught.value)
        assert "lecture seule" in caught.value.message("fr")
        assert log.heists(night.id) == (saved,)
