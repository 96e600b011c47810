"""Reading the game log's tables into records: one place knows the columns and their JSON.

Every function takes an open connection; the caller holds the transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from companion.messages import Phrase, phrase
from companion.storage.errors import DamagedRecordError, InvalidRecordError, NotFoundError
from companion.storage.model import (
    CribbageGame,
    Heist,
    Night,
    NightStatus,
    Outcome,
    Preset,
    Verdict,
    freeze,
    outlines_from_json,
)

__all__ = [
    "MAX_DEPTH",
    "json_of",
    "heist_key",
    "PRESET",
    "GAME",
    "fetch_night",
    "fetch_status",
    "fetch_statuses",
    "fetch_heist",
    "fetch_heists",
    "fetch_last_heist",
    "fetch_preset",
    "fetch_presets",
    "fetch_game",
    "fetch_games",
]

_NIGHT_COLUMNS = "id, players, variant, rules, preset, created_at, closed_at, outcome, seats"
_HEIST_COLUMNS = (
    "id, night_id, number, river, board2, hands, owners, tokens, opens, failures, photo, saved_at,"
    " deal, outlines"
)
_GAME_COLUMNS = "id, players, state, created_at, updated_at, finished, night_id"

# What a missing or damaged record is, for an error's words.
NIGHT, HEIST, PRESET, GAME = "night", "heist", "preset", "game"
# Nothing Companion saves nests deeper than a few levels (a deal: 4); deeper is damage, and
# reading it (freezing, exporting) would recurse as deep.
MAX_DEPTH = 64


def _deeper_than(value: dict[str, Any] | list[Any], limit: int) -> bool:
    """Whether ``value`` nests lists or objects more than ``limit`` levels (level by level,
    without recursion)."""
    level: list[Any] = [value]
    for _ in range(limit):
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, dict | list)
        ]
        if not level:
            return False
    return True


def json_of(value: object, kind: type = object) -> Any | None:
    """The JSON text ``value`` as a ``kind``, or None where it is not JSON, not a ``kind``, or
    nested past ``MAX_DEPTH`` (the reading of every column and of every migration)."""
    try:
        decoded = json.loads(value) if isinstance(value, str | bytes) else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(decoded, kind) or (
        isinstance(decoded, dict | list) and _deeper_than(decoded, MAX_DEPTH)
    ):
        return None
    return decoded


def heist_key(night: object, number: object) -> Phrase:
    """A heist as players know it: its number in its night."""
    return phrase("log.heist_key", number=number, night=night)


class _Fields:
    """The columns of one row of ``what`` (``night``, ``heist``, ``game``) with id ``key``,
    read one by one: a column that does not read as its type raises ``DamagedRecordError``
    naming the row and the column (SQLite's own checks pass such a row)."""

    def __init__(self, what: str, key: object) -> None:
        self.what, self.key = what, key

    def damaged(self, field: Phrase | str) -> DamagedRecordError:
        return DamagedRecordError(self.what, self.key, field)

    def json(self, value: object, field: str, kind: type = object) -> Any:
        decoded = json_of(value, kind)
        if decoded is None:
            raise self.damaged(field)
        return decoded

    def optional_json(self, value: object, field: str, kind: type = object) -> Any:
        return None if value is None else self.json(value, field, kind)

    def date(self, value: object, field: str) -> datetime:
        if isinstance(value, str):
            try:
                return datetime.fromisoformat(value)
            except ValueError:
                pass
        raise self.damaged(field)

    def optional_date(self, value: object, field: str) -> datetime | None:
        return None if value is None else self.date(value, field)

    def frozen(self, value: object, field: str) -> Any:
        try:
            return freeze(self.json(value, field, dict), field)
        except InvalidRecordError:
            raise self.damaged(field) from None

    def texts(self, value: object, field: str) -> tuple[str, ...]:
        items = self.json(value, field, list)
        if not all(isinstance(item, str) for item in items):
            raise self.damaged(field)
        return tuple(items)


def _night(row: Sequence[Any]) -> Night:
    read = _Fields(NIGHT, row[0])
    try:
        outcome = Outcome(row[7])
    except ValueError:
        raise read.damaged("outcome") from None
    return Night(
        id=row[0],
        players=read.texts(row[1], "players"),
        variant=row[2],
        rules=read.frozen(row[3], "rules"),
        preset=row[4],
        created_at=read.date(row[5], "created_at"),
        closed_at=read.optional_date(row[6], "closed_at"),
        outcome=outcome,
        seats=read.frozen(row[8], "seats") if row[8] is not None else freeze({}, "seats"),
    )


def _heist(row: Sequence[Any]) -> Heist:
    read = _Fields(HEIST, heist_key(row[1], row[2]))
    board2 = read.optional_json(row[4], "board2", list)
    hands = read.json(row[5], "hands", dict)
    if not all(isinstance(cards, list) for cards in hands.values()):
        raise read.damaged("hands")
    try:
        return Heist(
            id=row[0],
            night_id=row[1],
            number=row[2],
            river=tuple(read.json(row[3], "river", list)),
            board2=tuple(board2) if board2 is not None else None,
            hands={hand: tuple(cards) for hand, cards in hands.items()},
            owners=read.json(row[6], "owners", dict),
            tokens=read.json(row[7], "tokens", dict),
            verdict=Verdict(bool(row[8]), tuple(read.json(row[9], "failures", list))),
            photo=row[10],
            saved_at=read.date(row[11], "saved_at"),
            deal=read.optional_json(row[12], "deal", dict),
            outlines=outlines_from_json(read.optional_json(row[13], "outlines", list) or []),
        )
    except InvalidRecordError as error:  # JSON of the right kinds that no save could write
        raise read.damaged(error.params["field"]) from None


def _game(row: Sequence[Any]) -> CribbageGame:
    read = _Fields(GAME, row[0])
    return CribbageGame(
        id=row[0],
        players=read.texts(row[1], "players"),
        state=read.frozen(row[2], "state"),
        created_at=read.date(row[3], "created_at"),
        updated_at=read.date(row[4], "updated_at"),
        finished=bool(row[5]),
        night_id=row[6],
    )


_Record = TypeVar("_Record")


def _readable(
    rows: Iterable[Sequence[Any]],
    build: Callable[[Sequence[Any]], _Record],
    damaged: list[DamagedRecordError] | None,
) -> tuple[_Record, ...]:
    """``build`` of each row; with a ``damaged`` list, a damaged row is left out and added to
    it (a listing shows the rest), without one it raises."""
    records = []
    for row in rows:
        try:
            records.append(build(row))
        except DamagedRecordError as error:
            if damaged is None:
                raise
            # Each once: a long-running app lists the same rows again and again.
            if all(known.params != error.params for known in damaged):
                damaged.append(error)
    return tuple(records)


def _one(conn: sqlite3.Connection, query: str, key: object, what: str) -> Sequence[Any]:
    """The single row ``query`` finds for ``key``, or NotFoundError naming ``what`` is missing."""
    row: Sequence[Any] | None = conn.execute(query, (key,)).fetchone()
    if row is None:
        raise NotFoundError(what, key)
    return row


def fetch_night(conn: sqlite3.Connection, night_id: int) -> Night:
    return _night(_one(conn, f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE id = ?", night_id, NIGHT))


def fetch_status(conn: sqlite3.Connection, night: Night) -> NightStatus:
    vaults, alarms = conn.execute(
        "SELECT coalesce(sum(opens), 0), count(*) - coalesce(sum(opens), 0)"
        " FROM heists WHERE night_id = ?",
        (night.id,),
    ).fetchone()
    return NightStatus(night, vaults, alarms)


def fetch_statuses(
    conn: sqlite3.Connection, where: str = "", damaged: list[DamagedRecordError] | None = None
) -> tuple[NightStatus, ...]:
    """Nights, newest first; damaged ones left out into ``damaged`` when it is given."""
    rows = conn.execute(
        f"SELECT {_NIGHT_COLUMNS} FROM nights {where} ORDER BY created_at DESC, id DESC"
    ).fetchall()
    return tuple(fetch_status(conn, night) for night in _readable(rows, _night, damaged))


def fetch_heists(
    conn: sqlite3.Connection, night_id: int, damaged: list[DamagedRecordError] | None = None
) -> tuple[Heist, ...]:
    """A night's heists in order; damaged ones left out into ``damaged`` when it is given."""
    rows = conn.execute(
        f"SELECT {_HEIST_COLUMNS} FROM heists WHERE night_id = ? ORDER BY number", (night_id,)
    ).fetchall()
    return _readable(rows, _heist, damaged)


def fetch_preset(conn: sqlite3.Connection, name: str) -> Preset:
    row = _one(conn, "SELECT name, rules, saved_at FROM presets WHERE name = ?", name, PRESET)
    read = _Fields(PRESET, name)
    return Preset(row[0], read.frozen(row[1], "rules"), read.date(row[2], "saved_at"))


def fetch_presets(conn: sqlite3.Connection) -> tuple[Preset, ...]:
    names = [row[0] for row in conn.execute("SELECT name FROM presets ORDER BY name")]
    return tuple(fetch_preset(conn, name) for name in names)


def fetch_game(conn: sqlite3.Connection, game_id: int) -> CribbageGame:
    return _game(
        _one(conn, f"SELECT {_GAME_COLUMNS} FROM cribbage_games WHERE id = ?", game_id, GAME)
    )


def fetch_heist(conn: sqlite3.Connection, heist_id: int) -> Heist:
    row = conn.execute(f"SELECT {_HEIST_COLUMNS} FROM heists WHERE id = ?", (heist_id,)).fetchone()
    return _heist(row)


def fetch_last_heist(conn: sqlite3.Connection, night_id: int) -> Heist | None:
    row = conn.execute(
        f"SELECT {_HEIST_COLUMNS} FROM heists WHERE night_id = ? ORDER BY number DESC LIMIT 1",
        (night_id,),
    ).fetchone()
    return _heist(row) if row is not None else None


def fetch_games(conn: sqlite3.Connection, night_id: int | None = None) -> tuple[CribbageGame, ...]:
    """Every game, or one night's games (read through the night index), latest first."""
    where, params = ("WHERE night_id = ?", (night_id,)) if night_id is not None else ("", ())
    rows = conn.execute(
        f"SELECT {_GAME_COLUMNS} FROM cribbage_games {where} ORDER BY updated_at DESC, id DESC",
        params,
    ).fetchall()
    return _readable(rows, _game, None)
