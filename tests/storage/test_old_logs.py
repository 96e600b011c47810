"""Logs written by an older release (``tests/fixtures/logs``, made by that commit's own code):
migrated whole, every form the table format allows read, a row the migration cannot read
refused with the file left as it was, and many commands opening one at once (#53)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.storage import SCHEMA_VERSION, SqliteGameLog
from companion.storage.model import thaw
from tests.storage.old_logs import V5_LOG, copy_of
from tests.storage.test_migrations import V2_ADDITIONS, V3_ADDITIONS, _make_v1

DEEP = "[" * 50_000 + "]" * 50_000


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.close()
    return version


def _set_deal(path: Path, number: int, night: int, deal: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE heists SET deal = ? WHERE night_id = ? AND number = ?", (deal, night, number)
        )
    conn.close()


def test_the_fixture_is_a_version_5_log_as_that_release_wrote_it() -> None:
    assert _version(V5_LOG) == 5
    with sqlite3.connect(V5_LOG) as conn:
        deal = json.loads(conn.execute("SELECT deal FROM heists WHERE id = 1").fetchone()[0])
    conn.close()
    assert deal["players"][0] == {"name": "Ana", "cards": "Ks 7s"}


def test_a_deal_giving_each_hand_as_one_text_is_migrated_card_by_card(tmp_path: Path) -> None:
    """Migration 6 iterated the text: "Ks 7s" became ["K", "s", " ", "7", "s"]."""
    path = copy_of(V5_LOG, tmp_path)
    with SqliteGameLog(path) as log:
        first, second = log.heists(1)
        (split,) = log.heists(2)
        stats = log.stats()
        document = json.loads(log.export_json())
        assert log.damaged_records() == ()
    assert thaw(first.hands) == {"Ana": ["Ks", "7s"], "Bob": ["Jh", "3d"], "Chloé": ["9c", "9d"]}
    assert thaw(second.hands) == {"Ana": ["Th", "5s"], "Bob": ["Jc", "3h"], "Chloé": ["8c", "8d"]}
    assert thaw(split.hands) == {"Ana/1": ["Ah", "Ad"], "Ana/2": ["9c", "9d"]}
    assert sum(v.heists for v in stats.hardest_variants) == 3
    assert [len(n["heists"]) for n in document["nights"]] == [1, 2]
    assert _version(path) == SCHEMA_VERSION


def test_the_deal_s_names_meet_the_owners_in_either_unicode_spelling(tmp_path: Path) -> None:
    """The old release stored owners in NFC and the deal as given: "Chloé" spelled with a
    combining accent in the deal is still Chloé's hand."""
    path = copy_of(V5_LOG, tmp_path)
    deal = {
        "variant": "classic",
        "board": "As Kd Qh 7c 2s",
        "players": [{"name": "Chloe\u0301", "cards": "9c 9d 4h"}],
    }
    _set_deal(path, 1, 1, json.dumps(deal))
    with SqliteGameLog(path) as log:
        first = log.heists(1)[0]
    assert thaw(first.hands)["Chloé"] == ["9c", "9d", "4h"]


@pytest.mark.parametrize(
    "cards", [5, [1, 2], ["Ks", ""], ["Ks 7s"], {"a": "Ks"}], ids=lambda c: repr(c)[:12]
)
def test_a_row_the_migration_cannot_read_is_refused_and_the_file_is_left_as_it_was(
    tmp_path: Path, cards: object
) -> None:
    path = copy_of(V5_LOG, tmp_path)
    deal = {"variant": "classic", "board": [], "players": [{"name": "Bob", "cards": cards}]}
    _set_deal(path, 2, 1, json.dumps(deal))
    before = path.read_bytes()
    with pytest.raises(CompanionError) as refused:
        SqliteGameLog(path)
    words = refused.value.message("en")
    assert "heist 2 of game night 1" in words and "the cards of Bob" in words, words
    assert f"schema 5 to {SCHEMA_VERSION}" in words and "left as it was" in words
    assert path.read_bytes() == before
    assert "casse 2 de la soirée 1" in refused.value.message("fr")
    # The command line says it in one line, exit 2, and the file stays at version 5.
    done = subprocess.run(
        [sys.executable, "-m", "companion", "log", "--data", str(tmp_path), "nights"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.count("\n") == 1 and "heist 2 of game night 1" in done.stderr
    assert path.read_bytes() == before and _version(path) == 5


def _race(folder: Path, n: int) -> list[subprocess.CompletedProcess[str]]:
    """``n`` real processes opening the same log at once."""
    command = [sys.executable, "-m", "companion", "log", "--data", str(folder), "nights"]
    children = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(n)
    ]
    done = []
    for child in children:
        out, err = child.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(command, child.returncode, out, err))
    return done


@pytest.mark.slow
def test_many_commands_opening_an_old_log_at_once_all_read_it(tmp_path: Path) -> None:
    """Each process wrote the same backup file: some failed with "disk I/O error", and once the
    backup held no tables. The migration and its backup now happen under the write lock."""
    for round_ in range(4):
        folder = tmp_path / f"round{round_}"
        path = copy_of(V5_LOG, folder)
        results = _race(folder, 12)
        failed = [r.stderr for r in results if r.returncode != 0]
        assert failed == [], failed
        assert all("#1" in r.stdout and "#2" in r.stdout for r in results)
        backup = folder / "companion.sqlite3.schema-v5.bak"
        assert _version(backup) == 5 and _version(path) == SCHEMA_VERSION
        with sqlite3.connect(backup) as conn:
            hands = conn.execute("SELECT hands FROM heists WHERE id = 1").fetchone()[0]
        conn.close()
        assert json.loads(hands) == {"Ana": ["Ks"], "Bob": ["Jh"], "Chloé": ["9c", "9d"]}
        assert sorted(p.name for p in folder.iterdir() if "partial" in p.name) == []


def test_damaged_rows_of_a_version_3_log_keep_no_deal_and_are_named(tmp_path: Path) -> None:
    """Migration 4 read every row as JSON: one damaged heist or night stopped every command."""
    path = tmp_path / "companion.sqlite3"
    _make_v1(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(V2_ADDITIONS + V3_ADDITIONS)
        conn.execute("UPDATE heists SET hands = '{oops' WHERE night_id = 1 AND number = 2")
        conn.execute("UPDATE heists SET river = ? WHERE night_id = 1 AND number = 3", (DEEP,))
    conn.close()
    with SqliteGameLog(path) as log:
        kept = log.heists(1)
        damaged = [error.message("en") for error in log.damaged_records()]
    assert [h.number for h in kept] == [1, 4] and all(h.deal is not None for h in kept)
    assert len(damaged) == 2 and "heist 2 of game night 1" in damaged[0] and "hands" in damaged[0]
    assert "heist 3 of game night 1" in damaged[1] and "river" in damaged[1]
