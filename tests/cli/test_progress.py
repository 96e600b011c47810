"""Long jobs show their progress on a terminal, and only there (#53): ``spit simulate``,
``analyze`` on one table and ``log export zip`` rewrite one line of standard error when it is a
terminal (a real pseudo-terminal here), and write nothing more when it is a file or a pipe."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.storage import SqliteGameLog
from tests.helpers import ROOT
from tests.storage.builders import heist


def _run(argv: list[str], terminal: bool) -> tuple[int, str, str]:
    """The command with standard error on a pseudo-terminal (or a pipe); (status, out, err)."""
    command = [sys.executable, "-m", "companion", *argv]
    if not terminal:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
        return done.returncode, done.stdout, done.stderr
    master, slave = pty.openpty()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, cwd=ROOT)
    os.close(slave)
    seen: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal's other end closed
                return
            if not chunk:
                return
            seen.append(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    out, _ = child.communicate(timeout=300)
    reader.join(30)
    os.close(master)
    return child.returncode, out.decode(), b"".join(seen).decode()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = tmp_path_factory.mktemp("progress")
    table = {
        "board": "2h 9s Jc 4h Td",
        "players": [{"name": "Ana", "cards": "As Kd"}, {"name": "Bob", "cards": "Kc Qc"}],
    }
    (made / "table.json").write_text(json.dumps(table), encoding="utf-8")
    with SqliteGameLog.in_folder(made / "data") as log:
        night = log.start_night(["Ann", "Bob", "Cy"], "classic")
        for k in range(3):
            log.save_heist(night.id, heist(True, photo=log.store_photo(b"\xff\xd8photo%d" % k)))
    return made


@pytest.mark.slow
def test_spit_simulate_counts_its_games_on_a_terminal_only(folder: Path) -> None:
    argv = ["spit", "simulate", "--games", "30", "--rules", "classic", "--json"]
    code, out, err = _run(argv, terminal=True)
    assert code == 0 and "classic: game 30 of 30" in err and err.endswith("\r")
    again = _run(argv, terminal=False)
    assert again[0] == code and again[2] == ""
    timeless = [{**r, "seconds": 0, "games_per_second": 0} for r in json.loads(out)["results"]]
    assert [
        {**r, "seconds": 0, "games_per_second": 0} for r in json.loads(again[1])["results"]
    ] == (timeless)


@pytest.mark.slow
def test_analyze_of_one_table_says_each_street_on_a_terminal_only(folder: Path) -> None:
    argv = ["analyze", str(folder / "table.json"), "--samples", "2000"]
    code, out, err = _run(argv, terminal=True)
    assert code == 0 and "table 1 of 1, pre-flop" in err and "table 1 of 1, river" in err
    assert _run(argv, terminal=False) == (code, out, "")


@pytest.mark.slow
def test_a_zip_export_counts_its_photos_on_a_terminal_only(folder: Path) -> None:
    zipped = folder / "log.zip"
    argv = ["log", "--data", str(folder / "data"), "export", "zip", "--out", str(zipped)]
    code, out, err = _run(argv, terminal=True)
    assert code == 0 and "zip: photo 3 of 3" in err and str(zipped) in out
    assert _run([*argv, "--lang", "fr"], terminal=True)[2].count("zip : photo 3 sur 3") == 1
    assert _run(argv, terminal=False) == (code, out, "")
