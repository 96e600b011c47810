"""Every command's one error boundary (#44): a failure is one line naming the problem and what
to do, exit 2; nothing saved is lost; nothing read from the input reaches the terminal raw."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.storage import SqliteGameLog
from tests.helpers import ROOT
from tests.storage.builders import heist

Run = tuple[int, str, str]
Runner = Callable[[list[str]], Run]
BOARD = "2h 7d 9s Jc Kd"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Runner:
    def call(argv: list[str]) -> Run:
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return call


def refused(result: Run, *words: str, most: int = 400) -> str:
    """The one error line of a refused command (exit 2, nothing on stdout)."""
    code, out, err = result
    assert code == 2 and out == "", result
    assert err.startswith("companion: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and len(err) <= most, err
    for word in words:
        assert word in err, (word, err)
    return err


def _mount(folder: Path, options: str) -> bool:
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True
    )
    return done.returncode == 0


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """A real small filesystem (needs the right to mount, else the test is skipped)."""
    mounted: list[Path] = []

    def make(options: str) -> Path:
        folder = tmp_path / f"fs{len(mounted)}"
        if os.geteuid() != 0 or not _mount(folder, options):
            pytest.skip("mounting a tmpfs needs root")
        mounted.append(folder)
        return folder

    yield make
    for folder in reversed(mounted):
        subprocess.run(["umount", str(folder)], check=False)


def _remount_read_only(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A log of three nights, the second one damaged in ways SQLite's checks pass."""
    folder = tmp_path / "data"
    with SqliteGameLog.in_folder(folder) as log:
        for players in (["Ann", "Bob", "Cy"], ["Cy", "Dee"], ["Eve", "Fox"]):
            log.start_night(players, "classic")
    return folder


def _damage(folder: Path, statement: str) -> None:
    with sqlite3.connect(folder / "companion.sqlite3") as conn:
        conn.execute(statement)
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    conn.close()


# -- companion log ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (["export", "json", "--out", "/nonexistent/x.json"], ["/nonexistent/x.json", "folder"]),
        (["export", "json", "--out", "/tmp"], ["--out /tmp is a folder", "file name"]),
        (["export", "zip", "--out", "/tmp"], ["--out /tmp is a folder"]),
        (["export", "csv", "--out", "/etc/hostname"], ["/etc/hostname is a file", "folder"]),
    ],
)
def test_log_outputs_that_cannot_work_are_one_line(
    data: Path, run: Runner, action: list[str], words: list[str]
) -> None:
    refused(run(["log", "--data", str(data), *action]), *words)


def test_a_huge_night_number_is_refused_by_the_option(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["log", "--data", str(data), "export", "json", "--night", "9" * 23])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "Traceback" not in err
    assert "--night" in err and "whole number from 1" in err


def test_a_file_given_as_the_data_folder_is_named(tmp_path: Path, run: Runner) -> None:
    file = tmp_path / "hostname"
    file.write_text("box\n")
    refused(run(["log", "--data", str(file), "nights"]), str(file), "is a file", "--data")
    assert file.read_text() == "box\n"


def test_damaged_rows_are_named_and_the_rest_is_shown(data: Path, run: Runner) -> None:
    _damage(data, "UPDATE nights SET created_at = 'yesterday' WHERE id = 2")
    code, out, err = run(["log", "--data", str(data), "nights"])
    assert code == 1 and "#1" in out and "#3" in out and "#2" not in out
    assert err.count("\n") == 1 and "game night 2" in err and "created_at" in err
    code, out, err = run(["log", "--data", str(data), "stats"])
    assert code == 1 and "game night 2" in err and "nights won 0" in out


def test_a_heist_whose_river_is_not_json_is_left_out_of_the_export(
    data: Path, tmp_path: Path, run: Runner
) -> None:
    with SqliteGameLog.in_folder(data) as log:
        for _ in range(2):
            log.save_heist(1, heist(opens=True))
    _damage(data, "UPDATE heists SET river = 'not json' WHERE number = 1")
    out_file = tmp_path / "all.json"
    code, out, err = run(["log", "--data", str(data), "export", "json", "--out", str(out_file)])
    assert code == 1 and "heist" in err and "river" in err
    document = json.loads(out_file.read_text())
    assert [len(night["heists"]) for night in document["nights"] if night["heists"]] == [1]


def test_an_export_to_a_full_disk_leaves_the_old_file_whole(
    data: Path, tmpfs: Callable[[str], Path], run: Runner
) -> None:
    disk = tmpfs("size=64k")
    target = disk / "log.json"
    target.write_text("kept\n")
    (disk / "filler").write_bytes(b"x" * (60 * 1024))
    err = refused(run(["log", "--data", str(data), "export", "json", "--out", str(target)]))
    assert str(target) in err and "left as it was" in err
    assert target.read_text() == "kept\n"
    assert sorted(p.name for p in disk.iterdir()) == ["filler", "log.json"]


def test_a_log_on_a_read_only_disk_is_still_read(tmpfs: Callable[[str], Path], run: Runner) -> None:
    disk = tmpfs("size=4m")
    with SqliteGameLog.in_folder(disk) as log:
        log.start_night(["Ana", "Bob"], "classic")
    _remount_read_only(disk)
    before = (disk / "companion.sqlite3").read_bytes()
    code, out, err = run(["log", "--data", str(disk), "nights"])
    assert (code, err) == (0, "") and "Ana, Bob" in out
    assert (disk / "companion.sqlite3").read_bytes() == before
    refused(run(["log", "--data", str(disk / "new"), "nights"]), "read-only", "--data")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_a_folder_read_only_for_this_user_says_why(data: Path, run: Runner) -> None:
    (data / "companion.sqlite3-wal").unlink(missing_ok=True)
    data.chmod(0o555)
    try:
        refused(run(["log", "--data", str(data), "nights"]), "journal", "owner")
    finally:
        data.chmod(0o755)


# -- what reaches the terminal ---------------------------------------------------------------


def _table_file(tmp_path: Path, names: tuple[str, str], **extra: object) -> str:
    raw = {
        "board": BOARD,
        "players": [
            {"name": names[0], "cards": "As Ad"},
            {"name": names[1], "cards": "Qs Qc"},
        ],
        **extra,
    }
    path = tmp_path / "table.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", [["showdown"], ["showdown", "--json"], ["analyze"]])
def test_a_lone_surrogate_in_a_name_is_written_as_its_escape(
    tmp_path: Path, command: list[str]
) -> None:
    path = _table_file(tmp_path, ("\ud800", "Bob"))
    done = subprocess.run(
        [sys.executable, "-m", "companion", *command, path],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert b"\\ud800" in done.stdout
    if "--json" in command:
        assert json.loads(done.stdout)["hands"][0]["id"] in ("\ud800", "Bob")


@pytest.mark.parametrize("command", [["showdown"], ["showdown", "--json"]])
def test_control_characters_in_names_never_reach_the_terminal(
    tmp_path: Path, run: Runner, command: list[str]
) -> None:
    evil = "Eve\x1b[2J\nFake\u2028line\r\x9b31m"
    code, out, err = run([*command, _table_file(tmp_path, (evil, "Bob"))])
    assert code == 0 and err == ""
    assert not any(c in out for c in "\x1b\r\x9b\u2028") and "Fake" in out
    if "--json" in command:
        assert evil in {hand["id"] for hand in json.loads(out)["hands"]}
    else:
        assert out.count("\n") == 3  # the title and two hands


def test_a_name_in_an_error_is_one_escaped_line(tmp_path: Path, run: Runner) -> None:
    path = _table_file(tmp_path, ("Eve\x1b[2J\n", "Eve\x1b[2J\n"))
    err = refused(run(["showdown", path]))
    assert "\x1b" not in err and "\\x1b" in err


# -- long values and counts in errors ----------------------------------------------------------


def test_a_hundred_thousand_cards_make_a_short_line(tmp_path: Path, run: Runner) -> None:
    path = tmp_path / "count.json"
    path.write_text(json.dumps([["5h"] * 100_000]))
    refused(run(["crib", "peg", "--batch", str(path)]), "100000 times", most=200)


def test_a_long_spit_move_is_cut(run: Runner) -> None:
    position = ["spit", "referee", "--piles", "7h", "Kc", "--p1", "8d", "--p2", "Qh"]
    for move in ("x " * 5000, "p1 " + "8d" * 5000 + " -> pile 1"):
        refused(run([*position, "--move", move]), "…", most=200)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["crib", "5c", "5c", "5c", "5c", "--starter", "5d"], ["4 times", "(4 times)"]),
        (["crib", "peg", "5c", "5c", "5c"], ["3 times"]),
        (["crib", "peg", "5c", "5c"], ["appears twice"]),
    ],
)
def test_a_card_seen_more_than_twice_is_counted_right(
    run: Runner, argv: list[str], words: list[str]
) -> None:
    err = refused(run(argv), *words)
    assert "the hand, the hand" not in err


def test_four_copies_on_a_one_deck_table_are_four(tmp_path: Path, run: Runner) -> None:
    raw = {
        "board": "2h 7d 9s Jc Kd",
        "players": [{"name": "Ana", "cards": "2h 2h"}, {"name": "Bob", "cards": "2h Qc"}],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(raw))
    refused(run(["showdown", str(path)]), "4 times", "one deck")


# -- input and options -----------------------------------------------------------------------


def test_invalid_utf8_is_refused_alike_on_stdin_and_in_a_file(tmp_path: Path) -> None:
    body = b'{"board": "2h 7d 9s Jc Kd\xff", "players": []}'
    path = tmp_path / "bad.json"
    path.write_bytes(body)
    errors = []
    for argv, stdin in ((["showdown", str(path)], None), (["showdown", "-"], body)):
        done = subprocess.run(
            [sys.executable, "-m", "companion", *argv],
            input=stdin,
            capture_output=True,
            cwd=ROOT,
            timeout=60,
        )
        assert done.returncode == 2 and done.stdout == b""
        errors.append(done.stderr.decode().split(" is not UTF-8")[1])
    assert errors[0] == errors[1]


def test_spit_simulate_games_are_bounded(run: Runner, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["spit", "simulate", "--games", "999999999999"])
    assert stop.value.code == 2
    assert "from 0 to 10000" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "batch", "word"),
    [
        (["crib", "--batch"], [{"hand": "5c 5d 5h Js", "starter": "5s", "stater": 1}], "stater"),
        (["crib", "peg", "--batch"], [{"cards": "5c 5d", "ends": "go"}], "ends"),
    ],
)
def test_crib_batches_refuse_unknown_keys(
    tmp_path: Path, run: Runner, argv: list[str], batch: object, word: str
) -> None:
    path = tmp_path / "batch.json"
    path.write_text(json.dumps(batch))
    refused(run([*argv, str(path)]), "batch item 1", "unknown field", word)


# -- bounded analyze ---------------------------------------------------------------------------


def test_analyze_refuses_a_hand_past_its_bound_at_once(tmp_path: Path, run: Runner) -> None:
    free = [r + s for s in "shdc" for r in "23456789TJQKA" if r + s not in BOARD.split()]
    raw = {
        "board": BOARD,
        "players": [
            {"name": "Ana", "cards": " ".join(free[:22])},
            {"name": "Bob", "cards": " ".join(free[22:44])},
        ],
    }
    path = tmp_path / "big.json"
    path.write_text(json.dumps(raw))
    refused(run(["analyze", str(path)]), "Ana holds 22 cards", "showdown")
    code, out, _ = run(["showdown", str(path)])
    assert code == 0 and "Ana" in out


def test_analyze_six_three_hands_of_wild_cards(tmp_path: Path, run: Runner) -> None:
    raw = {
        "variant": "six-three-hands",
        "board": "* * * * *",
        "players": [{"name": "P0", "cards": "* * * * * *"}, {"name": "P1", "cards": "* " * 6}],
    }
    path = tmp_path / "wild.json"
    path.write_text(json.dumps(raw))
    code, out, err = run(["analyze", "--json", "--samples", "2000", str(path)])
    assert code == 0 and err == ""
    assert len(json.loads(out)["streets"]) == 4
