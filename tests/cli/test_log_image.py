"""``companion log image``: a saved heist written as a PNG; every refusal in one line."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.share.picture import BANNER, WIDTH
from tests.share.heists import save_two_heists

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def call(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    return call


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("data")
    save_two_heists(folder)
    return folder


def _decoded(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def test_the_image_of_a_heist_is_written_and_said(data: Path, tmp_path: Path, run: Run) -> None:
    out = tmp_path / "alarm.png"
    code, said, err = run("log", "--data", str(data), "image", "--heist", "2", "--out", str(out))
    assert (code, err) == (0, "") and said.strip() == f"wrote {out}"
    image = _decoded(out)
    assert image.shape[1] == WIDTH and image.shape[0] > BANNER + 700
    assert image[BANNER // 2, 8, 2] > 150  # the alarm's red band


def test_without_a_night_the_heist_is_the_newest_night_s(tmp_path: Path, run: Run) -> None:
    folder = tmp_path / "data"
    save_two_heists(folder)  # night 1
    vault, _ = save_two_heists(folder)  # night 2: the newest
    newest, first = tmp_path / "newest.png", tmp_path / "first.png"
    code, _, _ = run("log", "--data", str(folder), "image", "--heist", "1", "--out", str(newest))
    assert code == 0
    argv = ("image", "--night", "1", "--heist", "1", "--out", str(first))
    code, said, _ = run("log", "--data", str(folder), *argv)
    assert code == 0 and said.startswith("wrote")
    photo_end = BANNER + round(WIDTH * 640 / 960)
    one, two = _decoded(newest), _decoded(first)
    assert np.array_equal(one[BANNER:photo_end], two[BANNER:photo_end])  # the same photo...
    assert not np.array_equal(one[photo_end:], two[photo_end:])  # ...another night's footer
    assert vault.night_id == 2


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--heist", "9"), "--heist: game night 1 has no heist 9"),
        (("--night", "1", "--heist", "3"), "--heist: game night 1 has no heist 3"),
        (("--night", "7", "--heist", "1"), "no game night 7 in the game log"),
    ],
)
def test_a_heist_not_in_the_log_is_one_line_and_writes_nothing(
    data: Path, tmp_path: Path, run: Run, argv: tuple[str, ...], said: str
) -> None:
    out = tmp_path / "x.png"
    code, _, err = run("log", "--data", str(data), "image", *argv, "--out", str(out))
    assert code == 2 and err.strip() == f"companion: {said}"
    assert not out.exists()


def test_an_empty_log_has_no_heist_to_draw(tmp_path: Path, run: Run) -> None:
    out = tmp_path / "x.png"
    code, _, err = run("log", "--data", str(tmp_path), "image", "--heist", "1", "--out", str(out))
    assert code == 2 and err.strip() == "companion: --heist: the game log has no game night yet"
    assert not out.exists()


def test_a_folder_or_an_unwritable_place_is_refused_in_one_line(
    data: Path, tmp_path: Path, run: Run
) -> None:
    code, _, err = run("log", "--data", str(data), "image", "--heist", "1", "--out", str(tmp_path))
    assert code == 2 and "is a folder" in err and "PNG" in err and len(err.splitlines()) == 1
    missing = tmp_path / "no" / "such" / "folder" / "x.png"
    code, _, err = run("log", "--data", str(data), "image", "--heist", "1", "--out", str(missing))
    assert code == 2 and str(missing) in err and len(err.splitlines()) == 1
    if os.geteuid() != 0:  # root writes into a read-only folder anyway
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = locked / "x.png"
        code, _, err = run(
            "log", "--data", str(data), "image", "--heist", "1", "--out", str(target)
        )
        assert code == 2 and str(target) in err


def test_a_damaged_heist_is_named_in_one_line(tmp_path: Path, run: Run) -> None:
    folder = tmp_path / "data"
    save_two_heists(folder)
    with sqlite3.connect(folder / "companion.sqlite3") as conn:
        conn.execute("UPDATE heists SET outlines = '{oops' WHERE id = 2")
    conn.close()
    out = tmp_path / "x.png"
    for argv in (("--heist", "2"), ("--night", "1", "--heist", "2")):
        code, _, err = run("log", "--data", str(folder), "image", *argv, "--out", str(out))
        assert code == 2 and len(err.splitlines()) == 1, err
        assert "heist 2 of game night 1" in err and "outlines" in err
        assert not out.exists()


def test_a_photo_gone_from_the_data_folder_is_said_and_the_cards_drawn_alone(
    tmp_path: Path, run: Run
) -> None:
    folder = tmp_path / "data"
    vault, _ = save_two_heists(folder)
    assert vault.photo is not None
    (folder / "photos" / vault.photo).unlink()
    out = tmp_path / "x.png"
    code, said, err = run("log", "--data", str(folder), "image", "--heist", "1", "--out", str(out))
    assert code == 0 and "no photo" in err and said.startswith("wrote")
    assert _decoded(out).shape[0] < BANNER + round(WIDTH * 640 / 960)
