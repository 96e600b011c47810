from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from companion.storage import Heist, HeistDraft, NotFoundError, SqliteGameLog, Verdict
from companion.storage.export import EXPORT_FORMAT, HEIST_COLUMNS, NIGHT_COLUMNS
from companion.storage.model import thaw
from tests.storage.builders import heist, ticking_clock

PLAYERS = ("Ann", "Bob", "Cy", "Zoé")


@pytest.fixture
def log(tmp_path: Path) -> Any:
    with SqliteGameLog(tmp_path / "log.sqlite3", clock=ticking_clock()) as opened:
        first = opened.start_night(PLAYERS, "classic", rules={"decks": 1, "ranking": "high"})
        photo = opened.store_photo(b"photo bytes")
        opened.save_heist(first.id, heist(True, photo=photo, board2=True))
        opened.save_heist(first.id, heist(False))
        opened.save_seats(first.id, {PLAYERS[0]: 90.0})  # one night seated, the others not
        second = opened.start_night(PLAYERS, "=HYPERLINK(1)")
        opened.save_heist(second.id, heist(False))
        opened.start_night(PLAYERS, "low")  # a night with no heist yet
        opened.save_preset("Friday", {"decks": 2})
        yield opened


def _rows(text: str, columns: tuple[str, ...]) -> list[dict[str, str]]:
    reader = csv.DictReader(io.StringIO(text))
    assert tuple(reader.fieldnames or ()) == columns
    return list(reader)


def _heist_from_row(row: dict[str, str]) -> dict[str, Any]:
    return {
        "river": tuple(row["river"].split()),
        "board2": tuple(row["board2"].split()) if row["board2"] else None,
        "hands": {hand: tuple(cards) for hand, cards in json.loads(row["hands"]).items()},
        "owners": json.loads(row["owners"]),
        "tokens": json.loads(row["tokens"]),
        "opens": row["vault_opens"] == "1",
        "failures": json.loads(row["failures"]),
        "photo": row["photo"] or None,
        "saved_at": row["saved_at"],
    }


def _heist_fields(saved: Heist) -> dict[str, Any]:
    return {
        "river": saved.river,
        "board2": saved.board2,
        "hands": dict(saved.hands),
        "owners": dict(saved.owners),
        "tokens": dict(saved.tokens),
        "opens": saved.verdict.opens,
        "failures": thaw(saved.verdict.failures),
        "photo": saved.photo,
        "saved_at": saved.saved_at.isoformat(),
    }


def test_csv_export_of_everything_parses_back(log: SqliteGameLog) -> None:
    export = log.export_csv()
    nights = _rows(export.nights, NIGHT_COLUMNS)
    heists = _rows(export.heists, HEIST_COLUMNS)
    statuses = log.list_nights()
    assert [int(row["night"]) for row in nights] == [s.night.id for s in statuses]
    for row, status in zip(nights, statuses, strict=True):
        assert json.loads(row["players"]) == list(PLAYERS)
        assert json.loads(row["rules"]) == thaw(status.night.rules)
        assert (row["outcome"], int(row["vaults"]), int(row["alarms"])) == (
            status.outcome.value,
            status.vaults,
            status.alarms,
        )
    saved = [h for s in statuses for h in log.heists(s.night.id)]
    assert [(int(r["night"]), int(r["heist"])) for r in heists] == [
        (h.night_id, h.number) for h in saved
    ]
    assert [_heist_from_row(r) for r in heists] == [_heist_fields(h) for h in saved]


def test_csv_keeps_formulas_as_text(log: SqliteGameLog) -> None:
    variants = [row["variant"] for row in _rows(log.export_csv().nights, NIGHT_COLUMNS)]
    assert "'=HYPERLINK(1)" in variants and "classic" in variants


def test_csv_export_of_one_night(log: SqliteGameLog) -> None:
    night = log.list_nights()[-1].night
    export = log.export_csv(night.id)
    assert [row["night"] for row in _rows(export.nights, NIGHT_COLUMNS)] == [str(night.id)]
    assert len(_rows(export.heists, HEIST_COLUMNS)) == 2


def test_json_export_of_everything_parses_back(log: SqliteGameLog) -> None:
    document = json.loads(log.export_json())
    assert document["format"] == EXPORT_FORMAT
    assert document["presets"] == [
        {
            "name": "Friday",
            "rules": {"decks": 2},
            "saved_at": log.preset("Friday").saved_at.isoformat(),
        }
    ]
    statuses = log.list_nights()
    assert [n["id"] for n in document["nights"]] == [s.night.id for s in statuses]
    for exported, status in zip(document["nights"], statuses, strict=True):
        assert exported["players"] == list(PLAYERS) and exported["outcome"] == status.outcome.value
        assert exported["seats"] == dict(status.night.seats)
        assert (exported["vaults"], exported["alarms"]) == (status.vaults, status.alarms)
        restored = [
            HeistDraft(
                river=tuple(h["river"]),
                board2=tuple(h["board2"]) if h["board2"] is not None else None,
                hands={k: tuple(v) for k, v in h["hands"].items()},
                owners=h["owners"],
                tokens=h["tokens"],
                verdict=Verdict(h["verdict"]["opens"], tuple(h["verdict"]["failures"])),
                photo=h["photo"],
            )
            for h in exported["heists"]
        ]
        saved = log.heists(status.night.id)
        assert [h["number"] for h in exported["heists"]] == [h.number for h in saved]
        assert restored == [h.draft() for h in saved]


def test_json_export_of_one_night_has_no_presets(log: SqliteGameLog) -> None:
    night = log.list_nights()[-1].night
    document = json.loads(log.export_json(night.id))
    assert [n["id"] for n in document["nights"]] == [night.id] and document["presets"] == []
    with pytest.raises(NotFoundError):
        log.export_json(999)


def test_archive_holds_json_csv_and_photos(log: SqliteGameLog, tmp_path: Path) -> None:
    target = tmp_path / "export.zip"
    with target.open("wb") as file:
        assert log.export_archive(file) == 1
    photo = log.heists(log.list_nights()[-1].night.id)[0].photo
    assert photo is not None
    with zipfile.ZipFile(target) as archive:
        assert sorted(archive.namelist()) == [
            "game-log.json",
            "heists.csv",
            "nights.csv",
            f"photos/{photo}.bin",  # the fixture's bytes are no known image format
        ]
        assert archive.read(f"photos/{photo}.bin") == b"photo bytes"
        document = json.loads(archive.read("game-log.json"))
        heists = _rows(archive.read("heists.csv").decode(), HEIST_COLUMNS)
    assert len(document["nights"]) == 3 and len(heists) == 3


def test_archive_of_a_night_without_photos(log: SqliteGameLog) -> None:
    night = log.list_nights()[1].night
    buffer = io.BytesIO()
    assert log.export_archive(buffer, night.id) == 0
    with zipfile.ZipFile(buffer) as archive:
        assert json.loads(archive.read("game-log.json"))["nights"][0]["id"] == night.id
