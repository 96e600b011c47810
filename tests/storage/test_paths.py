from __future__ import annotations

from pathlib import Path

import pytest

from companion.storage import SqliteGameLog, database_path, default_data_dir

HOME = Path("/home/ann")


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({}, "linux", "/home/ann/.local/share/companion"),
        ({"XDG_DATA_HOME": "/srv/data"}, "linux", "/srv/data/companion"),
        ({"XDG_DATA_HOME": "relative/data"}, "linux", "/home/ann/.local/share/companion"),
        ({"COMPANION_DATA": "/mnt/usb/log"}, "linux", "/mnt/usb/log"),
        ({"COMPANION_DATA": "/mnt/usb/log", "XDG_DATA_HOME": "/srv"}, "linux", "/mnt/usb/log"),
        ({}, "darwin", "/home/ann/Library/Application Support/companion"),
        (
            {"APPDATA": "/c/Users/ann/AppData/Roaming"},
            "win32",
            "/c/Users/ann/AppData/Roaming/companion",
        ),
        ({}, "win32", "/home/ann/AppData/Roaming/companion"),
    ],
)
def test_default_data_dir(env: dict[str, str], platform: str, expected: str) -> None:
    assert default_data_dir(env, platform, HOME).as_posix() == expected


def test_database_path_follows_the_given_folder(tmp_path: Path) -> None:
    assert database_path(tmp_path) == tmp_path / "companion.sqlite3"


def test_log_in_folder_uses_the_given_or_default_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SqliteGameLog.in_folder(tmp_path / "mine") as log:
        assert log.path == tmp_path / "mine" / "companion.sqlite3"
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "env"))
    with SqliteGameLog.in_folder() as log:
        assert log.path == tmp_path / "env" / "companion.sqlite3"
        assert log.photos.folder == (tmp_path / "env" / "photos").resolve()
