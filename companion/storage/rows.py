"""Reading the game log's tables into records: one place knows the columns and their JSON.

Every function takes an open connection; the caller holds the transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from companion.storage.errors import NotFoundError
from companion.storage.model import (
    CribbageGame,
    Heist,
    Night,
    NightStatus,
    Outcome,
    Preset,
    Verdict,
    freeze,
)

__all__ = [
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
    " deal"
)
_GAME_COLUMNS = "id, players, state, created_at, updated_at, finished, night_id"


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text is not None else None


def _night(row: Sequence[Any]) -> Night:
    return Night(
        id=row[0],
        players=tuple(json.loads(row[1])),
        variant=row[2],
        rules=freeze(json.loads(row[3]), "rules"),
        preset=row[4],
        created_at=datetime.fromisoformat(row[5]),
        closed_at=_time(row[6]),
        outcome=Outcome(row[7]),
        seats=freeze(json.loads(row[8]), "seats") if row[8] is not None else freeze({}, "seats"),
    )


def _heist(row: Sequence[Any]) -> Heist:
    return Heist(
        id=row[0],
        night_id=row[1],
        number=row[2],
        river=tuple(json.loads(row[3])),
        board2=tuple(json.loads(row[4])) if row[4] is not None else None,
        hands={hand: tuple(cards) for hand, cards in json.loads(row[5]).items()},
        owners=json.loads(row[6]),
        tokens=json.loads(row[7]),
        verdict=Verdict(bool(row[8]), tuple(json.loads(row[9]))),
        photo=row[10],
        saved_at=datetime.fromisoformat(row[11]),
        deal=json.loads(row[12]) if row[12] is not None else None,
    )


def _game(row: Sequence[Any]) -> CribbageGame:
    return CribbageGame(
        id=row[0],
        players=tuple(json.loads(row[1])),
        state=freeze(json.loads(row[2]), "state"),
        created_at=datetime.fromisoformat(row[3]),
        updated_at=datetime.fromisoformat(row[4]),
        finished=bool(row[5]),
        night_id=row[6],
    )


# What a missing record is, for a NotFoundError's words.
NIGHT, PRESET, GAME = "night", "preset", "game"


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


def fetch_statuses(conn: sqlite3.Connection, where: str = "") -> tuple[NightStatus, ...]:
    rows = conn.execute(
        f"SELECT {_NIGHT_COLUMNS} FROM nights {where} ORDER BY created_at DESC, id DESC"
    ).fetchall()
    return tuple(fetch_status(conn, _night(row)) for row in rows)


def fetch_heists(conn: sqlite3.Connection, night_id: int) -> tuple[Heist, ...]:
    rows = conn.execute(
        f"SELECT {_HEIST_COLUMNS} FROM heists WHERE night_id = ? ORDER BY number", (night_id,)
    ).fetchall()
    return tuple(_heist(row) for row in rows)


def fetch_preset(conn: sqlite3.Connection, name: str) -> Preset:
    row = _one(conn, "SELECT name, rules, saved_at FROM presets WHERE name = ?", name, PRESET)
    return Preset(row[0], freeze(json.loads(row[1]), "rules"), datetime.fromisoformat(row[2]))


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
    return tuple(_game(row) for row in rows)
