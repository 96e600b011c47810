"""``SqliteGameLog``: the game log in one SQLite file, photos in a folder next to it.

Every change is one transaction (``BEGIN IMMEDIATE`` inside ``with conn:``), so a saved heist
is either entirely there or not at all, even if the process is killed mid-write.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from companion.messages import phrase
from companion.storage.errors import (
    DamagedRecordError,
    InvalidRecordError,
    NightFinishedError,
    NotFoundError,
    NothingToUndoError,
    storage_errors,
)
from companion.storage.export import CsvExport, NightLog, export_csv, export_json, write_archive
from companion.storage.figures import Figures, Judge, compute_figures
from companion.storage.migrations import open_database, open_for_reading
from companion.storage.model import (
    CribbageGame,
    Heist,
    HeistDraft,
    Night,
    NightStatus,
    Outcome,
    Preset,
    check_name,
    check_players,
    check_rules,
    check_seats,
    dump_json,
    outcome_of,
)
from companion.storage.paths import database_path, make_data_folder
from companion.storage.photos import PhotoStore, image_type
from companion.storage.rows import (
    fetch_game,
    fetch_games,
    fetch_heist,
    fetch_heists,
    fetch_last_heist,
    fetch_night,
    fetch_preset,
    fetch_presets,
    fetch_status,
    fetch_statuses,
)
from companion.storage.stats import Stats, compute_stats

__all__ = ["SqliteGameLog"]


def _utc_now() -> datetime:
    return datetime.now(UTC)


UNSAVED_PHOTO_AGE_S = 24 * 3600.0  # a photo no heist keeps is removed after a day


def _photos_kept(conn: sqlite3.Connection, refs: list[str]) -> frozenset[str]:
    """Which of ``refs`` some heist keeps."""
    kept: set[str] = set()
    for start in range(0, len(refs), 500):  # SQLite's limit on bound parameters
        chunk = refs[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        rows = conn.execute(f"SELECT DISTINCT photo FROM heists WHERE photo IN ({marks})", chunk)
        kept.update(str(row[0]) for row in rows)
    return frozenset(kept)


class SqliteGameLog:
    """The ``GameLog`` of one SQLite file; photos go to ``photos/`` beside it.

    ``clock`` gives the current time (aware); tests pass a fixed one. ``for_reading``: the
    caller only reads, so a log on a read-only disk is opened too (every change then fails).
    """

    def __init__(
        self,
        path: Path | str,
        *,
        clock: Callable[[], datetime] = _utc_now,
        for_reading: bool = False,
    ) -> None:
        self.path = Path(path)
        make_data_folder(self.path.parent)
        self._conn = (open_for_reading if for_reading else open_database)(self.path)
        self._clock = clock
        self._damaged: list[DamagedRecordError] = []
        # The app may call from several threads; one connection, one caller at a time.
        self._lock = threading.RLock()
        self.photos = PhotoStore(self.path.parent)

    @classmethod
    def in_folder(
        cls,
        data_dir: Path | str | None = None,
        *,
        clock: Callable[[], datetime] = _utc_now,
        for_reading: bool = False,
    ) -> SqliteGameLog:
        """The log kept in ``data_dir`` (the app's ``--data``), or in the default data folder."""
        path = database_path(None if data_dir is None else Path(data_dir))
        return cls(path, clock=clock, for_reading=for_reading)

    # -- plumbing -------------------------------------------------------------------------

    def close(self) -> None:
        """Close the file (the WAL is checkpointed back into it)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> SqliteGameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self, begin: str = "BEGIN IMMEDIATE") -> Iterator[sqlite3.Connection]:
        # IMMEDIATE takes the write lock first, so what is read (is the night still open?)
        # cannot change before the write that depends on it.
        # Inside out: a failed change is rolled back first, then said in words.
        with self._lock, storage_errors(str(self.path)), self._conn:
            self._conn.execute(begin)
            yield self._conn

    def _reading(self) -> AbstractContextManager[sqlite3.Connection]:
        # One read transaction: a multi-query answer sees a single state of the file.
        return self._transaction("BEGIN DEFERRED")

    def _now(self) -> str:
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the clock must return an aware datetime")
        # Fixed width, so that text order is time order in ORDER BY.
        return now.astimezone(UTC).isoformat(timespec="microseconds")

    # -- nights ---------------------------------------------------------------------------

    def start_night(
        self,
        players: Sequence[str],
        variant: str,
        *,
        rules: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> Night:
        """A new open night; without ``rules``, the rules of ``preset`` (copied: later edits
        of the preset do not rewrite past nights)."""
        names = check_players(players)
        variant = check_name(variant, "variant")
        with self._transaction() as conn:
            if rules is None and preset is not None:
                rules = fetch_preset(conn, preset).rules
            frozen = check_rules(rules or {})
            cursor = conn.execute(
                "INSERT INTO nights (players, variant, rules, preset, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (dump_json(names), variant, dump_json(frozen), preset, self._now()),
            )
            return fetch_night(conn, int(cursor.lastrowid or 0))

    def night_status(self, night_id: int) -> NightStatus:
        """The night and its vaults and alarms so far."""
        with self._reading() as conn:
            return fetch_status(conn, fetch_night(conn, night_id))

    def list_nights(self) -> tuple[NightStatus, ...]:
        """Every night, newest first."""
        with self._reading() as conn:
            return fetch_statuses(conn, damaged=self._damaged)

    def open_nights(self) -> tuple[NightStatus, ...]:
        """Nights still being played, newest first."""
        with self._reading() as conn:
            return fetch_statuses(conn, "WHERE outcome = 'open'")

    def resume_night(self) -> NightStatus | None:
        """The newest open night, to pick up after the app was closed; None if there is none."""
        nights = self.open_nights()
        return nights[0] if nights else None

    def close_night(self, night_id: int) -> NightStatus:
        """End an open night by hand (abandoned); a night already over is left as it is."""
        with self._transaction() as conn:
            night = fetch_night(conn, night_id)
            if night.outcome is Outcome.OPEN:
                conn.execute(
                    "UPDATE nights SET outcome = 'abandoned', closed_at = ? WHERE id = ?",
                    (self._now(), night_id),
                )
                night = fetch_night(conn, night_id)
            return fetch_status(conn, night)

    def save_seats(self, night_id: int, seats: Mapping[str, float]) -> NightStatus:
        """Where the night's players sit (degrees around the river's centre on a photo);
        players left out are not seated yet. Replaces what was saved before."""
        with self._transaction() as conn:
            night = fetch_night(conn, night_id)
            checked = check_seats(seats, night.players)
            conn.execute("UPDATE nights SET seats = ? WHERE id = ?", (dump_json(checked), night_id))
            return fetch_status(conn, fetch_night(conn, night_id))

    # -- heists ---------------------------------------------------------------------------

    def save_heist(self, night_id: int, draft: HeistDraft) -> Heist:
        """Add a heist to an open night, in one transaction; the third vault or alarm ends it."""
        with self._transaction() as conn:
            night = fetch_night(conn, night_id)
            if night.outcome is not Outcome.OPEN:
                raise NightFinishedError(night_id, night.outcome.value)
            players = {name.casefold() for name in night.players}
            for hand, owner in draft.owners.items():
                if owner.casefold() not in players:
                    raise InvalidRecordError(
                        "record.not_tonight",
                        field=phrase("record.field_owner", hand=hand),
                        owner=owner,
                    )
            if draft.photo is not None and not self.photos.exists(draft.photo):
                raise NotFoundError("photo", draft.photo)
            number = conn.execute(
                "SELECT coalesce(max(number), 0) + 1 FROM heists WHERE night_id = ?", (night_id,)
            ).fetchone()[0]
            now = self._now()
            cursor = conn.execute(
                "INSERT INTO heists (night_id, number, river, board2, hands, owners, tokens,"
                " opens, failures, photo, saved_at, deal, outlines)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    night_id,
                    number,
                    dump_json(draft.river),
                    dump_json(draft.board2) if draft.board2 is not None else None,
                    dump_json(draft.hands),
                    dump_json(draft.owners),
                    dump_json(draft.tokens),
                    int(draft.verdict.opens),
                    dump_json(draft.verdict.failures),
                    draft.photo,
                    now,
                    dump_json(draft.deal) if draft.deal is not None else None,
                    dump_json([o.to_json() for o in draft.outlines]) if draft.outlines else None,
                ),
            )
            status = fetch_status(conn, night)
            outcome = outcome_of(status.vaults, status.alarms)
            if outcome is not Outcome.OPEN:
                conn.execute(
                    "UPDATE nights SET outcome = ?, closed_at = ? WHERE id = ?",
                    (outcome.value, now, night_id),
                )
            return fetch_heist(conn, int(cursor.lastrowid or 0))

    def heists(self, night_id: int) -> tuple[Heist, ...]:
        """The night's heists in the order they were played; damaged ones are left out (and
        named by ``damaged_records``)."""
        with self._reading() as conn:
            fetch_night(conn, night_id)
            return fetch_heists(conn, night_id, self._damaged)

    def heist(self, heist_id: int) -> Heist:
        """One saved heist by its id (``NotFoundError`` when there is none; a damaged row
        raises its ``DamagedRecordError``, naming the column)."""
        with self._reading() as conn:
            exists = conn.execute("SELECT 1 FROM heists WHERE id = ?", (heist_id,)).fetchone()
            if exists is None:
                raise NotFoundError("heist", heist_id)
            return fetch_heist(conn, heist_id)

    def undo_last_heist(self, night_id: int) -> Heist:
        """Remove the night's last heist and return it; a night it had won or lost reopens."""
        with self._transaction() as conn:
            night = fetch_night(conn, night_id)
            last = fetch_last_heist(conn, night_id)
            if last is None:
                raise NothingToUndoError(night_id)
            conn.execute("DELETE FROM heists WHERE id = ?", (last.id,))
            # An abandoned night stays abandoned: it was ended by the players, not the score.
            if night.outcome.decided:
                conn.execute(
                    "UPDATE nights SET outcome = 'open', closed_at = NULL WHERE id = ?", (night_id,)
                )
            return last

    # -- photos ---------------------------------------------------------------------------

    def store_photo(self, data: bytes) -> str:
        """Keep a photo (once, however often it is stored); returns its reference.

        Storing also removes the photos no heist kept for a day: tables read from a photo and
        never saved would otherwise pile up (every upload is stored before it is read).
        """
        self.forget_unsaved_photos()
        with storage_errors(str(self.photos.folder)):
            return self.photos.put(data)

    def discard_photo(self, ref: str) -> bool:
        """Remove the photo ``ref`` if no heist keeps it (its table was discarded); True if it
        was removed. One transaction: a heist saved at the same time with it keeps it."""
        with self._transaction() as conn:
            if not self.photos.exists(ref) or _photos_kept(conn, [ref]):
                return False
            with storage_errors(str(self.photos.folder)):
                self.photos.remove(ref)
            return True

    def forget_unsaved_photos(self, max_age_s: float = UNSAVED_PHOTO_AGE_S) -> frozenset[str]:
        """Remove the photos no heist keeps, last stored more than ``max_age_s`` ago (and the
        partial files a crash left); returns the photos removed."""
        with storage_errors(str(self.photos.folder)):
            old = self.photos.stored_before(max_age_s)
            self.photos.remove_partials(max_age_s)
        if not old:
            return frozenset()
        with self._transaction() as conn, storage_errors(str(self.photos.folder)):
            unsaved = old - _photos_kept(conn, sorted(old))
            for ref in unsaved:
                self.photos.remove(ref)
        return unsaved

    def photo_path(self, ref: str) -> Path:
        """The file of a stored photo."""
        path = self.photos.path(ref)
        if not path.is_file():
            raise NotFoundError("photo", ref)
        return path

    # -- presets --------------------------------------------------------------------------

    def save_preset(self, name: str, rules: Mapping[str, Any]) -> Preset:
        """Save (or replace) the named table rules."""
        name = check_name(name, "preset name")
        frozen = check_rules(rules)
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO presets (name, rules, saved_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE"
                " SET rules = excluded.rules, saved_at = excluded.saved_at",
                (name, dump_json(frozen), self._now()),
            )
            return fetch_preset(conn, name)

    def preset(self, name: str) -> Preset:
        with self._reading() as conn:
            return fetch_preset(conn, name)

    def presets(self) -> tuple[Preset, ...]:
        """All presets by name."""
        with self._reading() as conn:
            return fetch_presets(conn)

    # -- history --------------------------------------------------------------------------

    def _logs(self, conn: sqlite3.Connection, night_id: int | None) -> list[NightLog]:
        # Damaged rows are left out and kept in ``damaged_records`` for the caller to name.
        if night_id is None:
            statuses = fetch_statuses(conn, damaged=self._damaged)
        else:
            statuses = (fetch_status(conn, fetch_night(conn, night_id)),)
        return [(s, fetch_heists(conn, s.night.id, self._damaged)) for s in statuses]

    def damaged_records(self) -> tuple[DamagedRecordError, ...]:
        """The damaged rows that listings, stats and exports left out so far, each once."""
        return tuple(self._damaged)

    def stats(self) -> Stats:
        """Win rates by variant and group, streaks, hardest variants."""
        with self._reading() as conn:
            logs = self._logs(conn, None)
        return compute_stats([(s.night, heists) for s, heists in logs])

    def figures(self, judge: Judge | None = None) -> Figures:
        """What History draws: each night's score, success by variant and by token rule and,
        given a judge, each player's judging."""
        with self._reading() as conn:
            logs = self._logs(conn, None)
        return compute_figures(logs, judge)

    def _export_json(
        self,
        conn: sqlite3.Connection,
        logs: list[NightLog],
        everything: bool,
        judge: Judge | None,
    ) -> str:
        presets = fetch_presets(conn) if everything else ()
        return export_json(logs, presets, self._clock(), judge)

    def export_json(self, night_id: int | None = None, judge: Judge | None = None) -> str:
        """One night (or everything, presets included) as a JSON document; given a judge,
        each night carries its players' judging figures."""
        with self._reading() as conn:
            return self._export_json(conn, self._logs(conn, night_id), night_id is None, judge)

    def export_csv(self, night_id: int | None = None, judge: Judge | None = None) -> CsvExport:
        """One night (or everything) as two CSV tables: nights and heists."""
        with self._reading() as conn:
            return export_csv(self._logs(conn, night_id), judge)

    def export_archive(
        self,
        file: BinaryIO,
        night_id: int | None = None,
        progress: Callable[[int, int], None] | None = None,
        judge: Judge | None = None,
    ) -> int:
        """One night (or everything) as a zip: the JSON, both CSV tables and the photos.

        Writes to ``file`` (the caller chooses where); returns how many photos went in. A photo
        file deleted by hand is left out; its reference stays in the JSON and CSV. ``progress``
        is told each photo written (so far, in all).
        """
        with self._reading() as conn:
            logs = self._logs(conn, night_id)
            document = self._export_json(conn, logs, night_id is None, judge)
        refs = {heist.photo for _, heists in logs for heist in heists if heist.photo}
        photos = {}
        for ref in refs:
            path = self.photos.path(ref)
            if path.is_file():
                with path.open("rb") as photo:
                    photos[f"{ref}.{image_type(photo.read(16)) or 'bin'}"] = path
        with storage_errors(str(getattr(file, "name", "archive"))):
            write_archive(file, document, export_csv(logs, judge), photos, progress)
        return len(photos)

    # -- cribbage -------------------------------------------------------------------------

    def save_cribbage_game(
        self,
        players: Sequence[str],
        state: Mapping[str, Any],
        *,
        game_id: int | None = None,
        finished: bool = False,
        night_id: int | None = None,
    ) -> CribbageGame:
        """Create a game (``game_id`` None), in game night ``night_id`` if given, or replace a
        game's players and state (it stays in its night)."""
        names = check_players(players)
        frozen = check_rules(state, "state")
        now = self._now()
        with self._transaction() as conn:
            if game_id is None:
                if night_id is not None:
                    fetch_night(conn, night_id)  # a missing night is named, not stored
                cursor = conn.execute(
                    "INSERT INTO cribbage_games"
                    " (players, state, created_at, updated_at, finished, night_id)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (dump_json(names), dump_json(frozen), now, now, int(finished), night_id),
                )
                game_id = int(cursor.lastrowid or 0)
            elif (
                conn.execute(
                    "UPDATE cribbage_games SET players = ?, state = ?, updated_at = ?, finished = ?"
                    " WHERE id = ?",
                    (dump_json(names), dump_json(frozen), now, int(finished), game_id),
                ).rowcount
                == 0
            ):
                raise NotFoundError("game", game_id)
            return fetch_game(conn, game_id)

    def cribbage_game(self, game_id: int) -> CribbageGame:
        with self._reading() as conn:
            return fetch_game(conn, game_id)

    def cribbage_games(self, night_id: int | None = None) -> tuple[CribbageGame, ...]:
        """All cribbage games (or those of one game night), most recently updated first."""
        with self._reading() as conn:
            return fetch_games(conn, night_id)
