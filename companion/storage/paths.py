"""Where the game log lives by default: the user's data folder."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from companion.messages import phrase
from companion.storage.errors import DataFolderError

__all__ = [
    "APP_FOLDER",
    "DATABASE_NAME",
    "DATA_ENV",
    "default_data_dir",
    "database_path",
    "make_data_folder",
]

APP_FOLDER = "companion"
DATABASE_NAME = "companion.sqlite3"
DATA_ENV = "COMPANION_DATA"  # overrides the default folder, like the app's --data option


def default_data_dir(
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
    home: Path | None = None,
) -> Path:
    """The data folder: $COMPANION_DATA, else the platform's per-user data folder.

    >>> default_data_dir({"XDG_DATA_HOME": "/data"}, "linux", Path("/home/ann")).as_posix()
    '/data/companion'
    """
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if env.get(DATA_ENV):
        return Path(env[DATA_ENV]).expanduser()
    if platform == "win32":
        base = Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    elif platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        # XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
        xdg = env.get("XDG_DATA_HOME", "")
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base / APP_FOLDER


def database_path(data_dir: Path | None = None) -> Path:
    """The game log file inside ``data_dir`` (the default data folder when None)."""
    return (default_data_dir() if data_dir is None else Path(data_dir)) / DATABASE_NAME


def make_data_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) if missing, or a ``DataFolderError`` saying why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise DataFolderError(str(folder), phrase("log.reason_not_a_folder")) from None
    except OSError as error:
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            reason = phrase("log.reason_readonly")
            raise DataFolderError(str(folder), reason) from None
        raise DataFolderError(str(folder), error.strerror or str(error)) from None
