"""``companion log`` on a log with a damaged ``deal`` (#53): the heist is named by its number and
night, left out of the stats, every export and the BG Stats play, the rest shown, exit 1; in a
log of today and in one an older release wrote (migrated on the way)."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main
from companion.storage import SqliteGameLog
from tests.storage.builders import heist
from tests.storage.old_logs import V5_LOG, copy_of

Run = Callable[..., tuple[int, str, str]]

DEEP = "[" * 50_000 + "]" * 50_000
DAMAGES = {"a JSON list": '["Ann", "Bob"]', "nested 50,000 deep": DEEP, "not JSON": "{oops"}


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def call(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    return call


def _damage(path: Path, night: int, number: int, deal: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE heists SET deal = ? WHERE night_id = ? AND number = ?", (deal, night, number)
        )
    conn.close()


def _won_night(folder: Path) -> Path:
    """Night 1 won in three vaults (its second heist to be damaged), night 2 still open."""
    with SqliteGameLog.in_folder(folder) as log:
        night = log.start_night(["Ann", "Bob", "Cy"], "classic")
        deal = {"variant": "classic", "board": ["As"], "players": []}
        for _ in range(3):
            log.save_heist(night.id, dataclasses.replace(heist(True), deal=deal))
        other = log.start_night(["Ann", "Dee"], "classic")
        log.save_heist(other.id, dataclasses.replace(heist(False), owners={}))
    return folder / "companion.sqlite3"


def _named(err: str, heist: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert heist in lines[0] and "deal" in lines[0] and "left out" in lines[0], err


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_deal_is_named_and_left_out_of_stats_exports_and_bg_stats(
    tmp_path: Path, run: Run, damage: str
) -> None:
    data = tmp_path / "data"
    _damage(_won_night(data), 1, 2, damage)
    named = "heist 2 of game night 1"

    code, out, err = run("log", "--data", str(data), "stats")
    assert code == 1 and "2 vaults in a row" in out, out
    _named(err, named)

    target = tmp_path / "all.json"
    code, _, err = run("log", "--data", str(data), "export", "json", "--out", str(target))
    assert code == 1
    _named(err, named)
    nights = {n["id"]: n for n in json.loads(target.read_text())["nights"]}
    assert [h["number"] for h in nights[1]["heists"]] == [1, 3]
    assert [h["number"] for h in nights[2]["heists"]] == [1]

    folder = tmp_path / "csv"
    code, _, err = run("log", "--data", str(data), "export", "csv", "--out", str(folder))
    assert code == 1
    _named(err, named)
    rows = list(csv.DictReader(io.StringIO((folder / "heists.csv").read_text())))
    assert sorted((r["night"], r["heist"]) for r in rows) == [("1", "1"), ("1", "3"), ("2", "1")]

    archive = tmp_path / "all.zip"
    code, _, err = run("log", "--data", str(data), "export", "zip", "--out", str(archive))
    assert code == 1
    _named(err, named)
    with zipfile.ZipFile(archive) as opened:
        inside = json.loads(opened.read("game-log.json"))
    assert sum(len(n["heists"]) for n in inside["nights"]) == 3

    code, out, err = run("log", "--data", str(data), "bgstats", "--night", "1")
    assert code == 1 and out.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    _named(err, named)


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_deal_in_an_older_log_is_migrated_past_then_named(
    tmp_path: Path, run: Run, damage: str
) -> None:
    """The same row in a version-5 file made migration 6 fail: no command could open the log."""
    path = copy_of(V5_LOG, tmp_path / "data")
    _damage(path, 1, 2, damage)
    code, out, err = run("log", "--data", str(path.parent), "export", "json")
    assert code == 1
    _named(err, "heist 2 of game night 1")
    nights = {n["id"]: n for n in json.loads(out)["nights"]}
    assert [h["number"] for h in nights[1]["heists"]] == [1]
    assert nights[1]["heists"][0]["hands"]["Ana"] == ["Ks", "7s"]
    code, out, err = run("log", "--data", str(path.parent), "stats", "--lang", "fr")
    assert code == 1 and "casse 2 de la soirée 1" in err and err.count("\n") == 1
    # The damaged row itself is kept as it was, for a person to look at.
    with sqlite3.connect(path) as conn:
        kept = conn.execute("SELECT deal FROM heists WHERE night_id = 1 AND number = 2")
        assert kept.fetchone()[0] == damage
    conn.close()


def test_data_and_lang_go_after_the_action_too(tmp_path: Path, run: Run) -> None:
    data = tmp_path / "data"
    _won_night(data)
    before = run("log", "--data", str(data), "--lang", "fr", "nights")
    assert before[0] == 0 and "n°1" in before[1]
    assert run("log", "nights", "--data", str(data), "--lang", "fr") == before
    stats = run("log", "--data", str(data), "stats")
    assert run("log", "stats", "--data", str(data)) == stats
    code, out, _ = run("log", "export", "json", "--night", "2", "--data", str(data))
    assert code == 0 and [n["id"] for n in json.loads(out)["nights"]] == [2]
    # Given on both sides, the one after the action wins; left out after it, the one before.
    elsewhere = tmp_path / "elsewhere"
    assert run("log", "--data", str(elsewhere), "nights", "--data", str(data)) == before[:1] + (
        run("log", "--data", str(data), "nights")[1],
        "",
    )
    assert not elsewhere.exists()
