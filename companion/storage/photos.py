"""Table photos as files named by their SHA-256, inside the data folder and nowhere else.

The same photo saved twice is one file. A file is written to a temporary name, flushed to
disk, then renamed into place, so a reader never sees half a photo, even after a crash.
A file's modification time is when it was last stored: the game log removes the photos no
heist keeps once they are a day old (``SqliteGameLog.forget_unsaved_photos``).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from pathlib import Path

from companion.storage.errors import NotFoundError, OutsideDataFolderError
from companion.storage.paths import make_data_folder

__all__ = ["PhotoStore", "is_photo_ref", "image_type"]

_TEMP_PREFIX = ".partial-"


def is_photo_ref(text: str) -> bool:
    """True for a lowercase hex SHA-256, the only name a stored photo can have."""
    return len(text) == 64 and all(ch in "0123456789abcdef" for ch in text)


# Leading bytes of the image formats phones and webcams produce: (offset, magic, extension).
_SIGNATURES = (
    (0, b"\xff\xd8\xff", "jpg"),
    (0, b"\x89PNG\r\n\x1a\n", "png"),
    (8, b"WEBP", "webp"),
    (4, b"ftypheic", "heic"),
    (4, b"ftypmif1", "heic"),
    (0, b"GIF8", "gif"),
    (0, b"BM", "bmp"),
)


def image_type(head: bytes) -> str | None:
    """The file extension of an image from its first bytes ("jpg", "png", ...), or None.

    >>> image_type(b"GIF89a..."), image_type(b"plain text")
    ('gif', None)
    """
    for offset, magic, extension in _SIGNATURES:
        if head[offset : offset + len(magic)] == magic:
            return extension
    return None


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


class PhotoStore:
    """Content-addressed photos in ``<data folder>/photos``."""

    def __init__(self, data_folder: Path) -> None:
        self.data_folder = Path(data_folder).resolve()
        self.folder = self.data_folder / "photos"
        make_data_folder(self.folder)
        # A photos folder that is a link to elsewhere would write outside the data folder.
        if not _inside(self.folder.resolve(), self.data_folder):
            raise OutsideDataFolderError(str(self.folder.resolve()), str(self.data_folder))

    def path(self, ref: str) -> Path:
        """Where the photo ``ref`` lives; refuses anything that is not a plain hash."""
        if not is_photo_ref(ref):
            raise OutsideDataFolderError(repr(ref), str(self.folder))
        return self.folder / ref

    def put(self, data: bytes) -> str:
        """Store ``data`` once; returns its reference (SHA-256, hex)."""
        ref = hashlib.sha256(data).hexdigest()
        target = self.path(ref)
        if target.is_file() and target.stat().st_size == len(data):
            os.utime(target)  # stored again: as young as a new one
            return ref
        fd, temp_name = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=self.folder)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temp_name, target)
        except BaseException:
            Path(temp_name).unlink(missing_ok=True)
            raise
        self._sync_folder()
        return ref

    def read(self, ref: str) -> bytes:
        """The photo's bytes."""
        try:
            return self.path(ref).read_bytes()
        except FileNotFoundError as error:
            raise NotFoundError("photo", ref) from error

    def exists(self, ref: str) -> bool:
        return self.path(ref).is_file()

    def refs(self) -> frozenset[str]:
        """Every stored photo."""
        return frozenset(p.name for p in self.folder.iterdir() if is_photo_ref(p.name))

    def remove(self, ref: str) -> None:
        """Delete the photo ``ref`` (nothing if it is not there)."""
        self.path(ref).unlink(missing_ok=True)

    def stored_before(self, seconds_ago: float) -> frozenset[str]:
        """The photos last stored more than ``seconds_ago`` seconds ago."""
        limit = time.time() - seconds_ago
        return frozenset(ref for ref in self.refs() if self._mtime(self.folder / ref) < limit)

    def remove_partials(self, seconds_ago: float) -> int:
        """Delete the temporary files a crash left mid-write, older than ``seconds_ago``."""
        limit = time.time() - seconds_ago
        old = [p for p in self.folder.glob(_TEMP_PREFIX + "*") if self._mtime(p) < limit]
        for path in old:
            path.unlink(missing_ok=True)
        return len(old)

    @staticmethod
    def _mtime(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except FileNotFoundError:  # removed meanwhile (another app on the same folder)
            return float("inf")

    def _sync_folder(self) -> None:
        # The rename itself must reach the disk, or a power cut could forget the new name.
        if os.name != "posix":
            return
        fd = os.open(self.folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
