"""One app per data folder: a lock held on ``<data>/app.lock`` while ``companion app`` runs.

A second app on the same folder would empty the first one's upload folder at start-up and
write to the same log from two servers; it is told where the first one runs instead. The lock
is the system's (``flock``; ``msvcrt.locking`` on Windows): a killed app leaves none behind.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from companion.errors import CompanionError

__all__ = ["LOCK_NAME", "FolderInUseError", "hold_data_folder"]

LOCK_NAME = "app.lock"
_HOLDER_CHARS = 200  # what the lock file says about its holder, read back at most


class FolderInUseError(CompanionError):
    """Another Companion app already runs on this data folder; ``holder`` is what it wrote
    (its process and address)."""

    def __init__(self, folder: str, holder: str) -> None:
        super().__init__("app.folder_in_use", path=folder, holder=holder)


def _try_lock(file: IO[str]) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


@contextmanager
def hold_data_folder(folder: Path, holder: str) -> Iterator[None]:
    """Hold ``folder``'s lock for the ``with`` block, writing ``holder`` in it for a second
    app to name; if another process holds it, a ``FolderInUseError`` naming that one."""
    with (folder / LOCK_NAME).open("a+", encoding="utf-8") as file:
        if not _try_lock(file):
            file.seek(0)
            found = " ".join(file.read(_HOLDER_CHARS).split()) or "?"
            raise FolderInUseError(str(folder), found)
        file.seek(0)
        file.truncate()
        file.write(holder + "\n")
        file.flush()
        try:
            yield
        finally:
            file.seek(0)
            file.truncate()
