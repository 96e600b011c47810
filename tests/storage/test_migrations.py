from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.engine.gang.showdown import form_hands
from companion.errors import DatabaseDamagedError, DatabaseVersionError, TableError
from companion.formats.table import table_from_json
from companion.storage import SCHEMA_VERSION, Outcome, SqliteGameLog
from companion.storage import migrations as migrations_module
from companion.storage.errors import DatabaseUnavailableError, InvalidRecordError, NotFoundError
from companion.storage.migrations import APPLICATION_ID, Migration
from companion.storage.model import thaw
from tests.storage.builders import heist, ticking_clock

# The version-1 schema exactly as it shipped, written out here on purpose: if someone edits
# migration 1 instead of adding a new one, files made by the old release must still open.
V1_SCHEMA = """
CREATE TABLE nights (
    id INTEGER PRIMARY KEY, players TEXT NOT NULL, variant TEXT NOT NULL, rules TEXT NOT NULL,
    preset TEXT, created_at TEXT NOT NULL, closed_at TEXT,
    outcome TEXT NOT NULL DEFAULT 'open' CHECK (outcome IN ('open','won','lost','abandoned')));
CREATE TABLE heists (
    id INTEGER PRIMARY KEY, night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
    number INTEGER NOT NULL, river TEXT NOT NULL, hands TEXT NOT NULL, owners TEXT NOT NULL,
    tokens TEXT NOT NULL, opens INTEGER NOT NULL CHECK (opens IN (0, 1)), failures TEXT NOT NULL,
    photo TEXT, saved_at TEXT NOT NULL, UNIQUE (night_id, number));
CREATE INDEX nights_outcome ON nights(outcome, created_at);
PRAGMA user_version = 1;
"""


def _make_v1(path: Path) -> None:
    """A game log as version 1 wrote it: one won night, one open night."""
    hand = json.dumps({"h1": ["As", "Ad"], "h2": ["Kc", "Kh"]})
    owners = json.dumps({"h1": "Ann", "h2": "Bob"})
    tokens = json.dumps({"h1": 2, "h2": 1})
    with sqlite3.connect(path) as conn:
        conn.executescript(V1_SCHEMA)
        conn.execute(
            "INSERT INTO nights VALUES (1, '[\"Ann\", \"Bob\"]', 'classic', '{\"decks\": 1}', NULL,"
            " '2026-10-01T20:00:00+00:00', '2026-10-01T21:00:00+00:00', 'won')"
        )
        conn.execute(
            "INSERT INTO nights VALUES (2, '[\"Ann\", \"Bob\"]', 'low', '{}', 'Friday',"
            " '2026-10-02T20:00:00+00:00', NULL, 'open')"
        )
        for heist_id, (night, number, opens) in enumerate(
            [(1, 1, 1), (1, 2, 0), (1, 3, 1), (1, 4, 1), (2, 1, 0)], start=1
        ):
            failures = "[]" if opens else '[{"rule": "order"}]'
            conn.execute(
                'INSERT INTO heists VALUES (?, ?, ?, \'["2c", "3d", "4h"]\', ?, ?, ?, ?, ?,'
                " NULL, '2026-10-01T20:30:00+00:00')",
                (heist_id, night, number, hand, owners, tokens, opens, failures),
            )
    conn.close()


def test_version_1_file_is_migrated_with_its_data(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    _make_v1(path)
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        won, open_ = sorted(log.list_nights(), key=lambda s: s.night.id)
        assert (won.outcome, won.vaults, won.alarms) == (Outcome.WON, 3, 1)
        assert (open_.outcome, open_.night.preset, open_.heists) == (Outcome.OPEN, "Friday", 1)
        first = log.heists(1)[0]
        assert first.board2 is None and dict(first.hands) == {
            "h1": ("As", "Ad"),
            "h2": ("Kc", "Kh"),
        }
        assert log.heists(1)[1].verdict.failures == ({"rule": "order"},)
        # What version 2 added works on the migrated file.
        log.save_preset("Friday", {"decks": 2})
        log.save_cribbage_game(("Ann", "Bob"), {"scores": [0, 0]})
        draft = dataclasses.replace(heist(True, board2=True), owners={"h1": "Ann"})
        saved = log.save_heist(2, draft)
        assert saved.number == 2 and saved.board2 == ("3d", "4d", "5d", "Jc", "Jh")
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    backup = tmp_path / "companion.sqlite3.schema-v1.bak"
    with sqlite3.connect(backup) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM heists").fetchone()[0] == 5
    conn.close()


# What version 2 added, as it shipped (written out for the same reason as V1_SCHEMA).
V2_ADDITIONS = """
ALTER TABLE heists ADD COLUMN board2 TEXT;
CREATE TABLE presets (name TEXT PRIMARY KEY, rules TEXT NOT NULL, saved_at TEXT NOT NULL);
CREATE TABLE cribbage_games (
    id INTEGER PRIMARY KEY, players TEXT NOT NULL, state TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)));
CREATE INDEX heists_photo ON heists(photo);
INSERT INTO cribbage_games VALUES (1, '["Ann", "Bob"]', '{"scores": [61, 40]}',
    '2026-10-02T21:00:00+00:00', '2026-10-02T21:10:00+00:00', 0);
PRAGMA user_version = 2;
"""


def test_version_2_cribbage_games_join_no_night_and_new_ones_join_theirs(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    _make_v1(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(V2_ADDITIONS)
    conn.close()
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        (old,) = log.cribbage_games()
        assert old.night_id is None and dict(old.state) == {"scores": (61, 40)}
        new = log.save_cribbage_game(("Ann", "Bob"), {"scores": [0, 0]}, night_id=2)
        assert new.night_id == 2
        assert [g.id for g in log.cribbage_games(night_id=2)] == [new.id]
        updated = log.save_cribbage_game(("Ann", "Bob"), {"scores": [5, 0]}, game_id=new.id)
        assert updated.night_id == 2  # an update keeps the game in its night
        with pytest.raises(NotFoundError, match="99"):
            log.save_cribbage_game(("Ann", "Bob"), {}, night_id=99)
        assert len(log.cribbage_games()) == 2  # the refused game was not stored


def test_failed_migration_leaves_the_file_at_its_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "companion.sqlite3"
    with SqliteGameLog(path) as log:
        log.start_night(("Ann",), "classic")
    broken = Migration(SCHEMA_VERSION + 1, "broken", ("CREATE TABLE extra (x)", "NOT SQL AT ALL"))
    monkeypatch.setattr(migrations_module, "MIGRATIONS", (*migrations_module.MIGRATIONS, broken))
    monkeypatch.setattr(migrations_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(DatabaseUnavailableError, match="syntax error"):
        SqliteGameLog(path)
    monkeypatch.undo()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema")}
    conn.close()
    assert "extra" not in tables
    with SqliteGameLog(path) as log:
        assert len(log.list_nights()) == 1


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _newer_plain(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 7}")
    conn.close()


def _newer_from_our_log(path: Path) -> None:
    with SqliteGameLog(path) as log:
        night = log.start_night(("Ann", "Bob"), "classic")
        log.save_heist(night.id, dataclasses.replace(heist(True), owners={}))
    (path.parent / "photos").rmdir()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()


def _newer_with_leftover_wal(path: Path) -> None:
    """Written in WAL mode by a process that died before closing: the log is still beside it."""
    script = (
        "import os, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute('PRAGMA journal_mode = WAL')\n"
        "conn.execute('CREATE TABLE future (x)')\n"
        f"conn.execute('PRAGMA user_version = {SCHEMA_VERSION + 1}')\n"
        "conn.execute('INSERT INTO future VALUES (1)')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)
    assert path.with_name(path.name + "-wal").stat().st_size > 0


@pytest.mark.parametrize("make", [_newer_plain, _newer_from_our_log, _newer_with_leftover_wal])
def test_newer_file_is_refused_and_left_untouched(
    tmp_path: Path, make: Callable[[Path], None]
) -> None:
    path = tmp_path / "companion.sqlite3"
    make(path)
    before = _files(tmp_path)
    with pytest.raises(DatabaseVersionError) as info:
        SqliteGameLog(path)
    assert f"this one knows {SCHEMA_VERSION}" in info.value.message("en")
    assert "plus récente" in info.value.message("fr") and str(path) in info.value.message("fr")
    # The shared-memory index (-shm) may be rebuilt by a reader; the data files may not change.
    after = _files(tmp_path)
    assert {k: v for k, v in after.items() if not k.endswith("-shm")} == {
        k: v for k, v in before.items() if not k.endswith("-shm")
    }


def _text_file(path: Path) -> None:
    path.write_text("game night notes, not a database\n")


def _truncated(path: Path) -> None:
    _good_log(path)
    path.write_bytes(path.read_bytes()[:60])


def _good_log(path: Path) -> None:
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        for _ in range(8):
            night = log.start_night(("Ann", "Bob", "Cy"), "classic")
            for _ in range(2):
                log.save_heist(night.id, heist(False))
    (path.parent / "photos").rmdir()


def _garbage_pages(path: Path) -> None:
    """Every page after the first overwritten with noise: the header still says SQLite."""
    _good_log(path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    noise = random.Random(7).randbytes(len(data) - page)
    path.write_bytes(bytes(data[:page]) + noise)


def _garbage_schema(path: Path) -> None:
    """The schema page (after the 100-byte header) overwritten with noise."""
    _good_log(path)
    data = bytearray(path.read_bytes())
    data[100:1000] = random.Random(8).randbytes(900)
    path.write_bytes(bytes(data))


def _foreign_tables(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")
        conn.execute("INSERT INTO contacts VALUES ('Ann')")
    conn.close()


def _foreign_application(path: Path) -> None:
    _foreign_tables(path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA application_id = 1234")
        conn.execute("PRAGMA user_version = 1")
    conn.close()


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (_text_file, "not an SQLite database"),
        (_truncated, "malformed"),
        (_garbage_pages, "malformed"),
        (_garbage_schema, "malformed"),
        (_foreign_tables, "not a Companion game log"),
        (_foreign_application, "another program"),
    ],
)
def test_damaged_or_foreign_file_is_refused_and_left_untouched(
    tmp_path: Path, damage: Callable[[Path], None], reason: str
) -> None:
    path = tmp_path / "companion.sqlite3"
    damage(path)
    before = _files(tmp_path)
    with pytest.raises(DatabaseDamagedError, match=reason) as info:
        SqliteGameLog(path)
    assert "left untouched" in info.value.message("en")
    assert "endommagé" in info.value.message("fr")
    assert _files(tmp_path) == before


def test_a_folder_in_place_of_the_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "companion.sqlite3").mkdir()
    with pytest.raises(DatabaseUnavailableError, match="folder"):
        SqliteGameLog(tmp_path / "companion.sqlite3")


def test_empty_file_is_a_new_log(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    path.touch()
    with SqliteGameLog(path) as log:
        assert log.list_nights() == ()


# What version 3 added, as it shipped.
V3_ADDITIONS = """
ALTER TABLE cribbage_games ADD COLUMN night_id INTEGER REFERENCES nights(id);
CREATE INDEX cribbage_games_night ON cribbage_games(night_id);
PRAGMA user_version = 3;
"""


def _old_heist(
    conn: sqlite3.Connection,
    night: int,
    hands: dict[str, list[str]],
    board2: list[str] | None = None,
) -> None:
    owners = {h: h.split("/")[0] for h in hands if h != "francois" and "+" not in h}
    conn.execute(
        "INSERT INTO heists (night_id, number, river, hands, owners, tokens, opens, failures,"
        " photo, saved_at, board2) VALUES (?, 1, ?, ?, ?, '{}', 1, '[]', NULL,"
        " '2026-10-03T20:00:00+00:00', ?)",
        (
            night,
            json.dumps(["As", "Kd", "Qh", "7c", "2s"]),
            json.dumps(hands),
            json.dumps(owners),
            json.dumps(board2) if board2 else None,
        ),
    )


def test_version_3_heists_get_their_deal_back_from_their_hands(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    _make_v1(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(V2_ADDITIONS + V3_ADDITIONS)
        conn.execute("DELETE FROM heists")
        for night, variant, rules in [
            (3, "classic", {"two_rivers": True, "decks": 1}),
            (4, "four-two-hands", {}),
            (5, "francois", {"ranking": "low-27"}),
            (6, "circular", {}),
        ]:
            conn.execute(
                'INSERT INTO nights VALUES (?, \'["Ann", "Bob", "Cy"]\', ?, ?, NULL,'
                " '2026-10-03T20:00:00+00:00', NULL, 'open')",
                (night, variant, json.dumps(rules)),
            )
        _old_heist(
            conn,
            3,
            {
                "Ann/1": ["Ah", "Ad"],
                "Ann/2": ["Ah", "Ad"],
                "Bob/1": ["Th", "9h"],
                "Bob/2": ["9h", "Th"],
            },
            board2=["Jd", "Jc", "8s", "4h", "5d"],
        )
        # Four-two-hands kept only the cards each hand used: Bob's 3c was lost.
        _old_heist(
            conn,
            4,
            {"Ann/1": ["Ah", "Ad"], "Ann/2": ["9c", "9d"], "Bob/1": ["Th", "9h"], "Bob/2": ["8d"]},
        )
        _old_heist(
            conn,
            5,
            {
                "Ann": ["Ah", "Ad", "4c"],
                "Bob": ["Th", "9h", "8d"],
                "Cy": ["3c", "2c", "Js"],
                "francois": ["5d", "6h", "Jh"],
            },
        )
        _old_heist(
            conn,
            6,
            {
                "Ann": ["Ah", "Ad"],
                "Bob": ["Th", "9h"],
                "Cy": ["3c", "2c"],
                "Ann+Bob": ["5d", "6d"],
                "Bob+Cy": ["8c", "8h"],  # a full circle: every two neighbours share a hand (#54)
                "Cy+Ann": ["Jc", "Js"],
            },
        )
    conn.close()
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        deals = {night: thaw(log.heists(night)[0].deal) for night in (3, 4, 5, 6)}
    assert deals[3]["two_rivers"] is True and deals[3]["board2"] == ["Jd", "Jc", "8s", "4h", "5d"]
    assert [p["cards"] for p in deals[3]["players"]] == [["Ah", "Ad"], ["Th", "9h"]]
    assert [p["name"] for p in deals[3]["players"]] == ["Ann", "Bob"]  # Cy sat out
    assert [p["cards"] for p in deals[4]["players"]] == [
        ["Ah", "Ad", "9c", "9d"],
        ["Th", "9h", "8d"],
    ]
    assert deals[5]["rules"] == {"ranking": "low-27"}
    assert [p["francois_card"] for p in deals[5]["players"]] == ["5d", "6h", "Jh"]
    assert deals[6]["shared"] == [
        {"between": ["Ann", "Bob"], "cards": ["5d", "6d"]},
        {"between": ["Bob", "Cy"], "cards": ["8c", "8h"]},
        {"between": ["Cy", "Ann"], "cards": ["Jc", "Js"]},
    ]
    # The engine reads every one of them back; the lossy one says whose card is missing.
    for night in (3, 5, 6):
        form_hands(table_from_json(deals[night]))
    with pytest.raises(TableError, match="Bob has 3 cards; four-two-hands deals 4"):
        form_hands(table_from_json(deals[4]))


V4_ADDITIONS = """
ALTER TABLE heists ADD COLUMN deal TEXT;
PRAGMA user_version = 4;
"""


def test_version_4_nights_open_unseated_and_keep_the_seats_saved_after(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    _make_v1(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(V2_ADDITIONS + V3_ADDITIONS + V4_ADDITIONS)
    conn.close()
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        nights = log.list_nights()
        assert nights and all(dict(s.night.seats) == {} for s in nights)
        night = next(s.night for s in nights if s.outcome is Outcome.OPEN)
        # Names matched as the players are written; degrees kept in [0, 360).
        saved = log.save_seats(night.id, {"bob": -90.0, "Ann": 180.5})
        assert list(saved.night.seats.items()) == [("Ann", 180.5), ("Bob", 270.0)]
        with pytest.raises(InvalidRecordError, match="Zed"):
            log.save_seats(night.id, {"Zed": 10.0})
        with pytest.raises(InvalidRecordError, match="not a JSON number"):
            log.save_seats(night.id, {"Ann": float("nan")})
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        assert dict(log.night_status(night.id).night.seats) == {"Ann": 180.5, "Bob": 270.0}
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


V5_ADDITIONS = """
ALTER TABLE nights ADD COLUMN seats TEXT;
PRAGMA user_version = 5;
"""


def _v5_heist(
    conn: sqlite3.Connection,
    night: int,
    hands: dict[str, list[str]],
    deal: dict[str, Any] | str,
) -> None:
    """A heist as version 5 saved it: hands with the best five's hole cards, the whole deal."""
    owners = {h: h.split("/")[0] for h in hands if h != "francois" and "+" not in h}
    conn.execute(
        "INSERT INTO heists (night_id, number, river, hands, owners, tokens, opens, failures,"
        " photo, saved_at, board2, deal) VALUES (?, 1, ?, ?, ?, '{}', 1, '[]', NULL,"
        " '2026-10-04T20:00:00+00:00', NULL, ?)",
        (
            night,
            json.dumps(["As", "Kd", "Qh", "7c", "2s"]),
            json.dumps(hands),
            json.dumps(owners),
            deal if isinstance(deal, str) else json.dumps(deal),
        ),
    )


def _players(*held: tuple[str, list[str]]) -> list[dict[str, Any]]:
    return [{"name": name, "cards": cards} for name, cards in held]


def test_version_5_hands_get_every_hole_card_back_from_their_deal(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    _make_v1(path)
    river = ["As", "Kd", "Qh", "7c", "2s"]
    with sqlite3.connect(path) as conn:
        conn.executescript(V2_ADDITIONS + V3_ADDITIONS + V4_ADDITIONS + V5_ADDITIONS)
        conn.execute("DELETE FROM heists")
        for night, variant in [(3, "classic"), (4, "high-low"), (5, "four-two-hands"), (6, "x")]:
            conn.execute(
                'INSERT INTO nights VALUES (?, \'["Ann", "Bob", "Cy"]\', ?, \'{}\', NULL,'
                " '2026-10-04T20:00:00+00:00', NULL, 'open', NULL)",
                (night, variant),
            )
        # Cy sat out; Ann's 5s and Bob's 3d were not in their best five.
        classic = _players(("Ann", ["Th", "5s"]), ("Bob", ["Jh", "3d"]))
        _v5_heist(
            conn,
            3,
            {"Ann": ["Th"], "Bob": ["Jh"]},
            {"variant": "classic", "board": river, "players": classic},
        )
        high_low = _players(("Ann", ["Ah", "2d", "9c", "9s"]))
        _v5_heist(
            conn,
            4,
            {"Ann/high": ["9c", "9s"], "Ann/low": ["2d", "Ah"]},
            {"variant": "high-low", "board": river, "players": high_low},
        )
        # A split variant's hands are each their own part of the player's cards.
        split = _players(("Ann", ["Ah", "Ad", "9c", "9d"]))
        _v5_heist(
            conn,
            5,
            {"Ann/1": ["Ah", "Ad"], "Ann/2": ["9c", "9d"]},
            {"variant": "four-two-hands", "board": river, "players": split},
        )
        # A deal that cannot be read: the hands stay as they were.
        _v5_heist(conn, 6, {"Ann": ["Th"]}, "{not json")
    conn.close()
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        hands = {night: thaw(log.heists(night)[0].hands) for night in (3, 4, 5)}
        owners = thaw(log.heists(3)[0].owners)
    assert hands[3] == {"Ann": ["Th", "5s"], "Bob": ["Jh", "3d"]}
    assert "Cy" not in owners.values()
    assert hands[4] == {"Ann/high": ["Ah", "2d", "9c", "9s"], "Ann/low": ["Ah", "2d", "9c", "9s"]}
    assert hands[5] == {"Ann/1": ["Ah", "Ad"], "Ann/2": ["9c", "9d"]}
    with sqlite3.connect(path) as conn:
        kept = conn.execute("SELECT hands FROM heists WHERE night_id = 6").fetchone()[0]
    conn.close()
    assert json.loads(kept) == {"Ann": ["Th"]}
    backup = tmp_path / "companion.sqlite3.schema-v5.bak"
    with sqlite3.connect(backup) as conn:
        saved = conn.execute("SELECT hands FROM heists WHERE night_id = 3").fetchone()[0]
    conn.close()
    assert json.loads(saved) == {"Ann": ["Th"], "Bob": ["Jh"]}
