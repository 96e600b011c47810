"""Standard output that is closed (``>&-``) or whose reader left (``| head -0``), for every
command that prints (#53): a closed output is one line saying so, exit 2, as a Unix tool's
write error; a reader that left is no error at all, the command stops quietly (141, as a tool
killed by SIGPIPE), never "Broken pipe; check the path" nor a bug report."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.storage import SqliteGameLog
from tests.helpers import ROOT

TABLE = {
    "board": "2h 7d 9s Jc Kd",
    "players": [{"name": "Ana", "cards": "As Ah"}, {"name": "Bob", "cards": "Kc Qc"}],
}
PHOTO = ROOT / "tests" / "fixtures" / "images" / "scene_0001.jpg"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "table.json").write_text(json.dumps(TABLE), encoding="utf-8")
    with SqliteGameLog.in_folder(folder / "data") as log:
        log.start_night(["Ana", "Bob"], "classic")
    return folder


COMMANDS = {
    "showdown": ["showdown", "{in}/table.json"],
    "showdown --json": ["showdown", "{in}/table.json", "--json"],
    "analyze": ["analyze", "{in}/table.json", "--samples", "2000"],
    "log nights": ["log", "--data", "{in}/data", "nights"],
    "log export json": ["log", "--data", "{in}/data", "export", "json"],
    "detect": ["detect", str(PHOTO)],
    "spit simulate": ["spit", "simulate", "--games", "2"],
    "crib discard": ["crib", "discard", "5h", "5d", "5c", "Jh", "2s", "9d"],
}


def _argv(command: str, inputs: Path) -> list[str]:
    return [arg.replace("{in}", str(inputs)) for arg in COMMANDS[command]]


def _run(argv: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *argv],
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        cwd=ROOT,
        **options,  # type: ignore[call-overload]
    )


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_a_closed_standard_output_is_one_line(inputs: Path, command: str) -> None:
    """``>&-``: showdown, analyze, log and detect said "unexpected error (AttributeError)";
    spit simulate and crib discard exited 0 with their output lost."""
    done = _run(_argv(command, inputs), preexec_fn=lambda: os.close(1))
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "standard output is closed" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_a_reader_that_left_ends_the_command_quietly(inputs: Path, command: str) -> None:
    """``| head -0``: "-: Broken pipe; check the path, its permissions and the free space"."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line is written
    try:
        done = _run(_argv(command, inputs), stdout=write)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, ""), done


def test_a_closed_standard_error_never_sends_its_lines_to_standard_output(
    inputs: Path, tmp_path: Path
) -> None:
    """Standard error closed (``2>&-``): a damaged row's line goes nowhere, the exit status
    still says it (1), and standard output holds only the listing."""
    data = tmp_path / "data"
    with SqliteGameLog.in_folder(data) as log:
        log.start_night(["Ana", "Bob"], "classic")
        log.start_night(["Cy", "Dee"], "classic")
    with sqlite3.connect(data / "companion.sqlite3") as conn:
        conn.execute("UPDATE nights SET created_at = 'yesterday' WHERE id = 2")
    conn.close()
    done = subprocess.run(
        [sys.executable, "-m", "companion", "log", "--data", str(data), "nights"],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(2),
        timeout=60,
    )
    assert done.returncode == 1 and done.stdout.count("\n") == 1 and "#1" in done.stdout
